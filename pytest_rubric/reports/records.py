"""Case records: what a run keeps of each case, typed as the shipped report schema says.

A record is plain JSON (every value made safe by :func:`~pytest_rubric.core.jsonvalues.plain`)
because it travels on pytest's test report, to a pytest-xdist controller too,
and ends in ``--rubric-report``. :class:`CaseRecord` mirrors the schema's
``case`` definition, so mypy checks every field a feature adds.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Literal, TypedDict, cast

from pytest_rubric.core.jsonvalues import JSON, escape_controls, is_encodable, plain
from pytest_rubric.core.packed import plain_copy
from pytest_rubric.running.outcome import CASE_ERROR, OUTCOMES, CaseOutcome, Outcome, ReviewRecord


class EvidenceRecord(TypedDict):
    facts: dict[str, JSON]
    problem: str | None


class _RecordKeys(TypedDict):
    nodeid: str
    case: str
    file: str
    line: int
    index: int
    evaluator: str
    outcome: Outcome


class CaseRecord(_RecordKeys, total=False):
    """One case's record. The keys after ``outcome`` are written only when a
    report is asked for (``full``), and ``duration`` by the run that gathers it."""

    input: JSON
    inputFile: str
    expected: JSON
    actual: JSON
    differingKeys: list[str]
    evidence: EvidenceRecord | None
    problems: list[str]
    reason: str
    duration: float
    update: UpdateRecord
    review: ReviewRecord
    #: Never written as such: the whole record as the report writes it, kept by the run
    #: that gathers the records from when a case ends until the report is written, beside
    #: its head (see :func:`sealed`); :func:`unsealed` gives the record whole.
    sealed: str


class UpdateRecord(TypedDict):
    """An ``expected`` written by ``--rubric-update``: ``before`` is ``None`` when the
    case had none."""

    before: JSON
    after: JSON


class PendingWrite(TypedDict):
    """What a case asks the run to write into its case file at the end (from a
    pytest-xdist worker too): the file's absolute path and the SHA-256 of the bytes
    collected, the case's place and ID, and its new ``expected``."""

    path: str
    digest: str
    index: int
    name: str
    after: JSON
    created: bool
    #: The case's lines as edited and read back where it ran, when they could be read
    #: alone (see :func:`pytest_rubric.editing.edits.check`): spliced in at the end.
    part: PartRecord | None


class PartRecord(TypedDict):
    """A case's edited text: from line ``first`` up to line ``after`` (0: the end); in a
    flow list, from column ``col`` of line ``first`` up to ``end`` (a line and column)."""

    first: int
    after: int
    text: str
    col: int
    end: list[int] | None


class SummaryLine(TypedDict):
    """An evaluator's line about one answer, for the rubric summary."""

    title: str
    line: str


class _PayloadKeys(TypedDict):
    record: CaseRecord
    summary: SummaryLine | None


class Payload(_PayloadKeys, total=False):
    """What a case's test report carries: its record and its summary line, if any, and
    the ``expected`` it asks ``--rubric-update`` to write (or that it could not)."""

    write: PendingWrite
    #: Its answer was to be written but could not be: the case is a case error saying why.
    unwritten: bool
    #: Its answer, a refusal, was held back from being written.
    held: HeldRecord


class HeldRecord(TypedDict):
    """A case whose answer ``--rubric-update`` held back: its ID, where it is
    (``path:line``), and the refusal's code and problem."""

    case: str
    at: str
    words: str


class SuiteRecord(TypedDict):
    """The rubric cases a run collected before any deselection (``-k``, ``--deselect``,
    a shard plugin), so that shard reports can be checked for completeness."""

    collected: int
    digest: str
    nodeids: list[str]
    selected: int


class ShardRecord(TypedDict):
    """Which shard a run was, as pytest-split or pytest-shard says (``group`` 1-based)."""

    plugin: Literal["pytest-split", "pytest-shard"]
    group: int
    splits: int


