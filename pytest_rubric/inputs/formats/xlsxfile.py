"""``.xlsx``: one sheet of a spreadsheet (the first, or ``sheet: NAME``), its first row the
header, through the optional extra ``pytest-rubric[xlsx]`` (python-calamine, imported when
a sheet is read, never before).

A cell reads as what the sheet holds: text, a Boolean, a number (a whole one as an
integer), a date as its ISO text; an empty cell as empty text, as in the CSV the sheet
would be saved as. As in a CSV, a label column's text ``true`` and ``false`` are Booleans
(where no ``labels:`` says otherwise). Empty rows and columns after the table are not
read; a formula reads as the value the file saved for it, and a sheet whose formulas
have none saved is refused. A row is named ``file#row N``, N as the sheet numbers it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, time, timedelta
from itertools import islice, repeat
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.files import regular_size
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.core.nearest import nearest
from pytest_rubric.descriptions.misfits import header_problem, misfit
from pytest_rubric.descriptions.traits import FileTraits
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.textfiles import PLAIN, Opener, unreadable

if TYPE_CHECKING:
    from zipfile import ZipFile

    from pytest_rubric.inputs.cursor import Cursor
    from pytest_rubric.inputs.findings import Findings

EXTRA = "pip install 'pytest-rubric[xlsx]'"
#: Cells python-calamine gives as they are read: text, Booleans (and integers, should it
#: give any); every other kind goes through :func:`_cell`.
_AS_IS = frozenset({str, bool, int})
_WORDS = {"true": True, "false": False}  # a CSV's Booleans, and a text cell's here
#: Rows read and checked at a time, column by column.
BATCH_ROWS = 1 << 12


@dataclass(frozen=True, slots=True)
class Xlsx:
    """The spreadsheet format."""

    suffix: str = ".xlsx"
    opener: Opener = PLAIN  # its bytes as they are: python-calamine opens them
    holds = "ledger rows"

    @property
    def traits(self) -> FileTraits:
        return FileTraits(self.suffix, sheets=True)

    def rows(self, file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
        return _Sheet(file, case_file, cursor).rows()

    def label_blocks(self, file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
        return iter((None,))  # python-calamine hands rows over one at a time

    def lone_judgements(self, file: InputFile) -> frozenset[str] | None:
        return None

    def place(self, file: InputFile, number: int | str) -> str:
        return f"#row {number}"

    def row_label(self, number: int) -> str:
        return f"row {number}"


XLSX = Xlsx()


class _Sheet:
    """One pass over a sheet: the file, what it is told, and the cursor it moves."""

    def __init__(self, file: InputFile, case_file: str, cursor: Cursor) -> None:
        self.file = file
        self.display = file.display
        self.case_file = case_file
        self.cursor = cursor
        #: The first formula cell with no value saved (``None``: none), once looked for.
        self.uncached: str | None = None
        self.looked = False

    def rows(self) -> Iterator[JSON]:
        """Each row under the header as a mapping of its names to its cells,
        ``cursor.position`` set to the row's number in the sheet."""
        cursor = self.cursor
        try:
            lines, names, length = self._table()
            words = frozenset(names.index(name) for name in self._label_columns(names))
            number = cursor.position
            empty_rows = 0  # empty rows met since the last row read: after the table, ignored
            while batch := list(islice(lines, BATCH_ROWS)):
                rows, empty = self._batch(batch, names, length, words)
                mappings = map(dict, map(zip, repeat(names), rows))
                if empty is None:  # no empty row: the usual batch
                    if empty_rows:
                        raise self._empty_row(number + 1 - empty_rows)
                    for row in mappings:
                        number += 1
                        cursor.position = number
                        yield row
                    continue
                for row, blank in zip(mappings, empty, strict=True):
                    number += 1
                    cursor.position = number
                    if blank:
                        empty_rows += 1
                        continue
                    if empty_rows:
                        raise self._empty_row(number - empty_rows)
                    yield row
        except RubricInputError:
            raise
        except Exception as exc:  # python-calamine's own, met as it reads
            raise unreadable(self.file.reading_at(cursor.position), exc) from None

    def _empty_row(self, number: int) -> RubricInputError:
        return RubricInputError(
            f"{self.display}#row {number}: the row is empty, and rows of the table follow "
            "it; delete it (empty rows after the table are not read)"
        )

    def _table(self) -> tuple[Iterator[list[Any]], list[str], int]:
        """The sheet's rows after its header, the header's names (empty columns after the
        table left out), and how many cells each row has; the cursor at the header."""
        cursor = self.cursor
        cursor.position = 0  # each pass reads from the start
        lines = self._open()
        header = next(lines, None)
        while header is not None and "" in header and header.count("") == len(header):
            cursor.position += 1  # rows before the table: empty
            header = next(lines, None)
        cursor.position += 1
        names = [_name(cell) for cell in header or ()]
        while names and names[-1] == "":
            names.pop()  # empty columns after the table
        return lines, names, len(header or ())

    def _batch(
        self, batch: list[list[Any]], names: list[str], length: int, words: frozenset[int]
    ) -> tuple[Iterable[Sequence[Any]], list[bool] | None]:
        """A batch of rows as JSON cells, and which of them are empty (``None``: none):
        worked out column by column, in C where no cell needs more than it is (the usual
        sheet)."""
        width = len(names)
        columns = list(zip(*batch, strict=True))
        empty = None
        if any("" in column for column in columns):
            empty = [row.count("") == length for row in batch]
            if not all(empty):  # an empty cell may be a formula with no value saved
                self._check_formulas()
        if any(column.count("") != len(column) for column in columns[width:]):
            self._past_header(batch, names)
        fixed = False
        for index in range(width):
            fix = _fix(columns[index], index in words)
            if fix is not None:
                columns[index], fixed = tuple(map(fix, columns[index])), True
        # The rows are as long as the header, so zip stops at the last name.
        return (zip(*columns, strict=True) if fixed else batch), empty

    def _open(self) -> Iterator[list[Any]]:
        """The sheet's rows from its first, as python-calamine reads them."""
        try:
            import python_calamine
        except ImportError:
            raise RubricInputError(
                f"{self.display}: reading a .xlsx file needs python-calamine, which is not "
                f"installed; install it with: {EXTRA}"
            ) from None
        try:
            regular_size(
                self.file.path
            )  # a FIFO put here since collection: refused, never waited on
            book = python_calamine.CalamineWorkbook.from_path(self.file.path)
        except (python_calamine.CalamineError, OSError) as exc:
            raise RubricInputError(
                f"{self.display}: not a spreadsheet python-calamine can read ({exc}); save it "
                "as .xlsx again"
            ) from None
        with book:
            wanted = self.file.selection.sheet
            if wanted is not None and wanted not in book.sheet_names:
                raise self._no_sheet(wanted, book.sheet_names)
            name = book.sheet_names[0] if wanted is None else wanted
            sheet = book.get_sheet_by_name(name)
        return iter(sheet.iter_rows())

    def _no_sheet(self, wanted: str, names: list[str]) -> RubricInputError:
        described = self.file.description
        assert described is not None  # only a description names a sheet
        close = nearest(wanted, names)
        hint = f"did you mean {escape_controls(repr(close))}?" if close else "name one of them"
        shown = ", ".join(escape_controls(repr(name)) for name in names)
        return misfit(
            self.case_file,
            described.selection.sheet_at,
            f"{described.block} 'sheet' names {escape_controls(repr(wanted))}, which {self.display} does not "
            f"have (its sheets: {shown}); {hint}",
        )

    def _label_columns(self, names: list[str]) -> list[str]:
        """The columns whose text ``true`` and ``false`` are Booleans (those of the labels
        where no ``labels:`` says what the words mean), each column the description names
        checked against the header."""
        described = self.file.description
        if len(set(names)) != len(names):
            twice = next(name for name in names if names.count(name) > 1)
            raise RubricInputError(
                f"{self.display}#row {self.cursor.position}: the header names the column "
                f"{escape_controls(repr(twice))} twice; give each column its own name"
            )
        if described is None:
            if not {"id", "a", "b"} <= set(names):
                raise RubricInputError(
                    f"{self.display}#row {self.cursor.position}: the header must name the "
                    f"columns id, a and b (found {escape_controls(', '.join(names))!r}); write "
                    "them in the sheet's first row, or say which columns hold them under "
                    "'ledger:' (e.g. 'ledger: {id: task_id, a: judge_label, b: editor_label}')"
                )
            return ["a", "b"]
        mapped = described.named()
        for key, path in mapped:
            assert path is not None
            if path.column not in names:
                holder = f"{self.display}'s header"
                raise header_problem(self.case_file, key, path, names, holder, described.block)
        if described.labels is not None:
            return []
        return [
            path.column
            for key, path in mapped
            if path is not None and key.rpartition(".")[2] in ("a", "b", "label")
        ]

    def _past_header(self, batch: list[list[Any]], names: list[str]) -> None:
        width = len(names)
        at, row = next(
            (at, row) for at, row in enumerate(batch) if row[width:].count("") < len(row) - width
        )
        column = width + next(index for index, cell in enumerate(row[width:]) if cell != "")
        raise RubricInputError(
            f"{self.display}#row {self.cursor.position + at + 1}: a value in the sheet's column "
            f"{column + 1}, past the header's last name "
            f"({escape_controls(repr(names[-1]) if names else 'none')}); name the column in "
            "the header row, or clear the cell"
        )

    def _check_formulas(self) -> None:
        """Refuses the sheet if a formula in it has no value saved (an empty cell is
        what python-calamine gives for one): checked once a pass, at its first empty cell."""
        if not self.looked:
            self.uncached = _first_uncached(self.file.path, self.file.selection.sheet)
            self.looked = True
        ref = self.uncached
        if ref is not None:
            row = ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            where = f"#row {row}: the cell {ref}" if ref else ": a cell"
            raise RubricInputError(
                f"{self.display}{where} holds a formula with no value saved "
                "(the tool that wrote the file does not compute formulas); open and save the "
                "file in a spreadsheet program, which saves each formula's value, or write the "
                "values themselves"
            )


