"""The run's rubric results: a payload on each case's test report, gathered into one
record per case (a pytest-xdist controller receives its workers' reports here
too), then summarised in the terminal and written to ``--rubric-report``.

Until a case file is collected (a pytest-xdist controller: until a worker says it
collected one) no hook runs for each test:
:class:`~pytest_rubric.plugin.casereports.CaseReports`, which reads each test's reports,
is registered then. The run's other hooks run once a session.

Nothing here may raise into pytest: under pytest-xdist a worker's internal error
ends as exit 0, so a hook that raised could turn a failing case into a pass.
Every hook body is guarded, and a case whose record cannot be made fails.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_rubric.casefiles.suffixes import SUFFIXES
from pytest_rubric.plugin.outputs import WORKER_REFUSED, refused_of
from pytest_rubric.plugin.state import rubric_item_type, wants_full_records

if TYPE_CHECKING:
    from pytest_rubric.plugin.payloads import Payload
    from pytest_rubric.reports.diff import Comparison
    from pytest_rubric.reports.records import SuiteRecord

#: How a run ends that stopped before its cases (a usage error, or, under pytest-xdist, the
#: workers' collection errors it turns into).
_STOPPED = (
    pytest.ExitCode.USAGE_ERROR,
    pytest.ExitCode.INTERRUPTED,
    pytest.ExitCode.INTERNAL_ERROR,
)
#: The key of the suite a pytest-xdist worker collected, in its ``workeroutput``.
_WORKER_SUITE = "rubric_suite"


class RubricRun:
    """Registered once per run; pytest calls its hooks."""

    def __init__(self, config: pytest.Config, baseline: Mapping[str, Any] | None = None) -> None:
        self.config = config
        #: ``--rubric-baseline``'s report, read before any case ran (not on a worker).
        self.baseline = baseline
        #: What changed since the baseline, once the run is over; or why it was not told.
        self.comparison: Comparison | None = None
        self.comparison_error: str | None = None
        self.report_path: str | None = config.option.rubric_report
        self.cases: dict[str, Payload] = {}
        self.write_error: str | None = None
        #: Why the Markdown was not written: said, never a change of the outcome.
        self.markdown_error: str | None = None
        self.hook_errors: list[str] = []
        # Workers only run cases; their controller summarises and writes.
        self.is_worker = hasattr(config, "workerinput")
        #: Whether records are full (a report or page reads them).
        self.full = wants_full_records(config)
        # Rubric node IDs before any deselection, then the suite once collection ends.
        self._collected: list[str] | None = None
        self.suite: SuiteRecord | None = None

    # -- where cases are collected (serial run or xdist worker) ---------------------

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_collection_modifyitems(
        self, items: list[pytest.Item]
    ) -> Generator[None, None, None]:
        # Before every other plugin's turn: -k, -m, --deselect, --lf, pytest-split
        # and pytest-shard all deselect inside this hook. The suite is what a report or
        # a page says (a pytest-xdist worker's, its controller's): without one, none is made.
        if self.full:
            try:
                self._collected = [item.nodeid for item in _rubric_items(items)]
            except Exception as exc:
                self.hook_errors.append(f"{type(exc).__name__}: {exc}")
        return (yield)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if self.is_worker:  # the outputs its cases read, for the controller that writes them
            self.config.workeroutput[WORKER_REFUSED] = refused_of(self.config)  # type: ignore[attr-defined]
        if self._collected is None:
            return  # no report or page is written, or collection did not finish
        try:
            from pytest_rubric.reports.suites import suite_record

            selected = len(_rubric_items(session.items))
            self.suite = suite_record(self._collected, selected)
            if self.is_worker:  # sent to the controller when the worker finishes
                self.config.workeroutput[_WORKER_SUITE] = self.suite  # type: ignore[attr-defined]
        except Exception as exc:
            self.hook_errors.append(f"{type(exc).__name__}: {exc}")

    def pytest_unconfigure(self) -> None:
        # What the run kept of its cases is of no more use: freed now, not walked by
        # pytest's last collection of the garbage collector.
        self.cases = {}

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """A pytest-xdist controller collects nothing: its workers say what they collected
        (every worker collects the same suite)."""
        try:
            output = getattr(node, "workeroutput", {})
            suite = output.get(_WORKER_SUITE)
            if self.suite is None and isinstance(suite, dict):
                self.suite = suite  # type: ignore[assignment]
            refused = output.get(WORKER_REFUSED)
            if isinstance(refused, dict):
                refused_of(self.config).update(
                    (str(option), str(why)) for option, why in refused.items()
                )
        except Exception as exc:
            self.hook_errors.append(f"{type(exc).__name__}: {exc}")

    def watch_cases(self) -> None:
        """Read each test's reports from now on (once a case file is collected), and run
        this run's hooks if they do not run yet."""
        manager = self.config.pluginmanager
        if manager.get_plugin(_RUN) is None:
            manager.register(self, _RUN)
        if manager.get_plugin(_CASE_REPORTS) is None:
            from pytest_rubric.plugin.casereports import CaseReports

            manager.register(CaseReports(self), _CASE_REPORTS)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        html_path: str | None = self.config.option.rubric_html
        markdown_path: str | None = self.config.option.rubric_markdown
        wanted = self.report_path is not None or html_path is not None or markdown_path is not None
        if not (wanted or self.baseline is not None) or self.is_worker:
            return
        options = self.config.option
        if _runs_nothing(options):
            return  # nothing ran, by how it was asked: keep the report of the last run that did
        if session.exitstatus in _STOPPED and not self.cases:
            return  # stopped before any case ran (a usage error): likewise
        try:
            from pytest_rubric.core.version import version
            from pytest_rubric.plugin.shards import shard_of
            from pytest_rubric.reports.jsonreport import document

            data = document(
                (payload["record"] for payload in self.cases.values()),
                int(session.exitstatus),
                version(),
                suite=self.suite,
                shard=shard_of(self.config.getoption),
            )
        except Exception as exc:
            self.write_error = f"the rubric report was not made: {type(exc).__name__}: {exc}"
            data = None
        if data is not None and self.baseline is not None:
            self._compare(self.baseline, data)
        from pytest_rubric.core.files import write_text_atomically
        from pytest_rubric.reports.jsonreport import write_report

        refused = refused_of(self.config)
        if refused:  # each would replace a file the run's cases read
            self.write_error = self.write_error or "; ".join(refused.values())
            html_path = None if "--rubric-html" in refused else html_path
            markdown_path = None if "--rubric-markdown" in refused else markdown_path
        if data is not None and self.report_path is not None and "--rubric-report" not in refused:
            path = Path(self.report_path)
            self._write("the rubric report", lambda: write_report(path, data))
        if data is not None and html_path is not None:
            from pytest_rubric.reports.htmlpage import review_page

            comparison = self.comparison
            self._write(
                "the rubric review page",
                lambda: write_text_atomically(
                    Path(html_path),
                    review_page(data, comparison=comparison),
                    what="the rubric review page",
                ),
            )
        if self.write_error is not None and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if data is not None and markdown_path is not None:
            self._write_markdown(markdown_path, data)

    def _write_markdown(self, path: str, data: dict[str, Any]) -> None:
        """The run's Markdown, after the outcome is settled: it never changes it, and a
        write that fails is said in the summary."""
        import os

        try:
            from pytest_rubric.reports.markdown import DEFAULT_LIMIT, run_markdown
            from pytest_rubric.reports.mdtext import DEFAULT_MARKER
            from pytest_rubric.reports.mdwrite import write_markdown

            options = self.config.option
            since = []
            if self.comparison is not None:
                from pytest_rubric.reports.mdchanges import baseline_parts

                since = baseline_parts(self.comparison, options.rubric_baseline)
            text = run_markdown(
                data,
                since=since,
                limit=options.rubric_markdown_limit or DEFAULT_LIMIT,
                marker_name=options.rubric_markdown_marker or DEFAULT_MARKER,
            )
            write_markdown(path, text, os.environ, what="the rubric Markdown")
        except Exception as exc:
            from pytest_rubric.core.errors import ReportWriteError

            if isinstance(exc, ReportWriteError):
                self.markdown_error = str(exc)
            else:
                self.markdown_error = (
                    f"the rubric Markdown was not written: {type(exc).__name__}: {exc}"
                )

    def _compare(self, before: Mapping[str, Any], data: dict[str, Any]) -> None:
        """What changed since the baseline, for the summary and the page; a comparison
        that fails says so in the summary and changes nothing else."""
        try:
            from pytest_rubric.reports.diff import compare
            from pytest_rubric.reports.sealing import unsealed

            whole = {**data, "cases": [unsealed(record) for record in data["cases"]]}
            baseline: str = self.config.option.rubric_baseline
            self.comparison = compare(before, whole, baseline, self.report_path or RUN)
        except Exception as exc:
            self.comparison_error = f"{type(exc).__name__}: {exc}"

    def _write(self, what: str, write: Callable[[], None]) -> None:
        from pytest_rubric.core.errors import ReportWriteError

        try:
            write()
        except ReportWriteError as exc:
            self.write_error = self.write_error or str(exc)
        except Exception as exc:
            self.write_error = self.write_error or (
                f"{what} was not written: {type(exc).__name__}: {exc}"
            )

    # -- the terminal ---------------------------------------------------------

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.is_worker:
            return
        try:
            self._summary(terminalreporter)
        except Exception as exc:
            terminalreporter.write_line(f"rubric summary could not be shown: {type(exc).__name__}")

    def _summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if (
            not self.cases
            and not self.hook_errors
            and self.write_error is None
            and self.markdown_error is None
            and self.comparison is None
            and self.comparison_error is None
        ):
            return
        from pytest_rubric.core.escapes import escape_controls
        from pytest_rubric.reports.summary import summary_lines

        brief = terminalreporter.verbosity <= -2
        if self.cases:
            cases = [(payload["record"], payload["summary"]) for payload in self.cases.values()]
            lines = summary_lines(cases, self.report_path, brief=brief, since=self._since())
            if self.write_error is not None and not brief:
                lines.pop()  # not "full report: PATH": the error below says what happened
            if not brief:
                terminalreporter.write_sep("=", "rubric summary")
            for line in lines:
                terminalreporter.write_line(line)
        elif self.comparison is not None or self.comparison_error is not None:
            terminalreporter.write_sep("=", "rubric summary")
            for line in self._since():
                terminalreporter.write_line(line)
        for problem in self.hook_errors[:3]:
            terminalreporter.write_line(
                f"rubric: a test report could not be read: {problem}", red=True
            )
        if self.write_error is not None:
            terminalreporter.write_line(f"ERROR: {escape_controls(self.write_error)}", red=True)
        if self.markdown_error is not None:
            terminalreporter.write_line(f"ERROR: {escape_controls(self.markdown_error)}", red=True)

    def _since(self) -> list[str]:
        """The summary's lines on what changed since the baseline, if one was given."""
        from pytest_rubric.core.escapes import escape_controls

        baseline: str | None = self.config.option.rubric_baseline
        if self.comparison_error is not None:
            return [
                f"the comparison with baseline {escape_controls(baseline or '')} was not made: "
                f"{escape_controls(self.comparison_error)}"
            ]
        if self.comparison is None or baseline is None:
            return []
        from pytest_rubric.reports.difftext import baseline_lines
        from pytest_rubric.reports.summary import MAX_BASELINE_LINES

        return baseline_lines(self.comparison, baseline, limit=MAX_BASELINE_LINES)


