"""What a panel's one pass keeps for its pairs' reviews: :class:`ReviewPick`,
:class:`CasePick`, :func:`pair_review`.

While the pass reads the export (:mod:`~pytest_rubric.inputs.panelread`), a
:class:`ReviewPick` keeps each export row some pair disagrees on (with one row per
judgement, whose cases come together, the pair's two judgements of the case:
:class:`CasePick`), with its place, until that pair has ``limit`` of them; once every
pair has, it keeps nothing more: at most ``limit`` rows a pair, never the file.
:func:`pair_review` hands a pair what was kept for it where its rows are what its own
read would review (:mod:`~pytest_rubric.inputs.panelreview` makes them its review).
This module does not import pytest.
"""

from __future__ import annotations

from pytest_rubric.core.jsonvalues import JSON, plain
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.panelheld import FALSE, TRUE, HeldReview, Kept, PanelColumns
from pytest_rubric.inputs.panelpairs import differing_count, pair_codes


class ReviewPick:
    """The rows each pair of ``pairs`` disagrees on, the first ``limit`` of each, in row
    order, kept as a pass reads them (:meth:`wanting`, :meth:`keep`), each export row
    once for all the pairs that review it."""

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

    def wanting(self, codes: bytes) -> list[tuple[int, int]]:
        """The pairs that disagree on a case (each grader's byte for it ``codes``) and
        still need rows."""
        pairs = self._split.get(codes)
        if pairs is None:
            plain = (FALSE, TRUE)
            pairs = self._split[codes] = [
                (x, y)
                for x, y in self._pairs
                if codes[x] != codes[y] and codes[x] in plain and codes[y] in plain
            ]
        needing = self._needing
        return [pair for pair in pairs if pair in needing]

    def keep(self, pair: tuple[int, int], kept: Kept) -> None:
        """Keep a row to review for ``pair``, one of :meth:`wanting`'s."""
        rows = self._needing[pair]
        rows.append(kept)
        if len(rows) == self._limit:
            del self._needing[pair]


class CasePick:
    """One row per judgement, each case's judgements together: the judgements of the
    case being read (``add``), kept for the pairs that disagree on it once the next case
    starts (``close``, and at the end). Only while ``pick`` is open."""

    __slots__ = ("_case", "_judged", "_labels", "pick")

    def __init__(self, pick: ReviewPick, labels: list[bytearray]) -> None:
        self.pick = pick
        self._labels = labels
        self._case = -1
        self._judged: list[tuple[int, dict[str, JSON], int]] = []

    def add(self, case: int, grader: int, judgement: dict[str, JSON], line: int) -> None:
        """Case ``case`` judged by ``grader`` at ``line``."""
        if case != self._case:
            self.close()
            self._case = case
        self._judged.append((grader, judgement, line))

    def close(self) -> None:
        """The case being read is whole: kept for each pair that disagrees on it."""
        judged, self._judged = self._judged, []
        if not judged:
            return
        case = self._case
        for pair in self.pick.wanting(bytes(column[case] for column in self._labels)):
            self.pick.keep(pair, tuple((one, line) for at, one, line in judged if at in pair))


def pair_review(
    columns: PanelColumns, x: int, y: int, ledger: Ledger, limit: int
) -> HeldReview | None:
    """The pair ``(x, y)``'s rows to review (``ledger``, its two-grader ledger; ``limit``
    kept a pair) from the panel's pass, where they are exactly its own read's."""
    picked = columns.review
    if picked is None or columns.firsts is not None or not _labelled(columns, ledger):
        return None
    codes = pair_codes(columns, x, y, ledger)
    if codes is None:
        return None
    return HeldReview(columns.stamp, limit, picked[x, y], differing_count(codes))


def _labelled(columns: PanelColumns, ledger: Ledger) -> bool:
    """Whether each row's group (``group_by``) is labelled by its text alone, as the
    pair's own pass labels it: every case's group is text a report holds as it is (no
    two groups then share a label); without ``group_by``, there is none to label."""
    if ledger.group_by is None:
        return True
    groups = columns.groups
    return groups is not None and all(plain(value) == value for value in set(groups))
