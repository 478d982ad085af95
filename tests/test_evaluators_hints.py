"""A misspelt key is hinted at every level the built-in evaluators read: the input's own
keys, ``reason``'s ``fields``, ``agreement``'s rows (inline or in a ledger file). The
answers stay exactly as the seeds define them; the hint is in the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_rubric.evaluators.agreement import evaluate_agreement, explain_agreement
from pytest_rubric.evaluators.reason import evaluate_reason, explain_reason

REASON = [
    (
        {"fields": {"titel": True, "source": True}, "pass": True, "reasons": []},
        "fields.title is missing (fields has 'titel'; did you mean title?); each required "
        "field needs a boolean",
    ),
    (
        {"fields": {"title": False, "Source": True}, "pass": False, "reasons": []},
        "fields.source is missing (fields has 'Source'; did you mean source?); each required "
        "field needs a boolean",
    ),
    (
        {"fields": {"author": True, "source": True}, "pass": True, "reasons": []},
        "fields.title is missing; each required field needs a boolean",
    ),
]


@pytest.mark.parametrize(("record", "problem"), REASON, ids=["titel", "Source", "unrelated"])
def test_a_misspelt_field_of_reason_names_the_field_meant(
    record: dict[str, Any], problem: str
) -> None:
    assert evaluate_reason(record) == {"status": "invalid-reason-input"}
    assert explain_reason(record).problem == problem


AGREEMENT = [
    (
        [{"id": "x", "a": True, "b": True}, {"ID": "y", "a": True, "b": False}],
        {"error": "review-case-identity"},
        "rows[1] has no id (the row has 'ID'; did you mean id?); every row needs a non-blank "
        "text id",
    ),
    (
        [{"id": "x", "A": True, "b": True}],
        {"error": "review-label"},
        "rows[0] (id 'x') has no label a (the row has 'A'; did you mean a?); a missing label "
        "is an evidence gap, not a guess",
    ),
    (
        [{"id": "x", "a": True, "B": False, "note": "n"}],
        {"error": "review-label"},
        "rows[0] (id 'x') has no label b (the row has 'B'; did you mean b?); a missing label "
        "is an evidence gap, not a guess",
    ),
    (
        [{"id": "x", "a": True, "note": False}],
        {"error": "review-label"},
        "rows[0] (id 'x') has no label b; a missing label is an evidence gap, not a guess",
    ),
]


@pytest.mark.parametrize(
    ("rows", "answer", "problem"), AGREEMENT, ids=["ID", "A", "B", "unrelated"]
)
def test_a_misspelt_row_key_of_agreement_names_the_key_meant(
    rows: list[dict[str, Any]], answer: dict[str, Any], problem: str
) -> None:
    assert evaluate_agreement({"rows": rows}) == answer
    assert explain_agreement({"rows": rows}).problem == problem


def test_a_ledger_files_misspelt_row_key_is_hinted_in_the_failure(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "week.jsonl").write_text(
        '{"id": "x", "a": true, "b": true}\n{"id": "y", "A": true, "b": false}\n'
    )
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: week\n    input_file: week.jsonl\n"
        "    expected: {total: 2}\n",
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*week.jsonl:2 rows[[]1] (id 'y') has no label a (the row has 'A'; did you mean a?)*"]
    )


def test_a_misspelt_field_is_hinted_in_reasons_failure(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: reason\ncases:\n  - id: a\n"
        "    input: {fields: {titel: true, source: true}, pass: true, reasons: []}\n"
        "    expected: {expectedPass: true, expectedReasons: [all-required-met], "
        "coherent: true}\n",
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*fields.title is missing (fields has 'titel'; did you mean title?)*"]
    )


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (
            {"feilds": {}, "pass": True, "reasons": []},
            "fields is missing (the input has 'feilds'; did you mean fields?); it must be a "
            "mapping of field Booleans",
        ),
        (
            {"fields": {"title": True, "source": True}, "pas": True, "reasons": []},
            "pass is missing (the input has 'pas'; did you mean pass?); it must be a boolean",
        ),
        (
            {"fields": {"title": True, "source": True}, "pass": True, "reason": []},
            "reasons is missing (the input has 'reason'; did you mean reasons?); it must be a "
            "list of reason codes",
        ),
        (
            {"pass": True, "reasons": []},
            "fields is missing; it must be a mapping of field Booleans",
        ),
    ],
)
def test_a_misspelt_input_key_of_reason_names_the_key_meant(
    record: dict[str, object], problem: str
) -> None:
    assert explain_reason(record).problem == problem


def test_a_misspelt_input_key_of_agreement_names_the_key_meant(pytester: pytest.Pytester) -> None:
    with pytest.raises(
        ValueError, match=r"'rows' is missing \(the input has 'rowz'; did you mean rows\?\)"
    ):
        evaluate_agreement({"rowz": []})
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: a\n    input: {rowz: []}\n    expected: {}\n",
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*'rows' is missing (the input has 'rowz'; did you mean rows?)*"])
