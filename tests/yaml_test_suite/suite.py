"""The YAML test suite's documents, and how a reader's answer for one is judged.

Shared by ``tests/test_casefiles_yaml_suite.py`` and ``benchmarks/bench_yaml_suite.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_rubric.core.compare import json_equal

KINDS = ("equal", "refused", "wrong", "accepted-invalid")
Reader = Callable[[str], "list[Any] | str"]
"""A reader: the documents it read from a text, or the text of its refusal."""


def documents() -> list[dict[str, Any]]:
    path = Path(__file__).with_name("documents.json")
    found: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return found


def meanings(stream: str) -> list[Any]:
    """The values a suite's JSON stream holds, one per document."""
    decoder, at = json.JSONDecoder(), 0
    values: list[Any] = []
    while True:
        while at < len(stream) and stream[at] in " \t\r\n":
            at += 1
        if at == len(stream):
            return values
        value, at = decoder.raw_decode(stream, at)
        values.append(value)


def judge(document: dict[str, Any], read: Reader) -> tuple[str, str]:
    """``(kind, detail)`` for what ``read`` made of ``document``: one of :data:`KINDS`."""
    got = read(document["yaml"])
    if isinstance(got, str):
        return "refused", got
    if document["fail"]:
        return "accepted-invalid", repr(got)
    if document["json"] is None:
        return "wrong", f"read as {got!r}; the suite gives no JSON for it"
    want = meanings(document["json"])
    if len(got) == len(want) and all(json_equal(g, w) for g, w in zip(got, want, strict=True)):
        return "equal", ""
    return "wrong", f"read as {got!r}, the suite says {want!r}"
