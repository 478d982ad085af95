"""Where the parser reads YAML other than YAML 1.2 does, and how its refusals are worded.

libyaml (and PyYAML's own parser) follow YAML 1.1 and take a few shortcuts. Measured
on the YAML test suite (``tests/yaml_test_suite``), they read some documents to other
values than the specification's, accept some that it calls invalid, and refuse some
valid ones. This module closes those gaps for :mod:`yamlstrict`:

- :func:`audit` finds, after a parse succeeded, what YAML 1.2 reads differently or
  refuses: a ``#`` that touches the token before it (no comment starts there), and a
  ``?`` that starts text in a flow collection (``{?x: 1}``, where older readers see an
  explicit key). It runs a second pass over the events only when a quick look at the
  text finds such a character where one could matter;
- :func:`continuation_problem` checks that a value spanning lines inside a block
  collection is indented more than the collection (``key: "a⏎b"`` is invalid);
- :func:`trailing_blank_line` gives a text whose last line holds only spaces a final
  line break, which means the same in YAML 1.2 and which the parsers then read right;
- :func:`refusal` words a parser's error: where the construct at the error's
  position is one YAML 1.2 allows but case files do not take (a tab between tokens,
  a directive, ``...``, an empty key, a key spanning lines), it says so and what to
  write instead, rather than calling the text invalid.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from pytest_rubric.core.lines import BREAKS

Position = tuple[int, int]

#: Characters that end a token other than plain text, so a ``#`` right after one starts
#: no comment: a closing quote, a flow indicator, or a block scalar's header.
_ENDS_TOKEN = frozenset("\"'[]{},|>+-0123456789")
_BLANKS = frozenset(" \t\r\n\x85\u2028\u2029")
_FLOW_STARTS = frozenset("[{,")
_BLOCK_STYLES = frozenset({"|", ">"})
_STARTS = frozenset({"MappingStartEvent", "SequenceStartEvent"})
_ENDS = frozenset({"MappingEndEvent", "SequenceEndEvent"})


def trailing_blank_line(text: str) -> str:
    """``text``, with a line break after a last line of only spaces and tabs.

    YAML 1.2 reads such a line the same with or without a break after it; the
    parsers lose it at the end of a literal block scalar (``|`` ending in ``"  "``).
    """
    if not text or text[-1] not in " \t":
        return text
    stripped = text.rstrip(" \t")
    if stripped and stripped[-1] not in "\r\n\x85\u2028\u2029":
        return text
    return text + "\n"


_OTHERBREAKS = {"\x85": "next line", "\u2028": "line separator", "\u2029": "paragraph separator"}


def other_break(text: str) -> tuple[Position, str] | None:
    """Where ``text`` holds a raw NEL, LS or PS, if it does: text in YAML 1.2, a line
    break to YAML 1.1 readers (libyaml among them), which would read the file otherwise;
    at a line and column as editors count them (LF, CRLF and CR break lines)."""
    found = [text.find(char) for char in _OTHERBREAKS]
    at = min((index for index in found if index >= 0), default=-1)
    if at < 0:
        return None
    char = text[at]
    line = text.count("\n", 0, at) + text.count("\r", 0, at) - text.count("\r\n", 0, at) + 1
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    return (line, at - start + 1), (
        f"a raw U+{ord(char):04X} ({_OTHERBREAKS[char]}) is text in YAML 1.2 but a line break "
        f"to older readers, so case files do not take it; write it as \\u{ord(char):04x} "
        "inside double quotes"
    )


def needs_audit(text: str) -> bool:
    """Whether :func:`audit` can find anything in ``text`` (most texts: no).

    Over-eager, never blind: it answers yes for every text that :func:`audit` has
    something to say of, and for a few more.
    """
    return bool(_touching_hashes(text)) or _flow_question(text)


def _touching_hashes(text: str) -> list[int]:
    """Where a ``#`` touches a character that ends a token (or any, on a directive line)."""
    directives = [m.span() for m in _DIRECTIVE_LINE.finditer(text)] if "%" in text else []
    directive_starts = [start for start, _ in directives]
    found = []
    at = text.find("#", 1)
    while at > 0:
        before = text[at - 1]
        if before in _ENDS_TOKEN or (
            directives and before not in _BLANKS and _inside(at, directives, directive_starts)
        ):
            found.append(at)
        at = text.find("#", at + 1)
    return found


_DIRECTIVE_LINE = re.compile(r"^%[^\r\n\x85\u2028\u2029]*", re.MULTILINE)


def _flow_question(text: str) -> bool:
    """Whether a ``?`` touching the text after it may start an entry of a flow collection."""
    at = text.find("?")
    while at >= 0:
        if at + 1 < len(text) and text[at + 1] not in _BLANKS:
            before = at - 1
            while before >= 0 and text[before] in _BLANKS:
                before -= 1
            if before < 0 or text[before] in _FLOW_STARTS:
                return True
            crossed = text[before + 1 : at]
            if ("\n" in crossed or "\r" in crossed) and "#" in text[
                _line_begin(text, before) : before + 1
            ]:
                return True  # a comment may end the line before: it may hide a flow start
        at = text.find("?", at + 1)
    return False


