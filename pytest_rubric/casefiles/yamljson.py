"""A case's ``input:`` and ``expected:`` written as one line of JSON, read by the JSON decoder.

Generated case files write each case's values as JSON (``input: {"rows": [...]}``),
which is YAML too. Read as YAML, every key, bracket and value of it is one parser event
built in Python; read by ``json.loads`` it is one call in C. :func:`find` picks the lines
where both readings are surely the same value and hands the parser a text with an empty
``{}`` or ``[]`` in their place: the line is printable ASCII without a backslash (no escape,
no character YAML refuses), the value is written exactly as ``json.dumps`` writes it (so
no duplicate key, no ``NaN``, no number YAML 1.2 reads otherwise), no number is longer than
Python reads by default (4300 digits), no key longer than YAML's implicit keys, and its
nesting stays within the parser's limit.
:class:`~.yamlevents.Builder` puts each value back where its empty collection stands, and
only as a case's ``input`` or ``expected``: met anywhere else (inside a block scalar, say),
the text is parsed again as written. A value read so keeps its own place and its line,
not the places of its parts (:attr:`~.yamlevents.Spans.json`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.packed import as_reports_write

#: ``input: {...}`` alone on its line, as a block mapping's key (a list item's too).
_LINE = re.compile(r"^( *(?:- )?)(input|expected): ([\[{][!-~ ]*[\]}]) *$", re.MULTILINE)
#: A number past CPython's default 4300 digits: json.loads refuses it, or (the limit lifted) reads
#: it in quadratic time. Tried from a run's start only: from each character, the search is quadratic.
_LONG_NUMBER = re.compile(r"(?<![-0-9.eE+])[-0-9.eE+]{4301,}")
#: A key YAML refuses: an implicit key is at most 1024 characters long.
_LONG_KEY = re.compile(r'"[^"]{1000,}":')


@dataclass(frozen=True, slots=True)
class Whole:
    """A value read by the JSON decoder: the value, its text, where that text ends."""

    value: dict[str, JSON] | list[JSON]
    text: str
    end: tuple[int, int]


def find(text: str, room: int) -> tuple[str, dict[tuple[int, int], Whole]]:
    """``text`` with an empty collection in place of each value read whole, and those
    values by where each starts (line and column); ``text`` itself and nothing when there
    is none. ``room``: how deep a value may nest (the parser refuses deeper ones)."""
    if "\r" in text or "\x85" in text or "\u2028" in text or "\u2029" in text:
        return text, {}  # lines broken otherwise than by '\n': counted as the parser does
    wholes: dict[tuple[int, int], Whole] = {}
    pieces: list[str] = []
    taken = line = 0
    for match in _LINE.finditer(text):
        written = match.group(3)
        value = _decoded(written, room)
        if value is None:
            continue
        line += text.count("\n", taken, match.start()) + (not pieces)
        col = match.start(3) - match.start() + 1
        wholes[line, col] = Whole(value, written, (line, col + len(written)))
        pieces.append(text[taken : match.start(3)])
        pieces.append("{}" if written[0] == "{" else "[]")
        taken = match.end(3)
    if not wholes:
        return text, {}
    pieces.append(text[taken:])
    return "".join(pieces), wholes


def _decoded(written: str, room: int) -> dict[str, JSON] | list[JSON] | None:
    """The value of ``written`` when JSON and YAML surely read it alike, else ``None``."""
    if "\\" in written:
        return None
    if len(written) > 1000 and (
        _LONG_KEY.search(written) or (len(written) > 4300 and _LONG_NUMBER.search(written))
    ):
        return None
    try:
        value, end = _decode(written)
    except (ValueError, RecursionError):
        return None
    if end != len(written) or as_reports_write(value) != written:  # ASCII: as json.dumps
        return None
    if written.count("[") + written.count("{") > room and _depth(value) > room:
        return None
    return value  # type: ignore[no-any-return]  # a dict or list: written starts so


def _refuse(constant: str) -> None:
    raise ValueError(constant)  # NaN and infinities: YAML reads them as text


_decode = json.JSONDecoder(parse_constant=_refuse).raw_decode


def _depth(value: JSON) -> int:
    """How deep ``value``'s collections nest (1 for one without collections inside)."""
    deepest, level = 0, [value]
    while level:
        deepest += 1
        level = [
            item
            for node in level
            for item in (node.values() if isinstance(node, dict) else node)  # type: ignore[union-attr]
            if isinstance(item, (dict, list))
        ]
    return deepest
