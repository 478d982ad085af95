"""What the review page shows, taken from a report document and, when given, the
comparison with a baseline (what ``pytest-rubric diff --json`` prints).

Values pass through as the report holds them, but for those the page shows as JSON or
lists key by key (differing values, evidence, a row's other fields): these are made
text here, their keys in the report's order, since a script's object puts integer-like
keys first (groups "50", "49", "late" would read 49, 50, late).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from pytest_rubric.core.compare import MISSING, differences
from pytest_rubric.core.escapes import escape_surrogates
from pytest_rubric.core.labelblocks import MATRIX_CELLS
from pytest_rubric.reports.pagecompare import BaselineChanges
from pytest_rubric.reports.pagegroups import ledger_groups
from pytest_rubric.reports.records import ledger_of
from pytest_rubric.reports.sealing import SealedRecord, unsealed

#: Rows shown per page of a ledger's table: a ledger of any length opens at once.
PAGE_ROWS = 200

_PAGE_OUTCOMES = ("mismatched", "case-error", "xpassed")
#: The matrix's cells as the page draws them: a row for each of a's labels (true, then
#: false), a column for each of b's. The page's script names no cell itself.
MATRIX_GRID = [[MATRIX_CELLS[a, b] for b in (True, False)] for a in (True, False)]


def page_data(
    report: Mapping[str, Any], comparison: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """What the page shows, taken from a report document, and what changed since the
    baseline ``comparison`` compares it with."""
    since = BaselineChanges(comparison) if comparison is not None else None
    ledgers: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    passed: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    datasets: dict[tuple[str, str], dict[str, Any]] = {}
    panels: dict[tuple[str, str], dict[str, Any]] = {}
    sections: dict[str, int] = {}
    for record in report.get("cases", ()):
        if not isinstance(record, Mapping):
            continue
        if "sealed" in record:  # a run's own record, not yet written
            record = unsealed(cast(SealedRecord, record))
        head = {
            "case": record.get("case", ""),
            "file": record.get("file", ""),
            "line": record.get("line", 0),
            "evaluator": record.get("evaluator", ""),
            "outcome": record.get("outcome", ""),
        }
        nodeid = record.get("nodeid")
        if since is not None and isinstance(nodeid, str):
            head.update(since.outcome_change(nodeid))
        declared = ledger_of(record)
        if declared is not None:
            answer, review = declared
            ledger = {
                **head,
                "inputFile": record.get("inputFile"),
                "matrix": answer.get("matrix"),
                "agreement": answer.get("agreement"),
                "total": answer.get("total"),
                "rows": _rows(review.get("rows")),
                "more": review.get("more", 0),
                "graders": grader_names(review.get("graders")),
                **ledger_groups(review),
            }
            if since is not None and isinstance(nodeid, str):
                ledger.update(since.ledger_change(nodeid))
                sections[nodeid] = len(ledgers)
            ledgers.append(ledger)
        of_panel = record.get("panel")
        if isinstance(of_panel, Mapping):
            _panel_pair(panels, head, of_panel, len(ledgers) - 1 if declared else None)
        outcome = head["outcome"]
        of = record.get("dataset")
        if isinstance(of, Mapping):  # a dataset's row: shown under its dataset
            _dataset_row(datasets, head, of, record)
            continue
        if outcome in _PAGE_OUTCOMES:
            problems.append({**head, **_problem(record)})
        elif outcome == "matched":
            passed.append(head)
        else:
            others.append({**head, "reason": record.get("reason", "")})
    data = {
        "pytestRubric": report.get("pytestRubric", ""),
        "exitStatus": report.get("exitStatus"),
        "summary": report.get("summary", {}),
        "pageRows": PAGE_ROWS,
        "cells": MATRIX_GRID,
        "ledgers": ledgers,
        "problems": problems,
        "passed": passed,
        "others": others,
        "datasets": [_failures_first(group) for group in datasets.values()],
        "panels": list(panels.values()),
    }
    if since is not None:
        data["comparison"] = since.overview(sections)
    return data


def _dataset_row(
    datasets: dict[tuple[str, str], dict[str, Any]],
    head: dict[str, Any],
    of: Mapping[str, Any],
    record: Mapping[str, Any],
) -> None:
    """Put a dataset's row under its dataset (made at its first row): counted by outcome,
    with what went wrong when it did not match."""
    name = str(of.get("case", ""))
    group = datasets.get((head["file"], name))
    if group is None:
        group = {key: value for key, value in head.items() if key != "since"}
        group.update({"case": name, "counts": {}, "rows": []})
        datasets[head["file"], name] = group
    outcome = head["outcome"]
    group["counts"][outcome] = group["counts"].get(outcome, 0) + 1
    row = {**head, "row": str(of.get("row", ""))}
    if outcome in _PAGE_OUTCOMES:
        row.update(_problem(record))
    elif outcome != "matched":
        row["reason"] = record.get("reason", "")
    group["rows"].append(row)


def _panel_pair(
    panels: dict[tuple[str, str], dict[str, Any]],
    head: dict[str, Any],
    of: Mapping[str, Any],
    ledger: int | None,
) -> None:
    """Put a panel's pair in its panel's grid (made at its first pair): its agreement over
    its total (or its error), and the ledger section it leads to (``None``: none, its
    answer is an error)."""
    name = str(of.get("case", ""))
    panel = panels.get((head["file"], name))
    if panel is None:
        graders = of.get("graders")
        panel = {
            "case": name,
            "file": head["file"],
            "number": len(panels),
            "graders": [str(grader) for grader in graders] if isinstance(graders, list) else [],
            "pairs": {},
        }
        panels[head["file"], name] = panel
    pair = str(of.get("pair", ""))
    panel["pairs"][pair] = {
        "pair": pair,
        "outcome": head["outcome"],
        "ledger": ledger,
        **{key: of[key] for key in ("agreement", "total", "error") if key in of},
    }


def _failures_first(group: dict[str, Any]) -> dict[str, Any]:
    """``group`` with its rows in order: mismatches and case errors, then the others,
    then the matched, each in the file's order."""
    rank = {outcome: 0 for outcome in _PAGE_OUTCOMES}
    group["rows"].sort(
        key=lambda row: rank.get(row["outcome"], 2 if row["outcome"] == "matched" else 1)
    )
    return group


