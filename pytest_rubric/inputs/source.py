"""A case's ``input_file:``, as the loader resolved it: what the runner hands the inputs room;
for a join, both sides' files, each read by its side's ledger."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from pytest_rubric.descriptions.dataset import Dataset
from pytest_rubric.descriptions.join import Side
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.selection import EVERY_ROW, Selection


@dataclass(frozen=True, slots=True, kw_only=True)
class InputFile:
    """An input file: ``input_file:`` as written (resolved anew when a cached case file is
    reused), the path it leads to, how messages name it, and how to read it: its suffix
    as written (a key of :data:`~pytest_rubric.inputs.formats.INPUT_FORMATS`, not the
    suffix of what a symlink leads to) and, for an export, its ``ledger:`` description.
    A join's is side a's file with the join's ledger, and ``sides``: each side's file,
    read by its side's ledger. A dataset's (``dataset:``) has its block as ``dataset``."""

    text: str
    path: Path
    display: str
    format: str
    ledger: Ledger | None = None
    sides: tuple[InputFile, InputFile] | None = None
    dataset: Dataset | None = None

    @property
    def description(self) -> Ledger | Dataset | None:
        """What says how its rows are read: its ``ledger:`` or ``dataset:`` block."""
        return self.ledger if self.ledger is not None else self.dataset

    @property
    def selection(self) -> Selection:
        """Which rows it gives (``records``, ``where``, ``ids``)."""
        described = self.description
        return EVERY_ROW if described is None else described.selection


def side_ledger(side: Side, ledger: Ledger, name: str) -> Ledger:
    """One side read as a one-row-per-case ledger: its ID, and its label under both a
    and b (what a format's reader checks a header or schema against)."""
    return Ledger(
        id=side.id,
        a=side.label,
        b=side.label,
        labels=side.labels if side.labels is not None else ledger.labels,
        labels_at=side.labels_at if side.labels is not None else ledger.labels_at,
        selection=side.selection,
        side=name,
        group_by=ledger.group_by if name == "a" else None,
    )


def joined_sides(file: InputFile, sides: tuple[InputFile, InputFile]) -> InputFile:
    """``file`` (side a's, with the join's ledger) with its two sides' files, each read
    by its side's ledger."""
    ledger = file.ledger
    assert ledger is not None
    assert ledger.join is not None
    side_a, side_b = ledger.join
    return replace(
        file,
        sides=(
            replace(sides[0], ledger=side_ledger(side_a, ledger, "a")),
            replace(sides[1], ledger=side_ledger(side_b, ledger, "b")),
        ),
    )
