from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric import RubricInputError, evaluate_agreement
from pytest_rubric.core.compare import json_equal
from pytest_rubric.evaluators import explain_agreement
from pytest_rubric.evaluators.agreement import JS_WHITESPACE, review_rows

IDENTITY = {"error": "review-case-identity"}
LABEL = {"error": "review-label"}


def rows(*triples: tuple[Any, Any, Any]) -> dict[str, Any]:
    return {"rows": [{"id": i, "a": a, "b": b} for i, a, b in triples]}


def answer(
    both_pass: int, both_fail: int, a_only: int, b_only: int, dis: list[str]
) -> dict[str, Any]:
    return {
        "matrix": {"bothPass": both_pass, "bothFail": both_fail, "aOnly": a_only, "bOnly": b_only},
        "agreement": both_pass + both_fail,
        "total": both_pass + both_fail + a_only + b_only,
        "disagreements": dis,
    }


SEED_CASES = [
    (
        "four-case-matrix",
        rows(("1", True, True), ("2", True, True), ("3", False, False), ("4", True, False)),
        answer(2, 1, 1, 0, ["4"]),
    ),
    (
        "opposite-disagreements",
        rows(("A", True, False), ("B", False, True)),
        answer(0, 0, 1, 1, ["A", "B"]),
    ),
    ("duplicate-reviewed-case", rows(("A", True, False), ("A", False, True)), IDENTITY),
    ("invalid-label", rows(("A", "pass", True)), LABEL),
]


@pytest.mark.parametrize(
    ("ledger", "expected"), [c[1:] for c in SEED_CASES], ids=[c[0] for c in SEED_CASES]
)
def test_the_seed_cases_give_the_seed_answers(ledger: Any, expected: Any) -> None:
    assert json_equal(evaluate_agreement(ledger), expected)
    assert json.dumps(evaluate_agreement(ledger)) == json.dumps(expected)  # key order too


EDGE_CASES = [
    ("empty-ledger", {"rows": []}, answer(0, 0, 0, 0, [])),
    ("numeric-id", rows((1, True, True)), IDENTITY),
    ("null-id", rows((None, True, True)), IDENTITY),
    ("missing-id", {"rows": [{"a": True, "b": True}]}, IDENTITY),
    ("empty-id", rows(("", True, True)), IDENTITY),
    ("space-id", rows((" \t\n", True, True)), IDENTITY),
    # JavaScript's trim() strips U+FEFF and U+3000 (Python's strip() keeps U+FEFF)...
    ("bom-id-is-blank", rows(("\ufeff", True, True)), IDENTITY),
    ("ideographic-space-id-is-blank", rows(("\u3000\u2028", True, True)), IDENTITY),
    # ...and keeps U+0085 and U+001C..U+001F (which Python's strip() removes).
    ("nel-id-is-not-blank", rows(("\u0085", True, True)), answer(1, 0, 0, 0, [])),
    ("file-separator-id-is-not-blank", rows(("\x1c", True, False)), answer(0, 0, 1, 0, ["\x1c"])),
    (
        "mongolian-vowel-separator-is-not-blank",
        rows(("\u180e", True, True)),
        answer(1, 0, 0, 0, []),
    ),
    ("zero-width-space-is-not-blank", rows(("\u200b", True, True)), answer(1, 0, 0, 0, [])),
    ("ids-not-trimmed", rows(("A", True, True), (" A", True, True)), answer(2, 0, 0, 0, [])),
    ("ids-not-case-folded", rows(("a", True, True), ("A", True, True)), answer(2, 0, 0, 0, [])),
    (
        "ids-not-normalised",
        rows(("\u00e9", True, True), ("e\u0301", True, True)),
        answer(2, 0, 0, 0, []),
    ),
    ("row-not-a-mapping", {"rows": [["A", True, True]]}, IDENTITY),
    ("row-is-null", {"rows": [None]}, IDENTITY),
    ("identity-before-labels", rows(("A", "yes", True), ("A", True, True)), IDENTITY),
    ("label-is-1", rows(("A", 1, True)), LABEL),
    ("label-is-0", rows(("A", True, 0)), LABEL),
    ("label-is-string-false", rows(("A", True, "false")), LABEL),
    ("label-is-null", rows(("A", None, True)), LABEL),
    ("label-missing", {"rows": [{"id": "A", "a": True}]}, LABEL),
    (
        "extra-keys-ignored",
        {"rows": [{"id": "A", "a": False, "b": False, "note": 1}], "x": 2},
        answer(0, 1, 0, 0, []),
    ),
]


