"""Case files as pytest collectors, cases as pytest items, failures in pytest's own shapes."""

from __future__ import annotations

import dataclasses
import warnings
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

from pytest_rubric.casefiles.loader import Case, CaseFile, load_case_file
from pytest_rubric.core.errors import CaseFileError, RegistrationError, RubricConfigError
from pytest_rubric.core.evaluator import Evaluator
from pytest_rubric.core.jsonvalues import escape_controls
from pytest_rubric.core.registry import Registry
from pytest_rubric.editing.decisions import Held, fillable, to_write
from pytest_rubric.editing.edits import Part
from pytest_rubric.plugin.paths import display_path, root_path
from pytest_rubric.plugin.state import (
    case_cache_of,
    discovery_of,
    review_limit,
    update_reads_of,
)
from pytest_rubric.reports.failure import format_failure, headline
from pytest_rubric.reports.records import UpdateRecord
from pytest_rubric.running.outcome import CASE_ERROR, MATCHED, MISMATCHED, CaseOutcome
from pytest_rubric.running.runner import evaluator_traceback, run_case

if TYPE_CHECKING:
    from _pytest._code.code import TracebackStyle

#: How a case's report names it; also how our reports are told apart from others.
REPORT_DOMAIN = "[rubric] "


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


class RubricFile(pytest.File):
    """A ``*.rubric.yaml`` file: one item per case."""

    def collect(self) -> Iterator[RubricItem]:
        # Messages name the file as typed, with any control character in its name escaped.
        display = escape_controls(display_path(self.config, self.path))
        case_cache = case_cache_of(self.config)
        if case_cache is None:
            case_file = load_case_file(self.path, display, root=self.config.rootpath)
        else:
            case_file = case_cache.load(self.path, display, self.config.rootpath)
        registry = discovery_of(self.config).registry_for(self.path)
        evaluator = _evaluator(registry, case_file, display)
        source = registry.source(case_file.evaluator)
        file = root_path(self.config, self.path)  # one string, shared by the file's cases
        junit = bool(getattr(self.config.option, "xmlpath", None))
        for case in case_file.cases:
            decorators, problems = _pytest_marks(case, display)
            if problems:
                case = dataclasses.replace(case, problems=(*case.problems, *problems))
            item = RubricItem.from_parent(
                self,
                name=case.name,
                case=case,
                evaluator=evaluator,
                source=source,
                display=display,
                digest=case_file.digest,
                file=file,
                junit=junit,
            )
            item.configured = case_file.rubric is not None
            for decorator in decorators:
                item.add_marker(decorator)
            yield item

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
        digest: str = "",
        file: str | None = None,
        junit: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.case = case
        #: The case file's path for machine-readable output (relative to rootdir, ``/``).
        self.file = root_path(self.config, self.path) if file is None else file
        #: SHA-256 of the case file's bytes as collected (``--rubric-update`` checks it).
        self.digest = digest
        #: The ``expected`` this case asks ``--rubric-update`` to write, if any.
        self.update: UpdateRecord | None = None
        #: Its edited lines, read back, when they could be edited alone.
        self.part: Part | None = None
        #: Set when its answer was to be written but cannot be (a case error says why).
        self.unwritten = False
        #: Its answer, a refusal, held back from being written (``--rubric-update``).
        self.held: Held | None = None
        self.evaluator = evaluator
        self.source = source
        self.display = display
        self.result: CaseOutcome | None = None
        #: Set when a strict ``xfail:`` case matched, failing it.
        self.strict_xpass = False
        #: Whether its case file has a ``rubric:`` block that configured its evaluator.
        self.configured = False
        # ``-k agreement`` selects the agreement cases, whatever their path says.
        self.extra_keyword_matches.add(evaluator.name)
        if junit:
            # Shown as <property> elements by --junitxml, so CI dashboards see them.
            self.user_properties.extend(
                (
                    ("rubric_case", case.name),
                    ("rubric_evaluator", evaluator.name),
                    ("rubric_location", f"{display}:{case.line}"),
                )
            )

    def runtest(self) -> None:
        failure = self._run()
        if failure is not None:
            raise failure

    def _run(self) -> Exception | None:
        """Runs the case, keeps its outcome on the item for its report, and gives the
        exception its failure is, if it fails: raised by the caller, so that the frame
        pytest keeps with it holds no outcome (see :class:`Failure`)."""
        case, mode = self.case, self.config.option.rubric_update
        if self.get_closest_marker("xfail") is not None:  # ours or another plugin's
            mode = None  # an expected failure's answer is never written
        filled = fillable(case, mode)
        if filled:  # no 'expected' is its only problem: run it to write the answer
            case = dataclasses.replace(case, problems=()).with_expected({})
        limit = review_limit(self.config)
        result = run_case(
            case,
            self.evaluator,
            path=self.display,
            source=self.source,
            review_limit=limit,
            review_at=root_path(self.config, case.input_file.path)
            if case.input_file
            else self.file,
        )
        evaluated = result.evaluated
        result, self.update, self.part, self.held = to_write(
            case,
            result,
            mode,
            filled=filled,
            path=self.path,
            digest=self.digest,
            root=self.config.rootpath,
            files=None if mode is None else update_reads_of(self.config),
            refusals=mode is not None and bool(self.config.option.rubric_update_refusals),
        )
        if self.held is not None and filled:
            result = dataclasses.replace(result, case=self.case)  # it still has no expected
        # Its answer was to be written, but cannot be: the case fails, saying why.
        self.unwritten = evaluated and result.outcome == CASE_ERROR and self.held is None
        self.result = result
        name = result.case.name
        if result.outcome == MISMATCHED:
            return RubricMismatch(name, _failure_of(result))
        if result.outcome != MATCHED:
            return RubricCaseError(name, _failure_of(result))
        xfail = self.case.marks.xfail
        if xfail is not None and xfail.strict and not self.config.option.runxfail:
            self.strict_xpass = True
            words = (
                f"{escape_controls(repr(name))} matched its expected answer, but it is "
                f"marked xfail ({escape_controls(xfail.reason)}); remove the 'xfail:', or write "
                "'xfail: {reason: ..., strict: false}' to let it pass as XPASS"
            )
            at = f"{result.path}:{result.case.line}"
            return RubricStrictXPass(
                name, Failure(result.path, result.case.line, words, f"{at}: {words}")
            )
        return None

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str | TerminalRepr:
        brief = self.config.getoption("tbstyle", "auto") == "line"
        error = excinfo.value
        if isinstance(error, (RubricMismatch, RubricCaseError, RubricStrictXPass)):
            return error.failure.repr(brief=brief)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"{REPORT_DOMAIN}{self.case.name}"


