"""The two sides of a join: each grader's own file, described under ``a:`` and ``b:``.

The names are the format (the SPEC pins them)::

    ledger:
      a: {input_file: runs/judge.json, records: results.results, id: vars.id, label: gradingResult.pass}
      b: {input_file: labels/desk.csv, id: headline_id, label: verdict, labels: {PASS: true, FAIL: false}}
      graders: {a: llm-judge, b: desk}

Each side takes ``input_file``, ``id``, ``label``, and optionally ``labels``, ``records``,
``where`` and ``ids``; ``labels`` may stand at the ``ledger:`` level for both sides. The
case then has no ``input_file`` of its own: the loader resolves each side's. This
module reads the sides; :mod:`~pytest_rubric.inputs.joins` joins their rows. It does
not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe
from pytest_rubric.inputs.keypaths import (
    KeyPath,
    path_from_json,
    place_from_json,
    read_key_path,
)
from pytest_rubric.inputs.labels import Places, Position, Report, read_labels, refuse_unknown_keys
from pytest_rubric.inputs.selection import Selection, read_selection, selection_from_json
from pytest_rubric.inputs.traits import NO_FORMAT, FileTraits

SIDE_KEYS = ("input_file", "id", "label", "labels", "records", "where", "ids")
#: The keys of a ``ledger:`` block that may stand beside two sides.
JOIN_LEDGER_KEYS = ("a", "b", "labels", "graders", "group_by")

Labels = tuple[tuple[JSON, bool], ...]


@dataclass(frozen=True, slots=True)
class Side:
    """One grader's side of a join: its ``input_file`` as written (and where), the key
    paths of its ID and label, its label vocabulary (``None``: the ledger's, or real
    booleans only), and which of its rows are read."""

    input_file: str
    file_at: Position
    id: KeyPath
    label: KeyPath
    labels: Labels | None
    labels_at: Position
    selection: Selection

    def to_json(self) -> JSON:
        return {
            "input_file": self.input_file,
            "file_at": list(self.file_at),
            "id": self.id.to_json(),
            "label": self.label.to_json(),
            "labels": None if self.labels is None else [[v, m] for v, m in self.labels],
            "labels_at": list(self.labels_at),
            "selection": self.selection.to_json(),
        }


def side_from_json(value: Any, labels_of: Any) -> Side:
    """The :class:`Side` :meth:`Side.to_json` wrote (``labels_of`` reads its labels
    back); ``TypeError`` or ``ValueError`` for anything else."""
    if type(value) is not dict or set(value) != set(Side.__dataclass_fields__):
        raise TypeError("a side of a join")
    if type(value["input_file"]) is not str:
        raise TypeError("an input file is a path")
    key, label = path_from_json(value["id"]), path_from_json(value["label"])
    if key is None or label is None:
        raise TypeError("a side has an id and a label")
    return Side(
        input_file=value["input_file"],
        file_at=place_from_json(value["file_at"]),
        id=key,
        label=label,
        labels=labels_of(value["labels"]),
        labels_at=place_from_json(value["labels_at"]),
        selection=selection_from_json(value["selection"]),
    )


def read_side(
    name: str,
    block: dict[str, JSON],
    at: Position,
    keys: Mapping[int, Mapping[str, tuple[Position, Position]]],
    items: Mapping[int, Sequence[Position]],
    refuse: Report,
    traits_of: Callable[[str], FileTraits],
) -> Side | None:
    """Side ``name`` (``a`` or ``b``) as ``block`` describes it, or ``None`` after
    refusing each problem at its place; ``traits_of`` gives its file's traits from its
    written name."""
    places = Places(block, at, keys)
    key_at, value_at = places.key, places.value

    problems: list[tuple[Position, str]] = []

    def note(where: Position, message: str) -> None:
        problems.append((where, message))

    refuse_unknown_keys(block, SIDE_KEYS, f"a key of a side of a join ('{name}')", key_at, note)
    written = block.get("input_file")
    traits = NO_FORMAT
    if not isinstance(written, str) or not written.strip():
        note(
            value_at("input_file") if "input_file" in block else at,
            f"side '{name}' of the join needs 'input_file:' (its grader's own file), not "
            f"{describe(written)}; write e.g. '{name}: {{input_file: labels/{name}.csv, id: "
            "case_id, label: verdict}'",
        )
        written = ""
    else:
        traits = traits_of(written)
    paths: dict[str, KeyPath | None] = {}
    for key in ("id", "label"):
        if key not in block:
            note(
                at,
                f"side '{name}' of the join needs '{key}:' ("
                + ("the column or key of its case ID" if key == "id" else "its grader's label")
                + ")",
            )
            paths[key] = None
            continue
        paths[key] = read_key_path(
            block[key], key, value_at(key), items, note, traits, f"'{name}.{key}'"
        )
    labels = read_labels(block, value_at("labels"), keys, items, note, traits)
    selection = read_selection(block, value_at, keys, items, note, traits, f"'{name}'")
    for where, message in problems:
        refuse(where, message)
    case_id, label = paths.get("id"), paths.get("label")
    if problems or case_id is None or label is None:
        return None
    if case_id.parts == label.parts:
        refuse(
            value_at("label"),
            f"'{name}.id' and '{name}.label' name the same column or key "
            f"{escape_controls(repr(label.written))}; each names its own",
        )
        return None
    return Side(
        input_file=written,
        file_at=value_at("input_file"),
        id=case_id,
        label=label,
        labels=labels,
        labels_at=value_at("labels"),
        selection=selection,
    )


def outside_join(key: str) -> str:
    """Why ``key`` cannot stand at the ``ledger:`` level of a join, and what to write."""
    if key in ("records", "where", "ids", "id", "label"):
        return (
            f"'{key}' describes one file, and a join has two: write it under each side "
            f"('a: {{..., {key}: ...}}', 'b: {{..., {key}: ...}}')"
        )
    return (
        f"'{key}' is not read in a join of two files (each side is one row per case); "
        f"the ledger level takes {', '.join(JOIN_LEDGER_KEYS)}"
    )
