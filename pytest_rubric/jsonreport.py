"""``--rubric-report``: one JSON document with a record per case, written atomically.

The path is checked before any case runs (a folder, a device, a FIFO or a path
that cannot be made is a usage error); the write at the end never leaves a part
of a file or a temporary file behind, and a failed write is reported as one
line, keeping the previous report.
"""

from __future__ import annotations

import contextlib
import json
import json.encoder
import math
import os
import tempfile
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from pytest_rubric.errors import ReportWriteError
from pytest_rubric.jsonvalues import c_encoder
from pytest_rubric.options import os_reason
from pytest_rubric.outcome import OUTCOMES
from pytest_rubric.records import CaseRecord, ShardRecord, SuiteRecord, counts, in_file_order

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
    records: Iterable[CaseRecord],
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
    """Write ``data`` as JSON to ``path`` so that readers see the old file or the new
    one, never a part: a temporary file in the same folder, flushed, then renamed.
    A symlink at ``path`` is written through to its target.

    Raises :class:`ReportWriteError` with a one-line reason naming ``what`` was not
    written; nothing is left behind.
    """
    _write(path, what, lambda stream: _dump(data, stream))


def write_report(path: Path, data: dict[str, Any], *, what: str = "the rubric report") -> None:
    """Write a report document (:func:`document`) as :func:`write_atomically` writes JSON,
    laid out one case record to a line: a file that line tools can take apart, written by
    ``json``'s C encoder (an ``indent`` would take its pure-Python one, about six times
    slower at 10,000 cases)."""
    _write(path, what, lambda stream: _dump_report(data, stream))


def write_text_atomically(path: Path, text: str, *, what: str) -> None:
    """Write ``text`` to ``path`` as :func:`write_atomically` writes JSON."""
    _write(path, what, lambda stream: stream.write(text))


def _dump(data: dict[str, Any], stream: TextIO) -> None:
    json.dump(data, stream, ensure_ascii=False, indent=1)
    stream.write("\n")


def _dump_report(data: dict[str, Any], stream: TextIO) -> None:
    # json's C encoder (json.dump would take the pure-Python one), as JSONEncoder.encode
    # writes with its default separators, made once for the thousands of records.
    encode = c_encoder(separators=(", ", ": "))
    head = {key: value for key, value in data.items() if key != "cases"}
    text = encode(head)
    cases = data.get("cases", [])
    if not cases:
        stream.write(f'{text[:-1]}, "cases": []}}\n' if head else '{"cases": []}\n')
        return
    stream.write(f'{text[:-1]}, "cases": [\n' if head else '{"cases": [\n')
    for start in range(0, len(cases), _RECORDS_A_WRITE):
        if start:
            stream.write(",\n")
        part = cases[start : start + _RECORDS_A_WRITE]
        stream.write(",\n".join([record_text(record, encode) for record in part]))
    stream.write("\n]}\n")


#: Records joined into one write: fewer calls, and a bounded string however many cases.
_RECORDS_A_WRITE = 500


#: The keys of a full record of a case that ran and passed its report as made, in order.
_USUAL_KEYS = (
    "nodeid",
    "case",
    "file",
    "line",
    "index",
    "evaluator",
    "outcome",
    "differingKeys",
    "problems",
    "packed",
    "duration",
)


def record_text(record: CaseRecord, encode: Callable[[object], str]) -> str:
    """``record`` as a report holds it, written as ``encode`` (separators ``", "`` and
    ``": "``) writes it, with its packed larger keys (JSON text already) as they are.

    Most records have the usual keys: those are written by one format, each text by
    ``json``'s ``encode_basestring`` (what the encoder writes text with), rather than
    by the encoder, which costs more per key than the format does for the whole."""
    packed = record.get("packed")
    if packed is None:
        return encode(record)
    if tuple(record) == _USUAL_KEYS:
        head = _usual_head(record, encode)
        if head is not None:
            return head + packed[1:]
    text = encode({key: value for key, value in record.items() if key != "packed"})
    return f"{text[:-1]}, {packed[1:]}"


def _usual_head(record: CaseRecord, encode: Callable[[object], str]) -> str | None:
    """A usual record's keys but ``packed``, or ``None`` unless each is of the type the
    format writes as the encoder would (no ``bool`` for an ``int``, no NaN)."""
    line, index, duration = record["line"], record["index"], record.get("duration")
    if type(line) is not int or type(index) is not int or type(duration) is not float:
        return None
    if not math.isfinite(duration):
        return None
    text = _TEXT
    differing, problems = record["differingKeys"], record["problems"]
    try:  # as ``encode`` writes them (separators ", " and ": "), up to the packed keys
        return (
            f'{{"nodeid": {text(record["nodeid"])}, "case": {text(record["case"])}, '
            f'"file": {text(record["file"])}, "line": {line}, "index": {index}, '
            f'"evaluator": {text(record["evaluator"])}, "outcome": {text(record["outcome"])}, '
            f'"differingKeys": {encode(differing) if differing else "[]"}, '
            f'"problems": {encode(problems) if problems else "[]"}, '
            f'"duration": {float.__repr__(duration)}, '
        )
    except TypeError:  # a text that is not text
        return None


#: Text as JSON writes it (``ensure_ascii=False``): ``json``'s C function where it has it.
_TEXT: Callable[[str], str] = json.encoder.encode_basestring


def _write(path: Path, what: str, fill: Callable[[TextIO], object]) -> None:
    target = Path(os.path.realpath(path))
    temporary: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            prefix=".rubric-report-", suffix=".tmp", dir=target.parent
        )
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            fill(stream)
            stream.flush()
            os.fsync(stream.fileno())
        if os.path.exists(target) and not os.path.isfile(target):
            raise ReportWriteError(
                f"{what} was not written to {path}: it is no longer a regular file"
            )
        os.replace(temporary, target)
        temporary = None
    except (OSError, ValueError, TypeError, OverflowError) as exc:
        raise ReportWriteError(f"{what} was not written to {path}: {os_reason(exc)}") from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
