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
      return [...CELLS.map((key) => el("td", {class: "num", text: show(of.matrix[key])})),
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
      el("tr", {}, [ledger.groupBy, ...CELLS, "agreement", "disagreements"]
        .map((text) => el("th", {text: text}))),
      ...rows,
      el("tr", {class: "whole"}, [el("th", {text: "whole ledger"}),
        ...counts(whole, (whole.matrix[A_ONLY] || 0) + (whole.matrix[B_ONLY] || 0))])]);
    function pick(value) {
      select.value = value;
      rows.forEach((row, index) => row.classList.toggle("chosen", String(index) === value));
      choose(value === "" ? null : Number(value));
    }
    select.addEventListener("change", () => pick(select.value));
    return el("div", {class: "group-box"}, [
      el("label", {}, ["Group by " + ledger.groupBy + ": ", select]), table]);
  }
