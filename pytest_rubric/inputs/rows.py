"""A ledger file's rows as the evaluator is handed them: :class:`FileRows`.

Three parts meet here:

- the file's **format** (:mod:`~pytest_rubric.inputs.formats`) reads its rows as written,
  one at a time, moving a :class:`~pytest_rubric.inputs.cursor.Cursor` of its pass, and
  offers the same rows as label blocks where it can;
- the **mapping** (:mod:`~pytest_rubric.inputs.ledgermaps`) turns an export's rows into
  ledger rows as its ``ledger:`` block says, whatever the format, after
  :mod:`~pytest_rubric.inputs.judgements` keeps the rows (or judgements) its ``where``
  keeps and splits rows that hold several judgements;
- the **record** of each row's place (and group) as a pass hands it over
  (:class:`~pytest_rubric.inputs.passes.Handed`): row ``i`` has the same place in every
  pass of one file, so any pass answers for any row it has reached.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.keypaths import ABSENT, getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import LedgerError
from pytest_rubric.descriptions.selection import Conditions
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.judgements import judgements_of, kept_rows
from pytest_rubric.inputs.ledgermaps import mapped_rows
from pytest_rubric.inputs.notewords import path_break
from pytest_rubric.inputs.pairing import PairingPlaces, paired_judgements
from pytest_rubric.inputs.passes import Handed, Pass, close_groups, first_notes, taken
from pytest_rubric.inputs.readnotes import ReadNotes
from pytest_rubric.inputs.textfiles import unreadable


def _blocks_or_rows(blocks: Iterator[LabelBlock | None]) -> Iterator[LabelBlock | None]:
    """``blocks``, or ``None`` where reading them fails in any way of its own: the rows
    are then read one at a time, which names what is wrong and where."""
    try:
        yield from blocks
    except RubricInputError:
        raise
    except Exception:
        yield None


class FileRows:
    """A ledger file's rows, read one at a time (at most one row held), each pass from
    the start: the file as ``file`` says (its format, its ``ledger:`` block);
    ``case_file`` names the case file in messages about the block.

    Iterating yields the ledger rows; :meth:`label_blocks` yields the same rows as label
    blocks (a :class:`~pytest_rubric.core.labelblocks.LabelBlockSource`). Neither changes
    what the other yields, whichever is called first or how often. Each pass is a
    :class:`~pytest_rubric.inputs.passes.Pass` value (what it found, once read whole);
    :meth:`where` names row ``index`` by its place, :meth:`group` its group, whichever
    pass handed it over; :meth:`notes` says what the reading found.
    """

    def __init__(self, file: InputFile, case_file: str = "") -> None:
        self.file = file
        self.display = file.display
        self.case_file = case_file
        self.format = file.reader
        #: Each row's place (and group) as passes hand it over: the same in every pass.
        self.handed = Handed(file.ledger is not None and file.ledger.group_by is not None)
        #: Each pass, in the order taken.
        self.passes: list[Pass] = []

    def __iter__(self) -> Iterator[JSON]:
        cursor = Cursor()
        raw = self.format.rows(self.file, self.case_file, cursor)
        ledger = self.file.ledger
        if ledger is None:
            return self.handed.over(raw, cursor, None)
        this = taken("rows", ledger.group_by)
        self.passes.append(this)
        findings = this.findings
        return self.handed.over(self._mapped(raw, cursor, findings), cursor, findings.groups)

    def _mapped(self, raw: Iterator[JSON], cursor: Cursor, findings: Findings) -> Iterator[JSON]:
        ledger = self.file.ledger
        assert ledger is not None

        def here() -> str:
            """The row just read, by its place in the file (for what reading found)."""
            return self.file.place(cursor.position)

        conditions = Conditions(ledger.selection.where, here)
        if ledger.per_judgement:
            rows = self._paired(raw, ledger, conditions, cursor, findings)
        else:
            if conditions.checks:
                raw = kept_rows(raw, conditions)  # type: ignore[assignment]
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
        close_groups(findings, self.display, bool(ledger.selection.where), self.case_file)
        findings.left_out = conditions.left_out
        findings.whole = True

    def _paired(
        self,
        raw: Iterator[JSON],
        ledger: Ledger,
        conditions: Conditions,
        cursor: Cursor,
        findings: Findings,
    ) -> Iterator[object]:
        """One row per judgement: the judgements ``conditions`` keep, paired by case; a
        case is named by the line of its first judgement."""
        assert ledger.grader is not None
        assert ledger.label is not None
        here = conditions.where
        assert here is not None
        judgements = judgements_of(raw, ledger.grader, ledger.label, conditions, here)
        find_lone = partial(self.format.lone_judgements, self.file)
        places = PairingPlaces(cursor, here)
        return paired_judgements(judgements, ledger, findings, places, find_lone, self.case_file)

    def place(self, line: int | str) -> str:
        """Where row ``line`` is, after the file's name: ``:LINE``, ``#row N`` (Parquet),
        or ``#records[N]`` (a JSON document's list)."""
        return self.format.place(self.file, line)

    def place_of(self, index: int) -> str:
        """Where row ``index`` (from 0) is, after the file's name; nothing for a row no
        pass has handed over yet."""
        line = self.handed.line(index)
        return "" if line is None else self.place(line)

    def group(self, index: int) -> str | None:
        """The label of the group of row ``index`` (``None`` without ``group_by``, or for
        a row no pass has handed over yet)."""
        return self.handed.group(index)

    def where(self, index: int) -> str:
        """Row ``index``, named for people by its place."""
        return f"{self.display}{self.place_of(index)} rows[{index}]"

    def label_blocks(self) -> Iterator[LabelBlock | None]:
        """The rows again, a block at a time, as :class:`LabelBlock`: for a tally that does
        its work in C, where the format has a fast path. Only plain rows are read so:
        ``None``, and nothing after it, where a block holds anything else; then read the
        rows one at a time, which says exactly what is wrong and where."""
        ledger = self.file.ledger
        if ledger is not None and (ledger.selection.where or ledger.selection.ids_as_text):
            return iter((None,))
        this = taken("blocks", None if ledger is None else ledger.group_by)
        self.passes.append(this)
        return _blocks_or_rows(self.format.label_blocks(self.file, this.findings))

    def notes(self) -> ReadNotes | None:
        """What the reading found, for an export read through a ``ledger:`` block
        (:func:`~pytest_rubric.inputs.passes.first_notes` of its passes). ``None``
        without a block, or before anything was read."""
        ledger = self.file.ledger
        if ledger is None:
            return None
        return first_notes(self.passes, lambda findings: ledger.vocabulary())


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
