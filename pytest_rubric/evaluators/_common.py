"""Small helpers shared by the built-in evaluators (no pytest, no yaml)."""

from __future__ import annotations

from collections.abc import Iterable

from pytest_rubric.core.evaluator import Evidence
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.numbers import int_text
from pytest_rubric.core.shown import describe, kind_of
from pytest_rubric.core.slips import boolean_slip

__all__ = [
    "JSON",
    "Evidence",
    "describe",
    "int_text",
    "is_bool",
    "js_sorted",
    "kind_of",
    "not_boolean",
]


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


def not_boolean(where: str, value: object) -> str:
    """Say that ``value`` at ``where`` is not a boolean, with the fix for a classic slip."""
    message = f"{where} is {describe(value)}, not a boolean"
    slip = boolean_slip(value)
    return message if slip is None else f"{message}; {slip[1]}"
