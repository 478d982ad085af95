"""Inputs kept in files beside a case file: ``input_file: PATH``.

- ``.json``: the whole input mapping;
- ``.jsonl``: ledger rows, one JSON object per line, read as a stream;
- ``.csv``: ledger rows under a header naming ``id``, ``a`` and ``b`` (other columns are
  review fields); only the cells ``true`` and ``false`` are booleans, every other cell
  (an empty one too) stays text;
- each of them gzip'd (``.json.gz``, ``.jsonl.gz``, ``.csv.gz``), and ``.parquet``
  (:mod:`~pytest_rubric.inputs.parquet`, through pyarrow);
- with a case's ``ledger:`` block, an export read as the block describes
  (:mod:`~pytest_rubric.inputs.ledgermaps`), its rows ledger rows all the same.

The reader is chosen by the suffix written in the case file (``Case.input_format``),
so a symlink named ``week.csv`` is read as CSV whatever its target is called.
Readers raise :class:`RubricInputError` naming ``path:line`` for a file that is
not what it claims to be, and hold at most one row in memory (at most
:data:`MAX_ROW_CHARS` characters). This module does not import pytest.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import json
import re
import zlib
from collections.abc import Callable, Iterator
from functools import partial
from itertools import chain
from operator import itemgetter
from pathlib import Path
from typing import NoReturn, TextIO, cast

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.jsonvalues import JSON, escape_controls
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.core.numbers import MAX_NUMBER_CHARS, decimal_int
from pytest_rubric.inputs.blocks import (
    JudgementPairs,
    JudgementTally,
    jsonl_block,
    plain_words,
    word_block,
)
from pytest_rubric.inputs.formats import INPUT_FORMATS
from pytest_rubric.inputs.ledgermaps import ReadNotes, mapped_rows, paired_judgements
from pytest_rubric.inputs.ledgerspec import Ledger, header_problem

SUFFIXES = tuple(INPUT_FORMATS)
#: A ledger row (``.jsonl`` line, or ``.csv`` record with its quoted line breaks) longer
#: than this is refused before it is parsed: a row is an id and two labels, and parsing
#: a runaway row (a missing quote, a file of commas) would cost many times its size in memory.
MAX_ROW_CHARS = 1_000_000
CSV_HEADER = ("id", "a", "b")
_CSV_BOOLEANS = {"true": True, "false": False}
#: A ledger file is read this many characters at a time.
_BLOCK = 1 << 16
#: A line as a text stream opened with ``newline=""`` reads it: ended by CRLF, CR or LF.
_CSV_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")
#: What :meth:`RowReader.label_blocks` reads of a CSV ledger without a ``ledger:`` block:
#: this header, then rows of ``ID,L1,L2`` (see :func:`~.blocks.word_block`).
_CSV_SIMPLE_HEADER = "id,a,b"


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
#: The same decoder without the duplicate-key hook (a Python call per object): its
#: answer is taken only where it cannot differ (see :func:`_decode_row`).
_PLAIN_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_int=_parse_int)
_SCAN = _PLAIN_DECODER.scan_once  # type: ignore[attr-defined]  # C scanner, untyped
#: What JSON takes as whitespace around a value (not all that str.isspace() takes).
_JSON_SPACE = " \t\n\r"
_TOO_DEEP = "nested too deeply to read; flatten this value"


def _decode_row(text: str) -> JSON:
    """``_DECODER.decode(text)``, the same value or the same error, at less cost.

    Every key-value pair of every object is written with a ``:`` and every object with
    a ``{``, outside strings (inside them, either only adds to the count). So a row
    that decodes to a mapping of N keys, written with one ``{`` and N ``:``, is the one
    object there and has exactly N pairs: no key repeats. Anything else, errors too,
    goes through the decoder that checks, which says what is wrong as it always did.
    """
    row = None
    if text[:1] == "{":  # the usual row: scanned at once, without decode()'s own layers
        try:
            row, end = _SCAN(text, 0)
        except (StopIteration, ValueError, RecursionError):
            row = None
        else:
            if end != len(text) and text[end:] != "\n" and text[end:].strip(_JSON_SPACE):
                row = None  # more after the object: the decoder says what
    if type(row) is dict and text.count(":") == len(row) and text.count("{") == 1:
        return row
    decoded: JSON = _DECODER.decode(text)
    return decoded


def read_json(path: Path, display: str, *, gzipped: bool = False) -> dict[str, JSON]:
    """The whole input mapping from a ``.json`` (or gzip'd ``.json.gz``) file."""
    return _decode_json(_json_text(path, display, gzipped), display)


def read_json_with_row_lines(
    path: Path, display: str, *, gzipped: bool = False
) -> tuple[dict[str, JSON], list[int]]:
    """As :func:`read_json`, with the line each item of its ``rows`` list starts on.

    For naming a row's place (``file:line``) when rows are kept for review; the
    list is empty when the input has no ``rows`` list.
    """
    text = _json_text(path, display, gzipped)
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


def _json_text(path: Path, display: str, gzipped: bool = False) -> str:
    try:
        if gzipped:
            if path.stat().st_size == 0:  # gzip reads an empty file as empty text
                raise gzip.BadGzipFile("the file is empty")
            with gzip.open(path, "rt", encoding="utf-8-sig") as stream:
                return stream.read()
        return path.read_text(encoding="utf-8-sig")
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise RubricInputError(
            f"{display}: not a whole gzip file ({exc}); write it with gzip, or name it "
            "without '.gz'"
        ) from None
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
    """Ledger rows from a ``.jsonl``, ``.csv`` (each also gzip'd) or ``.parquet`` file,
    one at a time.

    ``line`` is the line the most recent row came from (for Parquet, its row number),
    so a problem found in a row can be reported at its place. ``fmt`` is the format as
    the case file names the file (``Case.input_format``); without it, the name of
    ``path`` decides. With a ``ledger`` (the case's ``ledger:`` block) the export is read
    as it describes, and rows come out as ledger rows all the same (see
    :mod:`~pytest_rubric.inputs.ledgermaps`); ``case_file`` names the case file in
    the messages about the block, and :attr:`notes` holds what reading found.
    """

    def __init__(
        self,
        path: Path,
        display: str,
        fmt: str | None = None,
        ledger: Ledger | None = None,
        case_file: str = "",
    ) -> None:
        self.path = path
        self.display = display
        self.fmt = fmt or next(
            (suffix for suffix in INPUT_FORMATS if path.name.endswith(suffix)), path.suffix
        )
        self.base = self.fmt.removesuffix(".gz")
        self.ledger = ledger
        self.case_file = case_file
        self.notes = None if ledger is None else ReadNotes(ledger)
        #: Where the reading is: the line (Parquet: the row) last read.
        self.position = 0
        #: The line of the row last yielded, where it is not the position (a case paired
        #: from its judgements is named by its first).
        self._row_line: int | None = None
        self._read = False
        self._judgements: JudgementPairs | JudgementTally | None = None
        #: The IDs one grader alone judged, when the file's blocks found them: their rows
        #: need not wait for a second judgement when the rows are read one at a time.
        self.lone: frozenset[str] = frozenset()

    def _open(self) -> TextIO:
        if self.fmt.endswith(".gz"):
            if self.path.stat().st_size == 0:  # gzip reads an empty file as empty text
                raise gzip.BadGzipFile("the file is empty")
            return gzip.open(self.path, "rt", encoding="utf-8-sig", newline="")
        return self.path.open(encoding="utf-8-sig", newline="")

    @property
    def line(self) -> int:
        """The line (Parquet: the row number) of the row last yielded."""
        return self.position if self._row_line is None else self._row_line

    def place(self, line: int | str) -> str:
        """Where row ``line`` is, after the file's name: ``:LINE``, or ``#row N``."""
        return f"#row {line}" if self.base == ".parquet" else f":{line}"

    def where(self, index: int) -> str:
        return f"{self.display}{self.place(self.line)} rows[{index}]"

    def _here(self) -> str:
        """The row just read, by its place in the file (for what reading found)."""
        return f"{self.display}{self.place(self.position)}"

    def __iter__(self) -> Iterator[JSON]:
        ledger, notes = self.ledger, self.notes
        if ledger is not None and self._read:  # read again (to find a repeat's first place)
            notes = ReadNotes(ledger)  # the first reading's notes stand
        self._read = True
        self._row_line = None
        if ledger is None or notes is None:
            yield from self._raw()
            return
        if ledger.per_judgement:
            yield from cast(
                Iterator[JSON],
                paired_judgements(
                    self._raw(), ledger, notes, self._here, self._line, self._at_line, self.lone
                ),
            )
        else:
            yield from cast(Iterator[JSON], mapped_rows(self._raw(), ledger, notes, self._here))
        notes.whole = True

    def _line(self) -> int:
        return self.position

    def _at_line(self, line: int) -> None:
        self._row_line = line

    def _raw(self) -> Iterator[JSON]:
        if self.base == ".parquet":
            from pytest_rubric.inputs.parquet import parquet_rows  # pyarrow, when asked

            yield from parquet_rows(self)
            return
        try:
            with self._open() as stream:
                yield from (self._csv if self.base == ".csv" else self._jsonl)(stream)
        except UnicodeDecodeError as exc:
            # The text reader decodes ahead in chunks, so its line count is not where the
            # bad byte is; find that line once, now that the file is known to be bad.
            line = _first_bad_utf8_line(self.path, gzipped=self.fmt.endswith(".gz"))
            raise RubricInputError(
                f"{self.display}:{line}: not UTF-8 ({exc.reason}); save the file as UTF-8"
            ) from None
        except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
            raise RubricInputError(
                f"{self.display}: not a whole gzip file ({exc}); write it with gzip, or "
                "name it without '.gz'"
            ) from None
        except OSError as exc:
            raise RubricInputError(f"{self.display}: cannot be read: {exc}") from None

    def label_blocks(self) -> Iterator[LabelBlock | None]:
        """The rows again, a block at a time, as :class:`LabelBlock`: for a tally that does
        its work in C. Only plain rows are read so (see :mod:`~pytest_rubric.inputs.blocks`,
        and :mod:`~pytest_rubric.inputs.parquet` for Parquet): ``None``, and nothing
        after it, where a block holds
        anything else (a quote, an escape, another key order or spacing, CR line ends, a
        label that is not a literal boolean, a line this reader would refuse); then read
        the rows one at a time, which says exactly what is wrong and where."""
        if self.base == ".parquet" and self.ledger is None:
            from pytest_rubric.inputs.parquet import parquet_label_blocks

            yield from parquet_label_blocks(self)
            return
        if self.base == ".parquet" or (self.ledger is not None and self.base != ".csv"):
            yield None
            return
        if self.ledger is None or not self.ledger.per_judgement:
            yield from self._blocks(None)
            return
        # One row per judgement: each case's two on adjacent lines (an export sorted by
        # case), else in any order; which, the first block tells.
        blocks = self._blocks(JudgementPairs)
        first = next(blocks, None)
        if first is None:
            yield from self._blocks(JudgementTally)
            return
        yield first
        yield from blocks

    def _blocks(
        self, judgements: type[JudgementPairs] | type[JudgementTally] | None
    ) -> Iterator[LabelBlock | None]:
        """The file's label blocks, one row per judgement read by ``judgements``."""
        try:
            with self._open() as stream:
                blocks = _whole_lines(stream)
                if self.base == ".csv":
                    header = next(blocks, None)
                    end = -1 if header is None else header.find("\n")
                    read = (
                        None
                        if header is None or end < 0
                        else self._csv_block_reader(header[:end], judgements)
                    )
                    if header is None or read is None:
                        yield None  # none, another header, a runaway line: one row at a time
                        return
                    blocks = chain((header[end + 1 :],), blocks)
                else:
                    read = jsonl_block
                for body in blocks:
                    block = None if body is None else read(body)
                    yield block
                    if block is None:
                        return
                reading = self._judgements
                if reading is not None:
                    last = reading.last_block()  # None while a case waits: judged once
                    if last is None:
                        if isinstance(reading, JudgementTally):
                            self.lone = reading.lone()
                    elif self.notes is not None:  # the blocks answer: their notes stand
                        self.notes.ignored.update(reading.ignored)
                        self.notes.whole = True
                    yield last
        except (UnicodeDecodeError, OSError, EOFError, zlib.error):
            yield None  # gzip.BadGzipFile is an OSError

    def _csv_block_reader(
        self, header: str, judgements: type[JudgementPairs] | type[JudgementTally] | None
    ) -> Callable[[str], LabelBlock | None] | None:
        """How to read a CSV ledger's blocks under ``header`` (its first line), when it is
        a layout :mod:`~pytest_rubric.inputs.blocks` reads; else ``None``."""
        ledger = self.ledger
        self._judgements = None
        if ledger is None:
            return (
                partial(word_block, words=_CSV_BOOLEANS) if header == _CSV_SIMPLE_HEADER else None
            )
        if any(char in header for char in '"\r\0') or (
            ledger.labels is not None and not all(type(word) is str for word, _ in ledger.labels)
        ):
            return None
        words: dict[str, bool] = (
            _CSV_BOOLEANS
            if ledger.labels is None
            else {str(word): meaning for word, meaning in ledger.labels}
        )
        if not plain_words(words):
            return None
        names = header.split(",")
        if not ledger.per_judgement:
            if names != [ledger.id.column, ledger.a.column, ledger.b.column]:
                return None
            return partial(word_block, words=words)
        assert ledger.grader is not None
        assert ledger.label is not None
        wanted = [ledger.id.column, ledger.grader.column, ledger.label.column]
        if not set(wanted) <= set(names) or len(set(names)) != len(names):
            return None
        if type(ledger.a_name) is not str or type(ledger.b_name) is not str:
            return None
        order = (names.index(wanted[0]), names.index(wanted[1]), names.index(wanted[2]))
        assert judgements is not None
        self._judgements = judgements(len(names), order, ledger.a_name, ledger.b_name, words)
        return self._judgements.block

    def _jsonl(self, stream: TextIO) -> Iterator[JSON]:
        decode = _decode_row
        # Each line read with a cap, so a runaway line is never held whole; a row is a line.
        lines = iter(partial(stream.readline, MAX_ROW_CHARS + 1), "")
        for number, text in enumerate(lines, start=1):
            self.position = number
            if len(text) > MAX_ROW_CHARS:
                raise RubricInputError(_too_long(self.display, number))
            try:
                row = decode(text)
            except json.JSONDecodeError as exc:
                if not text.strip():
                    raise RubricInputError(
                        f"{self.display}:{self.position}: a blank line; every line of a .jsonl "
                        "ledger is one JSON object: remove it"
                    ) from None
                raise RubricInputError(
                    f"{self.display}:{self.position}:{exc.colno}: invalid JSON: {exc.msg}; "
                    "every line of a .jsonl ledger is one JSON object"
                ) from None
            except ValueError as exc:
                raise RubricInputError(f"{self.display}:{self.position}: {exc}") from None
            except RecursionError:
                raise RubricInputError(f"{self.display}:{self.position}: {_TOO_DEEP}") from None
            yield row

    def _csv(self, stream: TextIO) -> Iterator[JSON]:
        self.position = 0  # read from the start again (a repeated ID's first place is looked up)
        reader = csv.reader(chain.from_iterable(self._csv_lines(stream)), strict=True)
        try:
            header = next(reader, None)
            columns = self._csv_columns(header or [])
            assert header is not None
            width = len(header)
            self.position = reader.line_num
            if columns is None:  # id, a and b, and nothing else: the usual ledger
                booleans = _CSV_BOOLEANS.get
                in_order = tuple(header) == CSV_HEADER
                pick = itemgetter(*(header.index(name) for name in CSV_HEADER))
                for cells in reader:
                    # The line the row ends on: _csv_lines reads from it where rows end.
                    self.position = reader.line_num
                    if len(cells) != 3:
                        self._bad_width(cells, header)
                    case_id, a, b = cells if in_order else pick(cells)
                    yield {"id": case_id, "a": booleans(a, a), "b": booleans(b, b)}
                return
            names, convert = columns
            for cells in reader:
                self.position = reader.line_num
                if len(cells) != width:
                    self._bad_width(cells, header)
                row: dict[str, JSON] = dict(zip(names, cells, strict=True))
                for name in convert:
                    cell = row[name]
                    row[name] = _CSV_BOOLEANS.get(cell, cell)  # type: ignore[arg-type]
                yield row
        except csv.Error as exc:
            raise RubricInputError(
                f"{self.display}:{reader.line_num}: invalid CSV: {exc}"
            ) from None

    def _csv_columns(self, header: list[str]) -> tuple[list[str], list[str]] | None:
        """How to read rows under ``header``: ``None`` for exactly ``id,a,b`` (any order)
        without a ``ledger:`` block, else the column names a row's cells go under and
        the label columns whose ``true``/``false`` cells are booleans (none when the
        block declares ``labels``). Refuses a header that lacks a column it must have."""
        ledger = self.ledger
        if len(set(header)) != len(header):
            twice = next(name for name in header if header.count(name) > 1)
            raise RubricInputError(
                f"{self.display}:1: the header names the column {escape_controls(repr(twice))} "
                "twice; give each column its own name"
            )
        if ledger is None:
            if not header or not set(CSV_HEADER) <= set(header):
                raise RubricInputError(
                    f"{self.display}:1: the header must name the columns id, a and b "
                    f"(found {escape_controls(','.join(header))!r}); write 'id,a,b' on the "
                    "first line, or say which columns hold them under 'ledger:' (e.g. "
                    "'ledger: {id: task_id, a: judge_label, b: editor_label}')"
                )
            if len(header) == 3:
                return None
            return header, ["a", "b"]
        mapped = (
            [("id", ledger.id), ("grader", ledger.grader), ("label", ledger.label)]
            if ledger.per_judgement
            else [("id", ledger.id), ("a", ledger.a), ("b", ledger.b)]
        )
        for key, path in mapped:
            assert path is not None
            if path.column not in header:
                raise header_problem(self.case_file, key, path, header, self.display, "header")
        labels = (
            []
            if ledger.labels is not None
            else [path.column for key, path in mapped if key in ("a", "b", "label") and path]
        )
        return header, labels

    def _bad_width(self, cells: list[str], header: list[str]) -> NoReturn:
        if not "".join(cells).strip():
            raise RubricInputError(
                f"{self.display}:{self.position}: the line is empty; every line of a .csv "
                f"ledger after its header is one row ({escape_controls(','.join(header))}): "
                "delete it"
            )
        raise RubricInputError(
            f"{self.display}:{self.position}: {len(cells)} cells where the header has "
            f"{len(header)} ({escape_controls(','.join(header))}); quote a cell that holds "
            "a comma"
        )

    def _csv_lines(self, stream: TextIO) -> Iterator[list[str]]:
        """The lines of a CSV ledger for ``csv.reader``, refusing a row past
        :data:`MAX_ROW_CHARS` before it is held whole.

        Read in blocks and split in C: a block without a quote, met where a row
        starts, is all whole rows of a line each, handed over at once (each line
        checked against the cap). Otherwise lines go one at a time, each row's
        characters counted from the line it starts on (a quoted cell may hold line
        breaks): a row starts where every line handed over so far ended a row, which
        ``self.position`` (the line the last row ended on) tells. Reading blocks means a
        runaway line is never held whole either; ``csv.field_size_limit`` would bound
        cells, not rows, and is global state besides.
        """
        read = stream.read
        split = _CSV_LINE.findall
        cap = MAX_ROW_CHARS
        given = 0  # lines handed over so far
        row_line = chars = 0  # the line the current row starts on, its characters so far
        rest = ""
        while True:
            block = read(_BLOCK)
            text = rest + block
            if not block:
                cut = len(text)
            else:
                cut = text.rfind("\n") + 1
                if len(text) - cut > cap and "\r" in text[cut:]:
                    # Lines ended by a lone CR; a CR at the end may begin a CRLF.
                    cut = text.rfind("\r", 0, len(text) - 1) + 1
            rest = text[cut:]
            lines = split(text, 0, cut)
            if (
                lines
                and self.position == given
                and '"' not in text[:cut]
                and max(map(len, lines)) <= cap
            ):
                given += len(lines)
                yield lines
            else:
                for line in lines:
                    given += 1
                    if self.position == given - 1:  # every earlier line ended a row
                        row_line, chars = given, 0
                    chars += len(line)
                    if chars > cap:
                        raise RubricInputError(_too_long(self.display, row_line))
                    yield [line]
            if len(rest) > cap:  # a line with no end in sight
                raise RubricInputError(
                    _too_long(self.display, given + 1 if self.position == given else row_line)
                )
            if not block:
                return


def _whole_lines(stream: TextIO) -> Iterator[str | None]:
    """The text of ``stream`` in blocks of whole lines, each ending with LF (an unended
    last line is given one); ``None``, and nothing after it, where a block holds a line
    longer than :data:`MAX_ROW_CHARS` could be (a reader one row at a time refuses it).
    Nothing is yielded for an empty stream."""
    rest = ""
    while True:
        block = stream.read(_BLOCK)
        text = rest + block
        if len(text) > MAX_ROW_CHARS:
            yield None
            return
        if not block:
            if text:
                yield text if text.endswith("\n") else text + "\n"
            return
        cut = text.rfind("\n") + 1
        rest = text[cut:]
        if cut:
            yield text[:cut]


def _too_long(display: str, line: int) -> str:
    return (
        f"{display}:{line}: this row is longer than {MAX_ROW_CHARS} characters, which no "
        "ledger row needs (an id and two labels); look for a missing closing quote or a "
        "runaway line and fix it"
    )


def _first_bad_utf8_line(path: Path, *, gzipped: bool = False) -> int | str:
    """The 1-based line holding the first byte that is not UTF-8 (``?`` if unreadable)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        with gzip.open(path, "rb") if gzipped else path.open("rb") as stream:
            for number, line in enumerate(stream, start=1):
                try:
                    decoder.decode(line)
                except UnicodeDecodeError:
                    return number
            decoder.decode(b"", final=True)
    except (OSError, UnicodeDecodeError, EOFError, zlib.error):
        pass
    return "?"
