"""A case's ``ledger:`` block: how to read the export its ``input_file`` names.

The names are the format (the SPEC pins them)::

    ledger:
      id: task_id                  # the column or key holding the case ID
      a: judge_label               # grader A's label (with rows: per-judgement, A's name)
      b: editor_label              # grader B's label (with rows: per-judgement, B's name)
      labels: {PASS: true, FAIL: false}   # the export's words for the two Booleans
      graders: {a: judge, b: editor}      # how people should read a and b
      rows: per-judgement          # one row per judgement, with grader: and label:
      grader: annotator            # with per-judgement: the column naming who judged
      label: answer                # with per-judgement: the judgement
      records: results.results     # a .json document: the key path of its list of rows
      where: {status: submitted}   # keep only the rows (or judgements) holding these values
      ids: as-text                 # an integer ID read as its decimal text
      group_by: category           # the breakdown people read (evidence, report, page)

``a`` and ``b`` may instead each describe one grader's own file (a join: see
:mod:`~pytest_rubric.inputs.joinspec`).

A key is a path (:mod:`~pytest_rubric.inputs.keypaths`): ``labels.judge`` reaches
inside nested JSON, ``result.0`` into a list, and the list form ``[labels, judge.v2]``
covers keys that hold a dot. ``labels`` as a mapping maps text
words; as a list of ``[value, Boolean]`` pairs it maps any JSON scalar exactly as
YAML types it (``1`` the number, ``'1'`` the text, ``true`` the Boolean).

:func:`read_ledger` turns the block into a :class:`Ledger`, or problems at the
block's ``line:col``. This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe, show
from pytest_rubric.inputs.joinspec import (
    JOIN_LEDGER_KEYS,
    Side,
    outside_join,
    read_side,
    side_from_json,
)
from pytest_rubric.inputs.keypaths import (
    KeyPath,
    path_from_json,
    place_from_json,
    read_key_path,
)
from pytest_rubric.inputs.labels import (
    Places,
    Position,
    Report,
    read_graders,
    read_labels,
    refuse_unknown_keys,
)
from pytest_rubric.inputs.selection import (
    EVERY_ROW,
    Selection,
    read_selection,
    selection_from_json,
)
from pytest_rubric.inputs.traits import NO_FORMAT, FileTraits, FormatLookup

LEDGER_KEYS = (
    "id",
    "a",
    "b",
    "labels",
    "graders",
    "rows",
    "grader",
    "label",
    "records",
    "where",
    "ids",
    "group_by",
)
PER_ROW = "per-row"
PER_JUDGEMENT = "per-judgement"
ROW_FORMS = (PER_ROW, PER_JUDGEMENT)


@dataclass(frozen=True, slots=True)
class Ledger:
    """A ``ledger:`` block as read: where each of ``id``, ``a`` and ``b`` is (with
    ``per-judgement`` rows, ``a`` and ``b`` hold the two graders' names as written in the
    ``grader`` column: ``a_name`` and ``b_name``), the label vocabulary (each JSON value
    with the Boolean it means; ``None``: only real booleans are labels), and the names
    people read for a and b; which rows are read (``selection``: ``records``, ``where``,
    ``ids``); and for a join, its two sides (``id``, ``a`` and ``b`` are then side a's
    ID, side a's label and side b's label)."""

    id: KeyPath
    a: KeyPath
    b: KeyPath
    labels: tuple[tuple[JSON, bool], ...] | None = None
    graders: tuple[str, str] | None = None
    per_judgement: bool = False
    grader: KeyPath | None = None
    label: KeyPath | None = None
    a_name: JSON = None
    b_name: JSON = None
    labels_at: Position = (0, 0)
    selection: Selection = EVERY_ROW
    join: tuple[Side, Side] | None = None
    #: A side of a join read as a ledger of its own: ``a`` or ``b`` (its messages then name
    #: ``a.id`` and ``a.label``, its ``a`` and ``b`` being the side's label); else empty.
    side: str = ""
    #: ``group_by``: the path of the value each row's group is (for a join, in side a's
    #: rows), or ``None``.
    group_by: KeyPath | None = None

    #: How messages name the block a key path is written in.
    block = "ledger"

    def named(self) -> list[tuple[str, KeyPath | None]]:
        """The key paths a file's header or schema is checked against, each with the key
        messages name it by."""
        grouped = [] if self.group_by is None else [("group_by", self.group_by)]
        if self.side:
            return [(f"{self.side}.id", self.id), (f"{self.side}.label", self.a), *grouped]
        if self.per_judgement:
            return [("id", self.id), ("grader", self.grader), ("label", self.label), *grouped]
        return [("id", self.id), ("a", self.a), ("b", self.b), *grouped]

    def vocabulary(self) -> str:
        """The labels as people read them: ``PASS (true), FAIL (false)``."""
        return vocabulary(self.labels)

    def to_json(self) -> dict[str, JSON]:
        """The block as plain JSON, for the case cache (read back by :func:`from_json`)."""

        def path(key: KeyPath | None) -> JSON:
            return None if key is None else key.to_json()

        return {
            "id": path(self.id),
            "a": path(self.a),
            "b": path(self.b),
            "labels": None if self.labels is None else [[v, m] for v, m in self.labels],
            "graders": None if self.graders is None else list(self.graders),
            "per_judgement": self.per_judgement,
            "grader": path(self.grader),
            "label": path(self.label),
            "a_name": self.a_name,
            "b_name": self.b_name,
            "labels_at": list(self.labels_at),
            "selection": self.selection.to_json(),
            "join": None if self.join is None else [side.to_json() for side in self.join],
            "side": self.side,
            "group_by": path(self.group_by),
        }


def vocabulary(labels: tuple[tuple[JSON, bool], ...] | None) -> str:
    """Labels as people read them: ``PASS (true), FAIL (false)``."""
    if labels is None:
        return "true and false (real booleans)"
    return ", ".join(
        f"{escape_controls(show(value))} ({'true' if meaning else 'false'})"
        for value, meaning in labels
    )


def from_json(value: Any) -> Ledger:
    """The :class:`Ledger` :meth:`Ledger.to_json` wrote; ``TypeError`` or ``ValueError``
    for anything else, every field's type checked (the cache entry is then not used: a
    forged label that is a mapping must not reach the reading of the export)."""
    if type(value) is not dict or set(value) != _FIELDS:
        raise TypeError(f"a mapping of {', '.join(sorted(_FIELDS))}")
    labels, graders = value["labels"], value["graders"]
    if graders is not None and (type(graders) is not list or len(graders) != 2):
        raise TypeError("two graders' names")
    if type(value["per_judgement"]) is not bool:
        raise TypeError("per_judgement is a boolean")
    join = value["join"]
    if join is not None and (type(join) is not list or len(join) != 2):
        raise TypeError("a join has two sides")
    return Ledger(
        id=_required_path(value["id"]),
        a=_required_path(value["a"]),
        b=_required_path(value["b"]),
        labels=_labels(labels),
        graders=None if graders is None else (_name(graders[0]), _name(graders[1])),
        per_judgement=value["per_judgement"],
        grader=path_from_json(value["grader"]),
        label=path_from_json(value["label"]),
        a_name=_grader_value(value["a_name"]),
        b_name=_grader_value(value["b_name"]),
        labels_at=place_from_json(value["labels_at"]),
        selection=selection_from_json(value["selection"]),
        join=None
        if join is None
        else (side_from_json(join[0], _labels), side_from_json(join[1], _labels)),
        side=_side(value["side"]),
        group_by=path_from_json(value["group_by"]),
    )


def _required_path(item: Any) -> KeyPath:
    key = path_from_json(item)
    if key is None:
        raise TypeError("id, a and b are always given")
    return key


def _labels(labels: Any) -> tuple[tuple[JSON, bool], ...] | None:
    if labels is None:
        return None
    if type(labels) is not list or not all(
        type(pair) is list and len(pair) == 2 for pair in labels
    ):
        raise TypeError("labels are pairs of a label and its meaning")
    return tuple((_label(v), _boolean(m)) for v, m in labels)


#: The fields :meth:`Ledger.to_json` writes: every field of a :class:`Ledger`.
_FIELDS = frozenset(Ledger.__dataclass_fields__)


def _label(value: Any) -> JSON:
    """A label as the export holds it: a JSON scalar, never a mapping or a list."""
    if value is not None and type(value) not in (str, bool, int, float):
        raise TypeError("a label is a JSON scalar")
    return value  # type: ignore[no-any-return]


def _grader_value(value: Any) -> JSON:
    """A grader as the grader column holds it (or ``None``): text or a number."""
    if value is not None and type(value) not in (str, int, float):
        raise TypeError("a grader is text or a number")
    return value  # type: ignore[no-any-return]


def _boolean(value: Any) -> bool:
    if type(value) is not bool:
        raise TypeError("a label means a boolean")
    return value


def _side(value: Any) -> str:
    if value not in ("", "a", "b") or type(value) is not str:
        raise TypeError("a side of a join is a or b, or empty")
    return value


def _name(value: Any) -> str:
    if type(value) is not str:
        raise TypeError("a grader's name is text")
    return value


def read_ledger(
    block: JSON,
    at: Position,
    keys: Mapping[int, Mapping[str, tuple[Position, Position]]],
    items: Mapping[int, Sequence[Position]],
    problem: Report,
    *,
    formats: FormatLookup,
) -> Ledger | None:
    """The :class:`Ledger` a case's ``ledger:`` value describes, or ``None`` after
    reporting each problem through ``problem``. ``at`` is where the value starts;
    ``keys`` and ``items`` are the loader's positions (``Spans.keys``/``Spans.items``);
    ``formats`` what the input file's format (and a join's sides') can hold."""
    if not isinstance(block, dict):
        problem(
            at,
            f"'ledger' must be a mapping, not {describe(block)}; write e.g. "
            "'ledger: {id: task_id, a: judge_label, b: editor_label}'",
        )
        return None
    places = Places(block, at, keys)
    key_at, value_at = places.key, places.value
    problems: list[tuple[Position, str]] = []

    def refuse(where: Position, message: str) -> None:
        problems.append((where, message))

    refuse_unknown_keys(block, LEDGER_KEYS, "a ledger key", key_at, refuse)
    if isinstance(block.get("a"), dict) or isinstance(block.get("b"), dict):
        ledger = _join(block, at, keys, items, refuse, formats.of)
        for where, message in problems:
            problem(where, message)
        return None if problems else ledger
    rows = block.get("rows", PER_ROW)
    if rows not in ROW_FORMS:
        refuse(
            value_at("rows"),
            f"ledger 'rows' is {describe(rows)}; write 'rows: per-judgement' for one row per "
            "judgement, or leave it out for one row per case",
        )
        rows = PER_ROW
    per_judgement = rows == PER_JUDGEMENT
    traits = formats.file

    def path(key: str, default: str | None) -> KeyPath | None:
        if key not in block:
            if default is None:
                return None
            return KeyPath((default,), at, default)
        return read_key_path(block[key], key, value_at(key), items, refuse, traits)

    if per_judgement:
        for key in ("grader", "label", "a", "b"):
            if key not in block:
                refuse(
                    at,
                    f"a 'rows: per-judgement' ledger needs '{key}:' "
                    + {
                        "grader": "(the column naming who judged)",
                        "label": "(the column holding the judgement)",
                        "a": "(grader A's name, as the grader column writes it)",
                        "b": "(grader B's name, as the grader column writes it)",
                    }[key],
                )
    else:
        for key in ("grader", "label"):
            if key in block:
                refuse(
                    key_at(key),
                    f"'{key}' is read only with 'rows: per-judgement' (one row per "
                    "judgement); add that, or remove it",
                )
    case_id = path("id", "id")
    grader = path("grader", None) if per_judgement else None
    label = path("label", None) if per_judgement else None
    a_name: JSON = None
    b_name: JSON = None
    if per_judgement:
        a_name, b_name = block.get("a"), block.get("b")
        for key, name in (("a", a_name), ("b", b_name)):
            if key not in block or (type(name) is str and name):
                continue
            if type(name) in (int, float) and traits.text_cells:
                refuse(
                    value_at(key),
                    f"with 'rows: per-judgement', '{key}' is a grader's name as the grader "
                    f"column writes it, and every cell of a .csv ledger is text; write it "
                    f"quoted ('{show(name)}')",
                )
            elif type(name) not in (int, float):
                refuse(
                    value_at(key),
                    f"with 'rows: per-judgement', '{key}' is a grader's name as the grader "
                    f"column writes it, not {describe(name)}; write it as text, or as a "
                    f"number where the export holds a number ('{key}: 7')",
                )
        if same_grader(a_name, b_name):
            refuse(value_at("b"), f"a and b name the same grader {a_name!r}; name two graders")
        a: KeyPath | None = KeyPath(("a",), value_at("a"), "a")
        b: KeyPath | None = KeyPath(("b",), value_at("b"), "b")
    else:
        a = path("a", "a")
        b = path("b", "b")
    named = (
        [("id", case_id), ("grader", grader), ("label", label)]
        if per_judgement
        else [("id", case_id), ("a", a), ("b", b)]
    )
    for index, (first, one) in enumerate(named):
        for second, other in named[index + 1 :]:
            if one is not None and other is not None and one.parts == other.parts:
                refuse(
                    value_at(second) if second in block else value_at(first),
                    f"ledger '{first}' and '{second}' name the same column or key "
                    f"{escape_controls(repr(one.written))}; each names its own",
                )
    labels = read_labels(block, value_at("labels"), keys, items, refuse, traits)
    graders = read_graders(block, key_at, value_at, keys, refuse)
    selection = read_selection(block, value_at, keys, items, refuse, traits)
    group_by = path("group_by", None)
    if problems:
        for where, message in problems:
            problem(where, message)
        return None
    assert case_id is not None
    assert a is not None
    assert b is not None
    return Ledger(
        id=case_id,
        a=a,
        b=b,
        labels=labels,
        graders=graders,
        per_judgement=per_judgement,
        grader=grader,
        label=label,
        a_name=a_name,
        b_name=b_name,
        labels_at=value_at("labels"),
        selection=selection,
        group_by=group_by,
    )


