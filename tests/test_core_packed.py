"""``core.packed``: a case's input kept packed, given back as an equal fresh copy."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _edges import hostile, hostile_text
from hypothesis import assume, given
from hypothesis import strategies as st

from pytest_rubric.core.jsoncheck import json_problem
from pytest_rubric.core.jsonvalues import plain
from pytest_rubric.core.packed import pack, plain_copy, unpack
from pytest_rubric.editing.readback import identical


@given(value=st.dictionaries(hostile_text, hostile, max_size=4))
def test_a_case_keeps_its_input_packed_and_gives_back_an_equal_fresh_copy(value: Any) -> None:
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
