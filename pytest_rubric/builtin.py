"""The built-in evaluators, registered through the same hook as anyone else's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from pytest_rubric.evaluators import (
    evaluate_agreement,
    evaluate_reason,
    explain_agreement,
    explain_reason,
)
from pytest_rubric.evaluators.agreement import (
    IDENTITY_ERROR,
    LABEL_ERROR,
    judge_agreement,
    tally_rows,
)
from pytest_rubric.evaluators.reason import (
    INVALID,
    declared_codes,
    evaluate_required,
    explain_required,
    judge_required,
    parse_required,
)
from pytest_rubric.hookspecs import hookimpl
from pytest_rubric.jsonvalues import escape_controls, show
from pytest_rubric.registry import Evaluator, Summary

#: How many disagreement IDs a ledger's summary line shows.
MAX_IDS = 10


def _configure_reason(block: Mapping[str, Any]) -> Evaluator:
    """``reason`` with the required fields a case file's ``rubric:`` block names."""
    required = parse_required(block)
    return Evaluator(
        name="reason",
        description=f"reason with required fields {', '.join(required)} "
        f"(codes {', '.join(declared_codes(required))})",
        evaluate=partial(evaluate_required, required=required),
        codes=(INVALID,),
        explain=partial(explain_required, required=required),
        judge=partial(judge_required, required=required),
    )


REASON = Evaluator(
    name="reason",
    description="Are a recorded pass/fail and its reason codes coherent with the field evidence? "
    "(title and source, or the fields of a 'rubric: {required: [...]}' block)",
    evaluate=evaluate_reason,
    codes=(INVALID,),
    explain=explain_reason,
    configure=_configure_reason,
    judge=judge_required,
)


def ledger_line(answer: Any) -> str | None:
    """A ledger's line in the rubric summary: matrix, agreement/total, disagreement IDs."""
    if not isinstance(answer, Mapping) or not isinstance(answer.get("matrix"), Mapping):
        return None  # an error answer: its case's outcome says enough
    cells = ", ".join(
        f"{escape_controls(str(key))} {show(value)}" for key, value in answer["matrix"].items()
    )
    ids = answer.get("disagreements")
    ids = ids if isinstance(ids, list) else []
    shown = ", ".join(
        escape_controls(case_id) if isinstance(case_id, str) else show(case_id)
        for case_id in ids[:MAX_IDS]
    )
    if len(ids) > MAX_IDS:
        shown += f", and {len(ids) - MAX_IDS} more"
    return (
        f"{cells}; agreement {show(answer.get('agreement'))}/{show(answer.get('total'))}; "
        f"disagreements: {shown or 'none'}"
    )


AGREEMENT = Evaluator(
    name="agreement",
    description="Two graders' Boolean labels per case ID: "
    "2x2 matrix, agreement/total, disagreement IDs.",
    evaluate=evaluate_agreement,
    codes=(IDENTITY_ERROR, LABEL_ERROR),
    explain=explain_agreement,
    stream=tally_rows,
    judge=judge_agreement,
    summary=Summary("agreement ledgers", ledger_line),
)


@hookimpl
def rubric_evaluators() -> Sequence[Evaluator]:
    return (REASON, AGREEMENT)
