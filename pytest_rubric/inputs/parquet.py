"""Ledger rows from a ``.parquet`` export, through the optional extra
``pytest-rubric[parquet]`` (pyarrow).

The file is read in record batches holding only the mapped columns (``id``, ``a``,
``b``, or ``id``, ``grader``, ``label``), so memory stays bounded by a batch whatever
the file's size; the export's other columns are not read, so Parquet rows carry no
review fields. A row is named ``file#row N`` (N from 1). This module imports pyarrow
only when a case reads a Parquet file; it does not import pytest.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.files import regular_size
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import JS_WHITESPACE_CHARS, LabelBlock
from pytest_rubric.descriptions.dataset import Dataset
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import dotted_words, header_problem, misfit
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.formats.base import InputFile


@dataclass(frozen=True, slots=True)
class _Export:
    """The file, how messages name it, its ``ledger:`` block, and the case file's name."""

    path: Path
    display: str
    ledger: Ledger | Dataset | None
    case_file: str


#: Rows a record batch holds.
BATCH_ROWS = 1 << 18
EXTRA = "pip install 'pytest-rubric[parquet]'"


def _pyarrow(display: str) -> tuple[Any, Any, Any]:
    try:
        import pyarrow
        import pyarrow.compute
        import pyarrow.parquet
    except ImportError:
        raise RubricInputError(
            f"{display}: reading a .parquet ledger needs pyarrow, which is not installed; "
            f"install it with: {EXTRA}"
        ) from None
    return pyarrow, pyarrow.parquet, pyarrow.compute


def _columns(reader: _Export, schema: Any) -> list[str]:
    """The top-level columns to read, each key path checked against the file's schema:
    into a struct, its fields are known, so a misspelt one is a bad description (into a
    map or a list, what a row holds decides)."""
    schema_names = list(schema.names)
    ledger = reader.ledger
    if ledger is None:
        wanted = [("id", "id"), ("a", "a"), ("b", "b")]
        missing = [name for _, name in wanted if name not in schema_names]
        if missing:
            raise RubricInputError(
                f"{reader.display}: the file has no column {missing[0]!r} (it has "
                f"{', '.join(schema_names)}); name the columns id, a and b, or say which "
                "columns hold them under 'ledger:'"
            )
        return [name for _, name in wanted]
    paths = ledger.named()
    paths += [("where", path) for path, _ in ledger.selection.where]
    columns: list[str] = []
    for key, path in paths:
        assert path is not None
        top = path.parts[0]
        if len(path.parts) > 1 and top not in schema_names and path.column in schema_names:
            holder = f"{reader.display}'s schema holds"
            words = dotted_words(key, path, holder, ledger.block)
            raise misfit(reader.case_file, path.at, words)
        twice = _named_twice(schema, path.parts)
        if twice is not None:
            depth, count = twice
            inside = "" if depth == 1 else f" in the struct {'.'.join(path.parts[: depth - 1])!r}"
            raise misfit(
                reader.case_file,
                path.at,
                f"{ledger.block} '{key}' names "
                f"{escape_controls(repr(path.written))}, which is ambiguous: "
                f"{reader.display}'s schema has {count} fields named "
                f"{escape_controls(repr(path.parts[depth - 1]))}{escape_controls(inside)}, "
                "and a key path cannot tell them apart",
            )
        if top not in schema_names or not _leads_somewhere(schema.field(top).type, path.parts[1:]):
            raise header_problem(
                reader.case_file,
                key,
                path,
                _paths(schema),
                f"{reader.display}'s schema",
                ledger.block,
            )
        if top not in columns:
            columns.append(top)
    return columns


def _named_twice(schema: Any, parts: Sequence[str]) -> tuple[int, int] | None:
    """The first name the key path meets more than once among the columns or a struct's
    fields: how many parts lead to it (``1``: columns so named), and how many fields
    it names; ``None`` if none."""
    import pyarrow.types as types

    fields = schema.get_all_field_indices(parts[0])
    if len(fields) > 1:
        return 1, len(fields)
    if not fields:
        return None
    kind = schema.field(fields[0]).type
    for depth, part in enumerate(parts[1:], start=2):
        if not types.is_struct(kind):
            return None
        fields = kind.get_all_field_indices(part)
        if len(fields) != 1:
            return (depth, len(fields)) if fields else None
        kind = kind.field(fields[0]).type
    return None


