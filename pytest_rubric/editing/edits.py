"""Writing evaluators' answers into a case file's text as its ``expected``, surgically.

The file is never re-dumped: each edit replaces the text of one ``expected``
leaf whose value differs (or inserts a missing ``expected``), so comments,
blank lines, key order, quoting, flow styles, line endings, a BOM and the
final newline stay as they were. The new text is read back with the strict
loader before it is handed out: every case not written must read exactly as
before, and every written ``expected`` must equal its answer, or the whole
file is refused. :func:`check` makes the same edit and check for one case on
that case's own lines, so a run can tell, as each case runs, whether its answer
can be written, and :func:`splice` puts the checked lines of a file's cases
into it at the end. This module does not import pytest.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from pytest_rubric.casefiles.yamlstrict import (
    Document,
    Position,
    Spans,
    StrictYAMLError,
    decode,
    load,
)
from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.jsonvalues import JSON, decimal_digits, escape_controls, is_encodable, plain
from pytest_rubric.core.lines import BREAKS
from pytest_rubric.editing.yamltext import block, flow, is_nested, quoted, string

BOM = b"\xef\xbb\xbf"
_LINE_BREAK = re.compile("\r\n|\r|\n")
#: What may precede a key on its line: indentation, and for a list item's first key its '- '.
_INDENT = re.compile(r"[ \t]*")
_ITEM_LEAD = re.compile(r"[ \t]*-[ \t]+")
_FIRST_KEY_LEAD = re.compile(r"[ \t]*(?:-[ \t]+)?")
#: A line break, then a comment line (group 1: its indentation).
_OWN_COMMENT = re.compile(r"(?:\r\n|[\r\n\x85\u2028\u2029])([ \t]*)#")
#: The header of a block scalar that keeps its final line breaks: ``|+``, ``>2+``, ``|+2``.
_KEEP = re.compile(r"[|>](?:[1-9]?\+|\+[1-9])")


@dataclass(frozen=True, slots=True)
class Write:
    """One case's answer to write as its ``expected``: ``index`` is its place in
    ``cases:``, ``name`` its ID; ``created`` when the case has no ``expected`` yet."""

    index: int
    name: str
    after: Mapping[str, JSON]
    created: bool


#: YAML readers take a key written before its ':' (an implicit key) of at most this
#: many characters, quotes included.
MAX_KEY_CHARS = 1024


def unwritable(answer: JSON) -> str | None:
    """Why ``answer`` cannot be written into a case file as it is, or ``None``: text
    with a lone surrogate (UTF-8 cannot encode it), an integer too long to carry in
    decimal, or a key longer than YAML reads before its ':'."""
    stack: list[tuple[JSON, str]] = [(answer, "expected")]
    while stack:
        value, at = stack.pop()
        if isinstance(value, str):
            if not is_encodable(value):
                return (
                    f"{at} holds a lone surrogate, which UTF-8, and so a case file, cannot "
                    "hold; fix the evaluator's answer, or write this expected by hand"
                )
        elif type(value) is int:
            if isinstance(plain(value), str):
                return (
                    f"{at} is an integer of {decimal_digits(abs(value))} digits, longer than "
                    "Python writes in decimal (4300 digits); have the evaluator answer it as "
                    "text, or write this expected by hand"
                )
        elif isinstance(value, dict):
            for key, item in value.items():
                where = f"{at}[{_short(key)}]"
                stack.append((key, f"a key in {at}"))
                if len(quoted(key)) > MAX_KEY_CHARS:
                    return (
                        f"{where} is a key of {len(key)} characters; YAML reads a key of at "
                        f"most {MAX_KEY_CHARS} characters before its ':'; have the evaluator "
                        "answer a shorter key, or write this expected by hand"
                    )
                stack.append((item, where))
        elif isinstance(value, list):
            stack.extend((item, f"{at}[{index}]") for index, item in enumerate(value))
    return None


def _short(key: str) -> str:
    """A key as messages show it: escaped, and cut when long."""
    shown = escape_controls(repr(key))
    return shown if len(shown) <= 40 else f"{shown[:30]}…{shown[-8:]}"


class UpdateRefused(Exception):
    """The file cannot be edited safely; the message says why, and nothing is written."""


#: What to do when an edit the tool worked out does not read back as it should.
BY_HAND = "write this case's expected by hand"


def rewrite(data: bytes, writes: Sequence[Write]) -> bytes:
    """``data`` (a case file's bytes) with each write applied, or :class:`UpdateRefused`."""
    bom = data.startswith(BOM)
    text = _text_of(data)
    return (BOM if bom else b"") + _encoded(_rewrite(text, writes))


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
        self.text = _text_of(data)
        self._starts: list[int] | None = None
        self._break: str | None = None

    @property
    def line_break(self) -> str:
        """The file's first line break (``\\n`` when it has none), found once."""
        if self._break is None:
            found = _LINE_BREAK.search(self.text)
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
    known: tuple[Mapping[str, JSON], Mapping[str, JSON]] | None = None,
    *,
    at: tuple[int, int, tuple[int, int]] | None = None,
) -> Part | None:
    """:class:`UpdateRefused` when ``write`` alone cannot be made in ``data`` (a case
    file's bytes), as :func:`rewrite` would refuse it; else the case's edited text.

    With ``lines`` (the line the case starts on, and the line the next one starts on,
    0 after the last; see :attr:`pytest_rubric.casefiles.loader.Case.lines`), only the
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
    known: tuple[Mapping[str, JSON], Mapping[str, JSON]] | None,
) -> Part | None:
    first, after = lines
    region = source.lines(first, after)
    if region is None or not _ITEM_LEAD.match(region):  # the case's '- ' begins it
        return None
    head = "cases:" + source.line_break
    document = _part(head + region, known)
    if document is None:
        return None
    alone = dataclasses.replace(write, index=0)
    edited = _rewrite(head + region, [alone], shift=first - 2, document=document)
    _encoded(edited)
    return Part(first, after, edited[len(head) :])


def _flow_part(
    source: Source,
    write: Write,
    lines: tuple[int, int],
    known: tuple[Mapping[str, JSON], Mapping[str, JSON]] | None,
    at: tuple[int, int, tuple[int, int]],
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
    edited = _rewrite(
        head + region + tail, [alone], shift=first - 2, document=document, cols=col - 1
    )
    if not edited.startswith(head) or not edited.endswith(tail):
        return None
    _encoded(edited)
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
    return (BOM if source.bom else b"") + _encoded(new_text)


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
    document = _read_back(text)
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


def _part(
    text: str, known: tuple[Mapping[str, JSON], Mapping[str, JSON]] | None
) -> Document | None:
    """``text`` (a case's lines behind ``cases:``) read, when it reads as that one case."""
    try:
        document = load(text)
    except StrictYAMLError:
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


def _rewrite(
    text: str,
    writes: Sequence[Write],
    shift: int = 0,
    document: Document | None = None,
    cols: int = 0,
) -> str:
    """``text`` (read as ``document``, when given) with each write applied and read
    back; ``shift`` is added to the line numbers in messages (``text`` may be a part of
    the file), and ``cols`` to the columns of its second line (a flow list's case, cut
    from the middle of its line, behind one line of its own)."""
    if document is None:
        try:
            document = load(text)
        except StrictYAMLError as exc:
            raise UpdateRefused(
                f"it no longer reads as YAML ({_where(exc, shift)}); fix it, then run again"
            ) from None
    top = document.value
    cases = top.get("cases") if isinstance(top, dict) else None
    if not isinstance(cases, list):
        raise UpdateRefused("it no longer has a list of cases; fix it, then run again")
    editor = _Editor(text, document.spans, shift)
    for write in writes:
        if not 0 <= write.index < len(cases) or not isinstance(cases[write.index], dict):
            raise UpdateRefused(
                f"case {write.name!r} is no longer where it was; run again to write the "
                "answers into the current file"
            )
        editor.write_case(cases, write)
    new_text = editor.apply()
    _check(document.value, document.problems, new_text, writes, shift, cols)
    return new_text


def _text_of(data: bytes) -> str:
    """A case file's text (its BOM dropped), or :class:`UpdateRefused` if it is no
    longer UTF-8."""
    try:
        return decode(data)
    except StrictYAMLError as exc:
        raise UpdateRefused(
            f"it is no longer UTF-8 ({_where(exc)}); fix it, then run again"
        ) from None


def _encoded(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise UpdateRefused(f"an answer holds text that UTF-8 cannot encode; {BY_HAND}") from None


def _where(exc: StrictYAMLError, shift: int = 0, cols: int = 0) -> str:
    col = exc.col + cols if exc.line == 2 else exc.col
    return f"line {exc.line + shift}, column {col}: {exc.message}"


class _Editor:
    def __init__(self, text: str, spans: Spans, shift: int = 0) -> None:
        self.text = text
        self.shift = shift  # added to line numbers in messages
        self.spans = spans
        self.line_starts = [0, *(found.end() for found in BREAKS.finditer(text))]
        first_break = _LINE_BREAK.search(text)
        self.newline = first_break.group() if first_break else "\n"
        self.edits: list[tuple[int, int, str]] = []
        self.step = 2
        self.json_case = False

    # -- positions ------------------------------------------------------------

    def offset(self, pos: Position) -> int:
        return self.line_starts[pos[0] - 1] + pos[1] - 1

    def start_of(self, parent: JSON, key: str | int) -> Position:
        if isinstance(parent, dict):
            return self.spans.keys[id(parent)][str(key)][1]
        return self.spans.items[id(parent)][int(key)]

    def end_of(self, parent: JSON, key: str | int) -> int:
        """Where the text of ``parent[key]`` ends (a trailing block scalar's line
        breaks not counted)."""
        end = self.offset(self.spans.value_ends[id(parent), key])
        while end > 0 and self.text[end - 1] in " \t\r\n\x85\u2028\u2029":
            end -= 1
        return end

    def after(self, parent: JSON, key: str | int) -> int:
        """Where lines go that are added after the value ``parent[key]``: the end of its
        last line. :class:`UpdateRefused` when that value is a block scalar that keeps its
        trailing line breaks (``|+``), which would take the added lines into it."""
        start = self.offset(self.start_of(parent, key))
        indicator = _KEEP.match(self.text, start)
        if indicator is not None and isinstance(_child(parent, key), str):
            where = _line_of(self.line_starts, start) + 1 + self.shift
            raise UpdateRefused(
                f"the value at line {where} is a block scalar that keeps its trailing line "
                f"breaks ('{indicator.group()}'), so nothing can be written after it without "
                "changing it; write '|' instead of '|+' there (or move that key above the "
                "others), then run again"
            )
        return self.line_end(self.end_of(parent, key))

    def line_end(self, offset: int) -> int:
        found = BREAKS.search(self.text, offset)
        return found.start() if found else len(self.text)

    def line_start(self, offset: int) -> int:
        line = _line_of(self.line_starts, offset)
        return self.line_starts[line]

    def after_colon(self, start: int) -> int | None:
        """Just past the ``:`` before the value at ``start``, when only blanks separate them."""
        at = start
        while at > 0 and self.text[at - 1] in " \t\r\n":
            at -= 1
        return at if at > 0 and self.text[at - 1] == ":" else None

    def _keep_comments(self, start: int, end: int) -> None:
        """:class:`UpdateRefused` when the flow collection written from ``start`` to
        ``end``, about to be rewritten on one line, holds a comment it would lose."""
        text = self.text
        quote = None
        at = start
        while at < end:
            char = text[at]
            if quote is not None:
                if char == "\\" and quote == '"':
                    at += 1
                elif char == quote:
                    quote = None
            elif char in "\"'":
                quote = char
            elif char == "#" and text[at - 1] in " \t\r\n":
                where = _line_of(self.line_starts, at) + 1 + self.shift
                raise UpdateRefused(
                    f"the comment at line {where} is inside the flow collection this answer "
                    "rewrites, and would be lost; move it out of the brackets (above the key), "
                    "or write this case's expected by hand"
                )
            at += 1

    def colon_after_key(self, parent: JSON, key: str) -> int | None:
        """Just past the ``:`` that ends ``key`` of the block mapping ``parent``, on the
        key's own line; ``None`` where it is not found there (a key spanning lines)."""
        at = self.offset(self.spans.keys[id(parent)][key][0])
        end = self.line_end(at)
        text = self.text
        if at < end and text[at] in "\"'":  # a quoted key: past its closing quote
            quote, at = text[at], at + 1
            while at < end and text[at] != quote:
                at += 2 if quote == '"' and text[at] == "\\" else 1
            at += 1
        while at < end:
            if text[at] == ":" and (at + 1 == end or text[at + 1] in " \t"):
                return at + 1
            at += 1
        return None

    def is_flow(self, value: JSON) -> bool:
        return id(value) in self.spans.flow

    def quotes(self, value: JSON) -> bool:
        """Whether a flow collection is written as JSON: its first key, or its first
        string, is in double quotes."""
        if isinstance(value, dict) and value:
            return self.json_style(value)
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, str):
                    return self.text[self.offset(self.spans.items[id(value)][index])] == '"'
                if isinstance(item, (dict, list)) and item:
                    return self.quotes(item)
        return self.json_case

    def json_style(self, parent: JSON) -> bool:
        """Whether values inside ``parent`` (a flow collection) are written as JSON."""
        if isinstance(parent, dict) and parent:
            key_at = next(iter(self.spans.keys[id(parent)].values()))[0]
            return self.text[self.offset(key_at)] == '"'
        return self.json_case

    # -- edits ----------------------------------------------------------------

    def write_case(self, cases: list[JSON], write: Write) -> None:
        case = cases[write.index]
        if not isinstance(case, dict):
            raise UpdateRefused(
                f"case {write.name!r} is no longer where it was; run again to write the "
                "answers into the current file"
            )
        keys = self.spans.keys[id(case)]
        first_key_at = next(iter(keys.values()))[0]
        self.json_case = self.is_flow(case) and self.text[self.offset(first_key_at)] == '"'
        self.step = self._step(case)
        if write.created:
            if "expected" in case and case["expected"] is not None:
                raise UpdateRefused(f"case {write.name!r} has an 'expected' now")
            if "expected" in case:  # 'expected:' left empty (or null): filled where it is
                self._replace(case, "expected", None, dict(write.after))
            else:
                self._insert_expected(case, write.after)
            return
        expected = case.get("expected")
        if not isinstance(expected, dict):
            raise UpdateRefused(f"case {write.name!r} no longer has an 'expected' mapping")
        self._update(case, "expected", expected, dict(write.after))

    def _step(self, case: dict[str, JSON]) -> int:
        """The file's indentation step, as the case indents a nested block mapping."""
        keys = self.spans.keys[id(case)]
        column = next(iter(keys.values()))[0][1]
        for value in case.values():
            if isinstance(value, dict) and value and not self.is_flow(value):
                inner = next(iter(self.spans.keys[id(value)].values()))[0][1]
                if inner > column:
                    return inner - column
        return 2

    def _insert_expected(self, case: dict[str, JSON], answer: Mapping[str, JSON]) -> None:
        keys = self.spans.keys[id(case)]
        last = next(reversed(keys))
        end = self.end_of(case, last)
        if self.is_flow(case):
            style = self.json_case
            text = f", {string('expected', json_style=style)}: {flow(answer, json_style=style)}"
            self.edits.append((end, end, text))
            return
        first_key, _ = next(iter(keys.values()))
        column = first_key[1]
        pad = " " * (column - 1)
        style = self.text[self.offset(first_key)] == '"'  # a block case with JSON's quoted keys
        name = string("expected", json_style=style)
        if is_nested(answer):
            lines = [f"{pad}{name}:", *block(answer, column - 1 + self.step, self.step)]
        else:
            lines = [f"{pad}{name}: {flow(answer, json_style=style)}"]
        at = self.after(case, last)
        # Comment lines right below, indented as the case's keys or deeper, are the case's
        # own (a commented-out key, a note on it): the new key goes below them. A comment
        # indented less, or after a blank line, is about what follows and stays below it.
        while True:
            found = _OWN_COMMENT.match(self.text, at)
            if found is None or len(found.group(1)) < column - 1:
                break
            at = self.line_end(found.end())
        self.edits.append((at, at, self.newline + self.newline.join(lines)))

    def _update(self, parent: JSON, key: str | int, old: JSON, new: JSON) -> None:
        if json_equal(old, new):
            return
        if isinstance(old, dict) and isinstance(new, dict) and old and new:
            if old.keys() == new.keys():
                for name in old:
                    self._update(old, name, old[name], new[name])
                return
            if not self.is_flow(old) and self._update_keys(old, new):
                return
        elif isinstance(old, list) and isinstance(new, list) and old and new:
            if len(old) == len(new):
                for index, (before, after) in enumerate(zip(old, new, strict=True)):
                    self._update(old, index, before, after)
                return
            if not self.is_flow(old) and self._update_items(old, new):
                return
        self._replace(parent, key, old, new)

    def _update_keys(self, old: dict[str, JSON], new: dict[str, JSON]) -> bool:
        """Edit a block mapping key by key: keep the common keys' lines, delete the
        lines of keys that went, add lines for new keys after the last one. ``False``
        when the mapping is not laid out one key per line (then it is rewritten whole)."""
        keys = self.spans.keys[id(old)]
        names = list(old)
        common = [name for name in names if name in new]
        if not common:
            return False
        for index, name in enumerate(names):
            start = self.offset(keys[name][0])
            line_start = self.line_start(start)
            # The first key of a list item shares its line with the item's '- '.
            lead = _FIRST_KEY_LEAD if index == 0 else _INDENT
            if line_start == 0 or not lead.fullmatch(self.text, line_start, start):
                return False
        for name in common:
            self._update(old, name, old[name], new[name])
        gone = [name for name in names if name not in new]
        first_key = self.offset(keys[names[0]][0])
        if (
            gone
            and gone[0] == names[0]
            and not _INDENT.fullmatch(self.text, self.line_start(first_key), first_key)
        ):
            # The keys before the first kept one go from the '- ' line: that key moves up.
            kept = self.offset(keys[common[0]][0])
            self.edits.append((first_key, kept, ""))
            gone = [name for name in gone if names.index(name) > names.index(common[0])]
        for name in gone:
            self._delete_lines(self.offset(keys[name][0]), self.end_of(old, name))
        added = {name: new[name] for name in new if name not in old}
        if added:
            column = keys[names[0]][0][1]
            quoted_keys = self.text[first_key] == '"'
            lines = block(added, column - 1, self.step, json_style=quoted_keys)
            at = self.after(old, names[-1])
            self.edits.append((at, at, self.newline + self.newline.join(lines)))
        return True

    def _update_items(self, old: list[JSON], new: list[JSON]) -> bool:
        """Edit a block list whose length changed: the items at the same places are
        updated (an item that still equals its answer keeps its lines), items past the
        new end are deleted and new ones added after the last. ``False`` when the items
        do not each begin their own line with ``- `` (then it is rewritten whole)."""
        items = self.spans.items[id(old)]
        for item_at in items:
            start = self.offset(item_at)
            if not _ITEM_LEAD.fullmatch(self.text, self.line_start(start), start):
                return False
        keep = min(len(old), len(new))
        for index in range(keep):
            self._update(old, index, old[index], new[index])
        if len(old) > keep:
            last_kept = self.line_end(self.end_of(old, keep - 1))
            self.edits.append((last_kept, self.line_end(self.end_of(old, len(old) - 1)), ""))
            return True
        first = self.offset(items[0])
        line_start = self.line_start(first)
        dash = self.text.index("-", line_start, first) - line_start
        lines = block(new[keep:], dash, self.step)
        at = self.after(old, len(old) - 1)
        self.edits.append((at, at, self.newline + self.newline.join(lines)))
        return True

    def _delete_lines(self, start: int, end: int) -> None:
        """Delete the lines from the one holding ``start`` to the one holding ``end``."""
        line_start = self.line_start(start)
        previous_end = self.line_end(self.line_starts[_line_of(self.line_starts, line_start) - 1])
        self.edits.append((previous_end, self.line_end(end), ""))

    def _replace(self, parent: JSON, key: str | int, old: JSON, new: JSON) -> None:
        """Rewrite the whole value ``parent[key]`` as ``new``, in its context's style."""
        start_at = self.start_of(parent, key)
        start, end = self.offset(start_at), self.end_of(parent, key)
        empty = end <= start  # an empty value ('key:' alone): its place is just past the ':'
        end = max(start, end)
        # Text written in double quotes stays in double quotes.
        quoted_text = isinstance(old, str) and not empty and self.text[start] == '"'
        if self.is_flow(parent):
            self._keep_comments(start, end)
            text = flow(new, json_style=self.quotes(parent) or quoted_text)
            self.edits.append((start, end, f" {text}" if empty else text))
            return
        if isinstance(old, (dict, list)) and self.is_flow(old):
            # A value written in flow style stays in flow style, on one line.
            self._keep_comments(start, end)
            self.edits.append((start, end, flow(new, json_style=self.quotes(old))))
            return
        old_block = isinstance(old, (dict, list))
        in_mapping = isinstance(parent, dict)
        key_column = self.spans.keys[id(parent)][str(key)][0][1] if in_mapping else start_at[1]
        if old_block and in_mapping and self.after_colon(start) is None:
            # A comment after the key ('k:  # note'), then the block: the new value goes
            # on the key's line (a nested one below it), and the comment stays where it is.
            colon = self.colon_after_key(parent, str(key))
            if colon is not None:
                key_line_end = self.line_end(colon)
                if is_nested(new):
                    lines = block(new, key_column - 1 + self.step, self.step)
                    self.edits.append((key_line_end, end, self.newline + self.newline.join(lines)))
                else:
                    self.edits.append((colon, colon, f" {flow(new)}"))
                    self.edits.append((key_line_end, end, ""))
                return
        if is_nested(new):
            column = start_at[1]
            if old_block and (column > key_column or not in_mapping):
                # The value already starts on its own line (or after '- '): keep that line.
                lines = block(new, column - 1, self.step)
                lines[0] = lines[0].lstrip(" ")
                self.edits.append((start, end, self.newline.join(lines)))
                return
            colon = self.after_colon(start) if in_mapping else None
            if colon is not None:
                lines = block(new, key_column - 1 + self.step, self.step)
                if colon < end:
                    self.edits.append((colon, end, ""))
                # After the line's end-of-line comment, which stays on the key's line.
                at = self.line_end(end)
                self.edits.append((at, at, self.newline + self.newline.join(lines)))
                return
            if not in_mapping:
                # After '- ' (an empty item's place is just past the '-').
                indent = column - 1 + (1 if empty else 0)
                lines = block(new, indent, self.step)
                lines[0] = lines[0].lstrip(" ")
                self.edits.append((start, end, f" {lines[0]}" if empty else lines[0]))
                if len(lines) > 1:
                    at = self.line_end(end)
                    self.edits.append((at, at, self.newline + self.newline.join(lines[1:])))
                return
        text = flow(new, json_style=quoted_text)
        if old_block and in_mapping:
            colon = self.after_colon(start)
            if colon is not None:
                self.edits.append((colon, end, f" {text}"))
                return
        self.edits.append((start, end, f" {text}" if empty else text))

    def apply(self) -> str:
        edits = sorted(self.edits, key=lambda edit: (edit[0], edit[1]))
        for before, after in itertools.pairwise(edits):
            if after[0] < before[1]:
                raise UpdateRefused("two edits overlap; edit this file by hand")
        text = self.text
        for start, end, replacement in reversed(edits):
            text = text[:start] + replacement + text[end:]
        return text


def _line_of(line_starts: list[int], offset: int) -> int:
    """The 0-based line holding ``offset``."""
    return bisect.bisect_right(line_starts, offset) - 1


def _check(
    before: JSON,
    problems: Sequence[object],
    text: str,
    writes: Sequence[Write],
    shift: int,
    cols: int = 0,
) -> None:
    """Read ``text`` back strictly: only the written cases' ``expected`` may differ."""
    document = _read_back(text, shift, cols)
    after = document.value
    if len(document.problems) != len(problems) or not isinstance(after, dict):
        raise UpdateRefused(f"with the answer written the file would read differently; {BY_HAND}")
    old_cases = before.get("cases") if isinstance(before, dict) else None
    new_cases = after.get("cases")
    if not isinstance(before, dict) or not isinstance(old_cases, list):
        raise UpdateRefused("it no longer has a list of cases; fix it, then run again")
    if not isinstance(new_cases, list) or len(new_cases) != len(old_cases):
        raise UpdateRefused(
            f"with the answer written the file would not have the same cases; {BY_HAND}"
        )
    if not identical(
        {k: v for k, v in before.items() if k != "cases"},
        {k: v for k, v in after.items() if k != "cases"},
    ):
        raise UpdateRefused(f"with the answer written the file's own keys would change; {BY_HAND}")
    written = {write.index: write for write in writes}
    for index, (old, new) in enumerate(zip(old_cases, new_cases, strict=True)):
        write = written.get(index)
        if write is None:
            if not identical(old, new):
                raise UpdateRefused(
                    f"the edit would change another case (#{index + 1}), which is not "
                    f"written; {BY_HAND}"
                )
            continue
        if not isinstance(old, dict) or not isinstance(new, dict):
            raise UpdateRefused(f"case {write.name!r} would no longer be a mapping; {BY_HAND}")
        rest_old = {k: v for k, v in old.items() if k != "expected"}
        rest_new = {k: v for k, v in new.items() if k != "expected"}
        if not identical(rest_old, rest_new) or not json_equal(new.get("expected"), write.after):
            raise UpdateRefused(
                f"case {write.name!r} would not read back with its answer as its expected; "
                f"{BY_HAND}"
            )


def _read_back(text: str, shift: int = 0, cols: int = 0) -> Document:
    """``text``, a case file (or a part of it) with answers written, read strictly."""
    try:
        return load(text)
    except StrictYAMLError as exc:
        where = _where(exc, shift, cols)
        raise UpdateRefused(
            f"with the answers written the file would not read as YAML ({where}); {BY_HAND}"
        ) from None


def identical(left: object, right: object) -> bool:
    """Equal and of the same types throughout (``1`` is not ``1.0`` here)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        other = cast(dict[object, object], right)
        return list(left) == list(other) and all(identical(left[k], other[k]) for k in left)
    if isinstance(left, list):
        items = cast(list[object], right)
        return len(left) == len(items) and all(
            identical(a, b) for a, b in zip(left, items, strict=True)
        )
    return bool(left == right)


def _child(parent: JSON, key: str | int) -> JSON:
    """``parent[key]`` of a mapping or list of the loaded document."""
    if isinstance(parent, dict):
        return parent[str(key)]
    return cast(list[JSON], parent)[int(key)]
