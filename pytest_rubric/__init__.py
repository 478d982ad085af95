"""pytest-rubric: grading-fixture case files as pytest items.

The evaluators are plain functions and can be used without pytest.
"""

from __future__ import annotations

from pytest_rubric.errors import CaseFileError, RubricConfigError, RubricInputError
from pytest_rubric.evaluators import Evidence, evaluate_agreement, evaluate_reason
from pytest_rubric.hookspecs import hookimpl
from pytest_rubric.registry import Evaluator

__all__ = [
    "CaseFileError",
    "Evaluator",
    "Evidence",
    "RubricConfigError",
    "RubricInputError",
    "evaluate_agreement",
    "evaluate_reason",
    "hookimpl",
]
