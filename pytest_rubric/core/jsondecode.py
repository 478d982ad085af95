"""JSON decoded strictly, for inputs and for reports alike (:class:`StrictDecoder`: no
duplicate key, no NaN, no infinity), each reader refusing in its own words; inputs also
refuse an infinite number or an integer longer than they take (:data:`DECODER`), and read a
ledger row at the C scanner's speed where that cannot differ."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import NoReturn

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.numbers import MAX_NUMBER_CHARS, decimal_int


class StrictDecoder(json.JSONDecoder):
    """A JSON decoder that refuses what a strict reader must not guess: a key given twice
    in one object (json keeps the last one, which could turn a mismatch into a match), and
    ``NaN``, ``Infinity`` and ``-Infinity``, which JSON does not have. Each is a
    ``ValueError`` in the words ``repeated(key)`` and ``constant(name)`` give. Numbers are
    read by ``parse_int`` and ``parse_float`` when given, as :class:`json.JSONDecoder`
    reads them otherwise. As ``cls`` of :func:`json.loads` too."""

    def __init__(
        self,
        *,
        repeated: Callable[[str], str],
        constant: Callable[[str], str],
        parse_int: Callable[[str], object] | None = None,
        parse_float: Callable[[str], object] | None = None,
    ) -> None:
        def no_duplicates(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
            mapping = dict(pairs)
            if len(mapping) != len(pairs):
                seen: set[str] = set()
                for key, _ in pairs:
                    if key in seen:
                        raise ValueError(repeated(key))
                    seen.add(key)
            return mapping

        def refuse(name: str) -> NoReturn:
            raise ValueError(constant(name))

        super().__init__(
            object_pairs_hook=no_duplicates,
            parse_constant=refuse,
            parse_int=parse_int,
            parse_float=parse_float,
        )


def _not_json(name: str) -> str:
    return f"{name} is not JSON; write a number or a string"


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(_not_json(name))


def _parse_int(text: str) -> int:
    # json's own int() refuses more than 4300 digits with advice to change global state.
    if len(text) > MAX_NUMBER_CHARS:
        raise ValueError(
            f"a number written with {len(text)} digits is longer than inputs take "
            f"({MAX_NUMBER_CHARS}); shorten it, or quote it if you mean the text"
        )
    return decimal_int(text)


def _parse_float(text: str) -> float:
    # float() reads 1e99999 as infinity, which JSON cannot hold: refused where it is written,
    # as the loader refuses it in a case file, not found later by whatever writes it out.
    value = float(text)
    if math.isinf(value):
        shown = text if len(text) <= 40 else f"{text[:20]}…{text[-10:]}"
        raise ValueError(
            f"{shown} is not a finite number; write a smaller number, or quote it if you "
            "mean the text"
        )
    return value


#: JSON as inputs are decoded.
DECODER = StrictDecoder(
    repeated=lambda key: f"duplicate key {key!r}; keep one of them",
    constant=_not_json,
    parse_int=_parse_int,
    parse_float=_parse_float,
)
#: The same decoder without the duplicate-key hook (a Python call per object) and with C's
#: own integers (a Python call per integer saved): its answer is taken only where it
#: cannot differ (see :func:`decode_row`). C's ``int()`` refuses what CPython's digit limit
#: refuses, with a ``ValueError``, and the decoder that checks then reads the number.
_PLAIN_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_parse_float)
_SCAN = _PLAIN_DECODER.scan_once  # type: ignore[attr-defined]  # C scanner, untyped
#: What JSON takes as whitespace around a value (not all that str.isspace() takes).
JSON_SPACE = " \t\n\r"
TOO_DEEP = "nested too deeply to read; flatten this value"


def decode_row(text: str) -> JSON:
    """``DECODER.decode(text)``, the same value or the same error, at less cost.

    Outside strings, every key-value pair of every object is written with one ``:``.
    Without a ``\\u`` escape, a ``:`` inside a string is one in its decoded text too. So
    when the text's ``:`` count is the decoded mappings' keys plus the ``:`` their strings
    hold, every pair written is a pair kept: no key repeats (a repeated key drops a pair,
    and the strings it held, from the decoded value but never a ``:`` from the text).
    Anything else, errors too, goes through the decoder that checks, which says what is
    wrong as it always did.
    """
    row = None
    if text[:1] == "{":  # the usual row: scanned at once, without decode()'s own layers
        try:
            row, end = _SCAN(text, 0)
        except (StopIteration, ValueError, RecursionError):
            row = None
        else:
            if end != len(text) and text[end:] != "\n" and text[end:].strip(JSON_SPACE):
                row = None  # more after the object: the decoder says what
    if type(row) is dict:
        colons = text.count(":")
        if colons == len(row) and text.count("{") == 1:
            return row  # one flat object, no ':' inside its strings (the usual ledger row)
        if "\\u" not in text:
            try:
                keys = _keys(row)
            except RecursionError:  # deeper than nested calls go: counted below without them
                keys = -1
            if keys == colons or (keys < colons and _pairs_and_colons(row) == colons):
                return row  # no ':' in its strings, or as many as the text holds past its keys
    decoded: JSON = DECODER.decode(text)
    return decoded


def _keys(value: object) -> int:
    """The keys of every mapping in ``value`` (a dict or a list), read in as many nested
    calls as the value is deep (``RecursionError`` where that is too deep; the walk of
    :func:`_pairs_and_colons` takes none)."""
    count = 0
    if type(value) is dict:
        count = len(value)
        value = value.values()
    for inner in value:  # type: ignore[attr-defined]
        kind = type(inner)
        if kind is dict or kind is list:
            count += _keys(inner)
    return count


def _pairs_and_colons(value: object) -> int:
    """The keys of every mapping in ``value`` plus the ``:`` in every string it holds
    (keys too)."""
    count = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            count += len(item)
            for key, inner in item.items():
                count += key.count(":")
                kind = type(inner)
                if kind is str:
                    count += inner.count(":")
                elif kind is dict or kind is list:
                    stack.append(inner)
        elif type(item) is list:
            for inner in item:
                kind = type(inner)
                if kind is str:
                    count += inner.count(":")
                elif kind is dict or kind is list:
                    stack.append(inner)
    return count
