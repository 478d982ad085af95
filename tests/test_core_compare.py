from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.core.compare import MISSING, differences, json_equal

EQUAL = [
    ("same-bool", True, True),
    ("int-and-float", 2, 2.0),
    ("key-order", {"a": 1, "b": [1, 2]}, {"b": [1, 2], "a": 1}),
    ("nested", {"m": {"x": [True, None]}}, {"m": {"x": [True, None]}}),
    ("null", None, None),
    ("empty-list", [], []),
]
UNEQUAL = [
    ("true-is-not-1", True, 1),
    ("1-is-not-true", 1, True),
    ("false-is-not-0", False, 0),
    ("0-is-not-false", 0.0, False),
    ("string-true-is-not-true", "true", True),
    ("string-1-is-not-1", "1", 1),
    ("null-is-not-false", None, False),
    ("list-order-matters", [1, 2], [2, 1]),
    ("missing-key", {"a": 1}, {"a": 1, "b": 2}),
    ("extra-key", {"a": 1, "b": 2}, {"a": 1}),
    ("nested-true-is-not-1", {"m": [True]}, {"m": [1]}),
    ("list-is-not-mapping", [], {}),
    ("lengths-differ", [1], [1, 1]),
]


@pytest.mark.parametrize(("left", "right"), [c[1:] for c in EQUAL], ids=[c[0] for c in EQUAL])
def test_equal_json_values_are_equal_both_ways(left: Any, right: Any) -> None:
    assert json_equal(left, right)
    assert json_equal(right, left)


@pytest.mark.parametrize(("left", "right"), [c[1:] for c in UNEQUAL], ids=[c[0] for c in UNEQUAL])
def test_values_python_calls_equal_are_not_equal_json(left: Any, right: Any) -> None:
    assert not json_equal(left, right)
    assert not json_equal(right, left)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(left=json_values, right=json_values)
def test_json_equal_agrees_with_a_round_trip_through_typed_json(left: Any, right: Any) -> None:
    def typed(value: Any) -> Any:
        # Tag every scalar with its JSON type; numbers by value.
        if isinstance(value, bool) or value is None or isinstance(value, str):
            return [type(value).__name__, value]
        if isinstance(value, (int, float)):
            return ["number", float(value) if abs(value) < 2**53 else str(value)]
        if isinstance(value, list):
            return ["list", [typed(v) for v in value]]
        return ["dict", sorted((k, typed(v)) for k, v in value.items())]

    same = json.dumps(typed(left)) == json.dumps(typed(right))
    if any(isinstance(v, int) and abs(v) >= 2**53 for v in _leaves(left) + _leaves(right)):
        return  # float rounding makes the oracle unreliable there
    assert json_equal(left, right) is same


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    return [value]


@given(value=json_values)
def test_every_value_equals_itself_and_has_no_differences(value: Any) -> None:
    assert json_equal(value, value)
    assert differences(value, value) == []


def test_differences_name_each_key_with_both_values() -> None:
    expected = {"matrix": {"bothPass": 1, "aOnly": 0}, "total": 1, "gone": True}
    actual = {"matrix": {"bothPass": True, "aOnly": 0}, "total": 1.0, "new": []}
    assert differences(expected, actual) == [
        ("matrix.bothPass", 1, True),
        ("gone", True, MISSING),
        ("new", MISSING, []),
    ]


def test_a_str_subclass_is_text_on_either_side() -> None:
    class Label(str):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = str.__hash__

    assert json_equal(Label("A"), "A")
    assert json_equal("A", Label("A"))
    assert not json_equal(Label("A"), "B")
    assert not json_equal("B", Label("A"))
    assert not json_equal(Label("1"), 1)


def _twin(value: Any, draw: st.DrawFn) -> Any:
    """``value`` as another writer might give it: ``true`` for ``1`` and back, ``2.0`` for
    ``2``, ``-0.0`` for ``0``, keys in another order, or the same value."""
    if type(value) is bool and draw(st.booleans()):
        return int(value)
    if type(value) is int and draw(st.booleans()):
        return float(value) if abs(value) < 2**53 else value
    if type(value) is float and value == 0 and draw(st.booleans()):
        return -value
    if type(value) is int and value in (0, 1) and draw(st.booleans()):
        return bool(value)
    if isinstance(value, list):
        return [_twin(item, draw) for item in value]
    if isinstance(value, dict):
        items = [(key, _twin(item, draw)) for key, item in value.items()]
        return dict(draw(st.permutations(items)))
    return value


@st.composite
def _expected_and_answer(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    expected = draw(st.dictionaries(st.text(max_size=3), json_values, max_size=4))
    if draw(st.booleans()):
        return expected, _twin(expected, draw)
    return expected, draw(st.dictionaries(st.text(max_size=3), json_values, max_size=4))


@given(pair=_expected_and_answer())
def test_a_case_matches_exactly_when_its_answer_equals_its_expected_as_json(
    pair: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    """However the runner gets there (``==`` in C to refuse, equal text to accept, else a
    walk), a case matches if and only if :func:`json_equal` says its answer is equal."""
    from pytest_rubric import Evaluator
    from pytest_rubric.casefiles.loader import parse_case_file
    from pytest_rubric.running.runner import run_case

    expected, answer = pair
    evaluator = Evaluator(name="e", description="", evaluate=lambda _: answer, explain=None)
    case = parse_case_file(
        b"evaluator: e\ncases:\n  - {id: c, input: {}, expected: {}}\n", "c.rubric.yaml"
    ).cases[0]
    outcome = run_case(case.with_expected(expected), evaluator, path="c.rubric.yaml", source="t")
    assert outcome.outcome == ("matched" if json_equal(expected, answer) else "mismatched")