def _leads_somewhere(kind: Any, parts: Sequence[str]) -> bool:
    """Whether the key path ``parts`` can lead to a value inside a column of type ``kind``:
    through a struct by its fields; into a map or a list, what a row holds decides."""
    import pyarrow.types as types

    for part in parts:
        if not types.is_struct(kind):
            return bool(
                types.is_map(kind)
                or types.is_list(kind)
                or types.is_large_list(kind)
                or types.is_fixed_size_list(kind)
            )
        index = kind.get_field_index(part)
        if index < 0:
            return False
        kind = kind.field(index).type
    return True


def _paths(schema: Any) -> list[str]:
    """Every column and struct field of ``schema``, as dotted key paths."""

    import pyarrow.types as types

    def walk(prefix: str, kind: Any) -> list[str]:
        if not types.is_struct(kind):
            return []
        found = []
        for n in range(kind.num_fields):
            field = kind.field(n)
            found.append(f"{prefix}.{field.name}")
            found.extend(walk(f"{prefix}.{field.name}", field.type))
        return found

    out = []
    for field in schema:
        out.append(field.name)
        out.extend(walk(field.name, field.type))
    return out


def _open(reader: _Export) -> tuple[Any, list[str], Any, Any]:
    pyarrow, parquet, compute = _pyarrow(reader.display)
    try:
        regular_size(reader.path)  # a FIFO put here since collection: refused, never waited on
        file = parquet.ParquetFile(reader.path)
    except (OSError, pyarrow.ArrowException) as exc:
        raise RubricInputError(
            f"{reader.display}: not a Parquet file pyarrow can read ({exc}); check the export"
        ) from None
    return file, _columns(reader, file.schema_arrow), pyarrow, compute


