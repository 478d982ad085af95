"""A panel's pair's rows to review as its panel's one pass kept them: :func:`held_review`.

A run that keeps rows to review (a report, a review page, a baseline) keeps each pair's
first ``limit`` disagreements and counts the rest. The panel's one pass kept them
(:mod:`~pytest_rubric.inputs.panelpick`); each pair's review then maps its rows as its
own read maps them (:func:`~pytest_rubric.inputs.ledgermaps.mapped_rows`; with one row
per judgement, its two judgements of each case paired by
:func:`~pytest_rubric.inputs.pairing.paired_judgements`), at the places its own read
names; its count of the rest is its disagreements less those kept. Where the pair's rows
are not all plain labels, with ``group_by`` where a group is not text labelled as it is,
one row per judgement whose cases come apart, or the file changed since, nothing is held
and the pair reads its own rows again. This module does not import
pytest.
"""

from __future__ import annotations

from collections.abc import Iterator

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.descriptions.keypaths import getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.ledgermaps import mapped_rows
from pytest_rubric.inputs.pairing import PairingPlaces, paired_judgements
from pytest_rubric.inputs.panelheld import Kept, stamp_of


def held_review(
    file: InputFile, limit: int
) -> tuple[list[JSON], list[str], list[str] | None, int] | None:
    """The rows to review of the pair ``file`` reads, its first ``limit`` as its ledger
    rows, each one's place (after the file's name) and group's label (with
    ``group_by``), and the count of the rest; ``None`` where its panel's pass did not
    keep them for ``limit`` (it reads its own rows)."""
    holder, pair_of, ledger = file.panel_read, file.pair_of, file.ledger
    if holder is None or pair_of is None or ledger is None:
        return None
    held = holder.review(pair_of[1:])
    if held is None or (limit > held.limit and held.differing > held.limit):
        return None  # kept for a smaller limit, and the pair has more
    try:
        now = stamp_of(file.path)
    except OSError:
        return None
    if held.stamp != now:
        return None  # changed since: its own read says what it holds now
    kept = held.rows[:limit]
    if ledger.per_judgement:
        rows, lines = _paired(kept, ledger)
    else:
        rows = list(mapped_rows((row for ((row, _),) in kept), ledger, Findings(), str))
        lines = [line for ((_, line),) in kept]
    places = [file.reader.place(file, line) for line in lines]
    groups = None
    if ledger.group_by is not None:  # text, each its own label: its first judgement's
        group = getter(ledger.group_by)
        groups = [group(case[0][0]) for case in kept]
    return rows, places, groups, held.differing - len(kept)  # type: ignore[return-value]


def _paired(kept: list[Kept], ledger: Ledger) -> tuple[list[object], list[int]]:
    """The ledger rows of the cases ``kept`` (each its two judgements, with their
    places), paired as the pair's own pass pairs them, and each row's place (its case's
    first judgement's)."""
    cursor = Cursor()

    def judgements() -> Iterator[dict[str, JSON]]:
        for case in kept:
            for judgement, line in case:
                cursor.position = line
                yield judgement

    rows, lines = [], []
    places = PairingPlaces(cursor, str)
    for row in paired_judgements(judgements(), ledger, Findings(), places):
        rows.append(row)
        lines.append(cursor.line)
    return rows, lines
