"""Mappings packed as JSON text: how a case keeps its ``input`` and ``expected``.

A fifth of the memory of the mappings, and no containers for the garbage collector to
walk; each read decodes a fresh copy, which its reader may change freely. The loader
packs, the runner and the records read. The text is spaced as a report writes JSON
(json's default separators), so that a report can take a case's ``input`` as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import cast

from pytest_rubric.core.escapes import is_encodable
from pytest_rubric.core.jsonvalues import JSON, copied, plain

#: JSON text as a report writes it (:data:`pytest_rubric.reports.sealing.encode_record`),
#: refusing NaN and infinities (``ValueError``) rather than writing what JSON cannot hold;
#: an integer longer than ``str`` prints is refused as well.
as_reports_write = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode

#: A mapping as a case keeps it: its JSON text, or the mapping itself
#: when that text would not serve (an integer longer than ``str`` prints, a lone surrogate).
Packed = str | dict[str, JSON]


def pack(value: Mapping[str, JSON]) -> Packed:
    """``value`` (a mapping of JSON values, as a case file gives them) as JSON text,
    which :func:`unpack` reads back to an equal mapping of the same types."""
    try:
        text = as_reports_write(value)
    except (ValueError, TypeError, RecursionError):
        return copied(dict(value))
    # Kept as text only when UTF-8 can encode it, so that what it reads back is always
    # what plain() would make of it (see plain_copy).
    return text if is_encodable(text) else copied(dict(value))


def plain_copy(packed: Packed) -> JSON:
    """``plain(unpack(packed))``, as reports carry a case's mappings, without the walk
    ``plain`` makes when ``packed`` is text: that reads back plain already."""
    return unpack(packed) if type(packed) is str else plain(unpack(packed))


def unpack(packed: Packed) -> dict[str, JSON]:
    """A fresh copy of the mapping :func:`pack` packed."""
    if type(packed) is str:
        value: dict[str, JSON] = json.loads(packed)
        return value
    return copied(cast(dict[str, JSON], packed))
