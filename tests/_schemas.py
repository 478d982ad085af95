"""The JSON Schema of the comparison document (``pytest-rubric diff``), read as shipped in
the package: the report's own is ``reports.jsonreport.schema()``, which the docs name."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def diff_schema() -> dict[str, Any]:
    """``pytest_rubric/diff.schema.json``, loaded."""
    text = resources.files("pytest_rubric").joinpath("diff.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
