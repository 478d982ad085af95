"""Tables kept as columns and data (pandas' ``to_json(orient="split")``, MLflow's
``eval_results_table.json``): each row a mapping from the column names, read by ``ledger:``
(per case and per judgement), by both sides of a join and by ``dataset:``."""

from __future__ import annotations

import gzip
import io
import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from _agreement import agreement_case, answer, reviewed, run_agreement
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.inputs import jsondocs
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.jsondocs import document_rows
from pytest_rubric.running.datasetcases import dataset_cases
from pytest_rubric.running.outcome import CASE_ERROR, CaseOutcome

TOOLS = Path(__file__).resolve().parent.parent / "docs" / "demos" / "tools"


def split(rows: list[dict[str, Any]], columns: list[str], index: bool = False) -> dict[str, Any]:
    """``rows`` as pandas writes them with ``orient="split"``."""
    table: dict[str, Any] = {"columns": columns}
    if index:
        table["index"] = list(range(len(rows)))
    table["data"] = [[row[name] for name in columns] for row in rows]
    return table


def run(folder: Path, name: str, text: str | bytes, ledger: str) -> CaseOutcome:
    body = f"    input_file: {name}\n    ledger: {ledger}\n"
    assert agreement_case(folder, {name: text}, body).problems == ()
    return run_agreement(folder, {}, body, review_at=name)


def case_error(outcome: CaseOutcome) -> str:
    assert outcome.outcome == CASE_ERROR, outcome
    (problem,) = outcome.problems
    return problem


def rows_of(text: str, records: str | None = None, chunk: int | None = None) -> list[Any]:
    path = None if records is None else KeyPath(tuple(records.split(".")), (1, 1), records)
    saved = jsondocs.CHUNK
    jsondocs.CHUNK = chunk or saved
    try:
        return list(document_rows(io.StringIO(text), "d.json", Cursor(), path))
    finally:
        jsondocs.CHUNK = saved


def placeless(value: object) -> str:
    """``value`` as text, each row's place (``d.jsonl:3``, ``d.json#samples[2]``) as its
    number from 0: the one thing a table and its rows as JSON Lines name differently."""
    text = re.sub(r"d\.jsonl:(\d+)", lambda found: f"ROW{int(found[1]) - 1}", repr(value))
    return re.sub(r"d\.json(?:\.gz)?#[\w.]*\[(\d+)\]", r"ROW\1", text)


CELLS = (
    st.text(max_size=4)
    | st.sampled_from(['],["x', '"]', "],", "\\", "PASS", "FAIL"])
    | st.booleans()
    | st.none()
    | st.integers(-5, 5)
    | st.lists(st.integers(0, 3), max_size=2)
)
ROWS = st.lists(
    st.fixed_dictionaries(
        {
            "id": st.text(max_size=3) | st.integers(0, 3),
            "a": st.sampled_from([True, False, "PASS", "FAIL", None, 1]),
            "b": st.booleans() | st.sampled_from(["PASS", "FAIL"]),
            "note": CELLS,
            "desk": st.sampled_from(["x", "y"]),
        }
    ),
    max_size=8,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=ROWS,
    index=st.booleans(),
    indent=st.sampled_from([None, 2]),
    where=st.sampled_from(["top", "records", "gzip"]),
    ledger=st.sampled_from(
        ["{id: id}", "{id: id, labels: {PASS: true, FAIL: false}, group_by: desk}"]
    ),
)
def test_a_table_and_the_same_rows_as_jsonl_give_one_answer_evidence_and_review(
    rows: list[dict[str, Any]], index: bool, indent: int | None, where: str, ledger: str
) -> None:
    columns = ["id", "a", "b", "note", "desk"]
    table = split(rows, columns, index)
    name, records, document = "d.json", "", json.dumps(table, indent=indent)
    if where == "records":
        records = ", records: results"
        document = json.dumps({"version": 1, "results": table, "after": [1]}, indent=indent)
    content: str | bytes = document
    if where == "gzip":
        name, content = "d.json.gz", gzip.compress(document.encode())
    with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
        doc = run(Path(one), name, content, ledger[:-1] + records + "}")
        # The same rows, their keys in the columns' order (a review shows them so).
        lines = "".join(json.dumps({name: row[name] for name in columns}) + "\n" for row in rows)
        plain = run(Path(two), "d.jsonl", lines, ledger)
    assert doc.outcome == plain.outcome
    assert doc.actual == plain.actual
    assert doc.problems == plain.problems
    assert placeless(doc.evidence) == placeless(plain.evidence)
    assert placeless(doc.review) == placeless(plain.review)


