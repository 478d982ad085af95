"""The hooks that run for each test: a payload put on a case's reports where it runs,
and gathered where the run is (serial run or xdist controller). Registered once a case
file is collected: a run of plain tests never calls them.

Nothing here may raise into pytest: under pytest-xdist a worker's internal error ends as
exit 0, so a hook that raised could turn a failing case into a pass. A case whose
record cannot be made fails.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from typing import TYPE_CHECKING, Protocol

import pytest

from pytest_rubric.casefiles.suffixes import SUFFIXES
from pytest_rubric.plugin.state import rubric_item_type

if TYPE_CHECKING:
    from pytest_rubric.plugin.items import RubricItem
    from pytest_rubric.plugin.payloads import Payload


class RubricRun(Protocol):
    """What the run keeps that the hooks here read and fill
    (:class:`pytest_rubric.plugin.results.RubricRun`)."""

    config: pytest.Config
    #: The payloads gathered, by node ID.
    cases: dict[str, Payload]
    hook_errors: list[str]
    is_worker: bool
    #: Whether records are full (a report or page reads them).
    full: bool


class CaseReports:
    """Each case's payload made with its report, and gathered into the run's cases."""

    def __init__(self, run: RubricRun) -> None:
        self.run = run

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if report.when != "call" and report.passed:
            return report  # a passing setup or teardown decides nothing, for any test
        kind = rubric_item_type()
        if kind is not None and isinstance(item, kind):
            case: RubricItem = item  # type: ignore[assignment]  # narrowed by the check above
            try:
                payload = case.payload(report, full=self.run.full)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # never lose the case: fail it, saying why
                payload = unrecorded(case, report, exc, full=self.run.full)
            # A plain JSON attribute travels with the report to an xdist controller.
            report.rubric = payload  # type: ignore[attr-defined]
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        try:
            gather(self.run, report)
        except Exception as exc:
            self.run.hook_errors.append(f"{type(exc).__name__}: {exc}")


def gather(run: RubricRun, report: pytest.TestReport) -> None:
    """Keep the payload ``report`` carries in ``run.cases``: one per case, the last
    attempt's, its teardown's failure added to it."""
    cases = run.cases
    if report.when == "setup":
        # Each attempt starts anew (pytest-rerunfailures): the last one counts.
        cases.pop(report.nodeid, None)
    payload: Payload | None = getattr(report, "rubric", None)
    if payload is not None and not run.is_worker:
        # Gathered here: pytest keeps every report to the session's end, and a record's
        # values need not live on with them (a worker's report still has to travel).
        del report.rubric
    if payload is None:
        if not report.failed:
            return  # nothing to gather: only a failed report can be a lost case's
        path, sep, _ = report.nodeid.partition("::")
        if not (sep and path.endswith(SUFFIXES)):
            return  # not a case whose run was lost (pytest-xdist)
        if report.nodeid in cases:
            return
        from pytest_rubric.plugin.payloads import lost

        payload = lost(report, full=run.full)
    if payload is None:
        return
    from pytest_rubric.reports.sealing import sealed, unsealed

    record = unsealed(payload["record"])  # as made for this report: never sealed yet
    known = cases.get(report.nodeid)
    if report.when == "teardown" and known is not None:
        # The case ran; its teardown failing makes it a case error too.
        from pytest_rubric.reports.caserecords import stopped

        merged = stopped(known["record"], "case-error", record.get("problems", [""])[-1])
        cases[report.nodeid] = {"record": merged, "summary": known["summary"]}
        return
    record["duration"] = round(report.duration, 6)
    if run.full:  # kept as the report will write it
        payload["record"] = sealed(record, payload.pop("input", None))
    if not cases:
        from pytest_rubric.plugin.quiet import work_around_quiet_phases

        work_around_quiet_phases(run.config)
    cases[report.nodeid] = payload


def unrecorded(
    item: RubricItem, report: pytest.TestReport, exc: BaseException, *, full: bool
) -> Payload:
    """A case whose record could not be made: it fails, saying so, recorded as a case
    that never ran to an outcome."""
    from pytest_rubric.core.escapes import escape_controls
    from pytest_rubric.plugin.payloads import payload_of

    why = f"its record could not be made: {type(exc).__name__}"
    with contextlib.suppress(Exception):
        why += f": {escape_controls(str(exc))[:200]}"
    if report.when == "call" or report.failed:
        report.outcome = "failed"
        report.longrepr = f"{item.display}:{item.case.line}: {why}"
    return payload_of(item.record_of(), None, full=full, ended=("case-error", why))