def _line_begin(text: str, index: int) -> int:
    return max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1


def audit(text: str, parser: type[Any]) -> list[tuple[Position, str]]:
    """What YAML 1.2 reads differently in a text the parser took: ``(position, message)``.

    ``text`` must be one the parser reads without error.
    """
    scalars: list[tuple[int, int]] = []  # where each scalar's text is, as indexes
    found: list[tuple[Position, str]] = []
    flows: list[bool] = []  # for each open collection, whether it is in flow style
    loader = parser(text)
    try:
        while True:
            event = loader.get_event()
            name = type(event).__name__
            if name == "StreamEndEvent":
                break
            mark = event.start_mark
            in_flow = bool(flows) and flows[-1]
            starts_entry = name == "ScalarEvent" or name in _STARTS
            if in_flow and starts_entry and mark.index > 0 and text[mark.index - 1] == "?":
                found.append(((mark.line + 1, mark.column), _question_key(text, mark.index)))
            if name == "ScalarEvent":
                start = mark.index
                if event.style in _BLOCK_STYLES:  # its header line is not its text
                    header_end = BREAKS.search(text, start)
                    start = header_end.end() if header_end else len(text)
                scalars.append((start, event.end_mark.index))
            elif name in _STARTS:
                flows.append(bool(event.flow_style))
            elif name in _ENDS:
                flows.pop()
    finally:
        loader.dispose()
    scalars.sort()
    starts = [start for start, _ in scalars]
    comments: dict[int, int] = {}  # by where a line begins: where its comment does, or -1
    line, line_start, counted = 1, 0, 0  # positions, counted on as the indexes grow
    for index in _touching_hashes(text):
        if _inside(index, scalars, starts):
            continue
        begin = _line_begin(text, index)
        if begin in comments:
            continue  # one touching '#' a line is said; the parser read the rest as a comment
        comments[begin] = _comment_start(text, begin, scalars, starts)
        if 0 <= comments[begin] < index:
            continue
        for found_break in BREAKS.finditer(text, counted, index):
            line, line_start = line + 1, found_break.end()
        counted = index
        found.append(((line, index - line_start + 1), _TOUCHING_COMMENT))
    return found


_TOUCHING_COMMENT = (
    "'#' touches the text before it, so no comment starts here and YAML reads no "
    "value; put a space before '#' to start a comment, or quote the value that holds '#'"
)


def _question_key(text: str, index: int) -> str:
    word = re.match(r"[^\s,\[\]{}:]*", text[index:])
    shown = "?" + (word.group(0) if word else "")
    return (
        f"{shown!r} in a flow collection is text in YAML 1.2 and an explicit key to older "
        f"readers; quote it ('\"{shown}\"') for the text, or write '? ' with a space for a key"
    )


def _inside(index: int, spans: list[tuple[int, int]], starts: list[int]) -> bool:
    at = bisect_right(starts, index) - 1
    return at >= 0 and spans[at][0] <= index < spans[at][1]


def _comment_start(text: str, begin: int, spans: list[tuple[int, int]], starts: list[int]) -> int:
    """Where the comment on the line that begins at ``begin`` starts; -1 for none.

    A comment starts at a ``#`` after a blank (or first on its line) that no scalar holds.
    """
    found_break = BREAKS.search(text, begin)
    upto = found_break.start() if found_break else len(text)
    at = text.find("#", begin, upto)
    while at >= 0:
        if (at == begin or text[at - 1] in " \t") and not _inside(at, spans, starts):
            return at
        at = text.find("#", at + 1, upto)
    return -1


def continuation_problem(
    lines: list[str], first: int, last: int, block_column: int, *, flow: bool = False
) -> tuple[Position, str] | None:
    """The first line of ``first + 1 .. last`` (1-based) indented too little, if any.

    A value that spans lines inside a block collection whose entries start at
    ``block_column`` continues on lines indented at least that many spaces; blank
    lines do not count, nor (in a flow collection, ``flow``) a line that holds only a
    comment, which YAML 1.2 lets start anywhere; a tab is never indentation.
    """
    for number in range(first + 1, last + 1):
        line = lines[number - 1] if number <= len(lines) else ""
        stripped = line.strip(" \t")
        if not stripped or (flow and stripped.startswith("#")):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent >= block_column:
            continue
        spaces = f"{block_column} space{'s' if block_column > 1 else ''}"
        if line[indent : indent + 1] == "\t":
            return (number, indent + 1), (
                f"this line goes on with the value begun on line {first}, indented with a "
                f"tab; indent it with spaces, at least {spaces}"
            )
        what = "its closing bracket" if line[indent] in "]}" else "it"
        return (number, 1), (
            f"this line goes on with the value begun on line {first} but is indented "
            f"{indent} of the {spaces} its block needs; indent {what} at least {spaces}"
        )
    return None


