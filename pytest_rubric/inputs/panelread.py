"""A panel's export read once for all its pairs: :func:`panel_blocks`.

The first pair of a panel to be tallied reads the export's rows once (through its
format, as any pass does, keeping the rows or judgements ``where`` keeps, IDs as
``ids:`` reads them) into columns (:class:`~pytest_rubric.inputs.panelheld.PanelColumns`):
each case's ID and group, and each grader's label of it as one byte. One row per case is
read here; one row per judgement, its judgements paired up for every grader at once, by
:mod:`~pytest_rubric.inputs.paneljudged`. Every pair is then handed its rows as label
blocks (:mod:`~pytest_rubric.inputs.panelpairs`), counted by C code over its two
columns. A block the columns cannot prove is ``None``, and the pair's rows are then read
one at a time, from the file, as any ledger's are: that path, not this one, says what is
wrong and where, so every answer is the two-grader answer exactly.

The columns are held by the panel case's own holder
(:class:`~pytest_rubric.inputs.panelheld.PanelRead`, made with its pairs), read again
only when the file changed since (its path, time, size, inode and change time), and let go once every pair
has taken its part. In a run that keeps rows to review, the same pass keeps each pair's
first disagreements for its review (:mod:`~pytest_rubric.inputs.panelpick`). A panel of
files (a join) is not read here. This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Iterator

from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.keypaths import ABSENT, getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.selection import Conditions, id_reader
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.panelheld import UNJUDGED, PanelColumns, Stamp, label_coder, stamp_of
from pytest_rubric.inputs.paneljudged import judged_columns
from pytest_rubric.inputs.panelpairs import pair_blocks
from pytest_rubric.inputs.panelpick import ReviewPick, pair_review


def panel_blocks(file: InputFile, findings: Findings) -> Iterator[LabelBlock | None] | None:
    """The label blocks of the pair ``file`` reads (``file.pair_of``), from its panel's
    columns (read now unless held), ``findings`` taking what its rows' pass would find;
    ``None`` where its panel is not read once (a join, or no holder)."""
    holder, pair_of = file.panel_read, file.pair_of
    if holder is None or pair_of is None or file.ledger is None:
        return None
    ledger, x, y = pair_of
    panel = ledger.panel
    if panel is None or panel.sides:
        return None
    try:
        stamp = stamp_of(file.path)
    except OSError:
        return None
    columns = holder.held(stamp)
    limit = holder.review_limit
    if columns is None:
        columns = _read(file, ledger, stamp, limit)
        holder.hold(columns)
    review = None if limit is None else pair_review(columns, x, y, file.ledger, limit)
    holder.take((x, y), review)
    return pair_blocks(columns, x, y, file.ledger, findings)


def _read(file: InputFile, ledger: Ledger, stamp: Stamp, limit: int | None) -> PanelColumns:
    """The export's columns (and, with a ``limit``, each pair's first that many rows to
    review); where reading them fails in any way, or a row is not what the columns can
    hold, columns no pair takes (each reads its own rows, which say how)."""
    assert ledger.panel is not None
    try:
        pick = None if limit is None else ReviewPick(ledger.panel.pairs(), limit)
        if ledger.per_judgement:
            columns = judged_columns(file, ledger, stamp, pick)
        else:
            columns = _per_case(file, ledger, stamp, pick)
    except Exception:
        columns = None
    if columns is None:
        return PanelColumns(stamp, [], [], [False] * len(ledger.panel.names))
    return columns


def _per_case(
    file: InputFile, ledger: Ledger, stamp: Stamp, pick: ReviewPick | None
) -> PanelColumns | None:
    """One row per case: the rows ``where`` keeps, each a case (and those ``pick`` keeps
    to review); ``None`` where one is not a mapping with a text ID."""
    panel = ledger.panel
    assert panel is not None
    code = label_coder(ledger.labels)
    if panel.both_judged:  # a label that is not there is no judgement of the case
        plain = code

        def code(value: object) -> int:
            if value is ABSENT or value is None or value == "":
                return UNJUDGED
            return plain(value)

    get_id = id_reader(ledger.id, ledger.selection)
    get_group = None if ledger.group_by is None else getter(ledger.group_by)
    labels = [bytearray() for _ in panel.paths]
    columns = list(zip(labels, map(getter, panel.paths), strict=True))
    ids: list[str] = []
    groups: list[object] = []
    conditions = Conditions(ledger.selection.where)
    kept = conditions.kept if conditions.checks else None
    cursor = Cursor()
    for row in file.reader.rows(file, "", cursor):
        if type(row) is not dict:
            return None
        if kept is not None and not kept(row):
            continue
        case_id = get_id(row)
        if type(case_id) is not str:
            return None
        ids.append(case_id)
        for column, get in columns:
            column.append(code(get(row)))
        if get_group is not None:
            groups.append(get_group(row))
        if pick is not None and pick.open:
            for pair in pick.wanting(bytes(column[-1] for column in labels)):
                pick.keep(pair, ((row, cursor.line),))
    return PanelColumns(
        stamp,
        ids,
        labels,
        [True] * len(labels),
        left_out=dict(conditions.left_out),
        groups=None if get_group is None or not all(type(v) is str for v in groups) else groups,  # type: ignore[arg-type]
        review=None if pick is None else pick.kept,
    )
