"""Writing evaluators' answers into a case file's text, the whole file at once.

The edits are :mod:`pytest_rubric.editing.texteditor`'s; the new text is read back with
the strict loader before it is handed out (:mod:`pytest_rubric.editing.readback`): every
case not written must read exactly as before, and every written ``expected`` must equal
its answer, or the whole file is refused. A file whose cases can be written on their own
lines is written part by part instead (:mod:`pytest_rubric.editing.parts`). This module
does not import pytest.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rubric.casefiles.yamlstrict import Document
from pytest_rubric.editing.readback import (
    BOM,
    UpdateRefused,
    check_rewritten,
    encoded,
    read_current,
    text_of,
)
from pytest_rubric.editing.texteditor import Editor
from pytest_rubric.editing.writes import Write

__all__ = ["UpdateRefused", "Write", "rewrite", "rewrite_text"]


def rewrite(data: bytes, writes: Sequence[Write]) -> bytes:
    """``data`` (a case file's bytes) with each write applied, or :class:`UpdateRefused`."""
    bom = data.startswith(BOM)
    text = text_of(data)
    return (BOM if bom else b"") + encoded(rewrite_text(text, writes))


def rewrite_text(
    text: str,
    writes: Sequence[Write],
    shift: int = 0,
    document: Document | None = None,
    cols: int = 0,
    *,
    checked: bool = False,
) -> str:
    """``text`` (read as ``document``, when given) with each write applied and read
    back; ``shift`` is added to the line numbers in messages (``text`` may be a part of
    the file), and ``cols`` to the columns of its second line (a flow list's case, cut
    from the middle of its line, behind one line of its own). ``checked``: the same
    edit of the same text was read back before (where its case ran), and the text it
    goes into is read back whole (:func:`pytest_rubric.editing.parts.splice`)."""
    if document is None:
        document = read_current(text, shift)
    top = document.value
    cases = top.get("cases") if isinstance(top, dict) else None
    if not isinstance(cases, list):
        raise UpdateRefused("it no longer has a list of cases; fix it, then run again")
    editor = Editor(text, document.spans, shift)
    for write in writes:
        if not 0 <= write.index < len(cases) or not isinstance(cases[write.index], dict):
            raise UpdateRefused(
                f"case {write.name!r} is no longer where it was; run again to write the "
                "answers into the current file"
            )
        editor.write_case(cases, write)
    new_text = editor.apply()
    if not checked:
        check_rewritten(document.value, document.problems, new_text, writes, shift, cols)
    return new_text
