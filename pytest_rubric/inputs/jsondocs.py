"""Ledger rows from one JSON document (``.json``, also gzip'd): the items of a list in it,
or the rows of a table kept as columns and data (:mod:`~pytest_rubric.inputs.jsontables`).

With a ``ledger:`` block, a ``.json`` input whose top level is an array reads its items
as the rows; ``records: PATH`` names the list of rows inside a document (an inspect_ai
log's ``samples``, promptfoo's ``results.results``). The document is read as a stream:
a block of text at a time, each row decoded when it is reached and let go after, so
memory follows the longest row, never the document. Every other value is decoded too,
as strictly as any input (no duplicate key, no NaN, no endless number), and dropped: a
document is read whole, and a fault anywhere in it is the input's problem.

A row is named by its place in the list, ``file#records[N]`` (N from 0), the cursor's
position being N + 1: once a row is handed over, the next one's, so a fault found after a
row is never that row's; 0 once the list is closed, so a fault in the rest of the document
is the document's own, never its last row's. This module does not import pytest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, NoReturn, TextIO

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsondecode import DECODER, TOO_DEEP
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import nearest
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.keypaths import KeyPath, index_of
from pytest_rubric.descriptions.misfits import misfit
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.jsontables import TABLE_STARTS, list_row, table_rows

if TYPE_CHECKING:
    from pytest_rubric.descriptions.dataset import Dataset
    from pytest_rubric.descriptions.ledger import Ledger

#: The document is read this many characters at a time (more while a row is longer).
CHUNK = 1 << 20
_SPACE = re.compile(r"[ \t\n\r]*")
#: The most characters a token can hold that a cut may leave unfinished before the fault
#: the decoder names (``\uXXXX`` is six).
_LONGEST_ESCAPE = 6
#: What may follow a number's text when more of the number is yet to be read.
_NUMBER_TAIL = re.compile(r"[0-9.eE+\-]*\Z")
_decode = DECODER.raw_decode


class _Text:
    """The document's text, read a chunk at a time: ``text[pos:]`` is what is not read
    yet; what was read before ``pos`` is dropped as more is read."""

    __slots__ = (
        "case_file",
        "description",
        "display",
        "dropped_column",
        "dropped_lines",
        "end",
        "pos",
        "stream",
        "text",
    )

    def __init__(
        self, stream: TextIO, display: str, case_file: str, description: Ledger | Dataset | None
    ) -> None:
        self.stream = stream
        self.display = display
        self.case_file = case_file
        self.description = description
        self.text = ""
        self.pos = 0
        self.end = False
        self.dropped_lines = 0  # line breaks in the text dropped so far
        self.dropped_column = 0  # characters dropped since the last line break dropped

    def more(self, at_least: int = 0) -> bool:
        """Read on (at least ``at_least`` characters, if there are); ``False`` at the end."""
        if self.end:
            return False
        chunk = self.stream.read(max(at_least, CHUNK))
        if not chunk:
            self.end = True
            return False
        dropped = self.text.count("\n", 0, self.pos)
        if dropped:
            self.dropped_lines += dropped
            self.dropped_column = self.pos - (self.text.rfind("\n", 0, self.pos) + 1)
        else:
            self.dropped_column += self.pos
        self.text = self.text[self.pos :] + chunk
        self.pos = 0
        return True

    def peek(self) -> str:
        """The next character that is not whitespace (``""`` at the end), not taken."""
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.more():
                return ""

    def take(self, char: str, wanted: str) -> None:
        """Take ``char``, which must come next; else the document is refused."""
        if self.peek() != char:
            self.refuse(f"expecting {wanted}")
        self.pos += 1

    def value(self) -> JSON:
        """The next value, decoded whole (reading on while it may be cut off)."""
        self.peek()
        while True:
            try:
                value, end = _decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                # Cut off by the end of the text read so far (the fault is at its end, or a
                # string runs to it), or wrong where it says: only a cut reads on.
                cut = exc.pos >= len(self.text) - _LONGEST_ESCAPE or exc.msg.startswith(
                    "Unterminated string"
                )
                if cut and self.more(len(self.text) - self.pos):
                    continue
                self.refuse(f"invalid JSON: {exc.msg}", exc.pos)
            except ValueError as exc:  # the decoder's own: a duplicate key, NaN...
                self.refuse(f"in the value that starts here: {exc}")
            except RecursionError:
                self.refuse(TOO_DEEP)
            # A number that ends where the text read so far ends, or where only what may
            # go on with it follows ("0." of "0.5", "1e" of "1e3"), may go on.
            if (
                type(value) in (int, float)
                and _NUMBER_TAIL.match(self.text, end) is not None
                and self.more()
            ):
                continue
            self.pos = end
            return value  # type: ignore[no-any-return]

    def key(self) -> str:
        """The next key of a mapping, and its ``:``."""
        if self.peek() != '"':
            self.refuse("expecting a key in double quotes")
        key = self.value()
        self.take(":", "':' after a key")
        return key  # type: ignore[return-value]

    def where(self, pos: int | None = None) -> str:
        at = self.pos if pos is None else pos
        breaks = self.text.count("\n", 0, at)
        line = self.dropped_lines + breaks + 1
        start = self.text.rfind("\n", 0, at) + 1
        column = at - start + 1 + (0 if breaks else self.dropped_column)
        return f"{self.display}:{line}:{column}"

    def refuse(self, message: str, pos: int | None = None) -> NoReturn:
        raise RubricInputError(f"{self.where(pos)}: {message}")


def document_rows(
    stream: TextIO,
    display: str,
    cursor: Cursor,
    records: KeyPath | None,
    case_file: str = "",
    description: Ledger | Dataset | None = None,
) -> Iterator[JSON]:
    """The items of the list at ``records`` (the top level without it) in the document
    ``stream`` holds, or the rows of the table there (:mod:`.jsontables`),
    ``cursor.position`` set to each row's number (from 1) first; ``case_file`` names the
    case file where ``records`` (or ``description``, the block read by) does not fit the
    document."""
    text = _Text(stream, display, case_file, description)
    parts = () if records is None else records.parts
    if text.peek() == "":
        raise RubricInputError(
            f"{display}: the file holds no JSON document (it is empty, or only whitespace); a "
            ".json ledger is one JSON document"
        )
    yield from _walk(text, parts, (), cursor, records)
    if text.peek() != "":
        text.refuse("more after the document; a .json file holds one JSON document")


def _walk(
    text: _Text,
    parts: tuple[str, ...],
    passed: tuple[str, ...],
    cursor: Cursor,
    records: KeyPath | None,
) -> Iterator[JSON]:
    """The rows under ``parts`` from the value that starts next (``passed``: the parts
    read on the way to it)."""
    opening = text.peek()
    if not parts:
        if opening == "{":
            yield from _table(text, records, cursor)
            return
        if opening != "[":
            place = text.where()
            _not_a_list(text, records, _kind_next(text), place, [])
        yield from _items(text, cursor, records)
        return
    part, rest = parts[0], parts[1:]
    if opening == "{":
        text.pos += 1
        seen: dict[str, None] = {}  # the keys, in order
        found = False
        if text.peek() == "}":
            text.pos += 1
        else:
            while True:
                text.peek()
                at = text.pos
                key = text.key()
                if key in seen:
                    text.refuse(f"duplicate key {key!r}; keep one of them", at)
                seen[key] = None
                if key == part:
                    found = True
                    yield from _walk(text, rest, (*passed, part), cursor, records)
                else:
                    text.value()
                if text.peek() == ",":
                    text.pos += 1
                    continue
                text.take("}", "',' or '}' in a mapping")
                break
        if not found:
            _leads_nowhere(text, records, passed, part, list(seen), "an empty mapping")
        return
    index = index_of(part)
    if opening == "[" and index is not None:
        text.pos += 1
        count = 0
        if text.peek() == "]":
            text.pos += 1
        else:
            while True:
                if count == index:
                    yield from _walk(text, rest, (*passed, part), cursor, records)
                else:
                    text.value()
                count += 1
                if text.peek() == ",":
                    text.pos += 1
                    continue
                text.take("]", "',' or ']' in a list")
                break
        if count <= index:
            _leads_nowhere(text, records, passed, part, [])
        return
    _leads_nowhere(text, records, passed, part, [], _kind_next(text))


def _table(text: _Text, records: KeyPath | None, cursor: Cursor) -> Iterator[JSON]:
    """The rows of the table of columns and data that starts next; a mapping that starts
    otherwise is not a list of rows (a function, not a generator: one step less a row)."""
    place = text.where()
    text.pos += 1
    first = "" if text.peek() == "}" else text.key()
    if first in TABLE_STARTS:
        return table_rows(text, first, cursor, records)
    keys: list[str] = []
    if first and records is None:  # the keys that hold lists, for the hint
        keys = [escape_controls(first)] if text.peek() == "[" else []
        _skip(text)
        if text.peek() == ",":
            keys += _keys_holding_lists(text)
    _not_a_list(text, records, "a mapping", place, keys)


def _items(text: _Text, cursor: Cursor, records: KeyPath | None) -> Iterator[JSON]:
    text.pos += 1  # the list's '['
    if text.peek() == "]":
        text.pos += 1
        return
    number = 0
    while True:
        number += 1
        cursor.position = number
        row = text.value()
        if type(row) is list:
            raise list_row(text, records, number)
        yield row
        cursor.position = number + 1  # the row handed over passed: what follows is not it
        if text.peek() == ",":
            text.pos += 1
            continue
        text.take("]", "',' or ']' between rows")
        cursor.position = 0  # past the rows
        return


def _named(passed: tuple[str, ...]) -> str:
    return "the top level" if not passed else escape_controls(repr(".".join(passed)))


def _not_a_list(
    text: _Text, records: KeyPath | None, held: str, place: str, keys: list[str]
) -> NoReturn:
    """The value at ``place`` (``held``: what it is; ``keys``: those of a mapping that hold
    lists) is not a list of rows, nor a table."""
    table = " nor a table of columns and data (which starts with 'columns')"
    wanted = f"a list of rows{table if held == 'a mapping' else ''}"
    if records is None:
        hint = (
            f"name the list of rows with 'records:' (lists here: {', '.join(keys[:10])})"
            if keys
            else "give the rows as a list, or name the list of rows with 'records:'"
        )
        raise RubricInputError(f"{place}: the top level is {held}, not {wanted}; {hint}")
    raise _described(
        text,
        records,
        f"leads to {held} at {place}, not {wanted}; name the list that holds one row per case",
    )


def _kind_next(text: _Text) -> str:
    """What the next value is, in words short enough for any document, read no further
    than its first character where it is a mapping or a list."""
    opening = text.peek()
    if opening == "{":
        return "a mapping"
    if opening == "[":
        return "a list"
    return describe(text.value())


def _keys_holding_lists(text: _Text) -> list[str]:
    """The keys of the mapping that starts next whose values are lists, each value
    skipped a scalar at a time (a forgotten ``records:`` must not read a log whole)."""
    keys: list[str] = []
    text.pos += 1
    if text.peek() == "}":
        return keys
    while True:
        key = text.key()
        if text.peek() == "[":
            keys.append(escape_controls(key))
        _skip(text)
        if text.peek() != ",":
            return keys
        text.pos += 1


def _skip(text: _Text) -> None:
    """Read past the next value, holding no more of it than one scalar at a time."""
    opening = text.peek()
    if opening not in "{[" or not opening:
        text.value()
        return
    closing = "}" if opening == "{" else "]"
    text.pos += 1
    if text.peek() == closing:
        text.pos += 1
        return
    while True:
        if opening == "{":
            text.key()
        _skip(text)
        if text.peek() == ",":
            text.pos += 1
            continue
        text.take(closing, f"',' or '{closing}'")
        return


def _leads_nowhere(
    text: _Text,
    records: KeyPath | None,
    passed: tuple[str, ...],
    part: str,
    keys: list[str],
    held: str | None = None,
) -> NoReturn:
    place = _named(passed)
    if keys:
        close = nearest(part, keys)
        shown = ", ".join(escape_controls(repr(key)) for key in keys[:20])
        hint = f"did you mean {escape_controls(repr(close))}?" if close else "name one of them"
        why = f"{place} has no key {escape_controls(repr(part))} (it has {shown}); {hint}"
    elif held is not None:
        why = f"{place} holds {held}, which has no {escape_controls(repr(part))}"
    else:
        why = f"{place} is a list of fewer than {int(part) + 1} items"
    raise _described(text, records, f"leads nowhere in {text.display}: {why}")


def _described(text: _Text, records: KeyPath | None, message: str) -> RubricInputError:
    """A ``records`` path the document does not fit, named where the case file writes it."""
    if records is None or not text.case_file:
        return RubricInputError(f"{text.display}: 'records' {message}")
    written = escape_controls(repr(records.written))
    return misfit(text.case_file, records.at, f"'records' {written} {message}")
