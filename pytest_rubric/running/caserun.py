"""What became of one run of a case, as it travels from where the case runs (a
pytest-xdist worker too) to its record and, in an update run, to the run that writes its
answer: :class:`CaseRun`, made in every run, with the answer to write (:class:`CaseWrite`)
or held back (:class:`Held`).

Here, below both, so that the plugin that makes and carries a run and the update that
decides one (:func:`pytest_rubric.editing.decisions.decide`) share it, and a run that
writes no answer never imports ``editing/``.
"""

from __future__ import annotations

import dataclasses
from typing import TypedDict

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.running.outcome import CaseOutcome


class CaseWrite(TypedDict):
    """A case's answer, as it travels to the run that writes it: the case file's absolute
    path and the SHA-256 of the bytes collected, the case's index and ID, its answer, and
    whether it creates the case's ``expected``. ``lines`` (the line the case starts on and
    the line the next starts on, 0 after the last) when its answer could be written on its
    own lines, checked where it ran; ``span`` (its first column, and the line and column
    where it ends) when it is a case of a flow list. ``pairs``: for a panel's pair, the
    names of its panel's pairs in panel order (``after`` then holds ``{<its name>: answer}``,
    for ``expected_pairs``)."""

    path: str
    digest: str
    index: int
    name: str
    after: dict[str, JSON]
    created: bool
    lines: list[int] | None
    span: list[int] | None
    pairs: list[str] | None


@dataclasses.dataclass(frozen=True, slots=True)
class Held:
    """An answer held back from being written: a refusal, its code (the answer's
    ``error`` or ``status``, when it has one) and the problem its evidence names."""

    code: str | None
    problem: str

    def words(self) -> str:
        """The code and the problem, escaped: an evaluator's text is data, shown as data
        (and a lone surrogate in it could not travel to a pytest-xdist controller)."""
        text = f"{self.code}: {self.problem}" if self.code else self.problem
        return escape_controls(text)


class HeldRecord(TypedDict):
    """A case whose answer ``--rubric-update`` held back, as it travels to the run that
    gathers it: its ID, where it is (``path:line``), and the refusal's code and problem."""

    case: str
    at: str
    words: str


@dataclasses.dataclass(frozen=True, slots=True)
class CaseRun:
    """What became of one run of a case: its outcome and, in an update run, what becomes
    of its answer (made once, by :func:`~pytest_rubric.editing.decisions.decide`)."""

    #: The outcome to report.
    result: CaseOutcome
    #: The answer to write, if any, as it travels to the run that writes it.
    write: CaseWrite | None = None
    #: The ``expected`` it replaces (``None`` when it creates one).
    before: JSON = None
    #: Its answer, a refusal, held back from being written.
    held: Held | None = None
    #: Its answer was to be written but is not, because of what the case is (a dataset's
    #: row, an ``expected_subset``): a note, not a failure.
    kept: str | None = None
    #: Its answer was to be written but cannot be: the case is a case error saying why.
    unwritten: bool = False