def _failure_of(outcome: CaseOutcome) -> Failure:
    """The words of a mismatch or a case error."""
    return Failure(outcome.path, outcome.case.line, headline(outcome), format_failure(outcome))


def _pytest_marks(
    case: Case, display: str
) -> tuple[list[pytest.MarkDecorator], list[CaseFileError]]:
    """pytest's marks for a case's ``skip``, ``xfail`` and ``marks``, and the problems
    with them. Marker names follow pytest's own rules, checked by pytest itself: an
    unregistered name is pytest's warning, placed at the case file's line, and an
    error under ``--strict-markers``."""
    marks = case.marks
    decorators: list[pytest.MarkDecorator] = []
    problems: list[CaseFileError] = []
    for name, (line, col) in marks.names:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                decorators.append(getattr(pytest.mark, name))
            except pytest.fail.Exception as exc:  # --strict-markers
                problems.append(
                    CaseFileError(
                        display,
                        line,
                        col,
                        f"{exc.msg}; register the marker under 'markers' in pytest's "
                        "configuration, or remove it",
                    )
                )
        for warning in caught:
            warnings.warn_explicit(
                f"{display}:{line}:{col}: {warning.message}",
                warning.category,
                filename=display,
                lineno=line,
            )
    if marks.skip is not None:
        decorators.append(pytest.mark.skip(reason=escape_controls(marks.skip)))
    if marks.xfail is not None:
        # Only a mismatch is the expected failure; a case error still fails. A match
        # of a strict xfail fails in runtest, with a message that says what to do.
        decorators.append(
            pytest.mark.xfail(
                reason=escape_controls(marks.xfail.reason), strict=False, raises=RubricMismatch
            )
        )
    return decorators, problems


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
