"""The run's rubric results: a payload on each case's test report, gathered into one
record per case (a pytest-xdist controller receives its workers' reports here
too), then summarised in the terminal and written to ``--rubric-report``.

Nothing here may raise into pytest: under pytest-xdist a worker's internal error
ends as exit 0, so a hook that raised could turn a failing case into a pass.
Every hook body is guarded, and a case whose record cannot be made fails.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from pytest_rubric import __version__
from pytest_rubric.errors import ReportWriteError
from pytest_rubric.items import REPORT_DOMAIN, RubricItem, root_path
from pytest_rubric.jsonreport import document, write_atomically
from pytest_rubric.jsonvalues import escape_controls, plain
from pytest_rubric.loader import SUFFIXES as CASE_FILE_SUFFIXES
from pytest_rubric.outcome import CASE_ERROR, Outcome
from pytest_rubric.records import Payload, SummaryLine, base_record, record_of, stopped
from pytest_rubric.summary import summary_lines

#: A longer reason from another plugin (a timeout's stack dump, say) is cut.
MAX_WHY = 1000


class RubricRun:
    """Registered once per run; pytest calls its hooks."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.report_path: str | None = config.option.rubric_report
        self.cases: dict[str, Payload] = {}
        self.write_error: str | None = None
        self.hook_errors: list[str] = []
        # Workers only run cases; their controller summarises and writes.
        self.is_worker = hasattr(config, "workerinput")
        self._hidden: list[Any] | None = None

    # -- on the machine that runs a case -------------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if isinstance(item, RubricItem):
            try:
                payload = payload_of(item, report, full=self.report_path is not None)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # never lose the case: fail it, saying why
                payload = _unrecorded(item, report, exc)
            if payload is not None:
                # A plain JSON attribute travels with the report to an xdist controller.
                report.rubric = payload  # type: ignore[attr-defined]
        return report

    # -- where the run is gathered (serial run or xdist controller) ------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        try:
            self._gather(report)
        except Exception as exc:
            self.hook_errors.append(f"{type(exc).__name__}: {exc}")

    def _gather(self, report: pytest.TestReport) -> None:
        if report.when == "setup":
            # Each attempt starts anew (pytest-rerunfailures): the last one counts.
            self.cases.pop(report.nodeid, None)
        payload: Payload | None = getattr(report, "rubric", None)
        if payload is None:
            payload = _lost(report) if report.nodeid not in self.cases else None
        if payload is None:
            return
        record = payload["record"]
        known = self.cases.get(report.nodeid)
        if report.when == "teardown" and known is not None:
            # The case ran; its teardown failing makes it a case error too.
            merged = stopped(known["record"], CASE_ERROR, record.get("problems", [""])[-1])
            self.cases[report.nodeid] = {"record": merged, "summary": known["summary"]}
            return
        record["duration"] = round(report.duration, 6)
        self.cases[report.nodeid] = payload

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.report_path is None or self.is_worker:
            return
        options = self.config.option
        if options.collectonly or options.rubric_evaluators:
            return  # nothing ran: keep the report of the last run that did
        try:
            data = document(
                (payload["record"] for payload in self.cases.values()),
                int(session.exitstatus),
                __version__,
            )
            write_atomically(Path(self.report_path), data)
        except ReportWriteError as exc:
            self.write_error = str(exc)
        except Exception as exc:
            self.write_error = f"the rubric report was not written: {type(exc).__name__}: {exc}"
        if self.write_error is not None and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    # -- the terminal ---------------------------------------------------------

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.is_worker:
            return
        try:
            self._summary(terminalreporter)
        except Exception as exc:
            terminalreporter.write_line(f"rubric summary could not be shown: {type(exc).__name__}")

    def _summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        brief = terminalreporter.verbosity <= -2
        if self.cases:
            lines = summary_lines(list(self.cases.values()), self.report_path, brief=brief)
            if self.write_error is not None and not brief:
                lines.pop()  # not "full report: PATH": the error below says what happened
            if not brief:
                terminalreporter.write_sep("=", "rubric summary")
            for line in lines:
                terminalreporter.write_line(line)
        for problem in self.hook_errors[:3]:
            terminalreporter.write_line(
                f"rubric: a test report could not be read: {problem}", red=True
            )
        if self.write_error is not None:
            terminalreporter.write_line(f"ERROR: {escape_controls(self.write_error)}", red=True)

    # pytest prints each failure's teardown sections by rescanning every passed
    # setup/teardown report (pytest-dev/pytest#13360): O(failures x items), which
    # makes 3,000 mismatches in 10,000 cases cost seconds of summary. Our items'
    # quiet phase reports have no sections, so they can never print anything
    # there: hide them while pytest writes its failure sections (the outermost
    # wrapper), and put them back before anything else, such as --durations,
    # reads the stats (the innermost wrapper, which runs right after those sections).

    def _hide_quiet(self, terminalreporter: pytest.TerminalReporter) -> None:
        quiet = terminalreporter.stats.get("")
        if quiet:
            self._hidden = quiet
            terminalreporter.stats[""] = [r for r in quiet if not _is_silent_rubric_phase(r)]

    def _restore_quiet(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self._hidden is not None:
            terminalreporter.stats[""] = self._hidden
            self._hidden = None


class _HideQuietPhases:
    """The outer half of the workaround above: a wrapper that runs first."""

    def __init__(self, run: RubricRun) -> None:
        self.run = run

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_terminal_summary(
        self, terminalreporter: pytest.TerminalReporter
    ) -> Generator[None, None, None]:
        with contextlib.suppress(Exception):
            self.run._hide_quiet(terminalreporter)
        try:
            return (yield)
        finally:
            self.run._restore_quiet(terminalreporter)


class _RestoreQuietPhases:
    """The inner half: a wrapper that runs last, after pytest's failure sections."""

    def __init__(self, run: RubricRun) -> None:
        self.run = run

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_terminal_summary(
        self, terminalreporter: pytest.TerminalReporter
    ) -> Generator[None, None, None]:
        self.run._restore_quiet(terminalreporter)
        return (yield)


def register(config: pytest.Config) -> RubricRun:
    """Make the run's results object and register it, with the summary workaround."""
    run = RubricRun(config)
    config.pluginmanager.register(run, "rubric-run")
    config.pluginmanager.register(_HideQuietPhases(run), "rubric-hide-quiet-phases")
    config.pluginmanager.register(_RestoreQuietPhases(run), "rubric-restore-quiet-phases")
    return run


def _lost(report: pytest.TestReport) -> Payload | None:
    """A record for a case whose own report never came: pytest-xdist reports a
    crashed worker's case as failed, without the payload its worker would have sent."""
    path, sep, case = report.nodeid.partition("::")
    if not (report.failed and sep and path.endswith(CASE_FILE_SUFFIXES)):
        return None
    location = getattr(report, "location", None)
    line = location[1] + 1 if location and isinstance(location[1], int) else 1
    record = base_record(
        nodeid=report.nodeid,
        case=case,
        file=path,
        line=line,
        index=0,
        evaluator="(unknown)",
        outcome=CASE_ERROR,
    )
    # What the case file said is not known here: the report's keys stay, empty.
    record["input"] = {}
    record["expected"] = {}
    record["differingKeys"] = []
    record["evidence"] = None
    return {
        "record": stopped(record, CASE_ERROR, f"its run was lost: {_why(report)}"),
        "summary": None,
    }


def _is_silent_rubric_phase(report: Any) -> bool:
    location = getattr(report, "location", None)
    return (
        not getattr(report, "sections", True)
        and location is not None
        and location[2].startswith(REPORT_DOMAIN)
    )


def payload_of(item: RubricItem, report: pytest.TestReport, *, full: bool) -> Payload | None:
    """The payload a phase report of ``item`` carries, or ``None`` when this phase
    decides nothing (a passing setup, a passing teardown)."""
    when = report.when
    if when != "call" and report.passed:
        return None
    config = item.config
    result = item.result if when == "call" else None
    if result is not None:
        record = record_of(
            result,
            nodeid=item.nodeid,
            file=root_path(config, item.path),
            input_file=root_path(config, item.case.input_file) if item.case.input_file else "",
            full=full,
        )
    else:
        record = base_record(
            nodeid=item.nodeid,
            case=item.case.name,
            file=root_path(config, item.path),
            line=item.case.line,
            index=item.case.index,
            evaluator=item.evaluator.name,
            outcome=CASE_ERROR,
        )
        if full:
            if item.case.input_file is not None:
                record["inputFile"] = root_path(config, item.case.input_file)
            else:
                record["input"] = plain(item.case.input)
            record["expected"] = plain(item.case.expected)
            record["differingKeys"] = []
            record["evidence"] = None
            record["problems"] = []
    pytest_outcome = _pytest_outcome(report)
    if item.strict_xpass and when == "call" and item.case.marks.xfail is not None:
        record = stopped(record, "xpassed", escape_controls(item.case.marks.xfail.reason))
    elif pytest_outcome is not None:
        record = stopped(record, pytest_outcome, _why(report))
    elif result is None or (report.failed and result.outcome == "matched"):
        record = stopped(record, CASE_ERROR, f"{_phase(when)}: {_why(report)}")
    return {"record": record, "summary": _summary_line(item, result)}


def _pytest_outcome(report: pytest.TestReport) -> Outcome | None:
    """The outcome pytest decided (a skip or an xfail mark), if it decided one."""
    if hasattr(report, "wasxfail"):
        return "xfailed" if report.skipped else "xpassed"
    if report.skipped:
        return "skipped"
    return None


def _phase(when: str) -> str:
    return {
        "setup": "stopped before it ran",
        "call": "stopped while it ran",
        "teardown": "its teardown failed",
    }[when]


def _why(report: pytest.TestReport) -> str:
    """One line saying why pytest or another plugin ended the case as it did."""
    wasxfail = getattr(report, "wasxfail", None)
    if wasxfail:
        text = str(wasxfail)
    else:
        longrepr = report.longrepr
        crash = getattr(longrepr, "reprcrash", None)
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            text = str(longrepr[2])  # a skip: (path, line, reason)
        elif crash is not None:
            text = str(getattr(crash, "message", ""))
        else:
            text = str(longrepr or "")
        text = text.removeprefix("Skipped: ")
    text = text.strip().partition("\n")[0] or "no reason given"
    text = escape_controls(text)
    return text if len(text) <= MAX_WHY else f"{text[: MAX_WHY - 1]}…"


def _summary_line(item: RubricItem, result: Any) -> SummaryLine | None:
    summary = item.evaluator.summary
    if summary is None or result is None or not result.evaluated:
        return None
    try:
        line = summary.line(result.actual)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit too: a summary line never ends a run
        line = f"(its summary line failed: {type(exc).__name__})"
    if line is None:
        return None
    return {"title": escape_controls(str(summary.title)), "line": escape_controls(str(line))}


def _unrecorded(item: RubricItem, report: pytest.TestReport, exc: BaseException) -> Payload | None:
    """A case whose record could not be made: it fails, saying so."""
    why = f"its record could not be made: {type(exc).__name__}"
    with contextlib.suppress(Exception):
        why += f": {escape_controls(str(exc))[:200]}"
    if report.when == "call" or report.failed:
        report.outcome = "failed"
        report.longrepr = f"{item.display}:{item.case.line}: {why}"
    record = base_record(
        nodeid=item.nodeid,
        case=item.case.name,
        file=item.display,
        line=item.case.line,
        index=item.case.index,
        evaluator=item.evaluator.name,
        outcome=CASE_ERROR,
    )
    record["problems"] = [why]
    return {"record": record, "summary": None}
