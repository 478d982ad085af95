"""JSON values shown and copied (core.jsonvalues: plain, show, normalised, json_problem;
core.packed; core.numbers.decimal_int; and describe and int_text, which the evaluators show
values with): integers too long for ``str()``, hostile text, huge values shown from their
start without reading them all."""

from __future__ import annotations

import decimal
import json
from typing import Any

import pytest
from _edges import BIG, BIG_SHOWN, hostile, hostile_text, huge_integers
from hypothesis import assume, given
from hypothesis import strategies as st

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsoncheck import json_problem
from pytest_rubric.core.jsonvalues import _plain, plain
from pytest_rubric.core.numbers import decimal_int
from pytest_rubric.core.shown import _json_text, show
from pytest_rubric.editing.readback import identical
from pytest_rubric.evaluators._common import describe, int_text

# --- integers too long for str() ----------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (BIG, BIG_SHOWN),
        (-BIG, f"-{BIG_SHOWN}"),
        ([1, {"n": BIG}], f'[1, {{"n": {BIG_SHOWN}}}] (a list)'),
    ],
    ids=["huge", "negative", "nested"],
)
def test_describe_shows_integers_too_long_to_print_abbreviated(value: Any, shown: str) -> None:
    assert describe(value) == shown


def test_int_text_prints_what_str_can_and_estimates_an_absurd_integer_cheaply() -> None:
    assert int_text(10**4213) == str(10**4213)
    assert int_text(1 << 5_000_000).endswith("(an integer of about 1505151 digits)")


def _decimal_text(value: int) -> str:
    # The decimal module converts without the int/str digit limit.
    return str(decimal.Decimal(value))


@given(
    value=st.integers()
    | st.binary(min_size=1, max_size=3000).map(lambda data: int.from_bytes(data, "big")),
    negative=st.booleans(),
)
def test_decimal_int_reads_integers_of_any_length_exactly(value: int, negative: bool) -> None:
    value = -value if negative else value
    assert decimal_int(_decimal_text(value)) == value


# --- hostile values: described, copied, shown, packed -------------------------------------


@given(value=hostile)
def test_describe_never_raises(value: Any) -> None:
    assert describe(value)


class _Text(str):
    pass


@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | huge_integers | st.floats() | hostile_text,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.lists(inner, max_size=3).map(tuple)
            | st.dictionaries(hostile_text | st.integers(), inner, max_size=3)
            | inner.map(lambda leaf: _Text(leaf) if isinstance(leaf, str) else leaf)
        ),
        max_leaves=12,
    ),
    depth=st.integers(0, 4),
)
def test_plain_gives_a_clean_value_back_uncopied_and_copies_the_rest(
    value: Any, depth: int
) -> None:
    # The copy plain() made of every value before it gave clean ones back as they are.
    copy = _plain(value, depth, set())
    shown = plain(value, depth=depth)
    assert identical(shown, copy)
    if shown is value:
        assert identical(value, copy)


@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | huge_integers | st.floats() | hostile_text,
        lambda inner: (
            st.lists(inner, max_size=12) | st.dictionaries(hostile_text, inner, max_size=12)
        ),
        max_leaves=60,
    ),
    limit=st.integers(1, 40),
)
def test_a_value_shown_from_its_start_reads_as_the_whole_value_shown(
    value: Any, limit: int
) -> None:
    # show() reads only the first limit // 3 + 1 entries of each list and mapping; the
    # text must be what rendering the whole value and cutting it gives.
    whole = escape_controls(_json_text(plain(value)))
    expected = whole if len(whole) <= limit else f"{whole[: limit - 1]}…"
    assert show(value, limit=limit) == expected


def test_a_huge_answer_is_shown_without_reading_it_all() -> None:
    class Counted(list[int]):
        read = 0

        def __iter__(self) -> Any:
            for item in super().__iter__():
                Counted.read += 1
                yield item

    shown = show(Counted(range(1_000_000)), limit=60)
    assert shown == "[" + ", ".join(map(str, range(100)))[:58] + "…"
    assert Counted.read == 60 // 3 + 1


@given(value=st.dictionaries(hostile_text, hostile, max_size=4))
def test_a_case_keeps_its_input_packed_and_gives_back_an_equal_fresh_copy(value: Any) -> None:
    from pytest_rubric.core.packed import pack, plain_copy, unpack

    assume(json_problem(value) is None)  # what a case file can hold: no NaN, no infinity
    packed = pack(value)
    first, second = unpack(packed), unpack(packed)
    assert identical(first, value)  # same types throughout: true is not 1, 1.0 is not 1
    assert first is not value
    assert first is not second
    assert identical(plain_copy(packed), plain(value))  # as a report carries it
    if isinstance(packed, dict):  # only what JSON text cannot hold stays a mapping
        # An integer str() refuses, or a lone surrogate UTF-8 cannot encode.
        with pytest.raises((ValueError, UnicodeEncodeError), match=r"digits|surrogate"):
            json.dumps(value, ensure_ascii=False).encode("utf-8")
