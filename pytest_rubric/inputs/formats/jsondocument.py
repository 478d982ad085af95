"""``.json``: the whole input, one JSON object (its reader: :mod:`..wholejson`); with a
``ledger:`` or ``dataset:`` block, a document whose list of rows, or table of columns and
data (:mod:`..jsontables`), at the top level or where ``records:`` says, is read as a
stream (:mod:`..jsondocs`), a one-row-per-judgement export's judgements a block at a time
(:mod:`..judgementblocks`)."""

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
class JsonDocument:
    """The JSON document format (gzip'd: :func:`~.gzipped.gzipped`)."""

    suffix: str = ".json"
    opener: Opener = PLAIN
    holds = "the whole input"

    @property
    def traits(self) -> FileTraits:
        return FileTraits(self.suffix, records=True)

    def rows(self, file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
        from pytest_rubric.inputs.jsondocs import document_rows

        records = file.selection.records
        described = file.description

        def read(stream: TextIO) -> Iterator[JSON]:
            return document_rows(stream, file.display, cursor, records, case_file, described)

        return text_rows(
            file.path, file.display, self.opener, read, lambda: file.reading_at(cursor.position)
        )

    def label_blocks(self, file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
        ledger = file.ledger
        if ledger is None or not ledger.per_judgement or ledger.group_by is not None:
            return iter((None,))
        from pytest_rubric.inputs.cursor import Cursor
        from pytest_rubric.inputs.judgementblocks import judgement_blocks

        return judgement_blocks(self.rows(file, "", Cursor()), ledger, findings)

    def lone_judgements(self, file: InputFile) -> frozenset[str] | None:
        return None

    def place(self, file: InputFile, number: int | str) -> str:
        """``#records[N]`` (N from 0), the list named as ``records:`` writes it."""
        records = file.selection.records
        index = number - 1 if isinstance(number, int) else number
        return f"#{'' if records is None else records.written}[{index}]"

    def row_label(self, number: int) -> str:
        return f"item {number - 1}"


JSON_DOCUMENT = JsonDocument()
