"""Values as people read them: one value as a short line (:func:`show`), in a
sentence with its kind (:func:`describe`), and a kind in words (:func:`kind_of`).
Control characters are escaped and long integers abbreviated; nothing here raises."""

from __future__ import annotations

import json

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON, plain
from pytest_rubric.core.numbers import int_text

#: How much of a value :func:`describe` shows inside a sentence.
DESCRIBE_LIMIT = 200


def show(value: object, *, limit: int = 2000) -> str:
    """One value as JSON text for a message: control characters escaped, long
    integers abbreviated, at most ``limit`` characters. Never raises.

    Only the start of a huge list or mapping is read: every entry takes at least
    three characters with its ", ", so the first ``limit // 3 + 1`` entries of each
    already reach past the cut, and the text shown is the same as from the whole."""
    try:
        text = _json_text(plain(value, items=limit // 3 + 1))
    except Exception:
        text = f"(a {type(value).__name__})"
    text = escape_controls(text)
    if len(text) > limit:
        text = f"{text[: limit - 1]}…"
    return text


def _json_text(value: JSON) -> str:
    if type(value) is int:
        return int_text(value)
    if isinstance(value, str) and value.startswith("(integer of ") and "0x" in value:
        return int_text(int(value.rpartition(" ")[2], 16))  # a marked long integer
    if isinstance(value, dict):
        inner = ", ".join(f"{_json_text(key)}: {_json_text(item)}" for key, item in value.items())
        return f"{{{inner}}}"
    if isinstance(value, list):
        return f"[{', '.join(_json_text(item) for item in value)}]"
    return json.dumps(value, ensure_ascii=False)


def describe(value: object) -> str:
    """A value in a sentence, as JSON with its kind: ``"true" (a string)``, ``3 (a
    number)``, ``empty (null)``; the one way messages name a value that is wrong.

    Never raises: an integer too long for ``str()`` (CPython refuses past 4300
    digits) is shown abbreviated, control characters escaped, and a long value
    cut at :data:`DESCRIBE_LIMIT` characters.
    """
    if value is None:
        return "empty (null)"
    if type(value) is int and value.bit_length() > 14_000:
        return int_text(value)
    return f"{show(value, limit=DESCRIBE_LIMIT)} ({kind_of(value)})"


def kind_of(value: object) -> str:
    """A value's kind in words: ``null``, ``a boolean``, ``a number``, ``a string``, ``a list``,
    ``a mapping``, or the name of its Python type."""
    if value is None:
        return "null"
    if type(value) is bool:
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
