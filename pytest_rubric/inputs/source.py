"""A case's ``input_file:``, as the loader resolved it: what the runner hands the inputs room."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytest_rubric.inputs.ledgerspec import Ledger


@dataclass(frozen=True, slots=True, kw_only=True)
class InputFile:
    """An input file: ``input_file:`` as written (resolved anew when a cached case file is
    reused), the path it leads to, how messages name it, and how to read it: its suffix
    as written (a key of :data:`~pytest_rubric.inputs.formats.INPUT_FORMATS`, not the
    suffix of what a symlink leads to) and, for an export, its ``ledger:`` description.
    A join's is side a's file with the join's ledger, and ``sides``: each side's file,
    read by its side's ledger."""

    text: str
    path: Path
    display: str
    format: str
    ledger: Ledger | None = None
    sides: tuple[InputFile, InputFile] | None = None
