"""Ledger rows from one JSON document: a top-level array, or the list ``records:`` names,
read as a stream, as strictly as any input, each row named ``file#records[N]``."""

from __future__ import annotations

import gzip
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from _agreement import agreement_case, answer, reviewed, run_agreement
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs import jsondocs
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.jsondocs import document_rows
from pytest_rubric.running.outcome import CASE_ERROR, CaseOutcome
from pytest_rubric.running.runner import run_case


def run_document(folder: Path, name: str, text: str | bytes, ledger: str) -> CaseOutcome:
    """The outcome of an agreement case reading the document ``name`` through ``ledger``."""
    body = f"    input_file: {name}\n    ledger: {ledger}\n"
    assert agreement_case(folder, {name: text}, body).problems == ()
    return run_agreement(folder, {}, body, review_at=name)


def rows_of(text: str, records: str | None = None, chunk: int | None = None) -> list[Any]:
    path = None if records is None else KeyPath(tuple(records.split(".")), (1, 1), records)
    if chunk is None:
        return list(document_rows(io.StringIO(text), "d.json", Cursor(), path))
    saved = jsondocs.CHUNK
    jsondocs.CHUNK = chunk
    try:
        return list(document_rows(io.StringIO(text), "d.json", Cursor(), path))
    finally:
        jsondocs.CHUNK = saved


def case_error(outcome: CaseOutcome) -> str:
    assert outcome.outcome == CASE_ERROR, outcome
    (problem,) = outcome.problems
    return problem


ROWS = st.lists(
    st.fixed_dictionaries(
        {
            "id": st.text(max_size=5),
            "a": st.sampled_from([True, False, "yes", None, 1]),
            "b": st.booleans(),
        },
        optional={
            "note": st.text(max_size=8),
            "n": st.integers() | st.floats(allow_nan=False, allow_infinity=False),
        },
    ),
    max_size=8,
)
LAYOUTS = st.sampled_from([None, 0, 2])  # json.dumps indent: one line, no indent, pretty


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=ROWS, indent=LAYOUTS, wrapper=st.sampled_from(["array", "records", "deep"]))
def test_a_document_a_top_level_array_and_the_same_rows_as_jsonl_give_one_answer(
    rows: list[dict[str, Any]], indent: int | None, wrapper: str
) -> None:
    if wrapper == "array":
        document: Any = rows
        records = ""
    elif wrapper == "records":
        document = {"version": 2, "eval": {"task": "t"}, "samples": rows, "stats": {"n": 1}}
        records = ", records: samples"
    else:
        document = {"results": {"version": 3, "results": rows, "stats": {}}, "config": {}}
        records = ", records: results.results"
    with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
        doc = run_document(
            Path(one), "d.json", json.dumps(document, indent=indent), f"{{id: id{records}}}"
        )
        lines = "".join(json.dumps(row) + "\n" for row in rows)
        plain = run_document(Path(two), "d.jsonl", lines, "{id: id}")
    assert doc.outcome == plain.outcome
    assert doc.actual == plain.actual
    assert doc.problems == plain.problems


@settings(max_examples=100, deadline=None)
@given(
    items=st.lists(
        st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text()
        | st.booleans()
        | st.none()
        | st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
        max_size=6,
    ),
    chunk=st.integers(1, 40),
    indent=LAYOUTS,
)
def test_the_rows_are_the_same_however_the_text_is_cut_into_chunks(
    items: list[Any], chunk: int, indent: int | None
) -> None:
    text = json.dumps({"before": {"x": [1, 2]}, "rows": items, "after": "z"}, indent=indent)
    assert rows_of(text, "rows", chunk) == items


def test_a_number_cut_by_the_end_of_a_chunk_is_read_whole() -> None:
    assert rows_of("[1, 22, 333, 4444, 55555, true, null]", chunk=2) == [
        1,
        22,
        333,
        4444,
        55555,
        True,
        None,
    ]


