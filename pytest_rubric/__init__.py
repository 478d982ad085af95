"""pytest-rubric: grading-fixture case files as pytest items.

The evaluators are plain functions and can be used without pytest.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from pytest_rubric.errors import CaseFileError, RubricConfigError, RubricInputError
from pytest_rubric.evaluators import Evidence, evaluate_agreement, evaluate_reason
from pytest_rubric.hookspecs import hookimpl
from pytest_rubric.registry import Evaluator, Summary

try:
    __version__ = version("pytest-rubric")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "CaseFileError",
    "Evaluator",
    "Evidence",
    "RubricConfigError",
    "RubricInputError",
    "Summary",
    "evaluate_agreement",
    "evaluate_reason",
    "hookimpl",
]
