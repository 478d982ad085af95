"""A project's records run serially and on two pytest-xdist workers, for tests that hold
the two to be the same."""

from __future__ import annotations

import json
from typing import Any

import pytest

#: What a record says of its case that must not depend on where it ran.
KEPT = ("outcome", "actual", "evidence", "review", "panel")


def serial_and_spread(pytester: pytest.Pytester) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each case's record (:data:`KEPT`) by node ID, of a serial run and of a run on two
    workers of the project in ``pytester``."""
    pytester.runpytest("-p", "no:xdist", "--rubric-report=serial.json")
    pytester.runpytest("-n", "2", "--rubric-report=spread.json")

    def records(name: str) -> dict[str, Any]:
        data = json.loads((pytester.path / name).read_text(encoding="utf-8"))
        return {r["nodeid"]: {k: r.get(k) for k in KEPT} for r in data["cases"]}

    return records("serial.json"), records("spread.json")
