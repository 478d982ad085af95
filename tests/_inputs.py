"""An input file outside a case file, resolved as the loader resolves ``input_file:``
(tests of the inputs room that read a file without a case file around it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.inputs.source import InputFile


def input_file_at(
    path: Path, display: str | None = None, *, ledger: Ledger | None = None
) -> InputFile:
    """``path`` as a case file beside it would name it, its format from its name; named
    ``display`` in messages (its name unless given), read by ``ledger`` if given."""
    found, _ = InputFiles(path.parent / "case.rubric.yaml", "case.rubric.yaml", None).resolve(
        path.name
    )
    return replace(found, display=path.name if display is None else display, ledger=ledger)
