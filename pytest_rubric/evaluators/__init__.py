"""The built-in evaluators. Pure functions: they import neither pytest nor yaml."""

from __future__ import annotations

from pytest_rubric.evaluators._common import JSON, Evidence
from pytest_rubric.evaluators.agreement import evaluate_agreement, explain_agreement
from pytest_rubric.evaluators.reason import evaluate_reason, explain_reason

__all__ = [
    "JSON",
    "Evidence",
    "evaluate_agreement",
    "evaluate_reason",
    "explain_agreement",
    "explain_reason",
]
