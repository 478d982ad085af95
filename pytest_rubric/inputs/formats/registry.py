"""The input formats, one line each: what ``input_file:`` may name, and how it is read.

Adding a format is a module beside this one (implementing
:class:`~pytest_rubric.inputs.formats.base.Format`) and its line here; the messages that
list the accepted names, and the loader's look-up by suffix, read this table.
"""

from __future__ import annotations

from pytest_rubric.descriptions.traits import NO_FORMAT, FileTraits
from pytest_rubric.inputs.formats.base import Format
from pytest_rubric.inputs.formats.csvfile import CSV
from pytest_rubric.inputs.formats.evallog import INSPECT_LOG
from pytest_rubric.inputs.formats.gzipped import gzipped
from pytest_rubric.inputs.formats.jsondocument import JSON_DOCUMENT
from pytest_rubric.inputs.formats.jsonl import JSONL
from pytest_rubric.inputs.formats.parquetfile import PARQUET
from pytest_rubric.inputs.formats.tsvfile import TSV
from pytest_rubric.inputs.formats.xlsxfile import XLSX

#: Every format, in the order the accepted-formats message lists them.
FORMATS: tuple[Format, ...] = (
    JSON_DOCUMENT,
    JSONL,
    CSV,
    TSV,
    gzipped(JSON_DOCUMENT),
    gzipped(JSONL),
    gzipped(CSV),
    gzipped(TSV),
    PARQUET,
    XLSX,
    INSPECT_LOG,
)

#: The input formats, by the suffix of the name written in ``input_file:``, with what each holds.
INPUT_FORMATS: dict[str, str] = {fmt.suffix: fmt.holds for fmt in FORMATS}


def format_for(written: str) -> Format | None:
    """The format a name as written ends in, or ``None``."""
    return next((fmt for fmt in FORMATS if written.endswith(fmt.suffix)), None)


def traits_of(written: str) -> FileTraits:
    """What a description is told of the file a name as written leads to."""
    fmt = format_for(written)
    return NO_FORMAT if fmt is None else fmt.traits


def formats_text() -> str:
    """``.json (the whole input), .jsonl or .csv (ledger rows)``, from the table."""
    by_holding: dict[str, list[str]] = {}
    for suffix, holds in INPUT_FORMATS.items():
        by_holding.setdefault(holds, []).append(suffix)
    return ", ".join(
        f"{', '.join(suffixes[:-1])} or {suffixes[-1]} ({holds})"
        if len(suffixes) > 1
        else f"{suffixes[0]} ({holds})"
        for holds, suffixes in by_holding.items()
    )