@pytest.mark.parametrize(
    ("ledger", "expected"), [c[1:] for c in EDGE_CASES], ids=[c[0] for c in EDGE_CASES]
)
def test_edge_ledgers_get_the_strict_answer(ledger: Any, expected: Any) -> None:
    assert json_equal(evaluate_agreement(ledger), expected)


@pytest.mark.parametrize(
    ("ledger", "message"),
    [
        (None, "must be a mapping with a 'rows' list, not empty \\(null\\)"),
        ([], "must be a mapping with a 'rows' list, not \\[\\] \\(a list\\)"),
        ({}, "'rows' is missing"),
        ({"rows": None}, "'rows' must be a list"),
        ({"rows": {"id": "A"}}, "'rows' must be a list"),
        ({"rows": "A"}, "'rows' must be a list"),
    ],
)
def test_something_that_is_not_a_ledger_raises_rubric_input_error(
    ledger: Any, message: str
) -> None:
    with pytest.raises(RubricInputError, match=message):
        evaluate_agreement(ledger)


def test_the_evidence_names_the_row_key_and_value_that_made_a_ledger_invalid() -> None:
    assert explain_agreement(rows(("A", True, True), ("B", "true", True))).problem == (
        "rows[1].a (id 'B') is \"true\" (a string), not a boolean; write true without quotes"
    )
    assert explain_agreement(rows(("A", True, True), (1, True, True))).problem == (
        "rows[1].id is 1 (a number), not a string; quote it: id: '1'"
    )
    assert explain_agreement(rows(("A", True, True), ("A", True, True))).problem == (
        "rows[1].id 'A' repeats rows[0].id"
    )


def test_the_evidence_of_a_valid_ledger_is_its_matrix_and_disagreements() -> None:
    evidence = explain_agreement(rows(("A", True, False), ("B", True, True)))
    assert evidence.problem is None
    assert evidence.facts == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": "1/2",
        "disagreements": ["A"],
    }


labelled = st.lists(st.tuples(st.booleans(), st.booleans()), max_size=40)


def ledger_of(labels: list[tuple[bool, bool]]) -> dict[str, Any]:
    return rows(*((f"case-{n}", a, b) for n, (a, b) in enumerate(labels)))


@given(labels=labelled)
def test_the_four_cells_sum_to_total_and_agreement_is_the_diagonal(
    labels: list[tuple[bool, bool]],
) -> None:
    result: Any = evaluate_agreement(ledger_of(labels))
    matrix = result["matrix"]
    assert sum(matrix.values()) == result["total"] == len(labels)
    assert result["agreement"] == matrix["bothPass"] + matrix["bothFail"]
    assert matrix["aOnly"] == sum(1 for a, b in labels if a and not b)
    assert matrix["bOnly"] == sum(1 for a, b in labels if b and not a)


@given(labels=labelled)
def test_the_disagreements_are_the_rows_whose_labels_differ_in_row_order(
    labels: list[tuple[bool, bool]],
) -> None:
    result = evaluate_agreement(ledger_of(labels))
    assert result["disagreements"] == [f"case-{n}" for n, (a, b) in enumerate(labels) if a != b]


non_boolean = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.lists(st.booleans(), max_size=2),
)


@given(labels=labelled.filter(bool), data=st.data())
def test_any_non_boolean_label_gives_review_label_once_identities_are_fine(
    labels: list[tuple[bool, bool]], data: st.DataObject
) -> None:
    ledger = ledger_of(labels)
    row = data.draw(st.sampled_from(ledger["rows"]))
    row[data.draw(st.sampled_from(["a", "b"]))] = data.draw(non_boolean)
    assert evaluate_agreement(ledger) == LABEL


