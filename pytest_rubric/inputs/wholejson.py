"""A whole input in one ``.json`` (or gzip'd ``.json.gz``) file: one JSON object, the
evaluator's input; and, for review, the line each of its ``rows`` starts on."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.jsondecode import DECODER, TOO_DEEP
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.inputs.textfiles import PLAIN, Opener, not_whole

#: A whole ``.json`` input longer than this many characters (a ``.json.gz``: once
#: inflated) is refused, read no further: it is decoded whole, at many times its size in
#: memory, and a small gzip'd file may inflate without end. A ledger that large is
#: written as ``.jsonl``, read a row at a time (documented in docs/input-files.md).
MAX_JSON_CHARS = 256 * 1024 * 1024


def read_json(path: Path, display: str, opener: Opener = PLAIN) -> dict[str, JSON]:
    """The whole input mapping from a ``.json`` (or gzip'd ``.json.gz``) file, its bytes
    opened by ``opener``."""
    return _decode_json(_json_text(path, display, opener), display)


def read_json_with_row_lines(
    path: Path, display: str, opener: Opener = PLAIN
) -> tuple[dict[str, JSON], list[int]]:
    """As :func:`read_json`, with the line each item of its ``rows`` list starts on.

    For naming a row's place (``file:line``) when rows are kept for review; the
    list is empty when the input has no ``rows`` list.
    """
    text = _json_text(path, display, opener)
    value = _decode_json(text, display)
    if not isinstance(value.get("rows"), list):
        return value, []
    # Offsets count from the text as decoded (after a BOM), so lines do too.
    return value, [text.count("\n", 0, offset) + 1 for offset in _row_offsets(text)]


_SPACE = re.compile(r"[ \t\n\r]*")


def _row_offsets(text: str) -> list[int]:
    """Where each item of the top-level ``rows`` array starts, in valid JSON ``text``.

    Walks the top-level object's members, skipping values whole with the decoder;
    only called on text that already decoded to an object.
    """

    def space(at: int) -> int:
        match = _SPACE.match(text, at)
        assert match is not None  # the pattern matches the empty string
        return match.end()

    at = space(space(0) + 1)  # past "{"
    while text[at] != "}":
        key, at = DECODER.raw_decode(text, at)
        at = space(space(at) + 1)  # past ":"
        if key == "rows" and text[at] == "[":
            offsets = []
            at = space(at + 1)
            while text[at] != "]":
                offsets.append(at)
                _, at = DECODER.raw_decode(text, at)
                at = space(at)
                if text[at] == ",":
                    at = space(at + 1)
            return offsets
        _, at = DECODER.raw_decode(text, at)
        at = space(at)
        if text[at] == ",":
            at = space(at + 1)
    return []


def _json_text(path: Path, display: str, opener: Opener) -> str:
    limit = MAX_JSON_CHARS
    try:
        text = opener.read_text(path, limit)
    except opener.faults as exc:
        raise not_whole(display, exc) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RubricInputError(f"{display}: cannot be read: {exc}") from None
    if len(text) > limit:
        raise RubricInputError(
            f"{display}: longer than {limit:,} characters{opener.inflated}, more than a "
            "whole .json input may hold (it is decoded whole, in memory); write its rows as "
            "a .jsonl ledger, one JSON object a line, which is read a row at a time"
        )
    return text


def _decode_json(text: str, display: str) -> dict[str, JSON]:
    try:
        value = DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise RubricInputError(
            f"{display}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}"
        ) from None
    except ValueError as exc:
        raise RubricInputError(f"{display}: {exc}") from None
    except RecursionError:
        raise RubricInputError(f"{display}: {TOO_DEEP}") from None
    if not isinstance(value, dict):
        raise RubricInputError(
            f"{display}: the file must hold one JSON object (the evaluator's input), "
            f"not {type(value).__name__}"
        )
    return value