@settings(max_examples=100, deadline=None)
@given(
    cells=st.lists(st.lists(CELLS, min_size=2, max_size=2), max_size=8),
    chunk=st.integers(1, 40),
    indent=st.sampled_from([None, 0, 2]),
)
def test_a_tables_rows_are_the_same_however_the_text_is_cut_into_chunks(
    cells: list[list[Any]], chunk: int, indent: int | None
) -> None:
    table = {"columns": ["x", "y"], "index": list(range(len(cells))), "data": cells}
    text = json.dumps({"before": [1], "t": table}, indent=indent)
    assert rows_of(text, "t", chunk) == [{"x": x, "y": y} for x, y in cells]


def test_a_row_is_named_by_its_place_among_the_tables_rows(tmp_path: Path) -> None:
    table = {"columns": ["id", "a", "b"], "data": [["h1", True, True], ["h2", True, False]]}
    outcome = run(tmp_path, "t.json", json.dumps(table), "{}")
    assert reviewed(outcome)[0]["where"] == "t.json#[1]"
    assert answer(outcome)["disagreements"] == ["h2"]


def test_one_row_per_judgement(tmp_path: Path) -> None:
    table = {
        "columns": ["item", "rater", "verdict"],
        "data": [
            ["h1", "ann", "PASS"],
            ["h1", "bo", "PASS"],
            ["h2", "ann", "FAIL"],
            ["h2", "bo", "PASS"],
        ],
    }
    ledger = "{rows: per-judgement, id: item, grader: rater, label: verdict, a: ann, b: bo, labels: {PASS: true, FAIL: false}}"
    outcome = run(tmp_path, "t.json", json.dumps(table), ledger)
    assert answer(outcome)["matrix"] == {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 1}


def test_both_sides_of_a_join(tmp_path: Path) -> None:
    judge = {"columns": ["case", "verdict"], "index": [0, 1], "data": [["h1", True], ["h2", False]]}
    desk = {"columns": ["hid", "label"], "data": [["h2", "PASS"], ["h1", "PASS"]]}
    body = (
        "    ledger:\n"
        "      a: {input_file: judge.json, id: case, label: verdict}\n"
        "      b: {input_file: desk.json.gz, id: hid, label: label, labels: {PASS: true, FAIL: false}}\n"
    )
    files: dict[str, str | bytes] = {
        "judge.json": json.dumps(judge),
        "desk.json.gz": gzip.compress(json.dumps(desk).encode()),
    }
    outcome = run_agreement(tmp_path, files, body)
    assert answer(outcome)["disagreements"] == ["h2"]