#: What a comparison with the baseline calls this run when it writes no report.
RUN = "this run"
_CASE_REPORTS = "rubric-case-reports"
_RUN = "rubric-run"
_run_key = pytest.StashKey[RubricRun]()


def register(config: pytest.Config, *, baseline: Mapping[str, Any] | None = None) -> RubricRun:
    """Make the run's results object; register its hooks now only when a report, a page,
    the Markdown or a baseline has work for them at the session's end whatever is
    collected. Otherwise they follow with the first case file collected, as the hooks for
    each test do (the summary workaround with the first case gathered): a run without
    one never needs them. ``baseline`` is ``--rubric-baseline``'s report."""
    run = RubricRun(config, baseline)
    config.stash[_run_key] = run
    if run.full:
        config.pluginmanager.register(run, _RUN)
    return run


def run_of(config: pytest.Config) -> RubricRun:
    """The run's results object, made now if no report, page, Markdown, baseline or
    update asked for it when pytest was configured."""
    run = config.stash.get(_run_key, None)
    return register(config) if run is None else run


def watch_cases(config: pytest.Config) -> None:
    """A case file is collected: read each test's reports from now on."""
    run_of(config).watch_cases()


def node_collected(config: pytest.Config, ids: Sequence[str]) -> None:
    """A pytest-xdist controller collects nothing: it reads each test's reports once a
    worker says (``ids``) it collected a case. Never raises."""
    try:
        if any(nodeid.partition("::")[0].endswith(SUFFIXES) for nodeid in ids):
            run_of(config).watch_cases()
    except Exception as exc:
        run = config.stash.get(_run_key, None)
        if run is not None:
            run.hook_errors.append(f"{type(exc).__name__}: {exc}")


def _runs_nothing(options: Any) -> bool:
    """Whether the run was asked for something other than running its cases: collecting
    only, listing fixtures or evaluators, planning setups, writing the schema."""
    return bool(
        options.collectonly
        or options.rubric_evaluators
        or getattr(options, "rubric_check", False)
        or options.rubric_schema is not None
        or getattr(options, "showfixtures", False)
        or getattr(options, "show_fixtures_per_test", False)
        or getattr(options, "setupplan", False)
        or getattr(options, "setuponly", False)
    )


def _rubric_items(items: Iterable[pytest.Item]) -> list[pytest.Item]:
    """The rubric cases among ``items``."""
    kind = rubric_item_type()
    return [] if kind is None else [item for item in items if isinstance(item, kind)]
