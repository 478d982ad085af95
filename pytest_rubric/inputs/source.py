"""A case's ``input_file:``, as the loader resolved it (:class:`InputFile`, whose home is
beside the formats it is read by): what the runner hands the inputs room; for a join,
both sides' files, each read by its side's ledger."""

from __future__ import annotations

from dataclasses import replace

from pytest_rubric.descriptions.join import Side
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.formats.base import InputFile

__all__ = ["InputFile", "joined_sides", "side_ledger"]


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
