"""The review page's group filter on a grouped ledger (``group_by:`` in its ``ledger:``
block): the groups the report's ``review`` holds, read for the page; ``assets/groups.js``
and ``groups.css`` show them (the script uses the page's el, show, idNode, visibleText,
CELLS, A_ONLY and B_ONLY).

Choosing a group shows its matrix, its agreement over its total and only its
disagreement rows; a table beside the whole ledger lists every group. A row belongs to
the group whose label its ``group`` holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.labelblocks import MATRIX_CELLS


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
                "matrix": {key: cells.get(key) for key in MATRIX_CELLS.values()},
                "agreement": group.get("agreement"),
                "total": group.get("total"),
                "disagreements": len(disagreements) if isinstance(disagreements, list) else 0,
            }
        )
    return {"groupBy": escape_controls(path), "groups": shown}  # invisible characters seen
