"""The two sides of a join: each grader's own file, described under ``a:`` and ``b:``.

The names are the format (the SPEC pins them)::

    ledger:
      a: {input_file: runs/judge.json, records: results.results, id: vars.id, label: gradingResult.pass}
      b: {input_file: labels/desk.csv, id: headline_id, label: verdict, labels: {PASS: true, FAIL: false}}
      graders: {a: llm-judge, b: desk}

Each side takes ``input_file``, ``id``, ``label``, and optionally ``labels``, ``records``,
``sheet``, ``where`` and ``ids``; ``labels`` may stand at the ``ledger:`` level for both sides. The
case then has no ``input_file`` of its own: the loader resolves each side's. This
module reads the sides; :mod:`~pytest_rubric.inputs.joins` joins their rows. It does
not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.keypaths import KeyPath, read_key_path
from pytest_rubric.descriptions.labels import Labels, read_labels
from pytest_rubric.descriptions.positions import Block, Position
from pytest_rubric.descriptions.selection import Selection, read_selection
from pytest_rubric.descriptions.traits import NO_FORMAT, FileTraits

SIDE_KEYS = ("input_file", "id", "label", "labels", "records", "sheet", "where", "ids")
#: The keys of a ``ledger:`` block that may stand beside two sides.
JOIN_LEDGER_KEYS = ("a", "b", "labels", "graders", "group_by")


@dataclass(frozen=True, slots=True)
class Side:
    """One grader's side of a join: its ``input_file`` as written (and where), the key
    paths of its ID and label, its label vocabulary (``None``: the ledger's, or real
    booleans only), and which of its rows are read."""

    input_file: str
    file_at: Position
    id: KeyPath
    label: KeyPath
    labels: Labels
    labels_at: Position
    selection: Selection


def read_side(name: str, side: Block, traits_of: Callable[[str], FileTraits]) -> Side | None:
    """Side ``name`` (``a`` or ``b``) as the block ``side`` describes it, or ``None`` after
    refusing each problem at its place; ``traits_of`` gives its file's traits from its
    written name."""
    problems: list[tuple[Position, str]] = []

    def note(where: Position, message: str) -> None:
        problems.append((where, message))

    block = Block(side.value, side.places, side.written.refusing(note))
    values, at, value_at = block.value, block.places.at, block.places.value
    block.refuse_unknown(SIDE_KEYS, f"a key of a side of a join ('{name}')")
    input_file = values.get("input_file")
    traits = NO_FORMAT
    if not isinstance(input_file, str) or not input_file.strip():
        note(
            value_at("input_file") if "input_file" in values else at,
            f"side '{name}' of the join needs 'input_file:' (its grader's own file), not "
            f"{describe(input_file)}; write e.g. '{name}: {{input_file: labels/{name}.csv, id: "
            "case_id, label: verdict}'",
        )
        input_file = ""
    else:
        traits = traits_of(input_file)
    paths: dict[str, KeyPath | None] = {}
    for key in ("id", "label"):
        if key not in values:
            note(
                at,
                f"side '{name}' of the join needs '{key}:' ("
                + ("the column or key of its case ID" if key == "id" else "its grader's label")
                + ")",
            )
            paths[key] = None
            continue
        paths[key] = read_key_path(
            values[key], key, value_at(key), block.written, traits, f"'{name}.{key}'"
        )
    labels = read_labels(block, traits)
    selection = read_selection(block, traits, f"'{name}'")
    for where, message in problems:
        side.refuse(where, message)
    case_id, label = paths.get("id"), paths.get("label")
    if problems or case_id is None or label is None:
        return None
    if case_id.parts == label.parts:
        side.refuse(
            value_at("label"),
            f"'{name}.id' and '{name}.label' name the same column or key "
            f"{escape_controls(repr(label.written))}; each names its own",
        )
        return None
    return Side(
        input_file=input_file,
        file_at=value_at("input_file"),
        id=case_id,
        label=label,
        labels=labels,
        labels_at=value_at("labels"),
        selection=selection,
    )


def outside_join(key: str) -> str:
    """Why ``key`` cannot stand at the ``ledger:`` level of a join, and what to write."""
    if key in ("records", "sheet", "where", "ids", "id", "label"):
        return (
            f"'{key}' describes one file, and a join has two: write it under each side "
            f"('a: {{..., {key}: ...}}', 'b: {{..., {key}: ...}}')"
        )
    return (
        f"'{key}' is not read in a join of two files (each side is one row per case); "
        f"the ledger level takes {', '.join(JOIN_LEDGER_KEYS)}"
    )
