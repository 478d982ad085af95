"""Writing evaluators' answers into a case file's text as its ``expected``, surgically.

The file is never re-dumped: each edit replaces the text of one ``expected``
leaf whose value differs (or inserts a missing ``expected``), so comments,
blank lines, key order, quoting, flow styles, line endings, a BOM and the
final newline stay as they were. The new text is read back with the strict
loader before it is handed out: every case not written must read exactly as
before, and every written ``expected`` must equal its answer, or the whole
file is refused. This module does not import pytest.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_rubric.compare import json_equal
from pytest_rubric.jsonvalues import JSON
from pytest_rubric.yamlstrict import Position, Spans, StrictYAMLError, decode, load
from pytest_rubric.yamltext import block, flow, is_nested, string

BOM = b"\xef\xbb\xbf"
_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_LINE_BREAK = re.compile("\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Write:
    """One case's answer to write as its ``expected``: ``index`` is its place in
    ``cases:``, ``name`` its ID; ``created`` when the case has no ``expected`` yet."""

    index: int
    name: str
    after: Mapping[str, JSON]
    created: bool


class UpdateRefused(Exception):
    """The file cannot be edited safely; the message says why, and nothing is written."""


def rewrite(data: bytes, writes: Sequence[Write]) -> bytes:
    """``data`` (a case file's bytes) with each write applied, or :class:`UpdateRefused`."""
    bom = data.startswith(BOM)
    try:
        text = decode(data)
        document = load(text)
    except StrictYAMLError as exc:
        raise UpdateRefused(f"it no longer reads as YAML ({exc})") from None
    top = document.value
    cases = top.get("cases") if isinstance(top, dict) else None
    if not isinstance(cases, list):
        raise UpdateRefused("it no longer has a list of cases")
    editor = _Editor(text, document.spans)
    for write in writes:
        if not 0 <= write.index < len(cases) or not isinstance(cases[write.index], dict):
            raise UpdateRefused(f"case {write.name!r} is no longer where it was")
        editor.write_case(cases, write)
    new_text = editor.apply()
    _check(document.value, document.problems, new_text, writes)
    try:
        return (BOM if bom else b"") + new_text.encode("utf-8")
    except UnicodeEncodeError:
        raise UpdateRefused("an answer holds text that UTF-8 cannot encode") from None


class _Editor:
    def __init__(self, text: str, spans: Spans) -> None:
        self.text = text
        self.spans = spans
        self.line_starts = [0, *(found.end() for found in _BREAKS.finditer(text))]
        first_break = _LINE_BREAK.search(text)
        self.newline = first_break.group() if first_break else "\n"
        self.edits: list[tuple[int, int, str]] = []
        self.step = 2
        self.json_case = False

    # -- positions ------------------------------------------------------------

    def offset(self, pos: Position) -> int:
        return self.line_starts[pos[0] - 1] + pos[1] - 1

    def start_of(self, parent: Any, key: str | int) -> Position:
        if isinstance(parent, dict):
            return self.spans.keys[id(parent)][str(key)][1]
        return self.spans.items[id(parent)][int(key)]

    def end_of(self, parent: Any, key: str | int) -> int:
        """Where the text of ``parent[key]`` ends (a trailing block scalar's line
        breaks not counted)."""
        end = self.offset(self.spans.value_ends[id(parent), key])
        while end > 0 and self.text[end - 1] in " \t\r\n\x85\u2028\u2029":
            end -= 1
        return end

    def line_end(self, offset: int) -> int:
        found = _BREAKS.search(self.text, offset)
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

    def is_flow(self, value: Any) -> bool:
        return id(value) in self.spans.flow

    def json_style(self, parent: Any) -> bool:
        """Whether values inside ``parent`` (a flow collection) are written as JSON."""
        if isinstance(parent, dict) and parent:
            key_at = next(iter(self.spans.keys[id(parent)].values()))[0]
            return self.text[self.offset(key_at)] == '"'
        return self.json_case

    # -- edits ----------------------------------------------------------------

    def write_case(self, cases: list[Any], write: Write) -> None:
        case = cases[write.index]
        keys = self.spans.keys[id(case)]
        first_key_at = next(iter(keys.values()))[0]
        self.json_case = self.is_flow(case) and self.text[self.offset(first_key_at)] == '"'
        self.step = self._step(case)
        if write.created:
            if "expected" in case:
                raise UpdateRefused(f"case {write.name!r} has an 'expected' now")
            self._insert_expected(case, write.after)
            return
        expected = case.get("expected")
        if not isinstance(expected, dict):
            raise UpdateRefused(f"case {write.name!r} no longer has an 'expected' mapping")
        self._update(case, "expected", expected, write.after)

    def _step(self, case: dict[str, Any]) -> int:
        """The file's indentation step, as the case indents a nested block mapping."""
        keys = self.spans.keys[id(case)]
        column = next(iter(keys.values()))[0][1]
        for value in case.values():
            if isinstance(value, dict) and value and not self.is_flow(value):
                inner = next(iter(self.spans.keys[id(value)].values()))[0][1]
                if inner > column:
                    return inner - column
        return 2

    def _insert_expected(self, case: dict[str, Any], answer: Mapping[str, JSON]) -> None:
        keys = self.spans.keys[id(case)]
        last = next(reversed(keys))
        end = self.end_of(case, last)
        if self.is_flow(case):
            style = self.json_case
            text = f", {string('expected', json_style=style)}: {flow(answer, json_style=style)}"
            self.edits.append((end, end, text))
            return
        column = next(iter(keys.values()))[0][1]
        pad = " " * (column - 1)
        if is_nested(answer):
            lines = [f"{pad}expected:", *block(answer, column - 1 + self.step, self.step)]
        else:
            lines = [f"{pad}expected: {flow(answer)}"]
        at = self.line_end(end)
        self.edits.append((at, at, self.newline + self.newline.join(lines)))

    def _update(self, parent: Any, key: str | int, old: Any, new: Any) -> None:
        if json_equal(old, new):
            return
        if isinstance(old, dict) and isinstance(new, dict):
            if old.keys() == new.keys():
                for name in old:
                    self._update(old, name, old[name], new[name])
                return
            if not self.is_flow(old) and self._update_keys(old, new):
                return
        elif (
            isinstance(old, list)
            and isinstance(new, list)
            and len(old) == len(new)
            and (old or new)
        ):
            for index, (before, after) in enumerate(zip(old, new, strict=True)):
                self._update(old, index, before, after)
            return
        self._replace(parent, key, old, new)

    def _update_keys(self, old: dict[str, Any], new: dict[str, Any]) -> bool:
        """Edit a block mapping key by key: keep the common keys' lines, delete the
        lines of keys that went, add lines for new keys after the last one. ``False``
        when the mapping is not laid out one key per line (then it is rewritten whole)."""
        keys = self.spans.keys[id(old)]
        common = [name for name in old if name in new]
        if not common:
            return False
        for key_at, _ in keys.values():
            start = self.offset(key_at)
            line_start = self.line_start(start)
            if line_start == 0 or self.text[line_start:start].strip(" "):
                return False
        for name in common:
            self._update(old, name, old[name], new[name])
        for name in old:
            if name not in new:
                line_start = self.line_start(self.offset(keys[name][0]))
                previous_end = self.line_end(
                    self.line_starts[_line_of(self.line_starts, line_start) - 1]
                )
                self.edits.append((previous_end, self.line_end(self.end_of(old, name)), ""))
        added = [name for name in new if name not in old]
        if added:
            column = next(iter(keys.values()))[0][1]
            pad = " " * (column - 1)
            lines: list[str] = []
            for name in added:
                value = new[name]
                if is_nested(value):
                    lines.append(f"{pad}{string(name)}:")
                    lines.extend(block(value, column - 1 + self.step, self.step))
                else:
                    lines.append(f"{pad}{string(name)}: {flow(value)}")
            at = self.line_end(self.end_of(old, next(reversed(keys))))
            self.edits.append((at, at, self.newline + self.newline.join(lines)))
        return True

    def _replace(self, parent: Any, key: str | int, old: Any, new: Any) -> None:
        """Rewrite the whole value ``parent[key]`` as ``new``, in its context's style."""
        start_at = self.start_of(parent, key)
        start, end = self.offset(start_at), self.end_of(parent, key)
        if self.is_flow(parent):
            self.edits.append((start, end, flow(new, json_style=self.json_style(parent))))
            return
        old_block = isinstance(old, (dict, list)) and not self.is_flow(old)
        in_mapping = isinstance(parent, dict)
        key_column = self.spans.keys[id(parent)][str(key)][0][1] if in_mapping else start_at[1]
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
                self.edits.append((colon, end, self.newline + self.newline.join(lines)))
                return
            if not in_mapping:
                lines = block(new, column - 1, self.step)
                lines[0] = lines[0].lstrip(" ")
                self.edits.append((start, end, self.newline.join(lines)))
                return
        text = flow(new)
        if old_block and in_mapping:
            colon = self.after_colon(start)
            if colon is not None:
                self.edits.append((colon, end, f" {text}"))
                return
        self.edits.append((start, end, text))

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
    low, high = 0, len(line_starts)
    while low < high:
        middle = (low + high) // 2
        if line_starts[middle] <= offset:
            low = middle + 1
        else:
            high = middle
    return low - 1


def _check(before: Any, problems: Sequence[Any], text: str, writes: Sequence[Write]) -> None:
    """Read ``text`` back strictly: only the written cases' ``expected`` may differ."""
    try:
        document = load(text)
    except StrictYAMLError as exc:
        raise UpdateRefused(f"the edited text would not read as YAML ({exc})") from None
    after = document.value
    if len(document.problems) != len(problems) or not isinstance(after, dict):
        raise UpdateRefused("the edited text would read differently")
    old_cases, new_cases = before["cases"], after.get("cases")
    if not isinstance(new_cases, list) or len(new_cases) != len(old_cases):
        raise UpdateRefused("the edited text would not have the same cases")
    if not identical(
        {k: v for k, v in before.items() if k != "cases"},
        {k: v for k, v in after.items() if k != "cases"},
    ):
        raise UpdateRefused("the edited text would change the file's own keys")
    written = {write.index: write for write in writes}
    for index, (old, new) in enumerate(zip(old_cases, new_cases, strict=True)):
        write = written.get(index)
        if write is None:
            if not identical(old, new):
                raise UpdateRefused(
                    f"the edit would change case #{index + 1}, which is not written"
                )
            continue
        rest_old = {k: v for k, v in old.items() if k != "expected"}
        rest_new = (
            {k: v for k, v in new.items() if k != "expected"} if isinstance(new, dict) else None
        )
        if not identical(rest_old, rest_new) or not json_equal(new.get("expected"), write.after):
            raise UpdateRefused(
                f"the edited text would not read back case {write.name!r} with its answer"
            )


def identical(left: Any, right: Any) -> bool:
    """Equal and of the same types throughout (``1`` is not ``1.0`` here)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(identical(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(
            identical(a, b) for a, b in zip(left, right, strict=True)
        )
    return bool(left == right)
