"""The built-in evaluators, registered through the same hook as anyone else's."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rubric.evaluators import (
    evaluate_agreement,
    evaluate_reason,
    explain_agreement,
    explain_reason,
)
from pytest_rubric.evaluators.agreement import IDENTITY_ERROR, LABEL_ERROR
from pytest_rubric.evaluators.reason import INVALID
from pytest_rubric.hookspecs import hookimpl
from pytest_rubric.registry import Evaluator

REASON = Evaluator(
    name="reason",
    description="Are a recorded pass/fail and its reason codes coherent with the title/source evidence?",
    evaluate=evaluate_reason,
    codes=(INVALID,),
    explain=explain_reason,
)

AGREEMENT = Evaluator(
    name="agreement",
    description="Two graders' Boolean labels per case ID: 2x2 matrix, agreement/total, disagreement IDs.",
    evaluate=evaluate_agreement,
    codes=(IDENTITY_ERROR, LABEL_ERROR),
    explain=explain_agreement,
)


@hookimpl
def rubric_evaluators() -> Sequence[Evaluator]:
    return (REASON, AGREEMENT)
