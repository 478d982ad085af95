"""Which ``review`` functions pick a ledger's disagreements and nothing else:
:func:`picks_disagreements`, :func:`only_disagreements`.

A ``review`` (:class:`~pytest_rubric.core.evaluator.OnLedger`) is handed every row of a
ledger and may read any of them. One marked here yields one row for each ledger row
whose ``a`` and ``b`` are two different Booleans, in row order, from that row alone:
handed only those rows, it yields the same, so a panel's one pass can keep them for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

_Review = TypeVar("_Review", bound=Callable[..., object])

#: The reviews marked (found by identity: a review need not be hashable).
_MARKED: list[object] = []


def picks_disagreements(review: _Review) -> _Review:
    """Mark ``review`` as picking the disagreements only, each from its row alone."""
    _MARKED.append(review)
    return review


def only_disagreements(review: object) -> bool:
    """Whether ``review`` is marked by :func:`picks_disagreements`."""
    return any(review is marked for marked in _MARKED)
