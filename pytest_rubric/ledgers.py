"""Inputs kept in files beside a case file: ``input_file: PATH``.

- ``.json``: the whole input mapping;
- ``.jsonl``: ledger rows, one JSON object per line, read as a stream;
- ``.csv``: ledger rows with the header ``id,a,b``; only the cells ``true`` and
  ``false`` are booleans, every other cell (an empty one too) stays text.

The reader is chosen by the suffix written in the case file (``Case.input_format``),
so a symlink named ``week.csv`` is read as CSV whatever its target is called.
Readers raise :class:`RubricInputError` naming ``path:line`` for a file that is
not what it claims to be, and hold at most one row in memory (at most
:data:`MAX_ROW_CHARS` characters). This module does not import pytest.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
from collections.abc import Iterator
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import NoReturn, TextIO

from pytest_rubric.errors import RubricInputError
from pytest_rubric.jsonvalues import JSON
from pytest_rubric.yamlstrict import MAX_NUMBER_CHARS, decimal_int

#: The input formats, by the suffix of the name written in ``input_file:``, with what each holds.
INPUT_FORMATS: dict[str, str] = {
    ".json": "the whole input",
    ".jsonl": "ledger rows",
    ".csv": "ledger rows",
}
SUFFIXES = tuple(INPUT_FORMATS)
#: A ledger row (``.jsonl`` line, or ``.csv`` record with its quoted line breaks) longer
#: than this is refused before it is parsed: a row is an id and two labels, and parsing
#: a runaway row (100 MB of commas) would cost many times its size in memory.
MAX_ROW_CHARS = 1_000_000
CSV_HEADER = ("id", "a", "b")
_CSV_BOOLEANS = {"true": True, "false": False}


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON; write a number or a string")


def _no_duplicates(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r}; keep one of them")
            seen.add(key)
    return mapping


def _parse_int(text: str) -> int:
    # json's own int() refuses more than 4300 digits with advice to change global state.
    if len(text) > MAX_NUMBER_CHARS:
        raise ValueError(
            f"a number written with {len(text)} digits is longer than inputs take "
            f"({MAX_NUMBER_CHARS}); shorten it, or quote it if you mean the text"
        )
    return decimal_int(text)


_DECODER = json.JSONDecoder(
    object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant, parse_int=_parse_int
)
#: The same decoder without the duplicate-key hook, several times cheaper per row: its
#: answer is taken only where it cannot differ (see :func:`_decode_row`).
_PLAIN_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_int=_parse_int)
_TOO_DEEP = "nested too deeply to read; flatten this value"


def _decode_row(text: str) -> JSON:
    """``_DECODER.decode(text)``, the same value or the same error, at less cost.

    Every key-value pair of every object is written with a ``:`` and every object with
    a ``{``, outside strings (inside them, either only adds to the count). So a row
    that decodes to a mapping of N keys, written with one ``{`` and N ``:``, is the one
    object there and has exactly N pairs: no key repeats. Anything else, errors too,
    goes through the decoder that checks, which says what is wrong as it always did.
    """
    try:
        row = _PLAIN_DECODER.decode(text)
    except (ValueError, RecursionError):
        row = None
    if type(row) is dict and text.count(":") == len(row) and text.count("{") == 1:
        return row
    decoded: JSON = _DECODER.decode(text)
    return decoded


def read_json(path: Path, display: str) -> dict[str, JSON]:
    """The whole input mapping from a ``.json`` file."""
    return _decode_json(_json_text(path, display), display)


def read_json_with_row_lines(path: Path, display: str) -> tuple[dict[str, JSON], list[int]]:
    """As :func:`read_json`, with the line each item of its ``rows`` list starts on.

    For naming a row's place (``file:line``) when rows are kept for review; the
    list is empty when the input has no ``rows`` list.
    """
    text = _json_text(path, display)
    value = _decode_json(text, display)
    if not isinstance(value.get("rows"), list):
        return value, []
    # Offsets count from the text as decoded (after a BOM), so lines do too.
    return value, [text.count("\n", 0, offset) + 1 for offset in _row_offsets(text)]


_SPACE = re.compile(r"[ \t\n\r]*")


def _row_offsets(text: str) -> list[int]:
    """Where each item of the top-level ``rows`` array starts, in valid JSON ``text``.

    Walks the top-level object's members, skipping values whole with the decoder;
    only called on text that already decoded to an object.
    """

    def space(at: int) -> int:
        match = _SPACE.match(text, at)
        assert match is not None  # the pattern matches the empty string
        return match.end()

    at = space(space(0) + 1)  # past "{"
    while text[at] != "}":
        key, at = _DECODER.raw_decode(text, at)
        at = space(space(at) + 1)  # past ":"
        if key == "rows" and text[at] == "[":
            offsets = []
            at = space(at + 1)
            while text[at] != "]":
                offsets.append(at)
                _, at = _DECODER.raw_decode(text, at)
                at = space(at)
                if text[at] == ",":
                    at = space(at + 1)
            return offsets
        _, at = _DECODER.raw_decode(text, at)
        at = space(at)
        if text[at] == ",":
            at = space(at + 1)
    return []


def _json_text(path: Path, display: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise RubricInputError(f"{display}: cannot be read: {exc}") from None


def _decode_json(text: str, display: str) -> dict[str, JSON]:
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise RubricInputError(
            f"{display}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}"
        ) from None
    except ValueError as exc:
        raise RubricInputError(f"{display}: {exc}") from None
    except RecursionError:
        raise RubricInputError(f"{display}: {_TOO_DEEP}") from None
    if not isinstance(value, dict):
        raise RubricInputError(
            f"{display}: the file must hold one JSON object (the evaluator's input), "
            f"not {type(value).__name__}"
        )
    return value


class RowReader:
    """Ledger rows from a ``.jsonl`` or ``.csv`` file, one at a time.

    ``line`` is the line the most recent row came from, so a problem found in a
    row can be reported at its place. ``fmt`` is ``".jsonl"`` or ``".csv"``, as
    the case file names the file (``Case.input_format``); without it, the suffix
    of ``path`` decides.
    """

    def __init__(self, path: Path, display: str, fmt: str | None = None) -> None:
        self.path = path
        self.display = display
        self.fmt = fmt or path.suffix
        self.line = 0

    def where(self, index: int) -> str:
        return f"{self.display}:{self.line} rows[{index}]"

    def __iter__(self) -> Iterator[JSON]:
        try:
            with self.path.open(encoding="utf-8-sig", newline="") as stream:
                if self.fmt == ".csv":
                    yield from self._csv(stream)
                else:
                    yield from self._jsonl(stream)
        except UnicodeDecodeError as exc:
            # The text reader decodes ahead in chunks, so its line count is not where the
            # bad byte is; find that line once, now that the file is known to be bad.
            line = _first_bad_utf8_line(self.path)
            raise RubricInputError(
                f"{self.display}:{line}: not UTF-8 ({exc.reason}); save the file as UTF-8"
            ) from None
        except OSError as exc:
            raise RubricInputError(f"{self.display}: cannot be read: {exc}") from None

    def _jsonl(self, stream: TextIO) -> Iterator[JSON]:
        decode = _decode_row
        # Each line read with a cap, so a runaway line is never held whole; a row is a line.
        lines = iter(partial(stream.readline, MAX_ROW_CHARS + 1), "")
        for number, text in enumerate(lines, start=1):
            self.line = number
            if len(text) > MAX_ROW_CHARS:
                raise RubricInputError(_too_long(self.display, number))
            try:
                row = decode(text)
            except json.JSONDecodeError as exc:
                if not text.strip():
                    raise RubricInputError(
                        f"{self.display}:{self.line}: a blank line; every line of a .jsonl "
                        "ledger is one JSON object: remove it"
                    ) from None
                raise RubricInputError(
                    f"{self.display}:{self.line}:{exc.colno}: invalid JSON: {exc.msg}; "
                    "every line of a .jsonl ledger is one JSON object"
                ) from None
            except ValueError as exc:
                raise RubricInputError(f"{self.display}:{self.line}: {exc}") from None
            except RecursionError:
                raise RubricInputError(f"{self.display}:{self.line}: {_TOO_DEEP}") from None
            yield row

    def _csv(self, stream: TextIO) -> Iterator[JSON]:
        ended = [0]  # rows read so far, so that the lines know where each row starts
        reader = csv.reader(_capped_lines(stream, self.display, ended), strict=True)
        booleans = _CSV_BOOLEANS.get
        try:
            header = next(reader, None)
            if header is None or sorted(header) != sorted(CSV_HEADER):
                raise RubricInputError(
                    f"{self.display}:1: the header must name the columns id, a and b "
                    f"(found {','.join(header or [])!r}); write 'id,a,b' on the first line"
                )
            in_order = tuple(header) == CSV_HEADER
            columns = itemgetter(*(header.index(name) for name in CSV_HEADER))
            ended[0] = 1
            for cells in reader:
                self.line = reader.line_num
                ended[0] += 1
                if len(cells) != 3:
                    raise RubricInputError(
                        f"{self.display}:{self.line}: {len(cells)} cells where the header has 3 "
                        "(id,a,b); quote a cell that holds a comma"
                    )
                case_id, a, b = cells if in_order else columns(cells)
                yield {"id": case_id, "a": booleans(a, a), "b": booleans(b, b)}
        except csv.Error as exc:
            raise RubricInputError(
                f"{self.display}:{reader.line_num}: invalid CSV: {exc}"
            ) from None


def _capped_lines(stream: TextIO, display: str, ended: list[int]) -> Iterator[str]:
    """The lines of a CSV ledger, each read with a cap, refusing a row past :data:`MAX_ROW_CHARS`.

    ``csv.reader`` pulls lines from here until a record is complete (a quoted cell
    may hold line breaks); ``ended[0]`` counts the rows it has handed out, so a line
    read after it changed starts a row. Reading with ``readline(cap)`` means a
    runaway line is never held whole; ``csv.field_size_limit`` would bound cells,
    not rows, and is global state besides.
    """
    readline = stream.readline
    cap = MAX_ROW_CHARS + 1
    number = chars = 0
    row = -1  # the value of ended[0] while the current row is read
    row_line = 1  # the line the current row starts on
    while line := readline(cap):
        number += 1
        if ended[0] != row:
            row, chars, row_line = ended[0], 0, number
        chars += len(line)
        if chars > MAX_ROW_CHARS:
            raise RubricInputError(_too_long(display, row_line))
        yield line


def _too_long(display: str, line: int) -> str:
    return (
        f"{display}:{line}: this row is longer than {MAX_ROW_CHARS} characters, which no "
        "ledger row needs (an id and two labels); look for a missing closing quote or a "
        "runaway line and fix it"
    )


def _first_bad_utf8_line(path: Path) -> int | str:
    """The 1-based line holding the first byte that is not UTF-8 (``?`` if unreadable)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        with path.open("rb") as stream:
            for number, line in enumerate(stream, start=1):
                try:
                    decoder.decode(line)
                except UnicodeDecodeError:
                    return number
            decoder.decode(b"", final=True)
    except (OSError, UnicodeDecodeError):
        pass
    return "?"
