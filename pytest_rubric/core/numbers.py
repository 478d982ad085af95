"""Integers written as decimal text, read whole however long, in linear time.

Python's ``int()`` stops at 4300 decimal digits (a process-wide limit, never changed
here); :func:`decimal_int` reads past it in pieces. Case files, ledgers and input files
all read their numbers through here.
"""

from __future__ import annotations

#: A number written with more characters than this is refused. Python's ``int()`` stops
#: at 4300 decimal digits because reading more costs quadratic time; :func:`decimal_int`
#: reads past that in pieces, and this bound keeps that work small and linear.
MAX_NUMBER_CHARS = 100_000

_DIGITS_AT_ONCE = 600


def decimal_int(text: str) -> int:
    """The integer written in decimal in ``text`` (an optional sign, then digits only).

    ``int(text)`` refuses more than 4300 digits (and fewer, if the limit was lowered);
    the limit is global state, so it is never changed: long numbers are read in
    pieces instead, split in halves so the cost stays well below quadratic.
    """
    sign = -1 if text[:1] == "-" else 1
    digits = text[1:] if text[:1] in "+-" else text
    return sign * _join_digits(digits, {})


def _join_digits(digits: str, powers: dict[int, int]) -> int:
    if len(digits) <= _DIGITS_AT_ONCE:
        return int(digits)
    low = len(digits) // 2
    power = powers.get(low)
    if power is None:
        power = powers[low] = 10**low
    return _join_digits(digits[:-low], powers) * power + _join_digits(digits[-low:], powers)


def decimal_text(value: int) -> str:
    """``value`` written in decimal, exactly, however long (``str()`` stops at Python's
    digit limit): split in halves by powers of ten, the inverse of :func:`decimal_int`."""
    if value < 0:
        return "-" + decimal_text(-value)
    return _split_digits(value, 0, {})


def _split_digits(value: int, width: int, powers: dict[int, int]) -> str:
    """``value`` in decimal, padded with zeros to ``width`` digits."""
    if value.bit_length() <= 3 * _DIGITS_AT_ONCE:  # under 600 digits: str() takes it
        return str(value).rjust(width, "0")
    low = (int(value.bit_length() * 0.30103) + 1) // 2
    power = powers.get(low)
    if power is None:
        power = powers[low] = 10**low
    high, rest = divmod(value, power)
    return _split_digits(high, max(width - low, 0), powers) + _split_digits(rest, low, powers)
