"""A panel's export read once for all its pairs: :func:`panel_blocks`.

The first pair of a panel to be tallied in a process reads the export's rows once
(through its format, as any pass does) into columns: each row's ID, and each grader's
label as one byte (0 false, 1 true, 2 anything else: missing, outside the vocabulary).
Every pair is then handed its rows as label blocks
(:mod:`pytest_rubric.core.labelblocks`), counted by C code over the two columns' bytes.
A block whose pair holds anything but plain labels is ``None``, and the pair's rows are
then read one at a time, from the file, as any ledger's are: that path, not this one,
says what is wrong and where, so every answer is the two-grader answer exactly.

Only the simple layout is read so (one row per case, no ``where``, ``ids``,
``group_by`` or ``overlap``); any other panel's pairs each read the export. The columns
are kept for the panel's pairs (one panel at a time) and let go once each has taken
them. This module does not import pytest.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.keypaths import getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.formats.base import InputFile

#: Rows a block.
BLOCK_ROWS = 1 << 16
#: A pair's byte, 3 * a + b: (true, true) 4, (false, false) 0, (true, false) 3,
#: (false, true) 1; any other (2, 5, 6, 7, 8) holds a label that is not plain.
_PLAIN = bytes((0, 1, 3, 4))
_DIFFERING = re.compile(b"[\x01\x03]")


@dataclass(slots=True)
class _Columns:
    """One panel's export as read once: its IDs, each grader's bytes, and the pairs
    that have not taken their blocks yet."""

    ledger: Ledger
    stamp: tuple[str, int, int]
    ids: list[str]
    labels: list[bytearray]
    waiting: set[tuple[int, int]] = field(default_factory=set)


_kept: list[_Columns] = []  # the one panel whose columns are held


def panel_blocks(file: InputFile) -> Iterator[LabelBlock | None] | None:
    """The label blocks of the pair ``file`` reads (``file.pair_of``), from its panel's
    columns, read now unless held; ``None`` where its panel is not read once (another
    layout, or rows the columns cannot hold: read the pair's rows instead)."""
    assert file.pair_of is not None
    ledger, x, y = file.pair_of
    panel = ledger.panel
    selection = ledger.selection
    if (
        panel is None
        or not panel.paths
        or panel.both_judged
        or ledger.group_by is not None
        or selection.where
        or selection.ids_as_text
    ):
        return None
    try:
        status = os.stat(file.path)
    except OSError:
        return None
    stamp = (str(file.path), status.st_mtime_ns, status.st_size)
    columns = next((one for one in _kept if one.ledger is ledger and one.stamp == stamp), None)
    if columns is None:
        _kept.clear()  # one panel at a time: the last one's columns go first
        columns = _read(file, ledger, stamp)
        if columns is None:
            return None
        columns.waiting = {*panel.pairs()}
        _kept.append(columns)
    columns.waiting.discard((x, y))
    if not columns.waiting:
        _kept.clear()
    return _blocks(columns.ids, columns.labels[x], columns.labels[y])


def _read(file: InputFile, ledger: Ledger, stamp: tuple[str, int, int]) -> _Columns | None:
    """The export's columns, or ``None`` where a row is not a mapping with a text ID,
    where it holds no row, or where reading it fails in any way (the pairs' own reading
    then says how)."""
    assert ledger.panel is not None
    code = _coder(ledger)
    get_id = getter(ledger.id)
    getters = [getter(path) for path in ledger.panel.paths]
    ids: list[str] = []
    labels = [bytearray() for _ in getters]
    pairs = list(zip(labels, getters, strict=True))
    remember = ids.append
    try:
        for row in file.reader.rows(file, "", Cursor()):
            case_id = get_id(row)
            if type(case_id) is not str:
                return None
            remember(case_id)
            for column, get in pairs:
                column.append(code(get(row)))
    except Exception:
        return None
    return _Columns(ledger, stamp, ids, labels) if ids else None


def _coder(ledger: Ledger) -> Callable[[object], int]:
    """A label as its byte: 1 true, 0 false, 2 anything else (the vocabulary's words
    read as text, or real booleans where it has none)."""
    if ledger.labels is None:
        return lambda value: 1 if value is True else 0 if value is False else 2
    words = {word: int(meaning) for word, meaning in ledger.labels if type(word) is str}
    find = words.get

    def code(value: object) -> int:
        return find(value, 2) if type(value) is str else 2

    return code


def _blocks(ids: list[str], a: bytearray, b: bytearray) -> Iterator[LabelBlock | None]:
    """The pair of columns ``a`` and ``b`` as label blocks; ``None``, and nothing
    after it, at a block holding a label that is not plain."""
    for start in range(0, len(ids), BLOCK_ROWS):
        end = min(start + BLOCK_ROWS, len(ids))
        # No carry: each byte of 3 * a + b is at most 8.
        both = int.from_bytes(a[start:end], "big") * 3 + int.from_bytes(b[start:end], "big")
        pairs = both.to_bytes(end - start, "big")
        if pairs.translate(None, _PLAIN):
            yield None
            return
        differing = [ids[start + found.start()] for found in _DIFFERING.finditer(pairs)]
        counts = (pairs.count(4), pairs.count(0), pairs.count(3), pairs.count(1))
        yield LabelBlock(ids[start:end], counts, differing)