def test_a_row_is_named_by_its_place_in_the_list(tmp_path: Path) -> None:
    rows = [{"id": "h1", "a": True, "b": True}, {"id": "h2", "a": True, "b": False}]
    outcome = run_document(
        tmp_path, "log.json", json.dumps({"samples": rows}), "{id: id, records: samples}"
    )
    assert outcome.review is not None
    assert reviewed(outcome)[0]["where"] == "log.json#samples[1]"
    top = run_document(tmp_path, "top.json", json.dumps(rows), "{id: id}")
    assert top.review is not None
    assert reviewed(top)[0]["where"] == "top.json#[1]"


def test_records_through_a_list_index(tmp_path: Path) -> None:
    document = {"runs": [{"rows": []}, {"rows": [{"id": "h1", "a": True, "b": True}]}]}
    outcome = run_document(tmp_path, "d.json", json.dumps(document), "{records: runs.1.rows}")
    assert outcome.actual is not None
    assert answer(outcome)["total"] == 1


def test_a_gzipped_document_reads_as_the_plain_one(tmp_path: Path) -> None:
    rows = [{"id": "h1", "a": True, "b": False}]
    outcome = run_document(tmp_path, "d.json.gz", gzip.compress(json.dumps(rows).encode()), "{}")
    assert outcome.actual is not None
    assert answer(outcome)["disagreements"] == ["h1"]


@pytest.mark.parametrize(
    ("text", "ledger", "message"),
    [
        (
            '{"samples": [], "stats": {}}',
            "{records: sample}",
            "c.rubric.yaml:5:23: 'records' 'sample' leads nowhere in d.json: the top level has "
            "no key 'sample' (it has 'samples', 'stats'); did you mean 'samples'?",
        ),
        (
            '{"results": {"results": 3}}',
            "{records: results.results}",
            "c.rubric.yaml:5:23: 'records' 'results.results' leads to 3 (a number) at "
            "d.json:1:25, not a list of rows; name the list that holds one row per case",
        ),
        (
            '{"eval": {}, "samples": [], "reductions": []}',
            "{}",
            "the input is not usable: d.json:1:1: the top level is a mapping, not a list of "
            "rows nor a table of columns and data (which starts with 'columns'); name the list "
            "of rows with 'records:' (lists here: samples, reductions)",
        ),
        (
            '[{"id": "h1", "a": true, "b": true},\n {"id": "h2", "a": tru}]',
            "{}",
            "the input is not usable: d.json:2:20: invalid JSON: Expecting value",
        ),
        (
            '{"samples": [], "x": {"k": 1, "k": 2}}',
            "{records: samples}",
            "the input is not usable: d.json:1:22: in the value that starts here: duplicate key "
            "'k'; keep one of them",
        ),
        (
            '{"samples": [], "samples": []}',
            "{records: samples}",
            "the input is not usable: d.json:1:17: duplicate key 'samples'; keep one of them",
        ),
        (
            '[{"id": "h1", "a": true, "b": NaN}]',
            "{}",
            "the input is not usable: d.json:1:2: in the value that starts here: NaN is not JSON; "
            "write a number or a string",
        ),
        (
            "[] []",
            "{}",
            "the input is not usable: d.json:1:4: more after the document; a .json file holds "
            "one JSON document",
        ),
        (
            "  ",
            "{}",
            "the input is not usable: d.json: the file holds no JSON document (it is empty, or "
            "only whitespace); a .json ledger is one JSON document",
        ),
    ],
    ids=[
        "records-misspelt",
        "records-not-a-list",
        "a-mapping-without-records",
        "invalid-json-in-a-row",
        "a-duplicate-key-in-a-value-skipped",
        "a-duplicate-key-on-the-path",
        "nan",
        "two-documents",
        "empty",
    ],
)
def test_a_document_that_does_not_fit_is_a_case_error_at_its_place(
    tmp_path: Path, text: str, ledger: str, message: str
) -> None:
    assert case_error(run_document(tmp_path, "d.json", text, ledger)) == message


