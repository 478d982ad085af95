"""A Markdown document fitted to a size: blocks that are always written whole (the verdict,
the counts), and lists cut with "and N more" where the size runs out.

Parts are written in the order given, which puts failures first: once a list is cut,
the lists after it show their heading and "and N more" only, so nothing later takes
room from something earlier. Room for every whole block, heading and "and N more"
line is kept before any entry is written, so the document holds the size whatever the
entries are; an entry is written whole or not at all (a block of its own, or a
part of a line its list closes), so the document is valid Markdown wherever it is cut.
Entries are made one at a time and only while there is room: a list of a million
entries costs what the entries shown cost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeAlias

#: An entry: given the room left, its text (at most that long), or ``None`` when even
#: its shortest form does not fit. An entry that holds a list of its own (a ledger's
#: disagreement IDs) fits that list to the room it is given.
Entry: TypeAlias = Callable[[int], "str | None"]


@dataclass(frozen=True, slots=True)
class Listing:
    """A list of ``total`` entries under ``heading``; ``more(n)`` closes it when ``n``
    of them are left out. A listing of no entries is not written at all."""

    heading: str
    total: int
    entries: Iterable[Entry]
    more: Callable[[int], str]

    def reserve(self) -> int:
        return len(self.heading) + len(self.more(self.total)) if self.total else 0


#: A part of a document: a block always written whole, or a listing.
Part: TypeAlias = "str | Listing"


def fixed(text: str) -> Entry:
    """An entry whose text is ``text``, whole or not at all."""
    return lambda room: text if len(text) <= room else None


def fit(parts: Sequence[Part], limit: int) -> str:
    """``parts`` as one document of at most ``limit`` characters, lists cut to fit (only
    whole blocks beyond the limit can make it longer)."""
    reserved = sum(len(part) if isinstance(part, str) else part.reserve() for part in parts)
    written: list[str] = []
    used = 0
    cut = False
    for part in parts:
        if isinstance(part, str):
            written.append(part)
            used += len(part)
            reserved -= len(part)
            continue
        if not part.total:
            continue
        reserved -= part.reserve()
        more = part.more(part.total)
        written.append(part.heading)
        used += len(part.heading)
        shown = 0
        if not cut:
            entries: Iterator[Entry] = iter(part.entries)
            for entry in entries:
                room = limit - used - reserved - (len(more) if shown + 1 < part.total else 0)
                text = entry(room)
                if text is None:
                    cut = True
                    break
                written.append(text)
                used += len(text)
                shown += 1
        if shown < part.total:
            closing = part.more(part.total - shown)
            written.append(closing)
            used += len(closing)
    return "".join(written)


def more_items(noun: str = "more") -> Callable[[int], str]:
    """A list's closing item: ``- and 3 more``."""
    return lambda left: f"- and {left:,} {noun}\n"


def more_rows(noun: str = "more") -> Callable[[int], str]:
    """A table's closing paragraph (after a blank line, which ends the table)."""
    return lambda left: f"\nand {left:,} {noun}\n"


def inline_list(shown: Iterable[str], total: int, room: int, *, closing: str = "") -> str | None:
    """Up to ``total`` pieces of ``shown`` joined by ``, ``, with ``and N more`` when not all
    fit, then ``closing``; ``None`` when not even ``and N more`` fits in ``room``."""
    pieces: list[str] = []
    used = len(closing)
    for piece in shown:
        left = total - len(pieces) - 1
        tail = len(f", and {left:,} more") if left else 0
        if used + len(piece) + 2 + tail > room:
            break
        pieces.append(piece)
        used += len(piece) + 2
    left = total - len(pieces)
    if left:
        pieces.append(f"and {left:,} more")
    text = ", ".join(pieces) + closing
    return text if len(text) <= room else None
