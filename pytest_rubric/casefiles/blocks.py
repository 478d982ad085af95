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
from collections.abc import Iterable, Mapping
from itertools import chain, compress, repeat
from operator import ne

from pytest_rubric.core.labelblocks import LabelBlock

#: Characters no word of a block may hold, nor a block: a quote or CR changes how
#: ``csv.reader`` splits a line, a NUL is refused by it, a comma or LF splits cells.
_PLAIN_OUT = ('"', "\r", "\0")
_ID_OF_LINE = re.compile(r"([^,\n]*),[^\n]*\n")
_THREE_CELLS = re.compile(r"([^,\n]*),([^,\n]*),([^,\n]*)\n")
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


def _within_field_limit(body: str, *cells: Iterable[str]) -> bool:
    """Whether no cell is longer than ``csv.field_size_limit()``: ``csv.reader`` refuses
    one (the limit is global, and a user may change it), so a block does too."""
    limit = csv.field_size_limit()
    return len(body) <= limit or max(map(len, chain.from_iterable(cells)), default=0) <= limit


class JudgementPairs:
    """Blocks of a one-row-per-judgement CSV export whose lines come in pairs: each case
    judged by grader A and grader B (either first) on two adjacent lines.

    ``order`` gives where the ID, the grader and the label are among a line's three
    cells; ``a`` and ``b`` are the graders' names; ``words`` the labels. A line left
    over at the end of a block waits for the next one."""

    def __init__(self, order: tuple[int, int, int], a: str, b: str, words: Mapping[str, bool]):
        self.order = order
        self.graders = {(a, b), (b, a)}
        self.a = a
        self.words = dict(words)
        self.carry: list[tuple[str, str, str]] = []

    def block(self, body: str) -> LabelBlock | None:
        rows = body.count("\n")
        if not _plain(body, rows, 2):
            return None
        cells: list[tuple[str, str, str]] = _THREE_CELLS.findall(body)
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
        if firsts != seconds or not _within_field_limit(body, ids, graders, labels):
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
        return LabelBlock(list(firsts), pairs, differing)

    def done(self) -> bool:
        """Whether every line read was paired (a line left over is a case judged once)."""
        return not self.carry


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
