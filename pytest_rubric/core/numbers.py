"""Integers written as decimal text and read from it, whole however long, in linear time.

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


#: Text that marks an integer written as text because it has too many digits.
BIG_INTEGER = "(integer of {digits} digits) {hex}"


#: An integer of at most this many bits has at most 4214 decimal digits, under
#: CPython's default limit of 4300 for ``str(int)``, and is printed whole.
WHOLE_INT_BITS = 14_000
#: Past this many bits (about 1.2 million digits) even counting the digits exactly
#: costs noticeable time; the count is then estimated from the bit length.
_COUNTED_INT_BITS = 4_000_000
_LOG10_2 = 0.30102999566398120


def decimal_digits(value: int) -> int:
    """How many decimal digits ``abs(value)`` has (estimated past about 1.2 million
    digits), without ``str``, which refuses integers past CPython's 4300-digit limit."""
    magnitude = abs(value)
    digits = int(magnitude.bit_length() * _LOG10_2) + 1  # exact, or one too many
    if (
        magnitude.bit_length() <= _COUNTED_INT_BITS
        and digits > 1
        and magnitude < 10 ** (digits - 1)
    ):
        digits -= 1
    return digits


def int_text(value: int) -> str:
    """``value`` in decimal, or ``1234…5678 (an integer of 5000 digits)`` when it is too
    long to print whole. Never raises and never changes Python's int/str limit."""
    if value.bit_length() <= WHOLE_INT_BITS:
        try:
            return str(value)
        except ValueError:  # the user lowered sys.set_int_max_str_digits below 4214
            pass
    sign = "-" if value < 0 else ""
    magnitude = -value if value < 0 else value
    tail = f"{magnitude % 10_000:04d}"
    digits = decimal_digits(magnitude)
    if magnitude.bit_length() > _COUNTED_INT_BITS:
        return f"{sign}…{tail} (an integer of about {digits} digits)"
    # Dividing by a power of ten close to the value leaves a tiny quotient: cheap.
    head = magnitude // 10 ** (digits - 4)
    return f"{sign}{head}…{tail} (an integer of {digits} digits)"
