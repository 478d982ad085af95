"""``core.numbers``: integers of any length, read from decimal text exactly and printed as
far as ``str()`` can, an absurd one estimated cheaply."""

from __future__ import annotations

import decimal

from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.core.numbers import decimal_int, int_text


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
