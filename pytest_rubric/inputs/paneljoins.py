"""A join panel's side files read once for all its pairs: :func:`pair_blocks`.

A panel whose graders are the files of a join (``panel:`` of sides) has a pair for every
two files. The first pair to need a side reads it into columns
(:func:`~.sidecolumns.side_columns`): each row's ID, and its label as one byte; the
panel's holder (:class:`~.heldsides.HeldSides`) keeps them while a pair
still waiting needs that side. Each pair is then counted from its two sides' columns by
C code (``int.from_bytes``, ``bytes.count``), and handed to the tally as label blocks
(:mod:`pytest_rubric.core.labelblocks`): exactly the blocks
:meth:`~.joins.JoinedRows.label_blocks` would give, with the same notes.

Only what the columns can prove is counted so: every ID text and once in its file, no
``where``, ``ids`` or ``group_by``; every label of the pair's ledger a Boolean of its
side's vocabulary; without ``overlap: both-judged``, every ID in both files. Anywhere
else the pair's blocks are ``None`` and it reads its own rows from the two files, which
decide every answer exactly and say what is wrong and where.

In a run that keeps rows to review, a pair counted so keeps its first disagreements
(:class:`~.heldsides.JoinReview`: ID, labels, row number in side a's file) where side a's
lines each hold only an ID and a label, and :func:`held_join_review` makes them its review,
exactly its own read's; else its review reads its own rows. This module does not import
pytest.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from itertools import compress

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.heldsides import HeldSides, JoinReview, SideColumns, Stamp
from pytest_rubric.inputs.joins import JoinedRows
from pytest_rubric.inputs.passes import Pass, taken
from pytest_rubric.inputs.sidecolumns import UNJUDGED, side_columns
from pytest_rubric.inputs.sidelines import plain_lines

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
    a, stamp_a = _side(held, x, file.sides[0])
    b, stamp_b = _side(held, y, file.sides[1]) if a is not None else (None, None)
    held.took(x, y)
    if a is None or b is None or stamp_a is None or stamp_b is None:
        return None
    both = ledger.both_judged is not None
    names = (file.sides[0].display, file.sides[1].display)
    limit = held.review_limit

    def keep(ids: list[str], pairs: bytes, rows: Sequence[int]) -> None:
        assert limit is not None
        assert a is not None
        found, differing = _review(ids, pairs, rows, a.first, limit)
        held.reviews[x, y] = JoinReview((stamp_a, stamp_b), limit, found, differing)

    return _counted(a, b, both, names, (this, None if limit is None or not a.first else keep))


def _side(held: HeldSides, index: int, file: InputFile) -> tuple[SideColumns | None, Stamp | None]:
    """Side ``index`` (read through ``file``) as held, read now where it is not, and its
    file's stamp as read."""
    try:
        stamp = _stamp(file)
    except OSError:
        return None, None
    found = held.held(index, stamp)
    if found is False:
        found = side_columns(file, held.any_side(), plain_lines)
        held.sides[index] = (stamp, found)
    return (found, stamp) if isinstance(found, SideColumns) else (None, None)


def _stamp(file: InputFile) -> Stamp:
    """The file as it is now (``OSError`` where it is gone)."""
    status = os.stat(file.path)
    return (status.st_mtime_ns, status.st_size, status.st_ino, status.st_ctime_ns)


#: What keeps a pair's rows to review, once its blocks are proven: handed the IDs and
#: pair bytes of the rows kept, and each one's index in side a (``None``: no review).
Keep = Callable[[list[str], bytes, Sequence[int]], None] | None


def _counted(
    a: SideColumns, b: SideColumns, both: bool, names: tuple[str, str], noted: tuple[Pass, Keep]
) -> Iterator[LabelBlock | None]:
    """The pair's blocks (``a`` its side a, ``b`` its side b), kept as ``both`` (``overlap:
    both-judged``) says; pass ``noted[0]`` noted as the joined rows would be, once
    counted, and the pair's rows to review handed to ``noted[1]``."""
    this, keep = noted
    findings = this.findings
    ids, pairs = a.ids, _aligned(a, b)
    rows = range(len(ids))  # each row kept, by its index in side a
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
            rows = kept  # type: ignore[assignment]
        if not pairs:
            yield None  # nothing in common: the rows say so
            return
        findings.alone = (alone_a, alone_b)
    elif len(a.ids) != len(b.ids) or pairs.translate(None, _KEPT):
        yield None  # one side only, a label missing or outside: the rows say which
        return
    if keep is not None:
        keep(ids, pairs, rows)
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


def _review(
    ids: list[str], pairs: bytes, rows: Sequence[int], first: int, limit: int
) -> tuple[list[tuple[str, bool, bool, int]], int]:
    """The first ``limit`` rows the pair disagrees on (each its ID, its labels, its
    row's number in side a's file: ``first`` plus its index there) and how many in all."""
    differing = pairs.translate(_DIFFERING)
    kept: list[tuple[str, bool, bool, int]] = []
    at = differing.find(1)
    while at >= 0 and len(kept) < limit:
        kept.append((ids[at], pairs[at] == 4, pairs[at] == 1, first + rows[at]))
        at = differing.find(1, at + 1)
    return kept, differing.count(1)


def held_join_review(file: InputFile, limit: int) -> tuple[list[JSON], list[str], None, int] | None:
    """The rows to review of the join panel's pair ``file`` reads, its first ``limit``
    as its joined rows, each one's place, and the count of the rest; ``None`` where its
    sides' columns did not keep them for ``limit`` (it reads its own rows)."""
    assert file.panel_sides is not None
    assert file.sides is not None
    held, x, y = file.panel_sides
    review = held.reviews.pop((x, y), None)
    if review is None or (limit > review.limit and review.differing > review.limit):
        return None  # kept for a smaller limit, and the pair has more
    try:
        now = (_stamp(file.sides[0]), _stamp(file.sides[1]))
    except OSError:
        return None
    if review.stamps != now:
        return None  # changed since: its own read says what it holds now
    kept = review.rows[:limit]
    rows: list[JSON] = [{"id": case_id, "a": a, "b": b} for case_id, a, b, _ in kept]
    places = [file.sides[0].place(number) for *_, number in kept]
    return rows, places, None, review.differing - len(kept)
