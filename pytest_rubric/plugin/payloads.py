"""What a case's test report carries (its payload), and what pytest's report says of it.

A payload is plain JSON: it travels on the report to a pytest-xdist controller. The
record in it is built once (:mod:`pytest_rubric.reports.caserecords`); the functions here
read pytest's report, never the case's outcome, and never raise for anything an
evaluator, a plugin or pytest hands them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

import pytest

from pytest_rubric.casefiles.cases import Case, Place
from pytest_rubric.casefiles.suffixes import SUFFIXES as CASE_FILE_SUFFIXES
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON, copied
from pytest_rubric.reports.caserecords import (
    Ended,
    RecordOf,
    brief_record,
    full_record,
    input_set_apart,
)
from pytest_rubric.reports.records import UpdateRecord
from pytest_rubric.reports.sealing import KeptRecord
from pytest_rubric.reports.summary import SummaryLine
from pytest_rubric.running.caserun import CaseWrite, HeldRecord
from pytest_rubric.running.outcome import CASE_ERROR, CaseOutcome, Outcome

if TYPE_CHECKING:
    from pytest_rubric.casefiles.marks import Marks
    from pytest_rubric.core.evaluator import Evaluator

#: A longer reason from another plugin (a timeout's stack dump, say) is cut.
MAX_WHY = 1000


class _PayloadKeys(TypedDict):
    record: KeptRecord
    summary: SummaryLine | None


class Payload(_PayloadKeys, total=False):
    """What a case's test report carries: its record and its summary line, if any, and
    the answer it asks ``--rubric-update`` to write (or that it could not)."""

    write: CaseWrite
    #: Its answer was to be written but could not be: the case is a case error saying why.
    unwritten: bool
    #: Its answer, a refusal, was held back from being written.
    held: HeldRecord
    #: The case's ``input`` as its packed text, left out of a full record, which the
    #: record's sealing sets in as it is.
    input: str
    #: Its answer differs but is not written, and why (a dataset's row, an expected_subset).
    kept: str


def payload_of(
    of: RecordOf,
    outcome: CaseOutcome | None,
    *,
    full: bool,
    ended: Ended | None = None,
    update: UpdateRecord | None = None,
) -> Payload:
    """A payload holding the record of ``of`` (:func:`full_record` when a report or page
    reads the run's records, ``full``; :func:`brief_record` otherwise), with no summary
    line; a full record's ``input`` set apart travels beside it, as the case's packed text."""
    record = (full_record if full else brief_record)(of, outcome, ended, update)
    payload: Payload = {"record": record, "summary": None}
    packed = of.case.packed_input
    if full and type(packed) is str and input_set_apart(record):
        payload["input"] = packed
    return payload


def ended_by(
    report: pytest.TestReport, marks: Marks, *, ran: bool, matched: bool, strict_xpass: bool
) -> Ended | None:
    """How pytest, a mark or another plugin ended the case this phase ``report`` is of,
    if not the case's own outcome: ``ran`` when the case ran to an outcome (``matched``
    when it matched), ``strict_xpass`` when it matched under a strict ``xfail:``."""
    if strict_xpass and report.when == "call" and marks.xfail is not None:
        # It fails the run, as pytest's own strict XPASS does: so it counts as a failure.
        return (
            CASE_ERROR,
            f"it matched its expected answer, but it is marked xfail ({marks.xfail.reason}), "
            "strictly",
        )
    decided = _pytest_outcome(report)
    if decided is not None:
        # A reason as written: the report is JSON, and escapes it itself.
        if decided == "skipped" and marks.skip is not None:
            return decided, marks.skip
        if decided in ("xfailed", "xpassed") and marks.xfail is not None:
            return decided, marks.xfail.reason
        return decided, _why(report)
    if not ran or (report.failed and matched):
        return CASE_ERROR, f"{_phase(str(report.when))}: {_why(report)}"
    return None


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


def summary_line(
    evaluator: Evaluator, case: Case, answer: JSON, *, kept: bool = True
) -> SummaryLine | None:
    """The evaluator's line about ``answer``, the answer of ``case``, if it has one.
    ``kept``: whether anything reads ``answer`` after this (a full record, a failure's
    words, an answer to write); then the line is made from a copy of it."""
    summary = evaluator.summary
    if summary is None:
        return None
    try:
        line = summary.line(copied(answer) if kept else answer)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit too: a summary line never ends a run
        line = f"(its summary line failed: {type(exc).__name__})"
    if line is None:
        return None
    ledger = None if case.input_file is None else case.input_file.ledger
    if ledger is not None and ledger.graders is not None:
        line = f"{line} (a is {ledger.graders[0]}, b is {ledger.graders[1]})"
    return {"title": escape_controls(str(summary.title)), "line": escape_controls(str(line))}


def lost(report: pytest.TestReport, *, full: bool) -> Payload | None:
    """A payload for a case whose own report never came: pytest-xdist reports a crashed
    worker's case as failed, without the payload its worker would have sent."""
    path, sep, name = report.nodeid.partition("::")
    if not (report.failed and sep and path.endswith(CASE_FILE_SUFFIXES)):
        return None
    location = getattr(report, "location", None)
    line = location[1] + 1 if location and isinstance(location[1], int) else 1
    # What the case file said is not known here: a case of its name and line, its input
    # and expected answer empty, and its evaluator unknown.
    case = Case(name=name, index=0, place=Place(line=line, col=1))
    of = RecordOf(case, report.nodeid, path, "", "(unknown)")
    return payload_of(of, None, full=full, ended=(CASE_ERROR, f"its run was lost: {_why(report)}"))
