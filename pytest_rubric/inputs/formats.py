"""The input formats a case may name in ``input_file:``, by suffix, with what each holds."""

from __future__ import annotations

#: The input formats, by the suffix of the name written in ``input_file:``, with what each holds.
INPUT_FORMATS: dict[str, str] = {
    ".json": "the whole input",
    ".jsonl": "ledger rows",
    ".csv": "ledger rows",
    ".json.gz": "the whole input",
    ".jsonl.gz": "ledger rows",
    ".csv.gz": "ledger rows",
    ".parquet": "ledger rows",
}


def format_of(written: str) -> str:
    """The input format ``written`` names by its suffix (``""``: none known)."""
    return next((suffix for suffix in INPUT_FORMATS if written.endswith(suffix)), "")
