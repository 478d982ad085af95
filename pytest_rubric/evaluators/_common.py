"""Small helpers shared by the built-in evaluators (no pytest, no yaml)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from pytest_rubric.jsonvalues import JSON
from pytest_rubric.registry import Evidence

__all__ = ["JSON", "Evidence", "describe", "is_bool", "js_sorted", "kind_of", "not_boolean"]


def is_bool(value: object) -> bool:
    """True only for real booleans: ``bool`` is a subclass of ``int`` in Python,
    so ``isinstance(1, bool)`` is false but ``1 == True``; test the type."""
    return type(value) is bool


def js_sorted(strings: Iterable[str]) -> list[str]:
    """Sort as JavaScript's default ``Array.prototype.sort`` does: by UTF-16 code
    units, which differs from Python's code-point order above U+FFFF."""
    return sorted(strings, key=_utf16)


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def describe(value: object) -> str:
    """Render a value as JSON with its kind, e.g. ``"true" (a string)``.

    Never raises: an integer too long for ``str()`` (CPython refuses past 4300
    digits) is shown abbreviated, and a value that is not JSON by its ``repr``.
    """
    if type(value) is int and value.bit_length() > _WHOLE_INT_BITS:
        return int_text(value)
    kind = kind_of(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = _fallback_text(value)
    return f"{text} ({kind})"


def _fallback_text(value: object) -> str:
    try:
        # Huge integers inside a container: the same text with each one abbreviated.
        return json.dumps(_abbreviated(value, 0), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        return repr(value)
    except Exception:  # a repr that raises, or one that meets a huge integer
        return f"<{type(value).__name__}>"


def _abbreviated(value: object, depth: int) -> object:
    if depth > _MAX_SHOWN_DEPTH:
        raise RecursionError("too deep to show")
    if type(value) is int and value.bit_length() > _WHOLE_INT_BITS:
        return int_text(value)
    if isinstance(value, list):
        return [_abbreviated(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {key: _abbreviated(item, depth + 1) for key, item in value.items()}
    return value


#: An integer of at most this many bits has at most 4214 decimal digits, under CPython's
#: default limit of 4300 for ``str(int)``, and is printed whole.
_WHOLE_INT_BITS = 14_000
#: Past this many bits (about 1.2 million digits) even counting the digits exactly
#: costs noticeable time; the count is then estimated from the bit length.
_COUNTED_INT_BITS = 4_000_000
_MAX_SHOWN_DEPTH = 100


def int_text(value: int) -> str:
    """``value`` in decimal, or ``1234…5678 (an integer of 5000 digits)`` when it is too
    long to print whole. Never raises and never changes Python's int/str limit."""
    if value.bit_length() <= _WHOLE_INT_BITS:
        try:
            return str(value)
        except ValueError:  # the user lowered sys.set_int_max_str_digits below 4214
            pass
    sign = "-" if value < 0 else ""
    magnitude = -value if value < 0 else value
    tail = f"{magnitude % 10_000:04d}"
    if magnitude.bit_length() > _COUNTED_INT_BITS:
        about = int(magnitude.bit_length() * _LOG10_2) + 1
        return f"{sign}…{tail} (an integer of about {about} digits)"
    digits = int(magnitude.bit_length() * _LOG10_2) + 1  # exact, or one too many
    if magnitude < 10 ** (digits - 1):
        digits -= 1
    # Dividing by a power of ten close to the value leaves a tiny quotient: cheap.
    head = magnitude // 10 ** (digits - 4)
    return f"{sign}{head}…{tail} (an integer of {digits} digits)"


_LOG10_2 = 0.30102999566398120


def not_boolean(where: str, value: object) -> str:
    """Say that ``value`` at ``where`` is not a boolean, with the fix for a classic slip."""
    message = f"{where} is {describe(value)}, not a boolean"
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        message += f"; write {value.strip().lower()} without quotes"
    elif isinstance(value, int) and not is_bool(value) and value in (0, 1):
        message += f"; write {'true' if value else 'false'}, not {value}"
    return message


def kind_of(value: object) -> str:
    if value is None:
        return "null"
    if is_bool(value):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__
