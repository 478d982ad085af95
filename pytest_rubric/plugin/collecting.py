"""What collecting a case file decides beside its cases: each case's pytest marks, and
the evaluator its file names, configured by its ``rubric:`` block."""

from __future__ import annotations

import warnings

import pytest

from pytest_rubric.casefiles.cases import Case, CaseFile
from pytest_rubric.core.errors import CaseFileError, RubricConfigError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.evaluator import Evaluator
from pytest_rubric.core.registry import Registry
from pytest_rubric.plugin.failures import RubricMismatch
from pytest_rubric.running.runner import evaluator_traceback


def pytest_marks(
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


def configured_evaluator(registry: Registry, case_file: CaseFile, display: str) -> Evaluator:
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
