"""The text people read: a failing case, and the list of evaluators.

Formatting is plain string work: no source parsing, no traceback, so a run with
thousands of mismatches costs about what a passing run does. Everything taken
from data goes through :func:`~pytest_rubric.core.shown.show` or
:func:`~pytest_rubric.core.escapes.escape_controls`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rubric.core.compare import MISSING, differences
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.evaluator import Evaluator, Evidence
from pytest_rubric.core.shown import describe, show
from pytest_rubric.core.slips import boolean_slip
from pytest_rubric.running.outcome import MISMATCHED, CaseOutcome


def shown(value: object) -> str:
    """A value in a message: JSON text, or ``(absent)`` for a key one side lacks."""
    return repr(MISSING) if value is MISSING else show(value)


def where(outcome: CaseOutcome) -> str:
    """``path:line`` of the case in its case file; for a dataset's row, the row's place
    after it: ``rubrics/judge.rubric.yaml:4 (logs/decisions.jsonl:31)``."""
    row = outcome.case.row
    at = f"{outcome.path}:{outcome.case.line}"
    return at if row is None else f"{at} ({escape_controls(row.place)})"


def case_name(outcome: CaseOutcome) -> str:
    return escape_controls(repr(outcome.case.name))


def headline(outcome: CaseOutcome) -> str:
    """What went wrong in one line, without the place (pytest shows that beside it)."""
    if outcome.outcome == MISMATCHED:
        keys = ", ".join(escape_controls(key) for key, _, _ in _differences(outcome))
        evaluator = escape_controls(outcome.evaluator)
        return f"{case_name(outcome)} ({evaluator}) differs from expected in {keys}"
    first = outcome.problems[0].partition("\n")[0] if outcome.problems else ""
    return f"{case_name(outcome)} cannot be evaluated: {first}".rstrip(": ")


def _differences(outcome: CaseOutcome) -> list[tuple[str, object, object]]:
    """Where the answer differs from the expected one (the keys named, for a subset)."""
    return differences(outcome.case.expected, outcome.actual, subset=outcome.case.subset)


def format_failure(outcome: CaseOutcome) -> str:
    """The whole text of a failing case, starting ``path:line: <headline>``."""
    if outcome.outcome == MISMATCHED:
        return format_mismatch(outcome)
    lines = [f"{where(outcome)}: {case_name(outcome)} cannot be evaluated"]
    lines.extend(f"  {problem}" for problem in outcome.problems)
    return "\n".join(lines)


def format_mismatch(outcome: CaseOutcome) -> str:
    diffs = _differences(outcome)
    lines = [f"{where(outcome)}: {headline(outcome)}"]
    width = max((len(escape_controls(key)) for key, _, _ in diffs), default=0)
    for key, expected, actual in diffs:
        lines.append(f"  {escape_controls(key).ljust(width)}  expected {shown(expected)}")
        lines.append(f"  {' ' * width}  actual   {shown(actual)}{slip_hint(expected, actual)}")
    lines.extend(f"  {hint}" for hint in outcome.hints)
    lines.extend(format_evidence(outcome.evidence))
    return "\n".join(lines)


def slip_hint(expected: object, actual: object) -> str:
    """Name the classic slip when ``expected`` is ``actual`` written as the wrong type."""
    if type(actual) is bool:
        slip = boolean_slip(expected)
        if slip is not None and slip[0] is actual:
            return f"  (expected is {describe(expected)}; {slip[1]})"
    if (
        isinstance(actual, str)
        and type(expected) in (int, float)
        and len(actual) < 100
        and shown(expected) == actual
    ):
        return (
            f"  (expected is the number {shown(expected)}; quote it: '{escape_controls(actual)}')"
        )
    return ""


def format_evidence(evidence: Evidence | None) -> list[str]:
    if evidence is None:
        return []
    lines = ["evidence:"]
    if evidence.problem is not None:
        lines.append(f"  invalid input: {escape_controls(evidence.problem)}")
    for label, value in evidence.facts.items():
        if type(value) is dict and value and all(type(item) is dict for item in value.values()):
            # A breakdown (a grouped ledger's groups): a line for each part.
            lines.append(f"  {escape_controls(label)}:")
            lines.extend(f"    {show(part)}: {show(item)}" for part, item in value.items())
            continue
        lines.append(f"  {escape_controls(label)}: {show(value)}")
    return lines


def format_evaluators(entries: Sequence[tuple[Evaluator, str]]) -> str:
    """The listing ``--rubric-evaluators`` shows: name, source, description, codes."""
    lines = []
    for evaluator, source in entries:
        lines.append(f"{escape_controls(evaluator.name)} -- {escape_controls(source)}")
        lines.append(f"    {escape_controls(str(evaluator.description))}")
        if evaluator.codes:
            lines.append(
                f"    answer codes: {escape_controls(', '.join(map(str, evaluator.codes)))}"
            )
        if evaluator.configure is not None:
            lines.append("    takes a 'rubric:' block")
    return "\n".join(lines)
