"""A ledger file's rows as the evaluator is handed them: :class:`FileRows`.

Three parts, each its own module, meet here:

- a **row source** per format reads the file's rows as written, one at a time
  (:data:`ROW_SOURCES`: ``.jsonl``, ``.csv``, ``.parquet``, and a ``.json`` document's
  list of rows), moving a
  :class:`~pytest_rubric.inputs.cursor.Cursor` of its pass;
- a **block source** per format offers the same rows as label blocks, where it can
  (:data:`BLOCK_SOURCES`);
- the **mapping** (:mod:`~pytest_rubric.inputs.ledgermaps`) turns an export's rows into
  ledger rows as its ``ledger:`` block says, whatever the format, after
  :mod:`~pytest_rubric.inputs.judgements` keeps the rows (or judgements) its ``where``
  keeps and splits rows that hold several judgements.

A new format is a new module and one entry in each table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TextIO

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.keypaths import ABSENT, getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import LedgerError, misfit
from pytest_rubric.descriptions.selection import Conditions
from pytest_rubric.inputs.csvrows import csv_rows
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.groups import GroupTally, nowhere_words
from pytest_rubric.inputs.jsondocs import document_rows
from pytest_rubric.inputs.jsonl import jsonl_rows
from pytest_rubric.inputs.judgementblocks import judgement_blocks
from pytest_rubric.inputs.judgements import judgements_of, kept_rows
from pytest_rubric.inputs.ledgermaps import mapped_rows
from pytest_rubric.inputs.notewords import path_break
from pytest_rubric.inputs.pairing import PairingPlaces, paired_judgements
from pytest_rubric.inputs.readnotes import ReadNotes
from pytest_rubric.inputs.source import InputFile
from pytest_rubric.inputs.textblocks import lone_judgements, text_label_blocks
from pytest_rubric.inputs.textfiles import text_rows, unreadable

#: Reads a file's rows as written: the file, the case file's name (for messages about
#: its ``ledger:`` block), and the cursor the reading moves.
RowSource = Callable[[InputFile, str, Cursor], Iterator[JSON]]
#: Reads a file's rows as label blocks; the findings take what the blocks found.
BlockSource = Callable[[InputFile, Findings], Iterator[LabelBlock | None]]


def _jsonl(file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
    def read(stream: TextIO) -> Iterator[JSON]:
        return jsonl_rows(stream, file.display, cursor)

    return text_rows(
        file.path, file.display, file.format.endswith(".gz"), read, _at_line(file, cursor)
    )


def _csv(file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
    def read(stream: TextIO) -> Iterator[JSON]:
        return csv_rows(stream, file.display, cursor, file.description, case_file)

    return text_rows(
        file.path, file.display, file.format.endswith(".gz"), read, _at_line(file, cursor)
    )


def _document(file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
    records = file.selection.records

    def read(stream: TextIO) -> Iterator[JSON]:
        return document_rows(stream, file.display, cursor, records, case_file)

    def where() -> str:
        return f"{file.display}{document_place(file, cursor.position)}"

    return text_rows(file.path, file.display, file.format.endswith(".gz"), read, where)


def document_place(file: InputFile, number: int | str) -> str:
    """Row ``number`` (from 1) of a JSON document's list, after the file's name:
    ``#records[N]`` (N from 0), the list named as ``records:`` writes it."""
    records = file.selection.records
    index = number - 1 if isinstance(number, int) else number
    return f"#{'' if records is None else records.written}[{index}]"


def _at_line(file: InputFile, cursor: Cursor) -> Callable[[], str]:
    """Where a text file's reading is: the line being read, once there is one."""
    return lambda: f"{file.display}:{cursor.position}" if cursor.position else file.display


