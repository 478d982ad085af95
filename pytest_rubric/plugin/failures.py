"""A failing case's words, in pytest's own failure shapes."""

from __future__ import annotations

import dataclasses

# pytest's failure representations; long stable, though not re-exported. Using
# the real ones means every reader of ``reprcrash`` (json-report, allure, GitHub
# annotations, pytest-xdist's transport, JUnit) sees what pytest's own failures give.
from _pytest._code.code import (
    ReprEntryNative,
    ReprExceptionInfo,
    ReprFileLocation,
    ReprTraceback,
)

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.reports.failure import format_failure, headline
from pytest_rubric.running.outcome import MATCHED, MISMATCHED, CaseOutcome


@dataclasses.dataclass(frozen=True, slots=True)
class Failure:
    """What a failing case's report shows, worded as it fails: pytest keeps the last
    failure's exception and frames (``sys.last_value``) to the end of the session, and
    they should not keep the case's answer (a large ledger's disagreement IDs) alive
    with them."""

    path: str
    line: int
    headline: str
    text: str

    def repr(self, *, brief: bool) -> ReprExceptionInfo:
        """As pytest's own failures are shaped: the whole text as the traceback, and
        ``path:line: <headline>`` as the crash location. ``brief`` (``--tb=line``)
        leaves only the crash location, as pytest's own do."""
        entries = [] if brief else [ReprEntryNative([self.text + "\n"])]
        return ReprExceptionInfo(
            reprtraceback=ReprTraceback(entries, None, "native"),
            reprcrash=ReprFileLocation(self.path, self.line, self.headline),
        )


class RubricMismatch(AssertionError):
    """A case's answer differs from its ``expected``: an assertion failure to every tool."""

    def __init__(self, name: str, failure: Failure) -> None:
        super().__init__(name)
        self.failure = failure


class RubricCaseError(Exception):
    """A case could not be evaluated (broken input, an evaluator that failed)."""

    def __init__(self, name: str, failure: Failure) -> None:
        super().__init__(name)
        self.failure = failure


class RubricStrictXPass(Exception):
    """A case marked ``xfail:`` (strict, the default) matched its expected answer."""

    def __init__(self, name: str, failure: Failure) -> None:
        super().__init__(name)
        self.failure = failure


#: What a case's failure is raised as.
CaseFailure = RubricMismatch | RubricCaseError | RubricStrictXPass


def failure_of(outcome: CaseOutcome, *, strict_xfail: str | None) -> CaseFailure | None:
    """The exception a case's ``outcome`` fails with, if it fails; ``strict_xfail``: the
    reason of its strict ``xfail:`` mark (then a match fails), when that mark holds."""
    name = outcome.case.name
    if outcome.outcome == MISMATCHED:
        return RubricMismatch(name, _failure_of(outcome))
    if outcome.outcome != MATCHED:
        return RubricCaseError(name, _failure_of(outcome))
    if strict_xfail is None:
        return None
    words = (
        f"{escape_controls(repr(name))} matched its expected answer, but it is "
        f"marked xfail ({escape_controls(strict_xfail)}); remove the 'xfail:', or write "
        "'xfail: {reason: ..., strict: false}' to let it pass as XPASS"
    )
    at = f"{outcome.path}:{outcome.case.line}"
    return RubricStrictXPass(
        name, Failure(outcome.path, outcome.case.line, words, f"{at}: {words}")
    )


def _failure_of(outcome: CaseOutcome) -> Failure:
    """The words of a mismatch or a case error."""
    return Failure(outcome.path, outcome.case.line, headline(outcome), format_failure(outcome))