def test_a_dataset_reads_a_tables_rows_as_cases(tmp_path: Path) -> None:
    table = {
        "columns": ["case_id", "headline", "verdict"],
        "data": [["h1", "Storm", True], ["h2", "Vote", False]],
    }
    (tmp_path / "log.json").write_text(json.dumps(table), encoding="utf-8")
    path = tmp_path / "d.rubric.yaml"
    path.write_text(
        "evaluator: agreement\ncases:\n  - id: rows\n    dataset: {file: log.json, id: case_id, "
        "input: {id: case_id, a: verdict, b: verdict}}\n    expected_subset: {total: 1}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(path, "d.rubric.yaml", root=tmp_path).cases
    cases = list(dataset_cases(case, "d.rubric.yaml"))
    assert [case.name for case in cases] == ["rows[h1]", "rows[h2]"]
    assert cases[0].input == {"id": "h1", "a": True, "b": True}


def test_the_files_pandas_and_mlflow_wrote(tmp_path: Path) -> None:
    for name in ("pandas-split.json", "mlflow-eval_results_table.json"):
        shutil.copy(TOOLS / name, tmp_path / name)
    labels = "labels: {PASS: true, FAIL: false}"
    mlflow = run(
        tmp_path,
        "mlflow-eval_results_table.json",
        (TOOLS / "mlflow-eval_results_table.json").read_text(encoding="utf-8"),
        f"{{id: case_id, a: predictions, b: ground_truth, {labels}, where: {{'[agrees/score]': 0}}}}",
    )
    assert answer(mlflow)["disagreements"] == ["h5", "h8"]
    assert answer(mlflow)["total"] == 2
    pandas = run(
        tmp_path,
        "pandas-split.json",
        (TOOLS / "pandas-split.json").read_text(encoding="utf-8"),
        "{id: case_id, a: judge, b: desk, labels: [[PASS, true], [FAIL, false], [true, true], "
        "[false, false]], group_by: desk_section}",
    )
    assert answer(pandas)["disagreements"] == ["h5", "h8"]
    assert pandas.outcome != CASE_ERROR


@pytest.mark.parametrize(
    ("document", "ledger", "message"),
    [
        (
            {"columns": ["id", "a", "b"], "data": [["h1", True, True], ["h2", True]]},
            "{}",
            "the input is not usable: d.json#[1]: the table's row holds 2 values, but the "
            "table has 3 columns; give each row one value a column (id, a, b)",
        ),
        (
            {"columns": ["id", "a", "b"], "data": [{"id": "h1", "a": True, "b": True}]},
            "{}",
            'the input is not usable: d.json#[0]: the table\'s row is {"id": "h1", "a": true, '
            '"b": true} (a mapping), not a list of values; give each row one value a column '
            "(id, a, b)",
        ),
        (
            {"columns": ["id", "a", "a"], "data": []},
            "{}",
            "the input is not usable: d.json:1:13: the table names the column 'a' twice "
            "(columns 1 and 2); give each column its own name",
        ),
        (
            {"columns": ["id", "a", None], "data": []},
            "{}",
            "the input is not usable: d.json:1:13: the table's column 2 is empty (null); a column is "
            "named by text (a MultiIndex is flattened first: df.columns = ['_'.join(c) for c "
            "in df.columns])",
        ),
        (
            {"columns": ["case", "judge", "desk"], "data": []},
            "{id: case, a: judge, b: desks}",
            "c.rubric.yaml:5:37: ledger 'b' names the column 'desks', which d.json's table does "
            "not have (it has case, judge, desk); did you mean 'desk'?",
        ),
        (
            {"columns": ["id", "a", "b.v2"], "data": []},
            "{b: b.v2}",
            "c.rubric.yaml:5:17: ledger 'b' is the key path 'b.v2', each dot a step into a "
            "value, but d.json's table holds 'b.v2' as one name; write it in the list form "
            "'b: [b.v2]'",
        ),
        (
            {"columns": ["id", "a", "b"], "kind": "x", "data": []},
            "{}",
            "the input is not usable: d.json:1:31: a table of columns and data holds 'columns', "
            "'data' and (pandas) 'index', not 'kind'",
        ),
        (
            {"columns": ["id", "a", "b"]},
            "{}",
            "the input is not usable: d.json:1:30: the table has no 'data'; a table of columns "
            "and data holds 'columns', 'data' and (pandas) 'index'",
        ),
        (
            {"index": [0], "data": [["h1", True, True]], "columns": ["id", "a", "b"]},
            "{}",
            "the input is not usable: d.json:1:23: the table's 'data' comes before its "
            "'columns'; write the 'columns' first, as pandas and MLflow do",
        ),
    ],
    ids=[
        "a-short-row",
        "a-mapping-row",
        "a-column-twice",
        "a-column-not-text",
        "a-column-the-table-lacks",
        "a-dotted-column",
        "another-key",
        "no-data",
        "data-before-columns",
    ],
)
def test_a_table_that_does_not_fit_is_a_case_error_at_its_place(
    tmp_path: Path, document: dict[str, Any], ledger: str, message: str
) -> None:
    assert case_error(run(tmp_path, "d.json", json.dumps(document), ledger)) == message


@pytest.mark.parametrize(
    ("document", "ledger", "message"),
    [
        (
            {"columns": ["id", "a", "b"], "data": [["h1", True, True]]},
            "{records: data}",
            "c.rubric.yaml:5:23: ledger 'records' 'data' leads to rows that are lists: "
            "d.json#data[0] is a list, not a mapping",
        ),
        (
            [["h1", True, True]],
            "{id: case}",
            "c.rubric.yaml:5:18: ledger 'id' 'case' cannot name a value of a list row: d.json#[0] "
            "is a list, not a mapping",
        ),
    ],
    ids=["records-naming-the-data", "a-top-level-list-of-lists"],
)
def test_a_list_row_without_a_table_is_a_problem_of_the_description(
    tmp_path: Path, document: Any, ledger: str, message: str
) -> None:
    problem = case_error(run(tmp_path, "d.json", json.dumps(document), ledger))
    assert problem.startswith(message)
    assert "name the mapping that holds both with 'records'" in problem


def test_a_list_row_of_a_dataset_is_a_problem_of_its_block(tmp_path: Path) -> None:
    (tmp_path / "log.json").write_text(json.dumps([["h1", "x"]]), encoding="utf-8")
    path = tmp_path / "d.rubric.yaml"
    path.write_text(
        "evaluator: agreement\ncases:\n  - id: rows\n    dataset: {file: log.json, id: case_id, "
        "input: headline}\n    expected_subset: {total: 1}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(path, "d.rubric.yaml", root=tmp_path).cases
    ((problem,),) = [row.problems for row in dataset_cases(case, "d.rubric.yaml")]
    assert str(problem).startswith(  # the block's problem, at its 'id'
        "d.rubric.yaml:4:35: dataset 'id' 'case_id' cannot name a value of a list row: "
        "log.json#[0] is a list"
    )
