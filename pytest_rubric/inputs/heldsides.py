"""What a join panel's side files hold, read once for all its pairs: :class:`HeldSides`.

One holder is made for each panel case's pairs (by
:mod:`~pytest_rubric.running.panelcases`), shared by them and by nothing else: the run
owns it through the pairs' cases. Each side is held as :class:`SideColumns` from the
first pair that reads it until no pair still waiting needs it; :mod:`.paneljoins` reads
and counts them. This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

#: A file as last read: its modification time, size, inode and change time.
Stamp = tuple[int, int, int, int]
#: A side read a chunk of rows at a time: each chunk's IDs and label bytes; ``None``: the
#: side cannot be read so.
Chunks = Iterator["tuple[list[str], bytes] | None"]


@dataclass(frozen=True, slots=True)
class SideColumns:
    """One side's rows as read: each row's ID (text, none repeated), and each row's
    label as one byte (:data:`~.sidecolumns.FALSE`, ``TRUE``, ``UNJUDGED``,
    ``OUTSIDE``), in file order; ``checked``: no ID is empty or starts with
    whitespace; ``first``: where every row is one line holding only its ID and label
    (read whole lines at a time), row 0's number in the file, row N's that plus N (0:
    not so)."""

    ids: list[str]
    labels: bytes
    checked: bool
    first: int = 0


class JoinReview(NamedTuple):
    """A join panel's pair's rows to review, from its sides' columns: both sides' files
    as read (``stamps``); its first ``limit`` disagreeing rows (or all, if fewer), each
    its ID, its two labels and its row number in side a's file; how many rows of the
    pair disagree in all (``differing``)."""

    stamps: tuple[Stamp, Stamp]
    limit: int
    rows: list[tuple[str, bool, bool, int]]
    differing: int


class HeldSides:
    """The sides of one join panel, by their index in the panel, each held while a pair
    still waiting needs it. A side whose rows the columns cannot hold is held as
    ``None``: its pairs read their own rows, which say what is wrong and where."""

    def __init__(self, pairs: Iterable[tuple[int, int]], review_limit: int | None = None) -> None:
        #: The pairs that have not taken their sides yet.
        self.waiting = set(pairs)
        #: Each side held, as its file was when read, and its columns (``None``: not so).
        self.sides: dict[int, tuple[Stamp, SideColumns | None]] = {}
        #: How many rows to review the run keeps for each pair (``None``: no review).
        self.review_limit = review_limit
        #: Each pair's rows to review, kept from its tally until its review takes them.
        self.reviews: dict[tuple[int, int], JoinReview] = {}

    def held(self, side: int, stamp: Stamp) -> SideColumns | bool | None:
        """Side ``side`` as held for the file as it is now (``stamp``); ``False`` when
        it is not held, or was read before the file changed."""
        read, columns = self.sides.get(side, (None, None))
        return False if read != stamp else columns

    def any_side(self) -> SideColumns | None:
        """A side held, whose IDs a side read next shares where it holds the same IDs in
        the same order (one list for every side of the usual panel)."""
        return next((one for _, one in self.sides.values() if one is not None), None)

    def took(self, x: int, y: int) -> None:
        """Pair ``(x, y)`` has taken its sides: a side no pair still waiting needs is let
        go."""
        self.waiting.discard((x, y))
        needed = {side for pair in self.waiting for side in pair}
        for side in [side for side in self.sides if side not in needed]:
            del self.sides[side]

    def let_go(self) -> None:
        """Every side is let go (the pairs still waiting read them again if they run)."""
        self.sides.clear()
