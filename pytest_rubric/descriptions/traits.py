"""What a description (``ledger:``, ``dataset:``, a side of a join) is told of its file's
format, as values: the describe side never looks at a suffix, nor imports the formats.

A format (:mod:`pytest_rubric.inputs.formats`) hands over its :class:`FileTraits`; the
loader hands a ``ledger:`` block a :class:`FormatLookup`, which also finds the traits of
a join's side files by their written names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FileTraits:
    """``written``: the format's suffix as written (``.csv.gz``), for messages; empty
    where the name ends in no known format. ``text_cells``: its cells are text and its
    columns flat (CSV: a key path is one column name, a label is a word). ``records``:
    its rows sit in one JSON document, whose list ``records:`` may name. ``sheets``: a
    workbook, whose sheet ``sheet:`` may name; its columns flat, its cells typed (a
    number, text, a Boolean). ``json_lines``: each row one JSON object on a line of its
    own (JSON Lines)."""

    written: str = ""
    text_cells: bool = False
    records: bool = False
    sheets: bool = False
    json_lines: bool = False

    @property
    def flat(self) -> bool:
        """Whether its columns are flat: a key path is one column's name, dots and all,
        and a cell never holds a mapping."""
        return self.text_cells or self.sheets

    @property
    def rows_are(self) -> str:
        """What the file's rows are, as a message names them."""
        return "records" if self.text_cells else "lines"


#: The traits of a name that ends in no known format: nothing is refused for its sake.
NO_FORMAT = FileTraits()


@dataclass(frozen=True, slots=True)
class FormatLookup:
    """The traits of the case's own input file (``file``), and how to find those of a
    file by its written name (``of``: a join's sides)."""

    file: FileTraits
    of: Callable[[str], FileTraits]
