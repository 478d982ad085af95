"""Export rows read as a ``ledger:`` block describes them: ``{"id", "a", "b", ...}``.

Whatever an export looks like, its rows reach the evaluator as the ledger rows the
SPEC pins, so every evaluator judges them as it judges any ledger: the ID and the two
labels under their names, every other column or key kept beside them (review fields).

- **Key paths** reach into nested JSON; a path that leads nowhere leaves its key out
  of the row: a missing ID or a missing label, which the evaluator calls so.
- **Labels** are looked up exactly in the vocabulary; a value outside it stays out of
  the Booleans (a ``true`` outside a vocabulary of words becomes ``null``), and
  :class:`ReadNotes` remembers the first such value so the evidence can name it.
- **One row per judgement** is paired into one row per case by
  :func:`paired_judgements`, in the order of each case's first judgement.

This module does not import pytest.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import Final, cast

from pytest_rubric.core.jsonvalues import JSON, describe, escape_controls, show
from pytest_rubric.inputs.ledgerspec import KeyPath, Ledger, label_lookup

ABSENT: Final = object()
#: The keys of a ledger row; an export's own key of that name is not a review field.
ROW_KEYS = ("id", "a", "b")


def getter(path: KeyPath) -> Callable[[object], object]:
    """The value at ``path`` in a row, or :data:`ABSENT` where it leads nowhere (a key
    missing, or a value on the way that is not a mapping)."""
    parts = path.parts
    if len(parts) == 1:
        key = parts[0]

        def one(row: object) -> object:
            return row.get(key, ABSENT) if type(row) is dict else ABSENT

        return one

    def walk(row: object) -> object:
        value = row
        for part in parts:
            if type(value) is not dict:
                return ABSENT
            value = value.get(part, ABSENT)
            if value is ABSENT:
                return ABSENT
        return value

    return walk


class ReadNotes:
    """What reading an export found that the evaluator cannot see: the first label
    outside the vocabulary, and judgements by graders other than a and b."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        #: ``(where, side, case ID, value)`` of the first label outside the vocabulary.
        self.outside: tuple[str, str, object, object] | None = None
        self.ignored: Counter[str] = Counter()
        #: Whether the export was read to its end: only then is ``ignored`` a count of it
        #: (an identity problem stops the reading where it is found).
        self.whole = False

    def label_outside(self, where: str, side: str, case_id: object, value: object) -> None:
        if self.outside is None:
            self.outside = (where, side, case_id, value)

    def problem(self) -> str | None:
        """The first label outside the vocabulary, in words, naming row, value and labels."""
        if self.outside is None:
            return None
        where, side, case_id, value = self.outside
        shown = describe(value)
        named = "" if type(case_id) is not str else f" (id {escape_controls(repr(case_id))})"
        return (
            f"{where}: the label of {side}{named} is {shown}, which is not one of the "
            "ledger's labels: "
            f"{self.ledger.vocabulary()}; labels are compared exactly (no case folding, no "
            "trimming): add it to 'labels' if the export means it, or fix the row"
        )

    def facts(self) -> dict[str, JSON]:
        """The judgements of other graders, counted, when the export was read whole."""
        if not self.ignored or not self.whole:
            return {}
        total = sum(self.ignored.values())
        by = ", ".join(f"{name} {count}" for name, count in self.ignored.most_common(5))
        if len(self.ignored) > 5:
            by += f", and {len(self.ignored) - 5} more graders"
        return {
            "ignored judgements": f"{total} by graders other than a and b ({escape_controls(by)})"
        }


def _meaning(
    lookup: Callable[[object], bool | None],
    notes: ReadNotes,
    where: Callable[[], str],
    side: str,
    case_id: object,
    value: object,
) -> object:
    """A label value as the ledger row holds it: its Boolean, or the value itself when it
    is outside the vocabulary (``null`` for a Boolean or number there, which must not
    count as one)."""
    meaning = lookup(value)
    if meaning is not None:
        return meaning
    if notes.outside is None:  # the first is named; where() is worded only for it
        notes.label_outside(where(), side, case_id, value)
    return value if isinstance(value, str) or type(value) in (dict, list) else None


def mapped_rows(
    rows: Iterable[object], ledger: Ledger, notes: ReadNotes, where: Callable[[], str]
) -> Iterator[object]:
    """The rows of a one-row-per-case export as ledger rows. ``where()`` names the row
    just read (for notes)."""
    get_id, get_a, get_b = getter(ledger.id), getter(ledger.a), getter(ledger.b)
    lookup = label_lookup(ledger)
    used = {ledger.id.parts[0], ledger.a.parts[0], ledger.b.parts[0], *ROW_KEYS}
    plain = ledger.labels is None
    for row in rows:
        if type(row) is not dict:
            yield row  # not a mapping: the evaluator says so
            continue
        out: dict[str, object] = {}
        case_id = get_id(row)
        if case_id is not ABSENT:
            out["id"] = case_id
        for side, get in (("a", get_a), ("b", get_b)):
            value = get(row)
            if value is ABSENT:
                continue
            out[side] = value if plain else _meaning(lookup, notes, where, side, case_id, value)
        for key, value in row.items():
            if key not in used:
                out[key] = value
        yield out


