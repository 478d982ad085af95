"""A case's own lines, edited and read back alone, and spliced into its file.

:func:`check` makes the edit of one case's answer on that case's own lines, so a run can
tell, as each case runs, whether its answer can be written, at the same cost in a file
of ten cases or of ten thousand; :func:`part_of` makes the same edit again at the end, on
the same bytes, and :func:`splice` puts the edited lines of a file's cases into it,
reading the new text back whole once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_rubric.casefiles.yamlstrict import Document
from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.lines import BREAKS
from pytest_rubric.editing.edits import rewrite, rewrite_text
from pytest_rubric.editing.readback import (
    BOM,
    BY_HAND,
    UpdateRefused,
    encoded,
    identical,
    read_alone,
    read_back,
    text_of,
)
from pytest_rubric.editing.texteditor import ITEM_LEAD, LINE_BREAK
from pytest_rubric.editing.writes import Write

#: Where a flow list's case is: its first line and column, and the line and column it ends.
At = tuple[int, int, tuple[int, int]]
#: A case's input and expected as collected.
Known = tuple[Mapping[str, JSON], Mapping[str, JSON]]


@dataclass(frozen=True, slots=True)
class Part:
    """A case's text as written (``text``), as :func:`check` edited and read it back:
    the lines from ``first`` up to the line ``after`` (0: to the end of the file) in a
    block list; in a flow list, from column ``col`` of line ``first`` up to ``end`` (a
    line and column), ``after`` being the line the next case starts on."""

    first: int
    after: int
    text: str
    col: int = 1
    end: tuple[int, int] | None = None


class Source:
    """A case file's bytes, as read to check writes into it: its text, decoded once, and
    where each of its lines starts, found once (so checking a case costs the same in a
    file of ten cases or of ten thousand). :class:`UpdateRefused` if it is not UTF-8."""

    __slots__ = ("_break", "_starts", "bom", "data", "text")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.bom = data.startswith(BOM)
        self.text = text_of(data)
        self._starts: list[int] | None = None
        self._break: str | None = None

    @property
    def line_break(self) -> str:
        """The file's first line break (``\\n`` when it has none), found once."""
        if self._break is None:
            found = LINE_BREAK.search(self.text)
            self._break = found.group() if found else "\n"
        return self._break

    def offset(self, line: int) -> int | None:
        """Where the 1-based ``line`` starts (``None`` past the last)."""
        if self._starts is None:
            self._starts = [0, *(found.end() for found in BREAKS.finditer(self.text))]
        return self._starts[line - 1] if 1 <= line <= len(self._starts) else None

    def lines(self, first: int, after: int) -> str | None:
        """The text of lines ``first`` up to ``after`` (0: to the end), or ``None``."""
        if first <= 1 or (after and after <= first):
            return None
        begin = self.offset(first)
        end = len(self.text) if after == 0 else self.offset(after)
        return None if begin is None or end is None else self.text[begin:end]


def check(
    data: bytes | Source,
    write: Write,
    lines: tuple[int, int] | None,
    known: Known | None = None,
    *,
    at: At | None = None,
) -> Part | None:
    """:class:`UpdateRefused` when ``write`` alone cannot be made in ``data`` (a case
    file's bytes), as :func:`rewrite` would refuse it; else the case's edited text.

    With ``lines`` (the line the case starts on, and the line the next one starts on,
    0 after the last; see :attr:`pytest_rubric.casefiles.cases.Place.lines`), only the
    case's own text is edited and read back, behind a ``cases:`` line (in a flow list,
    ``at`` giving the line and column where the case's text starts and where it ends,
    inside ``{cases: [`` and ``]}``), so checking a case costs the same in a file of ten
    cases or of ten thousand, and in either style; ``known`` (the case's input and
    expected as collected) confirms they read alone as they do in the file. Without
    them, or when they do not, the whole file is edited and read back, and ``None``
    is returned: such a file is written with :func:`rewrite`.
    """
    source = data if isinstance(data, Source) else Source(data)
    if lines is not None:
        part = _flow_part(source, write, lines, known, at) if at else None
        if part is None and not at:
            part = _block_part(source, write, lines, known)
        if part is not None:
            return part
    rewrite(source.data, [write])
    return None


def _block_part(
    source: Source,
    write: Write,
    lines: tuple[int, int],
    known: Known | None,
    *,
    checked: bool = False,
) -> Part | None:
    first, after = lines
    region = source.lines(first, after)
    if region is None or not ITEM_LEAD.match(region):  # the case's '- ' begins it
        return None
    head = "cases:" + source.line_break
    document = _part(head + region, known)
    if document is None:
        return None
    alone = dataclasses.replace(write, index=0)
    edited = rewrite_text(
        head + region, [alone], shift=first - 2, document=document, checked=checked
    )
    encoded(edited)
    return Part(first, after, edited[len(head) :])


