"""Which rows an export gives and how its IDs read (``where``, ``ids: as-text``), and key
paths that index lists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _agreement import agreement_case, answer, run_agreement
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.core.numbers import decimal_int, decimal_text
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter, index_of
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.running.outcome import CASE_ERROR, CaseOutcome
from pytest_rubric.running.runner import run_case


def run_rows(folder: Path, rows: list[Any], ledger: str, name: str = "e.jsonl") -> CaseOutcome:
    text = "".join(json.dumps(row) + "\n" for row in rows)
    return run_agreement(folder, {name: text}, f"    input_file: {name}\n    ledger: {ledger}\n")


def problems_of(folder: Path, ledger: str, name: str = "e.jsonl") -> list[str]:
    body = f"    input_file: {name}\n    ledger: {ledger}\n"
    return [str(problem) for problem in agreement_case(folder, {name: ""}, body).problems]


def path(text: str) -> KeyPath:
    return KeyPath(tuple(text.split(".")), (1, 1), text)


# -- key paths ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "row", "found"),
    [
        ("label.0", {"label": ["PASS"]}, "PASS"),
        ("result.0.value.choices.0", {"result": [{"value": {"choices": ["x", "y"]}}]}, "x"),
        ("label.1", {"label": ["PASS"]}, ABSENT),
        ("label.0", {"label": {"0": "key zero"}}, "key zero"),
        ("label.01", {"label": ["PASS", "FAIL"]}, ABSENT),
        ("label.-1", {"label": ["PASS"]}, ABSENT),
        ("label.name", {"label": [{"name": "a"}]}, ABSENT),
        ("label.0", {"label": "PASS"}, ABSENT),
        ("a", {"a": None}, None),
    ],
    ids=[
        "index",
        "deep",
        "past-the-end",
        "a-mapping-key-0",
        "leading-zero-is-a-key",
        "negative",
        "a-key-on-a-list",
        "index-on-text",
        "null-is-a-value",
    ],
)
def test_a_number_in_a_key_path_indexes_a_list_and_is_a_key_on_a_mapping(
    written: str, row: dict[str, Any], found: object
) -> None:
    assert getter(path(written))(row) == found or getter(path(written))(row) is found


def test_only_a_whole_number_written_plainly_is_an_index() -> None:
    assert [index_of(part) for part in ("0", "7", "12", "01", "-1", "1.0", "٣", "x")] == [
        0,
        7,
        12,
        None,
        None,
        None,
        None,
        None,
    ]


def test_doccanos_label_list_reads_through_an_index(tmp_path: Path) -> None:
    rows = [{"id": "d1", "a": ["PASS"], "b": ["FAIL"]}, {"id": "d2", "a": ["PASS"], "b": ["PASS"]}]
    outcome = run_rows(tmp_path, rows, "{a: a.0, b: b.0, labels: {PASS: true, FAIL: false}}")
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": 1,
        "total": 2,
        "disagreements": ["d1"],
    }


# -- ids: as-text ------------------------------------------------------------------------------


def test_integer_ids_are_read_as_their_decimal_text_with_ids_as_text(tmp_path: Path) -> None:
    rows = [{"id": 7, "a": True, "b": False}, {"id": -12, "a": True, "b": True}]
    assert run_rows(tmp_path, rows, "{}").actual == {"error": "review-case-identity"}
    outcome = run_rows(tmp_path, rows, "{ids: as-text}")
    assert outcome.actual is not None
    assert answer(outcome)["disagreements"] == ["7"]


@pytest.mark.parametrize("case_id", [True, 7.0, 1.5, None, [7]], ids=repr)
def test_ids_as_text_leaves_booleans_floats_and_others_identity_problems(
    tmp_path: Path, case_id: Any
) -> None:
    rows = [{"id": case_id, "a": True, "b": False}]
    assert run_rows(tmp_path, rows, "{ids: as-text}").actual == {"error": "review-case-identity"}


def test_an_integer_id_longer_than_python_prints_is_read_exactly(tmp_path: Path) -> None:
    long = decimal_int("7" * 5000)
    (tmp_path / "e.jsonl").write_text(f'{{"id": {"7" * 5000}, "a": true, "b": false}}\n')
    path = tmp_path / "c.rubric.yaml"
    path.write_text(
        "evaluator: agreement\ncases:\n  - id: x\n    input_file: e.jsonl\n"
        "    ledger: {ids: as-text}\n    expected: {}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(path, "c.rubric.yaml", root=tmp_path).cases
    outcome = run_case(case, AGREEMENT, path="c.rubric.yaml", source="")
    assert outcome.actual is not None
    assert answer(outcome)["disagreements"] == ["7" * 5000]
    assert decimal_int(decimal_text(long)) == long


@settings(max_examples=60, deadline=None)
@given(st.integers() | st.integers(min_value=10**4300, max_value=10**9000))
def test_decimal_text_writes_every_integer_exactly(value: int) -> None:
    text = decimal_text(value)
    assert decimal_int(text) == value
    assert text == text.lstrip("0") or text == "0"


@pytest.mark.parametrize(
    ("ledger", "message"),
    [
        (
            "{ids: text}",
            "c.rubric.yaml:5:19: ledger 'ids' is \"text\" (a string); write 'ids: as-text' to "
            "read an integer ID as its decimal text, or leave it out",
        ),
        (
            "{where: status}",
            "c.rubric.yaml:5:21: ledger 'where' must be a mapping of key paths to the values "
            "they must hold, not \"status\" (a string); write e.g. 'where: {status: submitted}'",
        ),
        (
            "{a: [label, 0]}",
            "c.rubric.yaml:5:25: ledger 'a' part 2 is 0 (a number); write it quoted ('0')",
        ),
        (
            "{where: {'a..b': 1}}",
            "c.rubric.yaml:5:22: ledger 'where' key 'a..b' has an empty part between its dots; "
            "write the key path as its keys joined by single dots, or in the list form as the "
            "key ('[outer, key.with.dots]': VALUE) for keys that hold a dot",
        ),
    ],
    ids=[
        "ids-not-as-text",
        "where-not-a-mapping",
        "where-key-with-an-empty-part",
        "a-number-in-the-list-form",
    ],
)
def test_a_slip_in_ids_or_where_is_refused_at_its_place(
    tmp_path: Path, ledger: str, message: str
) -> None:
    (problem,) = problems_of(tmp_path, ledger)
    assert problem.startswith(message)


# -- where ------------------------------------------------------------------------------------


def test_where_keeps_the_rows_holding_exactly_each_value(tmp_path: Path) -> None:
    rows = [
        {"id": "h1", "a": True, "b": True, "status": "submitted", "round": 1},
        {"id": "h2", "a": True, "b": False, "status": "draft", "round": 1},
        {"id": "h3", "a": False, "b": False, "status": "submitted", "round": True},
        {"id": "h4", "a": False, "b": True, "round": 1},
    ]
    outcome = run_rows(tmp_path, rows, "{where: {status: submitted, round: 1}}")
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 0},
        "agreement": 1,
        "total": 1,
        "disagreements": [],
    }
    assert outcome.evidence is not None
    # true is not 1: strict JSON equality.
    assert outcome.evidence.facts["left out"] == (
        "3 rows by 'where' (status is not \"submitted\": 1; round is not 1: 1; no status: 1)"
    )


def test_where_that_keeps_nothing_is_a_case_error_never_an_empty_ledger(tmp_path: Path) -> None:
    rows = [{"id": "h1", "a": True, "b": True, "status": "Submitted"}]
    outcome = run_rows(tmp_path, rows, "{where: {status: submitted}}")
    assert outcome.outcome == CASE_ERROR
    assert outcome.problems == (
        "c.rubric.yaml:5:22: 'where' leaves out the only row (status is not "
        '"submitted": 1); the first: e.jsonl:1 holds "Submitted" at status, so the ledger '
        "would be empty; write the values as the export holds them",
    )


def test_where_on_a_csv_compares_text(tmp_path: Path) -> None:
    (tmp_path / "e.csv").write_text("id,a,b,round\nh1,true,true,1\nh2,true,false,2\n")
    path = tmp_path / "c.rubric.yaml"
    path.write_text(
        "evaluator: agreement\ncases:\n  - id: x\n    input_file: e.csv\n"
        "    ledger: {labels: {'true': true, 'false': false}, where: {round: '1'}}\n"
        "    expected: {}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(path, "c.rubric.yaml", root=tmp_path).cases
    outcome = run_case(case, AGREEMENT, path="c.rubric.yaml", source="")
    assert outcome.actual is not None
    assert answer(outcome)["total"] == 1


def test_where_and_ids_work_through_a_pytest_run(pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("e.jsonl").write_text(
        "".join(
            json.dumps(row) + "\n"
            for row in [
                {"id": 1, "a": True, "b": False, "status": "submitted"},
                {"id": 2, "a": True, "b": True, "status": "discarded"},
            ]
        )
    )
    pytester.makefile(
        ".rubric.yaml",
        weeks="""\
        evaluator: agreement
        cases:
          - id: kept
            input_file: e.jsonl
            ledger: {ids: as-text, where: {status: submitted}}
            expected:
              matrix: {bothPass: 0, bothFail: 0, aOnly: 1, bOnly: 0}
              agreement: 0
              total: 1
              disagreements: ['1']
        """,
    )
    result = pytester.runpytest("-p", "no:randomly", "-v")
    result.assert_outcomes(passed=1)


def test_an_integer_id_without_ids_as_text_is_told_ids_as_text_not_to_edit_the_export(
    tmp_path: Path,
) -> None:
    rows = [{"task": "t1", "a": True, "b": True}, {"task": 7, "a": True, "b": False}]
    outcome = run_rows(tmp_path, rows, "{id: task}")
    assert outcome.actual == {"error": "review-case-identity"}
    assert outcome.evidence is not None
    assert outcome.evidence.problem == (
        "e.jsonl:2 rows[1].id is 7 (a number), and an ID is text; read the export's integer "
        "IDs as their decimal text with 'ids: as-text' under 'ledger:' (c.rubric.yaml:5:18)"
    )
    inline = run_case(
        agreement_case(tmp_path, {}, "    input: {rows: [{id: 7, a: true, b: true}]}\n"),
        AGREEMENT,
        path="c.rubric.yaml",
        source="",
    )
    assert inline.evidence is not None
    assert inline.evidence.problem == "rows[0].id is 7 (a number), not a string; quote it: id: '7'"


@pytest.mark.parametrize("rows_form", ["{id: task}", "{id: task, ids: as-text}"])
def test_a_float_id_in_an_export_is_told_to_fix_the_export_never_to_quote_it(
    tmp_path: Path, rows_form: str
) -> None:
    rows = [{"task": "t1", "a": True, "b": True}, {"task": 7.0, "a": True, "b": False}]
    outcome = run_rows(tmp_path, rows, rows_form)
    assert outcome.actual == {"error": "review-case-identity"}
    assert outcome.evidence is not None
    assert outcome.evidence.problem == (
        "e.jsonl:2 rows[1].id is 7.0 (a number), and an ID is text; write the IDs as text in "
        "the export itself: 'ids: as-text', under 'ledger:' (c.rubric.yaml:5:18), reads "
        "integers only, never 7.0"
    )


NESTED_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(0, 3) | st.sampled_from(["a", "0"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "0", "1"]), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(
    row=NESTED_VALUES,
    parts=st.lists(st.sampled_from(["a", "b", "0", "1", "01"]), min_size=1, max_size=4),
)
def test_every_getter_reads_a_path_as_the_one_walk_does(row: Any, parts: list[str]) -> None:
    from pytest_rubric.descriptions.keypaths import walk_steps

    key = KeyPath(tuple(parts), (1, 1), ".".join(parts))
    steps = [(part, index_of(part)) for part in parts]
    assert getter(key)(row) is walk_steps(row, steps) or getter(key)(row) == walk_steps(row, steps)
