"""JSON values written as YAML text that every YAML reader reads back the same.

YAML 1.1 readers (PyYAML's ``safe_load``, many editors) read ``yes``, ``on``,
``1:30``, ``2024-01-02`` and ``1e3`` as something other than text, and YAML
1.2 ones read ``1e3`` as a number. So a string is written plain only when it
is a word any reader takes as text; everything else is double-quoted on one
line (never folded), with control characters and line separators escaped. A
float is written with a dot and a signed exponent (``1.0e+16``), the only form
both YAML versions read as a float. This module does not import pytest or yaml.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TypeGuard

#: Text any YAML reader takes as a plain string: a letter first, then letters,
#: digits, ``_ - . /``, and single spaces between words.
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*(?: [A-Za-z0-9_./-]+)*\Z")
#: Words that YAML 1.1 or 1.2 reads as booleans or null, in any casing.
_RESERVED = frozenset({"true", "false", "yes", "no", "on", "off", "y", "n", "null"})
#: Characters that are written as escapes inside double quotes: controls, DEL,
#: C1 controls (NEL is a line break to YAML), line and paragraph separators, BOM,
#: lone surrogates and the non-characters U+FFFE and U+FFFF (which YAML does not print),
#: the invisible direction marks and overrides (a case file must read as it is), and the
#: two characters double quotes must escape.
_ESCAPE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff"
    '\ud800-\udfff\ufffe\uffff"\\\\]'
)
#: The escapes JSON and YAML both read; every other character above is ``\\uXXXX``, so a
#: case written as one line of JSON stays JSON.
_SHORT = {
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
    '"': '\\"',
    "\\": "\\\\",
}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    short = _SHORT.get(char)
    return short if short is not None else f"\\u{ord(char):04x}"


def quoted(text: str) -> str:
    """``text`` in double quotes, one line, with everything unsafe escaped."""
    return f'"{_ESCAPE.sub(_escape, text)}"'


def string(text: str, *, json_style: bool = False) -> str:
    """``text`` plain when every reader takes it as this text, else double-quoted.
    ``json_style`` always quotes, as a JSON document would."""
    if json_style or not _PLAIN.match(text) or text.lower() in _RESERVED:
        return quoted(text)
    return text


def number(value: int | float) -> str:
    """A number as both YAML 1.1 and 1.2 read it."""
    if isinstance(value, int):
        return int.__repr__(value)
    text = float.__repr__(value)
    if "e" in text:
        mantissa, _, exponent = text.partition("e")
        if "." not in mantissa:
            mantissa += ".0"
        if exponent[0] not in "+-":
            exponent = "+" + exponent
        return f"{mantissa}e{exponent}"
    if "." not in text:  # inf and nan never reach here: answers are JSON
        text += ".0"
    return text


def scalar(value: object, *, json_style: bool = False) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return number(value)
    if isinstance(value, str):
        return string(value, json_style=json_style)
    raise TypeError(f"not a JSON scalar: {type(value).__name__}")


def flow(value: object, *, json_style: bool = False) -> str:
    """``value`` on one line: ``{key: value, ...}`` and ``[item, ...]``; JSON itself
    when ``json_style``."""
    if isinstance(value, Mapping):
        pairs = (
            f"{string(key, json_style=json_style)}: {flow(item, json_style=json_style)}"
            for key, item in value.items()
        )
        return "{" + ", ".join(pairs) + "}"
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "[" + ", ".join(flow(item, json_style=json_style) for item in value) + "]"
    return scalar(value, json_style=json_style)


def is_nested(value: object) -> TypeGuard[Mapping[str, object] | Sequence[object]]:
    """Whether ``value`` is written on lines of its own in block style: a non-empty
    mapping, or a list holding a non-empty mapping or list (a list of scalars
    stays on one line, as ``[a, b]``)."""
    if isinstance(value, Mapping):
        return bool(value)
    if isinstance(value, list):
        return any(isinstance(item, (Mapping, list)) and item for item in value)
    return False


def block(
    value: Mapping[str, object] | Sequence[object],
    indent: int,
    step: int,
    *,
    json_style: bool = False,
) -> list[str]:
    """The lines of a nested value (see :func:`is_nested`) in block style, each
    indented by ``indent`` spaces; ``step`` is the file's indentation step.
    ``json_style`` quotes every key and string, as the mapping's own keys are."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            name = string(key, json_style=json_style)
            if is_nested(item):
                lines.append(f"{pad}{name}:")
                lines.extend(block(item, indent + step, step, json_style=json_style))
            else:
                lines.append(f"{pad}{name}: {flow(item, json_style=json_style)}")
        return lines
    for item in value:
        if is_nested(item):
            inner = block(item, indent + 2, step, json_style=json_style)
            lines.append(f"{pad}- {inner[0].lstrip(' ')}")
            lines.extend(inner[1:])
        else:
            lines.append(f"{pad}- {flow(item, json_style=json_style)}")
    return lines
