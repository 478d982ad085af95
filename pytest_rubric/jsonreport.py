"""``--rubric-report``: one JSON document with a record per case, written atomically."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from pytest_rubric.summary import counts

FORMAT = "pytest-rubric-report"
VERSION = 1
SCHEMA_FILE = "report.schema.json"


def schema() -> dict[str, Any]:
    """The JSON Schema of the report, as shipped in the package."""
    text = resources.files("pytest_rubric").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def report_path(value: str) -> str:
    """``--rubric-report``'s ``type=``: a path that can be written, checked before any case runs."""
    path = Path(value)
    if not value.strip():
        raise argparse.ArgumentTypeError(
            "give a file name, e.g. --rubric-report=rubric-report.json"
        )
    if path.is_dir():
        raise argparse.ArgumentTypeError(
            f"{value} is a directory; give a file name, e.g. {path / 'rubric-report.json'}"
        )
    folder = path.absolute().parent
    while not folder.exists():  # missing folders are created, as --junitxml does
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(
            f"cannot write {value}: {folder} is not a writable folder; choose a path you can write"
        )
    return value


def document(
    records: Sequence[dict[str, Any]], durations: Sequence[float], exit_status: int, version: str
) -> dict[str, Any]:
    """The report: records sorted by file and line, so every run order gives one document."""
    cases = [
        {**record, "duration": round(duration, 6)}
        for record, duration in sorted(
            zip(records, durations, strict=True),
            key=lambda pair: (pair[0]["file"], pair[0]["line"]),
        )
    ]
    per_evaluator = {
        name: {
            "cases": row["cases"],
            "matched": row["matched"],
            "mismatched": row["mismatched"],
            "caseErrors": row["case-error"],
        }
        for name, row in counts(records).items()
    }
    totals = {
        key: sum(row[key] for row in per_evaluator.values())
        for key in ("cases", "matched", "mismatched", "caseErrors")
    }
    return {
        "format": FORMAT,
        "version": VERSION,
        "pytestRubric": version,
        "exitStatus": exit_status,
        "summary": {**totals, "evaluators": per_evaluator},
        "cases": cases,
    }


def write_atomically(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` so that readers see the old file or the new
    one, never a part: a temporary file in the same folder, flushed, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(data, stream, ensure_ascii=False, indent=1)
            stream.write("\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
