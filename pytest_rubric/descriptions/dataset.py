"""A case's ``dataset:`` block: a file of rows, each row a case of its own.

The names are the format (the SPEC pins them)::

    dataset:
      file: logs/decisions-2024-12.jsonl    # .jsonl, .csv, .json, .parquet, .xlsx; .gz (text)
      id: decision_id                        # the key path of each row's case ID
      input:                                 # the evaluator's input: a key path, or a
        fields: {title: checks.has_title}    #   mapping whose leaves are key paths
        pass: verdict
        reasons: reason_codes
      expected: expected                     # the key path of each row's own expected answer
      labels: {PASS: true, FAIL: false}      # words read as Booleans where an input leaf holds them
      split: {reason_codes: ";"}             # a CSV column read as a list of text
      records: decisions                     # a .json document: the key path of its list of rows
      sheet: decisions                       # a workbook (.xlsx): the sheet of rows, else the first
      where: {judge: gpt-4o}                 # keep only the rows holding these values
      ids: as-text                           # an integer ID read as its decimal text

Key paths are those of a ``ledger:`` block (:mod:`~pytest_rubric.descriptions.keypaths`).
:func:`read_dataset` turns the block (but ``file``, which the loader resolves) into a
:class:`Dataset`, or problems at the block's ``line:col``. This module does not import
pytest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.keypaths import KeyPath, read_key_path
from pytest_rubric.descriptions.labels import read_labels
from pytest_rubric.descriptions.positions import Block, Position, Written
from pytest_rubric.descriptions.selection import EVERY_ROW, Selection, read_selection
from pytest_rubric.descriptions.traits import FileTraits

DATASET_KEYS = (
    "file",
    "id",
    "input",
    "expected",
    "labels",
    "split",
    "records",
    "sheet",
    "where",
    "ids",
)
#: The evaluator's input as a dataset names it: one key path (the whole input), or the
#: input's keys in order, each with a key path or a nested mapping of them.
Template: TypeAlias = "KeyPath | tuple[tuple[str, Template], ...]"


@dataclass(frozen=True, slots=True)
class Dataset:
    """A ``dataset:`` block as read: where each row's ID, input and (optionally) expected
    answer are, the words read as Booleans in the input's leaves (a CSV's ``true`` and
    ``false`` cells are Booleans whatever it says; ``None``: no other word),
    the CSV columns read as lists (each with its separator), which rows are read, and
    where the block is written (``at``) and its ``file`` (``file_at``: a file that cannot
    be read is refused there)."""

    id: KeyPath
    input: Template
    expected: KeyPath | None = None
    labels: tuple[tuple[JSON, bool], ...] | None = None
    split: tuple[tuple[str, str], ...] = ()
    selection: Selection = EVERY_ROW
    at: Position = (0, 0)
    file_at: Position = (0, 0)

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


def leaves(template: Template, named: str) -> list[tuple[str, KeyPath]]:
    """The key paths of ``template``, each named by its place (``input.fields.title``)."""
    if isinstance(template, KeyPath):
        return [(named, template)]
    found: list[tuple[str, KeyPath]] = []
    for key, inner in template:
        found += leaves(inner, f"{named}.{key}")
    return found


def read_dataset(
    value: JSON, at: Position, written: Written, *, traits: FileTraits
) -> Dataset | None:
    """The :class:`Dataset` a case's ``dataset:`` value describes (its ``file``, of these
    ``traits``, resolved by the loader), or ``None`` after refusing each problem. ``at`` is
    where the value starts; ``written`` the loader's positions."""
    example = "'dataset: {file: logs/decisions.jsonl, id: decision_id, input: {pass: verdict}}'"
    if not isinstance(value, dict):
        written.refuse(
            at, f"'dataset' must be a mapping, not {describe(value)}; write e.g. {example}"
        )
        return None
    problems: list[tuple[Position, str]] = []

    def refuse(where: Position, message: str) -> None:
        problems.append((where, message))

    block = Block.of(value, at, written.refusing(refuse))
    value_at, own = block.places.value, block.written
    block.refuse_unknown(DATASET_KEYS, "a dataset key")
    for key, what in (
        ("file", "the file of rows, e.g. 'file: logs/decisions.jsonl'"),
        ("id", "the key path of each row's case ID, e.g. 'id: decision_id'"),
        ("input", "the evaluator's input: a key path, or a mapping whose leaves are key paths"),
    ):
        if key not in value:
            refuse(at, f"a dataset needs '{key}:' ({what})")
    case_id = (
        read_key_path(value["id"], "id", value_at("id"), own, traits, "dataset 'id'")
        if "id" in value
        else None
    )
    template = (
        _template(value["input"], "input", value_at("input"), own, traits)
        if "input" in value
        else None
    )
    expected = None
    if "expected" in value:
        expected = read_key_path(
            value["expected"],
            "expected",
            value_at("expected"),
            own,
            traits,
            "dataset 'expected'",
        )
        if expected is not None and traits.flat:
            refuse(
                value_at("expected"),
                f"dataset 'expected' names a column of a {traits.written} file, whose cells "
                "are never an answer's mapping; give the case an 'expected_subset' or "
                "'expected' instead, or keep the rows as .jsonl",
            )
    labels = read_labels(block, traits)
    split = _split(block, traits, template)
    selection = read_selection(block, traits, "dataset")
    if problems:
        for where, message in problems:
            written.refuse(where, message)
        return None
    assert case_id is not None
    assert template is not None
    return Dataset(case_id, template, expected, labels, split, selection, at, value_at("file"))


def _template(
    value: JSON, named: str, at: Position, written: Written, traits: FileTraits
) -> Template | None:
    """The input template ``value`` writes (under the key ``named``), or ``None``."""
    refuse = written.refuse
    words = f"dataset '{named}'"
    if isinstance(value, dict):
        if not value:
            refuse(
                at,
                f"{words} is an empty mapping; name the input's keys, each with the key path "
                "of its value, e.g. 'pass: verdict'",
            )
            return None
        inner_places = written.places(value, at)
        out: list[tuple[str, Template]] = []
        for key, inner in value.items():
            inner_at = inner_places.value(key)
            read = _template(inner, f"{named}.{key}", inner_at, written, traits)
            if read is not None:
                out.append((key, read))
        return tuple(out) if len(out) == len(value) else None
    if named == "input" and traits.flat:
        refuse(
            at,
            f"{words} names one column of a {traits.written} file, whose cells are never "
            "the evaluator's input mapping; write 'input:' as a mapping whose leaves name "
            "columns, e.g. 'input: {pass: verdict}'",
        )
        return None
    return read_key_path(value, named.rpartition(".")[2], at, written, traits, words)


def _split(
    block: Block, traits: FileTraits, template: Template | None
) -> tuple[tuple[str, str], ...]:
    """``split``: each CSV column the input reads as a list of text, with its separator."""
    if "split" not in block.value:
        return ()
    value, at, refuse = block.value["split"], block.places.value("split"), block.refuse
    if not traits.flat:
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
    places = block.written.places(value, at)
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