def block_scalar_problem(
    lines: list[str], header: int, column: int, block: int
) -> tuple[Position, str] | None:
    """A blank first line with more spaces than the first line of text, if any.

    ``header``, ``column``: where the block scalar's ``|`` or ``>`` is (1-based);
    ``block``: the indentation of the collection around it (-1 at the top). With
    no indentation indicator, the first line of text sets the scalar's indentation,
    and YAML 1.2 refuses a blank line before it that holds more spaces; the parsers
    take the widest blank line instead, and read less indented text as a comment.
    """
    indicator = re.match(r"[|>]([0-9+-]*)", lines[header - 1][column - 1 :])
    if indicator is None or any(c.isdigit() for c in indicator.group(1)):
        return None
    widest, widest_line = 0, 0
    for number in range(header + 1, len(lines) + 1):
        line = lines[number - 1]
        if line.strip(" "):
            indent = len(line) - len(line.lstrip(" "))
            if block < indent < widest:
                return (widest_line, indent + 1), (
                    f"this blank line holds {widest} spaces, more than the {indent} that "
                    f"start the block scalar's first line of text (line {number}); remove "
                    f"the spaces past {indent} from the blank lines above that line"
                )
            return None
        if len(line) > widest:
            widest, widest_line = len(line), number
    return None


def refusal(text: str, line: int, col: int, what: str) -> str:
    """The message for the parser's error ``what`` at ``line:col`` of ``text``."""
    lines = BREAKS.split(text)
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    char = here[col - 1 : col]
    unsupported = (
        _tab(here, col, char, what)
        or _directive(here, col, what)
        or _document_marker(lines, line, what)
        or _anchor(here, col)
        or _question(here, col, char)
        or _colon(here, col, char)
    )
    if unsupported is not None:
        return unsupported
    return f"invalid YAML: {what}; check the indentation and quoting here"


def _tab(here: str, col: int, char: str, what: str) -> str | None:
    if char != "\t" and "tab character" not in what and "\t" not in here[: col - 1].strip(" "):
        return None
    leading = here[: len(here) - len(here.lstrip(" \t"))]
    where = "indents this line" if "\t" in leading and col <= len(leading) + 1 else "is here"
    return (
        f"a tab {where}: case files take no tabs outside quotes, for indentation or "
        f"between tokens; indent with spaces, and write spaces in place of the tab"
    )


def _directive(here: str, col: int, what: str) -> str | None:
    if not here.startswith("%") or not (
        col == 1 or "directive" in what or "incompatible YAML" in what
    ):
        return None
    name = here.split()[0]
    if name == "%YAML":
        return (
            f"case files are read as YAML 1.2, and '{here.strip()}' asks for another "
            f"version; remove the line"
        )
    return (
        f"a line that starts with '%' is a directive ({name}), which case files do not "
        f"take; remove the line, or indent it if it belongs to the value above"
    )


def _document_marker(lines: list[str], line: int, what: str) -> str | None:
    for number in range(1, min(line, len(lines)) + 1):
        if re.match(r"\.\.\.(?:[ \t]|\Z)", lines[number - 1]):
            return (
                f"the document end marker '...' (line {number}) is not supported in case "
                f"files, which hold one document; remove it, and move what follows it to "
                f"another file"
            )
    if "<document start>" not in what:
        return None
    for number in range(line - 1, 0, -1):
        marker = re.match(r"---[ \t]+(\S)", lines[number - 1])
        if marker:
            return (
                f"a value begun on the '---' line (line {number}) and continued at the "
                f"first column is not supported in case files; start the value on the line "
                f"after '---', and indent its lines"
            )
    return None


def _anchor(here: str, col: int) -> str | None:
    for match in re.finditer(r"(?:^|(?<=[\s\[{,]))([&*])(\S*)", here[:col]):
        kind = "anchor" if match.group(1) == "&" else "alias"
        return (
            f"{kind} {match.group(1)}{match.group(2)} is refused: case files do not share "
            f"values; write each value out in full"
        )
    return None


def _question(here: str, col: int, char: str) -> str | None:
    if char != "?" or not here[col : col + 1].strip():
        return None
    word = re.match(r"[^\s,\[\]{}]*", here[col - 1 :])
    shown = word.group(0) if word else "?"
    return (
        f"{shown!r} in a flow collection is text in YAML 1.2, which older readers cannot "
        f"read, so case files do not take it unquoted; quote it ('\"{shown}\"')"
    )


def _colon(here: str, col: int, char: str) -> str | None:
    if char != ":":
        return None
    before = here[: col - 1].rstrip(" \t")
    after = here[col : col + 1]
    if not before:
        return (
            "a ':' at the start of a line (an empty key, or a key whose ':' went to the "
            "next line) is not supported in case files; write the key and its ':' on one "
            "line, as 'key: value'"
        )
    if after in (",", "}", "]"):
        return (
            "a key with no value in a flow collection ('key:,') is not supported in case "
            "files; write the value, null for none"
        )
    if before[-1] in "[{,:?-":
        return (
            "a ':' with no key before it (an empty key, or text that starts with ':') is "
            "not supported in case files; write the key before ':', or quote text that "
            "starts with ':' (\":x\")"
        )
    return (
        "a key that spans lines is not supported in case files; write the key and its ':' "
        "on one line"
    )