@given(labels=labelled.filter(bool), data=st.data())
def test_a_repeated_id_gives_review_case_identity_whatever_the_labels(
    labels: list[tuple[bool, bool]], data: st.DataObject
) -> None:
    ledger = ledger_of(labels)
    ledger["rows"].append(
        {"id": data.draw(st.sampled_from(ledger["rows"]))["id"], "a": "x", "b": None}
    )
    assert evaluate_agreement(ledger) == IDENTITY


@given(
    text=st.text(
        alphabet=st.sampled_from(sorted(JS_WHITESPACE | set("\x85\x1c\x1d\u180e\u200bab"))),
        max_size=4,
    )
)
def test_an_id_is_blank_exactly_when_javascript_trim_empties_it(text: str) -> None:
    blank = all(ch in JS_WHITESPACE for ch in text)
    assert (evaluate_agreement(rows((text, True, True))) == IDENTITY) is blank


junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["id", "a", "b", "x"]), inner, max_size=4)
    ),
    max_leaves=10,
)


@given(row_list=st.lists(junk, max_size=5))
def test_any_rows_list_gets_an_answer_and_is_never_mutated(row_list: list[Any]) -> None:
    ledger = {"rows": row_list}
    before = copy.deepcopy(ledger)
    result = evaluate_agreement(ledger)
    assert ledger == before
    assert result in (IDENTITY, LABEL) or set(result) == {
        "matrix",
        "agreement",
        "total",
        "disagreements",
    }
    json.dumps(result)
    explain_agreement(ledger)
    list(review_rows(ledger, str))
    assert ledger == before


_field_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet='aé\u2028\ud800\x00"', max_size=3),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner, max_size=2)
    ),
    max_leaves=6,
)


@given(
    rows=st.lists(
        st.tuples(
            st.booleans(), st.booleans(), st.dictionaries(st.sampled_from("xyz"), _field_values)
        ),
        max_size=6,
    ),
    limit=st.integers(1, 4),
    at=st.sampled_from(["c.rubric.yaml", "d\udcff.rubric.yaml"]),
)
def test_the_review_reads_its_own_copy_of_the_input(
    rows: list[tuple[bool, bool, dict[str, Any]]], limit: int, at: str
) -> None:
    # evaluate and explain share one decoded copy of the input; the review reads its
    # own: an explain that empties the input it was handed, after explaining, gives the
    # same outcome, byte for byte.
    import dataclasses

    from pytest_rubric.casefiles.cases import Case, Place
    from pytest_rubric.core.packed import pack
    from pytest_rubric.evaluators.builtin import AGREEMENT
    from pytest_rubric.running.runner import run_case

    ledger: dict[str, Any] = {
        "rows": [{"id": f"r{n}", "a": a, "b": b, **extra} for n, (a, b, extra) in enumerate(rows)]
    }
    case = Case(
        name="c",
        index=0,
        place=Place(line=1, col=1, row_lines=tuple(range(2, 2 + len(rows)))),
        packed_input=pack(ledger),
    )

    def emptying(data: Any) -> Any:
        evidence = explain_agreement(data)
        data["rows"].clear()
        return evidence

    other = dataclasses.replace(AGREEMENT, explain=emptying)
    own = run_case(case, AGREEMENT, path=at, source="", review_limit=limit, review_at=at)
    checked = run_case(case, other, path=at, source="", review_limit=limit, review_at=at)
    assert (own.outcome, own.problems) == (checked.outcome, checked.problems)
    assert own.review is not None
    assert own.review == checked.review
    assert json.dumps(own.actual) == json.dumps(checked.actual)
    assert own.evidence == checked.evidence


def test_an_id_too_long_to_print_is_an_identity_problem_shown_shortened() -> None:
    ledger = {"rows": [{"id": 10**5000, "a": True, "b": True}]}
    assert evaluate_agreement(ledger) == {"error": "review-case-identity"}
    problem = explain_agreement(ledger).problem
    assert problem is not None
    assert "(an integer of 5001 digits), not a string; quote it, as text" in problem
    assert len(problem) < 200
