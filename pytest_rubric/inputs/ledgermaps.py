"""Export rows read as a ``ledger:`` block describes them: ``{"id", "a", "b", ...}``.

Whatever an export looks like, its rows reach the evaluator as the ledger rows the
SPEC pins, so every evaluator judges them as it judges any ledger: the ID and the two
labels under their names, every other column or key kept beside them (review fields).

- **Key paths** reach into nested JSON; a path that leads nowhere leaves its key out
  of the row: a missing ID or a missing label, which the evaluator calls so.
- **Labels** are looked up exactly in the vocabulary (:func:`label_meaning`, the one
  reading of what a label means, for joins and pairing too); a value outside it stays
  out of the Booleans (a ``true`` outside a vocabulary of words becomes ``null``), and
  the pass's :class:`~pytest_rubric.inputs.findings.Findings` remember the first such
  value, and the index of the row handed over that holds it, so the evidence can name it.
- **One row per judgement** is paired into one row per case by
  :func:`~pytest_rubric.inputs.pairing.paired_judgements`, in the order of each case's
  first judgement.

This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter
from pytest_rubric.descriptions.labels import Labels, label_lookup, outside_hint
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import dotted_words
from pytest_rubric.descriptions.selection import id_reader
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.groups import GroupTally

#: The keys of a ledger row; an export's own key of that name is not a review field.
ROW_KEYS = ("id", "a", "b")


def grouped(ledger: Ledger) -> tuple[str, ...]:
    """The key ``group_by`` names when it is one key: a row's group, not a review field
    (each row to review names its group)."""
    path = ledger.group_by
    return (path.parts[0],) if path is not None and len(path.parts) == 1 else ()


@dataclass(frozen=True, slots=True)
class Outside:
    """A label value outside the vocabulary, as read, and what to write for it where
    "add it to 'labels', or fix the row" is the wrong advice (``None``: that advice)."""

    value: object
    hint: str | None


#: What a label value means, as :func:`label_meaning` reads it.
Meaning = Callable[[object], tuple[object, Outside | None]]
#: The meanings of the two Booleans, made once: a label is read for every row.
_TRUE: tuple[object, Outside | None] = (True, None)
_FALSE: tuple[object, Outside | None] = (False, None)


def label_meaning(labels: Labels) -> Meaning:
    """What a label value means under the vocabulary ``labels``: the value a ledger row
    holds for it, and why that is not one of the vocabulary's Booleans, if it is not.

    - A label of the vocabulary is its Boolean; a missing label (:data:`ABSENT`) stays
      missing, outside nothing.
    - Under a vocabulary, any other value is :class:`Outside` it, and the row keeps it
      where the evaluator can name it (text, a mapping, a list), else ``null`` (a
      Boolean or a number there must not count as one).
    - With no ``labels``, any value is kept as it is; only a word for a Boolean
      (``yes``, ``TRUE``, ``1``) is :class:`Outside`, so the evidence suggests the
      ``labels:`` block that reads it rather than a rewrite of the export.
    """
    if labels is None:

        def plain(value: object) -> tuple[object, Outside | None]:
            if type(value) is bool:
                return _TRUE if value else _FALSE
            if value is ABSENT:
                return value, None
            hint = outside_hint(None, value)
            return value, None if hint is None else Outside(value, hint)

        return plain
    lookup = label_lookup(labels)
    # Each label of text with its meaning, ready: the usual label, read with one lookup.
    words = {label: _TRUE if lookup(label) else _FALSE for label, _ in labels if type(label) is str}

    def vocabulary(value: object) -> tuple[object, Outside | None]:
        if type(value) is str:
            found = words.get(value)
            if found is not None:
                return found
        meaning = lookup(value)
        if meaning is not None:
            return _TRUE if meaning else _FALSE
        if value is ABSENT:
            return value, None
        kept = value if isinstance(value, str) or type(value) in (dict, list) else None
        return kept, Outside(value, outside_hint(labels, value))

    return vocabulary


def note_outside(
    notes: Findings, outside: Outside, where: Callable[[], str], side: str, case_id: object
) -> bool:
    """Note ``outside`` (the label of ``side`` beside ``case_id``, read at ``where()``)
    if it is the first label outside the vocabulary; whether it is."""
    if notes.outside is not None:
        return False
    notes.label_outside(where(), side, case_id, outside.value, None, outside.hint)
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
    case_file: str = "",
) -> Iterator[object]:
    """The rows of a one-row-per-case export as ledger rows. ``where()`` names the row
    just read (for notes); ``groups`` takes each row handed over with its group's value;
    ``case_file`` names the case file where notes say what to write in the block."""
    get_id, get_a, get_b = (
        id_reader(ledger.id, ledger.selection),
        getter(ledger.a),
        getter(ledger.b),
    )
    meaning = label_meaning(ledger.labels)
    used = {ledger.id.parts[0], ledger.a.parts[0], ledger.b.parts[0], *ROW_KEYS, *grouped(ledger)}
    ids_go = ledger.ids_go(case_file)
    for index, row in enumerate(rows):
        if type(row) is not dict:
            yield row  # not a mapping: the evaluator says so
            continue
        out: dict[str, object] = {}
        case_id = get_id(row)
        if case_id is not ABSENT:
            out["id"] = case_id
            if type(case_id) in (int, float):
                notes.note_id(index, case_id, where, ids_go)
        elif notes.dotted is None:
            note_dotted(notes, "id", ledger.id, row, where)
        for side, get in (("a", get_a), ("b", get_b)):
            value = get(row)
            if value is ABSENT:
                if notes.dotted is None:
                    note_dotted(notes, side, ledger.a if side == "a" else ledger.b, row, where)
                continue
            out[side], outside = meaning(value)
            if outside is not None and note_outside(notes, outside, where, side, case_id):
                notes.handed_over(index)
        for key, value in row.items():
            if key not in used:
                out[key] = value
        if groups is not None:
            groups.add(out, groups.read(row))
        yield out
