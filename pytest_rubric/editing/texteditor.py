"""The text editor of ``--rubric-update``: the edits that write an answer into a case
file's text as its ``expected``, in the file's own style.

The file is never re-dumped: each edit replaces the text of one ``expected`` leaf whose
value differs (or inserts a missing ``expected``), so comments, blank lines, key order,
quoting, flow styles, line endings and the final newline stay as they were. What the
edits give is read back elsewhere (:mod:`pytest_rubric.editing.readback`).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Mapping
from typing import cast

from pytest_rubric.casefiles.yamlstrict import Position, Spans
from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.lines import BREAKS
from pytest_rubric.editing.readback import UpdateRefused
from pytest_rubric.editing.writes import Write
from pytest_rubric.editing.yamltext import block, flow, is_nested, string

LINE_BREAK = re.compile("\r\n|\r|\n")
#: What may precede a key on its line: indentation, and for a list item's first key its '- '.
_INDENT = re.compile(r"[ \t]*")
ITEM_LEAD = re.compile(r"[ \t]*-[ \t]+")
_FIRST_KEY_LEAD = re.compile(r"[ \t]*(?:-[ \t]+)?")
#: A line break, then a comment line (group 1: its indentation).
_OWN_COMMENT = re.compile(r"(?:\r\n|[\r\n\x85\u2028\u2029])([ \t]*)#")
#: The header of a block scalar that keeps its final line breaks: ``|+``, ``>2+``, ``|+2``.
_KEEP = re.compile(r"[|>](?:[1-9]?\+|\+[1-9])")


class Editor:
    """The edits of one text (a case file, or a case's part of it), applied at once."""

    def __init__(self, text: str, spans: Spans, shift: int = 0) -> None:
        self.text = text
        self.shift = shift  # added to line numbers in messages
        self.spans = spans
        self.line_starts = [0, *(found.end() for found in BREAKS.finditer(text))]
        first_break = LINE_BREAK.search(text)
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
        if write.key != "expected":
            self._write_pairs(case, write)
            return
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

    def _write_pairs(self, case: dict[str, JSON], write: Write) -> None:
        """Each pair's answer under the case's ``expected_pairs``, leaf by leaf; pairs
        not pinned yet go after those that are, in the order given (panel order)."""
        old = case.get(write.key)
        if old is None:
            if write.key in case:  # 'expected_pairs:' left empty: filled where it is
                self._replace(case, write.key, None, dict(write.after))
            elif "expected" in case and case["expected"] is None:
                # 'expected:' left empty: it becomes 'expected_pairs:', filled where it is.
                at = self.offset(self.spans.keys[id(case)]["expected"][0])
                at += self.text[at] in "\"'"  # inside a quoted key's quotes
                self.edits.append((at, at + len("expected"), write.key))
                self._replace(case, "expected", None, dict(write.after))
            else:
                self._insert_expected(case, write.after, write.key)
            return
        if not isinstance(old, dict):
            raise UpdateRefused(f"case {write.name!r} no longer has an {write.key!r} mapping")
        rank = {name: place for place, name in enumerate(write.order)}
        merged = {**old, **write.after}.items()
        new = dict(sorted(merged, key=lambda item: rank.get(item[0], len(rank))))
        added = {name: answer for name, answer in write.after.items() if name not in old}
        if not (added and old) or self.is_flow(old) or not self._insert_keys(old, new, write):
            self._update(case, write.key, old, new)

    def _insert_keys(self, old: dict[str, JSON], new: dict[str, JSON], write: Write) -> bool:
        """Edit a block mapping of pairs key by key, each new pair's lines put before
        the first pair pinned after it in ``write.order`` (else after the last). ``False``
        when the mapping is not laid out one key per line (then :meth:`_update` edits it)."""
        keys = self.spans.keys[id(old)]
        names = list(old)
        for name in names:
            start = self.offset(keys[name][0])
            line_start = self.line_start(start)
            if line_start == 0 or not _INDENT.fullmatch(self.text, line_start, start):
                return False
        for name in names:
            self._update(old, name, old[name], new[name])
        rank = {name: place for place, name in enumerate(write.order)}
        before: dict[str | None, dict[str, JSON]] = {}
        for name, answer in write.after.items():
            if name not in old:
                after = (other for other in names if rank.get(other, -1) > rank.get(name, -1))
                before.setdefault(next(after, None), {})[name] = answer
        column = keys[names[0]][0][1]
        quoted_keys = self.text[self.offset(keys[names[0]][0])] == '"'
        for next_pinned, pairs in before.items():
            lines = block(pairs, column - 1, self.step, json_style=quoted_keys)
            if next_pinned is None:
                at = self.after(old, names[-1])
                self.edits.append((at, at, self.newline + self.newline.join(lines)))
            else:
                at = self.line_start(self.offset(keys[next_pinned][0]))
                self.edits.append((at, at, self.newline.join(lines) + self.newline))
        return True

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

    def _insert_expected(
        self, case: dict[str, JSON], answer: Mapping[str, JSON], key: str = "expected"
    ) -> None:
        keys = self.spans.keys[id(case)]
        last = next(reversed(keys))
        end = self.end_of(case, last)
        if self.is_flow(case):
            style = self.json_case
            text = f", {string(key, json_style=style)}: {flow(answer, json_style=style)}"
            self.edits.append((end, end, text))
            return
        first_key, _ = next(iter(keys.values()))
        column = first_key[1]
        pad = " " * (column - 1)
        style = self.text[self.offset(first_key)] == '"'  # a block case with JSON's quoted keys
        name = string(key, json_style=style)
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
            if not ITEM_LEAD.fullmatch(self.text, self.line_start(start), start):
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


def _child(parent: JSON, key: str | int) -> JSON:
    """``parent[key]`` of a mapping or list of the loaded document."""
    if isinstance(parent, dict):
        return parent[str(key)]
    return cast(list[JSON], parent)[int(key)]
