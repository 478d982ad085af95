"""Outcomes of one case, and the text people read when a case fails.

Formatting is plain string work: no source parsing, no traceback, so a run with
thousands of mismatches costs about what a passing run does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_rubric.compare import MISSING, differences, json_equal
from pytest_rubric.evaluators import Evidence
from pytest_rubric.registry import Evaluator


@dataclass(frozen=True, slots=True)
class Verdict:
    """An evaluator's answer set against a case's expected answer."""

    case_id: str
    path: str
    line: int
    evaluator: str
    expected: Mapping[str, Any]
    actual: Any
    evidence: Evidence | None

    @property
    def matched(self) -> bool:
        return json_equal(self.expected, self.actual)

    def differences(self) -> list[tuple[str, Any, Any]]:
        return differences(self.expected, self.actual)


class RubricMismatch(Exception):
    """Raised by a case's item when the answer differs from ``expected``."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.case_id)
        self.verdict = verdict


class RubricCaseError(Exception):
    """Raised by a case's item when the case cannot be evaluated at all."""

    def __init__(self, case_id: str, path: str, line: int, problems: Sequence[str]) -> None:
        super().__init__(case_id)
        self.case_id = case_id
        self.path = path
        self.line = line
        self.problems = tuple(problems)


def show(value: Any) -> str:
    """A value as JSON, so that ``true``, ``1`` and ``"true"`` look different."""
    if value is MISSING:
        return "(absent)"
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def format_mismatch(verdict: Verdict) -> str:
    diffs = verdict.differences()
    keys = ", ".join(key for key, _, _ in diffs)
    lines = [
        f"{verdict.path}:{verdict.line}: {verdict.case_id!r} ({verdict.evaluator}) "
        f"differs from expected in {keys}",
    ]
    width = max(len(key) for key, _, _ in diffs)
    for key, expected, actual in diffs:
        lines.append(f"  {key.ljust(width)}  expected {show(expected)}")
        lines.append(f"  {' ' * width}  actual   {show(actual)}{slip_hint(expected, actual)}")
    lines.extend(format_evidence(verdict.evidence))
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


def format_case_error(error: RubricCaseError) -> str:
    lines = [f"{error.path}:{error.line}: {error.case_id!r} cannot be evaluated"]
    lines.extend(f"  {problem}" for problem in error.problems)
    return "\n".join(lines)


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
