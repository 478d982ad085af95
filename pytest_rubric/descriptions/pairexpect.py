"""What a case may say of a panel's pairs: ``expected_pairs``, each pair's whole answer by
the pair's name (``judge vs editor``), given alone. This module does not import pytest."""

from __future__ import annotations

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import nearest
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.positions import KeyPositions, Places, Report


def pair_expectations(
    case: dict[str, JSON], ledger: Ledger | None, keys: KeyPositions, refuse: Report
) -> JSON:
    """The case's ``expected_pairs``, after refusing what ``expected_pairs`` may not be (``keys``: where the case file writes
    each mapping's keys): a mapping of the panel's pair names, each to a pair's whole answer, given
    alone (neither ``expected`` nor ``expected_subset`` beside it)."""
    value = case["expected_pairs"]
    places = Places(case, (0, 0), keys)
    for other in ("expected", "expected_subset"):
        if other in case:
            refuse(
                places.key(other),
                f"the case gives both 'expected_pairs' and '{other}'; keep one of them "
                "('expected_subset' holds for every pair)",
            )
    if ledger is not None and ledger.panel is None:
        refuse(
            places.key("expected_pairs"),
            "'expected_pairs' pins the answers of a panel's pairs, and this case's ledger "
            "has no 'panel'; write 'expected:' instead, or the graders as 'panel: [X, Y, ...]'",
        )
        return value
    if not isinstance(value, dict):
        refuse(
            places.value("expected_pairs"),
            f"'expected_pairs' must be a mapping of pair names to answers, not "
            f"{describe(value)}; write e.g. \"expected_pairs: {{'judge vs editor': {{...}}}}\"",
        )
        return value
    if ledger is None or ledger.panel is None:
        return value  # the ledger's own problem, told where it is written
    panel = ledger.panel
    names = [panel.pair_name(x, y) for x, y in panel.pairs()]
    pair_places = Places(value, places.value("expected_pairs"), keys)
    for name, answer in value.items():
        if name not in names:
            close = nearest(name, names)
            refuse(
                pair_places.key(name),
                f"'expected_pairs' names {escape_controls(repr(name))}, which is no pair of "
                "the panel; "
                + (f"did you mean {close!r}?" if close else f"the pairs are: {', '.join(names)}"),
            )
        elif not isinstance(answer, dict):
            refuse(
                pair_places.value(name),
                f"the answer of the pair {escape_controls(repr(name))} must be a mapping, "
                f"not {describe(answer)}",
            )
    return value