def _fix(column: tuple[Any, ...], label: bool) -> Callable[[Any], JSON] | None:
    """What each cell of a column needs, if anything: a cell of a kind other than text or a
    Boolean made JSON; in a label column, the text ``true`` and ``false`` read as Booleans."""
    kinds = set(map(type, column))
    if kinds <= _AS_IS and not (label and str in kinds):
        return None
    if kinds == {float}:
        return _number
    return _label if label else _json


def _json(value: Any) -> JSON:
    return value if type(value) in _AS_IS else _cell(value)


def _label(value: Any) -> JSON:
    return _WORDS.get(value, value) if type(value) is str else _json(value)


def _number(value: float) -> JSON:
    return int(value) if value.is_integer() else value


def _name(cell: object) -> str:
    """A header cell as a column's name: its text as the sheet shows it."""
    if type(cell) is str:
        return cell
    if type(cell) is bool:
        return "TRUE" if cell else "FALSE"
    return str(_cell(cell))


def _cell(value: Any) -> JSON:
    """A cell python-calamine gives other than text or a Boolean, as JSON: a number (an
    integer where it is whole: a sheet's numbers have no other kind), a date or a time as
    its ISO text, a duration as ``H:MM:SS``."""
    if type(value) is float:
        return _number(value)
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, timedelta):
        hours, seconds = divmod(int(value.total_seconds()), 3600)
        return f"{hours}:{seconds // 60:02d}:{seconds % 60:02d}"
    return str(value)


