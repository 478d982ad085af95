"""The review page's comparison with a baseline: what ``pytest-rubric diff --json``
prints (old report against this run's), read for the page, and the part of the page's
script that shows it.

The page marks cases that changed outcome where they are listed, shows each ledger's
matrix and agreement before and after, marks the disagreement rows that entered and
lists the IDs that left; a section at the top counts it all. The document is read
defensively: an entry of the wrong shape is passed over, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_CELLS = ("bothPass", "bothFail", "aOnly", "bOnly")
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
        "matrix": {key: cells.get(key) for key in _CELLS},
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
            "cases": cases,
            "ledgers": ledgers,
        }


#: The page's script for the comparison: the section at the top, a ledger's changes, and
#: the mark beside a case that changed. Uses the page's el, show, plural, idNode, where
#: and pagerOf.
SCRIPT = r"""
  const CHANGES = {"only-old": "only in the baseline", "only-new": "new since the baseline",
                   outcome: "outcome changed", answer: "answer changed"};
  function outcomeText(value) {
    return value === null || value === undefined ? "(none)" : show(value);
  }
  function beforeAfter(before, after) {
    return outcomeText(before) + " \u2192 " + outcomeText(after);
  }
  // Beside a case that changed since the baseline: how; null for one that did not.
  function sinceMark(record) {
    const since = record.since;
    if (!since) return null;
    const text = since.change === "outcome" ? "was " + outcomeText(since.before)
      : CHANGES[since.change] || show(since.change);
    return el("span", {class: "since", title: "since the baseline: " +
      beforeAfter(since.before, since.after), text: text});
  }
  function changeCount(comparison) {
    return Object.values(comparison.summary).reduce((sum, count) => sum + (Number(count) || 0), 0);
  }
  function agreementOf(counts) {
    return show(counts.agreement) + " / " + show(counts.total);
  }

  // A paged table: ``head`` its headings, ``cells(item)`` one row's cells.
  function pagedTable(className, items, head, cells) {
    const box = el("div", {class: className});
    const state = {page: 0};
    function render() {
      const pages = Math.max(1, Math.ceil(items.length / data.pageRows));
      const first = state.page * data.pageRows;
      const table = el("table", {}, [el("tr", {}, head.map((text) => el("th", {text: text})))]);
      items.slice(first, first + data.pageRows).forEach((item, offset) => table.append(
        el("tr", {}, [el("td", {class: "muted", text: String(first + offset + 1)}), ...cells(item)])));
      box.replaceChildren(table, pagerOf(state, pages, render));
    }
    render();
    return box;
  }

  function comparisonSection(comparison) {
    const nodes = [el("h2", {id: "baseline"}, ["Since the baseline ", el("code", {text: comparison.baseline})])];
    if (!comparison.sameSuite) {
      nodes.push(el("p", {class: "note", text: "The baseline is a report of another suite: " +
        "cases are matched by node ID, and a case of one suite only is counted as only in one report."}));
    }
    const s = comparison.summary;
    const parts = [[s.outcomeChanged, "changed outcome"], [s.answerChanged, "changed answer"],
      [s.onlyOld, "only in the baseline"], [s.onlyNew, "new in this run"]]
      .filter(([count]) => count).map(([count, what]) => plural(count, "case") + " " + what);
    if (s.ledgersChanged) parts.push(plural(s.ledgersChanged, "ledger") + " changed");
    nodes.push(el("p", {class: "counts", text: parts.length ? parts.join(", ") + "."
      : "Nothing changed since the baseline."}));
    if (comparison.cases.length) {
      nodes.push(el("h3", {text: "Cases that changed (" + comparison.cases.length + ")"}));
      nodes.push(pagedTable("baseline-cases", comparison.cases, ["#", "case", "where", "change", "outcome"],
        (entry) => [el("td", {}, [idNode(entry.case)]),
          el("td", {class: "mono", text: "row" in entry ? show(entry.row) : where(entry)}),
          el("td", {text: CHANGES[entry.change] || show(entry.change)}),
          el("td", {text: beforeAfter(entry.before, entry.after)})]));
    }
    if (comparison.ledgers.length) {
      nodes.push(el("h3", {text: "Ledgers that changed (" + comparison.ledgers.length + ")"}));
      nodes.push(pagedTable("baseline-ledgers", comparison.ledgers,
        ["#", "ledger", "where", "agreement", "entered", "left"], (entry) => [
          el("td", {}, [entry.section === null ? idNode(entry.case)
            : el("a", {href: "#ledger-" + entry.section}, [idNode(entry.case)])]),
          el("td", {class: "mono", text: where(entry)}),
          el("td", {text: agreementOf(entry.before) + " \u2192 " + agreementOf(entry.after)}),
          el("td", {text: String(entry.entered)}), el("td", {text: String(entry.left)})]));
    }
    return nodes;
  }

  // A ledger's changes since the baseline: its counts before and after, and every
  // disagreement ID that entered (where it is now) or left (where it was).
  function baselineBlock(change) {
    const before = change.before, after = change.after;
    const cells = CELLS.map(([key]) => key + " " + show(before.matrix[key]) + " \u2192 " +
      show(after.matrix[key])).join(", ");
    const box = el("div", {class: "baseline-ledger"});
    box.append(el("p", {}, [el("strong", {text: "Since the baseline: "}), "agreement " +
      agreementOf(before) + " \u2192 " + agreementOf(after) + "; " + cells + "; " +
      plural(change.entered.length, "disagreement") + " entered (marked new in the rows), " +
      change.left.length + " left."]));
    const moved = [...change.entered.map((entry) => ({...entry, moved: "entered"})),
                   ...change.left.map((entry) => ({...entry, moved: "left"}))];
    if (moved.length) {
      box.append(pagedTable("moved", moved, ["#", "ID", "since the baseline", "where"], (entry) => [
        el("td", {class: "mono"}, [idNode(entry.id)]), el("td", {class: "moved-" + entry.moved, text: entry.moved}),
        el("td", {class: "mono", text: entry.where === null ? "(not recorded)"
          : (entry.moved === "left" ? "was at " : "") + show(entry.where)})]));
    }
    return box;
  }
  // The IDs (as JSON text) of a ledger's disagreements that entered since the baseline.
  function enteredKeys(ledger) {
    return ledger.baseline ? new Set(ledger.baseline.entered.map((entry) => JSON.stringify(entry.id))) : null;
  }
"""

STYLE = """
.since, .new { font-size: .8em; font-weight: bold; border-radius: 3px; padding: 0 .35em; margin-left: .4em; }
.since { background: #fde2c8; color: #7a3b00; }
.new { background: #d9f0dc; color: #1e6b30; }
.note { background: #fff4d6; border-left: 3px solid #c99400; padding: .3em .6em; }
.moved-left { color: #5c6470; }
"""