def _join(
    block: dict[str, JSON],
    at: Position,
    keys: Mapping[int, Mapping[str, tuple[Position, Position]]],
    items: Mapping[int, Sequence[Position]],
    refuse: Report,
    traits_of: Callable[[str], FileTraits],
) -> Ledger | None:
    """A ``ledger:`` block whose ``a`` or ``b`` is a mapping: a join of two files, each
    side's file of the traits ``traits_of`` finds by its written name."""
    places = Places(block, at, keys)
    key_at, value_at = places.key, places.value
    for key in block:
        if key in LEDGER_KEYS and key not in JOIN_LEDGER_KEYS:
            refuse(key_at(key), outside_join(key))
    sides: list[Side | None] = []
    for name in ("a", "b"):
        value = block.get(name)
        if not isinstance(value, dict):
            other = "b" if name == "a" else "a"
            refuse(
                value_at(name) if name in block else at,
                f"'{other}' is a side of a join (its grader's own file), so '{name}' must be "
                f"one too, not {describe(value) if name in block else 'left out'}; write e.g. "
                f"'{name}: {{input_file: labels/{name}.csv, id: case_id, label: verdict}}'",
            )
            sides.append(None)
            continue
        sides.append(read_side(name, value, value_at(name), keys, items, refuse, traits_of))
    # Labels at the ledger level are for both sides: text only where both hold text.
    both_text = all(
        isinstance(side, dict) and traits_of(str(side.get("input_file", ""))).text_cells
        for side in (block.get("a"), block.get("b"))
    )
    labels = read_labels(
        block, value_at("labels"), keys, items, refuse, FileTraits(text_cells=both_text)
    )
    graders = read_graders(block, key_at, value_at, keys, refuse)
    side_a, side_b = sides
    group_by = None
    if "group_by" in block:  # a key of side a's rows, read as side a's file holds keys
        side_traits = NO_FORMAT if side_a is None else traits_of(side_a.input_file)
        group_by = read_key_path(
            block["group_by"], "group_by", value_at("group_by"), items, refuse, side_traits
        )
    if side_a is None or side_b is None:
        return None
    return Ledger(
        id=side_a.id,
        a=side_a.label,
        b=side_b.label,
        labels=labels,
        graders=graders,
        labels_at=value_at("labels"),
        join=(side_a, side_b),
        group_by=group_by,
    )


def same_grader(first: object, second: object) -> bool:
    """Whether two grader names are one under strict JSON equality: text equals only
    text, a number only a number (``7`` is ``7.0``), never a Boolean."""
    if type(first) is str or type(second) is str:
        return type(first) is type(second) and first == second
    numbers = (int, float)
    return type(first) in numbers and type(second) in numbers and first == second
