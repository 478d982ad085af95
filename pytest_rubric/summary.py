"""The terminal summary: counts per evaluator and every agreement ledger, briefly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pytest_rubric.outcome import CASE_ERROR, MATCHED, MISMATCHED

#: How many ledgers, and how many disagreement IDs per ledger, the summary shows.
MAX_LEDGERS = 10
MAX_IDS = 10
DEFAULT_REPORT = "rubric-report.json"


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"


def counts(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Cases, matched, mismatched and case errors per evaluator, by name."""
    table: dict[str, dict[str, int]] = {}
    for record in records:
        row = table.setdefault(
            record["evaluator"], {"cases": 0, MATCHED: 0, MISMATCHED: 0, CASE_ERROR: 0}
        )
        row["cases"] += 1
        row[record["outcome"]] += 1
    return dict(sorted(table.items()))


def is_ledger(answer: Any) -> bool:
    return isinstance(answer, dict) and {"matrix", "agreement", "total", "disagreements"} <= set(
        answer
    )


def summary_lines(records: Sequence[dict[str, Any]], report_path: str | None) -> list[str]:
    lines = []
    for name, row in counts(records).items():
        lines.append(
            f"{name}: {plural(row['cases'], 'case')}, {row[MATCHED]} matched, "
            f"{row[MISMATCHED]} mismatched, {plural(row[CASE_ERROR], 'case error')}"
        )
    ledgers = [record for record in records if is_ledger(record.get("actual"))]
    if ledgers:
        lines.append(f"agreement ledgers ({len(ledgers)}):")
        for record in ledgers[:MAX_LEDGERS]:
            lines.extend(_ledger_lines(record))
        if len(ledgers) > MAX_LEDGERS:
            lines.append(f"  and {plural(len(ledgers) - MAX_LEDGERS, 'more ledger')}")
    if report_path is not None:
        lines.append(f"full report: {report_path}")
    else:
        lines.append(f"write the full report with: pytest --rubric-report={DEFAULT_REPORT}")
    return lines


def _ledger_lines(record: dict[str, Any]) -> list[str]:
    answer = record["actual"]
    matrix = answer["matrix"]
    cells = ", ".join(f"{key} {value}" for key, value in matrix.items())
    ids = [str(case_id) for case_id in answer["disagreements"]]
    shown = ", ".join(ids[:MAX_IDS])
    if len(ids) > MAX_IDS:
        shown += f", and {len(ids) - MAX_IDS} more"
    mark = "" if record["outcome"] == MATCHED else f" [{record['outcome']}]"
    return [
        f"  {record['nodeid']}{mark}",
        f"    {cells}; agreement {answer['agreement']}/{answer['total']}; "
        f"disagreements: {shown or 'none'}",
    ]
