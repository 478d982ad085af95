from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric import RubricConfigError, RubricInputError, evaluate_reason
from pytest_rubric.core.compare import json_equal
from pytest_rubric.evaluators import explain_reason
from pytest_rubric.evaluators.reason import evaluate_required, parse_required

INVALID = {"status": "invalid-reason-input"}
CODES = ["missing-title", "missing-source", "all-required-met"]


def record(title: Any = True, source: Any = True, passed: Any = True, reasons: Any = None) -> Any:
    return {
        "fields": {"title": title, "source": source},
        "pass": passed,
        "reasons": ["all-required-met"] if reasons is None else reasons,
    }


SEED_CASES = [
    (
        "contradictory-reason",
        record(False, True, False, ["all-required-met"]),
        {"expectedPass": False, "expectedReasons": ["missing-title"], "coherent": False},
    ),
    (
        "two-missing-reasons",
        record(False, False, False, ["missing-source", "missing-title"]),
        {
            "expectedPass": False,
            "expectedReasons": ["missing-source", "missing-title"],
            "coherent": True,
        },
    ),
    ("unknown-reason", record(True, True, True, ["looks-good"]), INVALID),
]


@pytest.mark.parametrize(
    ("record", "expected"), [c[1:] for c in SEED_CASES], ids=[c[0] for c in SEED_CASES]
)
def test_the_seed_cases_give_the_seed_answers(record: Any, expected: Any) -> None:
    assert json_equal(evaluate_reason(record), expected)
    assert json.dumps(evaluate_reason(record)) == json.dumps(expected)  # key order too


EDGE_CASES = [
    ("title-is-1", record(title=1), INVALID),
    ("title-is-0", record(title=0, passed=False, reasons=["missing-title"]), INVALID),
    ("source-is-string-true", record(source="true"), INVALID),
    ("pass-is-yes", record(passed="yes"), INVALID),
    ("pass-is-none", record(passed=None), INVALID),
    ("pass-is-1", record(passed=1), INVALID),
    ("pass-missing", {"fields": {"title": True, "source": True}, "reasons": []}, INVALID),
    ("reasons-missing", {"fields": {"title": True, "source": True}, "pass": True}, INVALID),
    ("fields-missing", {"pass": True, "reasons": []}, INVALID),
    ("fields-is-list", {"fields": [True, True], "pass": True, "reasons": []}, INVALID),
    ("fields-is-none", {"fields": None, "pass": True, "reasons": []}, INVALID),
    ("title-missing", {"fields": {"source": True}, "pass": True, "reasons": []}, INVALID),
    ("reasons-is-string", record(reasons="all-required-met"), INVALID),
    ("reasons-is-mapping", record(reasons={"all-required-met": True}), INVALID),
    ("repeated-code", record(reasons=["all-required-met", "all-required-met"]), INVALID),
    ("unhashable-junk", record(reasons=[["x"], {"a": 1}, ["x"]]), INVALID),
    ("unhashable-twice", record(reasons=[[], []]), INVALID),
    ("non-string-code", record(reasons=[1]), INVALID),
    ("code-case-differs", record(reasons=["All-required-met"]), INVALID),
    (
        "empty-reasons-on-pass",
        record(reasons=[]),
        {"expectedPass": True, "expectedReasons": ["all-required-met"], "coherent": False},
    ),
    (
        "pass-recorded-for-missing-source",
        record(source=False, passed=True, reasons=["missing-source"]),
        {"expectedPass": False, "expectedReasons": ["missing-source"], "coherent": False},
    ),
    (
        "extra-keys-ignored",
        {**record(), "note": "free prose", "fields": {"title": True, "source": True, "x": 1}},
        {"expectedPass": True, "expectedReasons": ["all-required-met"], "coherent": True},
    ),
]


@pytest.mark.parametrize(
    ("record", "expected"), [c[1:] for c in EDGE_CASES], ids=[c[0] for c in EDGE_CASES]
)
def test_edge_inputs_get_the_strict_answer(record: Any, expected: Any) -> None:
    assert json_equal(evaluate_reason(record), expected)


@pytest.mark.parametrize("junk", [None, [], "record", 1, True])
def test_a_non_mapping_record_raises_rubric_input_error(junk: Any) -> None:
    with pytest.raises(RubricInputError, match="must be a mapping"):
        evaluate_reason(junk)


def test_rubric_input_error_is_a_value_error() -> None:
    assert issubclass(RubricInputError, ValueError)


