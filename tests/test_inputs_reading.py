"""The inputs room, by calling it: ``open_input``, the rows it hands over, their label
blocks, and the typed notes of what reading found."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from _inputs import input_file_at
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.core.evaluator import Evidence, RowLabel
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.evaluators.agreement import stream_agreement, tally_rows
from pytest_rubric.inputs import pairing
from pytest_rubric.inputs.reading import WholeInput, open_input
from pytest_rubric.inputs.rows import FileRows

WORDS = (("accept", True), ("reject", False))


def key(name: str) -> KeyPath:
    return KeyPath((name,), (1, 1), name)


#: One row per case: task_id, judge, editor, the labels written as words.
MAPPED = Ledger(id=key("task_id"), a=key("judge"), b=key("editor"), labels=WORDS)
#: One row per judgement, by alice (a) and bob (b).
LONG = Ledger(
    id=key("example_id"),
    a=key("a"),
    b=key("b"),
    labels=WORDS,
    per_judgement=True,
    grader=key("_annotator_id"),
    label=key("answer"),
    a_name="alice",
    b_name="bob",
)

EXPORTS: dict[str, tuple[str, str, Ledger | None]] = {
    "plain-jsonl": (
        "l.jsonl",
        "".join(json.dumps({"id": f"r{n}", "a": n % 2 == 0, "b": True}) + "\n" for n in range(5)),
        None,
    ),
    "plain-csv": ("l.csv", "id,a,b\nx,true,false\ny,false,false\n", None),
    "mapped-csv": (
        "l.csv",
        "task_id,judge,editor\nx,accept,reject\ny,accept,maybe\nz,reject,reject\n",
        MAPPED,
    ),
    "long-csv-any-order": (
        "l.csv",
        "example_id,_annotator_id,answer\nlone,bob,accept\nx,alice,accept\ny,alice,reject\n"
        "x,carol,accept\ny,bob,reject\nx,bob,reject\n",
        LONG,
    ),
    "long-jsonl": (
        "l.jsonl",
        "".join(
            json.dumps({"example_id": i, "_annotator_id": who, "answer": w}) + "\n"
            for i, who, w in [("x", "alice", "accept"), ("x", "bob", "yes"), ("y", "bob", "reject")]
        ),
        LONG,
    ),
}


def rows_of(folder: Path, name: str) -> FileRows:
    file_name, text, ledger = EXPORTS[name]
    path = folder / file_name
    path.write_text(text, newline="")
    opened = open_input(input_file_at(path, ledger=ledger), "c.rubric.yaml")
    assert isinstance(opened, FileRows)
    return opened


def read(rows: FileRows, what: str) -> object:
    """One call of the rows: their rows (each with the line it is named at), or blocks."""
    if what == "rows":
        return [(row, rows.handed.line(index)) for index, row in enumerate(rows)]
    return list(rows.label_blocks())


@pytest.mark.parametrize("name", sorted(EXPORTS))
@given(order=st.lists(st.sampled_from(["rows", "blocks"]), min_size=1, max_size=4))
def test_the_rows_and_blocks_are_the_same_whatever_order_they_are_asked_in(
    name: str, order: list[str]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        expected = {what: read(rows_of(Path(folder), name), what) for what in ("rows", "blocks")}
        rows = rows_of(Path(folder), name)
        for what in order:
            assert read(rows, what) == expected[what], what


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_the_notes_of_the_rows_do_not_depend_on_the_blocks_read_before(
    tmp_path: Path, name: str
) -> None:
    alone = rows_of(tmp_path, name)
    list(alone)
    after = rows_of(tmp_path, name)
    list(after.label_blocks())
    list(after)
    list(after)  # a second pass (a repeated ID's first place) adds nothing
    assert after.notes() == alone.notes()


def test_a_whole_json_input_is_read_afresh_for_each_question(tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text('{"rows": [\n{"id": "x", "a": true, "b": false}\n]}')
    opened = open_input(input_file_at(path))
    assert isinstance(opened, WholeInput)
    first = opened.mapping()
    first["rows"].clear()  # type: ignore[union-attr]
    assert opened.mapping() == {"rows": [{"id": "x", "a": True, "b": False}]}
    assert opened.with_row_lines()[1] == [2]


def test_a_label_outside_the_vocabulary_is_noted_at_the_row_handed_over(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, "mapped-csv")
    answer, evidence = tally_rows(rows, rows.where)
    notes = rows.notes()
    assert notes is not None
    assert notes.label() == RowLabel(1, "b") == evidence.about
    assert answer == {"error": "review-label"}
    assert notes.problem() == (
        "l.csv:3: the label of b (id 'y') is \"maybe\" (a string), which is not one of the "
        'ledger\'s labels: "accept" (true), "reject" (false); labels are compared exactly '
        "(no case folding, no trimming): add it to 'labels' if the export means it, or fix the row"
    )
    assert notes.applied_to(evidence) == Evidence(problem=notes.problem(), about=evidence.about)


def test_a_paired_row_holds_the_outside_label_of_its_second_judgement(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, "long-jsonl")
    assert [row for row in rows] == [
        {"id": "x", "a": True, "b": "yes"},
        {"id": "y", "b": False},
    ]
    notes = rows.notes()
    assert notes is not None
    assert notes.outside is not None
    assert notes.outside.where == "l.jsonl:2"
    assert notes.label() == RowLabel(0, "b")


@pytest.mark.parametrize("after", [1, 2, 100])
def test_cases_judged_once_found_midway_give_the_same_rows(tmp_path: Path, after: int) -> None:
    lines = "".join(f"c{n},alice,accept\nc{n},bob,reject\n" for n in range(6))
    text = "example_id,_annotator_id,answer\nlone,bob,accept\nc9,alice,accept\n" + lines
    path = tmp_path / "l.csv"
    path.write_text(text)
    expected = list(FileRows(input_file_at(path, ledger=LONG)))
    with mock.patch.object(pairing, "LONE_AFTER", after):
        rows = FileRows(input_file_at(path, ledger=LONG))
        got = [(row, rows.handed.line(index)) for index, row in enumerate(rows)]
    assert [row for row, _ in got] == expected
    assert got[0] == ({"id": "lone", "b": True}, 2)


def test_agreement_tallies_offered_blocks_and_reads_rows_otherwise(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, "plain-csv")
    plain: Any = [{"id": "x", "a": True, "b": False}, {"id": "y", "a": False, "b": False}]
    assert stream_agreement(rows, rows.where) == stream_agreement(plain, lambda n: f"rows[{n}]")
