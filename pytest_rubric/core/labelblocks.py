"""The seam of the fast ledger tally: ledger rows handed over as blocks of label pairs.

A ledger file of plain rows (one ID and two literal booleans a line) can be tallied a
block at a time by C code (``str.count``, ``str.split``, set operations) instead of a
row at a time in Python. Two sides meet here, and only here:

- a reader that can offer its rows so is a :class:`LabelBlockSource`
  (:class:`pytest_rubric.casefiles.ledgers.RowReader`);
- an evaluator that can take them declares it with ``Evaluator.tally_blocks``
  (the built-in ``agreement``: :func:`pytest_rubric.evaluators.agreement.tally_blocks`).

The runner joins the two for any evaluator that declares the capability. Either side
may give up at any block (``None``): the rows are then read one at a time, which
decides every input exactly as the plain path does, since the blocks path answers only
for ledgers it can prove plain (``tests/test_input_files.py`` holds the two paths to
the same answer, evidence or error).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple, Protocol


class LabelBlock(NamedTuple):
    """Consecutive ledger rows, each a text ID and two Boolean labels.

    ``ids`` holds every row's ID in row order; ``pairs`` how many rows are labelled
    (true, true), (false, false), (true, false) and (false, true); ``differing`` the IDs
    of the rows whose two labels differ, in row order. Nothing is checked of the IDs:
    they may be empty, blank or repeated, which the tally decides, unless ``checked``
    says the source proved them strictly increasing, none empty or starting with
    JavaScript whitespace (a Parquet file's IDs are checked in Arrow, and read as
    Python text only when iterated).
    """

    ids: Sequence[str]
    pairs: tuple[int, int, int, int]
    differing: list[str]
    checked: bool = False


class LabelBlockSource(Protocol):
    """Ledger rows that can also be read as :class:`LabelBlock` blocks."""

    def label_blocks(self) -> Iterator[LabelBlock | None]:
        """The rows a block at a time; ``None``, and nothing after it, where a block
        holds anything but plain rows."""
        ...
