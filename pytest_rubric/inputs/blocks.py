"""Label blocks (:mod:`pytest_rubric.core.labelblocks`) from ledger files, for a tally
that does its work in C.

Three layouts are read so, whole lines at a time, each only where counting proves the
shape (anything else is ``None``, and the rows are read one at a time, which decides
every input exactly):

- ``.jsonl`` rows ``{"id": "ID", "a": true, "b": false}``, spaced as ``json.dumps`` or
  compact (:func:`jsonl_block`);
- CSV rows ``ID,A,B`` with ``true``/``false`` or the words of a ``ledger:`` block's
  ``labels`` (:func:`word_block`);
- one row per judgement with each case's two judgements on adjacent lines, the usual
  shape of an export sorted by case (:class:`JudgementPairs`).

This module does not import pytest.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, compress, repeat
from operator import add, and_, eq, mul, ne

from pytest_rubric.core.labelblocks import JS_WHITESPACE_CHARS, LabelBlock
from pytest_rubric.inputs.groups import GroupTally

#: Characters no word of a block may hold, nor a block: a quote or CR changes how
#: ``csv.reader`` splits a line, a NUL is refused by it, a comma or LF splits cells.
_PLAIN_OUT = ('"', "\r", "\0")
_ID_OF_LINE = re.compile(r"([^,\n]*),[^\n]*\n")
_PAIR_INDEX = {(True, True): 0, (False, False): 1, (True, False): 2, (False, True): 3}

#: The two layouts of a ``.jsonl`` row :meth:`RowReader.label_blocks` reads: spaced as
#: ``json.dumps`` writes by default, and compact, as ``JSON.stringify``, ``jq -c`` and
#: ``separators=(",", ":")`` do. Each as the text before the ID, between the ID and the
#: first label, and between the labels.
_JSONL_LAYOUTS = tuple(
    (f'{{"id"{colon}"', f'"{comma}"a"{colon}', f'{comma}"b"{colon}')
    for comma, colon in ((", ", ": "), (",", ":"))
)
#: The label pairs a plain row can end with, in the order of ``LabelBlock.pairs``.
_LABEL_PAIRS = ((True, True), (False, False), (True, False), (False, True))
#: Characters no JSON text holds unescaped (all below U+0020 but LF, which ends a row).
_CONTROLS = bytes(code for code in range(0x20) if code != 0x0A)


def _cells(width: int) -> re.Pattern[str]:
    """A line of ``width`` unquoted CSV cells ended by LF, each cell a group."""
    return re.compile("([^,\n]*)," * (width - 1) + "([^,\n]*)\n")


def plain_words(words: Mapping[str, bool]) -> bool:
    """Whether every word can be found by counting: not empty, no comma, quote or break."""
    return all(
        word and not any(char in word for char in (",", "\n", *_PLAIN_OUT)) for word in words
    )


def _plain(body: str, rows: int, commas: int) -> bool:
    return not any(char in body for char in _PLAIN_OUT) and body.count(",") == commas * rows


def word_block(body: str, words: Mapping[str, bool]) -> LabelBlock | None:
    """The rows of ``body`` (whole lines after the header, each ended by LF) if each is
    ``ID,WORD,WORD`` with words of ``words`` (:func:`plain_words`); else ``None``.

    With two commas a line, a line ends with at most one ``,W1,W2`` and LF (no word holds
    a comma), so if the counts of every such ending add up to the lines, every line ends
    with one and the ID before it holds no comma."""
    rows = body.count("\n")
    if not _plain(body, rows, 2):
        return None
    pairs = [0, 0, 0, 0]
    differ = []
    for first, a in words.items():
        for second, b in words.items():
            ending = f",{first},{second}\n"
            pairs[_PAIR_INDEX[a, b]] += body.count(ending)
            if a != b:
                differ.append(ending[:-1])
    if sum(pairs) != rows:
        return None
    ids = _ID_OF_LINE.findall(body)
    if len(ids) != rows or not _within_field_limit(body, ids, words):
        return None
    lines = body.split("\n")
    lines.pop()
    differing = list(compress(ids, map(str.endswith, lines, repeat(tuple(differ)))))
    both, neither, a_only, b_only = pairs
    return LabelBlock(ids, (both, neither, a_only, b_only), differing)


class _Judgements:
    """What both readers of one-row-per-judgement blocks are told: a line's ``width``
    cells, where the ID, the grader and the label are among them (``order``), the two
    graders' names and the label words; and what they count of other graders' lines."""

    def __init__(
        self, width: int, order: tuple[int, int, int], a: str, b: str, words: Mapping[str, bool]
    ) -> None:
        self.width = width
        self.cells = _cells(width)
        self.order = order
        self.a, self.b = a, b
        self.words = dict(words)
        self.ignored: Counter[str] = Counter()


def _within_field_limit(body: str, *cells: Iterable[str]) -> bool:
    """Whether no cell is longer than ``csv.field_size_limit()``: ``csv.reader`` refuses
    one (the limit is global, and a user may change it), so a block does too."""
    limit = csv.field_size_limit()
    return len(body) <= limit or max(map(len, chain.from_iterable(cells)), default=0) <= limit


class JudgementPairs(_Judgements):
    """Blocks of a one-row-per-judgement CSV export whose lines come in pairs: each case
    judged by grader A and grader B (either first) on two adjacent lines.

    ``order`` gives where the ID, the grader and the label are among a line's ``width``
    cells; ``a`` and ``b`` are the graders' names; ``words`` the labels. A line left
    over at the end of a block waits for the next one."""

    def __init__(
        self, width: int, order: tuple[int, int, int], a: str, b: str, words: Mapping[str, bool]
    ) -> None:
        super().__init__(width, order, a, b, words)
        self.graders = {(a, b), (b, a)}
        self.carry: list[tuple[str, ...]] = []
        #: ``group_by``: the cell of a line holding its group, and the tally it goes to
        #: (each case's group is its first judgement's).
        self.group: tuple[int, GroupTally] | None = None

    def block(self, body: str) -> LabelBlock | None:
        rows = body.count("\n")
        if not _plain(body, rows, self.width - 1):
            return None
        cells: list[tuple[str, ...]] = self.cells.findall(body)
        if len(cells) != rows:
            return None
        if self.carry:
            cells = self.carry + cells
        self.carry = cells[-1:] if len(cells) % 2 else []
        if self.carry:
            cells.pop()
        if not cells:
            return LabelBlock([], (0, 0, 0, 0), [])
        at_id, at_grader, at_label = self.order
        columns = list(zip(*cells, strict=True))
        ids, graders, labels = columns[at_id], columns[at_grader], columns[at_label]
        firsts, seconds = ids[0::2], ids[1::2]
        if firsts != seconds or not _within_field_limit(body, *columns):
            return None
        by = graders[0::2]
        if not set(zip(by, graders[1::2], strict=True)) <= self.graders:
            return None
        words = self.words
        if not set(labels) <= words.keys():
            return None
        first_labels, second_labels = labels[0::2], labels[1::2]
        a = self.a
        a_words = [
            x if g == a else y for g, x, y in zip(by, first_labels, second_labels, strict=True)
        ]
        b_words = [
            y if g == a else x for g, x, y in zip(by, first_labels, second_labels, strict=True)
        ]
        a_labels = list(map(words.__getitem__, a_words))
        b_labels = list(map(words.__getitem__, b_words))
        counted = Counter(zip(a_labels, b_labels, strict=True))
        pairs = (
            counted[True, True],
            counted[False, False],
            counted[True, False],
            counted[False, True],
        )
        differing = list(compress(firsts, map(ne, a_labels, b_labels)))
        if self.group is not None:
            at_group, groups = self.group
            groups.add_block(columns[at_group][0::2], firsts, a_labels, b_labels)
        return LabelBlock(list(firsts), pairs, differing)

    def last_block(self) -> LabelBlock | None:
        """Nothing more once every line read was paired; ``None`` for a line left over (a
        case judged once)."""
        return None if self.carry else LabelBlock([], (0, 0, 0, 0), [])


def jsonl_block(body: str) -> LabelBlock | None:
    """The rows of ``body``, whole lines of a ``.jsonl`` ledger, if each is written
    ``{"id": "ID", "a": L1, "b": L2}`` in one of :data:`_JSONL_LAYOUTS` (the same one
    throughout the block), with ``true`` or ``false`` for the labels and an ID without
    escapes or control characters; else ``None``.

    Counting proves the shape, as for CSV: every line starts with the head
    ``{"id": "`` (it starts the block and follows all LFs but the last) and ends with
    one of the four tails ``", "a": true, "b": false}`` and LF... (they add up to the
    lines; at most one can end at a given LF). Head and tail hold eight quotes, and
    meet on a shared quote only in ``{"id": ", "a": ``: without that, eight quotes a
    line leave none for the ID. Such a line decodes to exactly its ID and two labels.
    """
    layout = next((layout for layout in _JSONL_LAYOUTS if body.startswith(layout[0])), None)
    if layout is None:
        return None
    head, between, labels_between = layout
    rows = body.count("\n")
    if (
        "\\" in body
        or body.count('"') != 8 * rows
        or body.count("\n" + head) != rows - 1
        or head[:-1] + between in body
    ):
        return None
    pairs = _count_pairs(body, between + "{a}" + labels_between + "{b}}}\n")
    encoded = body.encode()
    if sum(pairs) != rows or len(encoded.translate(None, _CONTROLS)) != len(encoded):
        return None
    # As CSV with '"' between the cells: no ID holds one.
    plain = body[len(head) :].replace("\n" + head, "\n").replace(between, '"')
    plain = plain.replace(labels_between, '"').replace("}\n", "\n")
    return _label_block(plain, '"', pairs)


def _count_pairs(body: str, ending: str) -> tuple[int, int, int, int]:
    """How many lines of ``body`` end with each label pair of :data:`_LABEL_PAIRS`,
    written as ``ending`` with ``{a}`` and ``{b}`` filled in."""
    both, neither, a_only, b_only = (
        body.count(ending.format(a=_label(a), b=_label(b))) for a, b in _LABEL_PAIRS
    )
    return both, neither, a_only, b_only


def _label(value: bool) -> str:
    return "true" if value else "false"


def _label_block(text: str, sep: str, pairs: tuple[int, int, int, int]) -> LabelBlock:
    """The :class:`LabelBlock` of ``text``: lines ``ID{sep}L1{sep}L2`` ended by LF, each label
    ``true`` or ``false`` and no ID holding ``sep`` (already proven), counted ``pairs``."""
    ids = text.replace(f"{sep}true", "").replace(f"{sep}false", "").split("\n")
    ids.pop()  # after the last LF
    lines = text.split("\n")
    differ = (f"{sep}true{sep}false", f"{sep}false{sep}true")
    return LabelBlock(ids, pairs, list(compress(ids, map(str.endswith, lines, repeat(differ)))))


class JudgementCounts:
    """A one-row-per-judgement export in any order (sorted by case, by grader, by time),
    tallied a block of judgements at a time with dictionary and set operations, whatever
    format the judgements were read from.

    Each grader's judgements of a block become a dictionary of ID to its code (twice its
    line, plus 1 for a true label); a case is complete when both graders' codes are
    known, and its first judgement is the smaller line. Only the IDs still waiting for
    their second judgement are kept with their code, and the IDs of complete cases (to
    find a repeat): memory follows the waiting IDs, never the rows. Complete cases are
    handed over as they complete, ``distinct`` (their order is not the rows'), and their
    disagreements, in the order of their first judgements, at the end
    (:meth:`last_block`).

    ``a`` and ``b`` are the graders' names (matched by ``==``: the reader hands over no
    Boolean grader), ``codes`` each label's bit, ``label_kind`` the type every label of
    a or b must have. ``None`` where the block path cannot decide exactly: a label
    outside the codes, a grader judging one ID twice, a judgement of a complete case, an
    ID that is blank or starts with whitespace, and, at the end, a case judged once (a
    missing label); the rows are then read one at a time, which words it. Judgements by
    other graders are left out and counted in ``ignored``.
    """

    def __init__(self, a: object, b: object, codes: Mapping[object, int], label_kind: type) -> None:
        self.a, self.b = a, b
        self.codes = dict(codes)
        self.label_kind = label_kind
        self.ignored: Counter[object] = Counter()
        self.waiting: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self.done: set[str] = set()
        self.differing: list[tuple[int, str]] = []
        self.judged = 0  # judgements by a or b

    def judgements(
        self,
        ids: Sequence[str],
        graders: Sequence[object],
        labels: Sequence[object],
        lines: Sequence[int],
    ) -> LabelBlock | None:
        """The cases these judgements complete (each ``ids[n]`` judged by ``graders[n]``
        as ``labels[n]`` on line ``lines[n]``, every ID text), as a block."""
        rows = len(ids)
        if not rows:
            return LabelBlock([], (0, 0, 0, 0), [], checked=True, distinct=True)
        judged: list[dict[str, int]] = []
        total = 0
        for name in (self.a, self.b):
            mine = list(map(eq, graders, repeat(name)))
            count = sum(mine)
            total += count
            words = list(compress(labels, mine))
            if set(map(type, words)) - {self.label_kind} or not set(words) <= self.codes.keys():
                return None
            meanings = map(self.codes.__getitem__, words)
            codes = map(add, map(mul, compress(lines, mine), repeat(2)), meanings)
            own = dict(zip(compress(ids, mine), codes, strict=False))
            if len(own) != count:
                return None  # one grader judged one ID twice in the block
            judged.append(own)
        self.judged += total
        if total != rows:
            self.ignored.update(g for g in graders if g != self.a and g != self.b)
        new_a, new_b = judged
        wait_a, wait_b = self.waiting
        done = self.done
        if new_a.keys() & wait_a.keys() or new_b.keys() & wait_b.keys():
            return None
        if new_a.keys() & done or new_b.keys() & done:
            return None
        # Complete now: judged by both in this block, or by one now and the other before.
        both = new_a.keys() & new_b.keys()
        a_then = new_a.keys() & wait_b.keys()  # b judged before, a now
        b_then = new_b.keys() & wait_a.keys()
        complete = [*both, *a_then, *b_then]
        codes_a = [
            *map(new_a.pop, both),
            *map(new_a.pop, a_then),
            *map(wait_a.pop, b_then),
        ]
        codes_b = [
            *map(new_b.pop, both),
            *map(wait_b.pop, a_then),
            *map(new_b.pop, b_then),
        ]
        wait_a.update(new_a)
        wait_b.update(new_b)
        if complete and _BLANK_ID.search("\n" + "\n".join(complete) + "\n"):
            return None  # an ID that is empty or starts with whitespace: worded row by row
        done.update(complete)
        labels_a = list(map(and_, codes_a, repeat(1)))
        labels_b = list(map(and_, codes_b, repeat(1)))
        counted = Counter(zip(labels_a, labels_b, strict=True))
        firsts = map(min, codes_a, codes_b)
        self.differing.extend(
            compress(zip(firsts, complete, strict=True), map(ne, labels_a, labels_b))
        )
        pairs = (counted[1, 1], counted[0, 0], counted[1, 0], counted[0, 1])
        return LabelBlock(complete, pairs, [], checked=True, distinct=True)

    def lone(self) -> frozenset[str]:
        """The IDs still waiting for their second judgement (at the end: judged once)."""
        return frozenset(self.waiting[0]) | frozenset(self.waiting[1])

    def last_block(self) -> LabelBlock | None:
        """The disagreements, in the order of their first judgements, once every case is
        complete; ``None`` while a case waits for its second judgement, and when a and b
        judged nothing (the rows then say whether the description matches no judgement,
        or the export holds none)."""
        if any(self.waiting) or not self.judged:
            return None
        ordered = [case_id for _, case_id in sorted(self.differing)]
        return LabelBlock([], (0, 0, 0, 0), ordered, checked=True, distinct=True)


class JudgementTally(JudgementCounts):
    """Blocks of a one-row-per-judgement CSV export in any order, read as
    :class:`JudgementCounts` says: ``order`` gives where the ID, the grader and the label
    are among a line's ``width`` cells; a line that is not plain is ``None``."""

    def __init__(
        self, width: int, order: tuple[int, int, int], a: str, b: str, words: Mapping[str, bool]
    ) -> None:
        super().__init__(a, b, {word: int(meaning) for word, meaning in words.items()}, str)
        self.width = width
        self.cells = _cells(width)
        self.order = order
        self.line = 1  # the header's

    def block(self, body: str) -> LabelBlock | None:
        rows = body.count("\n")
        if not _plain(body, rows, self.width - 1):
            return None
        found: list[tuple[str, ...]] = self.cells.findall(body)
        if len(found) != rows or not _within_field_limit(body, *zip(*found, strict=True)):
            return None
        first_line = self.line + 1
        self.line += rows
        if not found:
            return LabelBlock([], (0, 0, 0, 0), [], checked=True, distinct=True)
        columns = list(zip(*found, strict=True))
        at_id, at_grader, at_label = self.order
        lines = range(first_line, first_line + rows)
        return self.judgements(columns[at_id], columns[at_grader], columns[at_label], lines)


#: An ID (each after LF, and followed by LF) that is empty or starts with JavaScript
#: whitespace.
_BLANK_ID = re.compile(f"\n[{re.escape(JS_WHITESPACE_CHARS)}]")
