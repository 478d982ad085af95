"""A case's ``ledger:`` and ``dataset:`` blocks as the case cache writes them and reads them
back: every field's type checked, so that a damaged or forged entry is a miss (the file is
read again), never a value that breaks the case later."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_rubric.casefiles import cache, casecodec
from pytest_rubric.casefiles.casecodec import Record
from pytest_rubric.descriptions.dataset import Dataset
from pytest_rubric.descriptions.join import Side
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.selection import Selection
from pytest_rubric.inputs.inputpaths import InputFiles

FILES = InputFiles(Path("x"), "x", None)

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


SELECTED = Selection(
    records=KeyPath(("results", "results"), (7, 12), "results.results"),
    where=((KeyPath(("status",), (8, 12), "status"), {"x": [1, None]}),),
    ids_as_text=True,
)
JOINED = Ledger(
    id=KeyPath(("id",), (5, 15), "id"),
    a=KeyPath(("verdict",), (5, 20), "verdict"),
    b=KeyPath(("pass",), (6, 20), "pass"),
    labels=(("yes", True), ("no", False)),
    join=(
        Side(
            "a.json",
            (5, 9),
            KeyPath(("id",), (5, 15), "id"),
            KeyPath(("verdict",), (5, 20), "verdict"),
            None,
            (5, 9),
            SELECTED,
        ),
        Side(
            "b.csv",
            (6, 9),
            KeyPath(("id",), (6, 15), "id"),
            KeyPath(("pass",), (6, 20), "pass"),
            ((1, True), (0, False)),
            (6, 30),
            Selection(),
        ),
    ),
    group_by=KeyPath(("meta", "0"), (9, 12), "meta.0"),
)
DATASETS = Dataset(
    id=KeyPath(("id",), (4, 9), "id"),
    input=(
        ("fields", (("title", KeyPath(("checks", "title"), (5, 20), "checks.title")),)),
        ("pass", KeyPath(("verdict",), (6, 11), "verdict")),
    ),
    expected=None,
    labels=(("PASS", True), (None, False)),
    split=(("reasons", ";"),),
    selection=SELECTED,
    at=(3, 5),
    file_at=(4, 11),
)


def _round_trip(record: Record, value: Any) -> Any:
    return record.load([json.loads(json.dumps(record.dump(value)))], FILES)[0]


@pytest.mark.parametrize(
    "ledger", [LEDGER, PER_JUDGEMENT, JOINED], ids=["labels", "per-judgement", "join"]
)
def test_a_ledger_reads_back_as_written(ledger: Ledger) -> None:
    assert _round_trip(casecodec.LEDGER, ledger) == ledger


def test_a_dataset_reads_back_as_written() -> None:
    assert _round_trip(casecodec.DATASET, DATASETS) == DATASETS
    path_only = Dataset(id=DATASETS.id, input=KeyPath(("row",), (5, 9), "row"))
    assert _round_trip(casecodec.DATASET, path_only) == path_only


@pytest.mark.parametrize(
    "record",
    [casecodec.KEY_PATH, casecodec.SELECTION, casecodec.SIDE, casecodec.LEDGER, casecodec.DATASET],
    ids=lambda r: r.cls.__name__,
)
def test_the_codec_names_every_field_of_each_block_once(record: Record) -> None:
    written = [name for name, _ in record.rows]
    assert sorted(written) == sorted(field.name for field in dataclasses.fields(record.cls))


def _at(record: Record, name: str) -> int:
    return [row for row, _ in record.rows].index(name)


def _forged(base: Ledger, field: str, value: Any) -> list[Any]:
    written: list[Any] = copy.deepcopy(json.loads(json.dumps(casecodec.LEDGER.dump(base))))
    if field.startswith("labels."):
        index, side = (int(part) for part in field.split(".")[1:])
        written[_at(casecodec.LEDGER, "labels")][index][side] = value
    elif field.startswith("id."):
        written[_at(casecodec.LEDGER, "id")][_at(casecodec.KEY_PATH, field.split(".")[1])] = value
    else:
        written[_at(casecodec.LEDGER, field)] = value
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
    "a key path part that is a mapping": (LEDGER, "id.parts", [{"task": 1}]),
    "a key path part that is empty": (LEDGER, "id.parts", ["task", ""]),
    "a key path of no part": (LEDGER, "id.parts", []),
    "a key path's place that is text": (LEDGER, "id.at", ["5", 15]),
    "a key path that is text": (LEDGER, "id", "task.id"),
    "labels_at that is a mapping": (LEDGER, "labels_at", {"line": 5}),
    "per_judgement that is a number": (LEDGER, "per_judgement", 0),
    "a side that is no side": (LEDGER, "side", "c"),
    "a join of one side": (LEDGER, "join", [None]),
    "a group_by that is text": (LEDGER, "group_by", "meta.category"),
}


@pytest.mark.parametrize(("base", "field", "value"), FORGED.values(), ids=FORGED.keys())
def test_a_forged_field_is_refused_when_read_back(base: Ledger, field: str, value: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        casecodec.LEDGER.load([_forged(base, field, value)], FILES)


@pytest.mark.parametrize("change", ["missing", "extra"])
def test_a_ledger_with_a_field_missing_or_added_is_refused(change: str) -> None:
    written: list[Any] = list(casecodec.LEDGER.dump(LEDGER))
    if change == "missing":
        del written[_at(casecodec.LEDGER, "labels_at")]
    else:
        written.append("per-row")
    with pytest.raises((TypeError, ValueError)):
        casecodec.LEDGER.load([written], FILES)


def _dataset_with(field: str, value: Any) -> list[Any]:
    written: list[Any] = json.loads(json.dumps(casecodec.DATASET.dump(DATASETS)))
    written[_at(casecodec.DATASET, field)] = value
    return written


DATASET_FORGED = {
    "an input template of no key": ("input", {"keys": []}),
    "an input template that is a path as text": ("input", {"path": "verdict"}),
    "an input key that is a number": ("input", {"keys": [[1, {"path": [["a"], [1, 1], "a"]}]]}),
    "a split with an empty separator": ("split", [["reasons", ""]]),
    "a label that is a list": ("labels", [[["PASS"], True]]),
    "a place of three numbers": ("at", [3, 5, 1]),
}


@pytest.mark.parametrize(("field", "value"), DATASET_FORGED.values(), ids=DATASET_FORGED.keys())
def test_a_forged_dataset_field_is_refused_when_read_back(field: str, value: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        casecodec.DATASET.load([_dataset_with(field, value)], FILES)


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


def _ledgers(body: Any) -> list[list[Any]]:
    """Every ``ledger:`` block an entry's body holds, as written."""
    cases = body[_at(casecodec.CASE_FILE, "cases")]
    files = [case[_at(casecodec.CASE, "input_file")] for case in cases]
    return [written[1] for written in files if written is not None and written[1] is not None]


def _forge(entry: Path, label: Any) -> None:
    """The entry with its first label word replaced, its head vouching for the new body
    (as only a deliberate forger would)."""
    head_text, _, body_text = entry.read_text(encoding="utf-8").partition("\n")
    body = json.loads(body_text)
    (ledger,) = _ledgers(body)
    ledger[_at(casecodec.LEDGER, "labels")][0][0] = label
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
    assert ledger[_at(casecodec.LEDGER, "labels")][0][0] == "PASS"
