"""Text from data made safe to show and to carry: control characters, bidi overrides
and lone surrogates written as escapes. Nothing here raises for any input."""

from __future__ import annotations

import re

#: Lone surrogates: text UTF-8 cannot encode.
SURROGATES = re.compile("[\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}
#: Invisible characters that reorder or hide text: direction marks and overrides,
#: isolates, the Arabic letter mark and the zero-width no-break space (BOM).
_INVISIBLE = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff"
_CONTROLS = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_INVISIBLE}\ud800-\udfff]")
_CONTROLS_BUT_NEWLINE = re.compile(
    f"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029{_INVISIBLE}\ud800-\udfff]"
)


def escape_controls(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with control characters, line and paragraph separators, bidi
    overrides and lone surrogates written as escapes (``\\n``, ``\\x1b``,
    ``\\u202e``), so data can never forge or recolour a terminal line."""
    text = str.__str__(text)  # a str subclass's own __str__ is never called
    pattern = _CONTROLS_BUT_NEWLINE if keep_newlines else _CONTROLS
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_surrogates(text: str) -> str:
    """``text`` with its lone surrogates, and nothing else, written as escapes."""
    return SURROGATES.sub(_escape, text)


def is_encodable(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (it has no lone surrogate)."""
    return text.isascii() or SURROGATES.search(text) is None
