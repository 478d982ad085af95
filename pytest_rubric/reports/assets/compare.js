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
    const none = comparison.compared ? "" : "Nothing was compared: no case ran both in the baseline and in this run.";
    nodes.push(el("p", {class: "counts", text: parts.length ? parts.join(", ") + ". " + none
      : none || "Nothing changed since the baseline."}));
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
    const cells = CELLS.map((key) => key + " " + show(before.matrix[key]) + " \u2192 " +
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
