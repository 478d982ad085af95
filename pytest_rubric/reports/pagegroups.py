"""The review page's group filter on a grouped ledger (``group_by:`` in its ``ledger:``
block): the groups the report's ``review`` holds, read for the page, and the part of the
page's script that shows them.

Choosing a group shows its matrix, its agreement over its total and only its
disagreement rows; a table beside the whole ledger lists every group. A row belongs to
the group whose label its ``group`` holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rubric.core.escapes import escape_controls

_CELLS = ("bothPass", "bothFail", "aOnly", "bOnly")


def ledger_groups(review: Mapping[str, Any]) -> dict[str, Any]:
    """``{"groupBy": path, "groups": [...]}`` for a grouped ledger's ``review``: each
    group's label, matrix, agreement, total and how many disagreements it has, in the
    review's order; nothing for a ledger that is not grouped."""
    path = review.get("groupBy")
    groups = review.get("groups")
    if not isinstance(path, str) or not isinstance(groups, list):
        return {}
    shown = []
    for group in groups:
        if not isinstance(group, Mapping):
            continue
        matrix = group.get("matrix")
        cells = matrix if isinstance(matrix, Mapping) else {}
        disagreements = group.get("disagreements")
        shown.append(
            {
                "label": group.get("label"),
                "matrix": {key: cells.get(key) for key in _CELLS},
                "agreement": group.get("agreement"),
                "total": group.get("total"),
                "disagreements": len(disagreements) if isinstance(disagreements, list) else 0,
            }
        )
    return {"groupBy": escape_controls(path), "groups": shown}  # invisible characters seen


#: The page's script for grouped ledgers. Uses the page's el, show, idNode, visibleText
#: and CELLS.
SCRIPT = r"""
  // What a ledger shows for one of its groups (``index``), or for the whole ledger (null):
  // the matrix, agreement over total, the rows recorded, and how many disagreements
  // there are beyond them.
  function ledgerView(ledger, index) {
    if (index === null) {
      return {matrix: ledger.matrix || {}, agreement: ledger.agreement, total: ledger.total,
              rows: ledger.rows, more: ledger.more};
    }
    const group = ledger.groups[index];
    const rows = ledger.rows.filter((row) => row.group === group.label);
    return {group: group, matrix: group.matrix, agreement: group.agreement, total: group.total,
            rows: rows, more: Math.max(0, group.disagreements - rows.length)};
  }

  // A grouped ledger's filter, and a table of every group beside the whole ledger.
  // ``choose(index)`` shows a group (null: the whole ledger).
  function groupControls(ledger, choose) {
    const select = el("select", {class: "group-filter"}, [el("option", {value: "", text: "all groups"})]);
    ledger.groups.forEach((group, index) => select.append(el("option", {value: String(index),
      text: visibleText(show(group.label)) + " (" + show(group.agreement) + " / " + show(group.total) + ")"})));
    function counts(of, disagreements) {
      return [...CELLS.map(([key]) => el("td", {class: "num", text: show(of.matrix[key])})),
        el("td", {class: "num", text: show(of.agreement) + " / " + show(of.total)}),
        el("td", {class: "num", text: show(disagreements)})];
    }
    const rows = ledger.groups.map((group, index) => {
      const row = el("tr", {class: "group", title: "click to show this group"},
        [el("td", {}, [idNode(group.label)]), ...counts(group, group.disagreements)]);
      row.addEventListener("click", () => pick(String(index)));
      return row;
    });
    const whole = {matrix: ledger.matrix || {}, agreement: ledger.agreement, total: ledger.total};
    const table = el("table", {class: "groups"}, [
      el("tr", {}, [ledger.groupBy, ...CELLS.map(([key]) => key), "agreement", "disagreements"]
        .map((text) => el("th", {text: text}))),
      ...rows,
      el("tr", {class: "whole"}, [el("th", {text: "whole ledger"}),
        ...counts(whole, (whole.matrix.aOnly || 0) + (whole.matrix.bOnly || 0))])]);
    function pick(value) {
      select.value = value;
      rows.forEach((row, index) => row.classList.toggle("chosen", String(index) === value));
      choose(value === "" ? null : Number(value));
    }
    select.addEventListener("change", () => pick(select.value));
    return el("div", {class: "group-box"}, [
      el("label", {}, ["Group by " + ledger.groupBy + ": ", select]), table]);
  }
"""

STYLE = """
table.groups tr.group { cursor: pointer; }
table.groups tr.group:hover { background: #e8f0fe; }
table.groups tr.chosen { background: #c9dcfc; }
table.groups td.num { text-align: right; font-variant-numeric: tabular-nums; }
.group-box label { display: block; margin: .4em 0; }
"""
