"""Text from data made inert in GitHub-flavoured Markdown, and the few pieces every
Markdown document of ours is made of.

Every value from a report (a case ID, a path, a grader's or an evaluator's name, a
label, a group's value, a reason) is shown in a code span and nowhere else. Inside a
code span CommonMark makes no link, image, emphasis, heading or raw HTML, and
GitHub links no ``@mention``, ``#123`` reference or commit hash: its HTML pipeline
passes over text inside ``code`` (a backslash before ``@`` would not stop a ping).
The span's fence is one backtick longer than the longest run of backticks the value
holds, so no value closes it. Control characters, line breaks, bidi overrides and
lone surrogates are first written as the escapes the terminal shows
(:func:`~pytest_rubric.core.escapes.escape_controls`), so a value is one line of
text and can never start a block. In a table cell a ``|`` is escaped even inside the
span, since GFM splits a row on it before reading the spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pytest_rubric.core.escapes import escape_controls

#: The marker comment a document starts with unless named otherwise: a workflow finds the
#: comment it posted by it and updates that one instead of adding one per push.
DEFAULT_MARKER = "pytest-rubric"
#: What a marker's name may hold: nothing that could end the comment (``--``, ``>``).
MARKER_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._:/]|-(?!-)){0,98}[A-Za-z0-9._:/]?")
#: How much of one value a document shows: a value longer than this is cut with "…".
SHOWN_CHARS = 200
_BACKTICKS = re.compile("`+")


def code(text: str, *, cell: bool = False) -> str:
    """``text`` from data as a Markdown code span, escaped as the terminal shows it,
    at most :data:`SHOWN_CHARS` long; ``cell`` when it goes in a table's cell."""
    shown = escape_controls(text)
    if len(shown) > SHOWN_CHARS:
        shown = f"{shown[: SHOWN_CHARS - 1]}…"
    if not shown:
        return "*(empty)*"
    if cell:
        shown = shown.replace("|", "\\|")
    runs = _BACKTICKS.findall(shown)
    fence = "`" * (max(map(len, runs)) + 1 if runs else 1)
    # CommonMark strips one space from each end of a span that starts and ends with one:
    # padding keeps a backtick at either end apart from the fence, and the value's spaces.
    if shown.strip(" ") and (shown[0] in "` " or shown[-1] in "` "):
        shown = f" {shown} "
    return f"{fence}{shown}{fence}"


def marker(name: str) -> str:
    """The marker comment, the first line of a document."""
    return f"<!-- {name} -->\n"


def marker_problem(name: str) -> str | None:
    """Why ``name`` cannot name a marker comment, or ``None``."""
    if MARKER_NAME.fullmatch(name) is None:
        return (
            f"{escape_controls(name)!r} cannot name the marker comment; give letters, digits "
            f"and . _ : / - (no '--', at most 100), e.g. {DEFAULT_MARKER}-nightly"
        )
    return None


def table_head(columns: Sequence[str]) -> str:
    """A table's header row and delimiter row (``columns``: our own words)."""
    return f"| {' | '.join(columns)} |\n|{'---|' * len(columns)}\n"


def table_row(cells: Iterable[str]) -> str:
    """One row of a table; each cell already Markdown (a :func:`code` span made for a
    cell, or a number)."""
    return f"| {' | '.join(cells)} |\n"


def place(file: object, line: object) -> str:
    """Where a case is written, ``path:line``, as a code span."""
    return code(f"{file}:{line}" if line else str(file))
