"""Where a case file's parts are written, as the loader found them, and where a block's
problems go: what every block reader is handed.

The loader keys its positions by ``id()`` of each mapping and list of the document
(``Spans.keys``, ``Spans.items``), so the document must stay alive while they are read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import nearest

#: A line and a column, both from 1.
Position = tuple[int, int]
#: ``refuse(position, message)``: report a problem of the block.
Report = Callable[[Position, str], None]
#: For each mapping, each key's position and its value's.
KeyPositions = Mapping[int, Mapping[str, tuple[Position, Position]]]
#: For each list, each item's position.
ItemPositions = Mapping[int, Sequence[Position]]


class Places:
    """Where a mapping's keys and their values are written; a key the mapping lacks is
    placed where the mapping starts (``at``)."""

    __slots__ = ("_places", "at")

    def __init__(self, block: object, at: Position, keys: KeyPositions) -> None:
        self._places = keys.get(id(block), {})
        self.at = at

    def key(self, name: str) -> Position:
        """Where the key ``name`` is written."""
        return self._places.get(name, (self.at, self.at))[0]

    def value(self, name: str) -> Position:
        """Where the value of the key ``name`` is written."""
        return self._places.get(name, (self.at, self.at))[1]


@dataclass(frozen=True, slots=True)
class Written:
    """A case file as the loader read it: where each mapping's keys and each list's items
    are written, and where the problems of the block being read go."""

    keys: KeyPositions
    items: ItemPositions
    refuse: Report

    def places(self, block: object, at: Position) -> Places:
        """Where the mapping ``block`` (starting at ``at``) writes its keys and values."""
        return Places(block, at, self.keys)

    def item(self, value: object, index: int, at: Position) -> Position:
        """Where item ``index`` of the list ``value`` (starting at ``at``) is written."""
        positions = self.items.get(id(value), ())
        return positions[index] if index < len(positions) else at

    def refusing(self, refuse: Report) -> Written:
        """The same positions, problems going to ``refuse``."""
        return Written(self.keys, self.items, refuse)


@dataclass(frozen=True, slots=True)
class Block:
    """A mapping of the case file being read: its value, where its keys and values are,
    and the file's positions (with where its problems go)."""

    value: dict[str, JSON]
    places: Places
    written: Written

    @classmethod
    def of(cls, value: dict[str, JSON], at: Position, written: Written) -> Block:
        """The mapping ``value`` written at ``at``."""
        return cls(value, written.places(value, at), written)

    def refuse(self, where: Position, message: str) -> None:
        """Report a problem of the block at ``where``."""
        self.written.refuse(where, message)

    def refuse_unknown(self, known: Sequence[str], what: str) -> None:
        """Refuse each key not among ``known`` (``what`` names such a key in the message:
        ``a ledger key``), at its place, with the nearest known key or the list."""
        for key in self.value:
            if key not in known:
                close = nearest(key, known)
                hint = f"did you mean '{close}'?" if close else f"use one of: {', '.join(known)}"
                self.refuse(self.places.key(key), f"'{escape_controls(key)}' is not {what}; {hint}")
