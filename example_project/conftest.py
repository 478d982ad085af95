"""This repository's own evaluator: is the LLM judge stable when the two options swap places?

Each pairwise comparison is judged twice, once with the options in their original order and once
swapped; `swapped` is the second verdict translated back to the original labels. A judge without
position bias gives the same verdict both times.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from typing import Any

import pytest

from pytest_rubric import Evaluator, Evidence, hookimpl

VERDICTS = ("A", "B", "tie")


def position_swap(ledger: Mapping[str, Any]) -> dict[str, Any]:
    rows = ledger.get("rows")
    if not isinstance(rows, list) or not all(
        isinstance(row, Mapping)
        and row.get("original") in VERDICTS
        and row.get("swapped") in VERDICTS
        for row in rows
    ):
        return {"error": "invalid-verdict"}
    flipped = [row["id"] for row in rows if row["original"] != row["swapped"]]
    return {"stable": len(rows) - len(flipped), "total": len(rows), "flipped": flipped}


def explain_position_swap(ledger: Mapping[str, Any]) -> Evidence:
    rows = ledger.get("rows")
    if not isinstance(rows, list):
        return Evidence(problem=f"rows must be a list, not {rows!r}")
    for index, row in enumerate(rows):
        for key in ("original", "swapped"):
            if not isinstance(row, Mapping) or row.get(key) not in VERDICTS:
                return Evidence(problem=f"rows[{index}].{key} must be one of {', '.join(VERDICTS)}")
    return Evidence(
        facts={"pairs": [f"{r['id']}: {r['original']} -> {r['swapped']}" for r in rows]}
    )


@hookimpl
def rubric_evaluators() -> list[Evaluator]:
    return [
        Evaluator(
            name="position-swap",
            description="Does a pairwise judge give the same verdict when the options swap places?",
            evaluate=position_swap,
            codes=("invalid-verdict",),
            explain=explain_position_swap,
        )
    ]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Parquet ledgers need the extra pytest-rubric[parquet] (pyarrow): without it, skip
    them here rather than fail (pytest-rubric itself fails them, naming the extra)."""
    if importlib.util.find_spec("pyarrow") is not None:
        return
    for item in items:
        if item.nodeid.endswith("::week-53-parquet"):
            item.add_marker(pytest.mark.skip(reason="pyarrow is not installed"))
