"""Tables kept as columns and data in a JSON document (``.json``, also gzip'd):
``{"columns": [...], "data": [[...], ...]}``, as pandas writes ``to_json(orient="split")``
(with an ``index`` unless ``index=False``) and MLflow its evaluation results table
(``eval_results_table.json``).

Where a document's rows are (the top level, or where ``records:`` leads) a mapping that
starts with ``columns`` (or pandas' ``index``) is such a table: each item of ``data`` is
handed over as a mapping from the column names, so key paths name columns as in a CSV.
The column names must be text (whole numbers are read as their decimal text), each once;
a description naming a column the table lacks is the case's problem, at its key. A row is
named by its place in ``data``, as a document's row is (``file#[N]``); a row that is not
a list of one value a column is that row's problem. The rows are decoded a block of text
at a time, as many whole rows as the block holds in one call of the strict decoder; the
``index`` is decoded and dropped.

A list met as a row anywhere else has no names for key paths to name: the description's
problem (:func:`list_row`). This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import repeat
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsondecode import DECODER
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.misfits import dotted_words, header_problem, misfit

if TYPE_CHECKING:
    from pytest_rubric.descriptions.dataset import Dataset
    from pytest_rubric.descriptions.keypaths import KeyPath
    from pytest_rubric.descriptions.ledger import Ledger
    from pytest_rubric.inputs.cursor import Cursor

#: The keys that start a table: pandas' ``to_json`` writes ``columns`` first, its
#: ``to_dict(orient="split")`` ``index``.
TABLE_STARTS = ("columns", "index")
_TABLE_KEYS = "'columns', 'data' and (pandas) 'index'"
_decode = DECODER.raw_decode


class _Text(Protocol):
    """A document's text as :mod:`~pytest_rubric.inputs.jsondocs` reads it."""

    text: str
    pos: int
    display: str
    case_file: str
    description: Ledger | Dataset | None

    def peek(self) -> str: ...
    def take(self, char: str, wanted: str) -> None: ...
    def value(self) -> JSON: ...
    def key(self) -> str: ...
    def where(self, pos: int | None = None) -> str: ...
    def refuse(self, message: str, pos: int | None = None) -> NoReturn: ...


def table_rows(
    text: _Text, first: str, cursor: Cursor, records: KeyPath | None
) -> Iterator[dict[str, JSON]]:
    """The rows of the table whose first key (``first``, its ``:`` taken) was just read,
    ``cursor.position`` set to each row's number (from 1) first."""
    columns: list[str] | None = None
    seen: set[str] = set()
    key, at = first, text.pos
    while True:
        if key in seen:
            text.refuse(f"duplicate key {escape_controls(repr(key))}; keep one of them", at)
        seen.add(key)
        if key == "columns":
            columns = _columns(text)
        elif key == "data":
            if columns is None:
                text.refuse(f"the table's 'data' comes before its 'columns'; {_WRITE_COLUMNS}")
            yield from _rows(text, columns, cursor, records)
        elif key == "index":
            for _ in _blocks(text, "the table's 'index'", ","):
                pass
        else:
            text.refuse(
                f"a table of columns and data holds {_TABLE_KEYS}, not "
                f"{escape_controls(repr(key))}",
                at,
            )
        if text.peek() != ",":
            break
        text.pos += 1
        text.peek()
        at = text.pos
        key = text.key()
    text.take("}", "',' or '}' in a mapping")
    if "data" not in seen:
        text.refuse(f"the table has no 'data'; a table of columns and data holds {_TABLE_KEYS}")


_WRITE_COLUMNS = "write the 'columns' first, as pandas and MLflow do"


def _columns(text: _Text) -> list[str]:
    """The column names, checked against what the description names."""
    at = text.pos if text.peek() else None
    names = text.value()
    if type(names) is not list or not names:
        text.refuse(f"the table's 'columns' is {describe(names)}, not a list of names", at)
    columns: list[str] = []
    for number, name in enumerate(names):
        if type(name) is int:
            name = str(name)  # pandas' default column names: 0, 1, 2...
        if type(name) is not str:
            text.refuse(
                f"the table's column {number} is {describe(name)}; a column is named by text "
                "(a MultiIndex is flattened first: df.columns = ['_'.join(c) for c in df.columns])",
                at,
            )
        if name in columns:
            text.refuse(
                f"the table names the column {escape_controls(repr(name))} twice (columns "
                f"{columns.index(name)} and {number}); give each column its own name",
                at,
            )
        columns.append(name)
    _fit(text, columns)
    return columns


