"""Records counted and ordered: per evaluator and outcome, and in file order."""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter
from typing import TypeVar

from pytest_rubric.reports.records import RecordHead
from pytest_rubric.running.outcome import OUTCOMES, Outcome

_Record = TypeVar("_Record", bound=RecordHead)


def counts(records: Iterable[RecordHead]) -> dict[str, dict[Outcome | str, int]]:
    """Cases and each outcome's count per evaluator, by name."""
    table: dict[str, dict[Outcome | str, int]] = {}
    for record in records:
        row = table.get(record["evaluator"])
        if row is None:
            row = table[record["evaluator"]] = {"cases": 0, **dict.fromkeys(OUTCOMES, 0)}
        row["cases"] += 1
        row[record["outcome"]] += 1
    return dict(sorted(table.items()))


def in_file_order(records: Iterable[_Record]) -> list[_Record]:
    """Records sorted by file, then as the file lists its cases: one order for every run."""
    return sorted(records, key=itemgetter("file", "index", "nodeid"))
