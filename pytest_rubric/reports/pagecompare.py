"""The review page's comparison with a baseline: what ``pytest-rubric diff --json``
prints (old report against this run's), read for the page; ``assets/compare.js`` and
``compare.css`` show it (the script uses the page's el, show, plural, idNode, where and
pagerOf).

The page marks cases that changed outcome where they are listed, shows each ledger's
matrix and agreement before and after, marks the disagreement rows that entered and
lists the IDs that left; a section at the top counts it all. The document is read
defensively: an entry of the wrong shape is passed over, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rubric.core.labelblocks import MATRIX_CELLS

_SUMMARY = ("onlyOld", "onlyNew", "outcomeChanged", "answerChanged", "ledgersChanged")


def _entries(value: object) -> list[Mapping[str, Any]]:
    """The mappings in ``value`` when it is a list; nothing otherwise."""
    return (
        [entry for entry in value if isinstance(entry, Mapping)] if isinstance(value, list) else []
    )


def _by_nodeid(entries: list[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    return {entry["nodeid"]: entry for entry in entries if isinstance(entry.get("nodeid"), str)}


def _place(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A case's or ledger's name and where it is written."""
    return {key: entry.get(key) for key in ("case", "file", "line")}


def _counts(value: object) -> dict[str, Any]:
    """A ledger's matrix, agreement and total as one side of the comparison holds them."""
    side = value if isinstance(value, Mapping) else {}
    matrix = side.get("matrix")
    cells = matrix if isinstance(matrix, Mapping) else {}
    return {
        "matrix": {key: cells.get(key) for key in MATRIX_CELLS.values()},
        "agreement": side.get("agreement"),
        "total": side.get("total"),
    }


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _moved(value: object) -> list[dict[str, Any]]:
    """Disagreement IDs that entered or left, each with its row's place (or null)."""
    return [{"id": entry.get("id"), "where": entry.get("where")} for entry in _entries(value)]


class BaselineChanges:
    """A baseline comparison, looked up by node ID; reading it changes nothing."""

    __slots__ = ("_cases", "_document", "_ledgers")

    def __init__(self, document: Mapping[str, Any]) -> None:
        self._document = document
        self._cases = _by_nodeid(_entries(document.get("cases")))
        self._ledgers = _by_nodeid(_entries(document.get("ledgers")))

    def outcome_change(self, nodeid: str) -> dict[str, Any]:
        """``{"since": {change, before, after}}`` for a case that changed since the
        baseline; nothing for one that did not."""
        entry = self._cases.get(nodeid)
        if entry is None:
            return {}
        return {"since": {key: entry.get(key) for key in ("change", "before", "after")}}

    def ledger_change(self, nodeid: str) -> dict[str, Any]:
        """``{"baseline": {before, after, entered, left}}`` for a ledger in both reports
        whose matrix or disagreements changed; nothing for one that did not."""
        entry = self._ledgers.get(nodeid)
        if entry is None:
            return {}
        return {
            "baseline": {
                "before": _counts(entry.get("before")),
                "after": _counts(entry.get("after")),
                "entered": _moved(entry.get("entered")),
                "left": _moved(entry.get("left")),
            }
        }

    def overview(self, sections: Mapping[str, int]) -> dict[str, Any]:
        """The section at the top of the page: the baseline, the counts, every case that
        changed and every ledger that changed (``sections``: the number of the page's
        section of each ledger it shows, by node ID)."""
        document = self._document
        old = document.get("old")
        summary = document.get("summary")
        counts = summary if isinstance(summary, Mapping) else {}
        cases = []
        for entry in self._cases.values():
            case = {**_place(entry), **self.outcome_change(entry["nodeid"])["since"]}
            of = entry.get("dataset")
            if isinstance(of, Mapping):
                case["row"] = of.get("row")
            cases.append(case)
        ledgers = []
        for nodeid, entry in self._ledgers.items():
            change = self.ledger_change(nodeid)["baseline"]
            ledgers.append(
                {
                    **_place(entry),
                    "before": change["before"],
                    "after": change["after"],
                    "entered": len(change["entered"]),
                    "left": len(change["left"]),
                    "section": sections.get(nodeid),
                }
            )
        return {
            "baseline": old.get("report", "") if isinstance(old, Mapping) else "",
            "sameSuite": document.get("sameSuite") is not False,
            "summary": {key: _count(counts.get(key)) for key in _SUMMARY},
            # No case in both reports: nothing was compared, never "nothing changed".
            "compared": _count(counts.get("compared")),
            "cases": cases,
            "ledgers": ledgers,
        }
