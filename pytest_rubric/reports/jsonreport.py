"""``--rubric-report``: one JSON document with a record per case, written atomically.

The path is checked before any case runs (a folder, a device, a FIFO or a path
that cannot be made is a usage error); the write at the end never leaves a part
of a file or a temporary file behind, and a failed write is reported as one
line, keeping the previous report.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from pytest_rubric.core.files import write_with
from pytest_rubric.reports.counts import counts, in_file_order
from pytest_rubric.reports.records import ShardRecord, SuiteRecord
from pytest_rubric.reports.sealing import KeptRecord, encode_record, record_text
from pytest_rubric.running.outcome import OUTCOMES

FORMAT = "pytest-rubric-report"
VERSION = 4
SCHEMA_FILE = "report.schema.json"
#: The report's count names, by outcome.
COUNT_NAMES = {
    "matched": "matched",
    "mismatched": "mismatched",
    "case-error": "caseErrors",
    "skipped": "skipped",
    "xfailed": "xfailed",
    "xpassed": "xpassed",
}


def schema() -> dict[str, Any]:
    """The JSON Schema of the report, as shipped in the package."""
    text = resources.files("pytest_rubric").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def document(
    records: Iterable[KeptRecord],
    exit_status: int,
    version: str,
    *,
    suite: SuiteRecord | None,
    shard: ShardRecord | None,
) -> dict[str, Any]:
    """The report: records in file order, so every run order gives one document, and a
    summary counted from them (a merge of shard reports recounts it the same way).
    ``suite`` is ``None`` when the run stopped before collection finished."""
    cases = in_file_order(records)
    per_evaluator = {
        name: {"cases": row["cases"], **{COUNT_NAMES[key]: row[key] for key in OUTCOMES}}
        for name, row in counts(cases).items()
    }
    names = ("cases", *COUNT_NAMES.values())
    totals = {key: sum(row[key] for row in per_evaluator.values()) for key in names}
    return {
        "format": FORMAT,
        "version": VERSION,
        "pytestRubric": version,
        "exitStatus": exit_status,
        "summary": {**totals, "evaluators": per_evaluator},
        "suite": suite,
        "shard": shard,
        "cases": cases,
    }


def write_atomically(path: Path, data: dict[str, Any], *, what: str = "the rubric report") -> None:
    """Write ``data`` as indented JSON to ``path``, whole or not at all (see
    :func:`~pytest_rubric.core.files.write_with`)."""
    write_with(path, what, lambda stream: _dump(data, stream))


def write_report(path: Path, data: dict[str, Any], *, what: str = "the rubric report") -> None:
    """Write a report document (:func:`document`) as :func:`write_atomically` writes JSON,
    laid out one case record to a line, so that line tools can take the file apart."""
    write_with(path, what, lambda stream: _dump_report(data, stream))


def _dump(data: dict[str, Any], stream: TextIO) -> None:
    json.dump(data, stream, ensure_ascii=False, indent=1)
    stream.write("\n")


#: Records joined into one write: fewer calls, and a bounded string however many cases.
_RECORDS_A_WRITE = 500


def _dump_report(data: dict[str, Any], stream: TextIO) -> None:
    """The document as one JSON object whose ``cases`` list holds a record a line: the
    other keys first, as the encoder writes them, then each record encoded alone."""
    head = encode_record({key: value for key, value in data.items() if key != "cases"})
    cases = data.get("cases", [])
    opening = f"{head[:-1]}, " if len(head) > 2 else "{"
    if not cases:
        stream.write(f'{opening}"cases": []}}\n')
        return
    stream.write(f'{opening}"cases": [\n')
    for start in range(0, len(cases), _RECORDS_A_WRITE):
        if start:
            stream.write(",\n")
        part = cases[start : start + _RECORDS_A_WRITE]
        stream.write(",\n".join([record_text(record) for record in part]))
    stream.write("\n]}\n")
