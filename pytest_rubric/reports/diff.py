"""Comparing two runs: what changed between two reports, case by case and ledger by ledger.

Pure: two reports in (read and checked by :func:`read_report`), one document out, the
one ``pytest-rubric diff --json`` prints and ``diff.schema.json`` describes.
:mod:`pytest_rubric.reports.difftext` says it in words.

Cases are matched by node ID (a dataset's row is a case of its own). A case is listed
when it is in one report only, when its outcome changed, or when its answer changed
under strict JSON equality while its outcome did not. A case that is a ledger's in both
reports (:func:`~pytest_rubric.reports.records.ledger_of`: its evaluator declared one) is
also compared as a ledger: its matrix and agreement before and after, and the
disagreement IDs that entered and left; a ledger whose answer changed while its outcome
did not is listed as a ledger only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TypedDict

from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.labelblocks import MATRIX_CELLS
from pytest_rubric.reports.merge import MergeRefused, parse
from pytest_rubric.reports.records import DatasetRecord, ledger_of

FORMAT = "pytest-rubric-diff"
VERSION = 1
#: Outcomes that fail a run: a case that has one now is listed first.
FAILING = ("mismatched", "case-error")

Change = Literal["only-old", "only-new", "outcome", "answer"]


class Side(TypedDict):
    """One of the two reports: its name as given, who wrote it, its size and suite."""

    report: str
    pytestRubric: str
    cases: int
    digest: str
    #: How many cases its run collected, and how many of them the other run did not.
    collected: int
    collectedOnly: int


class CaseChange(TypedDict, total=False):
    nodeid: str
    case: str
    file: str
    line: int
    change: Change
    before: str | None
    after: str | None
    dataset: DatasetRecord


class LedgerState(TypedDict):
    matrix: dict[str, int]
    agreement: int
    total: int


class Moved(TypedDict):
    """A disagreement ID that entered or left, and its row's ``file:line`` when the
    report kept that row to review (``None`` when its review was capped before it)."""

    id: str
    where: str | None


class LedgerChange(TypedDict):
    nodeid: str
    case: str
    file: str
    line: int
    before: LedgerState
    after: LedgerState
    entered: list[Moved]
    left: list[Moved]


class Counts(TypedDict):
    onlyOld: int
    onlyNew: int
    #: Cases both runs collected but only one selected (``-k``, a shard): not compared.
    notCompared: int
    #: Cases both reports hold, each compared: none, and the comparison vouches for nothing.
    compared: int
    outcomeChanged: int
    answerChanged: int
    ledgersChanged: int


class Comparison(TypedDict):
    format: str
    version: int
    old: Side
    new: Side
    sameSuite: bool
    changed: bool
    summary: Counts
    cases: list[CaseChange]
    ledgers: list[LedgerChange]


def read_report(name: str, content: bytes, version: str) -> Mapping[str, Any]:
    """``content`` read as a report to compare (of any pytest-rubric version that writes
    this report format), checked as :func:`~pytest_rubric.reports.merge.parse` checks
    one, and holding each node ID once; :class:`~pytest_rubric.reports.merge.MergeRefused`
    when it is not one."""
    data = parse(name, content, version, same_tool=False).data
    seen: set[str] = set()
    for number, case in enumerate(data["cases"]):
        if case["nodeid"] in seen:
            raise MergeRefused(
                f"{escape_controls(name)} is not a report pytest-rubric wrote: cases[{number}] "
                f"is {escape_controls(case['nodeid'])} again"
            )
        seen.add(case["nodeid"])
    return data


def compare(
    old: Mapping[str, Any], new: Mapping[str, Any], old_name: str, new_name: str
) -> Comparison:
    """What changed from report ``old`` to report ``new`` (both as
    :func:`read_report` accepts them), named ``old_name`` and
    ``new_name`` as the user gave them."""
    old_cases: Sequence[Mapping[str, Any]] = old["cases"]
    new_cases: Sequence[Mapping[str, Any]] = new["cases"]
    before = {case["nodeid"]: case for case in old_cases}
    # A case one run collected but did not select (-k, --deselect, a shard) was not run
    # there: not compared, never a change.
    collected_old = set(old["suite"]["nodeids"])
    collected_new = set(new["suite"]["nodeids"])
    not_compared = compared = 0
    now: set[str] = set()
    changes: list[CaseChange] = []
    ledgers: list[LedgerChange] = []
    for case in new_cases:
        nodeid = case["nodeid"]
        now.add(nodeid)
        earlier = before.get(nodeid)
        if earlier is None:
            if nodeid in collected_old:
                not_compared += 1
            else:
                changes.append(_change(case, "only-new", None, case["outcome"]))
            continue
        compared += 1
        outcome_changed = earlier["outcome"] != case["outcome"]
        same_answer = _same_answer(earlier, case)
        ledger = None if same_answer else _ledger_change(earlier, case)
        if ledger is not None:
            ledgers.append(ledger)
        if outcome_changed:
            changes.append(_change(case, "outcome", earlier["outcome"], case["outcome"]))
        elif not same_answer and ledger is None:
            changes.append(_change(case, "answer", earlier["outcome"], case["outcome"]))
    for case in old_cases:
        if case["nodeid"] in now:
            continue
        if case["nodeid"] in collected_new:
            not_compared += 1
        else:
            changes.append(_change(case, "only-old", case["outcome"], None))
    ordered = [change for change in changes if change["after"] in FAILING]
    ordered.extend(change for change in changes if change["after"] not in FAILING)
    kinds = [change["change"] for change in ordered]
    return {
        "format": FORMAT,
        "version": VERSION,
        "old": _side(old, old_name, collected_old - collected_new),
        "new": _side(new, new_name, collected_new - collected_old),
        "sameSuite": old["suite"]["digest"] == new["suite"]["digest"],
        "changed": bool(ordered or ledgers),
        "summary": {
            "onlyOld": kinds.count("only-old"),
            "onlyNew": kinds.count("only-new"),
            "outcomeChanged": kinds.count("outcome"),
            "answerChanged": kinds.count("answer"),
            "ledgersChanged": len(ledgers),
            "notCompared": not_compared,
            "compared": compared,
        },
        "cases": ordered,
        "ledgers": ledgers,
    }


def entered_and_left(old_ids: Sequence[str], new_ids: Sequence[str]) -> tuple[list[str], list[str]]:
    """The IDs of ``new_ids`` not in ``old_ids`` (in ``new_ids``' order), and those of
    ``old_ids`` not in ``new_ids`` (in ``old_ids``' order), each once."""
    return _missing_from(new_ids, set(old_ids)), _missing_from(old_ids, set(new_ids))


def _missing_from(ids: Iterable[str], other: set[str]) -> list[str]:
    kept: list[str] = []
    seen: set[str] = set()
    for one in ids:
        if one not in other and one not in seen:
            seen.add(one)
            kept.append(one)
    return kept


def _side(report: Mapping[str, Any], name: str, only_here: set[str]) -> Side:
    return {
        "report": name,
        "pytestRubric": str(report["pytestRubric"]),
        "cases": len(report["cases"]),
        "digest": report["suite"]["digest"],
        "collected": len(report["suite"]["nodeids"]),
        "collectedOnly": len(only_here),
    }


def _change(
    case: Mapping[str, Any], change: Change, before: str | None, after: str | None
) -> CaseChange:
    made: CaseChange = {
        "nodeid": case["nodeid"],
        "case": case["case"],
        "file": case["file"],
        "line": case["line"],
        "change": change,
        "before": before,
        "after": after,
    }
    dataset = case.get("dataset")
    if isinstance(dataset, dict):
        made["dataset"] = {"case": str(dataset.get("case")), "row": str(dataset.get("row"))}
    return made


def _same_answer(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """Whether both records have no answer, or equal answers as JSON."""
    if ("actual" in old) != ("actual" in new):
        return False
    return "actual" not in old or json_equal(old["actual"], new["actual"])


# -- ledgers ---------------------------------------------------------------------------


def _ledger_change(old: Mapping[str, Any], new: Mapping[str, Any]) -> LedgerChange | None:
    """How the ledger answer of a case changed, or ``None`` when either record is not a
    ledger's (called only when the answers differ)."""
    old_ledger, new_ledger = ledger_of(old), ledger_of(new)
    if old_ledger is None or new_ledger is None:
        return None
    before, after = _ledger(old_ledger.answer), _ledger(new_ledger.answer)
    if before is None or after is None:
        return None
    entered, left = entered_and_left(before[1], after[1])
    return {
        "nodeid": new["nodeid"],
        "case": new["case"],
        "file": new["file"],
        "line": new["line"],
        "before": before[0],
        "after": after[0],
        "entered": _placed(entered, new_ledger.review),
        "left": _placed(left, old_ledger.review),
    }


def _ledger(answer: Mapping[str, Any]) -> tuple[LedgerState, list[str]] | None:
    """A ledger's answer as its matrix, agreement and total, and its disagreement IDs;
    ``None`` for an answer that holds more or less than these (a plugin's ledger
    evaluator may answer otherwise): then it is compared as any answer, since a ledger's
    entry says all that changed."""
    if answer.keys() != _LEDGER_KEYS:
        return None
    matrix, ids = answer["matrix"], answer["disagreements"]
    if not (
        isinstance(matrix, dict)
        and matrix.keys() == _MATRIX_KEY_SET
        and all(_is_count(matrix[key]) for key in MATRIX_CELLS.values())
        and _is_count(answer["agreement"])
        and _is_count(answer["total"])
        and isinstance(ids, list)
        and all(isinstance(one, str) for one in ids)
    ):
        return None
    state: LedgerState = {
        "matrix": {key: matrix[key] for key in MATRIX_CELLS.values()},
        "agreement": answer["agreement"],
        "total": answer["total"],
    }
    return state, ids


def _placed(ids: list[str], review: Mapping[str, Any]) -> list[Moved]:
    """Each of ``ids`` with where ``review`` found its row."""
    where: dict[str, str] = {}
    if ids:
        rows = review.get("rows")
        for row in rows if isinstance(rows, list) else ():
            if isinstance(row, dict):
                one, place = row.get("id"), row.get("where")
                if isinstance(one, str) and isinstance(place, str):
                    where.setdefault(one, place)
    return [{"id": one, "where": where.get(one)} for one in ids]


_LEDGER_KEYS = frozenset({"matrix", "agreement", "total", "disagreements"})
_MATRIX_KEY_SET = frozenset(MATRIX_CELLS.values())


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
