"""A ledger file's rows as the evaluator is handed them: :class:`FileRows`.

Three parts meet here:

- the file's **format** (:mod:`~pytest_rubric.inputs.formats`) reads its rows as written,
  one at a time, moving a :class:`~pytest_rubric.inputs.cursor.Cursor` of its pass, and
  offers the same rows as label blocks where it can;
- the **mapping** (:mod:`~pytest_rubric.inputs.ledgerpass`: one a case in
  :mod:`~pytest_rubric.inputs.ledgermaps`, one a judgement paired in
  :mod:`~pytest_rubric.inputs.pairing`) turns an export's rows into ledger rows as its
  ``ledger:`` block says, whatever the format, after
  :mod:`~pytest_rubric.inputs.judgements` keeps the rows (or judgements) its ``where``
  keeps and splits rows that hold several judgements;
- the **record** of each row's place (and group) as a pass hands it over
  (:class:`~pytest_rubric.inputs.passes.Handed`): row ``i`` has the same place in every
  pass of one file, so any pass answers for any row it has reached.
"""

from __future__ import annotations

from collections.abc import Iterator

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.ledgerpass import ledger_rows
from pytest_rubric.inputs.panelread import panel_blocks
from pytest_rubric.inputs.passes import Handed, Pass, first_notes, taken
from pytest_rubric.inputs.readnotes import ReadNotes


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
        ledger = self.file.ledger
        this = taken("rows", None if ledger is None else ledger.group_by)
        raw = self.format.rows(self.file, self.case_file, this.cursor)
        if ledger is None:
            return self.handed.over(raw, this.cursor, None)
        self.passes.append(this)
        rows = ledger_rows(self.file, this, raw, self.case_file)
        return self.handed.over(rows, this.cursor, this.findings.groups)

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
        this = taken("blocks", None if ledger is None else ledger.group_by)
        # A panel's pair: its export read once for all.
        blocks = None if self.file.panel_read is None else panel_blocks(self.file, this.findings)
        if blocks is None and (
            ledger is not None
            and (ledger.selection.where or ledger.selection.ids_as_text or ledger.both_judged)
        ):
            return iter((None,))
        self.passes.append(this)
        if blocks is not None:
            return _blocks_or_rows(blocks)
        return _blocks_or_rows(self.format.label_blocks(self.file, this.findings))

    def notes(self) -> ReadNotes | None:
        """What the reading found, for an export read through a ``ledger:`` block
        (:func:`~pytest_rubric.inputs.passes.first_notes` of its passes). ``None``
        without a block, or before anything was read."""
        ledger = self.file.ledger
        if ledger is None:
            return None
        return first_notes(self.passes, lambda chosen: ledger.vocabulary())
