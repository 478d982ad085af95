"""Case files as pytest collectors, cases as pytest items, failures in pytest's own shapes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

# pytest's failure representations; long stable, though not re-exported. Using
# the real ones means every reader of ``reprcrash`` (json-report, allure, GitHub
# annotations, pytest-xdist's transport, JUnit) sees what pytest's own failures give.
from _pytest._code.code import (
    ReprEntryNative,
    ReprExceptionInfo,
    ReprFileLocation,
    ReprTraceback,
    TerminalRepr,
)

from pytest_rubric.errors import CaseFileError, RegistrationError, RubricConfigError
from pytest_rubric.jsonvalues import escape_controls
from pytest_rubric.loader import Case, CaseFile, load_case_file
from pytest_rubric.outcome import MATCHED, MISMATCHED, CaseOutcome
from pytest_rubric.registry import Evaluator, Registry
from pytest_rubric.report import format_failure, headline
from pytest_rubric.runner import evaluator_traceback, run_case

if TYPE_CHECKING:
    from _pytest._code.code import TracebackStyle

#: How a case's report names it; also how our reports are told apart from others.
REPORT_DOMAIN = "[rubric] "


class RubricMismatch(AssertionError):
    """A case's answer differs from its ``expected``: an assertion failure to every tool."""

    def __init__(self, outcome: CaseOutcome) -> None:
        super().__init__(outcome.case.name)
        self.outcome = outcome


class RubricCaseError(Exception):
    """A case could not be evaluated (broken input, an evaluator that failed)."""

    def __init__(self, outcome: CaseOutcome) -> None:
        super().__init__(outcome.case.name)
        self.outcome = outcome


class RubricFile(pytest.File):
    """A ``*.rubric.yaml`` file: one item per case."""

    def collect(self) -> Iterator[RubricItem]:
        from pytest_rubric.plugin import discovery_of, wants_input_copy

        display = display_path(self.config, self.path)
        case_file = load_case_file(self.path, display, root=self.config.rootpath)
        registry = discovery_of(self.config).registry_for(self.path)
        evaluator = _evaluator(registry, case_file, display)
        source = registry.source(case_file.evaluator)
        keep_input = wants_input_copy(self.config)
        for case in case_file.cases:
            yield RubricItem.from_parent(
                self,
                name=case.name,
                case=case,
                evaluator=evaluator,
                source=source,
                display=display,
                keep_input=keep_input,
            )

    def repr_failure(  # type: ignore[override]  # as pytest's own Collector does
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, (CaseFileError, RegistrationError)):
            return escape_controls(str(excinfo.value), keep_newlines=True)
        return super().repr_failure(excinfo)


class RubricItem(pytest.Item):
    """One case: run it, and fail with its mismatch or its problems."""

    def __init__(
        self,
        *,
        case: Case,
        evaluator: Evaluator,
        source: str,
        display: str,
        keep_input: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.evaluator = evaluator
        self.source = source
        self.display = display
        self.keep_input = keep_input
        self.result: CaseOutcome | None = None
        # ``-k agreement`` selects the agreement cases, whatever their path says.
        self.extra_keyword_matches.add(evaluator.name)
        # Shown as <property> elements by --junitxml, so CI dashboards see them.
        self.user_properties.extend(
            (
                ("rubric_case", case.name),
                ("rubric_evaluator", evaluator.name),
                ("rubric_location", f"{display}:{case.line}"),
            )
        )

    def runtest(self) -> None:
        self.result = result = run_case(
            self.case,
            self.evaluator,
            path=self.display,
            source=self.source,
            keep_input=self.keep_input,
        )
        if result.outcome == MISMATCHED:
            raise RubricMismatch(result)
        if result.outcome != MATCHED:
            raise RubricCaseError(result)

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, (RubricMismatch, RubricCaseError)):
            brief = self.config.getoption("tbstyle", "auto") == "line"
            return failure_repr(excinfo.value.outcome, brief=brief)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"{REPORT_DOMAIN}{self.case.name}"


def failure_repr(outcome: CaseOutcome, *, brief: bool = False) -> ReprExceptionInfo:
    """A failing case as pytest's own failures are shaped: the whole text as the
    traceback, and ``path:line: <headline>`` as the crash location. ``brief``
    (``--tb=line``) leaves only the crash location, as pytest's own do."""
    entries = [] if brief else [ReprEntryNative([format_failure(outcome) + "\n"])]
    return ReprExceptionInfo(
        reprtraceback=ReprTraceback(entries, None, "native"),
        reprcrash=ReprFileLocation(outcome.path, outcome.case.line, headline(outcome)),
    )


def _evaluator(registry: Registry, case_file: CaseFile, display: str) -> Evaluator:
    """The evaluator the case file names, configured by its ``rubric:`` block if any."""
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
    if case_file.rubric is None:
        return evaluator
    if evaluator.configure is None:
        line, col = case_file.locate(())
        raise CaseFileError(
            display, line, col, f"evaluator {evaluator.name!r} takes no 'rubric:' block; remove it"
        )
    try:
        configured = evaluator.configure(case_file.rubric)
    except RubricConfigError as exc:
        line, col = case_file.locate(exc.where)
        raise CaseFileError(display, line, col, f"rubric: {exc}") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # a plugin's bug: this file fails, the run goes on
        line, col = case_file.locate(())
        raise CaseFileError(
            display,
            line,
            col,
            f"evaluator {evaluator.name!r} ({registry.source(evaluator.name)}) raised in "
            f"configure:\n{evaluator_traceback(exc)}",
        ) from None
    if not isinstance(configured, Evaluator):
        line, col = case_file.locate(())
        raise CaseFileError(
            display,
            line,
            col,
            f"evaluator {evaluator.name!r}'s configure returned a {type(configured).__name__}; "
            "it must return a pytest_rubric.Evaluator",
        )
    return configured


def display_path(config: pytest.Config, path: Path) -> str:
    """The path as the user typed it: relative to where pytest was invoked."""
    try:
        return os.path.relpath(path, config.invocation_params.dir)
    except ValueError:  # another drive on Windows
        return str(path)


def root_path(config: pytest.Config, path: Path | str) -> str:
    """The path for machine-readable output: relative to rootdir, with ``/``."""
    try:
        return Path(os.path.relpath(path, config.rootpath)).as_posix()
    except ValueError:  # another drive on Windows
        return Path(path).as_posix()
