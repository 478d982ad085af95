"""The shape of a write: one case's answer to write as its ``expected``.

A case decides where it runs (a pytest-xdist worker too) that its answer is to be
written, and ships a :class:`~pytest_rubric.running.caserun.CaseWrite` (plain JSON, on its
test report) to the run that gathers the cases, which writes each case file once, at the
end. The text editor takes the same fields as a :class:`Write`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.running.caserun import CaseWrite

#: Where a panel's pairs' answers are written, by pair name.
PAIRS = "expected_pairs"


@dataclass(frozen=True, slots=True)
class Write:
    """One case's answer to write as its ``expected``: ``index`` is its place in
    ``cases:``, ``name`` its ID; ``created`` when the case has no ``expected`` yet.
    With ``key`` ``expected_pairs``, ``after`` holds a panel's pairs' answers by pair
    name, each written under ``expected_pairs:`` beside the pairs it does not hold, in
    ``order`` (the panel's pairs by name)."""

    index: int
    name: str
    after: Mapping[str, JSON]
    created: bool
    key: str = "expected"
    order: tuple[str, ...] = ()


def write_of(write: CaseWrite) -> Write:
    """What the text editor takes of ``write``."""
    after = write["after"]
    return Write(
        write["index"],
        write["name"],
        after if isinstance(after, dict) else {},
        write["created"],
        "expected" if write["pairs"] is None else PAIRS,
        tuple(write["pairs"] or ()),
    )
