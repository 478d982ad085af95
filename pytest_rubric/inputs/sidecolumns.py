"""A side of a join panel read into columns: :func:`side_columns`.

Each row's ID, and its label as one byte (:data:`FALSE`, :data:`TRUE`, :data:`UNJUDGED`:
missing, ``null`` or an empty cell; :data:`OUTSIDE`: a judgement outside the side's
vocabulary), in file order. The rows are read through the side's format, one at a time
as any join reads them, or whole lines at a time where every line is plain
(:mod:`.sidelines`). This module does not import pytest.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from itertools import islice

from pytest_rubric.core.labelblocks import JS_WHITESPACE_CHARS
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter, index_of
from pytest_rubric.descriptions.labels import Labels
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.heldsides import Chunks, SideColumns
from pytest_rubric.inputs.judgements import judged
from pytest_rubric.inputs.ledgermaps import label_meaning

#: A label's byte: a Boolean of the vocabulary; no judgement (missing, ``null``, an empty
#: cell); a judgement outside the vocabulary.
FALSE, TRUE, UNJUDGED, OUTSIDE = 0, 1, 2, 3
#: Rows read before their IDs are compared with a held side's.
CHUNK_ROWS = 1 << 16
#: Where an ID joined after LF is empty or starts with JavaScript whitespace: a side
#: without one proves its IDs ``checked`` (:class:`~pytest_rubric.core.labelblocks.LabelBlock`).
_BLANK_START = re.compile(f"\n(?:[{re.escape(JS_WHITESPACE_CHARS)}]|\\Z)")


def side_columns(file: InputFile, held: SideColumns | None, lines: Lines) -> SideColumns | None:
    """A side's columns, sharing the IDs of a side ``held`` where they are its IDs, in
    that order, read whole lines at a time where ``lines`` reads them
    (:func:`~.sidelines.plain_lines`); ``None`` where a row is not a mapping with a text
    ID, an ID repeats, the side holds no row or is read with ``where`` or ``ids``, or
    reading it fails."""
    spec = file.ledger
    if spec is None or spec.selection.where or spec.selection.ids_as_text:
        return None
    coder = _coder(spec.labels)
    first: list[int] = []
    plain = lines(file, coder[2], coder[1] if spec.labels is not None else None, first)
    if plain is not None:
        made = _gathered(plain, held)
        if made is not None:
            return replace(made, first=first[0]) if first else made
    return _gathered(_row_chunks(file, coder), held)


def _gathered(chunks: Chunks, held: SideColumns | None) -> SideColumns | None:
    """The columns of ``chunks`` (each rows' IDs and label bytes; ``None``: the side
    cannot be read so), sharing the IDs of ``held`` where they are the same."""
    labels = bytearray()
    ids: list[str] = []
    like = None if held is None else held.ids
    shared = -1 if like is None else 0  # how many IDs are ``like``'s so far (-1: not)
    try:
        for chunk in chunks:
            if chunk is None:
                return None
            found, marks = chunk
            labels += marks
            if like is not None and shared >= 0:  # C compares the chunk with ``like``'s
                if like[shared : shared + len(found)] == found:
                    shared += len(found)
                    continue
                ids, shared = like[:shared], -1
            ids += found
    except Exception:
        return None
    if held is not None and shared == len(held.ids):  # one list, already proven distinct
        return SideColumns(held.ids, bytes(labels), held.checked)
    if like is not None and shared >= 0:
        ids = like[:shared]
    if not ids or len(set(ids)) != len(ids):
        return None
    checked = not _BLANK_START.search("\n" + "\n".join(ids))
    return SideColumns(ids, bytes(labels), checked)


def _row_chunks(file: InputFile, coder: Coder) -> Chunks:
    """The side's rows, read one at a time through its format, a chunk at a time;
    ``None`` at a row that is not a mapping with a text ID."""
    spec = file.ledger
    assert spec is not None
    id_key, label_key = _one_key(spec.id), _one_key(spec.a)
    get_id, get_label = getter(spec.id), getter(spec.a)
    kind, codes, code = coder
    find = codes.get
    rows = iter(file.reader.rows(file, "", Cursor()))
    while True:
        chunk: list[str] = []
        keep = chunk.append
        marks = bytearray()
        mark = marks.append
        for row in islice(rows, CHUNK_ROWS):
            if type(row) is not dict:
                yield None
                return
            case_id = row.get(id_key, ABSENT) if id_key is not None else get_id(row)
            if type(case_id) is not str:
                yield None
                return
            keep(case_id)
            value = row.get(label_key, ABSENT) if label_key is not None else get_label(row)
            byte = find(value) if type(value) is kind else None
            mark(code(value) if byte is None else byte)
        if not chunk:
            return
        yield chunk, bytes(marks)


#: How a side is read whole lines at a time: its file, the byte of any label, each word's
#: byte (a vocabulary of words), where its first row's line goes (its lines each only an
#: ID and a label), to its chunks (``None``: not so).
Lines = Callable[
    [InputFile, Callable[[object], int], "dict[object, int] | None", list[int]], "Chunks | None"
]
#: How a side's labels become bytes (:func:`_coder`).
Coder = tuple[type, dict[object, int], Callable[[object], int]]


def _coder(labels: Labels) -> Coder:
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
