"""What became of one case: matched, mismatched, or not evaluable, with the evidence.

A :class:`CaseOutcome` is built where the case runs and travels as a plain JSON
record on pytest's test report, so the terminal summary and the JSON report see
the same data whether the case ran here or on a pytest-xdist worker.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pytest_rubric.compare import differences
from pytest_rubric.evaluators import Evidence

MATCHED = "matched"
MISMATCHED = "mismatched"
CASE_ERROR = "case-error"


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    """One case's result. ``actual`` is meaningful only when ``evaluated``."""

    nodeid: str
    case_id: str
    path: str
    line: int
    evaluator: str
    outcome: str
    input: Mapping[str, Any]
    expected: Mapping[str, Any]
    evaluated: bool = False
    actual: Any = None
    evidence: Evidence | None = None
    problems: tuple[str, ...] = ()
    #: Set when the input came from ``input_file``; the report names the file
    #: instead of copying a ledger that may hold a million rows.
    input_file: str = ""

    def differing_keys(self) -> list[str]:
        if not self.evaluated:
            return []
        return [key for key, _, _ in differences(self.expected, self.actual)]

    def to_record(self, *, full: bool) -> dict[str, Any]:
        """The JSON record of this outcome; ``full`` adds the input and the evidence."""
        record: dict[str, Any] = {
            "nodeid": self.nodeid,
            "case": self.case_id,
            "file": self.path,
            "line": self.line,
            "evaluator": self.evaluator,
            "outcome": self.outcome,
        }
        if self.evaluated:
            record["actual"] = jsonable(self.actual)
        if full:
            evidence = None
            if self.evidence is not None:
                evidence = {
                    "facts": jsonable(self.evidence.facts),
                    "problem": self.evidence.problem,
                }
            if self.input_file:
                record["inputFile"] = self.input_file
            else:
                record["input"] = self.input
            record.update(
                expected=self.expected,
                differingKeys=self.differing_keys(),
                evidence=evidence,
                problems=list(self.problems),
            )
        return record


def jsonable(value: Any) -> Any:
    """``value`` with anything JSON cannot hold replaced: tuples become lists,
    keys become strings, other objects their ``repr``. A third-party evaluator's
    answer must never break a report or pytest-xdist's transport."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    return repr(value)
