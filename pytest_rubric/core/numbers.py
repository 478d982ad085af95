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
