"""The inputs room's one entry point: :func:`open_input`, a case's ``input_file`` as
what the runner hands its evaluator.

- a format that holds the whole input (``.json``, also gzip'd), read without a
  ``ledger:`` block: :class:`WholeInput`, the whole input mapping;
- any other, or one read through a ``ledger:`` block: :class:`~.rows.FileRows`, ledger
  rows read one at a time, as the block says where the case has one;
- two files joined by case ID (a ``ledger:`` whose ``a`` and ``b`` are each a file):
  :class:`~.joins.JoinedRows`.

The format is the one the name written in the case file ends in (``InputFile.format``,
:mod:`.formats`), so a symlink named ``week.csv`` is read as CSV whatever its target is
called. Readers raise :class:`~pytest_rubric.core.errors.RubricInputError` naming
``path:line`` for a file that is not what it claims to be.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.joins import JoinedRows
from pytest_rubric.inputs.paneljoins import PanelPairRows
from pytest_rubric.inputs.rows import FileRows
from pytest_rubric.inputs.textfiles import unreadable
from pytest_rubric.inputs.wholejson import read_json, read_json_with_row_lines

_Read = TypeVar("_Read")

#: What a format that holds the whole input says it holds.
WHOLE = "the whole input"


@dataclass(frozen=True, slots=True)
class WholeInput:
    """A whole input in one JSON file: each call reads it afresh."""

    file: InputFile

    def mapping(self) -> dict[str, JSON]:
        """The input mapping."""
        return self._read(read_json)

    def with_row_lines(self) -> tuple[dict[str, JSON], list[int]]:
        """The input mapping, and the line each item of its ``rows`` list starts on."""
        return self._read(read_json_with_row_lines)

    def _read(self, read: Callable[..., _Read]) -> _Read:
        """What ``read`` makes of the file; whatever reading raises is the input's problem
        (:class:`RubricInputError`), a library's own error or memory running out too."""
        file = self.file
        try:
            return read(file.path, file.display, file.reader.opener)
        except RubricInputError:
            raise
        except Exception as exc:
            raise unreadable(file.display, exc) from None


#: What a ledger's rows are read as: one file's, or two files' joined.
LedgerRows = FileRows | JoinedRows


def open_input(file: InputFile, case_file: str = "") -> WholeInput | FileRows | JoinedRows:
    """What ``file`` holds: a whole input, or ledger rows. Nothing is read until asked;
    ``case_file`` names the case file in messages about its ``ledger:`` block."""
    ledger = file.ledger
    if ledger is None:
        return WholeInput(file) if file.reader.holds == WHOLE else FileRows(file, case_file)
    if file.panel_sides is not None:  # a join panel's pair: each side read once for all
        return PanelPairRows(file, case_file)
    if ledger.join is not None:
        return JoinedRows(file, case_file)
    return FileRows(file, case_file)