def _fit(text: _Text, columns: list[str]) -> None:
    """Refuse a description that names a column the table lacks, at its key."""
    described = text.description
    if described is None:
        return
    lacking = f"{text.display}'s table"
    for key, path in described.named():
        if path is None or path.parts[0] in columns:
            continue
        if path.column in columns:  # a column named with dots, written as a key path
            holder = f"{lacking} holds"
            raise misfit(text.case_file, path.at, dotted_words(key, path, holder, described.block))
        first = replace(path, parts=path.parts[:1])
        raise header_problem(text.case_file, key, first, columns, lacking, described.block)


def _rows(
    text: _Text, columns: list[str], cursor: Cursor, records: KeyPath | None
) -> Iterator[dict[str, JSON]]:
    width = len(columns)
    number = 0
    for block in _blocks(text, "the table's 'data'", "],"):
        if set(map(type, block)) == {list} and set(map(len, block)) == {width}:
            first = number + 1
            for number, row in enumerate(map(dict, map(zip, repeat(columns), block)), first):
                cursor.position = number
                yield row
            continue
        for values in block:
            number += 1
            cursor.position = number
            if type(values) is not list or len(values) != width:
                held = (
                    f"holds {len(values)} values, but the table has {width} columns"
                    if type(values) is list
                    else f"is {describe(values)}, not a list of values"
                )
                raise RubricInputError(
                    f"{row_place(text.display, records, number)}: the table's row {held}; give "
                    f"each row one value a column ({escape_controls(', '.join(columns))})"
                )
            yield dict(zip(columns, values, strict=True))


def _blocks(text: _Text, named: str, after: str) -> Iterator[list[Any]]:
    """The items of the list that starts next, a block at a time: as many whole items
    as the text read so far holds, decoded in one call, cut where ``after`` ends an item
    (``],`` after a row that is a list); else one item (a cut that is not between items,
    or a fault the item's own decoding then names). Each text read is cut at most
    :data:`_CUTS` times, so a text that cannot be cut costs one item at a time."""
    if text.peek() != "[":
        text.refuse(f"{named} is {describe(text.value())}, not a list")
    text.pos += 1
    if text.peek() == "]":
        text.pos += 1
        return
    tried = ""  # the text last cut: each text once
    while True:
        body, pos = text.text, text.pos
        if body is not tried:
            tried = body
            items = _cut(body, pos, after)
            if items is not None:
                text.pos, block = items
                yield block
                continue
        yield [text.value()]
        if text.peek() == ",":
            text.pos += 1
            continue
        text.take("]", "',' or ']' in a list")
        return


#: The places a text is tried at, from its end, before its items are read one at a time.
_CUTS = 3


def _cut(body: str, pos: int, after: str) -> tuple[int, list[Any]] | None:
    """The whole items of ``body`` from ``pos`` up to one of its last ``after`` (and
    where the next begins), or ``None``."""
    end = len(body)
    for _ in range(_CUTS):
        cut = body.rfind(after, pos, end) + len(after) - 1
        if cut <= pos:
            return None
        try:
            items, stop = _decode(f"[{body[pos:cut]}]")
        except (ValueError, RecursionError):
            end = cut - 1
            continue
        if stop == cut - pos + 2:
            return cut + 1, items
        end = cut - 1
    return None


def row_place(display: str, records: KeyPath | None, number: int) -> str:
    """Row ``number``'s place, as a document's format names it: ``file#records[N]``."""
    return f"{display}#{'' if records is None else records.written}[{number - 1}]"


def list_row(text: _Text, records: KeyPath | None, number: int) -> RubricInputError:
    """The problem of row ``number``, a list, reached without a table: its values have
    no names, so the description cannot be right; named at ``records`` (or the ID's key)."""
    where = row_place(text.display, records, number)
    words = (
        f"{where} is a list, not a mapping, so no key path names its values; where the "
        'rows are a table of columns and data ({"columns": [...], "data": [[...], ...]}, '
        "as pandas and MLflow write it), name the mapping that holds both with 'records' "
        "(or leave 'records' out where it is the whole document)"
    )
    described = text.description
    if described is None or not text.case_file:
        return RubricInputError(words)
    if records is not None:
        named = f"{described.block} 'records' {escape_controls(repr(records.written))}"
        return misfit(text.case_file, records.at, f"{named} leads to rows that are lists: {words}")
    key, path = described.named()[0]
    assert path is not None
    named = f"{described.block} '{key}' {escape_controls(repr(path.written))}"
    return misfit(text.case_file, path.at, f"{named} cannot name a value of a list row: {words}")
