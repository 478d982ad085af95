"""One pair of a panel as label blocks, from the panel's columns read once:
:func:`pair_blocks`.

A pair's two columns of bytes (:mod:`~pytest_rubric.inputs.panelheld`) are put together
as one byte a case, ``4 * a + b``, by C code (``int.from_bytes``), then counted: the
cases both judged with plain labels are the pair's rows, in the order of their first
row (or first judgement by either); with ``overlap: both-judged`` a case one of them did
not judge is counted as judged alone and left out. Wherever the pair's rows could hold
anything else (a label that is not plain, a case only one of them judged without
``overlap``, no row at all, a grader's judgement the columns cannot say), the block is
``None``, and the pair reads its own rows, which say exactly what and where. The
findings of the pass are those the pair's own rows would leave for a valid ledger: the
rows ``where`` left out, the cases judged alone, the other graders' judgements, the
groups. This module does not import pytest.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from itertools import compress

from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.panelheld import UNJUDGED, PanelColumns

#: The pair's bytes, ``4 * a + b``: both plain, (false, false) 0, (false, true) 1,
#: (true, false) 4, (true, true) 5; one or both not judged, with ``a`` or ``b`` 3.
_ROWS = bytes((0, 1, 4, 5))
_A_ALONE = bytes(4 * a + UNJUDGED for a in range(3))
_B_ALONE = bytes(4 * UNJUDGED + b for b in range(3))
_NEITHER = bytes((4 * UNJUDGED + UNJUDGED,))
_DIFFERING = re.compile(b"[\x01\x04]")
#: Each byte as 1 where it is a row of the pair, else 0; the bytes that are not rows.
_IS_ROW = bytes(1 if code in _ROWS else 0 for code in range(256))
_NOT_ROWS = bytes(code for code in range(256) if code not in _ROWS)
#: Rows a block.
BLOCK_ROWS = 1 << 16


def pair_blocks(
    columns: PanelColumns, x: int, y: int, ledger: Ledger, findings: Findings
) -> Iterator[LabelBlock | None]:
    """The rows of the panel's pair ``(x, y)`` (``ledger``, its two-grader ledger) as
    label blocks, ``findings`` taking what its rows' pass would find; ``None`` where the
    block cannot say what the rows hold."""
    ids = columns.ids
    codes = pair_codes(columns, x, y, ledger)
    if codes is None:
        yield None
        return
    groups = findings.groups
    if groups is not None and (columns.groups is None or columns.firsts is not None):
        yield None  # groups come in the order of their first row: read one at a time
        return
    kept_codes = codes.translate(None, _NOT_ROWS)
    every = len(kept_codes) == len(ids)  # each case is a row of the pair
    kept = ids if every else list(compress(ids, codes.translate(_IS_ROW)))
    if groups is not None:
        assert columns.groups is not None
        values = (
            columns.groups if every else list(compress(columns.groups, codes.translate(_IS_ROW)))
        )
        groups.add_block(
            values, kept, [c >= 4 for c in kept_codes], [c & 1 == 1 for c in kept_codes]
        )
    _found(columns, x, y, ledger, findings, codes)
    yield from _blocks(columns, kept, kept_codes, _differing(columns, codes, x, y))


def pair_codes(columns: PanelColumns, x: int, y: int, ledger: Ledger) -> bytes | None:
    """The pair's byte for each case, ``4 * a + b``; ``None`` where its rows could hold
    anything but plain labels: a grader's judgement the columns cannot say, a label not
    plain, a case one of them judged alone (without ``overlap``), no row at all."""
    if not (columns.ids and columns.sound[x] and columns.sound[y]):
        return None
    both = int.from_bytes(columns.labels[x], "big") * 4 + int.from_bytes(columns.labels[y], "big")
    codes = both.to_bytes(len(columns.ids), "big")  # no carry: each byte is at most 15
    allowed = _ROWS + _NEITHER
    if ledger.both_judged is not None:
        allowed += _A_ALONE + _B_ALONE
    if codes.translate(None, allowed) or not codes.translate(None, _A_ALONE + _B_ALONE + _NEITHER):
        return None
    return codes


def differing_count(codes: bytes) -> int:
    """How many of a pair's rows (its bytes ``codes``) have two different labels."""
    return codes.count(1) + codes.count(4)


def _blocks(
    columns: PanelColumns, kept: list[str], codes: bytes, apart: list[str] | None
) -> Iterator[LabelBlock]:
    """The pair's rows (``kept``, their bytes ``codes``) a block of :data:`BLOCK_ROWS` at a
    time; the IDs that differ in each block's own, or, where the judgements of cases are
    apart (``apart``, every one in the pair's order), all in the last."""
    count = len(kept)
    for start in range(0, count, BLOCK_ROWS):
        end = min(start + BLOCK_ROWS, count)
        part, ids = codes[start:end], kept[start:end]
        if apart is None:
            differing = [ids[found.start()] for found in _DIFFERING.finditer(part)]
        else:
            differing = apart if end == count else []
        counts = (part.count(5), part.count(0), part.count(4), part.count(1))
        yield LabelBlock(ids, counts, differing, distinct=columns.per_judgement)


def _differing(columns: PanelColumns, codes: bytes, x: int, y: int) -> list[str] | None:
    """Where the judgements of cases are apart, the IDs of the cases whose two labels
    differ, in the order of the pair's rows: by the first judgement of each by either."""
    firsts = columns.firsts
    if firsts is None:
        return None
    found = [match.start() for match in _DIFFERING.finditer(codes)]
    of_a, of_b = firsts[x], firsts[y]
    found.sort(key=lambda case: min(of_a[case], of_b[case]))
    ids = columns.ids
    return [ids[case] for case in found]


def _found(
    columns: PanelColumns, x: int, y: int, ledger: Ledger, findings: Findings, codes: bytes
) -> None:
    """What the pair's own pass would find of its rows, all valid: the rows ``where``
    left out, the cases each judged alone, the judgements of other graders."""
    findings.left_out = dict(columns.left_out)
    if ledger.both_judged is not None:
        alone_a = sum(map(codes.count, _A_ALONE))
        findings.alone = (alone_a, sum(map(codes.count, _B_ALONE)))
    if columns.per_judgement:
        ignored: Counter[str] = Counter()
        judged = [0, 0]
        for shown, index, count in columns.ignored:
            if index in (x, y):
                judged[index == y] += count
            else:
                ignored[shown] += count
        findings.ignored = ignored
        findings.judged = (judged[0], judged[1])
        findings.names = (ledger.a_name, ledger.b_name)
    findings.whole = True
