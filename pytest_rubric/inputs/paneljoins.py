"""A join panel's side files read once for all its pairs: :func:`pair_blocks`.

A panel whose graders are the files of a join (``panel:`` of sides) has a pair for every
two files. The first pair to need a side reads it (through its format, as any join
does) into columns (:class:`~.heldsides.SideColumns`): each row's ID, and its label as
one byte; the panel's holder (:class:`~.heldsides.HeldSides`) keeps them while a pair
still waiting needs that side. Each pair is then counted from its two sides' columns by
C code (``int.from_bytes``, ``bytes.count``), and handed to the tally as label blocks
(:mod:`pytest_rubric.core.labelblocks`): exactly the blocks
:meth:`~.joins.JoinedRows.label_blocks` would give, with the same notes.

Only what the columns can prove is counted so: every ID text and once in its file, no
``where``, ``ids`` or ``group_by``; every label of the pair's ledger a Boolean of its
side's vocabulary; without ``overlap: both-judged``, every ID in both files. Anywhere
else the pair's blocks are ``None`` and it reads its own rows from the two files, which
decide every answer exactly and say what is wrong and where. This module does not import
pytest.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from itertools import compress, islice

from pytest_rubric.core.labelblocks import JS_WHITESPACE_CHARS, LabelBlock
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter, index_of
from pytest_rubric.descriptions.labels import Labels
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.heldsides import HeldSides, SideColumns, Stamp
from pytest_rubric.inputs.joins import JoinedRows
from pytest_rubric.inputs.judgements import judged
from pytest_rubric.inputs.ledgermaps import label_meaning
from pytest_rubric.inputs.passes import Pass, taken

#: A label's byte: a Boolean of the vocabulary; no judgement (missing, ``null``, an empty
#: cell); a judgement outside the vocabulary.
FALSE, TRUE, UNJUDGED, OUTSIDE = 0, 1, 2, 3
#: Rows a block.
BLOCK_ROWS = 1 << 16
#: A row's pair byte, 4 * a + b (each at most 3: no carry). Kept: (true, true) 5,
#: (false, false) 0, (true, false) 4, (false, true) 1; judged by a alone (b's label
#: missing): 2, 6, 14; by b alone: 8, 9, 11; by neither: 10; anything else both judged,
#: one label outside the vocabulary.
_KEPT = bytes((0, 1, 4, 5))
_ALONE_A = (2, 6, 14)
_ALONE_B = (8, 9, 11)
_NO_B = (2, 6, 10, 14)
_COUNTED = bytes((*_KEPT, *_ALONE_A, *_ALONE_B, 10))
#: A pair byte as 1 where its labels differ (kept: (true, false), (false, true)), else 0.
_DIFFERING = bytes(int(pair in (1, 4)) for pair in range(256))
#: Where an ID joined after LF is empty or starts with JavaScript whitespace: a side
#: without one proves its IDs ``checked`` (:class:`~pytest_rubric.core.labelblocks.LabelBlock`).
_BLANK_START = re.compile(f"\n(?:[{re.escape(JS_WHITESPACE_CHARS)}]|\\Z)")


class PanelPairRows(JoinedRows):
    """The joined rows of a join panel's pair (``file.panel_sides``): read one at a
    time as any join's, and as label blocks counted from the panel's columns."""

    def label_blocks(self) -> Iterator[LabelBlock | None]:
        """The blocks :func:`pair_blocks` gives, noted as a pass of their own; the join's
        own blocks where it gives none."""
        this = taken("blocks", None)
        blocks = pair_blocks(self.file, this)
        if blocks is None:
            return super().label_blocks()
        self.passes.append(this)
        return blocks


def pair_blocks(file: InputFile, this: Pass) -> Iterator[LabelBlock | None] | None:
    """The label blocks of the join panel's pair ``file`` reads (``file.panel_sides``),
    from its two sides' columns, each read now unless held; ``None`` where a side is not
    read so (its rows are read instead), noting in pass ``this`` what the rows would."""
    assert file.panel_sides is not None
    assert file.sides is not None
    held, x, y = file.panel_sides
    ledger = file.ledger
    if ledger is None or ledger.group_by is not None:
        return None
    a = _side(held, x, file.sides[0])
    b = _side(held, y, file.sides[1]) if a is not None else None
    held.took(x, y)
    if a is None or b is None:
        return None
    both = ledger.both_judged is not None
    names = (file.sides[0].display, file.sides[1].display)
    return _counted(a, b, both, names, this)


def _side(held: HeldSides, index: int, file: InputFile) -> SideColumns | None:
    """Side ``index`` (read through ``file``) as held, read now where it is not."""
    try:
        status = os.stat(file.path)
    except OSError:
        return None
    stamp: Stamp = (status.st_mtime_ns, status.st_size, status.st_ino, status.st_ctime_ns)
    found = held.held(index, stamp)
    if found is False:
        found = _read(file, stamp, held.any_side())
        held.sides[index] = found
    return found if isinstance(found, SideColumns) else None


def _read(file: InputFile, stamp: Stamp, held: SideColumns | None) -> SideColumns | None:
    """A side's columns, sharing the IDs of a side ``held`` where they are its IDs, in
    that order; ``None``
    where a row is not a mapping with a text ID, an ID repeats, the side holds no row or
    is read with ``where`` or ``ids``, or reading it fails in any way."""
    spec = file.ledger
    if spec is None or spec.selection.where or spec.selection.ids_as_text:
        return None
    id_key, label_key = _one_key(spec.id), _one_key(spec.a)
    get_id, get_label = getter(spec.id), getter(spec.a)
    kind, codes, code = _coder(spec.labels)
    find = codes.get
    labels = bytearray()
    mark = labels.append
    ids: list[str] = []
    like = None if held is None else held.ids
    shared = -1 if like is None else 0  # how many IDs are ``like``'s so far (-1: not)
    rows = iter(file.reader.rows(file, "", Cursor()))
    try:
        while True:  # a chunk at a time: C compares each chunk's IDs with ``like``'s
            chunk: list[str] = []
            keep = chunk.append
            for row in islice(rows, BLOCK_ROWS):
                if type(row) is not dict:
                    return None
                case_id = row.get(id_key, ABSENT) if id_key is not None else get_id(row)
                if type(case_id) is not str:
                    return None
                keep(case_id)
                value = row.get(label_key, ABSENT) if label_key is not None else get_label(row)
                byte = find(value) if type(value) is kind else None
                mark(code(value) if byte is None else byte)
            if not chunk:
                break
            if like is not None and shared >= 0:
                if like[shared : shared + len(chunk)] == chunk:
                    shared += len(chunk)
                    continue
                ids, shared = like[:shared], -1
            ids += chunk
    except Exception:
        return None
    if held is not None and shared == len(held.ids):  # one list, already proven distinct
        return SideColumns(stamp, held.ids, bytes(labels), held.checked)
    if like is not None and shared >= 0:
        ids = like[:shared]
    if not ids or len(set(ids)) != len(ids):
        return None
    checked = not _BLANK_START.search("\n" + "\n".join(ids))
    return SideColumns(stamp, ids, bytes(labels), checked)


def _coder(labels: Labels) -> tuple[type, dict[object, int], Callable[[object], int]]:
    """How a side's labels become bytes: the kind of value its labels are (text words,
    or real Booleans without a vocabulary), each such label's byte, and the byte of any
    value at all (the same bytes, worked out one at a time)."""
    meaning = label_meaning(labels)

    def code(value: object) -> int:
        label = meaning(value)[0]
        if not judged(value):
            return UNJUDGED
        return (TRUE if label else FALSE) if type(label) is bool else OUTSIDE

    if labels is None:
        return bool, {True: code(True), False: code(False)}, code
    words = [word for word, _ in labels if type(word) is str]
    return str, {word: code(word) for word in (*words, "")}, code


def _one_key(path: KeyPath) -> str | None:
    """The key ``path`` names where it is one key (not a list index), else ``None``."""
    return path.parts[0] if len(path.parts) == 1 and index_of(path.parts[0]) is None else None


def _counted(
    a: SideColumns, b: SideColumns, both: bool, names: tuple[str, str], this: Pass
) -> Iterator[LabelBlock | None]:
    """The pair's blocks (``a`` its side a, ``b`` its side b), kept as ``both`` (``overlap:
    both-judged``) says; pass ``this`` noted as the joined rows would be, once counted."""
    findings = this.findings
    ids, pairs = a.ids, _aligned(a, b)
    if both:
        alone_a = sum(map(pairs.count, _ALONE_A))
        judged_b = len(b.labels) - b.labels.count(UNJUDGED)
        alone_b = (
            sum(map(pairs.count, _ALONE_B)) + judged_b - (len(pairs) - sum(map(pairs.count, _NO_B)))
        )
        if pairs.translate(None, _COUNTED):
            yield None  # a label outside the vocabulary where both judged: the rows say so
            return
        if pairs.translate(None, _KEPT):
            kept = [index for index, pair in enumerate(pairs) if pair in _KEPT]
            ids = [ids[index] for index in kept]
            pairs = bytes(pairs[index] for index in kept)
        if not pairs:
            yield None  # nothing in common: the rows say so
            return
        findings.alone = (alone_a, alone_b)
    elif len(a.ids) != len(b.ids) or pairs.translate(None, _KEPT):
        yield None  # one side only, a label missing or outside: the rows say which
        return
    findings.sides = ((names[0], len(a.ids)), (names[1], len(b.ids)))
    findings.left_out = {}
    findings.whole = True
    for start in range(0, len(ids), BLOCK_ROWS):
        part = pairs[start : start + BLOCK_ROWS]
        block = ids[start : start + BLOCK_ROWS]
        differing = list(compress(block, part.translate(_DIFFERING)))
        counts = (part.count(5), part.count(0), part.count(4), part.count(1))
        yield LabelBlock(block, counts, differing, checked=a.checked, distinct=True)


def _aligned(a: SideColumns, b: SideColumns) -> bytes:
    """Each of a's rows as its pair byte, in a's order, with b's label of its ID
    (``UNJUDGED`` where b has none)."""
    if a.ids == b.ids:  # the usual panel: C compares the one list shared
        labels = b.labels
    else:
        position = dict(zip(b.ids, range(len(b.ids)), strict=True))
        find = position.get
        source = b.labels + bytes((UNJUDGED,))
        missing = len(b.labels)
        labels = bytes(source[at] for at in (find(case_id, missing) for case_id in a.ids))
    combined = int.from_bytes(a.labels, "big") * 4 + int.from_bytes(labels, "big")
    return combined.to_bytes(len(a.labels), "big")