def test_records_on_a_jsonl_ledger_is_refused_at_load(tmp_path: Path) -> None:
    (tmp_path / "d.jsonl").write_text("", encoding="utf-8")
    path = tmp_path / "c.rubric.yaml"
    path.write_text(
        "evaluator: agreement\ncases:\n  - id: x\n    input_file: d.jsonl\n"
        "    ledger: {records: samples}\n    expected: {}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(path, "c.rubric.yaml", root=tmp_path).cases
    assert [str(problem) for problem in case.problems] == [
        "c.rubric.yaml:5:23: ledger 'records' names the list of rows inside a .json document, "
        "but this file is .jsonl, whose rows are its lines already; remove 'records'"
    ]


def test_a_json_input_without_a_ledger_is_still_the_whole_input(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text('{"rows": [{"id": "h1", "a": true, "b": true}]}')
    path = tmp_path / "c.rubric.yaml"
    path.write_text(
        "evaluator: agreement\ncases:\n  - id: x\n    input_file: d.json\n    expected: {}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(path, "c.rubric.yaml", root=tmp_path).cases
    outcome = run_case(case, AGREEMENT, path="c.rubric.yaml", source="")
    assert outcome.actual is not None
    assert answer(outcome)["total"] == 1


def test_a_long_row_is_read_whole_past_the_chunk(tmp_path: Path) -> None:
    note = "x" * (jsondocs.CHUNK * 3)
    rows = [{"id": "h1", "a": True, "b": True, "note": note}, {"id": "h2", "a": True, "b": True}]
    assert rows_of(json.dumps({"rows": rows}), "rows") == rows


def test_reading_stops_with_an_error_not_an_endless_loop_on_a_cut_document() -> None:
    with pytest.raises(RubricInputError, match=r"d.json:1:\d+: invalid JSON"):
        rows_of('{"rows": [{"id": "h1", "a": tr', "rows", chunk=4)


def test_a_fault_early_in_a_long_document_is_named_without_reading_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read: list[int] = []
    rows = ",".join(f'{{"id": "h{n}", "a": true, "b": true}}' for n in range(2000))
    stream = io.StringIO('[{"id" "h0"},' + rows + "]")
    real = stream.read

    def counted(size: int = -1) -> str:
        chunk = real(size)
        read.append(len(chunk))
        return chunk

    monkeypatch.setattr(stream, "read", counted)
    monkeypatch.setattr(jsondocs, "CHUNK", 64)
    with pytest.raises(RubricInputError, match=r"d.json:1:8: invalid JSON: Expecting ':'"):
        list(document_rows(stream, "d.json", Cursor(), None))
    assert sum(read) < 200  # the fault is named where it is, not after the whole file


def test_a_column_is_counted_across_the_text_already_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Label Studio writes its JSON export on one line.
    rows = ",".join(f'{{"id": "h{n}", "a": true, "b": true}}' for n in range(200))
    text = "[" + rows + ',{"id" "bad"}]'
    monkeypatch.setattr(jsondocs, "CHUNK", 50)
    column = text.index('"bad"') + 1
    with pytest.raises(RubricInputError, match=rf"d.json:1:{column}: invalid JSON"):
        list(document_rows(io.StringIO(text), "d.json", Cursor(), None))


def test_a_forgotten_records_reads_the_document_a_scalar_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded: list[int] = []
    real = jsondocs._decode

    def counting(text: str, at: int) -> Any:
        value, end = real(text, at)
        decoded.append(end - at)
        return value, end

    monkeypatch.setattr(jsondocs, "_decode", counting)
    samples = [{"id": f"s{n}", "scores": {"judge": {"value": "C"}}} for n in range(200)]
    text = json.dumps({"eval": {"task": "t"}, "samples": samples, "stats": {}})
    with pytest.raises(RubricInputError, match="lists here: samples"):
        list(document_rows(io.StringIO(text), "d.json", Cursor(), None))
    assert max(decoded) < 20  # no value was decoded whole to say so
