"""A misspelt key is hinted at every level the built-in evaluators read: the input's own
keys, ``reason``'s ``fields``, ``agreement``'s rows (inline or in a ledger file). The
answers stay exactly as the seeds define them; the hint is in the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_rubric.core.nearest import nearest, written_for
from pytest_rubric.evaluators.agreement import evaluate_agreement, explain_agreement
from pytest_rubric.evaluators.reason import evaluate_reason, explain_reason


@pytest.mark.parametrize(
    ("name", "known", "meant"),
    [
        ("ID", ("id", "a", "b"), "id"),
        ("A", ("id", "a", "b"), "a"),
        ("Title", ("title", "source"), "title"),
        ("titel", ("title", "source"), "title"),
        ("id", ("id", "ID"), "id"),  # the name itself, when known
        ("note", ("id", "a", "b"), None),
    ],
    ids=["upper-id", "upper-a", "capitalised", "transposed", "itself", "unrelated"],
)
def test_the_nearest_name_counts_a_difference_of_case_as_nearest(
    name: str, known: tuple[str, ...], meant: str | None
) -> None:
    assert nearest(name, known) == meant


def test_the_key_written_for_a_missing_one_is_none_of_the_known_keys() -> None:
    assert written_for("a", ["id", "A", "b"], ("id", "a", "b")) == "A"
    assert written_for("a", ["id", "b", "note"], ("id", "a", "b")) is None
    assert written_for("a", [1, None, ("a",)], ("id", "a", "b")) is None


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
