"""Two graders' files joined by case ID: :class:`JoinedRows`.

Each side is read as its own one-row-per-case file (any format of ledger rows, or a JSON
document's list), its ``where`` and ``ids`` applied, its labels read by its vocabulary.
Side b is read first and held as its IDs with their labels and row numbers (one entry
an ID); side a is then streamed, each row joined with b's label of its ID. So memory follows
side b's IDs, never either file's rows.

The joined ledger, as the seeds' rules read it:

- side a's rows in its file order, each with b's label where b has its ID (a's other
  keys kept beside them as review fields); then, in b's file order, side b's rows whose
  ID side a lacks, and its repeats: an ID twice within side b is a second row with that
  ID (the same case judged twice, which the identity rule refuses, as it refuses an ID
  twice within a), and a blank or non-text ID of b is a row of its own;
- an ID on one side only is a row with one label: a missing label, an evidence gap.

The rows are those of the same ledger written as ``id,a,b`` in that order. This module
does not import pytest.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from functools import partial

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter, index_of
from pytest_rubric.descriptions.ledger import vocabulary
from pytest_rubric.descriptions.selection import Conditions, id_reader
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.judgements import BothJudged, judged, kept_rows
from pytest_rubric.inputs.ledgermaps import Outside, grouped, label_meaning
from pytest_rubric.inputs.passes import Handed, Pass, close_groups, first_notes, taken
from pytest_rubric.inputs.readnotes import ReadNotes
from pytest_rubric.inputs.textfiles import unreadable

#: How many IDs found on one side only the evidence names.
ONE_SIDE_NAMED = 3
#: Rows a label block holds.
BLOCK_ROWS = 4096


#: One row of a side as read: its ID, its label (its Boolean, or the value outside the
#: vocabulary), ``None`` or why the label is outside the vocabulary, its number in the
#: side's file (its place is worded only when a message names it), its review fields
#: (side a's only), the value it holds at ``group_by`` (side a's only), and whether its
#: label is a judgement (:func:`~pytest_rubric.inputs.judgements.judged`).
_Read = tuple[object, object, "Outside | None", int, "dict[str, object] | None", object, bool]


class JoinedRows:
    """The joined ledger of ``file`` (side a's file, whose ledger is the join; its
    ``sides`` the two sides' files, each with its side's ledger), read one row at a time
    as :class:`~pytest_rubric.inputs.rows.FileRows` is, each pass from the start."""

    def __init__(self, file: InputFile, case_file: str = "") -> None:
        ledger = file.ledger
        assert ledger is not None
        assert ledger.join is not None
        assert file.sides is not None
        self.file = file
        self.ledger = ledger
        self.display = file.display
        self.case_file = case_file
        self.sides = file.sides
        #: Where each side's ``ids:`` is written, in words.
        self.ids_go = tuple(_ids_go(side, case_file) for side in file.sides)
        group_by = ledger.group_by
        #: Each row's place (side a's number, or minus side b's) and group, as handed over.
        self.handed = Handed(group_by is not None)
        #: Each pass, in the order taken.
        self.passes: list[Pass] = []

    def __iter__(self) -> Iterator[JSON]:
        this = taken("rows", self.file.ledger.group_by if self.file.ledger is not None else None)
        self.passes.append(this)
        return self.handed.over(self._joined(this), this.cursor, this.findings.groups)

    def label_blocks(self) -> Iterator[LabelBlock | None]:
        """The joined rows again, a block at a time, as :class:`LabelBlock`: for a tally
        that does its work in C. Only a plain join is read so (every ID text and on both
        sides once, every label a Boolean of its side's vocabulary): ``None``, and
        nothing after it, anywhere else, and the rows are read one at a time, which says
        exactly what is wrong and where."""
        this = taken("blocks", None)
        self.passes.append(this)
        ledger = self.file.ledger
        if ledger is not None and ledger.group_by is not None:
            return iter((None,))  # each row's group is read one at a time
        if ledger is not None and ledger.both_judged is not None:
            return iter((None,))  # whether both judged a row, one at a time
        return self._blocks(this)

    def _blocks(self, this: Pass) -> Iterator[LabelBlock | None]:
        findings = this.findings
        left_out: dict[str, int] = {}
        held: dict[str, bool] = {}
        for case_id, label, *_ in self._read(1, False, left_out):
            if type(case_id) is not str or type(label) is not bool or case_id in held:
                yield None
                return
            held[case_id] = label
        get = held.get
        ids: list[str] = []
        differing: list[str] = []
        both = neither = a_only = b_only = matched = count_a = 0
        for case_id, label, *_ in self._read(0, False, left_out):
            count_a += 1
            other = get(case_id) if type(case_id) is str else None
            if other is None or type(label) is not bool:
                yield None  # one side only, a label outside, an ID not text: the rows say
                return
            matched += 1
            ids.append(case_id)  # type: ignore[arg-type]
            if label:
                if other:
                    both += 1
                else:
                    a_only += 1
                    differing.append(case_id)  # type: ignore[arg-type]
            elif other:
                b_only += 1
                differing.append(case_id)  # type: ignore[arg-type]
            else:
                neither += 1
            if len(ids) == BLOCK_ROWS:
                yield LabelBlock(ids, (both, neither, a_only, b_only), differing)
                ids, differing = [], []
                both = neither = a_only = b_only = 0
        if matched != len(held):
            yield None  # an ID of b's that a lacks (or a's repeats, which the tally finds)
            return
        findings.sides = ((self.sides[0].display, count_a), (self.sides[1].display, len(held)))
        findings.left_out = left_out
        findings.whole = True
        if ids or not count_a:
            yield LabelBlock(ids, (both, neither, a_only, b_only), differing)

    def place(self, side: int, number: int) -> str:
        """Row ``number`` of side ``side``'s file, named with the file:
        ``file:LINE``, ``file#row N`` (Parquet), ``file#records[N]`` (a document)."""
        return self.sides[side].place(number)

    def _read(
        self,
        index: int,
        fields: bool,
        left_out: dict[str, int],
        group_of: Callable[[object], object] | None = None,
    ) -> Iterator[_Read]:
        """Side ``index``'s rows as read, those its ``where`` keeps (the rest counted in
        ``left_out``, by the first condition each failed, once the side is read whole),
        each with the value ``group_of`` reads from it."""
        file = self.sides[index]
        side_spec = file.ledger
        assert side_spec is not None
        cursor = Cursor()
        raw = file.reader.rows(file, self.case_file, cursor)

        def here() -> str:
            return self.place(index, cursor.position)

        conditions = Conditions(side_spec.selection.where, here)
        rows = kept_rows(raw, conditions) if conditions.checks else raw
        get_id, get_label = id_reader(side_spec.id, side_spec.selection), getter(side_spec.a)
        # The usual side: an ID and a label each under one key, words for labels (or real
        # booleans): read with dict lookups, no call a row.
        id_key = _one_key(side_spec.id) if not side_spec.selection.ids_as_text else None
        label_key = _one_key(side_spec.a)
        meaning = label_meaning(side_spec.labels)
        used = {side_spec.id.parts[0], side_spec.a.parts[0], "id", "a", "b", *grouped(side_spec)}
        kept_any = False
        try:
            for row in rows:
                kept_any = True
                if type(row) is not dict:
                    raise RubricInputError(
                        f"{here()}: the row is {describe(row)}; a row of a side of a join is "
                        "a mapping holding its ID and label"
                    )
                value = row.get(label_key, ABSENT) if label_key is not None else get_label(row)
                label, outside = meaning(value)
                kept = (
                    {key: item for key, item in row.items() if key not in used} if fields else None
                )
                case_id = row.get(id_key, ABSENT) if id_key is not None else get_id(row)
                group_value = ABSENT if group_of is None else group_of(row)
                yield case_id, label, outside, cursor.position, kept, group_value, judged(value)
        except RubricInputError:
            raise
        except Exception as exc:
            raise unreadable(here(), exc) from None
        name = "ab"[index]
        if conditions.left_out and not kept_any:  # never a side read as empty
            raise conditions.none_kept(self.case_file, "rows", f"side '{name}': ")
        for reason, count in conditions.left_out.items():
            left_out[f"{name}: {reason}"] = count

    def _joined(self, this: Pass) -> Iterator[JSON]:
        """The joined rows, the cursor of pass ``this`` moved to each one's place as it
        is handed over: side a's row number, or minus side b's."""
        findings, at = this.findings, this.cursor
        left_out: dict[str, int] = {}
        held, extra = self._side_b(left_out)
        count_b = len(held) + len(extra)
        keeps = (overlap := BothJudged(self.ledger)).keeps
        handed = 0
        seen: set[str] = set()  # a's IDs
        one_side = [] if overlap.on else findings.one_side  # both-judged: counted alone

        def hand(row: dict[str, object], side: int, read: _Read, other: _Read | None) -> JSON:
            """``row``, once the first label outside the vocabulary in ``read`` (of
            ``side``) or ``other`` (of b) is noted; the row is named by ``read``."""
            nonlocal handed
            if findings.outside is None:
                for index, one in ((side, read), (1, other)):
                    if one is not None and one[2] is not None:
                        outside = one[2]
                        place = self.place(index, one[3])
                        findings.label_outside(
                            place, "ab"[index], one[0], outside.value, handed, outside.hint
                        )
                        break
            at.position = read[3] if side == 0 else -read[3]
            if type(read[0]) in (int, float):
                self._note_id(this, handed, side, read)
            handed += 1
            return row  # type: ignore[return-value]

        count_a = 0
        groups = findings.groups
        for read in self._read(0, True, left_out, None if groups is None else groups.read):
            count_a += 1
            case_id, label, _, _, fields, group_value, _ = read
            row: dict[str, object] = {} if case_id is ABSENT else {"id": case_id}
            if label is not ABSENT:
                row["a"] = label
            other = None
            if type(case_id) is str and case_id not in seen:
                seen.add(case_id)
                other = held.get(case_id)
                if other is None and len(one_side) < ONE_SIDE_NAMED:
                    place = self.place(0, read[3])
                    one_side.append(f"{escape_controls(repr(case_id))} ({place}, a only)")
            odd = type(case_id) is not str  # kept: the evaluator names its ID
            if not keeps(read[6] or odd, odd or (other is not None and other[6])):
                continue
            if other is not None and other[1] is not ABSENT:
                row["b"] = other[1]
            if fields:
                row.update(fields)
            if findings.groups is not None:
                findings.groups.add(row, group_value)
            yield hand(row, 0, read, other)
        rest = heapq.merge(  # b's IDs that a lacks (first seen: one side only), and the rest
            ((read[3], True, read) for case_id, read in held.items() if case_id not in seen),
            ((read[3], False, read) for read in extra),
        )
        for _, alone, read in rest:
            case_id = read[0]
            row = {} if case_id is ABSENT else {"id": case_id}
            if read[1] is not ABSENT:
                row["b"] = read[1]
            if alone and len(one_side) < ONE_SIDE_NAMED:
                place = self.place(1, read[3])
                one_side.append(f"{escape_controls(repr(case_id))} ({place}, b only)")
            if not keeps(odd := type(case_id) is not str, odd or read[6]):
                continue
            if findings.groups is not None:  # side a has no row of it: no group value
                findings.groups.add(row, ABSENT)
            yield hand(row, 1, read, None)
        findings.sides = ((self.sides[0].display, count_a), (self.sides[1].display, count_b))
        findings.left_out = left_out
        overlap.close(findings, self.case_file)
        side_a = self.sides[0]
        kept = side_a.ledger is not None and bool(side_a.ledger.selection.where)
        close_groups(findings, f"side a's file {side_a.display}", kept, self.case_file)
        findings.whole = True

    def _side_b(self, left_out: dict[str, int]) -> tuple[dict[str, _Read], list[_Read]]:
        """Side b's rows by ID, in b's order, and its other rows (an ID repeated, blank
        or not text)."""
        held: dict[str, _Read] = {}
        extra: list[_Read] = []
        for read in self._read(1, False, left_out):
            case_id = read[0]
            if type(case_id) is str and case_id not in held:
                held[case_id] = read
            else:
                extra.append(read)
        return held, extra

    def _note_id(self, this: Pass, index: int, side: int, read: _Read) -> None:
        """Pass ``this`` notes the ID of ``read`` (of ``side``, handed over as row
        ``index``) if it is the first number, with where that side's ``ids:`` goes."""
        where = partial(self.place, side, read[3])
        this.findings.note_id(index, read[0], where, self.ids_go[side])

    def place_of(self, index: int) -> str:
        """Where row ``index`` (from 0) is, with its file: ``file:LINE`` (or ``#row N``...);
        the join's file for a row no pass has handed over yet."""
        number = self.handed.line(index)
        if number is None:
            return self.display
        return self.place(0, number) if number > 0 else self.place(1, -number)

    def group(self, index: int) -> str | None:
        """The label of the group of row ``index`` (``None`` without ``group_by``, or for
        a row no pass has handed over yet)."""
        return self.handed.group(index)

    def where(self, index: int) -> str:
        """Row ``index``, named for people by its place."""
        return f"{self.place_of(index)} rows[{index}]"

    def notes(self) -> ReadNotes | None:
        """What the first pass found (:func:`~pytest_rubric.inputs.passes.first_notes`):
        the IDs of each side, those on one side only, the first label outside its side's
        vocabulary, the rows ``where`` left out."""
        return first_notes(self.passes, self._vocabulary)

    def _vocabulary(self, chosen: Pass) -> str:
        """The vocabulary of the side whose label outside it the pass ``chosen`` found
        (a's by default)."""
        outside = chosen.findings.outside
        side = 0 if outside is None or outside.side == "a" else 1
        spec = self.sides[side].ledger
        return vocabulary(None if spec is None else spec.labels)


def _ids_go(side: InputFile, case_file: str) -> str:
    """Where the ``ids:`` of ``side`` (a side's file) is written, in words."""
    assert side.ledger is not None
    return side.ledger.ids_go(case_file)


def _one_key(path: KeyPath) -> str | None:
    """The key ``path`` names where it is one key (not a list index), else ``None``."""
    return path.parts[0] if len(path.parts) == 1 and index_of(path.parts[0]) is None else None
