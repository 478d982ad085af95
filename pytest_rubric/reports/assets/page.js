"use strict";
(function () {
  const data = JSON.parse(document.getElementById("rubric-data").textContent);
  const page = document.getElementById("page");
  // The matrix's cells as the data names them: a row for each of a's labels (true, then
  // false), a column for each of b's. Off the diagonal, the graders disagree.
  const GRID = data.cells;
  const CELLS = GRID.flat();
  const A_ONLY = GRID[0][1], B_ONLY = GRID[1][0];

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
  const INVISIBLE = /[\s\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\p{Cc}\p{Cf}\p{Cs}]/u;
  function codeOf(ch) {
    return "U+" + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
  }
  // Text where no element can be put (an option): each invisible character as its code.
  function visibleText(text) {
    return Array.from(text, (ch) => ch !== " " && INVISIBLE.test(ch) ? "\u27e8" + codeOf(ch) + "\u27e9" : ch).join("");
  }
  function marker(ch) {
    const code = codeOf(ch);
    const shown = ch === " " ? "\u2423" : ch === "\t" ? "\u21e5" : ch === "\n" ? "\u21b5" : code;
    return el("span", {class: "ws", title: code, text: shown});
  }
  function idNode(value) {
    if (typeof value !== "string") return el("span", {class: "id", text: show(value)});
    const chars = Array.from(value);
    let start = 0, end = chars.length;
    while (start < end && /\s/u.test(chars[start])) start++;
    while (end > start && /\s/u.test(chars[end - 1])) end--;
    const node = el("span", {class: "id"});
    let run = "";
    chars.forEach((ch, index) => {
      const edge = index < start || index >= end;
      if ((edge && /\s/u.test(ch)) || (ch !== " " && INVISIBLE.test(ch))) {
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
  // compare.js and groups.js (htmlpage.py sets them in here)
  // A ledger needs a look when its graders disagree, on rows listed or only counted.
  function disagrees(ledger) {
    const matrix = ledger.matrix || {};
    return (matrix[A_ONLY] || 0) + (matrix[B_ONLY] || 0) > 0 || ledger.rows.length > 0;
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
    if (data.comparison) link(data.comparison.compared ? plural(changeCount(data.comparison), "change") + " since the baseline"
      : "nothing compared with the baseline", "baseline");
    if (summary.mismatched) link(summary.mismatched + " mismatched", "problems");
    if (summary.caseErrors) link(plural(summary.caseErrors, "case error"), "problems");
    if (data.datasets.length) link(plural(data.datasets.length, "dataset"), "datasets");
    if (disagreeing.length) link(ledgers(disagreeing.length) + " with disagreements", "disagreeing");
    if (agreeing.length) link(ledgers(agreeing.length) + " in agreement", "agreeing");
    for (const key of ["matched", "skipped", "xfailed", "xpassed"]) {
      if (summary[key]) link(summary[key] + " " + key, "others");
    }
    const all = [plural(summary.cases || 0, "case") + ":"];
    parts.forEach((part, index) => all.push(index ? " \u00b7 " : " ", part));
    all.push(" \u00b7 pytest-rubric " + data.pytestRubric);
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
    function cell(key, row, column) {
      const reads = [row ? fail : pass, column ? fail : pass];
      const td = el("td", {class: "cell" + (row !== column ? " disagree" : ""),
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
    GRID.forEach((keys, row) => table.append(el("tr", {}, [el("th", {text: names.a + (row ? fail : pass)}),
      ...keys.map((key, column) => cell(key, row, column))])));
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
      counts.textContent = CELLS.map((key) => key + " " + show(view.matrix[key])).join(", ") + group +
        ". Click a cell to show its rows; click it again to show every disagreement.";
      const rows = state.filter ? view.rows.filter((row) => row.side === state.filter) : view.rows;
      const pages = Math.max(1, Math.ceil(rows.length / data.pageRows));
      state.page = Math.min(state.page, pages - 1);
      const first = state.page * data.pageRows;
      const shown = rows.slice(first, first + data.pageRows);
      const heading = el("p", {class: "status"});
      if (state.filter === GRID[0][0] || state.filter === GRID[1][1]) {
        heading.textContent = state.filter + group + ": the graders agree on these rows; agreements are counted, not listed.";
        rowsBox.replaceChildren(heading);
        return;
      }
      const side = {[A_ONLY]: names.a + " pass / " + names.b + " fail", [B_ONLY]: names.a + " fail / " + names.b + " pass"};
      heading.textContent = (state.filter ? state.filter + (named ? " (" + side[state.filter] + ")" : "") + " rows" : "Disagreement rows") + group + ": " +
        rows.length + " recorded" + (rows.length ? ", showing " + (first + 1) + "\u2013" + (first + shown.length) : "") +
        (view.more ? "; " + plural(view.more, "more disagreement") + group + (view.more === 1 ? " was" : " were") +
        " not recorded (--rubric-review-rows)" : "") + ".";
      const table = el("table", {class: "review-rows"});
      table.append(el("tr", {}, ["#", "ID", ...(ledger.groups ? [ledger.groupBy] : []), named ? "a (" + names.a + ")" : "a", named ? "b (" + names.b + ")" : "b", "side", "written at", "other fields"].map((t) => el("th", {text: t}))));
      const fragment = document.createDocumentFragment();
      shown.forEach((row, offset) => {
        const fields = el("td", {class: "fields"});
        // [key, text] pairs in the report's order (an object would put "50" before "49")
        for (const [key, value] of row.fields || []) {
          fields.append(el("div", {}, [el("strong", {text: key + ": "}), value]));
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
    title.append(el("span", {class: "muted", text: where(problem) + " \u00b7 " + problem.evaluator + " "}));
    title.append(el("span", {class: "outcome outcome-" + problem.outcome, text: problem.outcome}));
    box.append(title);
    if (problem.differing.length) {
      const table = el("table", {class: "differing"});
      table.append(el("tr", {}, [el("th", {text: "key"}), el("th", {text: "expected"}), el("th", {text: "actual"})]));
      for (const entry of problem.differing) {
        table.append(el("tr", {}, [el("td", {class: "mono", text: entry.key}),
          el("td", {class: "mono", text: "expected" in entry ? entry.expected : "(missing)"}),
          el("td", {class: "mono", text: "actual" in entry ? entry.actual : "(missing)"})]));
      }
      box.append(table);
    }
    const evidence = problem.evidence;
    if (evidence) {
      box.append(el("h4", {text: "Evidence"}));
      const list = el("ul");
      for (const [key, value] of evidence.facts || []) {  // [key, text] pairs, as fields are
        list.append(el("li", {}, [el("strong", {text: key + ": "}), el("code", {text: value})]));
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
      const prev = el("button", {type: "button", class: "prev", text: "\u2190 previous"});
      const next = el("button", {type: "button", class: "next", text: "next \u2192"});
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
    title.append(el("span", {class: "muted", text: where(dataset) + " · " + dataset.evaluator}));
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
        section.querySelector("h3 .muted").textContent = row.row + " · " + row.evaluator + " ";
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
        text: where(record) + " \u00b7 " + record.evaluator + (record.reason ? " \u00b7 " + record.outcome + ": " + record.reason : "")})]));
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
  if (data.panels.length) {
    page.append(el("h2", {id: "panels", text: "Panels (" + data.panels.length + "): every pair of graders"}));
    for (const panel of data.panels) page.append(panelSection(panel));
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