@pytest.mark.parametrize(
    ("value", "hint"),
    [
        ("false", 'fields.source is "false" (a string), not a boolean; write false without quotes'),
        (
            " False ",
            'fields.source is " False " (a string), not a boolean; write false: only true and '
            "false, in lowercase and with nothing around them, are booleans (unquoted in YAML "
            "and JSON)",
        ),
        (
            "TRUE",
            'fields.source is "TRUE" (a string), not a boolean; write true: only true and '
            "false, in lowercase and with nothing around them, are booleans (unquoted in YAML "
            "and JSON)",
        ),
        (1, "fields.source is 1 (a number), not a boolean; write true, not 1"),
        (0.0, "fields.source is 0.0 (a number), not a boolean; write false, not 0.0"),
        (2, "fields.source is 2 (a number), not a boolean"),
        (
            "yes",
            'fields.source is "yes" (a string), not a boolean; YAML 1.1 readers take yes as a '
            "boolean, but here it is text: write true",
        ),
        (
            "Off",
            'fields.source is "Off" (a string), not a boolean; YAML 1.1 readers take Off as a '
            "boolean, but here it is text: write false",
        ),
        (
            "n",
            'fields.source is "n" (a string), not a boolean; YAML 1.1 readers take n as a '
            "boolean, but here it is text: write false",
        ),
        ("yess", 'fields.source is "yess" (a string), not a boolean'),
        ("nO", 'fields.source is "nO" (a string), not a boolean'),
        (None, "fields.source is empty (null), not a boolean"),
    ],
)
def test_a_value_that_is_almost_a_boolean_gets_the_fix_and_others_do_not(
    value: Any, hint: str
) -> None:
    assert explain_reason(record(source=value)).problem == hint


def test_the_evidence_names_the_value_that_made_a_record_invalid() -> None:
    evidence = explain_reason(record(source="true"))
    assert (
        evidence.problem
        == 'fields.source is "true" (a string), not a boolean; write true without quotes'
    )
    assert explain_reason(record(reasons=["looks-good"])).problem == (
        'reasons[0] is "looks-good" (a string), not a declared code '
        "(missing-title, missing-source, all-required-met)"
    )
    assert explain_reason(record(reasons=["all-required-met", "all-required-met"])).problem == (
        "reasons[1] repeats 'all-required-met' (first at reasons[0])"
    )


def test_the_evidence_checks_result_and_reasons_separately() -> None:
    evidence = explain_reason(record(False, True, False, ["all-required-met"]))
    assert evidence.problem is None
    assert evidence.facts == {
        "fields": {"title": False, "source": True},
        "missing codes": ["missing-title"],
        "pass": {"recorded": False, "rubric": False, "match": True},
        "reasons": {"recorded": ["all-required-met"], "rubric": ["missing-title"], "match": False},
    }


booleans = st.booleans()
codes = st.lists(st.sampled_from(CODES), unique=True)
junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(title=booleans, source=booleans, passed=booleans, reasons=codes, data=st.data())
def test_reordering_reasons_never_changes_the_answer(
    title: bool, source: bool, passed: bool, reasons: list[str], data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(reasons))
    assert evaluate_reason(record(title, source, passed, reasons)) == evaluate_reason(
        record(title, source, passed, shuffled)
    )


@given(title=booleans, source=booleans, passed=booleans, reasons=codes)
def test_a_valid_record_is_coherent_exactly_when_result_and_reason_set_both_match(
    title: bool, source: bool, passed: bool, reasons: list[str]
) -> None:
    answer = evaluate_reason(record(title, source, passed, reasons))
    missing = [c for c, ok in (("missing-title", title), ("missing-source", source)) if not ok]
    expected_reasons = sorted(missing) if missing else ["all-required-met"]
    assert answer["expectedPass"] is (title and source)
    assert answer["expectedReasons"] == expected_reasons
    assert answer["coherent"] is (
        passed is (title and source) and set(reasons) == set(expected_reasons)
    )


@given(
    value=junk.filter(lambda v: type(v) is not bool),
    slot=st.sampled_from(["title", "source", "pass"]),
)
def test_any_non_boolean_field_or_result_is_invalid(value: Any, slot: str) -> None:
    rec = record()
    if slot == "pass":
        rec["pass"] = value
    else:
        rec["fields"][slot] = value
    assert evaluate_reason(rec) == INVALID


@given(rec=st.dictionaries(st.sampled_from(["fields", "pass", "reasons", "x"]), junk, max_size=4))
def test_any_mapping_gets_an_answer_and_is_never_mutated(rec: dict[str, Any]) -> None:
    before = copy.deepcopy(rec)
    answer = evaluate_reason(rec)
    assert rec == before
    assert set(answer) in ({"status"}, {"expectedPass", "expectedReasons", "coherent"})
    json.dumps(answer)
    explain_reason(rec)


@given(reasons=st.lists(junk, max_size=5))
def test_junk_reasons_never_crash(reasons: list[Any]) -> None:
    answer = evaluate_reason(record(reasons=reasons))
    if not all(isinstance(r, str) and r in CODES for r in reasons) or len(
        set(map(str, reasons))
    ) != len(reasons):
        assert answer == INVALID


# --- rubric: {required: [...]}: the fields a case file requires ---------------------------


THREE_FIELDS = """\
evaluator: reason
rubric: {{required: [title, source, author]}}
cases:
  - id: case
    input: {{fields: {fields}, pass: {passed}, reasons: {reasons}}}
    expected: {expected}
"""


