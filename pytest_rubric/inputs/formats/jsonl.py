"""``.jsonl``: one JSON object a line, each a row (its reader: :mod:`..jsonl`); label
blocks read in whole lines where counting proves their shape (:mod:`..textblocks`), or
a one-row-per-judgement export's judgements a block at a time (:mod:`..judgementblocks`)."""

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
class Jsonl:
    """The JSON Lines format (gzip'd: :func:`~.gzipped.gzipped`)."""

    suffix: str = ".jsonl"
    opener: Opener = PLAIN
    holds = "ledger rows"

    @property
    def traits(self) -> FileTraits:
        return FileTraits(self.suffix, json_lines=True)

    def rows(self, file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
        from pytest_rubric.inputs.jsonl import jsonl_rows

        def read(stream: TextIO) -> Iterator[JSON]:
            return jsonl_rows(stream, file.display, cursor)

        return text_rows(
            file.path, file.display, self.opener, read, lambda: file.reading_at(cursor.position)
        )

    def label_blocks(self, file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
        ledger = file.ledger
        if ledger is not None and ledger.group_by is not None:
            return iter((None,))  # each row's group is read one at a time
        if ledger is not None and ledger.per_judgement:
            from pytest_rubric.inputs.cursor import Cursor
            from pytest_rubric.inputs.judgementblocks import judgement_blocks

            return judgement_blocks(self.rows(file, "", Cursor()), ledger, findings)
        from pytest_rubric.inputs.textblocks import text_label_blocks

        return text_label_blocks(file, findings)

    def lone_judgements(self, file: InputFile) -> frozenset[str] | None:
        return None

    def place(self, file: InputFile, number: int | str) -> str:
        return f":{number}"

    def row_label(self, number: int) -> str:
        return f"line {number}"


JSONL = Jsonl()
