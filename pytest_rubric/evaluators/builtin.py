"""The built-in evaluators, registered through the same hook as anyone else's."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import partial

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.evaluator import Evaluator, OnLedger, Summary
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import MATRIX_CELLS
from pytest_rubric.core.shown import show
from pytest_rubric.evaluators import (
    evaluate_agreement,
    evaluate_reason,
    explain_agreement,
    explain_reason,
)
from pytest_rubric.evaluators.agreement import (
    IDENTITY_ERROR,
    LABEL_ERROR,
    review_rows,
    stream_agreement,
)
from pytest_rubric.evaluators.reason import (
    INVALID,
    REQUIRED_FIELDS,
    declared_codes,
    evaluate_required,
    explain_required,
    parse_required,
)
from pytest_rubric.hookspecs import hookimpl

#: How many disagreement IDs a ledger's summary line shows.
MAX_IDS = 10


def reason_answers(codes: Sequence[str]) -> dict[str, JSON]:
    """The JSON Schema of ``reason``'s answers when its declared codes are ``codes``."""
    return {
        "oneOf": [
            {
                "description": "A valid record: what the rubric implies, and whether the record agrees.",
                "type": "object",
                "required": ["expectedPass", "expectedReasons", "coherent"],
                "additionalProperties": False,
                "properties": {
                    "expectedPass": {
                        "description": "Whether the fields pass the rubric.",
                        "type": "boolean",
                    },
                    "expectedReasons": {
                        "description": "The codes the fields imply, sorted.",
                        "type": "array",
                        "minItems": 1,
                        "uniqueItems": True,
                        "items": {"enum": list(codes)},
                    },
                    "coherent": {
                        "description": "Whether the recorded pass and reasons both match.",
                        "type": "boolean",
                    },
                },
            },
            {
                "description": "A field or pass that is not a boolean, an undeclared or repeated "
                "code, or a broken shape.",
                "type": "object",
                "required": ["status"],
                "additionalProperties": False,
                "properties": {"status": {"const": INVALID}},
            },
        ]
    }


def _configure_reason(block: Mapping[str, JSON]) -> Evaluator:
    """``reason`` with the required fields a case file's ``rubric:`` block names."""
    required = parse_required(block)
    return Evaluator(
        name="reason",
        description=f"reason with required fields {', '.join(required)} "
        f"(codes {', '.join(declared_codes(required))})",
        evaluate=partial(evaluate_required, required=required),
        codes=(INVALID,),
        explain=partial(explain_required, required=required),
        answer_schema=reason_answers(declared_codes(required)),
    )


REASON = Evaluator(
    name="reason",
    description="Are a recorded pass/fail and its reason codes coherent with the field evidence? "
    "(title and source, or the fields of a 'rubric: {required: [...]}' block)",
    evaluate=evaluate_reason,
    codes=(INVALID,),
    explain=explain_reason,
    configure=_configure_reason,
    answer_schema=reason_answers(declared_codes(REQUIRED_FIELDS)),
)


#: A text as JSON quotes it (one encoder for every line: ``json.dumps`` makes one a call).
_quoted = json.JSONEncoder(ensure_ascii=False).encode


def ledger_line(answer: JSON) -> str | None:
    """A ledger's line in the rubric summary: matrix, agreement/total, disagreement IDs
    (quoted, as JSON writes them)."""
    matrix = answer.get("matrix") if isinstance(answer, Mapping) else None
    if not isinstance(answer, Mapping) or not isinstance(matrix, Mapping):
        return None  # an error answer: its case's outcome says enough
    cells = ", ".join(f"{key} {_figure(value)}" for key, value in matrix.items())
    ids = answer.get("disagreements")
    ids = ids if isinstance(ids, list) else []
    # Quoted as JSON quotes it: an ID looks like an ID ("4"), not like a count (4). Every
    # case makes its line, so a text ID takes the C encoder, not show's walk.
    shown = ", ".join(
        _quoted(case_id) if type(case_id) is str else show(case_id) for case_id in ids[:MAX_IDS]
    )
    if len(ids) > MAX_IDS:
        shown += f", and {len(ids) - MAX_IDS} more"
    figures = f"{_figure(answer.get('agreement'))}/{_figure(answer.get('total'))}"
    # Escaped once, whole: what a key or an ID holds is never shown raw.
    return escape_controls(f"{cells}; agreement {figures}; disagreements: {shown or 'none'}")


def _figure(value: object) -> str:
    """A count as :func:`show` writes it: a usual one as ``str`` writes it, at once."""
    return str(value) if type(value) is int and -_SHORT < value < _SHORT else show(value)


_SHORT = 10**15


_COUNT: dict[str, JSON] = {"type": "integer", "minimum": 0}

AGREEMENT_ANSWERS: dict[str, JSON] = {
    "oneOf": [
        {
            "description": "A valid ledger: the 2x2 matrix, agreement over total, "
            "disagreement IDs in row order.",
            "type": "object",
            "required": ["matrix", "agreement", "total", "disagreements"],
            "additionalProperties": False,
            "properties": {
                "matrix": {
                    "description": "Rows by label pair: both true, both false, only a, only b.",
                    "type": "object",
                    "required": list(MATRIX_CELLS.values()),
                    "additionalProperties": False,
                    "properties": {key: _COUNT for key in MATRIX_CELLS.values()},
                },
                "agreement": {"description": "Rows where a and b agree.", **_COUNT},
                "total": {"description": "Rows in the ledger.", **_COUNT},
                "disagreements": {
                    "description": "IDs of the rows where a and b differ, in row order.",
                    "type": "array",
                    "uniqueItems": True,
                    "items": {"type": "string"},
                },
            },
        },
        {
            "description": "A row without a unique non-blank text id, or with a label "
            "that is not a boolean.",
            "type": "object",
            "required": ["error"],
            "additionalProperties": False,
            "properties": {"error": {"enum": [IDENTITY_ERROR, LABEL_ERROR]}},
        },
    ]
}

AGREEMENT = Evaluator(
    name="agreement",
    description="Two graders' Boolean labels per case ID: "
    "2x2 matrix, agreement/total, disagreement IDs.",
    evaluate=evaluate_agreement,
    codes=(IDENTITY_ERROR, LABEL_ERROR),
    explain=explain_agreement,
    summary=Summary("agreement ledgers", ledger_line),
    answer_schema=AGREEMENT_ANSWERS,
    ledger=OnLedger(stream=stream_agreement, review=review_rows, review_picks_disagreements=True),
)


@hookimpl
def rubric_evaluators() -> Sequence[Evaluator]:
    return (REASON, AGREEMENT)
