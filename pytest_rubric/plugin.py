"""The pytest layer: case files become collectors, cases become items."""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr, TracebackStyle

from pytest_rubric.compare import json_equal
from pytest_rubric.discovery import EvaluatorDiscovery, RegistrationError
from pytest_rubric.errors import CaseFileError, RubricConfigError, RubricInputError
from pytest_rubric.loader import Case, CaseFile, is_case_file, load_case_file
from pytest_rubric.registry import Evaluator
from pytest_rubric.report import (
    RubricCaseError,
    RubricMismatch,
    Verdict,
    format_case_error,
    format_evaluators,
    format_mismatch,
)

#: How a case's report names it; also how our reports are told apart from others.
REPORT_DOMAIN = "[rubric] "

_discovery_key = pytest.StashKey["EvaluatorDiscovery"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rubric", "rubric case files (pytest-rubric)")
    group.addoption(
        "--rubric-evaluators",
        action="store_true",
        dest="rubric_evaluators",
        default=False,
        help="show the registered rubric evaluators and where each comes from, then exit",
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
    entries = config.stash[_discovery_key].entries()
    writer = config.get_terminal_writer()
    writer.line()
    writer.sep("-", f"rubric evaluators ({len(entries)})")
    writer.line(format_evaluators(entries))
    return 0


def pytest_configure(config: pytest.Config) -> None:
    discovery = EvaluatorDiscovery(config.invocation_params.dir)
    config.stash[_discovery_key] = discovery
    config.pluginmanager.register(_PluginFeed(discovery), "rubric-plugin-feed")


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
        case_file = load_case_file(self.path, display)
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


class RubricItem(pytest.Item):
    """One case: evaluate its input and compare the answer with ``expected``."""

    def __init__(self, *, case: Case, evaluator: Evaluator, display: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.evaluator = evaluator
        self.display = display

    def runtest(self) -> None:
        case = self.case
        if case.problems:
            raise RubricCaseError(
                case.name, self.display, case.line, [str(problem) for problem in case.problems]
            )
        try:
            actual = self.evaluator.evaluate(case.input)
        except RubricInputError as exc:
            raise RubricCaseError(
                case.name, self.display, case.line, [f"the input is not usable: {exc}"]
            ) from None
        if not json_equal(case.expected, actual):
            explain = self.evaluator.explain
            raise RubricMismatch(
                Verdict(
                    case_id=case.name,
                    path=self.display,
                    line=case.line,
                    evaluator=self.evaluator.name,
                    expected=case.expected,
                    actual=actual,
                    evidence=None if explain is None else explain(case.input),
                )
            )

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, RubricMismatch):
            return format_mismatch(excinfo.value.verdict)
        if isinstance(excinfo.value, RubricCaseError):
            return format_case_error(excinfo.value)
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
