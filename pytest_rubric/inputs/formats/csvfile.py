"""``.csv``: a header, then a row a record, every cell text (its reader:
:mod:`..csvrows`); label blocks read in whole lines where counting proves their shape,
a one-row-per-judgement export's too (:mod:`..textblocks`). The same format with
another delimiter is ``.tsv`` (:mod:`.tsvfile`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.traits import FileTraits
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.textfiles import PLAIN, Opener, text_rows

if TYPE_CHECKING:
    from pytest_rubric.inputs.cursor import Cursor
    from pytest_rubric.inputs.findings import Findings


@dataclass(frozen=True, slots=True)
class Csv:
    """The CSV format (gzip'd: :func:`~.gzipped.gzipped`), its cells split by
    ``delimiter``."""

    suffix: str = ".csv"
    opener: Opener = PLAIN
    delimiter: str = ","
    holds = "ledger rows"

    @property
    def traits(self) -> FileTraits:
        return FileTraits(self.suffix, text_cells=True)

    def rows(self, file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
        from pytest_rubric.inputs.csvrows import csv_rows

        def read(stream: TextIO) -> Iterator[JSON]:
            return csv_rows(
                stream, file.display, cursor, file.description, case_file, self.delimiter
            )

        return text_rows(
            file.path, file.display, self.opener, read, lambda: file.reading_at(cursor.position)
        )

    def label_blocks(self, file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
        ledger = file.ledger
        # Groups are tallied in blocks of a CSV's judgements only; elsewhere each row's
        # group is read one at a time.
        if ledger is not None and ledger.group_by is not None and not ledger.per_judgement:
            return iter((None,))
        from pytest_rubric.inputs.textblocks import text_label_blocks

        return text_label_blocks(file, findings, self.delimiter)

    def lone_judgements(self, file: InputFile) -> frozenset[str] | None:
        from pytest_rubric.inputs.textblocks import lone_judgements

        return lone_judgements(file, self.delimiter)

    def place(self, file: InputFile, number: int | str) -> str:
        return f":{number}"

    def row_label(self, number: int) -> str:
        return f"line {number}"


CSV = Csv()
