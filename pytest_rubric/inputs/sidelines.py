"""A side of a join panel read whole lines at a time, where every line is plain:
:func:`plain_lines`.

Two layouts are read so, each line matched by one regular expression whose groups are
exactly the cells (or values) a reader one row at a time decodes from it:

- a CSV (or TSV) side with a vocabulary of words: unquoted cells, no CR or NUL, every
  line as wide as its header, each label a word of the vocabulary or an empty cell;
- a ``.jsonl`` side whose every line is ``{"ID": "...", "LABEL": ...}`` (either order),
  spaced as ``json.dumps`` writes or compact, the ID text without escapes, the label
  ``true``, ``false``, ``null`` or text without escapes.

Anywhere else the chunks end in ``None`` (or ``KeyError``), and the side is read a row at
a time. This module does not import pytest.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable
from itertools import chain
from operator import itemgetter

from pytest_rubric.descriptions.keypaths import index_of
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.formats.csvfile import Csv
from pytest_rubric.inputs.heldsides import Chunks
from pytest_rubric.inputs.textfiles import whole_lines

#: A JSON text without escapes or control characters, and a plain label's value.
_TEXT = '"([^"\\\\\x00-\x1f]*)"'
_LABEL = '(true|false|null|"[^"\\\\\x00-\x1f]*")'


def plain_lines(
    file: InputFile,
    code: Callable[[object], int],
    words: dict[object, int] | None,
    start: list[int],
) -> Chunks | None:
    """The side's chunks read whole lines at a time, ``code`` giving a label's byte
    (``words``: each word's, for a CSV side with a vocabulary of words); ``None`` for a
    format or vocabulary not read so. Where every line holds only an ID and a label,
    the number of the first row's line is added to ``start`` once the lines are read."""
    reader = file.reader
    if isinstance(reader, Csv) and words is not None:
        return _csv_lines(file, reader, words, start)
    if reader.traits.json_lines:
        return _jsonl_lines(file, code, start)
    return None


def _csv_lines(file: InputFile, reader: Csv, codes: dict[object, int], start: list[int]) -> Chunks:
    """A CSV side read whole lines at a time, where every line is plain: its cells
    unquoted, without CR or NUL, as many as the header's (each within the field size
    limit), every label a word of the vocabulary (or an empty cell); ``None`` (or
    ``KeyError``) anywhere else. Rows start on line 2 (after the header)."""
    spec = file.ledger
    assert spec is not None
    delimiter = reader.delimiter
    with reader.opener.open_text(file.path) as stream:
        blocks = whole_lines(stream)
        first = next(blocks, None)
        end = -1 if first is None else first.find("\n")
        names = [] if first is None else first[:end].split(delimiter)
        wanted = (spec.id.column, spec.a.column)
        if (
            first is None
            or any(char in first[:end] for char in '"\r\0')
            or len(set(names)) != len(names)
            or not set(wanted) <= set(names)
            or len(names) < 2
        ):
            yield None
            return
        cell = f'([^{re.escape(delimiter)}\n"\r\0]{{0,{csv.field_size_limit() - 1}}})'
        line = re.compile("^" + re.escape(delimiter).join([cell] * len(names)) + "\n", re.M)
        pick_id, pick_label = itemgetter(names.index(wanted[0])), itemgetter(names.index(wanted[1]))
        find = codes.__getitem__
        for body in chain((first[end + 1 :],), blocks):
            found = None if body is None else line.findall(body)
            if found is None or len(found) != body.count("\n"):  # type: ignore[union-attr]
                yield None
                return
            yield list(map(pick_id, found)), bytes(map(find, map(pick_label, found)))
        if len(names) == 2:  # only the ID and the label: nothing else a review shows
            start.append(2)


def _jsonl_lines(file: InputFile, code: Callable[[object], int], start: list[int]) -> Chunks:
    """A ``.jsonl`` side read whole lines at a time, where every line is plain (its ID
    and its label only, from line 1)."""
    spec = file.ledger
    assert spec is not None
    keys = (spec.id.parts, spec.a.parts)
    if any(
        len(parts) != 1
        or index_of(parts[0]) is not None
        or not re.fullmatch(r"[^\"\\\x00-\x1f]+", parts[0])
        for parts in keys
    ):
        yield None
        return
    id_key, label_key = (re.escape(json.dumps(parts[0], ensure_ascii=False)) for parts in keys)
    layouts = [
        (re.compile(f"^\\{{{first}{colon}{one}{comma}{second}{colon}{two}\\}}\n", re.M), order)
        for comma, colon in ((", ", ": "), (",", ":"))
        for first, one, second, two, order in (
            (id_key, _TEXT, label_key, _LABEL, (0, 1)),
            (label_key, _LABEL, id_key, _TEXT, (1, 0)),
        )
    ]
    bytes_of: dict[str, int] = {}
    with file.reader.opener.open_text(file.path) as stream:
        line = None
        for body in whole_lines(stream):
            if line is None and body is not None:
                line, order = next(
                    ((found, at) for found, at in layouts if found.match(body)), (None, (0, 1))
                )
            found = None if body is None or line is None else line.findall(body)
            if found is None or len(found) != body.count("\n"):  # type: ignore[union-attr]
                yield None
                return
            tokens = list(map(itemgetter(order[1]), found))
            for token in set(tokens).difference(bytes_of):
                bytes_of[token] = code(json.loads(token))
            yield list(map(itemgetter(order[0]), found)), bytes(map(bytes_of.__getitem__, tokens))
    start.append(1)
