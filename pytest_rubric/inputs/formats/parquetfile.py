"""``.parquet``: an export's rows in record batches, through the optional extra
``pytest-rubric[parquet]`` (its reader: :mod:`..parquet`, which imports pyarrow when a
Parquet file is read, never before); label blocks a batch each, checked in Arrow."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.traits import FileTraits
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.textfiles import PLAIN, Opener, unreadable

if TYPE_CHECKING:
    from pytest_rubric.inputs.cursor import Cursor
    from pytest_rubric.inputs.findings import Findings


@dataclass(frozen=True, slots=True)
class Parquet:
    """The Parquet format."""

    suffix: str = ".parquet"
    opener: Opener = PLAIN  # its bytes as they are: pyarrow opens them
    holds = "ledger rows"

    @property
    def traits(self) -> FileTraits:
        return FileTraits(self.suffix)

    def rows(self, file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
        from pytest_rubric.inputs.parquet import parquet_rows

        try:  # a batch is converted whole: the row at fault is this one or a later one
            yield from parquet_rows(file, case_file, cursor)
        except RubricInputError:
            raise
        except Exception as exc:  # pyarrow's own (a value Python has no type for, ...)
            place = f"{file.display}, from {self.place(file, cursor.position + 1)} on"
            raise unreadable(place, exc) from None

    def label_blocks(self, file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
        from pytest_rubric.inputs.parquet import parquet_label_blocks

        return parquet_label_blocks(file)

    def lone_judgements(self, file: InputFile) -> frozenset[str] | None:
        return None

    def place(self, file: InputFile, number: int | str) -> str:
        return f"#row {number}"

    def row_label(self, number: int) -> str:
        return f"row {number}"


PARQUET = Parquet()