def paired_judgements(
    judgements: Iterable[object],
    ledger: Ledger,
    notes: ReadNotes,
    where: Callable[[], str],
    line: Callable[[], int],
    at_line: Callable[[int], None],
    lone: frozenset[str] = frozenset(),
) -> Iterator[object]:
    """The rows of a one-row-per-judgement export as one ledger row per case, in the order
    of each case's first judgement. ``lone`` names IDs known to be judged by one grader
    only (a reading before found them): their rows wait for no second judgement.

    ``where()`` and ``line()`` name the judgement just read; ``at_line(n)`` is called
    before a row is yielded with the line of its first judgement, so that the reader
    names that row there.

    - A case judged by both graders is a row with both labels.
    - A judgement by a grader who already judged the case, or of a case both graders
      judged, is a second row with the same ID: the same case judged twice, which the
      evaluator's identity rule refuses. So is an ID that is not text, at once.
    - A case only one grader judged is a row with one label (a missing label: an
      evidence gap, never a guess); so is a judgement whose label key is missing.
    - Judgements by other graders are left out, and counted in the notes.

    Memory follows the cases still waiting for their second judgement: a case's row is
    held from its first judgement until it and every case judged first before it are
    complete; after that only its ID is kept, to find a judgement repeated later.
    """
    assert ledger.grader is not None
    assert ledger.label is not None
    get_id, get_grader, get_label = getter(ledger.id), getter(ledger.grader), getter(ledger.label)
    lookup = label_lookup(ledger)
    a_name, b_name = ledger.a_name, ledger.b_name
    used = {ledger.id.parts[0], ledger.grader.parts[0], ledger.label.parts[0], *ROW_KEYS}
    plain = ledger.labels is None
    # ID -> [line of its first judgement, ID, a's label, b's label, fields, judged (bits)]
    held: OrderedDict[str, list[object]] = OrderedDict()
    done: set[str] = set()
    ignored = notes.ignored

    def row_of(entry: list[object]) -> dict[str, object]:
        first_line, case_id, a, b, fields, _ = entry
        at_line(first_line)  # type: ignore[arg-type]
        row: dict[str, object] = {"id": case_id}
        if a is not ABSENT:
            row["a"] = a
        if b is not ABSENT:
            row["b"] = b
        row.update(cast(dict[str, object], fields))
        done.add(case_id)  # type: ignore[arg-type]
        return row

    def alone(case_id: object, side: str, value: object) -> dict[str, object]:
        """A judgement as a row of its own, after every row held (which came first)."""
        row: dict[str, object] = {} if case_id is ABSENT else {"id": case_id}
        if value is not ABSENT:
            row[side] = value
        return row

    for judgement in judgements:
        if type(judgement) is not dict:
            while held:
                yield row_of(held.popitem(last=False)[1])
            at_line(line())
            yield judgement  # not a mapping: the evaluator says so
            continue
        grader = get_grader(judgement)
        if type(grader) is str and grader == a_name:
            side, name, bit = 2, "a", 1
        elif type(grader) is str and grader == b_name:
            side, name, bit = 3, "b", 2
        else:
            ignored[_grader_name(grader)] += 1
            continue
        case_id = get_id(judgement)
        value = get_label(judgement)
        if value is not ABSENT and not plain:
            value = _meaning(lookup, notes, where, name, case_id, value)
        entry = held.get(case_id) if type(case_id) is str else None
        if entry is None and type(case_id) is str and case_id not in done:
            fields = {key: item for key, item in judgement.items() if key not in used}
            entry = [line(), case_id, ABSENT, ABSENT, fields, 3 if case_id in lone else bit]
            entry[side] = value
            held[case_id] = entry
            continue
        if entry is None or entry[5] == 3 or entry[5] == bit:
            # An ID that is not text, or the same case judged twice.
            while held:
                yield row_of(held.popitem(last=False)[1])
            at_line(line())
            yield alone(case_id, name, value)
            continue
        entry[side] = value
        entry[5] = 3
        kept = cast(dict[str, object], entry[4])
        for key, item in judgement.items():
            if key not in used and key not in kept:
                kept[key] = item
        while held:
            head = next(iter(held.values()))
            if head[5] != 3:
                break
            held.popitem(last=False)
            yield row_of(head)
    while held:
        yield row_of(held.popitem(last=False)[1])


def _grader_name(value: object) -> str:
    if value is ABSENT:
        return "(no grader)"
    return value if type(value) is str else show(value)
