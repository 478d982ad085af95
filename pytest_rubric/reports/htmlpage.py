"""``--rubric-html`` and ``python -m pytest_rubric html``: one self-contained review page.

The page is made from a report document (:func:`pytest_rubric.reports.jsonreport.document`):
every agreement ledger with its matrix, agreement over total and the disagreement
rows the report kept; every mismatch and case error with its differing keys and
evidence; passed cases counted and listed collapsed. Given a comparison with a
baseline, the page shows what changed (:mod:`~pytest_rubric.reports.pagecompare`); a
grouped ledger gets a group filter (:mod:`~pytest_rubric.reports.pagegroups`); what the
page shows is taken in :mod:`~pytest_rubric.reports.pagedata`. Nothing is fetched: the
styles and the script are in the page, and a Content-Security-Policy forbids
loading anything else.

Data never becomes markup. It is embedded once, as JSON inside
``<script type="application/json">`` with ``<``, ``>``, ``&``, U+2028 and U+2029
escaped, and the script builds the page from it with text nodes only. This
module does not import pytest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pytest_rubric.core.escapes import is_encodable
from pytest_rubric.reports import pagecompare, pagegroups
from pytest_rubric.reports.pagedata import page_data

_SURROGATES = re.compile("[\ud800-\udfff]")
_JSON_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def embedded_json(value: Any) -> str:
    """``value`` as JSON that can stand inside ``<script type="application/json">``:
    nothing in it can end the element or start markup."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).translate(_JSON_ESCAPES)
    if is_encodable(text):
        return text
    # A lone surrogate (read from a JSON escape) cannot be written as UTF-8; its own
    # escape can, and the browser reads it back as the same text.
    return _SURROGATES.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def review_page(report: Mapping[str, Any], comparison: Mapping[str, Any] | None = None) -> str:
    """The review page of ``report``: one HTML document, text only from data.

    ``comparison`` is what ``pytest-rubric diff --json`` prints for a baseline
    against ``report``; when given, the page marks what changed since the baseline."""
    return _BEFORE_DATA + embedded_json(page_data(report, comparison)) + _AFTER_DATA


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pytest-rubric review</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em; color: #1d2126; background: #fff; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
h2 { font-size: 1.15em; margin: 1.6em 0 .5em; border-bottom: 1px solid #d5d9de; }
h3 { font-size: 1em; margin: 1.2em 0 .4em; }
code, .id, td.mono, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #f5f6f8; padding: .5em; margin: .2em 0; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; margin: .4em 0; }
th, td { border: 1px solid #d5d9de; padding: .25em .55em; text-align: left; vertical-align: top; }
th { background: #f1f3f5; }
table.matrix td.cell { cursor: pointer; text-align: right; min-width: 4em; font-variant-numeric: tabular-nums; }
table.matrix td.cell:hover { background: #e8f0fe; }
table.matrix td.cell.active { background: #c9dcfc; font-weight: bold; }
table.matrix td.disagree { color: #a3330f; }
.ws { background: #ffe8a3; color: #7a5200; border-radius: 2px; padding: 0 1px; font-size: .85em; }
.muted { color: #5c6470; }
.ledger, .problem { border: 1px solid #d5d9de; border-radius: 4px; padding: .6em 1em; margin: .8em 0; }
.outcome { font-weight: bold; }
.outcome-mismatched, .outcome-case-error, .outcome-xpassed { color: #a3330f; }
.outcome-matched { color: #1e6b30; }
.pager button, .filters button { margin-right: .4em; }
__STYLE__</style>
</head>
<body>
<h1>pytest-rubric review</h1>
<nav id="overview" class="muted"></nav>
<main id="page"><noscript>This page needs JavaScript to show its data.</noscript></main>
<script type="application/json" id="rubric-data">__DATA__</script>
<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("rubric-data").textContent);
  const page = document.getElementById("page");
  const CELLS = [["bothPass", "a true, b true"], ["aOnly", "a true, b false"],
                 ["bOnly", "a false, b true"], ["bothFail", "a false, b false"]];

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children || []) {
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }
  function show(value) {
    return typeof value === "string" ? value : JSON.stringify(value);
  }
  function plural(count, noun) {
    return count + " " + noun + (count === 1 ? "" : "s");
  }
  // Leading and trailing whitespace, and every invisible character, as a visible
  // marker: "A" and "A " must not look alike.
  const INVISIBLE = /[\\s\\u00ad\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\ufeff\\p{Cc}\\p{Cf}\\p{Cs}]/u;
  function codeOf(ch) {
    return "U+" + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
  }
  // Text where no element can be put (an option): each invisible character as its code.
  function visibleText(text) {
    return Array.from(text, (ch) => ch !== " " && INVISIBLE.test(ch) ? "\\u27e8" + codeOf(ch) + "\\u27e9" : ch).join("");
  }
  function marker(ch) {
    const code = codeOf(ch);
    const shown = ch === " " ? "\\u2423" : ch === "\\t" ? "\\u21e5" : ch === "\\n" ? "\\u21b5" : code;
    return el("span", {class: "ws", title: code, text: shown});
  }
  function idNode(value) {
    if (typeof value !== "string") return el("span", {class: "id", text: show(value)});
    const chars = Array.from(value);
    let start = 0, end = chars.length;
    while (start < end && /\\s/u.test(chars[start])) start++;
    while (end > start && /\\s/u.test(chars[end - 1])) end--;
    const node = el("span", {class: "id"});
    let run = "";
    chars.forEach((ch, index) => {
      const edge = index < start || index >= end;
      if ((edge && /\\s/u.test(ch)) || (ch !== " " && INVISIBLE.test(ch))) {
        if (run) { node.append(document.createTextNode(run)); run = ""; }
        node.append(marker(ch));
      } else {
        run += ch;
      }
    });
    if (run) node.append(document.createTextNode(run));
    if (!chars.length) node.append(el("span", {class: "ws", text: "(empty)"}));
    return node;
  }
  function where(record) {
    return record.line === null ? record.file : record.file + ":" + record.line;
  }
  // Beside a case's ID: its mark when it changed since the baseline.
  function titled(record) {
    const mark = sinceMark(record);
    return mark ? [idNode(record.case), " ", mark, " "] : [idNode(record.case), " "];
  }
__SCRIPT__
  // A ledger needs a look when its graders disagree, on rows listed or only counted.
  function disagrees(ledger) {
    const matrix = ledger.matrix || {};
    return (matrix.aOnly || 0) + (matrix.bOnly || 0) > 0 || ledger.rows.length > 0;
  }
  const disagreeing = data.ledgers.filter(disagrees);
  const agreeing = data.ledgers.filter((ledger) => !disagrees(ledger));

  // What needs a look first, in plain words, each a link to its section.
  function overview() {
    const summary = data.summary || {};
    const parts = [];
    function link(text, target) {
      parts.push(el("a", {href: "#" + target, class: "jump", text: text}));
    }
    function ledgers(count) {
      return count + (count === 1 ? " ledger" : " ledgers");
    }
    if (data.comparison) link(plural(changeCount(data.comparison), "change") + " since the baseline", "baseline");
    if (summary.mismatched) link(summary.mismatched + " mismatched", "problems");
    if (summary.caseErrors) link(plural(summary.caseErrors, "case error"), "problems");
    if (data.datasets.length) link(plural(data.datasets.length, "dataset"), "datasets");
    if (disagreeing.length) link(ledgers(disagreeing.length) + " with disagreements", "disagreeing");
    if (agreeing.length) link(ledgers(agreeing.length) + " in agreement", "agreeing");
    for (const key of ["matched", "skipped", "xfailed", "xpassed"]) {
      if (summary[key]) link(summary[key] + " " + key, "others");
    }
    const all = [plural(summary.cases || 0, "case") + ":"];
    parts.forEach((part, index) => all.push(index ? " \\u00b7 " : " ", part));
    all.push(" \\u00b7 pytest-rubric " + data.pytestRubric);
    document.getElementById("overview").replaceChildren(...all);
  }

  function ledgerSection(ledger, number) {
    const box = el("section", {class: "ledger", id: "ledger-" + number});
    const title = el("h3", {}, titled(ledger));
    title.append(el("span", {class: "muted", text: where(ledger) +
      (ledger.inputFile ? " (rows in " + ledger.inputFile + ")" : "")}));
    title.append(" ", el("span", {class: "outcome outcome-" + ledger.outcome, text: ledger.outcome}));
    box.append(title);
    const agreement = el("strong");
    box.append(el("p", {}, [agreement, " rows (both graders gave the same label); disagreements are kept for review, never resolved."]));
    const table = el("table", {class: "matrix"});
    const names = ledger.graders || {a: "a", b: "b"};
    const named = names.a !== "a" || names.b !== "b";
    const pass = named ? " pass" : " true", fail = named ? " fail" : " false";
    if (named) box.append(el("p", {class: "graders", text: "a is " + names.a + ", b is " + names.b + "."}));
    table.append(el("tr", {}, [el("th", {text: ""}), el("th", {text: names.b + pass}), el("th", {text: names.b + fail})]));
    const rowsBox = el("div", {class: "rows"});
    const state = {filter: null, page: 0, group: null};
    const cells = {};
    function cell(key) {
      const reads = {bothPass: [pass, pass], aOnly: [pass, fail], bOnly: [fail, pass], bothFail: [fail, fail]}[key];
      const td = el("td", {class: "cell" + (key === "aOnly" || key === "bOnly" ? " disagree" : ""),
        "data-cell": key, title: key + " (" + names.a + reads[0] + " / " + names.b + reads[1] +
        "): click to show these rows"});
      td.addEventListener("click", () => {
        state.filter = state.filter === key ? null : key;
        state.page = 0;
        render();
      });
      cells[key] = td;
      return td;
    }
    table.append(el("tr", {}, [el("th", {text: names.a + pass}), cell("bothPass"), cell("aOnly")]));
    table.append(el("tr", {}, [el("th", {text: names.a + fail}), cell("bOnly"), cell("bothFail")]));
    box.append(table);
    const counts = el("p", {class: "muted"});
    box.append(counts);
    if (ledger.baseline) box.append(baselineBlock(ledger.baseline));
    if (ledger.groups) {
      box.append(groupControls(ledger, (index) => {
        state.group = index;
        state.page = 0;
        render();
      }));
    }
    box.append(rowsBox);
    const entered = enteredKeys(ledger);
    const views = new Map();  // the rows of each group, filtered once

    function render() {
      if (!views.has(state.group)) views.set(state.group, ledgerView(ledger, state.group));
      const view = views.get(state.group);
      const group = view.group ? " in " + ledger.groupBy + " " + show(view.group.label) : "";
      agreement.textContent = "Agreement" + group + ": " + show(view.agreement) + " / " + show(view.total);
      for (const [key, td] of Object.entries(cells)) {
        td.textContent = show(view.matrix[key]);
        td.classList.toggle("active", key === state.filter);
      }
      counts.textContent = CELLS.map(([key]) => key + " " + show(view.matrix[key])).join(", ") + group +
        ". Click a cell to show its rows; click it again to show every disagreement.";
      const rows = state.filter ? view.rows.filter((row) => row.side === state.filter) : view.rows;
      const pages = Math.max(1, Math.ceil(rows.length / data.pageRows));
      state.page = Math.min(state.page, pages - 1);
      const first = state.page * data.pageRows;
      const shown = rows.slice(first, first + data.pageRows);
      const heading = el("p", {class: "status"});
      if (state.filter === "bothPass" || state.filter === "bothFail") {
        heading.textContent = state.filter + group + ": the graders agree on these rows; agreements are counted, not listed.";
        rowsBox.replaceChildren(heading);
        return;
      }
      const side = {aOnly: names.a + " pass / " + names.b + " fail", bOnly: names.a + " fail / " + names.b + " pass"};
      heading.textContent = (state.filter ? state.filter + (named ? " (" + side[state.filter] + ")" : "") + " rows" : "Disagreement rows") + group + ": " +
        rows.length + " recorded" + (rows.length ? ", showing " + (first + 1) + "\\u2013" + (first + shown.length) : "") +
        (view.more ? "; " + plural(view.more, "more disagreement") + group + (view.more === 1 ? " was" : " were") +
        " not recorded (--rubric-review-rows)" : "") + ".";
      const table = el("table", {class: "review-rows"});
      table.append(el("tr", {}, ["#", "ID", ...(ledger.groups ? [ledger.groupBy] : []), named ? "a (" + names.a + ")" : "a", named ? "b (" + names.b + ")" : "b", "side", "written at", "other fields"].map((t) => el("th", {text: t}))));
      const fragment = document.createDocumentFragment();
      shown.forEach((row, offset) => {
        const fields = el("td", {class: "fields"});
        for (const [key, value] of Object.entries(row.fields || {})) {
          fields.append(el("div", {}, [el("strong", {text: key + ": "}), show(value)]));
        }
        const id = el("td", {class: "mono"}, [idNode(row.id)]);
        if (entered && entered.has(JSON.stringify(row.id))) id.append(" ", el("span", {class: "new", title: "entered since the baseline", text: "new"}));
        fragment.append(el("tr", {class: "review-row", "data-side": show(row.side)}, [
          el("td", {class: "muted", text: String(first + offset + 1)}), id,
          ...(ledger.groups ? [el("td", {}, "group" in row ? [idNode(row.group)] : [])] : []),
          el("td", {text: show(row.a)}), el("td", {text: show(row.b)}),
          el("td", {text: show(row.side)}), el("td", {class: "mono", text: show(row.where)}),
          fields]));
      });
      table.append(fragment);
      const pager = pagerOf(state, pages, render);
      rowsBox.replaceChildren(heading, table, pager);
    }
    render();
    return box;
  }

  function problemSection(problem) {
    const box = el("section", {class: "problem"});
    const title = el("h3", {}, titled(problem));
    title.append(el("span", {class: "muted", text: where(problem) + " \\u00b7 " + problem.evaluator + " "}));
    title.append(el("span", {class: "outcome outcome-" + problem.outcome, text: problem.outcome}));
    box.append(title);
    if (problem.differing.length) {
      const table = el("table", {class: "differing"});
      table.append(el("tr", {}, [el("th", {text: "key"}), el("th", {text: "expected"}), el("th", {text: "actual"})]));
      for (const entry of problem.differing) {
        table.append(el("tr", {}, [el("td", {class: "mono", text: entry.key}),
          el("td", {class: "mono", text: "expected" in entry ? show(JSON.stringify(entry.expected)) : "(missing)"}),
          el("td", {class: "mono", text: "actual" in entry ? show(JSON.stringify(entry.actual)) : "(missing)"})]));
      }
      box.append(table);
    }
    const evidence = problem.evidence;
    if (evidence) {
      box.append(el("h4", {text: "Evidence"}));
      const list = el("ul");
      for (const [key, value] of Object.entries(evidence.facts || {})) {
        list.append(el("li", {}, [el("strong", {text: key + ": "}), el("code", {text: show(value)})]));
      }
      if (evidence.problem) list.append(el("li", {}, [el("strong", {text: "problem: "}), evidence.problem]));
      box.append(list);
    }
    for (const text of problem.problems || []) box.append(el("pre", {text: text}));
    if (problem.reason) box.append(el("p", {text: "reason: " + problem.reason}));
    return box;
  }

  // Previous and next buttons over ``pages`` pages of rows, ``state.page`` the one shown.
  function pagerOf(state, pages, render) {
    const pager = el("div", {class: "pager"});
    if (pages > 1) {
      const prev = el("button", {type: "button", class: "prev", text: "\\u2190 previous"});
      const next = el("button", {type: "button", class: "next", text: "next \\u2192"});
      prev.disabled = state.page === 0;
      next.disabled = state.page >= pages - 1;
      prev.addEventListener("click", () => { state.page--; render(); });
      next.addEventListener("click", () => { state.page++; render(); });
      pager.append(prev, next, el("span", {class: "muted", text: "page " + (state.page + 1) + " of " + pages}));
    }
    return pager;
  }

  function datasetSection(dataset, number) {
    const box = el("section", {class: "dataset", id: "dataset-" + number});
    const title = el("h3", {}, [idNode(dataset.case), " "]);
    title.append(el("span", {class: "muted", text: where(dataset) + " \u00b7 " + dataset.evaluator}));
    box.append(title);
    const counts = dataset.counts || {};
    const parts = ["mismatched", "case-error", "matched", "skipped", "xfailed", "xpassed"]
      .filter((key) => counts[key]).map((key) => counts[key] + " " + key);
    box.append(el("p", {class: "counts"}, [el("strong", {text: plural(dataset.rows.length, "row")}),
      ": " + parts.join(", ") + ". Failures first."]));
    const failing = dataset.rows.filter((row) => "differing" in row);
    const rest = dataset.rows.filter((row) => !("differing" in row));
    const rowsBox = el("div", {class: "dataset-rows"});
    const state = {page: 0};
    function render() {
      const pages = Math.max(1, Math.ceil(failing.length / data.pageRows));
      const first = state.page * data.pageRows;
      const shown = failing.slice(first, first + data.pageRows).map((row) => {
        const section = problemSection(row);
        section.querySelector("h3 .muted").textContent = row.row + " \u00b7 " + row.evaluator + " ";
        return section;
      });
      const pager = pagerOf(state, pages, render);
      rowsBox.replaceChildren(...shown, pager);
    }
    render();
    box.append(rowsBox);
    if (rest.length) {
      const list = caseList(rest.map((row) => ({...row, file: row.row, line: null})), "other row");
      box.append(list);
    }
    return box;
  }

  function caseList(records, label) {
    const details = el("details", {class: "cases"});
    details.append(el("summary", {text: plural(records.length, label)}));
    const list = el("ul");
    for (const record of records) {
      list.append(el("li", {}, [...titled(record), el("span", {class: "muted",
        text: where(record) + " \\u00b7 " + record.evaluator + (record.reason ? " \\u00b7 " + record.outcome + ": " + record.reason : "")})]));
    }
    details.append(list);
    return details;
  }

  overview();
  page.replaceChildren(...(data.comparison ? comparisonSection(data.comparison) : []));
  // What needs a look first: mismatches and case errors, then the ledgers whose graders
  // disagree, then the rest.
  page.append(el("h2", {id: "problems", text: "Mismatches and case errors (" + data.problems.length + ")" + (data.datasets.length ? "; a dataset's rows are under Datasets" : "")}));
  if (!data.problems.length) page.append(el("p", {class: "muted", text: "None."}));
  for (const problem of data.problems) page.append(problemSection(problem));
  if (data.datasets.length) {
    page.append(el("h2", {id: "datasets", text: "Datasets (" + data.datasets.length + "): each row a case"}));
    data.datasets.forEach((dataset, number) => page.append(datasetSection(dataset, number)));
  }
  const numbers = new Map(data.ledgers.map((ledger, number) => [ledger, number]));
  page.append(el("h2", {id: "disagreeing", text: "Agreement ledgers with disagreements (" + disagreeing.length + ")"}));
  if (!disagreeing.length) page.append(el("p", {class: "muted", text: "None: in every ledger the graders agree."}));
  for (const ledger of disagreeing) page.append(ledgerSection(ledger, numbers.get(ledger)));
  page.append(el("h2", {id: "agreeing", text: "Agreement ledgers in agreement (" + agreeing.length + ")"}));
  if (!agreeing.length) page.append(el("p", {class: "muted", text: data.ledgers.length ? "None." : "No agreement ledger in this report."}));
  for (const ledger of agreeing) page.append(ledgerSection(ledger, numbers.get(ledger)));
  page.append(el("h2", {id: "others", text: "Passed and other cases"}));
  const passed = caseList(data.passed, "passed case");
  passed.id = "passed";
  page.append(passed);
  if (data.others.length) page.append(caseList(data.others, "skipped or xfailed case"));
  document.body.dataset.ready = "true";
})();
</script>
</body>
</html>
"""

_BEFORE_DATA, _AFTER_DATA = (
    _TEMPLATE.replace("__STYLE__", pagecompare.STYLE + pagegroups.STYLE)
    .replace("__SCRIPT__", pagecompare.SCRIPT + pagegroups.SCRIPT)
    .split("__DATA__")
)
