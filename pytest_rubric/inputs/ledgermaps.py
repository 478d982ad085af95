"""Export rows read as a ``ledger:`` block describes them: ``{"id", "a", "b", ...}``.

Whatever an export looks like, its rows reach the evaluator as the ledger rows the
SPEC pins, so every evaluator judges them as it judges any ledger: the ID and the two
labels under their names, every other column or key kept beside them (review fields).

- **Key paths** reach into nested JSON; a path that leads nowhere leaves its key out
  of the row: a missing ID or a missing label, which the evaluator calls so.
- **Labels** are looked up exactly in the vocabulary; a value outside it stays out of
  the Booleans (a ``true`` outside a vocabulary of words becomes ``null``), and
  the pass's :class:`~pytest_rubric.inputs.notes.Findings` remember the first such
  value, and the index of the row handed over that holds it, so the evidence can name it.
- **One row per judgement** is paired into one row per case by
  :func:`paired_judgements`, in the order of each case's first judgement.

This module does not import pytest.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import cast

from pytest_rubric.core.compare import json_equal
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter
from pytest_rubric.descriptions.labels import Labels, label_lookup, outside_hint
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import dotted_words
from pytest_rubric.descriptions.selection import id_reader
from pytest_rubric.inputs.groups import GroupTally
from pytest_rubric.inputs.notes import NO_GRADER, Findings, grader_shown, no_judgement_error

#: The keys of a ledger row; an export's own key of that name is not a review field.
ROW_KEYS = ("id", "a", "b")


def grouped(ledger: Ledger) -> tuple[str, ...]:
    """The key ``group_by`` names when it is one key: a row's group, not a review field
    (each row to review names its group)."""
    path = ledger.group_by
    return (path.parts[0],) if path is not None and len(path.parts) == 1 else ()


def label_meaning(
    lookup: Callable[[object], bool | None],
    labels: Labels,
    notes: Findings,
    where: Callable[[], str],
    side: str,
    case_id: object,
    value: object,
    index: int | None,
) -> object:
    """A label value as the ledger row holds it: its Boolean, or the value itself when it
    is outside the vocabulary (``null`` for a Boolean or number there, which must not
    count as one)."""
    meaning = lookup(value)
    if meaning is not None:
        return meaning
    if notes.outside is None:  # the first is named; where() is worded only for it
        notes.label_outside(where(), side, case_id, value, index, outside_hint(labels, value))
    return value if isinstance(value, str) or type(value) in (dict, list) else None


def _fields_of_both(
    first: dict[str, object],
    first_side: str,
    second: dict[str, object],
    second_side: str,
    used: set[str],
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


def word_for_a_boolean(
    notes: Findings,
    where: Callable[[], str],
    side: str,
    case_id: object,
    value: object,
    index: int | None,
) -> bool:
    """With no ``labels``, note the first label the export writes as a word for a
    Boolean (``yes``, ``TRUE``, ``1``), so the evidence suggests the ``labels:`` block
    that reads it rather than a rewrite of the export; whether it is one."""
    hint = outside_hint(None, value)
    if hint is None:
        return False
    notes.label_outside(where(), side, case_id, value, index, hint)
    return True


def note_dotted(
    notes: Findings, key: str, path: KeyPath, row: dict[str, object], where: Callable[[], str]
) -> None:
    """Where ``path`` (ledger ``key``) leads nowhere in ``row`` although the row holds its
    dotted text as one key (Argilla's ``verdict.responses``), note the list form that
    names that key: a dotted name is a key path."""
    if len(path.parts) > 1 and path.column in row:
        notes.dotted = dotted_words(key, path, f"{where()} holds")


def mapped_rows(
    rows: Iterable[object],
    ledger: Ledger,
    notes: Findings,
    where: Callable[[], str],
    groups: GroupTally | None = None,
) -> Iterator[object]:
    """The rows of a one-row-per-case export as ledger rows. ``where()`` names the row
    just read (for notes); ``groups`` takes each row handed over with its group's value."""
    get_id, get_a, get_b = (
        id_reader(ledger.id, ledger.selection),
        getter(ledger.a),
        getter(ledger.b),
    )
    labels = ledger.labels
    lookup = label_lookup(labels)
    used = {ledger.id.parts[0], ledger.a.parts[0], ledger.b.parts[0], *ROW_KEYS, *grouped(ledger)}
    plain = ledger.labels is None
    for index, row in enumerate(rows):
        if type(row) is not dict:
            yield row  # not a mapping: the evaluator says so
            continue
        out: dict[str, object] = {}
        case_id = get_id(row)
        if case_id is not ABSENT:
            out["id"] = case_id
            if type(case_id) is int:
                notes.note_id(index, case_id, where)
        elif notes.dotted is None:
            note_dotted(notes, "id", ledger.id, row, where)
        for side, get in (("a", get_a), ("b", get_b)):
            value = get(row)
            if value is ABSENT:
                if notes.dotted is None:
                    note_dotted(notes, side, ledger.a if side == "a" else ledger.b, row, where)
                continue
            if plain:
                if type(value) is not bool and notes.outside is None:
                    word_for_a_boolean(notes, where, side, case_id, value, index)
                out[side] = value
            else:
                out[side] = label_meaning(lookup, labels, notes, where, side, case_id, value, index)
        for key, value in row.items():
            if key not in used:
                out[key] = value
        if groups is not None:
            groups.add(out, groups.read(row))
        yield out


#: How many cases may wait for their second judgement before the pairing asks which of
#: them were judged once in the whole export (:func:`paired_judgements`'s ``find_lone``).
LONE_AFTER = 4096


def paired_judgements(
    judgements: Iterable[object],
    ledger: Ledger,
    notes: Findings,
    where: Callable[[], str],
    line: Callable[[], int],
    at_line: Callable[[int], None],
    find_lone: Callable[[], frozenset[str] | None] | None = None,
    case_file: str = "",
    groups: GroupTally | None = None,
) -> Iterator[object]:
    """The rows of a one-row-per-judgement export as one ledger row per case, in the order
    of each case's first judgement.

    ``where()`` and ``line()`` name the judgement just read; ``at_line(n)`` is called
    before a row is yielded with the line of its first judgement, so that the reader
    names that row there.

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
    - ``groups`` takes each row handed over with its group's value, as the case's first
      judgement holds it.

    Memory follows the cases still waiting for their second judgement: a case's row is
    held from its first judgement until it and every case judged first before it are
    complete; after that only its ID is kept, to find a judgement repeated later. When
    more than :data:`LONE_AFTER` cases wait, ``find_lone()`` (once) names the IDs the
    whole export judges once, if it can tell: their rows then wait for no second
    judgement. The rows are the same either way; only the memory differs.
    """
    assert ledger.grader is not None
    assert ledger.label is not None
    get_id = id_reader(ledger.id, ledger.selection)
    get_grader, get_label = getter(ledger.grader), getter(ledger.label)
    labels = ledger.labels
    lookup = label_lookup(labels)
    a_name, b_name = ledger.a_name, ledger.b_name
    used = {
        ledger.id.parts[0],
        ledger.grader.parts[0],
        ledger.label.parts[0],
        *ROW_KEYS,
        *grouped(ledger),
    }
    plain = ledger.labels is None
    # ID -> [line of its first judgement, ID, a's label, b's label, the first judgement
    #        (its fields once both are read), judged (bits), whether it holds the first
    #        label outside the vocabulary, whether both judgements' fields are merged,
    #        the value of its group in its first judgement]
    held: OrderedDict[str, list[object]] = OrderedDict()
    done: set[str] = set()
    ignored = notes.ignored
    lone: frozenset[str] = frozenset()
    asked = find_lone is None
    handed = 0  # rows handed over so far: the next one's index
    by_a = by_b = 0  # judgements by a and by b

    def row_of(entry: list[object]) -> dict[str, object]:
        nonlocal handed
        first_line, case_id, a, b, read, _, outside, merged, group = entry
        at_line(first_line)  # type: ignore[arg-type]
        row: dict[str, object] = {"id": case_id}
        if a is not ABSENT:
            row["a"] = a
        if b is not ABSENT:
            row["b"] = b
        if merged:
            row.update(cast(dict[str, object], read))
        else:  # judged once: the fields are that judgement's
            for key, item in cast(dict[str, object], read).items():
                if key not in used:
                    row[key] = item
        done.add(case_id)  # type: ignore[arg-type]
        if outside:
            notes.handed_over(handed)
        handed += 1
        if groups is not None:
            groups.add(row, group)
        return row

    def alone(
        case_id: object, side: str, value: object, outside: bool, judgement: object
    ) -> dict[str, object]:
        """A judgement as a row of its own, after every row held (which came first)."""
        nonlocal handed
        row: dict[str, object] = {} if case_id is ABSENT else {"id": case_id}
        if value is not ABSENT:
            row[side] = value
        if outside:
            notes.handed_over(handed)
        notes.note_id(handed, case_id, where)
        handed += 1
        if groups is not None:
            groups.add(row, groups.read(judgement))
        return row

    for judgement in judgements:
        if type(judgement) is not dict:
            while held:
                yield row_of(held.popitem(last=False)[1])
            at_line(line())
            handed += 1
            yield judgement  # not a mapping: the evaluator says so
            continue
        grader = get_grader(judgement)
        # Equal to a name (text or a number, never a Boolean): the same JSON value.
        if grader == a_name and type(grader) is not bool:
            side, name, bit = 2, "a", 1
            by_a += 1
        elif grader == b_name and type(grader) is not bool:
            side, name, bit = 3, "b", 2
            by_b += 1
        else:
            shown = NO_GRADER if grader is ABSENT else grader_shown(grader)
            if shown not in ignored:
                if grader is ABSENT:
                    notes.ungraded = (where(), judgement)
                else:
                    notes.graders[shown] = grader
            ignored[shown] += 1
            continue
        case_id = get_id(judgement)
        value = get_label(judgement)
        outside = False
        if value is ABSENT:
            if notes.dotted is None:
                note_dotted(notes, "label", ledger.label, judgement, where)
        elif not plain:
            meaning = lookup(value)
            if meaning is not None:
                value = meaning
            else:
                first = notes.outside is None
                value = label_meaning(lookup, labels, notes, where, name, case_id, value, None)
                outside = first and notes.outside is not None
        elif type(value) is not bool and notes.outside is None:
            outside = word_for_a_boolean(notes, where, name, case_id, value, None)
        entry = held.get(case_id) if type(case_id) is str else None
        if entry is None and type(case_id) is str and case_id not in done:
            entry = [
                line(),
                case_id,
                ABSENT,
                ABSENT,
                judgement,
                3 if case_id in lone else bit,
                outside,
                False,
                ABSENT if groups is None else groups.read(judgement),
            ]
            entry[side] = value
            held[case_id] = entry
            if not asked and len(held) > LONE_AFTER:
                asked = True
                lone = (find_lone() if find_lone is not None else None) or frozenset()
                for waiting in held.values():
                    if waiting[1] in lone:
                        waiting[5] = 3
            else:
                continue
        elif entry is None or entry[5] == 3 or entry[5] == bit:
            # An ID that is not text, or the same case judged twice.
            while held:
                yield row_of(held.popitem(last=False)[1])
            at_line(line())
            yield alone(case_id, name, value, outside, judgement)
            continue
        else:
            first_side = "a" if entry[5] == 1 else "b"
            entry[side] = value
            entry[5] = 3
            entry[6] = entry[6] or outside
            entry[4] = _fields_of_both(
                cast(dict[str, object], entry[4]), first_side, judgement, name, used
            )
            entry[7] = True
            if len(held) == 1:  # the case's two judgements adjacent: nothing else waits
                held.clear()
                yield row_of(entry)
                continue
        while held:
            head = next(iter(held.values()))
            if head[5] != 3:
                break
            held.popitem(last=False)
            yield row_of(head)
    while held:
        yield row_of(held.popitem(last=False)[1])
    notes.judged = (by_a, by_b)
    notes.names = (a_name, b_name)
    if not by_a and not by_b and ignored:
        raise no_judgement_error(ledger, notes, case_file)
