"""The unified diff ``--rubric-update`` shows of each case file it wrote.

Lines are counted as YAML counts them (LF, CRLF, CR, NEL, LS, PS), as the edits are.
Where the lines that changed are known (the cases' parts), only the windows around
them are compared, so a file of ten thousand cases with three written costs three
small comparisons, not one over the whole file.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from pytest_rubric.core.lines import BREAKS

_HUNK = re.compile(r"@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@")
CONTEXT = 3


def lines_of(text: str) -> list[str]:
    """``text``'s lines, without their breaks (none after a final break)."""
    found = BREAKS.split(text)
    if found and found[-1] == "":
        found.pop()
    return found


def unified(
    display: str,
    old: str,
    new: str,
    changed: Sequence[tuple[int, int, int, int]] | None = None,
) -> list[str]:
    """The diff of ``old`` to ``new`` (the texts of the case file named ``display``).

    ``changed``: where they differ, when known, as ``(old first, old end, new first,
    new end)`` 0-based line ranges in order (an end past the last line: to the end);
    every line outside them is the same.
    """
    old_lines, new_lines = lines_of(old), lines_of(new)
    if changed is None:
        return list(difflib.unified_diff(old_lines, new_lines, display, display, lineterm=""))
    out: list[str] = []
    for old_first, old_end, new_first, new_end in _windows(changed, len(old_lines), len(new_lines)):
        hunks = difflib.unified_diff(
            old_lines[old_first:old_end],
            new_lines[new_first:new_end],
            display,
            display,
            lineterm="",
        )
        for line in hunks:
            if line.startswith(("---", "+++")):
                if not out or (len(out) == 1 and line.startswith("+++")):
                    out.append(line)
                continue
            found = _HUNK.match(line)
            if found:
                old_at, old_count, new_at, new_count = found.groups()
                line = (
                    f"@@ -{int(old_at) + old_first}{old_count} "
                    f"+{int(new_at) + new_first}{new_count} @@"
                )
            out.append(line)
    return out if len(out) > 2 else []


def _windows(
    changed: Sequence[tuple[int, int, int, int]], old_count: int, new_count: int
) -> list[tuple[int, int, int, int]]:
    """The changed ranges widened by the context lines, those that touch merged."""
    windows: list[list[int]] = []
    for old_first, old_reach, new_first, new_reach in changed:
        old_end, new_end = min(old_reach, old_count), min(new_reach, new_count)
        before = min(CONTEXT, old_first, new_first)
        after = min(CONTEXT, old_count - old_end, new_count - new_end)
        window = [old_first - before, old_end + after, new_first - before, new_end + after]
        if windows and window[0] <= windows[-1][1]:  # as difflib groups its hunks
            last = windows[-1]
            last[1], last[3] = window[1], window[3]
        else:
            windows.append(window)
    return [(w[0], w[1], w[2], w[3]) for w in windows]