def _problem(record: Mapping[str, Any]) -> dict[str, Any]:
    """A mismatch's or case error's differing keys (expected against actual), evidence
    and problems; a side that is missing is left out of its entry."""
    differing: list[dict[str, Any]] = []
    if "actual" in record:
        subset = record.get("expectedSubset") is True
        found = differences(record.get("expected"), record.get("actual"), subset=subset)
        for key, expected, actual in found:
            entry: dict[str, Any] = {"key": key}
            if expected is not MISSING:
                entry["expected"] = _json(expected)
            if actual is not MISSING:
                entry["actual"] = _json(actual)
            differing.append(entry)
    evidence = record.get("evidence")
    if isinstance(evidence, Mapping):
        evidence = {"facts": _pairs(evidence.get("facts")), "problem": evidence.get("problem")}
    return {
        "differing": differing,
        "evidence": evidence,
        "problems": record.get("problems", []),
        "reason": record.get("reason", ""),
    }


def grader_names(value: object) -> dict[str, str]:
    """The names a ledger's ``graders`` gives a and b, or ``a`` and ``b`` themselves."""
    names = value if isinstance(value, Mapping) else {}
    return {
        side: name if isinstance(name := names.get(side), str) and name else side
        for side in ("a", "b")
    }


def _rows(rows: object) -> list[Any]:
    """A ledger's review rows, each row's other fields as :func:`_pairs`."""
    if not isinstance(rows, list):
        return []
    return [
        {**row, "fields": _pairs(row.get("fields"))} if isinstance(row, Mapping) else row
        for row in rows
    ]


def _pairs(mapping: object) -> list[list[str]]:
    """A mapping as ``[key, text]`` pairs in its order: each value as the page shows it
    (text as it is, anything else as JSON); nothing for what is not a mapping."""
    if not isinstance(mapping, Mapping):
        return []
    return [
        [key, value if isinstance(value, str) else _json(value)] for key, value in mapping.items()
    ]


def _json(value: Any) -> str:
    """``value`` as compact JSON text, its keys in its own order (a lone surrogate as its
    escape, as a browser's ``JSON.stringify`` writes one)."""
    return escape_surrogates(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
