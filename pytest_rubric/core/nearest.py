"""The known name nearest to a misspelt one, as messages suggest it (``did you mean``)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON

#: How alike a name must be to be suggested (difflib's ratio, as for case keys).
CUTOFF = 0.6


def nearest(name: str, known: Iterable[str]) -> str | None:
    """The name in ``known`` nearest to ``name``, if one is close enough: first one that
    differs only in case (``ID`` for ``id``, which difflib finds not alike at all)."""
    ordered = sorted(known)
    folded = name.casefold()
    same = [known_name for known_name in ordered if known_name.casefold() == folded]
    if same:
        return name if name in same else same[0]
    close = difflib.get_close_matches(name, ordered, n=1, cutoff=CUTOFF)
    return close[0] if close else None


def written_for(wanted: str, present: Iterable[object], known: Sequence[str]) -> str | None:
    """The key of ``present`` (a mapping's keys) that was likely meant as the missing
    ``wanted``: the first that is none of the ``known`` keys and is nearest to
    ``wanted`` of them (``'titel'`` for ``title``, ``'ID'`` for ``id``)."""
    for name in present:
        if type(name) is str and name not in known and nearest(name, known) == wanted:
            return name
    return None


def misspelt_keys(
    expected: JSON, actual: JSON, schema: Mapping[str, JSON] | None, whose: str
) -> list[str]:
    """For each key of ``expected`` (at any depth) that the answer does not have and a
    known key is near: a line saying which key was meant. The known keys are the
    answer's own and those the answer schema declares (its ``properties``, level by
    level); ``whose`` names the answers in the message (``reason's answers``)."""
    found: list[str] = []
    _walk(expected, actual, dict(schema) if schema is not None else None, whose, "", found)
    return found


def _walk(
    expected: JSON,
    actual: JSON,
    schema: JSON,
    whose: str,
    path: str,
    found: list[str],
) -> None:
    if not isinstance(expected, dict):
        return
    answer = actual if isinstance(actual, dict) else {}
    declared = schema.get("properties") if isinstance(schema, dict) else None
    properties = declared if isinstance(declared, dict) else {}
    known = set(answer) | set(properties)
    for key, value in expected.items():
        if key in known:
            _walk(value, answer.get(key), properties.get(key), whose, f"{path}{key}.", found)
            continue
        meant = nearest(key, known - set(expected))
        if meant is not None:
            found.append(
                escape_controls(
                    f"{path}{key!r} is not a key of {whose}; did you mean {path}{meant!r}?"
                )
            )
