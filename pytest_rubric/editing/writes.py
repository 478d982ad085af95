"""The shape of a write: one case's answer to write as its ``expected``.

A case decides where it runs (a pytest-xdist worker too) that its answer is to be
written, and ships a :class:`CaseWrite` (plain JSON, on its test report) to the run that
gathers the cases, which writes each case file once, at the end. The text editor takes
the same fields as a :class:`Write`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from pytest_rubric.core.jsonvalues import JSON


@dataclass(frozen=True, slots=True)
class Write:
    """One case's answer to write as its ``expected``: ``index`` is its place in
    ``cases:``, ``name`` its ID; ``created`` when the case has no ``expected`` yet."""

    index: int
    name: str
    after: Mapping[str, JSON]
    created: bool


class CaseWrite(TypedDict):
    """A case's answer, as it travels to the run that writes it: the case file's absolute
    path and the SHA-256 of the bytes collected, the case's index and ID, its answer, and
    whether it creates the case's ``expected``. ``lines`` (the line the case starts on and
    the line the next starts on, 0 after the last) when its answer could be written on its
    own lines, checked where it ran; ``span`` (its first column, and the line and column
    where it ends) when it is a case of a flow list."""

    path: str
    digest: str
    index: int
    name: str
    after: dict[str, JSON]
    created: bool
    lines: list[int] | None
    span: list[int] | None


def write_of(write: CaseWrite) -> Write:
    """What the text editor takes of ``write``."""
    after = write["after"]
    return Write(
        write["index"], write["name"], after if isinstance(after, dict) else {}, write["created"]
    )
