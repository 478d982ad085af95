"""A dataset's rows, each as the case it is: its ID, the evaluator's input, its own
expected answer (when the block names one), or what is wrong with it.

The rows are read by the file's format (:mod:`~pytest_rubric.inputs.formats`:
the same formats, key paths, ``records``, ``where`` and ``ids``). Each row's input is
built from the block's ``input``: its leaves read from the row (a path that leads
nowhere leaves its key out, which the evaluator then names), each leaf (a value that
is not a mapping, however deep; a list is one, kept as it is) a word of ``labels``
read as its Boolean, a CSV's ``true`` and ``false`` cells as Booleans too (a CSV has
no other way to hold one), each ``split`` column read as a list of text.

A row that cannot be a case (an ID that is missing, not text, blank, repeated, or
would break its pytest node ID; an input or expected answer that is not a mapping) is
a :class:`DatasetRow` with a ``problem``: its own item fails, the others run. A
description the file does not fit (a column its header lacks, a ``where`` that keeps
no row, no row at all) is a :class:`~pytest_rubric.descriptions.misfits.LedgerError` at the block's
``line:col``; a file that cannot be read is a
:class:`~pytest_rubric.core.errors.RubricInputError`.
This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple, cast

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsoncheck import json_problem
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import JS_WHITESPACE_CHARS
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.dataset import Dataset, Template, leaves
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter
from pytest_rubric.descriptions.labels import label_lookup
from pytest_rubric.descriptions.misfits import LedgerError, misfit
from pytest_rubric.descriptions.selection import Conditions, id_reader
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.formats.base import InputFile

#: Parts of a row ID that would break its item's pytest node ID or a terminal line.
UNSAFE_ID_PARTS = ("::", "[", "]")


class DatasetRow(NamedTuple):
    """One row: ``label`` names it in its item (``line 31``, ``row 4``, ``item 3``) and
    ``place`` in messages (``logs/decisions.jsonl:31``); ``case_id`` is its ID when it is
    usable; ``problem`` says why the row cannot be a case (then there is no input)."""

    label: str
    place: str
    case_id: str | None
    problem: str | None
    input: dict[str, JSON] | None
    expected: dict[str, JSON] | None


def dataset_rows(file: InputFile, case_file: str) -> Iterator[DatasetRow]:
    """The rows of the dataset ``file`` (its ``dataset`` block set), each as a case;
    ``case_file`` names the case file in messages about the block."""
    dataset = file.dataset
    assert dataset is not None
    fmt = file.reader
    cursor = Cursor()

    place = file.place

    def here() -> str:
        return place(cursor.position)

    conditions = Conditions(dataset.selection.where, here)
    get_id = id_reader(dataset.id, dataset.selection)
    build = _builder(dataset, text_cells=fmt.traits.flat)
    get_expected = None if dataset.expected is None else getter(dataset.expected)
    first: dict[str, str] = {}  # each ID with the place of its first row
    read = kept = 0  # rows read; rows `where` kept, cases or not
    rows = fmt.rows(file, case_file, cursor)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except LedgerError:
            raise
        except RubricInputError as exc:
            if not read or not cursor.position:
                raise  # before the rows or after them: the file's own fault, not a row's
            # A row the reader refuses: its own item fails; the reader cannot go on past it.
            number = cursor.position
            label = fmt.row_label(number)
            words = f"{exc}; the rows after it are not read: fix it, and they run again"
            yield _refused(label, place(number), words)
            return
        read += 1
        if conditions.checks and type(row) is dict and not conditions.kept(row):
            continue
        kept += 1
        number = cursor.position
        label = fmt.row_label(number)
        where = place(number)
        if type(row) is not dict:
            yield _refused(label, where, f"{where} is {describe(row)}, not a mapping (a row)")
            continue
        case_id = get_id(row)
        problem = _id_problem(case_id, dataset.id, where, first)
        if problem is not None:
            yield _refused(label, where, problem)
            continue
        assert type(case_id) is str
        first[case_id] = where
        made = build(row)
        if isinstance(made, str):
            yield _refused(label, where, f"{where}: {made}")
            continue
        unfit = json_problem(made, "the input")  # a Parquet NaN, say: no JSON holds it
        if unfit is not None:
            yield _refused(label, where, f"{where}: {unfit}")
            continue
        expected: dict[str, JSON] | None = None
        if get_expected is not None:
            found = get_expected(row)
            if type(found) is not dict:
                yield _refused(label, where, _expected_problem(dataset, found, where))
                continue
            expected = cast(dict[str, JSON], found)
        yield DatasetRow(label, where, case_id, None, made, expected)
    if conditions.left_out and not kept and read:
        raise conditions.none_kept(case_file, "rows", "dataset ", "dataset")
    if not read:
        raise misfit(
            case_file,
            dataset.at,
            f"{file.display} holds no rows, so the dataset would be empty; a dataset case "
            "needs a row at least",
        )


def _refused(label: str, where: str, problem: str) -> DatasetRow:
    return DatasetRow(label, where, None, problem, None, None)


def _id_problem(case_id: object, path: KeyPath, where: str, first: dict[str, str]) -> str | None:
    """Why ``case_id`` cannot name a row's case, or ``None``."""
    shown = escape_controls(path.written)
    if case_id is ABSENT:
        return f"{where} has no ID at {shown!r}; every row needs its case ID there"
    if type(case_id) is not str:
        hint = (
            "; write 'ids: as-text' in the dataset block to read whole numbers as their text"
            if type(case_id) is int
            else ""
        )
        return f"{where}: the ID at {shown!r} is {describe(case_id)}, not text{hint}"
    if not case_id.strip(JS_WHITESPACE_CHARS):
        return f"{where}: the ID at {shown!r} is {describe(case_id)}, which is blank"
    if case_id != case_id.strip():
        return (
            f"{where}: the ID {escape_controls(repr(case_id))} has leading or trailing "
            "whitespace, which would make two IDs look alike; write it without"
        )
    unsafe = next((part for part in UNSAFE_ID_PARTS if part in case_id), None)
    if unsafe is not None or escape_controls(case_id) != case_id:
        what = (
            repr(unsafe)
            if unsafe is not None
            else "a character that would reach terminals and reports raw (a control, "
            "line-breaking or direction-changing character, or half a surrogate pair)"
        )
        return (
            f"{where}: the ID {escape_controls(repr(case_id))} holds {what}, which would break "
            "its pytest node ID; IDs of dataset rows are letters, digits and punctuation "
            "but '::', '[' and ']'"
        )
    if case_id in first:
        return (
            f"{where}: the ID {case_id!r} repeats the row at {first[case_id]}; every row of a "
            "dataset is a case of its own, with its own ID"
        )
    return None


