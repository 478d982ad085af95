"""What a format is (:class:`Format`), and what it reads (:class:`InputFile`).

A format knows its suffix, what it holds, how its bytes are opened, what a description is
told of it (:class:`~pytest_rubric.descriptions.traits.FileTraits`), how to read a file's rows
(moving a :class:`~pytest_rubric.inputs.cursor.Cursor`), its label blocks where it has a fast
path, and how a row's place is worded. Nothing else in the inputs room looks at a suffix.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.dataset import Dataset
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.selection import EVERY_ROW, Selection
from pytest_rubric.descriptions.traits import FileTraits

if TYPE_CHECKING:
    from pytest_rubric.inputs.cursor import Cursor
    from pytest_rubric.inputs.findings import Findings
    from pytest_rubric.inputs.heldsides import HeldSides
    from pytest_rubric.inputs.panelheld import PanelRead
    from pytest_rubric.inputs.textfiles import Opener


class Format(Protocol):
    """One input format."""

    @property
    def suffix(self) -> str:
        """The suffix a name written in ``input_file:`` ends in (``.csv.gz``)."""

    @property
    def holds(self) -> str:
        """What it holds, as the accepted-formats message says: ``the whole input`` (read
        whole without a ``ledger:`` block) or ``ledger rows``."""

    @property
    def opener(self) -> Opener:
        """How its bytes are opened: as they are, or inflated (:func:`.gzipped.gzipped`)."""

    @property
    def traits(self) -> FileTraits:
        """What a description is told of it."""

    def rows(self, file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
        """``file``'s rows as written, ``cursor`` moved to each row's place as it is read;
        ``case_file`` names the case file in messages about its description."""

    def label_blocks(self, file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
        """``file``'s rows as label blocks, or ``None`` (and nothing after it) where a block
        holds anything the rows path must word; ``findings`` take what the blocks found."""

    def lone_judgements(self, file: InputFile) -> frozenset[str] | None:
        """The IDs a one-row-per-judgement export judges once, where a quick look can tell
        (else ``None``)."""

    def place(self, file: InputFile, number: int | str) -> str:
        """Row ``number``'s place after the file's name: ``:LINE``, ``#row N``,
        ``#records[N]``."""

    def row_label(self, number: int) -> str:
        """Row ``number`` as a dataset row's item names it: ``line N``, ``row N``,
        ``item N``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class InputFile:
    """An input file: ``input_file:`` as written (resolved anew when a cached case file is
    reused), the path it leads to, how messages name it, and how to read it: its
    :class:`Format`, by the name as written (not the name of what a symlink leads to;
    ``None`` for a name of no known format, which the loader refuses) and, for an export,
    its ``ledger:`` description. A join's is side a's file with the join's ledger, and
    ``sides``: each side's file, read by its side's ledger. A dataset's (``dataset:``)
    has its block as ``dataset``."""

    text: str
    path: Path
    display: str
    format: Format | None
    ledger: Ledger | None = None
    sides: tuple[InputFile, InputFile] | None = None
    dataset: Dataset | None = None
    #: A panel's pair: the panel's ledger, and the pair's graders by index (the panel's
    #: export is then read once for all its pairs: :mod:`~pytest_rubric.inputs.panelread`).
    pair_of: tuple[Ledger, int, int] | None = None
    #: The holder of its panel's export read once, shared by the panel's pairs.
    panel_read: PanelRead | None = None
    #: A join panel's pair: what the panel's side files hold, and the pair's sides by
    #: index (each side is then read once for all pairs: :mod:`~.paneljoins`).
    panel_sides: tuple[HeldSides, int, int] | None = None

    @property
    def description(self) -> Ledger | Dataset | None:
        """What says how its rows are read: its ``ledger:`` or ``dataset:`` block."""
        return self.ledger if self.ledger is not None else self.dataset

    @property
    def selection(self) -> Selection:
        """Which rows it gives (``records``, ``where``, ``ids``)."""
        described = self.description
        return EVERY_ROW if described is None else described.selection

    def place(self, number: int | str) -> str:
        """Row ``number``'s place, with the file's name: ``file:LINE``, ``file#row N``,
        ``file#records[N]``."""
        return f"{self.display}{self.reader.place(self, number)}"

    def reading_at(self, position: int) -> str:
        """Where a text file's reading is: the line ``position`` once there is one, else
        the file."""
        return self.place(position) if position else self.display

    @property
    def reader(self) -> Format:
        """Its format, once the loader has let it be read."""
        assert self.format is not None
        return self.format
