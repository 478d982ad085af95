"""Lines as YAML counts them, and as libyaml's positions count them: LF, CRLF, a lone
CR, NEL, LS and PS each end a line. The one definition the loader, its gap checks and
the editor's text surgery share, so their line numbers always agree."""

from __future__ import annotations

import re

BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def line_col(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column, in characters, of ``text[index]``."""
    line, start = 1, 0
    for found in BREAKS.finditer(text, 0, index):
        line, start = line + 1, found.end()
    return line, index - start + 1
