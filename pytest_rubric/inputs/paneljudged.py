"""A ``rows: per-judgement`` panel's export read once for all its pairs:
:func:`judged_columns`.

One pass splits the rows into judgements and keeps those ``where`` keeps, exactly as
each pair's own rows are read (:func:`~pytest_rubric.inputs.judgements.judgements_of`),
and pairs up each case's judgements for every grader of the panel at once: each case
gets an index at its first judgement, and each grader a byte for it
(:mod:`~pytest_rubric.inputs.panelheld`) and the place of its judgement. A grader who
judged a case twice, or a judgement of one whose ID is not text, makes that grader's
pairs read their own rows (which say what is wrong, and where); a judgement that is not
a mapping, every pair's. This module does not import pytest.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator

from pytest_rubric.descriptions.keypaths import ABSENT, getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.selection import Conditions, id_reader
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import NO_GRADER, grader_shown
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.judgements import judgements_of
from pytest_rubric.inputs.panelheld import UNJUDGED, PanelColumns, Stamp, label_coder
from pytest_rubric.inputs.panelpick import CasePick, ReviewPick

#: Cases the columns grow by at a time.
_GROWTH = 1 << 16
#: The grader values a panel's names can equal: text and numbers, never a Boolean.
_NAMES = (str, int, float)


class _Cases:
    """The cases found so far, in the order of their first judgement: each one's ID, and
    each grader's byte for it (room for :data:`_GROWTH` more at a time). While each
    case's judgements come together, a set tells a new ID from one seen; once they come
    apart, each ID's index is kept, and each grader's place of its judgement of each case
    (``firsts``; those before, by their case's index: every case then is before the next)."""

    __slots__ = ("firsts", "groups", "ids", "index", "labels", "offset", "room", "seen")

    def __init__(self, graders: int, grouped: bool) -> None:
        self.seen: set[str] = set()
        self.index: dict[str, int] | None = None
        self.ids: list[str] = []
        self.labels = [bytearray() for _ in range(graders)]
        self.firsts: list[array[int]] | None = None
        self.offset = 0  # added to a judgement's place in ``firsts``
        self.groups: list[object] | None = [] if grouped else None
        self.room = 0

    def find(self, case_id: str, place: int) -> tuple[int, bool]:
        """The index of the case ``case_id`` names, judged at ``place``, and whether it is
        new (then its ID is taken)."""
        index = self.index
        if index is None:
            if case_id not in self.seen:
                self.seen.add(case_id)
                return self._new(case_id), True
            index = self._apart(place)
        case = index.get(case_id)
        if case is None:
            case = index[case_id] = self._new(case_id)
            return case, True
        return case, False

    def _apart(self, place: int) -> dict[str, int]:
        """The judgements of a case come apart (the first at ``place``): from now on each
        case is found by its index, and each judgement placed after every earlier case."""
        self.index = {case_id: case for case, case_id in enumerate(self.ids)}
        self.seen = set()
        self.offset = len(self.ids) - place
        self.firsts = [array("q", range(self.room)) for _ in self.labels]
        return self.index

    def _new(self, case_id: str) -> int:
        case = len(self.ids)
        self.ids.append(case_id)
        if case == self.room:
            self.room += _GROWTH
            for column in self.labels:
                column.extend(bytes((UNJUDGED,)) * _GROWTH)
            for places in self.firsts or ():
                places.frombytes(bytes(8 * _GROWTH))
        return case

    def trimmed(self) -> None:
        """Drop the room grown past the last case."""
        count = len(self.ids)
        for column in self.labels:
            del column[count:]
        for places in self.firsts or ():
            del places[count:]


def judged_columns(
    file: InputFile, ledger: Ledger, stamp: Stamp, pick: ReviewPick | None
) -> PanelColumns | None:
    """The panel's export as its pairs read it (``ledger``, the panel's block), with the
    judgements ``pick`` keeps to review, or ``None`` where a judgement is not a mapping
    (every pair reads its own rows)."""
    panel = ledger.panel
    assert panel is not None
    assert ledger.grader is not None
    assert ledger.label is not None
    graders = len(panel.judges)
    conditions = Conditions(ledger.selection.where)
    cursor = Cursor()
    rows = file.reader.rows(file, "", cursor)
    judgements = judgements_of(rows, ledger.grader, ledger.label, conditions, _nowhere)
    cases = _Cases(graders, ledger.group_by is not None)
    sound = [True] * graders
    taking = None if pick is None else CasePick(pick, cases.labels)
    counted = _paired(judgements, ledger, cases, sound, taking, cursor)
    if counted is None:
        return None
    ignored, together = counted
    cases.trimmed()
    groups = cases.groups
    return PanelColumns(
        stamp,
        cases.ids,
        cases.labels,
        sound,
        per_judgement=True,
        left_out=dict(conditions.left_out),
        groups=None if groups is None or not all(type(v) is str for v in groups) else groups,  # type: ignore[arg-type]
        ignored=ignored,
        firsts=None if together else cases.firsts,
        review=None if pick is None else pick.kept,
    )


def _paired(
    judgements: Iterator[object],
    ledger: Ledger,
    cases: _Cases,
    sound: list[bool],
    taking: CasePick | None,
    cursor: Cursor,
) -> tuple[list[tuple[str, int, int]], bool] | None:
    """Each judgement put in its case's column for its grader (and to ``taking``, with
    its place, the pass's ``cursor``'s, while it picks rows to review); the judgements of
    each grader as shown, and whether each case's judgements came together."""
    assert ledger.panel is not None
    assert ledger.grader is not None
    assert ledger.label is not None
    index_of = {name: at for at, name in enumerate(ledger.panel.judges)}
    get_id, get_grader = id_reader(ledger.id, ledger.selection), getter(ledger.grader)
    get_label, code = getter(ledger.label), label_coder(ledger.labels)
    get_group = None if ledger.group_by is None else getter(ledger.group_by)
    find, labels, groups = cases.find, cases.labels, cases.groups
    counts: dict[object, list[int]] = {}  # each grader (as held, or shown) -> index, count
    last_id: object = None
    last = -1
    for place, judgement in enumerate(judgements):
        if type(judgement) is not dict:
            return None
        grader = get_grader(judgement)
        kind = type(grader)
        key = (kind, grader) if kind is str or kind is int else _shown(grader)
        at = index_of.get(grader, -1) if kind in _NAMES else -1  # type: ignore[call-overload]
        count = counts.get(key)
        if count is None:
            count = counts[key] = [at, 0]
        count[1] += 1
        if at < 0:
            continue
        case_id = get_id(judgement)
        if type(case_id) is not str:
            sound[at] = False
            continue
        if case_id == last_id:  # the usual export: a case's judgements together
            case = last
        else:
            case, new = find(case_id, place)
            if new and groups is not None:
                groups.append(get_group(judgement))  # type: ignore[misc]
            last_id, last = case_id, case
        if groups is not None and groups[case] != get_group(judgement):  # type: ignore[misc]
            groups[case] = ABSENT  # the pairs' groups differ: read one at a time
        column = labels[at]
        if column[case] != UNJUDGED:
            sound[at] = False  # judged twice: the pair's rows name the repeat
        column[case] = code(get_label(judgement))
        if cases.firsts is not None:
            cases.firsts[at][case] = cases.offset + place
        if taking is not None and taking.pick.open:
            taking.add(case, at, judgement, cursor.position)
    if taking is not None:
        taking.close()
    shown = [(_named(key), at, count) for key, (at, count) in counts.items()]
    return shown, cases.index is None


def _shown(grader: object) -> str:
    return NO_GRADER if grader is ABSENT else grader_shown(grader)


def _named(key: object) -> str:
    return key if type(key) is str else grader_shown(key[1])  # type: ignore[index]


def _nowhere() -> str:
    return "the export"  # never worded: a row that needs words is read one at a time
