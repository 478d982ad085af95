"""Passes over one file as values: however passes over a reader are interleaved (rows,
blocks, places, groups, notes; whole or cut short), every answer is a fresh reader's."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest
from _inputs import input_file_at
from hypothesis import given, settings
from hypothesis import strategies as st
from test_inputs_reading import EXPORTS, LONG, key

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.joins import JoinedRows
from pytest_rubric.inputs.passes import Handed
from pytest_rubric.inputs.rows import FileRows

DESKS = ("sports", "news", "culture")
#: One row per case, grouped by desk.
GROUPED = Ledger(id=key("id"), a=key("a"), b=key("b"), group_by=KeyPath(("desk",), (1, 1), "desk"))
#: One row per judgement, grouped by desk (a case's group: its first judgement's).
GROUPED_LONG = Ledger(
    id=LONG.id,
    a=LONG.a,
    b=LONG.b,
    labels=LONG.labels,
    per_judgement=True,
    grader=LONG.grader,
    label=LONG.label,
    a_name="alice",
    b_name="bob",
    group_by=KeyPath(("desk",), (1, 1), "desk"),
)


def _grouped_rows() -> str:
    return "".join(
        json.dumps({"id": f"r{n}", "a": n % 3 == 0, "b": n % 2 == 0, "desk": DESKS[n % 3]}) + "\n"
        for n in range(9)
    )


def _grouped_long() -> str:
    lines = ["example_id,_annotator_id,answer,desk"]
    for n in range(6):
        lines.append(f"c{n},alice,{'accept' if n % 2 else 'reject'},{DESKS[n % 3]}")
        lines.append(f"c{n},bob,accept,{DESKS[(n + 1) % 3]}")
    return "\n".join(lines) + "\n"


FILES: dict[str, tuple[str, str, Ledger | None]] = {
    **EXPORTS,
    "grouped-jsonl": ("g.jsonl", _grouped_rows(), GROUPED),
    "grouped-long-csv": ("g.csv", _grouped_long(), GROUPED_LONG),
}
FOLDER = Path(tempfile.mkdtemp(prefix="rubric-passes-"))
#: A pass of rows read to its end (a pass cut short after its last row is not).
WHOLE = -1


def _reader(name: str) -> FileRows:
    file_name, text, ledger = FILES[name]
    path = FOLDER / name / file_name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, newline="")
    return FileRows(input_file_at(path, ledger=ledger), "c.rubric.yaml")


class Fresh:
    """What fresh readers answer: each question asked of a reader that did nothing else."""

    def __init__(self, name: str) -> None:
        self.rows = list(_reader(name))
        self.blocks = list(_reader(name).label_blocks())
        read = _reader(name)
        list(read)
        self.read = read
        self.unread = _reader(name)

    def where(self, index: int, reached: int) -> str:
        return (self.read if index < reached else self.unread).where(index)

    def group(self, index: int, reached: int) -> str | None:
        return (self.read if index < reached else self.unread).group(index)


#: One step: a whole pass of rows, a pass of rows cut after N, a pass of blocks, the place
#: or group of row N, or the notes.
STEPS = st.one_of(
    st.just(("rows", 0)),
    st.tuples(st.just("some"), st.integers(0, 12)),
    st.just(("blocks", 0)),
    st.tuples(st.sampled_from(["where", "group"]), st.integers(-1, 13)),
    st.just(("notes", 0)),
)


@pytest.mark.parametrize("name", sorted(FILES))
@settings(max_examples=40, deadline=None)
@given(steps=st.lists(STEPS, max_size=8))
def test_interleaved_passes_answer_as_fresh_readers_do(
    name: str, steps: list[tuple[str, int]]
) -> None:
    fresh = Fresh(name)
    reader = _reader(name)
    open_passes: list[Iterator[object]] = []
    reached = 0  # rows any pass handed over
    blocks_taken = False
    first_cut: int | None = None  # the first pass of rows: how far it went (or WHOLE)
    for what, number in steps:
        if what == "rows":
            assert list(reader) == fresh.rows
            reached = len(fresh.rows)
            first_cut = WHOLE if first_cut is None else first_cut
        elif what == "some":
            rows = iter(reader)
            open_passes.append(rows)  # left open, as a tally that stops early leaves it
            taken = list(islice(rows, number))
            assert taken == fresh.rows[:number]
            reached = max(reached, len(taken))
            ended = len(taken) < number  # asked past the last row: read to its end
            cut = WHOLE if ended else len(taken)
            first_cut = cut if first_cut is None else first_cut
        elif what == "blocks":
            assert list(reader.label_blocks()) == fresh.blocks
            blocks_taken = True
        elif what == "where":
            assert reader.where(number) == fresh.where(number, reached)
        elif what == "group":
            assert reader.group(number) == fresh.group(number, reached)
        else:
            assert reader.notes() == _notes_after(name, first_cut, blocks_taken)


def _notes_after(name: str, first_cut: int | None, blocks: bool) -> object:
    """The notes of a fresh reader whose first pass of rows went as far, after a pass of
    blocks where one was taken (whose notes those of rows outrank)."""
    reader = _reader(name)
    if blocks:
        list(reader.label_blocks())
    if first_cut == WHOLE:
        list(reader)
    elif first_cut is not None:
        list(islice(iter(reader), first_cut))
    return reader.notes()


def test_a_row_is_placed_and_grouped_by_its_index_not_by_the_row_read_last() -> None:
    reader = _reader("grouped-jsonl")
    rows = iter(reader)
    next(rows), next(rows), next(rows)
    assert reader.where(0) == "g.jsonl:1 rows[0]"
    assert reader.where(2) == "g.jsonl:3 rows[2]"
    assert reader.where(7) == "g.jsonl rows[7]"  # no pass has reached it
    assert [reader.group(index) for index in range(4)] == ["sports", "news", "culture", None]
    again = iter(reader)
    next(again)
    assert reader.where(2) == "g.jsonl:3 rows[2]"  # a new pass moves no answer


def test_a_join_names_each_row_by_its_own_side_and_group(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(
        '{"id": "x", "v": true, "desk": "news"}\n{"id": "y", "v": false, "desk": "sports"}\n'
    )
    (tmp_path / "b.csv").write_text("id,v\ny,true\nz,false\n")
    (tmp_path / "c.rubric.yaml").write_text(
        "evaluator: agreement\ncases:\n  - id: j\n    ledger:\n"
        "      a: {input_file: a.jsonl, id: id, label: v}\n"
        "      b: {input_file: b.csv, id: id, label: v}\n"
        "      group_by: desk\n    expected: {}\n"
    )
    (case,) = load_case_file(tmp_path / "c.rubric.yaml", "c.rubric.yaml", root=tmp_path).cases
    assert case.input_file is not None
    joined = JoinedRows(case.input_file, "c.rubric.yaml")
    assert [row["id"] for row in joined if type(row) is dict] == ["x", "y", "z"]
    assert [joined.where(index) for index in range(4)] == [
        "a.jsonl:1 rows[0]",
        "a.jsonl:2 rows[1]",
        "b.csv:3 rows[2]",
        f"{joined.display} rows[3]",
    ]
    assert [joined.group(index) for index in range(3)] == ["news", "sports", "(no desk)"]


def test_the_record_holds_a_number_a_row() -> None:
    handed = Handed(grouped=False)
    at = Cursor()

    def rows() -> Iterator[JSON]:
        for line in (2, 5, 9):
            at.position = line
            at.row_line = 4 if line == 9 else None  # a case named by its first judgement
            yield {"line": line}

    assert list(handed.over(rows(), at, None)) == [{"line": 2}, {"line": 5}, {"line": 9}]
    assert [handed.line(index) for index in (-1, 0, 1, 2, 3)] == [None, 2, 5, 4, None]
    assert [handed.group(index) for index in (0, 2, 3)] == [None, None, None]
