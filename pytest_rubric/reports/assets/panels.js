  // A panel as an N x N grid of its graders: each cell one pair's agreement over its
  // total (or its error), leading to that pair's ledger, where its disagreements are
  // listed with their rows' places. A pair is one cell, shown on both sides of the
  // diagonal; no figure spans pairs.
  function panelSection(panel) {
    const names = panel.graders;
    const head = el("tr", {}, [el("th", {text: ""}), ...names.map((name) => el("th", {text: name}))]);
    const rows = names.map((x, i) => el("tr", {}, [el("th", {text: x}), ...names.map((y, j) => {
      if (i === j) return el("td", {class: "self", text: "\u2014"});
      const pair = panel.pairs[i < j ? x + " vs " + y : y + " vs " + x];
      if (!pair) return el("td", {class: "num muted", text: "not run"});
      const text = pair.error ? pair.error : show(pair.agreement) + " / " + show(pair.total);
      const cell = el("td", {class: "num outcome-" + pair.outcome, title: pair.pair});
      cell.append(pair.ledger === null ? document.createTextNode(text)
        : el("a", {href: "#ledger-" + pair.ledger, text: text}));
      return cell;
    })]));
    return el("section", {class: "panel", id: "panel-" + panel.number}, [
      el("h3", {}, [idNode(panel.case), " ", el("span", {class: "muted", text: panel.file})]),
      el("table", {class: "panel-grid"}, [head, ...rows])]);
  }
