"""A case's ``ledger:`` block as the case cache writes it and reads it back: every field's
type checked, so that a damaged or forged entry is a miss (the file is read again), never
a value that breaks the case later."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_rubric.casefiles import cache
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.ledger import Ledger, from_json

LEDGER = Ledger(
    id=KeyPath(("task", "id"), (5, 15), "task.id"),
    a=KeyPath(("judge",), (5, 27), "judge"),
    b=KeyPath(("editor",), (5, 37), "editor"),
    labels=(("PASS", True), ("FAIL", False), (1, True), (None, False)),
    graders=("judge", "editor"),
    labels_at=(5, 50),
)
PER_JUDGEMENT = Ledger(
    id=KeyPath(("id",), (5, 15), "id"),
    a=KeyPath(("a",), (5, 20), "a"),
    b=KeyPath(("b",), (5, 25), "b"),
    per_judgement=True,
    grader=KeyPath(("who",), (6, 15), "who"),
    label=KeyPath(("says",), (6, 25), "says"),
    a_name="alice",
    b_name=7,
)


@pytest.mark.parametrize("ledger", [LEDGER, PER_JUDGEMENT], ids=["labels", "per-judgement"])
def test_a_ledger_reads_back_as_written(ledger: Ledger) -> None:
    assert from_json(json.loads(json.dumps(ledger.to_json()))) == ledger


def _forged(base: Ledger, field: str, value: Any) -> dict[str, Any]:
    written: dict[str, Any] = copy.deepcopy(base.to_json())
    if field.startswith("labels"):
        index, side = (int(part) for part in field.split(".")[1:])
        written["labels"][index][side] = value
    elif field.startswith("id."):
        written["id"][int(field.split(".")[1])] = value
    else:
        written[field] = value
    return written


FORGED = {
    "a label that is a mapping": (LEDGER, "labels.0.0", {"PASS": True}),
    "a label that is a list": (LEDGER, "labels.2.0", [1]),
    "a meaning that is a mapping": (LEDGER, "labels.1.1", {"x": False}),
    "labels that are a mapping": (LEDGER, "labels", {"PASS": True}),
    "a label pair of three": (LEDGER, "labels", [["PASS", True, 1], ["FAIL", False]]),
    "a grader's name that is a mapping": (LEDGER, "graders", [{"n": 1}, "editor"]),
    "three graders": (LEDGER, "graders", ["a", "b", "c"]),
    "a grader value that is a mapping": (PER_JUDGEMENT, "a_name", {"alice": 1}),
    "a grader value that is a list": (PER_JUDGEMENT, "b_name", [7]),
    "a grader value that is a Boolean": (PER_JUDGEMENT, "b_name", True),
    "a key path part that is a mapping": (LEDGER, "id.0", [{"task": 1}]),
    "a key path's place that is text": (LEDGER, "id.1", ["5", 15]),
    "a key path that is text": (LEDGER, "id", "task.id"),
    "labels_at that is a mapping": (LEDGER, "labels_at", {"line": 5}),
    "per_judgement that is a number": (LEDGER, "per_judgement", 0),
}


@pytest.mark.parametrize(("base", "field", "value"), FORGED.values(), ids=FORGED.keys())
def test_a_forged_field_is_refused_when_read_back(base: Ledger, field: str, value: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        from_json(_forged(base, field, value))


@pytest.mark.parametrize("change", ["missing", "extra"])
def test_a_ledger_with_a_field_missing_or_added_is_refused(change: str) -> None:
    written: dict[str, Any] = dict(LEDGER.to_json())
    if change == "missing":
        del written["labels_at"]
    else:
        written["rows"] = "per-row"
    with pytest.raises((TypeError, ValueError)):
        from_json(written)


# -- on disk: a forged entry is a miss, and the case runs as its file says ----------------------

CASE_FILE = """\
evaluator: agreement
cases:
  - id: week
    input_file: week.csv
    ledger: {id: task, a: judge, b: editor, labels: {PASS: true, FAIL: false}}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 0}, agreement: 1, total: 2,
      disagreements: [B]}
"""


def _entries(pytester: pytest.Pytester) -> list[Path]:
    return sorted((pytester.path / ".pytest_cache" / "d" / "rubric-cases").glob("*.json"))


def _ledgers(value: Any) -> list[dict[str, Any]]:
    """Every ``ledger:`` block an entry's body holds, as written."""
    if isinstance(value, dict):
        return [value] if "labels" in value and "per_judgement" in value else []
    if isinstance(value, list):
        return [found for item in value for found in _ledgers(item)]
    return []


def _forge(entry: Path, label: Any) -> None:
    """The entry with its first label word replaced, its head vouching for the new body
    (as only a deliberate forger would)."""
    head_text, _, body_text = entry.read_text(encoding="utf-8").partition("\n")
    body = json.loads(body_text)
    (ledger,) = _ledgers(body)
    ledger["labels"][0][0] = label
    body_text = json.dumps(body)
    head = json.loads(head_text)
    head["body"] = cache._check(body_text)
    entry.write_text(f"{json.dumps(head)}\n{body_text}", encoding="utf-8")


@pytest.mark.parametrize("label", [{"PASS": True}, ["PASS"]], ids=["mapping", "list"])
def test_a_forged_entry_whose_label_is_a_mapping_is_a_miss(
    pytester: pytest.Pytester, label: Any
) -> None:
    pytester.makefile(".rubric.yaml", c=CASE_FILE)
    (pytester.path / "week.csv").write_text("task,judge,editor\nA,PASS,PASS\nB,PASS,FAIL\n")
    pytester.runpytest().assert_outcomes(passed=1)
    (entry,) = _entries(pytester)
    _forge(entry, label)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    assert "unhashable" not in result.stdout.str()
    # Read again, and written anew as it was.
    (ledger,) = _ledgers(json.loads(entry.read_text(encoding="utf-8").partition("\n")[2]))
    assert ledger["labels"][0][0] == "PASS"
