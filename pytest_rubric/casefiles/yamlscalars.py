"""Plain YAML scalars typed as YAML 1.2's core schema, not PyYAML's YAML 1.1.

Only ``true``/``false`` (any of three casings) are booleans, ``null``/``~``/empty
is null, a YAML 1.2 number is a number, and everything else stays a string
(``yes``, ``on``, ``2024-01-02``, ``1:30``). A number JSON has no value for, or one
longer than case files take, is refused with the way to write it instead.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from pytest_rubric.core.numbers import MAX_NUMBER_CHARS, decimal_int, int_text

NULLS = frozenset({"", "~", "null", "Null", "NULL"})
BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
#: The first characters of a plain scalar that may be a number (see :func:`number`).
NUMBER_START = frozenset("0123456789+-.")
_INT = re.compile(r"[-+]?[0-9]+\Z")
_OCT = re.compile(r"0o[0-7]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_NON_FINITE = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z")
_LONG_KEY_BITS = 1_000  # about 300 digits


@dataclass(frozen=True, slots=True)
class Refused:
    """A plain scalar that has no value in a case file, and what to write instead."""

    message: str


def number(text: str) -> Any:
    """The value of a plain scalar that starts with one of :data:`NUMBER_START`: a number,
    the text itself when it is no YAML 1.2 number, or :class:`Refused`."""
    if text == "-":  # only a flow collection lets the parser read a lone '-' as text
        return Refused(
            "a lone '-' in a flow collection is not text in YAML 1.2 (it can only start "
            "a block list item); quote it ('\"-\"') for the text"
        )
    if len(text) > MAX_NUMBER_CHARS and (
        _INT.match(text) or _OCT.match(text) or _HEX.match(text) or _FLOAT.match(text)
    ):
        return Refused(
            f"a number written with {len(text)} characters is longer than case files "
            f"take ({MAX_NUMBER_CHARS}); shorten it, or quote it if you mean the text"
        )
    if _INT.match(text):
        return decimal_int(text)
    if _OCT.match(text):
        return int(text[2:], 8)
    if _HEX.match(text):
        return int(text[2:], 16)
    if _FLOAT.match(text):
        value = float(text)
        if math.isfinite(value):
            return value
    elif not _NON_FINITE.match(text):
        return text
    return Refused(
        f"{text} is not a finite number, and JSON has no such value; "
        f"quote it ('{text}') if you mean the text"
    )


def key_problem(value: Any) -> str:
    """Why ``value``, a mapping key that is not text, is refused, and how to write it."""
    if isinstance(value, (dict, list)):
        return "a mapping key must be a string, not a mapping or list; use a plain text key"
    if type(value) is int and value.bit_length() > _LONG_KEY_BITS:
        # Far too long to echo, and str() would refuse it past 4300 digits.
        return f"mapping key {int_text(value)} is not a string; quote it to use it as a key"
    text = "null" if value is None else str(value).lower() if type(value) is bool else str(value)
    return f"mapping key {text} is not a string; quote it ('{text}') to use it as a key"
