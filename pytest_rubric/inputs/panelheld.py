"""A panel's export as read once for all its pairs, and who holds it: state the run owns.

:class:`PanelColumns` is what one pass over a panel's export keeps: each case's ID and,
for each grader, each case's label as one byte. :class:`PanelRead` is one panel case's
holder, made when its pairs are made (one a collection, so one a pytest-xdist worker) and
shared by its pair items: it keeps the columns until every pair that runs has taken its
part (a pair deselected, ``-k``, ``--deselect``, ``--lf``, is struck off at once).
:class:`PanelReads`, one a run, lets one panel's columns be held at a time: a worker
sent only some of a panel's pairs lets them go when it reads the next panel's. This
module imports nothing of the inputs room.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from pytest_rubric.core.jsonvalues import JSON

#: A grader's label of a case, one byte: a Boolean of the vocabulary, a label the
#: columns cannot say (missing, outside the vocabulary: the pair reads its own rows),
#: or no judgement of the case (``overlap: both-judged``; one row per judgement).
FALSE, TRUE, ODD, UNJUDGED = 0, 1, 2, 3
#: An export as read: its path, modification time, size, inode and change time (a file
#: rewritten in place to the same size and time, ``os.utime``, still changes the last).
Stamp = tuple[str, int, int, int, int]


def stamp_of(path: Path) -> Stamp:
    """What tells the file at ``path`` from the one read before (its path, time, size,
    inode and change time: a rewrite in place that keeps its size and time is seen);
    ``OSError`` when it is gone."""
    status = os.stat(path)
    return (str(path), status.st_mtime_ns, status.st_size, status.st_ino, status.st_ctime_ns)


#: What a pair keeps of a row to review: the export row and its place; with one row per
#: judgement, the pair's two judgements of the case, each with its place, in the order read.
Kept = tuple[tuple[dict[str, JSON], int], ...]


@dataclass(slots=True, eq=False)
class PanelColumns:
    """One pass over a panel's export, as its pairs read it: ``stamp`` (the file as
    read); each case's ID (``ids``, in the order of its first row or
    judgement); each grader's byte for each case (``labels``); for each grader whether
    every judgement of it is one the bytes say (``sound``: else its pairs read their own
    rows); the rows or judgements ``where`` left out, by the first condition each failed;
    each case's ``group_by`` value (``groups``, text); with one row per judgement, the
    judgements of each grader as shown (``ignored``: its name shown, its index in the
    panel or -1, its count, in the order of the first), and, where the judgements of
    cases are not each together, each grader's place of its judgement of each case
    (``firsts``: a pair's rows come in the order of their first judgement by either)."""

    stamp: Stamp
    ids: list[str]
    labels: list[bytearray]
    sound: list[bool]
    per_judgement: bool = False
    left_out: dict[str, int] = field(default_factory=dict)
    groups: list[str] | None = None
    ignored: list[tuple[str, int, int]] = field(default_factory=list)
    firsts: list[array[int]] | None = None
    #: With a review limit, the rows some pair reviews, each with its place, and each
    #: pair's (by index) in row order (:mod:`~pytest_rubric.inputs.panelpick`).
    review: dict[tuple[int, int], list[Kept]] | None = None


class HeldReview(NamedTuple):
    """One pair's rows to review, from its panel's pass: ``stamp`` (the file as read);
    its first ``limit`` disagreeing export rows (or all, if fewer), each with its place
    (with one row per judgement, the pair's two judgements of the case, each with its
    place); how many rows of the pair disagree in all (``differing``)."""

    stamp: Stamp
    limit: int
    rows: list[Kept]
    differing: int


class PanelRead:
    """One panel case's export, read once for its ``pairs`` (by index), held for them by
    the run's ``reads``; each pair takes its part once (:meth:`take`)."""

    __slots__ = ("_columns", "_reads", "_reviews", "_waiting", "reads_taken")

    def __init__(self, pairs: list[tuple[int, int]], reads: PanelReads) -> None:
        self._waiting = set(pairs)
        self._reads = reads
        self._columns: PanelColumns | None = None
        #: Each pair's rows to review, kept from its tally until its review takes them.
        self._reviews: dict[tuple[int, int], HeldReview] = {}
        #: How many times the export was read for the panel (once, unless let go early).
        self.reads_taken = 0

    def held(self, stamp: Stamp) -> PanelColumns | None:
        """The columns, while held and read from the file as ``stamp`` says it is now."""
        columns = self._columns
        return columns if columns is not None and columns.stamp == stamp else None

    def hold(self, columns: PanelColumns) -> None:
        """Hold ``columns``, just read, in place of any other panel's."""
        self.reads_taken += 1
        self._reads.holding(self)
        self._columns = columns if self._waiting else None

    @property
    def review_limit(self) -> int | None:
        """How many rows to review the run keeps for each pair (``None``: no review)."""
        return self._reads.review_limit

    def take(self, pair: tuple[int, int], review: HeldReview | None = None) -> None:
        """``pair`` has taken its part (and ``review``, its rows to review, kept for it):
        the columns go once no pair waits for them."""
        self._waiting.discard(pair)
        if review is not None:
            self._reviews[pair] = review
        if not self._waiting:
            self._columns = None

    def review(self, pair: tuple[int, int]) -> HeldReview | None:
        """``pair``'s rows to review, handed over once (``None`` where none are kept)."""
        return self._reviews.pop(pair, None)

    def release(self) -> None:
        """Let the columns and the rows to review go (another panel's are read)."""
        self._columns = None
        self._reviews.clear()


class PanelReads:
    """The run's panels read once: at most one holds its columns at a time. With a
    ``review_limit`` (the run keeps rows to review), the one pass keeps each pair's first
    that many rows to review too."""

    __slots__ = ("_holder", "review_limit")

    def __init__(self, review_limit: int | None = None) -> None:
        self._holder: PanelRead | None = None
        self.review_limit = review_limit

    def panel(self, pairs: list[tuple[int, int]]) -> PanelRead:
        """A holder for one panel case's pairs."""
        return PanelRead(pairs, self)

    def holding(self, holder: PanelRead) -> None:
        """``holder`` holds columns now: the last holder's go first."""
        if self._holder is not None:
            self._holder.release()
        self._holder = holder


def label_coder(labels: tuple[tuple[JSON, bool], ...] | None) -> Callable[[object], int]:
    """A label as its byte under the vocabulary ``labels``: :data:`TRUE`, :data:`FALSE`,
    or :data:`ODD` for anything else (the vocabulary's words read as text, or real
    Booleans where it has none)."""
    if labels is None:
        return lambda value: TRUE if value is True else FALSE if value is False else ODD
    words = {word: int(meaning) for word, meaning in labels if type(word) is str}
    find = words.get

    def code(value: object) -> int:
        return find(value, ODD) if type(value) is str else ODD

    return code
