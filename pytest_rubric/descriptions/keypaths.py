"""Key paths: how a ``ledger:`` (or ``dataset:``) block names a value in an export's rows.

A key path is written ``task_id``, ``labels.judge`` (into nested JSON), or as a list
``[labels, judge.v2]`` for keys that hold a dot. A part that is a whole number
(``0``, ``12``, never ``01``) indexes a list where the value there is a list
(``result.0.value.choices.0``); on a mapping it is a key, as any other part. A CSV
column is one name, dots and all; of the columns a header names alike, the second is
``NAME#2`` (:func:`repeated_name`).

:func:`getter` reads a path from a row, :data:`ABSENT` where it leads nowhere. This
module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.positions import Position, Written
from pytest_rubric.descriptions.traits import FileTraits

#: What a key path finds where it leads nowhere (a key missing, an index past the end,
#: a value on the way that is neither a mapping nor a list it can index).
ABSENT: Final = object()


@dataclass(frozen=True, slots=True)
class KeyPath:
    """A column of a CSV ledger, or a key path into a JSON row: its parts, where it is
    written in the case file, and how it was written (for messages)."""

    parts: tuple[str, ...]
    at: Position
    written: str

    @property
    def column(self) -> str:
        """The name of a CSV or Parquet column: the parts joined by dots."""
        return ".".join(self.parts)


def repeated_name(name: str, nth: int) -> str:
    """How a description names the ``nth`` (from 1, left to right) of the columns a
    header names ``name``: ``Status#2``, the second ``Status``."""
    return f"{name}#{nth}"


def index_of(part: str) -> int | None:
    """The list index ``part`` names (``0``, ``12``), or ``None`` (``01``, ``-1``, ``x``)."""
    if part.isascii() and part.isdigit() and (part == "0" or part[0] != "0"):
        return int(part)
    return None


def getter(path: KeyPath) -> Callable[[object], object]:
    """The value at ``path`` in a row, or :data:`ABSENT` where it leads nowhere."""
    parts = path.parts
    steps = tuple((part, index_of(part)) for part in parts)
    if len(steps) == 1 and steps[0][1] is None:
        key = parts[0]

        def one(row: object) -> object:
            return row.get(key, ABSENT) if type(row) is dict else ABSENT

        return one

    if all(index is None for _, index in steps) and len(steps) <= 3:
        return _keys_getter(parts)

    def walk(row: object) -> object:
        return walk_steps(row, steps)

    return walk


def _keys_getter(parts: tuple[str, ...]) -> Callable[[object], object]:
    """A getter for a path of two or three keys (no list index): the usual nested path,
    read without a loop."""
    first, second = parts[0], parts[1]
    if len(parts) == 2:

        def two(row: object) -> object:
            inner = row.get(first, ABSENT) if type(row) is dict else ABSENT
            return inner.get(second, ABSENT) if type(inner) is dict else ABSENT

        return two
    third = parts[2]

    def three(row: object) -> object:
        inner = row.get(first, ABSENT) if type(row) is dict else ABSENT
        inner = inner.get(second, ABSENT) if type(inner) is dict else ABSENT
        return inner.get(third, ABSENT) if type(inner) is dict else ABSENT

    return three


def walk_steps(value: object, steps: Sequence[tuple[str, int | None]]) -> object:
    """The value ``steps`` (each a part and the index it names, if any) lead to from
    ``value``, or :data:`ABSENT`."""
    for part, index in steps:
        kind = type(value)
        if kind is dict:
            value = value.get(part, ABSENT)  # type: ignore[attr-defined]
            if value is ABSENT:
                return ABSENT
        elif kind is list and index is not None:
            if index >= len(value):  # type: ignore[arg-type]
                return ABSENT
            value = value[index]  # type: ignore[index]
        else:
            return ABSENT
    return value


def read_key_path(
    value: JSON,
    key: str,
    at: Position,
    written: Written,
    traits: FileTraits,
    named: str | None = None,
) -> KeyPath | None:
    """The key path ``value`` (written under ``key`` at ``at``) names, or ``None`` after
    refusing it; in a file of flat columns (``traits.flat``: CSV, a sheet) a column is one name
    whatever it holds.
    ``named`` is how messages name the key (``ledger 'id'`` unless given)."""
    refuse = written.refuse
    named = named or f"ledger '{key}'"
    example = f"'{key}: task_id', '{key}: labels.judge' or '{key}: [labels, judge.v2]'"
    if isinstance(value, str):
        if not value:
            refuse(at, f"{named} is empty; name a column or key, e.g. {example}")
            return None
        if traits.flat:  # a CSV's or a sheet's column is one name, dots and all
            return KeyPath((value,), at, value)
        parts = tuple(value.split("."))
        if not all(parts):
            refuse(
                at,
                f"{named} {escape_controls(repr(value))} has an empty part between its dots; "
                "write the key path as its keys joined by single dots, or as a list "
                f"('{key}: [outer, key.with.dots]') for keys that hold a dot",
            )
            return None
        return KeyPath(parts, at, value)
    if isinstance(value, list):
        if not value:
            refuse(at, f"{named} is an empty list; name a column or key, e.g. {example}")
            return None
        nth = value[-1] if len(value) == 2 else None
        if traits.text_cells and isinstance(value[0], str) and type(nth) is int and nth > 0:
            spelt = escape_controls(repeated_name(value[0], nth))
            refuse(
                at,
                f"{named} is a key path of 2 keys, but a {traits.written} file has flat "
                f"columns; for the {_ordinal(nth)} column its header names "
                f"{escape_controls(repr(value[0]))}, write '{key}: {spelt}'",
            )
            return None
        for index, part in enumerate(value):
            if not isinstance(part, str) or not part:
                quoted = (
                    f"; write it quoted ('{part}')"
                    if type(part) is int
                    else "; each part of a key path is a key's text, not empty"
                )
                refuse(
                    written.item(value, index, at),
                    f"{named} part {index + 1} is {describe(part)}{quoted}",
                )
                return None
        parts = tuple(str(part) for part in value)
        if traits.flat and len(parts) > 1:
            refuse(
                at,
                f"{named} is a key path of {len(parts)} keys, but a {traits.written} file has "
                "flat columns; name the column as its header writes it",
            )
            return None
        return KeyPath(parts, at, "[" + ", ".join(parts) + "]")
    refuse(at, f"{named} must name a column or key, not {describe(value)}; write {example}")
    return None


def _ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    last = 0 if 10 <= number % 100 <= 20 else number % 10
    ending = {1: "st", 2: "nd", 3: "rd"}.get(last, "th")
    return f"{number}{ending}"
