"""Ledger rows from a ``.csv`` or ``.tsv`` file (also gzip'd): a header, then one row a
record, its cells split by the format's delimiter.

Without a ``ledger:`` block the header names ``id``, ``a`` and ``b`` (other columns are
review fields); only the cells ``true`` and ``false`` are booleans, every other cell (an
empty one too) stays text. With one, the header must name the columns it maps. A name
the header gives more than one column (as promptfoo's export of two prompts does) names
none of them: they are ``NAME#1``, ``NAME#2``... (:func:`header_names`).
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import chain
from operator import itemgetter
from typing import NoReturn, TextIO

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.descriptions.dataset import Dataset
from pytest_rubric.descriptions.keypaths import repeated_name
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import header_problem, repeated_problem
from pytest_rubric.inputs import textfiles
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.textfiles import MAX_ROW_CHARS, too_long

CSV_HEADER = ("id", "a", "b")
CSV_BOOLEANS = {"true": True, "false": False}
#: A line as a text stream opened with ``newline=""`` reads it: ended by CRLF, CR or LF.
_CSV_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")
#: Each delimiter: what messages call the file's text and a ledger of it, and a cell
#: that holds it.
_DELIMITERS = {
    ",": ("CSV", "a .csv ledger", "a comma"),
    "\t": ("TSV", "a .tsv ledger", "a tab"),
}


def csv_rows(
    stream: TextIO,
    display: str,
    cursor: Cursor,
    ledger: Ledger | Dataset | None,
    case_file: str,
    delimiter: str = ",",
) -> Iterator[JSON]:
    """The rows of ``stream``, each a mapping of its header's names
    (:func:`header_names`) to its cells, ``cursor.position`` set to the line each starts
    on (a quoted cell may hold line breaks: a record is placed where it starts, as editors
    and ``csv.reader`` users count)."""
    return _CsvReading(display, cursor, ledger, case_file, delimiter).rows(stream)


def header_names(header: Sequence[str]) -> list[str]:
    """The names of a header's columns: each name as written, but a name written more
    than once, whose columns are ``NAME#1``, ``NAME#2``... from the left
    (:func:`~pytest_rubric.descriptions.keypaths.repeated_name`)."""
    counts = Counter(header)
    if len(counts) == len(header):
        return list(header)
    seen: Counter[str] = Counter()
    names = []
    for name in header:
        if counts[name] > 1:
            seen[name] += 1
            name = repeated_name(name, seen[name])
        names.append(name)
    return names


class _CsvReading:
    """One pass over a CSV file: what it is told, the cursor it moves, and the line the
    last record read ends on (``ended``: the next one starts on the line after it)."""

    def __init__(
        self,
        display: str,
        cursor: Cursor,
        ledger: Ledger | Dataset | None,
        case_file: str,
        delimiter: str,
    ) -> None:
        self.display = display
        self.cursor = cursor
        self.ledger = ledger
        self.case_file = case_file
        self.delimiter = delimiter
        self.ended = 0

    def rows(self, stream: TextIO) -> Iterator[JSON]:
        cursor = self.cursor
        cursor.position = self.ended = 0  # each pass reads from the start
        reader = csv.reader(
            chain.from_iterable(self._lines(stream)), strict=True, delimiter=self.delimiter
        )
        try:
            header = next(reader, None)
            cursor.position = 1
            self.ended = reader.line_num
            columns = self._columns(header or [])
            assert header is not None
            width = len(header)
            if columns is None:  # id, a and b, and nothing else: the usual ledger
                booleans = CSV_BOOLEANS.get
                in_order = tuple(header) == CSV_HEADER
                pick = itemgetter(*(header.index(name) for name in CSV_HEADER))
                for cells in reader:
                    # Placed where it starts; _lines reads on from where it ends.
                    cursor.position = self.ended + 1
                    self.ended = reader.line_num
                    if len(cells) != 3:
                        self._bad_width(cells, header)
                    case_id, a, b = cells if in_order else pick(cells)
                    yield {"id": case_id, "a": booleans(a, a), "b": booleans(b, b)}
                return
            names, convert = columns
            for cells in reader:
                cursor.position = self.ended + 1
                self.ended = reader.line_num
                if len(cells) != width:
                    self._bad_width(cells, header)
                row: dict[str, JSON] = dict(zip(names, cells, strict=True))
                for name in convert:
                    cell = row[name]
                    row[name] = CSV_BOOLEANS.get(cell, cell)  # type: ignore[arg-type]
                yield row
        except csv.Error as exc:
            # The record refused is placed where it starts, as every record is.
            start = cursor.position = self.ended + 1
            runs = (
                f" (the record runs from line {start} to line {reader.line_num})"
                if reader.line_num > start
                else ""
            )
            kind = _DELIMITERS[self.delimiter][0]
            raise RubricInputError(f"{self.display}:{start}: invalid {kind}{runs}: {exc}") from None

    def _columns(self, header: list[str]) -> tuple[list[str], list[str]] | None:
        """How to read rows under ``header``: ``None`` for exactly ``id,a,b`` (any order)
        without a ``ledger:`` block, else the column names a row's cells go under
        (:func:`header_names`) and the label columns whose ``true``/``false`` cells are
        booleans (none when the block declares ``labels``). Refuses a header that lacks a
        column it must have, or names it more than once."""
        ledger = self.ledger
        names = self._names(header)
        if ledger is None:
            twice = next((name for name in CSV_HEADER if header.count(name) > 1), None)
            if twice is not None:
                raise RubricInputError(
                    f"{self.display}:1: the header names the column {twice!r} more than once "
                    f"(columns {_places(header, twice)}); say which one under 'ledger:' (e.g. "
                    f"'ledger: {{{twice}: {repeated_name(twice, 2)}}}' for the second)"
                )
            if not header or not set(CSV_HEADER) <= set(header):
                raise RubricInputError(
                    f"{self.display}:1: the header must name the columns id, a and b "
                    f"(found {self._quoted(header)}); write {self._quoted(list(CSV_HEADER))} on "
                    "the first line, or say which columns hold them under 'ledger:' (e.g. "
                    "'ledger: {id: task_id, a: judge_label, b: editor_label}')"
                )
            if len(header) == 3:
                return None
            return names, ["a", "b"]
        mapped = ledger.named()
        lacking = f"{self.display}'s header"
        wheres = [("where", path) for path, _ in ledger.selection.where]
        for key, path in [*mapped, *wheres]:
            assert path is not None
            if path.column in names:
                continue
            if header.count(path.column) > 1:
                columns = [n for n, name in enumerate(header, 1) if name == path.column]
                raise repeated_problem(self.case_file, key, path, columns, lacking, ledger.block)
            if key != "where":  # a where path a row lacks is the rows' problem
                raise header_problem(self.case_file, key, path, names, lacking, ledger.block)
        labels = (
            []
            if ledger.labels is not None
            else [
                path.column
                for key, path in mapped
                if key.rpartition(".")[2] in ("a", "b", "label") and path
            ]
        )
        return names, labels

    def _names(self, header: list[str]) -> list[str]:
        """:func:`header_names`, refusing a name written in the header that is also how a
        repeated name's column is named (``Status#2`` beside two ``Status``)."""
        names = header_names(header)
        if len(set(names)) != len(names):
            twice = next(name for name in names if names.count(name) > 1)
            raise RubricInputError(
                f"{self.display}:1: the header names the column {escape_controls(repr(twice))} "
                f"twice (columns {_places(names, twice)}); give each column its own name"
            )
        return names

    def _shown(self, header: list[str]) -> str:
        return escape_controls(self.delimiter.join(header))

    def _quoted(self, header: list[str]) -> str:
        return escape_controls(repr(self.delimiter.join(header)))

    def _bad_width(self, cells: list[str], header: list[str]) -> NoReturn:
        if not "".join(cells).strip():
            raise RubricInputError(
                f"{self.display}:{self.cursor.position}: the line is empty; every line of "
                f"{_DELIMITERS[self.delimiter][1]} after its header is one row "
                f"({self._shown(header)}): "
                "delete it"
            )
        raise RubricInputError(
            f"{self.display}:{self.cursor.position}: {len(cells)} cells where the header has "
            f"{len(header)} ({self._shown(header)}); quote a cell that holds "
            f"{_DELIMITERS[self.delimiter][2]}"
        )

    def _lines(self, stream: TextIO) -> Iterator[list[str]]:
        """The lines of a CSV ledger for ``csv.reader``, refusing a row past
        :data:`MAX_ROW_CHARS` before it is held whole.

        Read in blocks and split in C: a block without a quote, met where a row
        starts, is all whole rows of a line each, handed over at once (each line
        checked against the cap). Otherwise lines go one at a time, each row's
        characters counted from the line it starts on (a quoted cell may hold line
        breaks): a row starts where every line handed over so far ended a row, which
        ``self.ended`` (the line the last row ended on) tells. Reading blocks means a
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
            block = read(textfiles.BLOCK)
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
                and self.ended == given
                and '"' not in text[:cut]
                and max(map(len, lines)) <= cap
            ):
                given += len(lines)
                yield lines
            else:
                for line in lines:
                    given += 1
                    if self.ended == given - 1:  # every earlier line ended a row
                        row_line, chars = given, 0
                    chars += len(line)
                    if chars > cap:
                        raise RubricInputError(too_long(self.display, row_line))
                    yield [line]
            if len(rest) > cap:  # a line with no end in sight
                raise RubricInputError(
                    too_long(self.display, given + 1 if self.ended == given else row_line)
                )
            if not block:
                return


def _places(header: list[str], name: str) -> str:
    """The columns ``header`` names ``name``, counted from 1: ``3 and 9``."""
    places = [str(n) for n, each in enumerate(header, 1) if each == name]
    return f"{', '.join(places[:-1])} and {places[-1]}"
