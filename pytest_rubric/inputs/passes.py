"""Passes over a file's rows as values: what each pass found (:class:`Pass`), and the
record of each row's place and group as passes hand rows over (:class:`Handed`).

Row ``i`` of a file has the same place (and group) in every pass over it, so the record
is filled by whichever pass first reaches a row and answers for any row reached, asked
in any order, during a pass or after it. It holds a number a row (and a group's number
where the ledger is grouped), never a row.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.groups import GroupTally
from pytest_rubric.inputs.notes import Findings, ReadNotes


class Pass(NamedTuple):
    """One pass: ``rows`` (one at a time) or ``blocks``, and what it found (whole once
    the pass read to its end)."""

    kind: str
    findings: Findings


def first_notes(passes: Iterable[Pass], vocabulary: Callable[[Findings], str]) -> ReadNotes | None:
    """What reading found: the first pass one row at a time, if one was taken (a second
    pass, to find a repeated ID's first place, adds nothing); else the first pass of
    blocks read to its end; ``None`` before either. ``vocabulary`` words the labels."""
    taken = list(passes)
    chosen = next((one.findings for one in taken if one.kind == "rows"), None)
    if chosen is None:
        chosen = next((one.findings for one in taken if one.findings.whole), None)
    return None if chosen is None else chosen.notes(vocabulary(chosen))


class Handed:
    """Each row's place (a line, a row number, or a join's signed number) and, where
    ``grouped``, its group, as passes hand rows over."""

    __slots__ = ("_groups", "_labels", "_lines", "_numbers")

    def __init__(self, grouped: bool) -> None:
        self._lines = array("q")
        self._groups: array[int] | None = array("q") if grouped else None
        self._labels: list[str | None] = []  # the groups' labels, by their numbers
        self._numbers: dict[str | None, int] = {}

    def over(
        self, rows: Iterator[JSON], cursor: Cursor, groups: GroupTally | None
    ) -> Iterator[JSON]:
        """``rows``, each one's place (``cursor.line``) and group (``groups.last``) noted
        as it is handed over, where no pass noted it before."""
        lines = self._lines
        append = lines.append
        numbers = self._groups
        for index, row in enumerate(rows):
            if index == len(lines):  # read inline: this runs once a row
                line = cursor.row_line
                append(cursor.position if line is None else line)
                if numbers is not None:
                    numbers.append(self._number(None if groups is None else groups.last))
            yield row

    def _number(self, label: str | None) -> int:
        number = self._numbers.get(label)
        if number is None:
            number = self._numbers[label] = len(self._labels)
            self._labels.append(label)
        return number

    def line(self, index: int) -> int | None:
        """The place of row ``index``, once a pass handed it over."""
        return self._lines[index] if 0 <= index < len(self._lines) else None

    def group(self, index: int) -> str | None:
        """The group of row ``index``, once a pass handed it over (``None`` ungrouped)."""
        numbers = self._groups
        if numbers is None or not 0 <= index < len(numbers):
            return None
        return self._labels[numbers[index]]
