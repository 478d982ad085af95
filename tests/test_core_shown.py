"""``core.shown``: values shown in messages: ``describe`` (a value and its kind, integers
too long for ``str()`` abbreviated, never raising on hostile values) and ``show`` (JSON text
cut at a limit, read from its start without reading a huge value whole)."""

from __future__ import annotations

from typing import Any

import pytest
from _edges import BIG, BIG_SHOWN, hostile, hostile_text, huge_integers
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import plain
from pytest_rubric.core.shown import _json_text, describe, show


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


@given(value=hostile)
def test_describe_never_raises(value: Any) -> None:
    assert describe(value)


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
