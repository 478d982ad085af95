"""A run's suite: the rubric cases it collected, and the digest that tells suites apart."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from pytest_rubric.reports.caserecords import text
from pytest_rubric.reports.records import SuiteRecord


def suite_digest(nodeids: Iterable[str]) -> str:
    """``sha256:<hex>`` of the sorted node IDs: equal exactly when the suites are."""
    shown = json.dumps(sorted(nodeids), ensure_ascii=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(shown.encode("ascii")).hexdigest()


def suite_record(collected: Iterable[str], selected: int) -> SuiteRecord:
    """The suite of a run that collected the node IDs ``collected`` and kept ``selected``
    of them; the IDs are made plain as case records make theirs, so the two compare."""
    nodeids = sorted({text(nodeid) or "" for nodeid in collected})
    return {
        "collected": len(nodeids),
        "digest": suite_digest(nodeids),
        "nodeids": nodeids,
        "selected": selected,
    }
