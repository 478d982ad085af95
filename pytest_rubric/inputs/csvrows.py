"""Ledger rows from a ``.csv`` file (also gzip'd): a header, then one row a record.

Without a ``ledger:`` block the header names ``id``, ``a`` and ``b`` (other columns are
review fields); only the cells ``true`` and ``false`` are booleans, every other cell (an
empty one too) stays text. With one, the header must name the columns it maps.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from itertools import chain
from operator import itemgetter
from typing import NoReturn, TextIO

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.descriptions.dataset import Dataset
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import header_problem
from pytest_rubric.inputs import textfiles
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.textfiles import MAX_ROW_CHARS, too_long

CSV_HEADER = ("id", "a", "b")
CSV_BOOLEANS = {"true": True, "false": False}
#: A line as a text stream opened with ``newline=""`` reads it: ended by CRLF, CR or LF.
_CSV_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")


def csv_rows(
    stream: TextIO, display: str, cursor: Cursor, ledger: Ledger | Dataset | None, case_file: str
) -> Iterator[JSON]:
    """The rows of ``stream``, each a mapping of its header's names to its cells,
    ``cursor.position`` set to the line each ends on."""
    return _CsvReading(display, cursor, ledger, case_file).rows(stream)


class _CsvReading:
    """One pass over a CSV file: what it is told, and the cursor it moves."""

    def __init__(
        self, display: str, cursor: Cursor, ledger: Ledger | Dataset | None, case_file: str
    ) -> None:
        self.display = display
        self.cursor = cursor
        self.ledger = ledger
        self.case_file = case_file

    def rows(self, stream: TextIO) -> Iterator[JSON]:
        cursor = self.cursor
        cursor.position = 0  # each pass reads from the start
        reader = csv.reader(chain.from_iterable(self._lines(stream)), strict=True)
        try:
            header = next(reader, None)
            columns = self._columns(header or [])
            assert header is not None
            width = len(header)
            cursor.position = reader.line_num
            if columns is None:  # id, a and b, and nothing else: the usual ledger
                booleans = CSV_BOOLEANS.get
                in_order = tuple(header) == CSV_HEADER
                pick = itemgetter(*(header.index(name) for name in CSV_HEADER))
                for cells in reader:
                    # The line the row ends on: _lines reads from it where rows end.
                    cursor.position = reader.line_num
                    if len(cells) != 3:
                        self._bad_width(cells, header)
                    case_id, a, b = cells if in_order else pick(cells)
                    yield {"id": case_id, "a": booleans(a, a), "b": booleans(b, b)}
                return
            names, convert = columns
            for cells in reader:
                cursor.position = reader.line_num
                if len(cells) != width:
                    self._bad_width(cells, header)
                row: dict[str, JSON] = dict(zip(names, cells, strict=True))
                for name in convert:
                    cell = row[name]
                    row[name] = CSV_BOOLEANS.get(cell, cell)  # type: ignore[arg-type]
                yield row
        except csv.Error as exc:
            raise RubricInputError(
                f"{self.display}:{reader.line_num}: invalid CSV: {exc}"
            ) from None

    def _columns(self, header: list[str]) -> tuple[list[str], list[str]] | None:
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
        mapped = ledger.named()
        for key, path in mapped:
            assert path is not None
            if path.column not in header:
                raise header_problem(
                    self.case_file, key, path, header, f"{self.display}'s header", ledger.block
                )
        labels = (
            []
            if ledger.labels is not None
            else [
                path.column
                for key, path in mapped
                if key.rpartition(".")[2] in ("a", "b", "label") and path
            ]
        )
        return header, labels

    def _bad_width(self, cells: list[str], header: list[str]) -> NoReturn:
        if not "".join(cells).strip():
            raise RubricInputError(
                f"{self.display}:{self.cursor.position}: the line is empty; every line of a .csv "
                f"ledger after its header is one row ({escape_controls(','.join(header))}): "
                "delete it"
            )
        raise RubricInputError(
            f"{self.display}:{self.cursor.position}: {len(cells)} cells where the header has "
            f"{len(header)} ({escape_controls(','.join(header))}); quote a cell that holds "
            "a comma"
        )

    def _lines(self, stream: TextIO) -> Iterator[list[str]]:
        """The lines of a CSV ledger for ``csv.reader``, refusing a row past
        :data:`MAX_ROW_CHARS` before it is held whole.

        Read in blocks and split in C: a block without a quote, met where a row
        starts, is all whole rows of a line each, handed over at once (each line
        checked against the cap). Otherwise lines go one at a time, each row's
        characters counted from the line it starts on (a quoted cell may hold line
        breaks): a row starts where every line handed over so far ended a row, which
        ``self.cursor.position`` (the line the last row ended on) tells. Reading blocks means a
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
                and self.cursor.position == given
                and '"' not in text[:cut]
                and max(map(len, lines)) <= cap
            ):
                given += len(lines)
                yield lines
            else:
                for line in lines:
                    given += 1
                    if self.cursor.position == given - 1:  # every earlier line ended a row
                        row_line, chars = given, 0
                    chars += len(line)
                    if chars > cap:
                        raise RubricInputError(too_long(self.display, row_line))
                    yield [line]
            if len(rest) > cap:  # a line with no end in sight
                raise RubricInputError(
                    too_long(self.display, given + 1 if self.cursor.position == given else row_line)
                )
            if not block:
                return
