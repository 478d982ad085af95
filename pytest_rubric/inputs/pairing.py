"""One row per judgement paired into one ledger row per case: :func:`paired_judgements`.

A pass's judgements go through three steps, each a generator over the one before:

1. :func:`_judged` reads each judgement as the ``ledger:`` block says: whose it is (a
   judgement by any other grader is counted and left out), its case's ID, and its label
   as :func:`~pytest_rubric.inputs.ledgermaps.label_meaning` reads it (a :class:`Judged`);
2. :func:`_paired` holds each case from its first judgement until its second (a
   :class:`Waiting`) and lets the cases go in the order of their first judgements; a
   judgement that pairs with nothing goes as a row of its own (an :class:`Alone`);
3. :func:`_handed` makes each the ledger row handed over, named at its first
   judgement's line, with its label outside the vocabulary and its group noted.

This module does not import pytest.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.selection import id_reader
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import NO_GRADER, Findings, grader_shown
from pytest_rubric.inputs.ledgermaps import (
    ROW_KEYS,
    Meaning,
    grouped,
    label_meaning,
    note_dotted,
    note_outside,
)
from pytest_rubric.inputs.notewords import no_judgement_error

#: How many cases may wait for their second judgement before the pairing asks which of
#: them were judged once in the whole export (:func:`paired_judgements`'s ``find_lone``).
LONE_AFTER = 4096


@dataclass(frozen=True, slots=True)
class PairingPlaces:
    """Where a pass over a one-row-per-judgement export is, as the pairing needs it: the
    pass's ``cursor``, whose ``position`` is the line of the judgement just read and whose
    ``row_line`` the pairing sets to the line each row handed over is named by (its
    first judgement's), and ``here()``, the judgement just read named for people."""

    cursor: Cursor
    here: Callable[[], str]


@dataclass(frozen=True, slots=True)
class JudgementReader:
    """How a ``ledger:`` block reads each judgement: its case's ID, its grader, its label
    and what that means (``label_path``: where the label is), the names of graders a and
    b, and the keys that are not review fields."""

    label_path: KeyPath
    case_id: Callable[[object], object]
    grader: Callable[[object], object]
    label: Callable[[object], object]
    meaning: Meaning
    names: tuple[JSON, JSON]
    used: frozenset[str]

    @classmethod
    def of(cls, ledger: Ledger) -> JudgementReader:
        assert ledger.grader is not None
        assert ledger.label is not None
        used = {ledger.id.parts[0], ledger.grader.parts[0], ledger.label.parts[0]}
        return cls(
            label_path=ledger.label,
            case_id=id_reader(ledger.id, ledger.selection),
            grader=getter(ledger.grader),
            label=getter(ledger.label),
            meaning=label_meaning(ledger.labels),
            names=(ledger.a_name, ledger.b_name),
            used=frozenset((*used, *ROW_KEYS, *grouped(ledger))),
        )


@dataclass(slots=True, eq=False)
class Judged:
    """One judgement by a or b, as read (and never changed: not frozen, which would cost
    each judgement its time twice over): the judgement, its grader's side (``"a"`` or
    ``"b"``), its case's ID, its label as the ledger row holds it, and whether that label
    is the first outside the vocabulary (its row is noted as holding it)."""

    judgement: dict[str, object]
    side: str
    case_id: object
    label: object
    outside: bool


@dataclass(slots=True, eq=False)
class Waiting:
    """A case from its first judgement until it is handed over: the line of that
    judgement (its row is named there), the case's ID, whose judgement came first and the
    judgement itself, each side's label read so far, whether it holds the first label
    outside the vocabulary, and its group's value in its first judgement.

    ``complete`` once it waits for nothing more: both graders judged it (``fields`` then
    holds the review fields of both judgements), or the whole export judges it once.
    """

    line: int
    case_id: str
    first: str
    judgement: dict[str, object]
    a: object
    b: object
    outside: bool
    group: object
    complete: bool = False
    fields: dict[str, object] | None = None

    def pair(self, second: Judged, used: frozenset[str]) -> None:
        """Take the case's second judgement, by the other grader."""
        if second.side == "a":
            self.a = second.label
        else:
            self.b = second.label
        self.outside = self.outside or second.outside
        self.fields = _fields_of_both(
            self.judgement, self.first, second.judgement, second.side, used
        )
        self.complete = True

    def row(self, used: frozenset[str]) -> dict[str, object]:
        """The case's ledger row: its ID, its labels, its review fields."""
        row: dict[str, object] = {"id": self.case_id}
        if self.a is not ABSENT:
            row["a"] = self.a
        if self.b is not ABSENT:
            row["b"] = self.b
        if self.fields is not None:
            row.update(self.fields)
        else:  # judged once: the fields are that judgement's
            for key, item in self.judgement.items():
                if key not in used:
                    row[key] = item
        return row


@dataclass(frozen=True, slots=True)
class Alone:
    """A judgement handed over as a row of its own, with no review fields: its case's ID
    is not text, or the case was judged already (by the same grader, or by both). Its
    side, label and whether that is the first outside the vocabulary, as read; ``group``
    its group's value."""

    case_id: object
    side: str
    label: object
    outside: bool
    group: object

    def row(self) -> dict[str, object]:
        row: dict[str, object] = {} if self.case_id is ABSENT else {"id": self.case_id}
        if self.label is not ABSENT:
            row[self.side] = self.label
        return row


def paired_judgements(
    judgements: Iterable[object],
    ledger: Ledger,
    notes: Findings,
    places: PairingPlaces,
    find_lone: Callable[[], frozenset[str] | None] | None = None,
    case_file: str = "",
) -> Iterator[object]:
    """The rows of a one-row-per-judgement export as one ledger row per case, in the order
    of each case's first judgement; ``places`` says where the pass is, and each row is
    named at its case's first judgement.

    - A case judged by both graders is a row with both labels.
    - A judgement by a grader who already judged the case, or of a case both graders
      judged, is a second row with the same ID: the same case judged twice, which the
      evaluator's identity rule refuses. So is an ID that is not text, at once.
    - A case only one grader judged is a row with one label (a missing label: an
      evidence gap, never a guess); so is a judgement whose label key is missing.
    - Judgements by other graders are left out, and counted in the notes; when neither
      a nor b judged anything although other graders did, the description matches no
      judgement: :class:`~pytest_rubric.descriptions.misfits.LedgerError` (``case_file``
      names the case file), raised once every judgement is read, never an empty ledger.
    - A grader is matched under strict JSON equality: ``'7'`` is not ``7``.
    - ``notes.groups`` takes each row handed over with its group's value, as the case's
      first judgement holds it.

    Memory follows the cases still waiting for their second judgement: a case's row is
    held from its first judgement until it and every case judged first before it are
    complete; after that only its ID is kept, to find a judgement repeated later. When
    more than :data:`LONE_AFTER` cases wait, ``find_lone()`` (once) names the IDs the
    whole export judges once, if it can tell: their rows then wait for no second
    judgement. The rows are the same either way; only the memory differs.
    """
    reader = JudgementReader.of(ledger)
    judged = _judged(judgements, reader, notes, places.here)
    cases = _paired(judged, reader.used, places.cursor, _LoneCases(find_lone), notes)
    yield from _handed(cases, notes, places, reader.used, ledger.ids_go(case_file))
    if notes.judged == (0, 0) and notes.ignored:
        raise no_judgement_error(ledger, notes, case_file)


def _judged(
    judgements: Iterable[object], reader: JudgementReader, notes: Findings, here: Callable[[], str]
) -> Iterator[Judged | object]:
    """Each judgement by a or b as read, and anything that is not a mapping as it is (the
    evaluator says so). ``notes`` count the judgements of other graders, which are left
    out, and, once every judgement is read, how many a and b each gave."""
    a_name, b_name = reader.names
    get_grader, get_id = reader.grader, reader.case_id
    get_label, meaning = reader.label, reader.meaning
    by_a = by_b = 0
    for judgement in judgements:
        if type(judgement) is not dict:
            yield judgement
            continue
        grader = get_grader(judgement)
        # Equal to a name (text or a number, never a Boolean): the same JSON value.
        if grader == a_name and type(grader) is not bool:
            side = "a"
            by_a += 1
        elif grader == b_name and type(grader) is not bool:
            side = "b"
            by_b += 1
        else:
            _ignored(notes, grader, judgement, here)
            continue
        case_id = get_id(judgement)
        value = get_label(judgement)
        if value is ABSENT and notes.dotted is None:
            note_dotted(notes, "label", reader.label_path, judgement, here)
        label, outside = meaning(value)
        first = outside is not None and note_outside(notes, outside, here, side, case_id)
        yield Judged(judgement, side, case_id, label, first)
    notes.judged = (by_a, by_b)
    notes.names = reader.names


def _ignored(
    notes: Findings, grader: object, judgement: dict[str, object], here: Callable[[], str]
) -> None:
    """Count a judgement by a grader other than a and b; the first of each grader is
    kept as it is held, the first without a grader with where it is."""
    shown = NO_GRADER if grader is ABSENT else grader_shown(grader)
    if shown not in notes.ignored:
        if grader is ABSENT:
            notes.ungraded = (here(), judgement)
        else:
            notes.graders[shown] = grader
    notes.ignored[shown] += 1


class _LoneCases:
    """The IDs the whole export judges once, asked for once more than :data:`LONE_AFTER`
    cases wait: ``find`` names them if it can (``None`` when it cannot, or none to ask)."""

    __slots__ = ("_find", "ids")

    def __init__(self, find: Callable[[], frozenset[str] | None] | None) -> None:
        self._find = find
        self.ids: frozenset[str] = frozenset()

    def asked(self, held: OrderedDict[str, Waiting]) -> bool:
        """Whether the IDs are asked for now: ``held`` then has its cases judged once
        complete."""
        find = self._find
        if find is None or len(held) <= LONE_AFTER:
            return False
        self._find = None
        self.ids = find() or frozenset()
        for waiting in held.values():
            if waiting.case_id in self.ids:
                waiting.complete = True
        return True


def _paired(
    judged: Iterable[Judged | object],
    used: frozenset[str],
    cursor: Cursor,
    lone: _LoneCases,
    notes: Findings,
) -> Iterator[Waiting | Alone | object]:
    """The cases of ``judged``, each once it waits for nothing more and every case judged
    first before it has gone; a judgement that pairs with nothing goes as an
    :class:`Alone`, anything that is not a judgement as it is, each after every case
    held (which came first)."""
    held: OrderedDict[str, Waiting] = OrderedDict()
    done: set[str] = set()  # the IDs handed over: a judgement of one later is a repeat
    groups = notes.groups
    for one in judged:
        if not isinstance(one, Judged):
            yield from _all_held(held, done)
            yield one
            continue
        case_id = one.case_id
        entry = held.get(case_id) if type(case_id) is str else None
        if entry is None and type(case_id) is str and case_id not in done:
            group = ABSENT if groups is None else groups.read(one.judgement)
            a, b = (one.label, ABSENT) if one.side == "a" else (ABSENT, one.label)
            complete = case_id in lone.ids
            held[case_id] = Waiting(
                cursor.position,
                case_id,
                one.side,
                one.judgement,
                a,
                b,
                one.outside,
                group,
                complete,
            )
            if not lone.asked(held):
                continue
        elif entry is None or entry.complete or entry.first == one.side:
            # An ID that is not text, or the same case judged twice.
            yield from _all_held(held, done)
            group = ABSENT if groups is None else groups.read(one.judgement)
            yield Alone(case_id, one.side, one.label, one.outside, group)
            continue
        else:
            entry.pair(one, used)
            if len(held) == 1:  # the case's two judgements adjacent: nothing else waits
                held.clear()
                done.add(entry.case_id)
                yield entry
                continue
        while held:  # the cases at the head that wait for nothing more go, in order
            head = next(iter(held.values()))
            if not head.complete:
                break
            held.popitem(last=False)
            done.add(head.case_id)
            yield head
    yield from _all_held(held, done)


def _all_held(held: OrderedDict[str, Waiting], done: set[str]) -> Iterator[Waiting]:
    """Every case in ``held``, in order, complete or not."""
    while held:
        waiting = held.popitem(last=False)[1]
        done.add(waiting.case_id)
        yield waiting


def _handed(
    cases: Iterable[Waiting | Alone | object],
    notes: Findings,
    places: PairingPlaces,
    used: frozenset[str],
    ids_go: str,
) -> Iterator[object]:
    """Each case as the ledger row handed over, named by the line of its first judgement
    (a row of its own, or anything not a mapping, by the judgement just read); the
    first label outside the vocabulary is noted with its row's index, each row's ID if
    it is the first number (with ``ids_go``, where the block's ``ids:`` is written),
    and each row's group."""
    cursor = places.cursor
    groups = notes.groups
    handed = 0  # rows handed over so far: the next one's index
    for case in cases:
        if isinstance(case, Waiting):
            cursor.row_line = case.line
            row = case.row(used)
            outside, group = case.outside, case.group
        elif isinstance(case, Alone):
            cursor.row_line = cursor.position
            row = case.row()
            outside, group = case.outside, case.group
            notes.note_id(handed, case.case_id, places.here, ids_go)
        else:  # not a mapping: the evaluator says so
            cursor.row_line = cursor.position
            handed += 1
            yield case
            continue
        if outside:
            notes.handed_over(handed)
        handed += 1
        if groups is not None:
            groups.add(row, group)
        yield row


def _fields_of_both(
    first: dict[str, object],
    first_side: str,
    second: dict[str, object],
    second_side: str,
    used: frozenset[str],
) -> dict[str, object]:
    """The review fields of a case from both its judgements: a field both hold alike
    (strict JSON equality: the text judged, its hash) once under its name; any other
    under whose it is, ``a.KEY`` and ``b.KEY`` (each grader's rationale, session,
    time), a's first. ``first`` and ``second`` are the two judgements as read (by
    ``first_side`` first); the keys in ``used`` are not fields."""
    fields: dict[str, object] = {}
    if first.keys() == second.keys():  # the usual two: one row's, or each its own row's
        for key, item in first.items():
            if key not in used:
                if second[key] is not item:  # judgements split from one row share its values
                    break
                fields[key] = item
        else:
            return fields
        fields = {}
    own: dict[str, object] = {}  # b's fields when a judged first, and the other way round
    later = {key: item for key, item in second.items() if key not in used}
    for key, item in first.items():
        if key in used:
            continue
        # Judgements split from one row share its values: the same value is held alike.
        if key in later and (item is later[key] or json_equal(item, later[key])):
            fields[key] = item
            del later[key]
            continue
        mine = f"{first_side}.{key}"
        if first_side == "a":
            fields[mine] = item
        else:
            own[mine] = item
        if key in later:
            other = f"{second_side}.{key}"
            if second_side == "a":
                fields[other] = later.pop(key)
            else:
                own[other] = later.pop(key)
    for key, item in later.items():
        (fields if second_side == "a" else own)[f"{second_side}.{key}"] = item
    fields.update(own)
    return fields
