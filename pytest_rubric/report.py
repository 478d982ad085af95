"""The text people read: a failing case, and the list of evaluators.

Formatting is plain string work: no source parsing, no traceback, so a run with
thousands of mismatches costs about what a passing run does.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pytest_rubric.compare import MISSING, differences
from pytest_rubric.evaluators import Evidence
from pytest_rubric.outcome import MISMATCHED, CaseOutcome
from pytest_rubric.registry import Evaluator


class RubricFailure(Exception):
    """Raised by a case's item when it mismatches or cannot be evaluated."""

    def __init__(self, outcome: CaseOutcome) -> None:
        super().__init__(outcome.case_id)
        self.outcome = outcome


def show(value: Any) -> str:
    """A value as JSON, so that ``true``, ``1`` and ``"true"`` look different."""
    if value is MISSING:
        return "(absent)"
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def format_failure(outcome: CaseOutcome) -> str:
    if outcome.outcome == MISMATCHED:
        return format_mismatch(outcome)
    lines = [f"{outcome.path}:{outcome.line}: {outcome.case_id!r} cannot be evaluated"]
    lines.extend(f"  {problem}" for problem in outcome.problems)
    return "\n".join(lines)


def format_mismatch(outcome: CaseOutcome) -> str:
    diffs = differences(outcome.expected, outcome.actual)
    keys = ", ".join(key for key, _, _ in diffs)
    lines = [
        f"{outcome.path}:{outcome.line}: {outcome.case_id!r} ({outcome.evaluator}) "
        f"differs from expected in {keys}",
    ]
    width = max(len(key) for key, _, _ in diffs)
    for key, expected, actual in diffs:
        lines.append(f"  {key.ljust(width)}  expected {show(expected)}")
        lines.append(f"  {' ' * width}  actual   {show(actual)}{slip_hint(expected, actual)}")
    lines.extend(format_evidence(outcome.evidence))
    return "\n".join(lines)


def slip_hint(expected: Any, actual: Any) -> str:
    """Name the classic slip when ``expected`` is ``actual`` written as the wrong type."""
    if type(actual) is bool:
        word = "true" if actual else "false"
        if isinstance(expected, str) and expected.strip().lower() == word:
            return f"  (expected is the string {show(expected)}; write {word} without quotes)"
        if type(expected) in (int, float) and expected == actual:
            return f"  (expected is the number {show(expected)}; write {word})"
    if isinstance(actual, str) and type(expected) in (int, float) and str(expected) == actual:
        return f"  (expected is the number {show(expected)}; quote it: '{actual}')"
    return ""


def format_evidence(evidence: Evidence | None) -> list[str]:
    if evidence is None:
        return []
    lines = ["evidence:"]
    if evidence.problem is not None:
        lines.append(f"  invalid input: {evidence.problem}")
    for label, value in evidence.facts.items():
        lines.append(f"  {label}: {show(value)}")
    return lines


def format_evaluators(entries: Sequence[tuple[Evaluator, str]]) -> str:
    """The listing ``--rubric-evaluators`` shows: name, source, description, codes."""
    lines = []
    for evaluator, source in entries:
        lines.append(f"{evaluator.name} -- {source}")
        lines.append(f"    {evaluator.description}")
        if evaluator.codes:
            lines.append(f"    answer codes: {', '.join(evaluator.codes)}")
        if evaluator.configure is not None:
            lines.append("    takes a 'rubric:' block")
    return "\n".join(lines)