#: A formula's start, and a cell's value, as a worksheet's XML writes them (any prefix).
_FORMULA = re.compile(rb"<(?:\w+:)?f[\s/>]")
_VALUE = re.compile(rb"<(?:\w+:)?v>[^<]")
_REF = re.compile(rb'\sr="([A-Z]+[0-9]+)"')
_TEXT_RESULT = re.compile(rb'\st="str"')
_CELL_TAGS = (b"<c ", b"<c>", b":c ", b":c>")
_RELATIONSHIPS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def _first_uncached(path: Path, sheet: str | None) -> str | None:
    """The reference of the first formula cell of ``sheet`` (the first: ``None``) that has
    no value saved, or ``None``: its worksheet's XML read in blocks, formulas found in C."""
    import zipfile  # only where a sheet has an empty cell

    with zipfile.ZipFile(path) as book:
        part = _sheet_part(book, sheet)
        if part is None:
            return None
        with book.open(part) as stream:
            return _uncached_in(stream)


def _sheet_part(book: ZipFile, sheet: str | None) -> str | None:
    """The name of the worksheet part of ``sheet`` (the first: ``None``) in the package."""
    from xml.etree import ElementTree

    workbook = ElementTree.fromstring(book.read("xl/workbook.xml"))
    found = [
        node
        for node in workbook.iter()
        if node.tag.endswith("}sheet") and (sheet is None or node.get("name") == sheet)
    ]
    if not found:
        return None
    relations = ElementTree.fromstring(book.read("xl/_rels/workbook.xml.rels"))
    wanted = found[0].get(_RELATIONSHIPS)
    for relation in relations:
        if relation.get("Id") == wanted:
            target = relation.get("Target", "")
            return target[1:] if target.startswith("/") else f"xl/{target}"
    return None


def _uncached_in(stream: IO[bytes]) -> str | None:
    """The first formula cell in a worksheet's XML with no value: read a block of whole
    rows at a time; only a formula's own cell is looked at."""
    rest = b""
    while True:
        block = stream.read(1 << 20)
        text = rest + block
        cut = text.rfind(b"row>") + 4 if block else len(text)  # after a row's end tag
        if block and cut < 4:
            rest = text
            continue
        rest = text[cut:]
        for found in _FORMULA.finditer(text, 0, cut):
            at = found.start()
            # The cell's start tag: the last "<c" (or a prefixed ":c") before it.
            start = max(text.rfind(tag, 0, at) for tag in _CELL_TAGS)
            end = text.find(b"c>", at)
            opening = text[start : text.find(b">", start)]
            inside = text[at:end]
            if not _VALUE.search(inside) and not _TEXT_RESULT.search(opening):
                ref = _REF.search(opening)
                return "" if ref is None else ref.group(1).decode()
        if not block:
            return None
