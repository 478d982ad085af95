"""A case's test report turned into its payload: the record and the summary line.

Runs where the case ran (a pytest-xdist worker too), inside pytest's report hook:
every function here returns a payload or ``None`` and never raises for anything
an evaluator, a plugin or pytest hands it.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from pytest_rubric.casefiles.suffixes import SUFFIXES as CASE_FILE_SUFFIXES
from pytest_rubric.core.jsonvalues import copied, escape_controls, plain
from pytest_rubric.core.packed import plain_copy
from pytest_rubric.editing.decisions import pending_write
from pytest_rubric.plugin.items import RubricItem
from pytest_rubric.plugin.paths import root_path
from pytest_rubric.reports.records import (
    CaseRecord,
    Payload,
    SummaryLine,
    base_record,
    record_of,
    stopped,
)
from pytest_rubric.running.outcome import CASE_ERROR, Outcome

#: A longer reason from another plugin (a timeout's stack dump, say) is cut.
MAX_WHY = 1000


def payload_of(item: RubricItem, report: pytest.TestReport, *, full: bool) -> Payload | None:
    """The payload a phase report of ``item`` carries, or ``None`` when this phase
    decides nothing (a passing setup, a passing teardown)."""
    when = report.when
    if when != "call" and report.passed:
        return None
    config = item.config
    result = item.result if when == "call" else None
    if result is not None:
        record = record_of(
            result,
            nodeid=item.nodeid,
            file=item.file,
            input_file=root_path(config, item.case.input_file.path) if item.case.input_file else "",
            full=full,
        )
    else:
        record = _case_error_record(item)
        if full:
            if item.case.input_file is not None:
                record["inputFile"] = root_path(config, item.case.input_file.path)
            else:
                record["input"] = plain_copy(item.case.packed_input)
            record["expected"] = plain_copy(item.case.packed_expected)
            record["differingKeys"] = []
            record["evidence"] = None
            record["problems"] = []
    pytest_outcome = _pytest_outcome(report)
    marks = item.case.marks
    if item.strict_xpass and when == "call" and marks.xfail is not None:
        # It fails the run, as pytest's own strict XPASS does: so it counts as a failure.
        record = stopped(
            record,
            CASE_ERROR,
            f"it matched its expected answer, but it is marked xfail ({marks.xfail.reason}), "
            "strictly",
        )
    elif pytest_outcome is not None:
        # A reason as written: the report is JSON, and escapes it itself.
        if pytest_outcome == "skipped" and marks.skip is not None:
            why = marks.skip
        elif pytest_outcome in ("xfailed", "xpassed") and marks.xfail is not None:
            why = marks.xfail.reason
        else:
            why = _why(report)
        record = stopped(record, pytest_outcome, why)
    elif result is None or (report.failed and result.outcome == "matched"):
        record = stopped(record, CASE_ERROR, f"{_phase(when)}: {_why(report)}")
    payload: Payload = {"record": record, "summary": _summary_line(item, result)}
    if item.unwritten and when == "call":
        payload["unwritten"] = True
    if item.held is not None and when == "call":
        payload["held"] = {
            "case": item.case.name,
            "at": f"{item.display}:{item.case.line}",
            "words": item.held.words(),
        }
    if item.update is not None and result is not None and record["outcome"] == "matched":
        # Written by the run that gathers the payloads, at its end (never by a worker).
        record["update"] = {"before": item.update["before"], "after": plain(item.update["after"])}
        payload["write"] = pending_write(
            path=item.path, digest=item.digest, case=item.case, update=item.update, part=item.part
        )
    return payload


def _case_error_record(item: RubricItem) -> CaseRecord:
    """The keys every record of ``item`` has, as a case error until told otherwise."""
    return base_record(
        nodeid=item.nodeid,
        case=item.case.name,
        file=item.file,
        line=item.case.line,
        index=item.case.index,
        evaluator=item.evaluator.name,
        outcome=CASE_ERROR,
    )


def _pytest_outcome(report: pytest.TestReport) -> Outcome | None:
    """The outcome pytest decided (a skip or an xfail mark), if it decided one."""
    if hasattr(report, "wasxfail"):
        return "xfailed" if report.skipped else "xpassed"
    if report.skipped:
        return "skipped"
    return None


def _phase(when: str) -> str:
    return {
        "setup": "stopped before it ran",
        "call": "stopped while it ran",
        "teardown": "its teardown failed",
    }[when]


def _why(report: pytest.TestReport) -> str:
    """One line saying why pytest or another plugin ended the case as it did, as it was
    written (a record holds it; the terminal shows it escaped)."""
    wasxfail = getattr(report, "wasxfail", None)
    if wasxfail:
        text = str(wasxfail)
    else:
        longrepr = report.longrepr
        crash = getattr(longrepr, "reprcrash", None)
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            text = str(longrepr[2])  # a skip: (path, line, reason)
        elif crash is not None:
            text = str(getattr(crash, "message", ""))
        else:
            text = str(longrepr or "")
        text = text.removeprefix("Skipped: ")
    text = text.strip().partition("\n")[0] or "no reason given"
    return text if len(text) <= MAX_WHY else f"{text[: MAX_WHY - 1]}…"


def _summary_line(item: RubricItem, result: Any) -> SummaryLine | None:
    summary = item.evaluator.summary
    if summary is None or result is None or not result.evaluated:
        return None
    try:
        line = summary.line(copied(result.actual))  # its own copy: the record keeps ours
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit too: a summary line never ends a run
        line = f"(its summary line failed: {type(exc).__name__})"
    if line is None:
        return None
    ledger = None if item.case.input_file is None else item.case.input_file.ledger
    if ledger is not None and ledger.graders is not None:
        line = f"{line} (a is {ledger.graders[0]}, b is {ledger.graders[1]})"
    return {"title": escape_controls(str(summary.title)), "line": escape_controls(str(line))}


def unrecorded(item: RubricItem, report: pytest.TestReport, exc: BaseException) -> Payload | None:
    """A case whose record could not be made: it fails, saying so."""
    why = f"its record could not be made: {type(exc).__name__}"
    with contextlib.suppress(Exception):
        why += f": {escape_controls(str(exc))[:200]}"
    if report.when == "call" or report.failed:
        report.outcome = "failed"
        report.longrepr = f"{item.display}:{item.case.line}: {why}"
    record = _case_error_record(item)
    record["problems"] = [why]
    return {"record": record, "summary": None}


def lost(report: pytest.TestReport) -> Payload | None:
    """A record for a case whose own report never came: pytest-xdist reports a
    crashed worker's case as failed, without the payload its worker would have sent."""
    path, sep, case = report.nodeid.partition("::")
    if not (report.failed and sep and path.endswith(CASE_FILE_SUFFIXES)):
        return None
    location = getattr(report, "location", None)
    line = location[1] + 1 if location and isinstance(location[1], int) else 1
    record = base_record(
        nodeid=report.nodeid,
        case=case,
        file=path,
        line=line,
        index=0,
        evaluator="(unknown)",
        outcome=CASE_ERROR,
    )
    # What the case file said is not known here: the report's keys stay, empty.
    record["input"] = {}
    record["expected"] = {}
    record["differingKeys"] = []
    record["evidence"] = None
    return {
        "record": stopped(record, CASE_ERROR, f"its run was lost: {_why(report)}"),
        "summary": None,
    }
