"""Case records: what a run keeps of each case, typed as the shipped report schema says.

A record is plain JSON (every value made safe by :func:`~pytest_rubric.jsonvalues.plain`)
because it travels on pytest's test report, to a pytest-xdist controller too,
and ends in ``--rubric-report``. :class:`CaseRecord` mirrors the schema's
``case`` definition, so mypy checks every field a feature adds.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from operator import itemgetter
from typing import Literal, TypedDict, cast

from pytest_rubric.jsonvalues import (
    JSON,
    compact,
    compact_finite,
    escape_controls,
    is_encodable,
    plain,
)
from pytest_rubric.loader import Packed, plain_copy
from pytest_rubric.outcome import CASE_ERROR, OUTCOMES, CaseOutcome, Outcome, ReviewRecord


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
    #: Never written as such: a full record of a case that ran keeps its larger keys
    #: (``input``, ``expected``, ``actual``, ``evidence``, ``review``) as the text of
    #: one compact JSON object, made as the record is made (the case's packed mappings
    #: go in as they are), and written into the report as that record's keys. Text
    #: costs the garbage collector nothing while the run holds it, and the report's
    #: writer nothing to encode again. :func:`expanded` gives the record whole.
    packed: str


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
    #: alone (see :func:`pytest_rubric.update.check`): spliced in at the end.
    part: PartRecord | None


class PartRecord(TypedDict):
    """A case's edited lines: from line ``first`` up to line ``after`` (0: the end)."""

    first: int
    after: int
    text: str


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
        keys, problems = outcome.differing_keys(), outcome.problems
        record["differingKeys"] = [escape_controls(key) for key in keys] if keys else []
        record["problems"] = [_text(problem) or "" for problem in problems] if problems else []
        record["packed"] = _packed(outcome, with_input=not input_file)
    return record


def _packed(outcome: CaseOutcome, *, with_input: bool) -> str:
    """The larger keys of ``outcome``'s full record, as :attr:`CaseRecord.packed` holds them."""
    case = outcome.case
    parts = []
    if with_input:  # empty for a case the file's problems kept from running
        parts.append(f'"input":{"{}" if case.problems else _packed_text(case.packed_input)}')
    parts.append(f'"expected":{_packed_text(case.packed_expected)}')
    evidence = outcome.evidence
    shown: dict[str, JSON] | None = None
    if evidence is not None:
        facts = evidence.facts if type(evidence.facts) is dict else {}
        shown = {"facts": facts, "problem": _text(evidence.problem)}
    if outcome.evaluated and outcome.actual_text is not None:  # encoded already
        parts.append(f'"actual":{outcome.actual_text}')
    # The answer (unless written already) and the evidence, encoded in one call: the
    # text between its braces.
    made: dict[str, JSON] = {}
    if outcome.evaluated and outcome.actual_text is None:
        made["actual"] = outcome.actual
    made["evidence"] = shown
    parts.append(_encode_checked(made)[1:-1])
    if outcome.review is not None:
        parts.append(f'"review":{outcome.review}')
    return f"{{{','.join(parts)}}}"


def _packed_text(packed: Packed) -> str:
    """A case's packed mapping as JSON text: its own text, which reads back plain already
    (see :func:`~pytest_rubric.loader.plain_copy`), or the mapping made plain."""
    return packed if type(packed) is str else _encode(plain_copy(packed))


#: Compact JSON text by ``json``'s C encoder; every value given to it is plain.
_encode = compact
#: The same, refusing NaN and infinities rather than writing what JSON cannot hold.
_encode_strict = compact_finite


def _encode_checked(value: JSON) -> str:
    """``_encode(plain(value))`` for a value the runner checked (JSON's own types, see
    :func:`~pytest_rubric.jsonvalues.is_plain`), without :func:`plain`'s walk over it
    where that walk would give ``value`` back: encoded at once, in C, and made plain
    first only where the encoder refuses it (an integer longer than ``str`` prints) or
    its text holds a lone surrogate, which UTF-8 cannot carry."""
    try:
        text = _encode_strict(value)
    except (ValueError, TypeError, RecursionError):
        return _encode(plain(value))
    return text if is_encodable(text) else _encode(plain(value))


def expanded(record: CaseRecord) -> CaseRecord:
    """``record`` with its packed keys (if any) in place: the record as a report has it."""
    packed = record.get("packed")
    if packed is None:
        return record
    whole = cast(CaseRecord, {key: value for key, value in record.items() if key != "packed"})
    whole.update(json.loads(packed))
    return whole


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
    because something outside the case (a fixture, a hook, a timeout) stopped it."""
    record = record.copy()
    record["outcome"] = outcome
    if outcome in (CASE_ERROR, "skipped"):  # an xfailed or xpassed case ran: keep its answer
        record.pop("actual", None)
        packed = record.get("packed")
        if packed is not None:
            larger = json.loads(packed)
            if "actual" in larger:
                del larger["actual"]
                record["packed"] = _encode(larger)
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