def _flow_part(
    source: Source,
    write: Write,
    lines: tuple[int, int],
    known: Known | None,
    at: At,
    *,
    checked: bool = False,
) -> Part | None:
    first, after = lines
    line, col, end = at
    begin, stop = source.offset(line), source.offset(end[0])
    if line != first or begin is None or stop is None:
        return None
    begin, stop = begin + col - 1, stop + end[1] - 1
    region = source.text[begin:stop]
    if not region.startswith("{") or not region.endswith("}"):
        return None
    brk = source.line_break
    # Flow from the top, so no indentation rule applies; messages give the case's
    # first line the columns it has in the file.
    head, tail = "{cases: [" + brk, brk + "]}" + brk
    document = _part(head + region + tail, known)
    if document is None:
        return None
    alone = dataclasses.replace(write, index=0)
    edited = rewrite_text(
        head + region + tail,
        [alone],
        shift=first - 2,
        document=document,
        cols=col - 1,
        checked=checked,
    )
    if not edited.startswith(head) or not edited.endswith(tail):
        return None
    encoded(edited)
    return Part(first, after, edited[len(head) : len(edited) - len(tail)], col, end)


def splice(data: bytes, edits: Sequence[tuple[Write, Part]]) -> bytes:
    """``data`` (a case file's bytes, unchanged since :func:`check` made each part)
    with the lines of each part replaced by its edited text, then read back whole once.

    Each part was edited and read back alone in :func:`check`, where it was also
    confirmed to read alone as it reads in the file; every other line is kept byte
    for byte. So the whole new text is read once, not compared with a second reading
    of the old one: it must read strictly, each written case must start on its part's
    first line, end within its part, be followed by the case that followed it, and
    read with its answer as its ``expected``. Else :class:`UpdateRefused`, and
    nothing is to be written."""
    source = Source(data)
    text = source.text
    pieces: list[str] = []
    placed: list[tuple[Write, int, int]] = []  # each write, its new first and after lines
    at = 0
    shift = 0  # lines added (or removed) by the parts so far
    for write, part in sorted(edits, key=lambda edit: (edit[1].first, edit[1].col)):
        begin, end = _span_of(source, part)
        if begin is None or end is None or begin < at or end < begin:
            raise UpdateRefused("two edits overlap; edit this file by hand")
        pieces += (text[at:begin], part.text)
        at = end
        first = part.first + shift
        last = part.end[0] if part.end is not None else part.after
        if last:
            shift += len(BREAKS.findall(part.text)) - (last - part.first)
        placed.append((write, first, part.after and part.after + shift))
    pieces.append(text[at:])
    new_text = "".join(pieces)
    _check_placed(new_text, placed)
    return (BOM if source.bom else b"") + encoded(new_text)


def _span_of(source: Source, part: Part) -> tuple[int | None, int | None]:
    """Where ``part``'s text was in the file, as offsets into its text."""
    begin = source.offset(part.first)
    if part.end is not None:
        stop = source.offset(part.end[0])
        if begin is None or stop is None:
            return None, None
        return begin + part.col - 1, stop + part.end[1] - 1
    return begin, len(source.text) if part.after == 0 else source.offset(part.after)


def _check_placed(text: str, placed: Sequence[tuple[Write, int, int]]) -> None:
    """Read ``text`` (a spliced case file) strictly: each write's case is where its
    part was put (from its first line up to its after line, 0: the end) and holds
    its answer as its ``expected``, and the case that followed it starts on its after
    line."""
    document = read_back(text)
    top = document.value
    cases = top.get("cases") if isinstance(top, dict) else None
    if not isinstance(cases, list):
        raise UpdateRefused(f"with the answers written the file would have no cases; {BY_HAND}")
    starts = [line for line, _col in document.spans.items[id(cases)]]
    for write, first, after in placed:
        index = write.index
        here = cases[index] if index < len(cases) else None
        follows = starts[index + 1] if index + 1 < len(starts) else None
        if not isinstance(here, dict) or starts[index] != first or follows != (after or None):
            raise UpdateRefused(
                f"with the answers written case {write.name!r} would not read as it was "
                f"written; {BY_HAND}"
            )
        if not json_equal(here.get("expected"), write.after):
            raise UpdateRefused(
                f"case {write.name!r} would not read back with its answer as its expected; "
                f"{BY_HAND}"
            )


def _part(text: str, known: Known | None) -> Document | None:
    """``text`` (a case's lines behind ``cases:``) read, when it reads as that one case."""
    document = read_alone(text)
    if document is None:
        return None  # out of its context (an indented file, say): the whole file is read
    top = document.value
    cases = top.get("cases") if isinstance(top, dict) else None
    if not isinstance(cases, list) or not cases or not isinstance(cases[0], dict):
        return None
    if known is not None:
        case = cases[0]
        given, expected = case.get("input"), case.get("expected")
        if not identical(given if isinstance(given, dict) else {}, dict(known[0])) or not (
            identical(expected if isinstance(expected, dict) else {}, dict(known[1]))
        ):
            return None
    return document


def part_of(source: Source, write: Write, lines: tuple[int, int], at: At | None) -> Part | None:
    """``write`` made on the case's own lines of ``source``, as :func:`check` made it where
    the case ran (on the same bytes); ``None`` when it cannot be made there alone. The
    part is not read back alone again: :func:`check` read the same edit back where the
    case ran, and :func:`splice` reads the whole new text back."""
    if at is not None:
        return _flow_part(source, write, lines, None, at, checked=True)
    return _block_part(source, write, lines, None, checked=True)
