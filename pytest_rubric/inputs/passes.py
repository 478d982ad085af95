"""Passes over a file's rows as values: what each pass found (:class:`Pass`), and the
record of each row's place and group as passes hand rows over (:class:`Handed`).

Row ``i`` of a file has the same place (and group) in every pass over it, so the record
is filled by whichever pass first reaches a row and answers for any row reached, asked
in any order, during a pass or after it. It holds a number a row (and a reference to its
group's label where the ledger is grouped), never a row.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.misfits import misfit
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.groups import GroupTally, nowhere_words
from pytest_rubric.inputs.readnotes import ReadNotes


class Pass(NamedTuple):
    """One pass: ``rows`` (one at a time) or ``blocks``, what it found (whole once the
    pass read to its end), and where it is (its ``cursor``)."""

    kind: str
    findings: Findings
    cursor: Cursor


def taken(kind: str, group_by: KeyPath | None) -> Pass:
    """A new pass of ``kind``, its findings tallying groups where the ledger has
    ``group_by``."""
    findings = Findings()
    if group_by is not None:
        findings.groups = GroupTally(group_by)
    return Pass(kind, findings, Cursor())


def close_groups(findings: Findings, holder: str, kept: bool, case_file: str) -> None:
    """At a pass's end: never one group of a misspelt key. Where no row handed over holds
    the ``group_by`` path, ``findings.group_nowhere`` says so; ``holder`` names the export,
    ``kept`` whether a ``where`` chose the rows."""
    groups = findings.groups
    if groups is not None and groups.nowhere():
        words = nowhere_words(groups, holder, kept)
        findings.group_nowhere = str(misfit(case_file, groups.path.at, words))


def first_notes(passes: Iterable[Pass], vocabulary: Callable[[Pass], str]) -> ReadNotes | None:
    """What reading found: the first pass one row at a time, if one was taken (a second
    pass, to find a repeated ID's first place, adds nothing); else the first pass of
    blocks read to its end; ``None`` before either. ``vocabulary`` words the labels of
    the pass chosen."""
    listed = list(passes)
    chosen = next((one for one in listed if one.kind == "rows"), None)
    if chosen is None:
        chosen = next((one for one in listed if one.findings.whole), None)
    return None if chosen is None else ReadNotes.of(chosen.findings, vocabulary(chosen))


class Handed:
    """Each row's place (a line, a row number, or a join's signed number) and, where
    ``grouped``, its group's label, as passes hand rows over."""

    __slots__ = ("_groups", "_lines")

    def __init__(self, grouped: bool) -> None:
        self._lines = array("q")
        #: Each row's group label: the tally's own text, one reference a row.
        self._groups: list[str | None] | None = [] if grouped else None

    def over(
        self, rows: Iterator[JSON], cursor: Cursor, groups: GroupTally | None
    ) -> Iterator[JSON]:
        """``rows``, each one's place (``cursor.line``) and group (``groups.last``) noted
        as it is handed over, where no pass noted it before."""
        lines = self._lines
        append = lines.append
        labels = self._groups
        if labels is None:
            for index, row in enumerate(rows):
                if index == len(lines):  # read inline: this runs once a row
                    line = cursor.row_line
                    append(cursor.position if line is None else line)
                yield row
            return
        assert groups is not None  # a grouped ledger's every pass of rows has its tally
        label = labels.append
        for index, row in enumerate(rows):
            if index == len(lines):
                line = cursor.row_line
                append(cursor.position if line is None else line)
                label(groups.last)
            yield row

    def line(self, index: int) -> int | None:
        """The place of row ``index``, once a pass handed it over."""
        return self._lines[index] if 0 <= index < len(self._lines) else None

    def group(self, index: int) -> str | None:
        """The group of row ``index``, once a pass handed it over (``None`` ungrouped)."""
        labels = self._groups
        if labels is None or not 0 <= index < len(labels):
            return None
        return labels[index]