def _jsonl_blocks(file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
    if file.ledger is not None and file.ledger.per_judgement:
        return judgement_blocks(_jsonl(file, "", Cursor()), file.ledger, findings)
    return text_label_blocks(file, findings)


def _document_blocks(file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
    if file.ledger is not None and file.ledger.per_judgement:
        return judgement_blocks(_document(file, "", Cursor()), file.ledger, findings)
    return iter((None,))


def _parquet(file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
    from pytest_rubric.inputs.parquet import parquet_rows  # pyarrow, when asked

    try:  # a batch is converted whole: the row at fault is this one or a later one
        yield from parquet_rows(file, case_file, cursor)
    except RubricInputError:
        raise
    except Exception as exc:  # pyarrow's own (a value Python has no type for, ...)
        place = f"{file.display}, from #row {cursor.position + 1} on"
        raise unreadable(place, exc) from None


def _parquet_blocks(file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
    from pytest_rubric.inputs.parquet import parquet_label_blocks

    return parquet_label_blocks(file)


def _blocks_or_rows(blocks: Iterator[LabelBlock | None]) -> Iterator[LabelBlock | None]:
    """``blocks``, or ``None`` where reading them fails in any way of its own: the rows
    are then read one at a time, which names what is wrong and where."""
    try:
        yield from blocks
    except RubricInputError:
        raise
    except Exception:
        yield None


#: The row source of each format of ledger rows, by its suffix without ``.gz``.
ROW_SOURCES: dict[str, RowSource] = {
    ".jsonl": _jsonl,
    ".csv": _csv,
    ".parquet": _parquet,
    ".json": _document,
}
#: The block source of each format that has one.
BLOCK_SOURCES: dict[str, BlockSource] = {
    ".jsonl": _jsonl_blocks,
    ".csv": text_label_blocks,
    ".parquet": _parquet_blocks,
    ".json": _document_blocks,
}


class FileRows:
    """A ledger file's rows, read one at a time (at most one row held), each pass from
    the start: the file as ``file`` says (its format, its ``ledger:`` block);
    ``case_file`` names the case file in messages about the block.

    Iterating yields the ledger rows; :meth:`label_blocks` yields the same rows as label
    blocks (a :class:`~pytest_rubric.core.labelblocks.LabelBlockSource`). Neither changes
    what the other yields, whichever is called first or how often. :meth:`where` names
    the row the latest pass handed over last (a problem found in a row is reported at its
    place); :meth:`notes` says what the reading found.
    """

    def __init__(self, file: InputFile, case_file: str = "") -> None:
        self.file = file
        self.display = file.display
        self.case_file = case_file
        self.base = file.format.removesuffix(".gz")
        self._source = ROW_SOURCES[self.base]
        self._cursor = Cursor()  # the latest pass's
        #: Each pass's findings, as ("rows" | "blocks", findings), in the order taken.
        self._passes: list[tuple[str, Findings]] = []

    def __iter__(self) -> Iterator[JSON]:
        cursor = Cursor()
        self._cursor = cursor
        raw = self._source(self.file, self.case_file, cursor)
        ledger = self.file.ledger
        if ledger is None:
            return raw
        findings = Findings()
        if ledger.group_by is not None:
            findings.groups = GroupTally(ledger.group_by)
        self._passes.append(("rows", findings))
        return self._mapped(raw, cursor, findings)

    def _mapped(self, raw: Iterator[JSON], cursor: Cursor, findings: Findings) -> Iterator[JSON]:
        ledger = self.file.ledger
        assert ledger is not None

        def here() -> str:
            """The row just read, by its place in the file (for what reading found)."""
            return f"{self.display}{self.place(cursor.position)}"

        conditions = Conditions(ledger.selection.where, here)
        if ledger.per_judgement:
            assert ledger.grader is not None
            assert ledger.label is not None
            raw = judgements_of(raw, ledger.grader, ledger.label, conditions, here)  # type: ignore[assignment]
        elif conditions.checks:
            raw = kept_rows(raw, conditions)  # type: ignore[assignment]
        if ledger.per_judgement:
            find_lone = None
            if self.base == ".csv":
                file = self.file

                def find_lone() -> frozenset[str] | None:
                    return lone_judgements(file)

            places = PairingPlaces(cursor, here)
            rows = paired_judgements(raw, ledger, findings, places, find_lone, self.case_file)
        else:
            rows = mapped_rows(raw, ledger, findings, here, findings.groups)
        handed = False
        try:
            for row in rows:
                handed = True
                yield row  # type: ignore[misc]
        except RubricInputError:
            raise
        except Exception as exc:  # mapping a row the reader handed over
            raise unreadable(here(), exc) from None
        if conditions.left_out and not handed:  # never an empty ledger
            raise _none_kept(ledger, conditions, self.case_file)
        groups = findings.groups
        if groups is not None and groups.nowhere():  # never one group of a misspelt key
            kept = bool(ledger.selection.where)
            words = nowhere_words(groups, self.display, kept)
            findings.group_nowhere = str(misfit(self.case_file, groups.path.at, words))
        findings.left_out = conditions.left_out
        findings.whole = True

    @property
    def line(self) -> int:
        """The line (Parquet: the row number) of the row the latest pass handed over last."""
        return self._cursor.line

    def place(self, line: int | str) -> str:
        """Where row ``line`` is, after the file's name: ``:LINE``, ``#row N`` (Parquet),
        or ``#records[N]`` (a JSON document's list)."""
        if self.base == ".parquet":
            return f"#row {line}"
        if self.base == ".json":
            return document_place(self.file, line)
        return f":{line}"

    def here(self) -> str:
        """Where the row the latest pass handed over last is: ``:LINE``, or ``#row N``."""
        return self.place(self._cursor.line)

    def group(self) -> str | None:
        """The label of the group of the row the latest pass handed over last (``None``
        without ``group_by``)."""
        return group_of_last(self._passes)

    def where(self, index: int) -> str:
        """Row ``index``, the row the latest pass handed over last, named for people."""
        return f"{self.display}{self.place(self._cursor.line)} rows[{index}]"

    def label_blocks(self) -> Iterator[LabelBlock | None]:
        """The rows again, a block at a time, as :class:`LabelBlock`: for a tally that does
        its work in C. Only plain rows are read so (see :mod:`~pytest_rubric.inputs.blocks`,
        and :mod:`~pytest_rubric.inputs.parquet` for Parquet): ``None``, and nothing after
        it, where a block holds anything else; then read the rows one at a time, which
        says exactly what is wrong and where."""
        blocks = BLOCK_SOURCES.get(self.base)
        ledger = self.file.ledger
        if blocks is None or (
            ledger is not None
            and (
                ledger.selection.where
                or ledger.selection.ids_as_text
                # Groups are tallied in blocks of a CSV's judgements only; elsewhere each
                # row's group is read one at a time.
                or (
                    ledger.group_by is not None
                    and not (ledger.per_judgement and self.base == ".csv")
                )
            )
        ):
            return iter((None,))
        findings = Findings()
        if ledger is not None and ledger.group_by is not None:
            findings.groups = GroupTally(ledger.group_by)
        self._passes.append(("blocks", findings))
        return _blocks_or_rows(blocks(self.file, findings))

    def notes(self) -> ReadNotes | None:
        """What the reading found, for an export read through a ``ledger:`` block: the
        first pass's one row at a time, if one was taken (a second pass, to find a
        repeated ID's first place, adds nothing); else the blocks' that were read to
        their end. ``None`` without a block, or before anything was read."""
        ledger = self.file.ledger
        if ledger is None:
            return None
        chosen = next((found for kind, found in self._passes if kind == "rows"), None)
        if chosen is None:
            chosen = next((found for _, found in self._passes if found.whole), None)
        return None if chosen is None else ReadNotes.of(chosen, ledger.vocabulary())


def group_of_last(passes: list[tuple[str, Findings]]) -> str | None:
    """The label of the group of the row the latest pass of ``passes`` handed over last."""
    if not passes:
        return None
    groups = passes[-1][1].groups
    return None if groups is None else groups.last


def _none_kept(ledger: Ledger, conditions: Conditions, case_file: str) -> LedgerError:
    """The case's problem when ``where`` keeps nothing: never an empty ledger. When the
    ``grader`` path finds no grader in the first judgement left out either, that is said
    first: ``where`` is then not the slip."""
    grader = ledger.grader
    first = conditions.first_row
    if grader is not None and type(first) is dict and getter(grader)(first) is ABSENT:
        return LedgerError(
            f"{case_file}:{grader.at[0]}:{grader.at[1]}: ledger 'grader' is "
            f"{escape_controls(repr(grader.written))}, which finds no grader, and 'where' "
            "leaves out every judgement, so the ledger would be empty: "
            f"{path_break(grader.parts, first, conditions.first_place)}"
        )
    return conditions.none_kept(case_file, "judgements" if ledger.per_judgement else "rows")