def suite_digest(nodeids: Iterable[str]) -> str:
    """``sha256:<hex>`` of the sorted node IDs: equal exactly when the suites are."""
    text = json.dumps(sorted(nodeids), ensure_ascii=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def suite_record(collected: Iterable[str], selected: int) -> SuiteRecord:
    """The suite of a run that collected the node IDs ``collected`` and kept ``selected``
    of them; the IDs are made plain as case records make theirs, so the two compare."""
    nodeids = sorted({_text(nodeid) or "" for nodeid in collected})
    return {
        "collected": len(nodeids),
        "digest": suite_digest(nodeids),
        "nodeids": nodeids,
        "selected": selected,
    }


def record_of(
    outcome: CaseOutcome, *, nodeid: str, file: str, input_file: str, full: bool
) -> CaseRecord:
    """The record of a case that ran; ``file`` and ``input_file`` are relative to rootdir."""
    case = outcome.case
    record = base_record(
        nodeid=nodeid,
        case=case.name,
        file=file,
        line=case.line,
        index=case.index,
        evaluator=outcome.evaluator,
        outcome=outcome.outcome,
    )
    if full:
        if input_file:
            record["inputFile"] = input_file
        elif case.problems:  # a case its file's problems kept from running
            record["input"] = {}
        else:
            record["input"] = plain_copy(case.packed_input)
        clean = outcome.clean  # then plain() would give each value back as it is
        if outcome.evaluated:
            record["actual"] = outcome.actual if clean else plain(outcome.actual)
        # An answer written exactly as its expected answer is that value: not read again.
        same = outcome.as_written and clean and outcome.evaluated
        record["expected"] = record["actual"] if same else plain_copy(case.packed_expected)
        keys, problems = outcome.differing_keys(), outcome.problems
        record["differingKeys"] = [escape_controls(key) for key in keys] if keys else []
        evidence = outcome.evidence
        record["evidence"] = (
            None
            if evidence is None
            else {
                "facts": evidence.facts if clean else _facts(evidence.facts),
                "problem": _text(evidence.problem),
            }
        )
        record["problems"] = [_text(problem) or "" for problem in problems] if problems else []
        if outcome.review is not None:
            record["review"] = outcome.review
    return record


def _facts(facts: object) -> dict[str, JSON]:
    shown = plain(facts) if type(facts) is dict else {}
    return shown if isinstance(shown, dict) else {}


#: A record's JSON text as the report writes it: json's encoder, its default separators.
encode_record: Callable[[object], str] = json.JSONEncoder(ensure_ascii=False).encode
#: The keys every record keeps beside its text once sealed: what the summary, the counts
#: and the report's order read.
_HEAD = ("nodeid", "case", "file", "line", "index", "evaluator", "outcome")


def sealed(record: CaseRecord) -> CaseRecord:
    """``record`` as the run keeps it until the report is written: its head, and the whole
    record as the text the report writes (:attr:`CaseRecord.sealed`). The text is a
    snapshot nothing the evaluator does later can change, and the values it holds cost
    the garbage collector nothing from then on. A sealed record is given back as it is."""
    if "sealed" in record:
        return record
    head = cast(CaseRecord, {key: record[key] for key in _HEAD})  # type: ignore[literal-required]
    head["sealed"] = encode_record(record)
    return head


def unsealed(record: CaseRecord) -> CaseRecord:
    """The whole ``record``, its text read back where it is sealed."""
    text = record.get("sealed")
    if text is None:
        return record
    whole: CaseRecord = json.loads(text)
    return whole


def without(record: CaseRecord, key: str) -> CaseRecord:
    """``record`` without ``key``, sealed again if it was."""
    if key not in (unsealed(record) if "sealed" in record else record):
        return record
    whole = unsealed(record).copy()
    whole.pop(key, None)  # type: ignore[misc]
    return sealed(whole) if "sealed" in record else whole


def base_record(
    *,
    nodeid: str,
    case: str,
    file: str,
    line: int,
    index: int,
    evaluator: str,
    outcome: Outcome,
) -> CaseRecord:
    return {
        "nodeid": _text(nodeid) or "",
        "case": _text(case) or "",
        "file": _text(file) or "",
        "line": line,
        "index": index,
        "evaluator": _text(evaluator) or "",
        "outcome": outcome,
    }


def stopped(record: CaseRecord, outcome: Outcome, why: str) -> CaseRecord:
    """``record`` ended otherwise than by running: skipped, xfailed, or a case error
    because something outside the case (a fixture, a hook, a timeout) stopped it.
    A sealed record is sealed again."""
    if "sealed" in record:
        return sealed(stopped(unsealed(record), outcome, why))
    record = record.copy()
    record["outcome"] = outcome
    if outcome in (CASE_ERROR, "skipped"):  # an xfailed or xpassed case ran: keep its answer
        record.pop("actual", None)
    if outcome == CASE_ERROR:
        record["problems"] = [*record.get("problems", ()), _text(why) or ""]
    else:
        record["reason"] = _text(why) or ""
    return record


def _text(value: str | None) -> str | None:
    if type(value) is str and is_encodable(value):  # the usual text: kept as it is
        return value
    if value is None:
        return None
    shown = plain(value)
    return shown if isinstance(shown, str) else str(shown)


def counts(records: Iterable[CaseRecord]) -> dict[str, dict[Outcome | str, int]]:
    """Cases and each outcome's count per evaluator, by name."""
    table: dict[str, dict[Outcome | str, int]] = {}
    for record in records:
        row = table.get(record["evaluator"])
        if row is None:
            row = table[record["evaluator"]] = {"cases": 0, **dict.fromkeys(OUTCOMES, 0)}
        row["cases"] += 1
        row[record["outcome"]] += 1
    return dict(sorted(table.items()))


def in_file_order(records: Iterable[CaseRecord]) -> list[CaseRecord]:
    """Records sorted by file, then as the file lists its cases: one order for every run."""
    return sorted(records, key=itemgetter("file", "index", "nodeid"))