@pytest.mark.parametrize(
    ("fields", "passed", "reasons", "expected"),
    [
        (
            "{title: true, source: true, author: true}",
            "true",
            "[all-required-met]",
            "{expectedPass: true, expectedReasons: [all-required-met], coherent: true}",
        ),
        (
            "{title: false, source: true, author: false}",
            "false",
            "[missing-title, missing-author]",
            "{expectedPass: false, expectedReasons: [missing-author, missing-title], coherent: true}",
        ),
        (
            "{title: true, source: true}",
            "true",
            "[all-required-met]",
            "{status: invalid-reason-input}",
        ),
        ("{title: true, source: true, author: 1}", "true", "[]", "{status: invalid-reason-input}"),
        (
            "{title: true, source: true, author: true}",
            "true",
            "[missing-editor]",
            "{status: invalid-reason-input}",
        ),
        (
            "{title: true, source: false, author: true}",
            "false",
            "[missing-source, missing-source]",
            "{status: invalid-reason-input}",
        ),
    ],
    ids=[
        "all-met",
        "two-missing-sorted",
        "field-missing",
        "field-not-boolean",
        "unknown-code",
        "repeated-code",
    ],
)
def test_a_three_field_rubric_block_has_the_seed_semantics(
    pytester: pytest.Pytester, fields: str, passed: str, reasons: str, expected: str
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c=THREE_FIELDS.format(fields=fields, passed=passed, reasons=reasons, expected=expected),
    )
    pytester.runpytest().assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (
            "rubric: {required: []}",
            "c.rubric.yaml:2:20: rubric: 'required' must be a non-empty list of field names, "
            "not [] (a list); write e.g. 'required: [title, source, author]'",
        ),
        (
            "rubric: {required: title}",
            "c.rubric.yaml:2:20: rubric: 'required' must be a non-empty list of field names, "
            "not \"title\" (a string); write e.g. 'required: [title, source, author]'",
        ),
        (
            "rubric: {required: [title, '  ']}",
            'c.rubric.yaml:2:28: rubric: a required field must be a non-blank name, not "  " (a string)',
        ),
        (
            "rubric: {required: [title, source, title]}",
            "c.rubric.yaml:2:36: rubric: required field 'title' is listed twice (first as item 1); "
            "list each field once",
        ),
        (
            "rubric: {required: [title, 3]}",
            "c.rubric.yaml:2:28: rubric: a required field must be a non-blank name, not 3 (a number)",
        ),
        (
            "rubric: {requird: [title]}",
            "c.rubric.yaml:2:19: rubric: 'requird' is not a rubric key; "
            "the block is 'rubric: {required: [field, ...]}'",
        ),
        (
            "rubric: [title, source]",
            "c.rubric.yaml:2:9: 'rubric' must be a mapping that configures the evaluator, "
            'not ["title", "source"] (a list); '
            "write e.g. 'rubric: {required: [title, source, author]}'",
        ),
    ],
)
def test_a_bad_rubric_block_is_a_collection_error_at_its_place(
    pytester: pytest.Pytester, block: str, message: str
) -> None:
    pytester.makefile(".rubric.yaml", c=f"evaluator: reason\n{block}\ncases: []\n")
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*_ ERROR collecting c.rubric.yaml _*", message], consecutive=True)
    assert result.ret == pytest.ExitCode.INTERRUPTED


records = st.fixed_dictionaries(
    {
        "fields": st.dictionaries(
            st.sampled_from(["title", "source", "x"]), st.booleans() | st.integers()
        ),
        "pass": st.booleans() | st.none(),
        "reasons": st.lists(
            st.sampled_from(["missing-title", "missing-source", "all-required-met", "x"])
        ),
    }
)


@given(record=records)
def test_required_title_and_source_is_exactly_the_seed_rubric(record: dict[str, Any]) -> None:
    assert evaluate_required(record, ("title", "source")) == evaluate_reason(record)


@given(
    fields=st.lists(
        st.text(min_size=1, max_size=6).filter(lambda t: t == t.strip()), min_size=1, unique=True
    ),
    data=st.data(),
)
def test_any_valid_required_list_gives_sorted_missing_codes(
    fields: list[str], data: st.DataObject
) -> None:
    assert parse_required({"required": fields}) == tuple(fields)
    values = {name: data.draw(st.booleans()) for name in fields}
    record = {"fields": values, "pass": all(values.values()), "reasons": []}
    answer = evaluate_required(record, tuple(fields))
    missing = [f"missing-{name}" for name in fields if not values[name]]
    expected = missing or ["all-required-met"]
    assert answer["expectedReasons"] == sorted(
        expected, key=lambda c: c.encode("utf-16-be", "surrogatepass")
    )
    assert answer["expectedPass"] is (not missing)


def test_parse_required_names_where_the_block_is_wrong() -> None:
    with pytest.raises(RubricConfigError) as info:
        parse_required({"required": ["a", "b", "a"]})
    assert info.value.where == ("required", 2)
