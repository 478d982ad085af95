"""``--rubric-check``'s words for an expected answer its evaluator's schema cannot allow:
each problem placed where its value (or key) is written, with the hint a plain run
gives for the same slip (``yes`` where a boolean belongs: write ``true``).

Positions are read from the case file's text again, for the files that have such a
problem only: a case keeps where it starts, not where each part of its answer is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pytest_rubric.casefiles.yamlstrict import Document, Position, decode, load
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import show
from pytest_rubric.core.slips import boolean_slip


class AnswerPlaces:
    """Where the parts of each case's ``expected`` are written in one case file."""

    def __init__(self, path: Path) -> None:
        try:
            self.document: Document | None = load(decode(path.read_bytes()), ends=False)
        except Exception:  # not read again as it was: the case's own place serves
            self.document = None

    def locate(
        self, index: int, where: tuple[str | int, ...], key: str = "expected"
    ) -> tuple[Position, Position] | None:
        """Where the key and the value at ``where`` inside case ``index``'s ``expected``
        (or ``key``: ``expected_subset``) are written (for a list item, its position
        twice), or ``None``."""
        if self.document is None:
            return None
        spans = self.document.spans
        node: JSON = self.document.value
        found: tuple[Position, Position] | None = None
        for step in ("cases", index, key, *where):
            if isinstance(node, dict) and isinstance(step, str) and step in node:
                found = spans.keys.get(id(node), {}).get(step)
                node = node[step]
            elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
                at = spans.items.get(id(node), [])
                found = (at[step], at[step]) if step < len(at) else None
                node = node[step]
            else:
                return None
            if found is None:
                return None
        return found


def _parts(
    value: JSON, where: tuple[str | int, ...], named: str
) -> Iterator[tuple[str, tuple[str | int, ...], JSON]]:
    """Each part of ``value`` as schema problems name it (``expected.a[0]``), with its
    path and its value."""
    yield named, where, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _parts(item, (*where, key), f"{named}.{escape_controls(key)}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _parts(item, (*where, index), f"{named}[{index}]")


def placed(
    problems: list[str], expected: JSON, places: AnswerPlaces, index: int, key: str = "expected"
) -> list[tuple[Position | None, str]]:
    """Where each of ``problems`` (schema problems of case ``index``'s ``expected``, written
    under ``key``) is written (``None``: not found), and its words with a plain run's
    hint for the slip."""
    parts = sorted(_parts(expected, (), key), key=lambda part: -len(part[0]))
    return [_placed(problem, parts, places, index, key) for problem in problems]


def _placed(
    problem: str,
    parts: list[tuple[str, tuple[str | int, ...], JSON]],
    places: AnswerPlaces,
    index: int,
    key: str,
) -> tuple[Position | None, str]:
    for named, where, value in parts:  # the longest name first: expected.ab before expected.a
        if not problem.startswith(f"{named} "):
            continue
        rest = problem[len(named) :]
        return _where(rest, places.locate(index, where, key)), problem + _hint(rest, value)
    return None, problem


def _where(rest: str, at: tuple[Position, Position] | None) -> Position | None:
    if at is None:
        return None
    key_at, value_at = at
    return key_at if rest.startswith(" is not a key of") else value_at


def _hint(rest: str, value: JSON) -> str:
    """The hint a plain run's mismatch gives for this slip (reports/failure.py)."""
    if not rest.startswith(" is "):
        return ""
    if ", not a boolean" in rest:
        slip = boolean_slip(value)
        return "" if slip is None else f"; {slip[1]}"
    if ", not a string" in rest and type(value) in (int, float):
        return f"; quote it: '{escape_controls(show(value))}'"
    return ""
