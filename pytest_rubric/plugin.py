"""The pytest layer: case files become collectors, cases become items."""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

# pytest's failure-representation base class; long stable, though not re-exported.
from _pytest._code.code import TerminalRepr

from pytest_rubric import __version__
from pytest_rubric.compare import json_equal
from pytest_rubric.discovery import EvaluatorDiscovery, RegistrationError
from pytest_rubric.errors import CaseFileError, RubricConfigError, RubricInputError
from pytest_rubric.evaluators import Evidence
from pytest_rubric.jsonreport import document, report_path, write_atomically
from pytest_rubric.ledgers import RowReader, read_json
from pytest_rubric.loader import Case, CaseFile, is_case_file, load_case_file
from pytest_rubric.outcome import CASE_ERROR, MATCHED, MISMATCHED, CaseOutcome
from pytest_rubric.registry import Evaluator
from pytest_rubric.report import RubricFailure, format_evaluators, format_failure
from pytest_rubric.summary import summary_lines

if TYPE_CHECKING:
    from _pytest._code.code import TracebackStyle
    from _pytest._io import TerminalWriter

#: How a case's report names it; also how our reports are told apart from others.
REPORT_DOMAIN = "[rubric] "

_discovery_key = pytest.StashKey["EvaluatorDiscovery"]()
_run_key = pytest.StashKey["RubricRun"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rubric", "rubric case files (pytest-rubric)")
    group.addoption(
        "--rubric-evaluators",
        action="store_true",
        dest="rubric_evaluators",
        default=False,
        help="show the registered rubric evaluators and where each comes from, then exit",
    )
    group.addoption(
        "--rubric-report",
        action="store",
        dest="rubric_report",
        metavar="PATH",
        default=None,
        type=report_path,
        help="write a JSON report with a record per rubric case (input, expected, actual, "
        "evidence) to PATH",
    )


def pytest_cmdline_main(config: pytest.Config) -> int | pytest.ExitCode | None:
    if config.option.rubric_evaluators:
        # As pytest's own --fixtures does: a session that collects (so that
        # conftest files are loaded) and then shows, instead of running tests.
        from _pytest.main import wrap_session

        return wrap_session(config, _show_evaluators)
    return None


def _show_evaluators(config: pytest.Config, session: pytest.Session) -> int:
    session.perform_collect()
    try:
        entries = config.stash[_discovery_key].entries()
    except RegistrationError as exc:
        raise pytest.UsageError(str(exc)) from None
    writer = config.get_terminal_writer()
    writer.line()
    writer.sep("-", f"rubric evaluators ({len(entries)})")
    writer.line(format_evaluators(entries))
    return 0


def pytest_configure(config: pytest.Config) -> None:
    discovery = EvaluatorDiscovery(config.rootpath)
    config.stash[_discovery_key] = discovery
    config.pluginmanager.register(_PluginFeed(discovery), "rubric-plugin-feed")
    # Plugins, entry points and the conftests loaded so far are known now: a broken
    # one stops the run before collection (conftests found later fail their case files).
    problems = discovery.problems()
    if problems:
        raise pytest.UsageError("\n".join(problems))
    run = RubricRun(config)
    config.stash[_run_key] = run
    config.pluginmanager.register(run, "rubric-run")


class RubricRun:
    """The run's rubric results: gathered from test reports (a pytest-xdist
    controller receives its workers' reports here too), summarised, reported."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.report_path: str | None = config.option.rubric_report
        self.records: list[dict[str, Any]] = []
        self.durations: list[float] = []
        # Workers only run cases; their controller summarises and writes.
        self.is_worker = hasattr(config, "workerinput")

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if call.when == "call" and isinstance(item, RubricItem) and item.outcome is not None:
            # A plain JSON attribute travels with the report to an xdist controller.
            report.rubric = item.outcome.to_record(full=self.report_path is not None)  # type: ignore[attr-defined]
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        record = getattr(report, "rubric", None)
        if record is not None and report.when == "call":
            self.records.append(record)
            self.durations.append(report.duration)

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.report_path is None or self.is_worker:
            return
        write_atomically(
            Path(self.report_path),
            document(self.records, self.durations, int(exitstatus), __version__),
        )

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.records or self.is_worker:
            return
        terminalreporter.write_sep("=", "rubric summary")
        for line in summary_lines(self.records, self.report_path):
            terminalreporter.write_line(line)


class _PluginFeed:
    """Offers every plugin pytest registers (conftests too) to the evaluator hooks."""

    def __init__(self, discovery: EvaluatorDiscovery) -> None:
        self.discovery = discovery

    def pytest_plugin_registered(self, plugin: object) -> None:
        self.discovery.offer(plugin)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter,
) -> Generator[None, None, None]:
    # pytest prints each failure's teardown sections by rescanning every passed
    # setup/teardown report (pytest-dev/pytest#13360): O(failures x items), which
    # makes 3,000 mismatches in 10,000 cases cost seconds of summary. Our items'
    # quiet phase reports have no sections, so they can never print anything there;
    # hide them from that scan while the summary is written, and put them back.
    stats = terminalreporter.stats
    quiet = stats.get("")
    if quiet:
        stats[""] = [report for report in quiet if not _is_silent_rubric_phase(report)]
    try:
        return (yield)
    finally:
        if quiet:
            stats[""] = quiet


def _is_silent_rubric_phase(report: Any) -> bool:
    location = getattr(report, "location", None)
    return (
        not getattr(report, "sections", True)
        and location is not None
        and location[2].startswith(REPORT_DOMAIN)
    )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> RubricFile | None:
    if is_case_file(file_path):
        return RubricFile.from_parent(parent, path=file_path)
    return None


class RubricFile(pytest.File):
    """A ``*.rubric.yaml`` file: one item per case."""

    def collect(self) -> Iterator[RubricItem]:
        display = _display_path(self.config, self.path)
        case_file = load_case_file(self.path, display, root=self.config.rootpath)
        registry = self.config.stash[_discovery_key].registry_for(self.path)
        evaluator = registry.get(case_file.evaluator)
        if evaluator is None:
            line, col = case_file.evaluator_at
            nearest = registry.suggest(case_file.evaluator)
            hint = f"did you mean '{nearest}'? " if nearest else ""
            raise CaseFileError(
                display,
                line,
                col,
                f"unknown evaluator {case_file.evaluator!r}; {hint}"
                f"registered: {', '.join(registry.names())}",
            )
        if case_file.rubric is not None:
            evaluator = _configured(evaluator, case_file)
        for case in case_file.cases:
            yield RubricItem.from_parent(
                self, name=case.name, case=case, evaluator=evaluator, display=display
            )

    def repr_failure(  # type: ignore[override]  # as pytest's own Collector does
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, (CaseFileError, RegistrationError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class FailureText(TerminalRepr):
    """A case's failure text, whose first line (``path:line: what differs``) is the
    one-line message pytest shows in its short summary, in JUnit XML and with
    ``--tb=line``, on every supported pytest version."""

    def __init__(self, text: str, *, brief: bool = False) -> None:
        self.text = text
        self.brief = brief
        self.reprcrash = _Headline(text.partition("\n")[0])

    def toterminal(self, tw: TerminalWriter) -> None:
        if not self.brief:
            tw.line(self.text)

    def __str__(self) -> str:
        # What pytest-xdist sends to its controller in place of this object.
        return self.reprcrash.message if self.brief else self.text


@dataclass(frozen=True)
class _Headline:
    message: str

    def __str__(self) -> str:
        return self.message


class RubricItem(pytest.Item):
    """One case: evaluate its input and compare the answer with ``expected``."""

    def __init__(self, *, case: Case, evaluator: Evaluator, display: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.evaluator = evaluator
        self.display = display
        self.outcome: CaseOutcome | None = None
        # Shown as <property> elements by --junitxml, so CI dashboards see them.
        self.user_properties.extend(
            (
                ("rubric_case", case.name),
                ("rubric_evaluator", evaluator.name),
                ("rubric_location", f"{display}:{case.line}"),
            )
        )

    def runtest(self) -> None:
        self.outcome = outcome = self._evaluate()
        if outcome.outcome != MATCHED:
            raise RubricFailure(outcome)

    def _evaluate(self) -> CaseOutcome:
        case = self.case
        base: dict[str, Any] = {
            "nodeid": self.nodeid,
            "case_id": case.name,
            "path": self.display,
            "line": case.line,
            "evaluator": self.evaluator.name,
            "input": case.input,
            "expected": case.expected,
            "input_file": case.input_file_display,
        }
        if case.problems:
            problems = tuple(str(problem) for problem in case.problems)
            return CaseOutcome(**base, outcome=CASE_ERROR, problems=problems)
        try:
            actual, explain = self._answer()
        except RubricInputError as exc:
            problem = f"the input is not usable: {exc}"
            return CaseOutcome(**base, outcome=CASE_ERROR, problems=(problem,))
        matched = json_equal(case.expected, actual)
        # Evidence is worked out only when someone will read it.
        wanted = not matched or self.config.stash[_run_key].report_path is not None
        return CaseOutcome(
            **base,
            outcome=MATCHED if matched else MISMATCHED,
            evaluated=True,
            actual=actual,
            evidence=explain() if wanted else None,
        )

    def _answer(self) -> tuple[Any, Callable[[], Evidence | None]]:
        """The evaluator's answer, and a way to the evidence behind it."""
        case, evaluator = self.case, self.evaluator
        if case.input_file is None:
            data: Mapping[str, Any] = case.input
        elif case.input_file.suffix == ".json":
            data = read_json(case.input_file, case.input_file_display)
        else:
            reader = RowReader(case.input_file, case.input_file_display)
            if evaluator.stream is not None:
                answer, evidence = evaluator.stream(reader, reader.where)
                return answer, lambda: evidence
            data = {"rows": list(reader)}
        explain = evaluator.explain
        if explain is None:
            return evaluator.evaluate(data), lambda: None
        return evaluator.evaluate(data), lambda: explain(data)

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, RubricFailure):
            text = format_failure(excinfo.value.outcome)
            # With --tb=line pytest prints only the headline (``reprcrash``).
            return FailureText(text, brief=self.config.getoption("tbstyle", "auto") == "line")
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"{REPORT_DOMAIN}{self.case.name}"


def _configured(evaluator: Evaluator, case_file: CaseFile) -> Evaluator:
    """The evaluator as the file's ``rubric:`` block configures it."""
    assert case_file.rubric is not None
    if evaluator.configure is None:
        line, col = case_file.locate(())
        raise CaseFileError(
            case_file.path,
            line,
            col,
            f"evaluator {evaluator.name!r} takes no 'rubric:' block; remove it",
        )
    try:
        return evaluator.configure(case_file.rubric)
    except RubricConfigError as exc:
        line, col = case_file.locate(exc.where)
        raise CaseFileError(case_file.path, line, col, f"rubric: {exc}") from None


def _display_path(config: pytest.Config, path: Path) -> str:
    """The path as the user typed it relative to where pytest was invoked."""
    try:
        return os.path.relpath(path, config.invocation_params.dir)
    except ValueError:  # another drive on Windows
        return str(path)