def _expected_problem(dataset: Dataset, expected: object, where: str) -> str:
    assert dataset.expected is not None
    shown = escape_controls(dataset.expected.written)
    if expected is ABSENT:
        return f"{where} has no expected answer at {shown!r}; give every row one there"
    return (
        f"{where}: the expected answer at {shown!r} is {describe(expected)}; an expected "
        "answer is a mapping"
    )


def _builder(
    dataset: Dataset, *, text_cells: bool
) -> Callable[[dict[str, JSON]], dict[str, JSON] | str]:
    """How a row becomes the evaluator's input: the mapping, or why not (a sentence)."""
    lookup = label_lookup(dataset.labels) if dataset.labels is not None else None
    csv_booleans = None
    if text_cells:  # a CSV's (or a sheet's text) true and false: imported when one is read
        from pytest_rubric.inputs.csvrows import CSV_BOOLEANS

        csv_booleans = CSV_BOOLEANS.get
    split = dict(dataset.split)

    def leaf(value: object, column: str) -> object:
        if type(value) is str and column in split:
            return value.split(split[column]) if value else []
        if type(value) is dict:  # a mapping is no leaf: its values are, however deep
            return {key: leaf(item, "") for key, item in value.items()}
        if lookup is not None:
            meaning = lookup(value)
            if meaning is not None:
                return meaning
        if csv_booleans is not None and type(value) is str:
            return csv_booleans(value, value)
        return value

    def filled(template: Template, row: dict[str, JSON]) -> dict[str, JSON]:
        out: dict[str, JSON] = {}
        assert not isinstance(template, KeyPath)
        for key, inner in template:
            if isinstance(inner, KeyPath):
                value = get_of[id(inner)](row)
                if value is not ABSENT:
                    out[key] = leaf(value, inner.column)  # type: ignore[assignment]
            else:
                out[key] = filled(inner, row)
        return out

    template = dataset.input
    get_of = {id(path): getter(path) for _, path in leaves(template, "input")}
    if isinstance(template, KeyPath):
        whole = getter(template)
        shown = escape_controls(template.written)

        def from_path(row: dict[str, JSON]) -> dict[str, JSON] | str:
            value = whole(row)
            if type(value) is not dict:
                found = "nothing" if value is ABSENT else describe(value)
                return f"the input at {shown!r} is {found}, not a mapping"
            return {key: leaf(item, "") for key, item in value.items()}  # type: ignore[misc]

        return from_path
    return lambda row: filled(template, row)
