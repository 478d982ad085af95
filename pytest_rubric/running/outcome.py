"""What became of one case: the words for it, and the result the runner hands back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypedDict

from pytest_rubric.core.compare import differences
from pytest_rubric.core.jsonvalues import JSON

if TYPE_CHECKING:
    from pytest_rubric.casefiles.cases import Case
    from pytest_rubric.core.evaluator import Evidence

#: Every way a case can end. The first three are decided by running the case;
#: the others are pytest's, when a mark or another plugin decides instead.
Outcome = Literal["matched", "mismatched", "case-error", "skipped", "xfailed", "xpassed"]
OUTCOMES: tuple[Outcome, ...] = (
    "matched",
    "mismatched",
    "case-error",
    "skipped",
    "xfailed",
    "xpassed",
)
MATCHED: Outcome = "matched"
MISMATCHED: Outcome = "mismatched"
CASE_ERROR: Outcome = "case-error"


class _ReviewKeys(TypedDict):
    rows: list[JSON]
    more: int


class ReviewRecord(_ReviewKeys, total=False):
    """The rows of a ledger a person should review (an evaluator's ``review``), at most
    as many as the run keeps, in ledger order, and how many more there were; with the
    names people read for graders a and b when the case's ``ledger:`` gives them, and
    its groups when it gives ``group_by``."""

    graders: dict[str, str]
    #: ``group_by`` as written, and the ledger by group (see
    #: :mod:`pytest_rubric.inputs.groups`); each row then names its group's label.
    groupBy: str
    groups: list[JSON]


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    """One case's result, as :func:`pytest_rubric.running.runner.run_case` gives it.

    ``actual`` is the evaluator's answer (plain JSON types) and is meaningful
    only when ``evaluated``. ``review`` is the :class:`ReviewRecord` of the rows the
    evaluator's ``review`` picked, when a report asked for them (each row a plain copy
    of what was yielded, so an evaluator that yields one dict again changes none of them).
    """

    case: Case
    path: str  # as people read it: relative to where pytest was started
    evaluator: str
    outcome: Outcome
    evaluated: bool = False
    actual: JSON = None
    evidence: Evidence | None = None
    problems: tuple[str, ...] = ()
    review: ReviewRecord | None = None
    #: ``actual`` and the evidence's facts are as :func:`~pytest_rubric.core.jsonvalues.plain`
    #: keeps them (text UTF-8 can encode, integers ``str`` prints): a record takes them
    #: as they are.
    clean: bool = False
    #: ``actual``'s packed JSON text is the case's ``expected`` as packed: the same value.
    as_written: bool = False
    #: For a mismatch: keys of ``expected`` that look misspelt, each with the one meant.
    hints: tuple[str, ...] = ()

    def differing_keys(self) -> list[str]:
        if not self.evaluated or self.outcome == MATCHED:  # a match differs nowhere
            return []
        found = differences(self.case.expected, self.actual, subset=self.case.subset)
        return [key for key, _, _ in found]