def parquet_rows(source: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
    """Each row of the export as a mapping of its mapped top-level columns (nested
    structs as mappings), with ``cursor.position`` set to its row number."""
    reader = _Export(source.path, source.display, source.description, case_file)
    file, columns, pyarrow, _ = _open(reader)
    number = 0
    try:
        for batch in file.iter_batches(batch_size=BATCH_ROWS, columns=columns):
            try:
                rows = batch.to_pylist()
            except UnicodeDecodeError as exc:  # Arrow does not check a text column's UTF-8
                cursor.position = number + _first_bad_text(batch) + 1  # that row's, no other's
                raise RubricInputError(
                    f"{reader.display}#row {cursor.position}: a text value is not UTF-8 "
                    f"({exc.reason}); write the export's text as UTF-8"
                ) from None
            for row in rows:
                number += 1
                cursor.position = number
                yield {key: _json(value) for key, value in row.items()}
    except (OSError, pyarrow.ArrowException) as exc:
        cursor.position = number + 1  # the row that could not be read, not the last one read
        raise RubricInputError(
            f"{reader.display}#row {number + 1}: cannot be read ({exc}); check the export"
        ) from None


def _first_bad_text(batch: Any) -> int:
    """The index of the first row of ``batch`` that does not convert (its text not UTF-8)."""
    for index in range(batch.num_rows):
        try:
            batch.slice(index, 1).to_pylist()
        except UnicodeDecodeError:
            return index
    return 0


def _json(value: object) -> JSON:
    """A Parquet value as JSON: a map as a mapping (keys as text); a type JSON has no
    word for (a timestamp, bytes, a decimal) becomes a mapping naming it and holding its
    text (a date's ISO text), which is neither text nor a boolean, and tells two dates
    apart (a ``group_by`` week)."""
    if value is None or type(value) in (str, bool, int, float):
        return value  # type: ignore[return-value]
    if type(value) is dict:
        return {str(key): _json(item) for key, item in value.items()}
    if type(value) is list:
        if value and type(value[0]) is tuple:  # a map: Arrow gives its (key, value) pairs
            return _map(value)
        return [_json(item) for item in value]
    isoformat = getattr(value, "isoformat", None)
    shown = isoformat() if callable(isoformat) else str(value)
    return {"parquet value": type(value).__name__, "text": str(shown)}


def _map(pairs: list[tuple[object, object]]) -> JSON:
    """A Parquet map as the mapping it is, so key paths reach into it; a map holding one
    key twice names it, neither of its values being the one."""
    out: dict[str, JSON] = {}
    for key, item in pairs:
        name = str(key)
        if name in out:
            return {"parquet value": f"a map holding the key {name!r} twice"}
        out[name] = _json(item)
    return out


def parquet_label_blocks(source: InputFile) -> Iterator[LabelBlock | None]:
    """The rows as :class:`LabelBlock` blocks, a record batch each, when the file is the
    plain case: columns ``id``, ``a`` and ``b`` (no ``ledger:`` block), text IDs without
    nulls in strictly increasing order, none empty or starting with whitespace, and
    boolean labels without nulls. ``None`` otherwise (the rows are then read one at a
    time). The checks run in Arrow; the IDs are turned into Python text only where the
    answer needs them (the disagreements), or when a later block is out of order."""
    if source.ledger is not None:
        yield None
        return
    try:
        file, columns, pyarrow, compute = _open(_Export(source.path, source.display, None, ""))
    except RubricInputError:
        yield None
        return
    boolean = pyarrow.bool_()
    texts = (pyarrow.string(), pyarrow.large_string())
    try:
        for batch in file.iter_batches(batch_size=BATCH_ROWS, columns=columns):
            ids, a, b = (batch.column(name) for name in columns)
            if (
                ids.type not in texts
                or a.type != boolean
                or b.type != boolean
                or ids.null_count
                or a.null_count
                or b.null_count
            ):
                yield None
                return
            rows = len(ids)
            if rows == 0:
                continue
            ids.validate(full=True)  # Arrow reads a text column without checking its UTF-8
            if (
                rows > 1
                and not compute.all(compute.less(ids.slice(0, rows - 1), ids.slice(1))).as_py()
            ):
                yield None
                return
            lazy = _ArrowTexts(ids)
            if _any_blank_start(lazy):
                yield None
                return
            both = compute.sum(compute.and_(a, b)).as_py() or 0
            a_count = compute.sum(a).as_py() or 0
            b_count = compute.sum(b).as_py() or 0
            differ = compute.not_equal(a, b)
            pairs = (both, rows - a_count - b_count + both, a_count - both, b_count - both)
            yield LabelBlock(
                lazy,
                pairs,
                compute.filter(ids, differ).to_pylist(),
                checked=True,
                increasing=True,
            )
    except (OSError, pyarrow.ArrowException):
        yield None


def _any_blank_start(ids: Sequence[str]) -> bool:
    """Whether any of ``ids`` (strictly increasing) is empty or starts with JavaScript
    whitespace: found by bisection, as the IDs starting with one character are
    consecutive in sorted order."""
    first, last = ids[0], ids[-1]
    if first == "":
        return True
    if first[0] > " " and last[0] < "\u00a0":  # past every ASCII space, before the others
        return False
    for char in JS_WHITESPACE_CHARS:
        at = bisect.bisect_left(ids, char)
        if at < len(ids) and ids[at].startswith(char):
            return True
    return False


class _ArrowTexts(Sequence[str]):
    """An Arrow array of text as a sequence of ``str``, each item read when asked for,
    and all of them at once when iterated."""

    def __init__(self, array: Any) -> None:
        self.array = array

    def __len__(self) -> int:
        return len(self.array)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            items: list[str] = self.array.to_pylist()
            return items[index]
        if index < 0:
            index += len(self.array)
        if not 0 <= index < len(self.array):
            raise IndexError(index)
        item: str = self.array[index].as_py()
        return item

    def __iter__(self) -> Iterator[str]:
        items: list[str] = self.array.to_pylist()
        return iter(items)
