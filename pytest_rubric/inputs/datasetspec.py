"""A case's ``dataset:`` block: a file of rows, each row a case of its own.

The names are the format (the SPEC pins them)::

    dataset:
      file: logs/decisions-2024-12.jsonl    # .jsonl, .csv, .json, .parquet; .gz but Parquet
      id: decision_id                        # the key path of each row's case ID
      input:                                 # the evaluator's input: a key path, or a
        fields: {title: checks.has_title}    #   mapping whose leaves are key paths
        pass: verdict
        reasons: reason_codes
      expected: expected                     # the key path of each row's own expected answer
      labels: {PASS: true, FAIL: false}      # words read as Booleans where an input leaf holds them
      split: {reason_codes: ";"}             # a CSV column read as a list of text
      records: decisions                     # a .json document: the key path of its list of rows
      where: {judge: gpt-4o}                 # keep only the rows holding these values
      ids: as-text                           # an integer ID read as its decimal text

Key paths are those of a ``ledger:`` block (:mod:`~pytest_rubric.inputs.keypaths`).
:func:`read_dataset` turns the block (but ``file``, which the loader resolves) into a
:class:`Dataset`, or problems at the block's ``line:col``. This module does not import
pytest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe
from pytest_rubric.inputs.keypaths import KeyPath, path_from_json, place_from_json, read_key_path
from pytest_rubric.inputs.labels import Places, Position, Report, read_labels, refuse_unknown_keys
from pytest_rubric.inputs.selection import (
    EVERY_ROW,
    Selection,
    read_selection,
    selection_from_json,
)
from pytest_rubric.inputs.traits import FileTraits

DATASET_KEYS = ("file", "id", "input", "expected", "labels", "split", "records", "where", "ids")
#: The evaluator's input as a dataset names it: one key path (the whole input), or the
#: input's keys in order, each with a key path or a nested mapping of them.
Template: TypeAlias = "KeyPath | tuple[tuple[str, Template], ...]"


@dataclass(frozen=True, slots=True)
class Dataset:
    """A ``dataset:`` block as read: where each row's ID, input and (optionally) expected
    answer are, the words read as Booleans in the input's leaves (a CSV's ``true`` and
    ``false`` cells are Booleans whatever it says; ``None``: no other word),
    the CSV columns read as lists (each with its separator), which rows are read, and
    where the block is written (``at``)."""

    id: KeyPath
    input: Template
    expected: KeyPath | None = None
    labels: tuple[tuple[JSON, bool], ...] | None = None
    split: tuple[tuple[str, str], ...] = ()
    selection: Selection = EVERY_ROW
    at: Position = (0, 0)

    #: How messages name the block a key path is written in.
    block = "dataset"

    def named(self) -> list[tuple[str, KeyPath]]:
        """Every key path a row is read by, each with the key messages name it by
        (``id``, ``input.fields.title``, ``expected``)."""
        paths = [("id", self.id)]
        paths += leaves(self.input, "input")
        if self.expected is not None:
            paths.append(("expected", self.expected))
        return paths

    def to_json(self) -> dict[str, JSON]:
        """The block as plain JSON, for the case cache (read back by :func:`dataset_from_json`)."""
        return {
            "id": self.id.to_json(),
            "input": _template_json(self.input),
            "expected": None if self.expected is None else self.expected.to_json(),
            "labels": None if self.labels is None else [[v, m] for v, m in self.labels],
            "split": [[column, by] for column, by in self.split],
            "selection": self.selection.to_json(),
            "at": list(self.at),
        }


def leaves(template: Template, named: str) -> list[tuple[str, KeyPath]]:
    """The key paths of ``template``, each named by its place (``input.fields.title``)."""
    if isinstance(template, KeyPath):
        return [(named, template)]
    found: list[tuple[str, KeyPath]] = []
    for key, inner in template:
        found += leaves(inner, f"{named}.{key}")
    return found


def _template_json(template: Template) -> JSON:
    if isinstance(template, KeyPath):
        return {"path": template.to_json()}
    return {"keys": [[key, _template_json(inner)] for key, inner in template]}


def _template_from_json(value: Any) -> Template:
    if type(value) is dict and set(value) == {"path"}:
        path = path_from_json(value["path"])
        if path is None:
            raise TypeError("an input key path")
        return path
    if type(value) is not dict or set(value) != {"keys"} or type(value["keys"]) is not list:
        raise TypeError("an input template")
    keys: list[tuple[str, Template]] = []
    for pair in value["keys"]:
        if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
            raise TypeError("an input key and its template")
        keys.append((pair[0], _template_from_json(pair[1])))
    if not keys:
        raise ValueError("an input mapping names a key at least")
    return tuple(keys)


def dataset_from_json(value: Any) -> Dataset:
    """The :class:`Dataset` :meth:`Dataset.to_json` wrote; ``TypeError`` or ``ValueError``
    for anything else."""
    fields = {"id", "input", "expected", "labels", "split", "selection", "at"}
    if type(value) is not dict or set(value) != fields:
        raise TypeError(f"a mapping of {', '.join(sorted(fields))}")
    case_id = path_from_json(value["id"])
    if case_id is None:
        raise TypeError("a dataset's id is always given")
    labels = value["labels"]
    if labels is not None and (
        type(labels) is not list
        or not all(
            type(pair) is list
            and len(pair) == 2
            and type(pair[1]) is bool
            and type(pair[0]) in (str, int, float, bool, type(None))
            for pair in labels
        )
    ):
        raise TypeError("labels are pairs of a scalar and its meaning")
    split = value["split"]
    if type(split) is not list or not all(
        type(pair) is list and len(pair) == 2 and all(type(part) is str and part for part in pair)
        for pair in split
    ):
        raise TypeError("split: pairs of a column and its separator")
    return Dataset(
        id=case_id,
        input=_template_from_json(value["input"]),
        expected=path_from_json(value["expected"]),
        labels=None if labels is None else tuple((pair[0], pair[1]) for pair in labels),
        split=tuple((pair[0], pair[1]) for pair in split),
        selection=selection_from_json(value["selection"]),
        at=place_from_json(value["at"]),
    )


def read_dataset(
    block: JSON,
    at: Position,
    keys: Mapping[int, Mapping[str, tuple[Position, Position]]],
    items: Mapping[int, Sequence[Position]],
    problem: Report,
    *,
    traits: FileTraits,
) -> Dataset | None:
    """The :class:`Dataset` a case's ``dataset:`` value describes (its ``file``, of these
    ``traits``, resolved by the loader), or ``None`` after reporting each problem through
    ``problem``. ``at`` is where the value starts; ``keys`` and ``items`` the loader's
    positions."""
    example = "'dataset: {file: logs/decisions.jsonl, id: decision_id, input: {pass: verdict}}'"
    if not isinstance(block, dict):
        problem(at, f"'dataset' must be a mapping, not {describe(block)}; write e.g. {example}")
        return None
    places = Places(block, at, keys)
    key_at, value_at = places.key, places.value
    problems: list[tuple[Position, str]] = []

    def refuse(where: Position, message: str) -> None:
        problems.append((where, message))

    refuse_unknown_keys(block, DATASET_KEYS, "a dataset key", key_at, refuse)
    for key, what in (
        ("file", "the file of rows, e.g. 'file: logs/decisions.jsonl'"),
        ("id", "the key path of each row's case ID, e.g. 'id: decision_id'"),
        ("input", "the evaluator's input: a key path, or a mapping whose leaves are key paths"),
    ):
        if key not in block:
            refuse(at, f"a dataset needs '{key}:' ({what})")
    case_id = (
        read_key_path(block["id"], "id", value_at("id"), items, refuse, traits, "dataset 'id'")
        if "id" in block
        else None
    )
    template = (
        _template(block["input"], "input", value_at("input"), keys, items, refuse, traits)
        if "input" in block
        else None
    )
    expected = None
    if "expected" in block:
        expected = read_key_path(
            block["expected"],
            "expected",
            value_at("expected"),
            items,
            refuse,
            traits,
            "dataset 'expected'",
        )
        if expected is not None and traits.text_cells:
            refuse(
                value_at("expected"),
                "dataset 'expected' names a column of a .csv file, whose cells are text, "
                "never an answer's mapping; give the case an 'expected_subset' or "
                "'expected' instead, or keep the rows as .jsonl",
            )
    labels = read_labels(block, value_at("labels"), keys, items, refuse, traits)
    split = _split(block, value_at, keys, refuse, traits, template)
    selection = read_selection(block, value_at, keys, items, refuse, traits, "dataset")
    if problems:
        for where, message in problems:
            problem(where, message)
        return None
    assert case_id is not None
    assert template is not None
    return Dataset(case_id, template, expected, labels, split, selection, at)


def _template(
    value: JSON,
    named: str,
    at: Position,
    keys: Mapping[int, Mapping[str, tuple[Position, Position]]],
    items: Mapping[int, Sequence[Position]],
    refuse: Report,
    traits: FileTraits,
) -> Template | None:
    """The input template ``value`` writes (under the key ``named``), or ``None``."""
    words = f"dataset '{named}'"
    if isinstance(value, dict):
        if not value:
            refuse(
                at,
                f"{words} is an empty mapping; name the input's keys, each with the key path "
                "of its value, e.g. 'pass: verdict'",
            )
            return None
        inner_places = Places(value, at, keys)
        out: list[tuple[str, Template]] = []
        for key, inner in value.items():
            inner_at = inner_places.value(key)
            read = _template(inner, f"{named}.{key}", inner_at, keys, items, refuse, traits)
            if read is not None:
                out.append((key, read))
        return tuple(out) if len(out) == len(value) else None
    if named == "input" and traits.text_cells:
        refuse(
            at,
            f"{words} names one column of a .csv file, whose cells are text, never the "
            "evaluator's input mapping; write 'input:' as a mapping whose leaves name "
            "columns, e.g. 'input: {pass: verdict}'",
        )
        return None
    return read_key_path(value, named.rpartition(".")[2], at, items, refuse, traits, words)


def _split(
    block: dict[str, JSON],
    value_at: Any,
    keys: Mapping[int, Mapping[str, tuple[Position, Position]]],
    refuse: Report,
    traits: FileTraits,
    template: Template | None,
) -> tuple[tuple[str, str], ...]:
    """``split``: each CSV column the input reads as a list of text, with its separator."""
    if "split" not in block:
        return ()
    value, at = block["split"], value_at("split")
    if not traits.text_cells:
        refuse(
            at,
            "dataset 'split' reads a .csv column as a list; a JSON row holds its lists as "
            "they are: remove 'split'",
        )
        return ()
    if not isinstance(value, dict) or not value:
        refuse(
            at,
            f"dataset 'split' is {describe(value)}; write each column the input reads as a "
            "list with the text between its items, e.g. 'split: {reason_codes: \";\"}'",
        )
        return ()
    places = Places(value, at, keys)
    columns = set() if template is None else {path.column for _, path in leaves(template, "input")}
    out: list[tuple[str, str]] = []
    for column, by in value.items():
        column_at, by_at = places.key(column), places.value(column)
        if not isinstance(by, str) or not by:
            refuse(
                by_at,
                f"dataset 'split' separator for {escape_controls(repr(column))} is "
                f"{describe(by)}; write the text between the items, e.g. ';'",
            )
        elif template is not None and column not in columns:
            refuse(
                column_at,
                f"dataset 'split' names the column {escape_controls(repr(column))}, which no "
                "leaf of 'input' reads; name a column the input reads, or remove it",
            )
        else:
            out.append((column, by))
    return tuple(out)
