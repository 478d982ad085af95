"""Label blocks (:mod:`pytest_rubric.core.labelblocks`) of a ``.jsonl`` or ``.csv``
ledger file (also gzip'd, or with tabs: ``.tsv``): the file read whole lines at a time,
each block read by :mod:`~pytest_rubric.inputs.blocks` where counting proves its shape.

Every function here reads the file afresh and returns what it found; nothing is kept
between calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from itertools import chain

from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.blocks import (
    JudgementPairs,
    JudgementTally,
    jsonl_block,
    plain_words,
    word_block,
)
from pytest_rubric.inputs.csvrows import CSV_BOOLEANS, header_names
from pytest_rubric.inputs.findings import Findings, grader_shown
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.groups import GroupTally
from pytest_rubric.inputs.textfiles import whole_lines

#: What is read in blocks of a CSV ledger without a ``ledger:`` block: this header, then
#: rows of ``ID,L1,L2`` (see :func:`~.blocks.word_block`).
_CSV_SIMPLE_HEADER = "id,a,b"

Judgements = JudgementPairs | JudgementTally


def text_label_blocks(
    file: InputFile, findings: Findings, delimiter: str = ","
) -> Iterator[LabelBlock | None]:
    """The rows of ``file`` a block at a time: ``None``, and nothing after it, where a
    block holds anything but plain rows (a quote, an escape, another key order or
    spacing, CR line ends, a label that is not a literal boolean or word, a line a
    reader one row at a time would refuse). ``findings`` take the other graders'
    judgements of a one-row-per-judgement export, and that it was read whole, once the
    last block is handed over. A CSV's cells are split by ``delimiter``."""
    ledger = file.ledger
    if ledger is not None and not file.reader.traits.text_cells:  # a CSV's columns only
        yield None
        return
    if ledger is None or not ledger.per_judgement:
        yield from _blocks(file, None, findings, delimiter)
        return
    # One row per judgement: each case's two on adjacent lines (an export sorted by
    # case), else in any order; which, the first block tells.
    blocks = _blocks(file, JudgementPairs, findings, delimiter)
    first = next(blocks, None)
    if first is None:
        yield from _blocks(file, JudgementTally, findings, delimiter)
        return
    yield first
    yield from blocks


def lone_judgements(file: InputFile, delimiter: str = ",") -> frozenset[str] | None:
    """The IDs a one-row-per-judgement CSV export (its cells split by ``delimiter``)
    judges once (by one of its two graders), when its blocks can tell; ``None`` when they
    cannot (a line that is not plain, a case judged twice by one grader...)."""
    ended: list[Judgements] = []
    for block in _blocks(file, JudgementTally, Findings(), delimiter, ended):
        if block is None:
            break
    tally = ended[0] if ended else None
    return tally.lone() if isinstance(tally, JudgementTally) else None


def _blocks(
    file: InputFile,
    kind: type[Judgements] | None,
    findings: Findings,
    delimiter: str,
    ended: list[Judgements] | None = None,
) -> Iterator[LabelBlock | None]:
    """The file's label blocks, one row per judgement read by ``kind``, a CSV's cells
    split by ``delimiter``; the reader of judgements is put in ``ended`` once every line
    is read."""
    text_cells = file.reader.traits.text_cells  # a header line, then records of text cells
    opener = file.reader.opener
    skipped: tuple[type[Exception], ...] = (UnicodeDecodeError, OSError, *opener.faults)
    try:
        with opener.open_text(file.path) as stream:
            blocks = whole_lines(stream)
            if delimiter != ",":
                blocks = map(partial(_with_commas, delimiter=delimiter), blocks)
            judgements: Judgements | None = None
            read: Callable[[str], LabelBlock | None] | None
            if text_cells:
                header = next(blocks, None)
                end = -1 if header is None else header.find("\n")
                read = None
                if header is not None and end >= 0:
                    read, judgements = _csv_block_reader(
                        header[:end], file.ledger, kind, findings.groups
                    )
                if header is None or read is None:
                    yield None  # none, another header, a runaway line: one row at a time
                    return
                blocks = chain((header[end + 1 :],), blocks)
            else:
                read = jsonl_block
            for body in blocks:
                block = None if body is None else read(body)
                yield block
                if block is None:
                    return
            if judgements is not None:
                if ended is not None:  # read to the end
                    ended.append(judgements)
                last = judgements.last_block()  # None while a case waits: judged once
                if last is not None:  # the blocks answer: their notes stand
                    findings.ignored.update(
                        {grader_shown(name): n for name, n in judgements.ignored.items()}
                    )
                    findings.whole = True
                yield last
    except skipped:
        yield None


def _csv_block_reader(
    header: str,
    ledger: Ledger | None,
    kind: type[Judgements] | None,
    groups: GroupTally | None = None,
) -> tuple[Callable[[str], LabelBlock | None] | None, Judgements | None]:
    """How to read a CSV ledger's blocks under ``header`` (its first line), when it is a
    layout :mod:`~pytest_rubric.inputs.blocks` reads (else ``None``), and the reader of
    judgements that does, for one row per judgement."""
    if ledger is None:
        simple = header == _CSV_SIMPLE_HEADER
        return (partial(word_block, words=CSV_BOOLEANS) if simple else None), None
    if any(char in header for char in '"\r\0') or (
        ledger.labels is not None and not all(type(word) is str for word, _ in ledger.labels)
    ):
        return None, None
    words: dict[str, bool] = (
        CSV_BOOLEANS
        if ledger.labels is None
        else {str(word): meaning for word, meaning in ledger.labels}
    )
    if not plain_words(words):
        return None, None
    names = header_names(header.split(","))
    if not ledger.per_judgement:
        if ledger.group_by is not None or names != [
            ledger.id.column,
            ledger.a.column,
            ledger.b.column,
        ]:
            return None, None
        return partial(word_block, words=words), None
    assert ledger.grader is not None
    assert ledger.label is not None
    wanted = [ledger.id.column, ledger.grader.column, ledger.label.column]
    if not set(wanted) <= set(names) or len(set(names)) != len(names):
        return None, None
    if type(ledger.a_name) is not str or type(ledger.b_name) is not str:
        return None, None
    order = (names.index(wanted[0]), names.index(wanted[1]), names.index(wanted[2]))
    assert kind is not None
    judgements = kind(len(names), order, ledger.a_name, ledger.b_name, words)
    if ledger.group_by is not None:  # a case's group: its first judgement's, read in pairs
        column = ledger.group_by.column
        if groups is None or column not in names or not isinstance(judgements, JudgementPairs):
            return None, None
        judgements.group = (names.index(column), groups)
    return judgements.block, judgements


def _with_commas(lines: str | None, delimiter: str) -> str | None:
    """Whole lines whose cells ``delimiter`` splits, as the same cells split by commas
    (read so as a CSV's lines are); ``None`` where a cell holds a comma."""
    if lines is None or "," in lines:
        return None
    return lines.replace(delimiter, ",")
