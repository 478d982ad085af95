"""``core/schemacheck.py``: the verdict of ``jsonschema`` on every keyword it reads."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.schemacheck import answer_problems

KEYS = ["a", "b", "ab"]
TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"]
#: Patterns that Python's ``re`` and ECMA 262 read alike.
PATTERNS = ["^a", "b$", "^ab$", "."]

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=3)
    | st.sampled_from([0.0, 1.0, -1.5, 2.5])
    | st.sampled_from(["", "a", "b"])
)
values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner),
    max_leaves=8,
)


def _keywords(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Schemas of one to three of the keywords ``schemacheck`` claims to read."""
    one = st.one_of(
        st.builds(lambda t: {"type": t}, st.sampled_from(TYPES)),
        st.builds(
            lambda t: {"type": t},
            st.lists(st.sampled_from(TYPES), min_size=1, max_size=2, unique=True),
        ),
        st.builds(lambda v: {"enum": v}, st.lists(_scalars, min_size=1, max_size=3)),
        st.builds(lambda v: {"const": v}, values),
        st.builds(lambda v: {"minimum": v}, st.integers(-2, 2) | st.sampled_from([0.5, -1.5])),
        st.builds(
            lambda v: {"properties": v}, st.dictionaries(st.sampled_from(KEYS), inner, max_size=2)
        ),
        st.builds(
            lambda v: {"patternProperties": v},
            st.dictionaries(st.sampled_from(PATTERNS), inner, max_size=2),
        ),
        st.builds(lambda v: {"additionalProperties": v}, inner),
        st.builds(
            lambda v: {"required": v}, st.lists(st.sampled_from(KEYS), max_size=2, unique=True)
        ),
        st.builds(lambda v: {"prefixItems": v}, st.lists(inner, min_size=1, max_size=2)),
        st.builds(lambda v: {"items": v}, inner),
        st.builds(lambda v: {"uniqueItems": v}, st.booleans()),
        st.builds(lambda v: {"allOf": v}, st.lists(inner, min_size=1, max_size=2)),
        st.builds(lambda v: {"anyOf": v}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda v: {"oneOf": v}, st.lists(inner, min_size=1, max_size=3)),
    )
    return st.lists(one, min_size=1, max_size=3).map(
        lambda parts: {k: v for p in parts for k, v in p.items()}
    )


schemas = st.recursive(
    st.just({}) | st.builds(lambda t: {"type": t}, st.sampled_from(TYPES)),
    lambda inner: _keywords(inner | st.booleans()),
    max_leaves=6,
)


@settings(max_examples=400, deadline=None)
@given(schema=schemas, value=values)
def test_the_verdict_is_jsonschemas_on_every_keyword_it_reads(
    schema: dict[str, Any], value: Any
) -> None:
    expected = Draft202012Validator(schema).is_valid(value)
    assert (answer_problems(value, schema, "answers") == []) is expected


SCORE: list[JSON] = [{"type": "integer"}, {"type": "number", "minimum": 0}]
ONE_OF: dict[str, JSON] = {"type": "object", "properties": {"score": {"oneOf": SCORE}}}


@pytest.mark.parametrize(
    ("value", "problems"),
    [
        ({"score": -2}, []),
        ({"score": 0.5}, []),
        (
            {"score": 2},
            [
                "expected.score is 2 (a number), which fits 2 of its 2 oneOf choices; answers fit exactly one"
            ],
        ),
        ({"score": "2"}, ['expected.score is "2" (a string), not an integer']),
    ],
    ids=["only-the-first", "only-the-second", "both", "neither"],
)
def test_oneof_takes_a_value_that_fits_exactly_one_choice(value: Any, problems: list[str]) -> None:
    assert answer_problems(value, ONE_OF, "answers") == problems
    assert Draft202012Validator(ONE_OF).is_valid(value) is (problems == [])


def test_anyof_takes_a_value_that_fits_several_choices() -> None:
    assert answer_problems(2, {"anyOf": SCORE}, "answers") == []


@pytest.mark.parametrize(
    ("subset", "problems"),
    [
        ({"coherent": True}, []),
        ({"status": "invalid-reason-input"}, []),
        (
            {"coherant": True},
            ["expected_subset.coherant is not a key of reason's answers"],
        ),
        (  # each value whole: a partial mapping is told what it lacks
            {"expectedReasons": "missing-title"},
            ['expected_subset.expectedReasons is "missing-title" (a string), not a list'],
        ),
        (  # keys of two shapes: no answer holds both
            {"coherent": True, "status": "invalid-reason-input"},
            ["expected_subset.status is not a key of reason's answers"],
        ),
    ],
)
def test_a_subset_is_held_to_the_shapes_that_name_its_keys(
    subset: dict[str, Any], problems: list[str]
) -> None:
    from pytest_rubric.core.schemacheck import subset_problems
    from pytest_rubric.evaluators.builtin import REASON

    assert REASON.answer_schema is not None
    found = subset_problems(subset, REASON.answer_schema, "reason's answers")
    assert [problem.split(";")[0] for problem in found] == problems
