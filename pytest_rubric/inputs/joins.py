"""Two graders' files joined by case ID: :class:`JoinedRows`.

Each side is read as its own one-row-per-case file (any format of ledger rows, or a JSON
document's list), its ``where`` and ``ids`` applied, its labels read by its vocabulary.
Side b is read first and held as its IDs with their labels and places (one entry an ID);
side a is then streamed, each row joined with b's label of its ID. So memory follows
side b's IDs, never either file's rows.

The joined ledger, as the seeds' rules read it:

- side a's rows in its file order, each with b's label where b has its ID (a's other
  keys kept beside them as review fields); then side b's rows whose ID side a lacks,
  in b's file order;
- an ID twice within side b is a second row with that ID after a's rows (the same case
  judged twice, which the identity rule refuses, as it refuses an ID twice within a);
  so is a blank or non-text ID of b;
- an ID on one side only is a row with one label: a missing label, an evidence gap.

The rows are those of the same ledger written as ``id,a,b`` in that order. This module
does not import pytest.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import replace

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.jsonvalues import JSON, escape_controls
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.joinspec import Side
from pytest_rubric.inputs.judgements import kept_rows
from pytest_rubric.inputs.keypaths import ABSENT, getter
from pytest_rubric.inputs.labels import label_lookup, outside_hint
from pytest_rubric.inputs.ledgerspec import Ledger, vocabulary
from pytest_rubric.inputs.notes import Findings, ReadNotes
from pytest_rubric.inputs.rows import ROW_SOURCES, document_place
from pytest_rubric.inputs.selection import Conditions, id_reader
from pytest_rubric.inputs.source import InputFile
from pytest_rubric.inputs.textfiles import unreadable

#: How many IDs found on one side only the evidence names.
ONE_SIDE_NAMED = 3


def side_ledger(side: Side, ledger: Ledger) -> Ledger:
    """One side read as a one-row-per-case ledger: its ID, and its label under both a
    and b (what a format's reader checks a header or schema against)."""
    return Ledger(
        id=side.id,
        a=side.label,
        b=side.label,
        labels=side.labels if side.labels is not None else ledger.labels,
        labels_at=side.labels_at if side.labels is not None else ledger.labels_at,
        selection=side.selection,
    )


class _Read:
    """One row of a side as read: its ID, its label (its Boolean, or the value outside
    the vocabulary), whether that is outside, its place, and its review fields."""

    __slots__ = ("case_id", "fields", "label", "outside", "place", "value")

    def __init__(
        self,
        case_id: object,
        label: object,
        value: object,
        outside: str | None,
        place: str,
        fields: dict[str, object] | None,
    ) -> None:
        self.case_id = case_id
        self.label = label
        self.value = value
        self.outside = outside  # the hint for a label outside the vocabulary, or "" if none
        self.place = place
        self.fields = fields


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
        self._last = file.display  # the row handed over last, named with its file
        self._passes: list[Findings] = []

    def __iter__(self) -> Iterator[JSON]:
        findings = Findings()
        self._passes.append(findings)
        return self._joined(findings)

    def _read(self, index: int, fields: bool, left_out: dict[str, int]) -> Iterator[_Read]:
        """Side ``index``'s rows as read, those its ``where`` keeps (the rest counted in
        ``left_out``, by the first condition each failed, once the side is read whole)."""
        file = self.sides[index]
        side_spec = file.ledger
        assert side_spec is not None
        base = file.format.removesuffix(".gz")
        cursor = Cursor()
        raw = ROW_SOURCES[base](file, self.case_file, cursor)
        conditions = Conditions(side_spec.selection.where)
        rows = kept_rows(raw, conditions) if conditions.checks else raw
        get_id, get_label = id_reader(side_spec.id, side_spec.selection), getter(side_spec.a)
        labels = side_spec.labels
        lookup = label_lookup(labels)
        used = {side_spec.id.parts[0], side_spec.a.parts[0]}

        def place() -> str:
            number = cursor.position
            if base == ".parquet":
                return f"{file.display}#row {number}"
            if base == ".json":
                return f"{file.display}{document_place(file, number)}"
            return f"{file.display}:{number}"

        try:
            for row in rows:
                if type(row) is not dict:
                    raise RubricInputError(
                        f"{place()}: a row of a side of a join is a mapping of its ID and "
                        "label, not this; fix the row"
                    )
                value = get_label(row)
                outside = ""
                label = value
                if value is not ABSENT:
                    if labels is None:
                        if type(value) is not bool:
                            outside = outside_hint(None, value) or ""
                    else:
                        meaning = lookup(value)
                        if meaning is None:
                            outside = outside_hint(labels, value) or "-"
                            keep = isinstance(value, str) or type(value) in (dict, list)
                            label = value if keep else None
                        else:
                            label = meaning
                kept = (
                    {key: item for key, item in row.items() if key not in used} if fields else None
                )
                yield _Read(get_id(row), label, value, outside or None, place(), kept)
        except RubricInputError:
            raise
        except Exception as exc:
            raise unreadable(place(), exc) from None
        name = "ab"[index]
        for reason, count in conditions.left_out.items():
            left_out[f"{name}: {reason}"] = count

    def _joined(self, findings: Findings) -> Iterator[JSON]:
        left_out: dict[str, int] = {}
        held: dict[str, _Read] = {}
        extra: list[tuple[int, _Read]] = []  # b's rows that are not held, by b's order
        order: dict[str, int] = {}
        count_b = 0
        for number, read in enumerate(self._read(1, False, left_out)):
            count_b += 1
            case_id = read.case_id
            if type(case_id) is str and case_id not in held:
                held[case_id] = read
                order[case_id] = number
            else:
                extra.append((number, read))
        handed = 0
        seen_a: set[str] = set()
        one_side = findings.one_side
        count_a = 0

        def hand(row: dict[str, object], reads: tuple[tuple[str, _Read], ...]) -> JSON:
            """``row``, once the first label outside the vocabulary among ``reads`` (its
            sides' rows) is noted; the row handed over is named by the first read."""
            nonlocal handed
            for side, read in reads:
                if read.outside is not None and findings.outside is None:
                    hint = None if read.outside == "-" else read.outside
                    findings.label_outside(read.place, side, read.case_id, read.value, handed, hint)
            self._last = reads[0][1].place
            handed += 1
            return row  # type: ignore[return-value]

        for read in self._read(0, True, left_out):
            count_a += 1
            case_id = read.case_id
            row: dict[str, object] = {} if case_id is ABSENT else {"id": case_id}
            if read.label is not ABSENT:
                row["a"] = read.label
            other = held.pop(case_id, None) if type(case_id) is str else None
            if other is not None:
                if other.label is not ABSENT:
                    row["b"] = other.label
                del order[case_id]  # type: ignore[arg-type]
            elif type(case_id) is str and case_id not in seen_a and len(one_side) < ONE_SIDE_NAMED:
                one_side.append(f"{escape_controls(repr(case_id))} ({read.place}, a only)")
            if type(case_id) is str:
                seen_a.add(case_id)
            if read.fields:
                for key, item in read.fields.items():
                    if key not in ("id", "a", "b"):
                        row[key] = item
            yield hand(row, (("a", read),) if other is None else (("a", read), ("b", other)))
        rest = heapq.merge(
            ((order[case_id], read) for case_id, read in held.items()),
            extra,
            key=lambda pair: pair[0],
        )
        for _, read in rest:
            case_id = read.case_id
            row = {} if case_id is ABSENT else {"id": case_id}
            if read.label is not ABSENT:
                row["b"] = read.label
            if type(case_id) is str and case_id in held and len(one_side) < ONE_SIDE_NAMED:
                one_side.append(f"{escape_controls(repr(case_id))} ({read.place}, b only)")
            yield hand(row, (("b", read),))
        findings.sides = ((self.sides[0].display, count_a), (self.sides[1].display, count_b))
        findings.left_out = left_out
        findings.whole = True

    def here(self) -> str:
        """The row handed over last, with its file: ``file:LINE`` (or ``#row N``...)."""
        return self._last

    def where(self, index: int) -> str:
        """Row ``index``, the row handed over last, named for people."""
        return f"{self._last} rows[{index}]"

    def notes(self) -> ReadNotes | None:
        """What the first pass found: the IDs of each side, those on one side only, the
        first label outside its side's vocabulary, the rows ``where`` left out."""
        if not self._passes:
            return None
        findings = self._passes[0]
        side = 0 if findings.outside is None or findings.outside.side == "a" else 1
        spec = self.sides[side].ledger
        return findings.notes(vocabulary(None if spec is None else spec.labels))


def joined_sides(file: InputFile, sides: tuple[InputFile, InputFile]) -> InputFile:
    """``file`` (side a's, with the join's ledger) with its two sides' files, each read
    by its side's ledger."""
    ledger = file.ledger
    assert ledger is not None
    assert ledger.join is not None
    side_a, side_b = ledger.join
    return replace(
        file,
        sides=(
            replace(sides[0], ledger=side_ledger(side_a, ledger)),
            replace(sides[1], ledger=side_ledger(side_b, ledger)),
        ),
    )
