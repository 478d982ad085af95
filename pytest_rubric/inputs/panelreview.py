"""A panel's rows to review, picked in the one pass that reads its export for all its
pairs: :class:`ReviewPick`, :func:`pair_review`, :func:`held_review`.

A run that keeps rows to review (a report, a review page, a baseline) keeps each pair's
first ``limit`` disagreements and counts the rest. While the panel's one pass over a
one-row-per-case export reads it (:mod:`~pytest_rubric.inputs.panelread`), a
:class:`ReviewPick` keeps each export row some pair disagrees on, with its place, until
that pair has ``limit`` of them; once every pair has, it keeps nothing more. What is
kept is at most ``limit`` rows a pair, never the file. Each pair's review then maps its
rows as its own read maps them (:func:`~pytest_rubric.inputs.ledgermaps.mapped_rows`),
at the places its own read names; its count of the rest is its disagreements less those
kept. Where the pair's rows are not all plain labels, with ``group_by`` (a row's group
is named as its own pass names it), one row per judgement, or the file changed since,
nothing is held and the pair reads its own rows again. This module does not import
pytest.
"""

from __future__ import annotations

import os

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.ledgermaps import mapped_rows
from pytest_rubric.inputs.panelheld import FALSE, TRUE, HeldReview, PanelColumns
from pytest_rubric.inputs.panelpairs import differing_count, pair_codes

#: A row kept to review, and its place.
Kept = tuple[dict[str, JSON], int]


class ReviewPick:
    """The export rows each pair of ``pairs`` disagrees on, the first ``limit`` of each,
    in row order, kept as a pass reads them (:meth:`see`), each row once for all the
    pairs that review it."""

    __slots__ = ("_limit", "_needing", "_pairs", "_split", "kept")

    def __init__(self, pairs: list[tuple[int, int]], limit: int) -> None:
        self._limit = limit
        self._pairs = pairs
        #: Each pair's rows, in row order.
        self.kept: dict[tuple[int, int], list[Kept]] = {pair: [] for pair in pairs}
        #: The pairs that have fewer than ``limit``.
        self._needing = dict(self.kept) if limit > 0 else {}
        #: The pairs that disagree on a row, by the row's byte for each grader.
        self._split: dict[bytes, list[tuple[int, int]]] = {}

    @property
    def open(self) -> bool:
        """Whether some pair still needs rows."""
        return bool(self._needing)

    def see(self, codes: bytes, row: dict[str, JSON], line: int) -> None:
        """Keep ``row`` (at ``line``, each grader's byte for it ``codes``) for each pair
        that disagrees on it and needs rows."""
        pairs = self._split.get(codes)
        if pairs is None:
            plain = (FALSE, TRUE)
            pairs = self._split[codes] = [
                (x, y)
                for x, y in self._pairs
                if codes[x] != codes[y] and codes[x] in plain and codes[y] in plain
            ]
        needing = self._needing
        for pair in pairs:
            rows = needing.get(pair)
            if rows is not None:
                rows.append((row, line))
                if len(rows) == self._limit:
                    del needing[pair]


def pair_review(
    columns: PanelColumns, x: int, y: int, ledger: Ledger, limit: int
) -> HeldReview | None:
    """The pair ``(x, y)``'s rows to review (``ledger``, its two-grader ledger; ``limit``
    kept a pair) from the panel's pass, where they are exactly its own read's."""
    picked = columns.review
    if picked is None or columns.per_judgement or ledger.group_by is not None:
        return None
    codes = pair_codes(columns, x, y, ledger)
    if codes is None:
        return None
    return HeldReview(columns.stamp, limit, picked[x, y], differing_count(codes))


def held_review(file: InputFile, limit: int) -> tuple[list[JSON], list[str], int] | None:
    """The rows to review of the pair ``file`` reads, its first ``limit`` as its ledger
    rows, each one's place (after the file's name), and the count of the rest; ``None``
    where its panel's pass did not keep them for ``limit`` (it reads its own rows)."""
    holder, pair_of, ledger = file.panel_read, file.pair_of, file.ledger
    if holder is None or pair_of is None or ledger is None:
        return None
    held = holder.review(pair_of[1:])
    if held is None or (limit > held.limit and held.differing > held.limit):
        return None  # kept for a smaller limit, and the pair has more
    try:
        status = os.stat(file.path)
    except OSError:
        return None
    if held.stamp != (str(file.path), status.st_mtime_ns, status.st_size):
        return None  # changed since: its own read says what it holds now
    kept = held.rows[:limit]
    rows = list(mapped_rows((row for row, _ in kept), ledger, Findings(), str))
    places = [file.reader.place(file, line) for _, line in kept]
    return rows, places, held.differing - len(kept)  # type: ignore[return-value]
