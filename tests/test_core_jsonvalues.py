"""``core.jsonvalues``: any value carried as plain JSON, copied only where it must be (the
rest of what was once this module is tested beside its new home: test_core_shown,
test_core_numbers, test_core_packed)."""

from __future__ import annotations

from typing import Any

from _edges import hostile_text, huge_integers
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.core.jsonvalues import _plain, plain
from pytest_rubric.editing.readback import identical


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
