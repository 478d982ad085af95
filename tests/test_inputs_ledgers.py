"""``ledger:``: real label exports read as they come (mapped columns, key paths, label
words, one row per judgement, gzip, Parquet), held to the answer of the same ledger
written as ``id,a,b``."""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import json
import random
import sys
import tempfile
from itertools import chain
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric import evaluate_agreement
from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.agreement import tally_blocks
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs.rows import FileRows
from pytest_rubric.running.outcome import CaseOutcome
from pytest_rubric.running.runner import run_case

try:
    import pyarrow
    import pyarrow.parquet
except ImportError:  # the Parquet tests skip; the message without pyarrow is tested anyway
    pyarrow = None

needs_pyarrow = pytest.mark.skipif(pyarrow is None, reason="pyarrow (pytest-rubric[parquet])")


def run_export(
    folder: Path, name: str, content: str | bytes, ledger: str | None, *, review: bool = True
) -> CaseOutcome:
    """The outcome of one agreement case reading ``name`` (written with ``content``) as
    ``ledger`` describes it, with its rows for review kept (unless not ``review``)."""
    target = folder / name
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content, encoding="utf-8", newline="")
    block = "" if ledger is None else f"    ledger: {ledger}\n"
    case_path = folder / "c.rubric.yaml"
    case_path.write_text(
        f"evaluator: agreement\ncases:\n  - id: x\n    input_file: {name}\n{block}"
        "    expected: {}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(case_path, "c.rubric.yaml", root=folder).cases
    return run_case(
        case,
        AGREEMENT,
        path="c.rubric.yaml",
        source="",
        review_limit=1000 if review else None,
        review_at=name,
    )


def wide_csv(rows: list[tuple[str, bool, bool]], header: str = "id,a,b", words: Any = None) -> str:
    words = words or {True: "true", False: "false"}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header.split(","))
    for case_id, a, b in rows:
        writer.writerow([case_id, words[a], words[b]])
    return out.getvalue()


def review_rows(outcome: CaseOutcome) -> list[Any]:
    assert outcome.review is not None
    rows: list[Any] = outcome.review["rows"]
    return [{key: row[key] for key in ("id", "a", "b", "side")} for row in rows]


IDS = st.text(st.characters(codec="utf-8", exclude_characters="\r\n\x00"), min_size=0, max_size=6)
LEDGERS = st.lists(st.tuples(IDS, st.booleans(), st.booleans()), max_size=12)


# -- a wide export: mapped columns and label words ----------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=LEDGERS)
def test_a_mapped_export_answers_as_the_same_ledger_written_as_id_a_b(
    rows: list[tuple[str, bool, bool]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        plain = run_export(Path(folder), "plain.csv", wide_csv(rows), None)
        mapped = run_export(
            Path(folder),
            "mapped.csv",
            wide_csv(rows, "task_id,judge_label,editor_label", {True: "PASS", False: "FAIL"}),
            "{id: task_id, a: judge_label, b: editor_label, labels: {PASS: true, FAIL: false}}",
        )
    assert mapped.actual == plain.actual
    assert mapped.actual == evaluate_agreement(
        {"rows": [{"id": i, "a": a, "b": b} for i, a, b in rows]}
    )
    assert (mapped.evidence is None) == (plain.evidence is None)
    if plain.evidence is not None and mapped.evidence is not None:
        assert mapped.evidence.facts == plain.evidence.facts
        assert (mapped.evidence.problem is None) == (plain.evidence.problem is None)
    if plain.review is not None:
        assert review_rows(mapped) == review_rows(plain)


def test_the_issues_export_runs_with_its_columns_words_and_extra_column(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "exports").mkdir()
    (pytester.path / "exports/week-49.csv").write_text(
        "task_id,judge_label,editor_label,annotator\nx1,PASS,PASS,kim\nx2,PASS,FAIL,lee\n"
        "x3,FAIL,FAIL,kim\n"
    )
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: week-49\n    input_file: exports/week-49.csv\n"
        "    ledger:\n      id: task_id\n      a: judge_label\n      b: editor_label\n"
        "      labels: {PASS: true, FAIL: false}\n      graders: {a: judge, b: editor}\n"
        "    expected: {matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}, agreement: 2,\n"
        "               total: 3, disagreements: [x2]}\n",
    )
    result = pytester.runpytest("--rubric-report=r.json")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            '*bothPass 1, bothFail 1, aOnly 1, bOnly 0; agreement 2/3; disagreements: "x2" '
            "(a is judge, b is editor)"
        ]
    )
    (record,) = json.loads((pytester.path / "r.json").read_text())["cases"]
    assert record["actual"]["matrix"] == {"bothPass": 1, "bothFail": 1, "aOnly": 1, "bOnly": 0}
    assert record["review"]["graders"] == {"a": "judge", "b": "editor"}
    (row,) = record["review"]["rows"]
    assert row == {
        "id": "x2",
        "a": True,
        "b": False,
        "side": "aOnly",
        "where": "exports/week-49.csv:3",
        "fields": {"annotator": "lee"},
    }


def test_a_csv_without_a_ledger_block_keeps_extra_columns_as_review_fields(
    tmp_path: Path,
) -> None:
    outcome = run_export(tmp_path, "w.csv", "id,a,b,url\nx,true,false,http://e/x\n", None)
    assert outcome.actual["disagreements"] == ["x"]  # type: ignore[index,call-overload]
    assert outcome.review is not None
    assert outcome.review["rows"][0]["fields"] == {"url": "http://e/x"}  # type: ignore[index,call-overload]


@pytest.mark.parametrize("ledger", [None, "{id: id, a: a, b: b}"], ids=["plain", "mapped"])
def test_a_csv_record_spanning_lines_is_reviewed_at_the_line_it_starts_on(
    tmp_path: Path, ledger: str | None
) -> None:
    text = 'id,a,b,note\nr1,true,false,"one\ntwo\nthree"\nr2,true,true,\nr3,false,true,"x\r\ny"\n'
    outcome = run_export(tmp_path, "w.csv", text, ledger)
    assert outcome.review is not None
    where = [(row["id"], row["where"]) for row in outcome.review["rows"]]  # type: ignore[index,call-overload]
    assert where == [("r1", "w.csv:2"), ("r3", "w.csv:6")]


def test_a_csv_record_that_never_closes_its_quote_is_named_where_it_starts(
    tmp_path: Path,
) -> None:
    text = 'id,a,b\nr1,true,true\nr2,true,"false\nr3,true,true\nr4,true,true\n'
    outcome = run_export(tmp_path, "w.csv", text, None)
    assert outcome.problems == (
        "the input is not usable: w.csv:3: invalid CSV (the record runs from line 3 to line "
        "5): unexpected end of data",
    )


@pytest.mark.parametrize(
    ("cell", "words", "yes", "no"),
    [
        ("pass", "{PASS: true, FAIL: false}", "PASS", "FAIL"),  # no case folding
        ("PASS ", "{PASS: true, FAIL: false}", "PASS", "FAIL"),  # no trimming
        ("True", "{'true': true, 'false': false}", "true", "false"),  # as Python's csv writes
        ("", "{PASS: true, FAIL: false}", "PASS", "FAIL"),
    ],
)
def test_a_label_outside_the_vocabulary_is_review_label_naming_row_value_and_labels(
    tmp_path: Path, cell: str, words: str, yes: str, no: str
) -> None:
    outcome = run_export(
        tmp_path,
        "w.csv",
        f"k,j,e\nx1,{yes},{no}\nx2,{cell},{yes}\n",
        f"{{id: k, a: j, b: e, labels: {words}}}",
    )
    assert outcome.actual == {"error": "review-label"}
    assert outcome.evidence is not None
    problem = outcome.evidence.problem or ""
    assert problem.startswith("w.csv:3: the label of a (id 'x2') is "), problem
    assert json.dumps(cell) in problem
    assert (
        f"not one of the ledger's labels: {json.dumps(yes)} (true), {json.dumps(no)} (false)"
        in problem
    )


def test_python_csv_booleans_read_with_a_declared_vocabulary(tmp_path: Path) -> None:
    outcome = run_export(
        tmp_path,
        "w.csv",
        "id,a,b\nx1,True,False\nx2,False,False\n",
        "{labels: {'True': true, 'False': false}}",
    )
    assert outcome.outcome == "mismatched"  # expected {} differs: the answer is the matrix
    assert outcome.actual == evaluate_agreement(
        {"rows": [{"id": "x1", "a": True, "b": False}, {"id": "x2", "a": False, "b": False}]}
    )


def test_json_labels_are_typed_exactly_one_is_not_true_and_text_one_is_not_one(
    tmp_path: Path,
) -> None:
    ledger = "{labels: [[1, true], [0, false]]}"
    ok = run_export(tmp_path, "n.jsonl", '{"id":"x","a":1,"b":0.0}\n', ledger)
    assert ok.actual["matrix"]["aOnly"] == 1  # type: ignore[index,call-overload]
    for value in ("true", '"1"'):
        bad = run_export(tmp_path, "n.jsonl", f'{{"id":"x","a":{value},"b":0}}\n', ledger)
        assert bad.actual == {"error": "review-label"}, value
    # Without labels, real booleans stay booleans and nothing else is one.
    plain = run_export(tmp_path, "p.jsonl", '{"id":"x","a":true,"b":1}\n', "{a: a}")
    assert plain.actual == {"error": "review-label"}


def test_nested_keys_and_the_list_form_for_keys_holding_a_dot(tmp_path: Path) -> None:
    rows = (
        '{"item": "x1", "labels": {"judge": true, "editor.v2": false}, "url": "u1"}\n'
        '{"item": "x2", "labels": {"judge": true, "editor.v2": true}}\n'
    )
    outcome = run_export(
        tmp_path, "n.jsonl", rows, "{id: item, a: labels.judge, b: [labels, editor.v2]}"
    )
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": 1,
        "total": 2,
        "disagreements": ["x1"],
    }
    assert outcome.review is not None
    assert outcome.review["rows"][0]["fields"] == {"url": "u1"}  # type: ignore[index,call-overload]


@pytest.mark.parametrize(
    ("row", "error"),
    [
        ('{"item": "x", "labels": {"editor": true}}', "review-label"),  # label key missing
        ('{"item": "x", "labels": "judge", "x": 1}', "review-label"),  # not a mapping on the way
        ('{"labels": {"judge": true, "editor": true}}', "review-case-identity"),  # no ID
        ('{"item": {"v": "x"}, "labels": {"judge": true, "editor": true}}', "review-case-identity"),
    ],
)
def test_a_key_path_that_leads_nowhere_is_data_not_a_bad_description(
    tmp_path: Path, row: str, error: str
) -> None:
    outcome = run_export(
        tmp_path, "n.jsonl", row + "\n", "{id: item, a: labels.judge, b: labels.editor}"
    )
    assert outcome.actual == {"error": error}


# -- one row per judgement -----------------------------------------------------------------------

LONG = (
    "{rows: per-judgement, id: example_id, grader: _annotator_id, label: answer, "
    "a: alice, b: bob, labels: {accept: true, reject: false}}"
)


def long_jsonl(judgements: list[tuple[Any, str, str]]) -> str:
    return "".join(
        json.dumps({"example_id": i, "_annotator_id": who, "answer": what}) + "\n"
        for i, who, what in judgements
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=LEDGERS, seed=st.integers(0, 2**32 - 1), others=st.integers(0, 3))
def test_a_long_export_shuffled_gives_the_matrix_and_first_judgement_order(
    rows: list[tuple[str, bool, bool]], seed: int, others: int
) -> None:
    words = {True: "accept", False: "reject"}
    judgements = [(i, "alice", words[a]) for i, a, _ in rows]
    judgements += [(i, "bob", words[b]) for i, _, b in rows]
    judgements += [(i, "carol", "accept") for i, _, _ in rows[:others]]
    random.Random(seed).shuffle(judgements)
    with tempfile.TemporaryDirectory() as folder:
        outcome = run_export(Path(folder), "long.jsonl", long_jsonl(judgements), LONG)
    # The ledger the long export means: one row per case, in first-judgement order.
    first: dict[str, int] = {}
    for place, (i, who, _) in enumerate(judgements):
        if who != "carol":  # judgements by other graders are ignored, in order too
            first.setdefault(i, place)
    labels: dict[str, list[tuple[bool, bool]]] = {}
    for i, a, b in rows:
        labels.setdefault(i, []).append((a, b))
    if len(labels) != len(rows):  # an ID given twice: each grader judged it twice
        assert outcome.actual == {"error": "review-case-identity"}
        return
    ordered = sorted(rows, key=lambda row: first[row[0]])
    wide = {"rows": [{"id": i, "a": a, "b": b} for i, a, b in ordered]}
    assert outcome.actual == evaluate_agreement(wide)
    if others and rows and outcome.evidence is not None and "error" not in str(outcome.actual):
        assert outcome.evidence.facts["ignored judgements"].startswith(  # type: ignore[union-attr]
            f"{min(others, len(rows))} by graders other than a and b ('carol' "
        )


@pytest.mark.parametrize(
    ("judgements", "expected", "problem"),
    [
        pytest.param(
            [("x", "alice", "accept"), ("x", "alice", "reject"), ("x", "bob", "accept")],
            "review-case-identity",
            "repeats",
            id="a-grader-judges-a-case-twice",
        ),
        pytest.param(
            [("x", "alice", "accept"), ("x", "bob", "accept"), ("x", "bob", "accept")],
            "review-case-identity",
            "repeats",
            id="a-third-judgement",
        ),
        pytest.param(
            [("x", "alice", "accept"), ("y", "alice", "accept"), ("y", "bob", "reject")],
            "review-label",
            "has no label b",
            id="one-grader-only",
        ),
        pytest.param(
            [("x", "alice", "accept"), ("x", "bob", "maybe")],
            "review-label",
            "not one of the ledger's labels",
            id="an-unknown-word",
        ),
        pytest.param(
            [("x", "alice", "accept"), ("", "alice", "accept"), ("", "bob", "accept")],
            "review-case-identity",
            "blank",
            id="a-blank-id",
        ),
        pytest.param(
            [(7, "alice", "accept"), (7, "bob", "accept")],
            "review-case-identity",
            "(a number), and an ID is text; read the export's integer IDs as their decimal text "
            "with 'ids: as-text'",
            id="a-number-as-id",
        ),
        pytest.param(
            [(10**40, "alice", "accept"), (10**40, "bob", "accept")],
            "review-case-identity",
            "rows[0].id is 10000000000000000000000000000000000000000 (a number), and an ID is text",
            id="a-huge-integer-as-id",
        ),
        pytest.param(
            [("y", "alice", "maybe"), ("x", "alice", "accept"), ("x", "alice", "accept")],
            "review-case-identity",
            "repeats",
            id="identity-before-labels",
        ),
    ],
)
def test_identity_and_label_edges_of_a_long_export_give_the_seeds_answer(
    tmp_path: Path, judgements: list[tuple[Any, str, str]], expected: str, problem: str
) -> None:
    outcome = run_export(tmp_path, "long.jsonl", long_jsonl(judgements), LONG)
    assert outcome.actual == {"error": expected}
    assert outcome.evidence is not None
    assert problem in (outcome.evidence.problem or ""), outcome.evidence.problem


def test_a_lone_surrogate_as_an_id_is_an_id_like_any_text(tmp_path: Path) -> None:
    text = '{"example_id": "\\ud800", "_annotator_id": "alice", "answer": "accept"}\n'
    text += text.replace("alice", "bob").replace('"accept"', '"reject"')
    outcome = run_export(tmp_path, "long.jsonl", text, LONG)
    assert outcome.actual == evaluate_agreement({"rows": [{"id": "\ud800", "a": True, "b": False}]})


def test_a_long_csv_export_reads_as_the_jsonl_one(tmp_path: Path) -> None:
    text = "example_id,_annotator_id,answer,text\nx,alice,accept,hello\nx,bob,reject,hello\n"
    text += "y,bob,accept,\ny,alice,accept,\n"
    outcome = run_export(tmp_path, "long.csv", text, LONG)
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": 1,
        "total": 2,
        "disagreements": ["x"],
    }
    assert outcome.review is not None
    (row,) = outcome.review["rows"]
    assert row["where"] == "long.csv:2"  # type: ignore[index,call-overload]
    assert row["fields"] == {"text": "hello"}  # type: ignore[index,call-overload]


# -- gzip ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["w.jsonl.gz", "w.csv.gz", "w.json.gz"])
def test_gzipped_inputs_read_as_their_plain_files(tmp_path: Path, name: str) -> None:
    rows = [{"id": "x1", "a": True, "b": False}, {"id": "x2", "a": False, "b": False}]
    text = {
        "w.jsonl.gz": "".join(json.dumps(row) + "\n" for row in rows),
        "w.csv.gz": "id,a,b\nx1,true,false\nx2,false,false\n",
        "w.json.gz": json.dumps({"rows": rows}),
    }[name]
    outcome = run_export(tmp_path, name, gzip.compress(text.encode()), None)
    assert outcome.actual == evaluate_agreement({"rows": rows})


def test_a_file_named_gz_that_is_not_gzip_is_a_case_error_saying_so(tmp_path: Path) -> None:
    outcome = run_export(tmp_path, "w.csv.gz", "id,a,b\n", None)
    assert outcome.outcome == "case-error"
    assert "w.csv.gz: not a whole gzip file" in outcome.problems[0]


# -- Parquet -------------------------------------------------------------------------------------


def parquet_bytes(folder: Path, columns: dict[str, Any]) -> bytes:
    assert pyarrow is not None
    target = folder / "made.parquet"
    pyarrow.parquet.write_table(pyarrow.table(columns), target)
    return target.read_bytes()


@needs_pyarrow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=LEDGERS, sort=st.booleans())
def test_a_parquet_ledger_answers_as_the_same_rows_in_jsonl(
    rows: list[tuple[str, bool, bool]], sort: bool
) -> None:
    rows = [(i.encode("utf-8", "ignore").decode(), a, b) for i, a, b in rows]
    if sort:
        rows = sorted(rows)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        columns: dict[str, Any] = {
            "id": [r[0] for r in rows],
            "a": [r[1] for r in rows],
            "b": [r[2] for r in rows],
        }
        if not rows:
            columns = {
                "id": pyarrow.array([], pyarrow.string()),
                "a": pyarrow.array([], pyarrow.bool_()),
                "b": pyarrow.array([], pyarrow.bool_()),
            }
        outcome = run_export(folder, "l.parquet", parquet_bytes(folder, columns), None)
    expected = evaluate_agreement({"rows": [{"id": i, "a": a, "b": b} for i, a, b in rows]})
    assert outcome.actual == expected
    if outcome.review is not None and "error" not in expected:
        places = [row["where"] for row in outcome.review["rows"]]  # type: ignore[index,call-overload]
        assert all(str(place).startswith("l.parquet#row ") for place in places)


@needs_pyarrow
def test_a_parquet_export_reads_only_mapped_columns_with_label_words(tmp_path: Path) -> None:
    columns = {
        "task": ["x1", "x2", "x3"],
        "judge": ["PASS", "PASS", "FAIL"],
        "editor": ["PASS", "FAIL", "FAIL"],
        "big": ["z" * 10] * 3,
    }
    outcome = run_export(
        tmp_path,
        "l.parquet",
        parquet_bytes(tmp_path, columns),
        "{id: task, a: judge, b: editor, labels: {PASS: true, FAIL: false}}",
    )
    assert outcome.actual["disagreements"] == ["x2"]  # type: ignore[index,call-overload]
    assert outcome.review is not None
    assert outcome.review["rows"][0]["where"] == "l.parquet#row 2"  # type: ignore[index,call-overload]
    missing = run_export(
        tmp_path, "m.parquet", parquet_bytes(tmp_path, columns), "{id: task, a: juge, b: editor}"
    )
    assert missing.outcome == "case-error"
    assert missing.problems[0].startswith("c.rubric.yaml:5:27: ledger 'a' names the column 'juge'")
    assert "did you mean 'judge'?" in missing.problems[0]


def test_without_pyarrow_a_parquet_case_fails_naming_the_extra(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "l.parquet").write_bytes(b"PAR1 not really")
    (pytester.path / "w.csv").write_text("id,a,b\nx,true,true\n")
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: pq\n    input_file: l.parquet\n"
        "    expected: {error: review-label}\n  - id: csv\n    input_file: w.csv\n"
        "    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1,"
        " total: 1, disagreements: []}\n",
    )
    pytester.makepyfile(
        conftest="import sys\nfor name in ('pyarrow', 'pyarrow.parquet', 'pyarrow.compute'):\n"
        "    sys.modules[name] = None\n"
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*the input is not usable: l.parquet: reading a .parquet ledger needs pyarrow, "
            "which is not installed; install it with: pip install 'pytest-rubric[[]parquet]'"
        ]
    )
    assert "pyarrow" not in sys.modules or sys.modules["pyarrow"] is not None


# -- bad descriptions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (
            "{id: task_id, a: judge_lable, b: editor_label}",
            "c.rubric.yaml:5:30: ledger 'a' names the column 'judge_lable', which w.csv's header "
            "does not have (it has task_id, judge_label, editor_label); did you mean "
            "'judge_label'?",
        ),
        (
            "{id: task_id, a: judge_label, b: editor_label, labels: [[PASS, true], [PASS, false]]}",
            'c.rubric.yaml:5:83: label "PASS" means both true (line 5) and false (line 5); '
            "give each label one meaning",
        ),
        (
            "{id: task_id, a: judge_label, b: editor_label, graders: {a: judge, c: editor}}",
            "c.rubric.yaml:5:80: 'graders' names a and b only, not 'c'",
        ),
        ("{id: '', a: judge_label, b: editor_label}", "c.rubric.yaml:5:18: ledger 'id' is empty"),
        (
            "{id: [task, ''], a: judge_label, b: editor_label}",
            "c.rubric.yaml:5:25: ledger 'id' part 2 is \"\"",
        ),
        ("{idd: task_id}", "c.rubric.yaml:5:14: 'idd' is not a ledger key; did you mean 'id'?"),
        (
            "{rows: per-judgement, id: task_id, label: judge_label, a: al, b: bo}",
            "c.rubric.yaml:5:13: a 'rows: per-judgement' ledger needs 'grader:'",
        ),
        (
            "{labels: {PASS: true}}",
            "c.rubric.yaml:5:22: 'labels' gives no label for false",
        ),
        (
            "{labels: [[1, true], [0, false]]}",
            "c.rubric.yaml:5:23: label 1 is not text, but every cell of a .csv ledger is text",
        ),
    ],
)
def test_a_bad_description_is_a_problem_of_the_case_at_its_line_and_column(
    tmp_path: Path, block: str, message: str
) -> None:
    outcome = run_export(
        tmp_path,
        "w.csv",
        "task_id,judge_label,editor_label\nx,PASS,PASS\n",
        block,
    )
    assert outcome.outcome == "case-error"
    assert any(problem.startswith(message) for problem in outcome.problems), outcome.problems


def test_a_ledger_block_without_input_file_is_a_problem_naming_its_place(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: x\n    input: {rows: []}\n"
        "    ledger: {id: task_id}\n    expected: {}\n  - id: fine\n    input: {rows: []}\n"
        "    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 0,"
        " total: 0, disagreements: []}\n",
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*c.rubric.yaml:5:5: 'ledger' says how to read an input file, but the case has no "
            "'input_file'*"
        ]
    )


def test_rubric_update_writes_expected_and_leaves_the_ledger_block_and_export_alone(
    pytester: pytest.Pytester, not_in_ci: None
) -> None:
    export = "task_id,judge_label,editor_label\nx1,PASS,FAIL\n"
    (pytester.path / "w.csv").write_text(export)
    block = "    ledger: {id: task_id, a: judge_label, b: editor_label,\n"
    block += "             labels: {PASS: true, FAIL: false}}  # as the export writes them\n"
    source = f"evaluator: agreement\ncases:\n  - id: x\n    input_file: w.csv\n{block}"
    pytester.makefile(".rubric.yaml", c=source)
    pytester.runpytest("--rubric-update=new").assert_outcomes(passed=1)
    written = (pytester.path / "c.rubric.yaml").read_text()
    assert written.startswith(source)
    assert "disagreements: [x1]" in written
    assert (pytester.path / "w.csv").read_text() == export
    pytester.runpytest().assert_outcomes(passed=1)


def test_a_cached_case_file_keeps_its_ledger_block(pytester: pytest.Pytester) -> None:
    (pytester.path / "w.csv").write_text("t,j,e\nx1,P,F\n")
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: x\n    input_file: w.csv\n"
        "    ledger: {id: t, a: j, b: e, labels: {P: true, F: false}, graders: {a: AI, b: me}}\n"
        "    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 1, bOnly: 0}, agreement: 0,"
        " total: 1, disagreements: [x1]}\n",
    )
    for _ in range(2):  # the second run reads the case file from pytest's cache
        result = pytester.runpytest("-p", "cacheprovider")
        result.assert_outcomes(passed=1)
        result.stdout.fnmatch_lines(["*(a is AI, b is me)"])


WORDS = st.sampled_from(["accept", "reject", "maybe"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cases=st.lists(
        st.tuples(IDS, WORDS, WORDS, st.booleans(), st.sampled_from(["bob", "bob", "carol"])),
        max_size=10,
    ),
    block=st.sampled_from([7, 64, 1 << 16]),
)
def test_a_long_csv_with_adjacent_judgements_answers_as_read_one_row_at_a_time(
    cases: list[tuple[str, str, str, bool, str]], block: int
) -> None:
    """The blocks path (each case's two judgements on adjacent lines) against the rows
    path, on exports that are plain and exports that are not (an unknown word, a third
    grader, a repeated or blank ID)."""
    lines = ["example_id,_annotator_id,answer"]
    for case_id, a, b, bob_first, second in cases:
        pair = [f"{case_id},alice,{a}", f"{case_id},{second},{b}"]
        lines += pair[::-1] if bob_first else pair
    text = "\n".join(lines) + "\n"
    if "," in "".join(case[0] for case in cases) or '"' in text:
        return  # an ID needing quotes: not the layout under test
    with tempfile.TemporaryDirectory() as name, mock_block(block):
        folder = Path(name)
        fast = run_export(folder, "long.csv", text, LONG)
        with mock_blocks_off():
            slow = run_export(folder, "long.csv", text, LONG)
    assert fast.actual == slow.actual
    assert (fast.evidence and fast.evidence.facts) == (slow.evidence and slow.evidence.facts)


@pytest.mark.parametrize(
    "lines",
    [
        "x,bob,accept\nx,alice,reject\ny,alice,accept\ny,bob,accept\n",  # by case
        "y,alice,accept\nx,alice,reject\nx,bob,accept\ny,bob,accept\n",  # any order
        "x,alice,reject\ny,alice,accept\nx,carol,accept\ny,bob,accept\nx,bob,accept\n",
    ],
    ids=["adjacent", "any-order", "another-grader"],
)
def test_a_plain_long_csv_is_tallied_in_blocks(tmp_path: Path, lines: str) -> None:
    (tmp_path / "c.rubric.yaml").write_text(
        f"evaluator: agreement\ncases:\n  - id: x\n    input_file: l.csv\n    ledger: {LONG}\n"
        "    expected: {}\n"
    )
    (tmp_path / "l.csv").write_text("example_id,_annotator_id,answer\n" + lines)
    (case,) = load_case_file(tmp_path / "c.rubric.yaml", "c.rubric.yaml", root=tmp_path).cases
    assert case.input_file is not None
    reader = FileRows(case.input_file)
    blocks = list(reader.label_blocks())
    assert None not in blocks
    assert sorted(chain.from_iterable(block.ids for block in blocks if block)) == ["x", "y"]
    answer = tally_blocks(blocks)
    assert answer is not None
    first_x = lines.index("x,") < lines.index("y,")
    assert answer[0] == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 1},
        "agreement": 1,
        "total": 2,
        "disagreements": ["x"],
    }, first_x
    outcome = run_export(tmp_path, "l2.csv", "example_id,_annotator_id,answer\n" + lines, LONG)
    with mock_blocks_off():
        slow = run_export(tmp_path, "l2.csv", "example_id,_annotator_id,answer\n" + lines, LONG)
    assert (outcome.actual, outcome.evidence) == (slow.actual, slow.evidence)


def mock_block(size: int) -> Any:
    from unittest import mock

    from pytest_rubric.inputs import textfiles

    return mock.patch.object(textfiles, "BLOCK", size)


def mock_blocks_off() -> Any:
    from unittest import mock

    def none(self: object) -> Any:
        yield None

    return mock.patch.object(FileRows, "label_blocks", none)


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("{a: a, b: a}", "c.rubric.yaml:5:23: ledger 'a' and 'b' name the same column or key 'a'"),
        ("{id: a}", "c.rubric.yaml:5:18: ledger 'id' and 'a' name the same column or key 'a'"),
    ],
)
def test_two_ledger_keys_naming_one_column_are_refused(
    tmp_path: Path, block: str, message: str
) -> None:
    outcome = run_export(tmp_path, "w.jsonl", '{"id": "x", "a": true, "b": false}\n', block)
    assert outcome.outcome == "case-error"
    assert any(problem.startswith(message) for problem in outcome.problems), outcome.problems


@pytest.mark.parametrize("name", ["e.csv.gz", "e.jsonl.gz", "e.json.gz"])
def test_an_empty_file_named_gz_is_not_gzip(tmp_path: Path, name: str) -> None:
    outcome = run_export(tmp_path, name, b"", None)
    assert outcome.outcome == "case-error"
    assert f"{name}: not a whole gzip file (the file is empty)" in outcome.problems[0]


@needs_pyarrow
def test_a_parquet_key_path_into_a_struct_is_checked_against_the_schema(tmp_path: Path) -> None:
    assert pyarrow is not None
    columns = {
        "task": [{"id": "x1"}, {"id": "x2"}],
        "labels": [{"judge": "PASS", "editor": "FAIL"}, {"judge": "FAIL", "editor": "FAIL"}],
    }
    data = parquet_bytes(tmp_path, columns)
    block = "{id: task.id, a: labels.judge, b: labels.editor, labels: {PASS: true, FAIL: false}}"
    outcome = run_export(tmp_path, "n.parquet", data, block)
    assert outcome.actual["disagreements"] == ["x1"]  # type: ignore[index,call-overload]
    typo = run_export(tmp_path, "t.parquet", data, block.replace("labels.judge", "labels.judgee"))
    assert typo.outcome == "case-error"
    assert typo.problems[0].startswith(
        "c.rubric.yaml:5:30: ledger 'a' names the column 'labels.judgee', which t.parquet's "
        "schema does not have (it has task, task.id, labels, labels.judge, labels.editor); "
        "did you mean 'labels.judge'?"
    ), typo.problems
    deeper = run_export(tmp_path, "d.parquet", data, block.replace("task.id", "task.id.more"))
    assert deeper.outcome == "case-error"


@pytest.mark.parametrize("limit", [3, 4, 6])
@pytest.mark.parametrize("long_form", [False, True])
def test_an_export_cell_past_csv_field_size_limit_is_refused_as_row_by_row(
    tmp_path: Path, limit: int, long_form: bool
) -> None:
    if long_form:
        text, block = "example_id,_annotator_id,answer\nx,alice,accept\nx,bob,reject\n", LONG
    else:
        text = "k,j,e\nx,PASS,FAIL\n"
        block = "{id: k, a: j, b: e, labels: {PASS: true, FAIL: false}}"
    default = csv.field_size_limit()
    try:
        csv.field_size_limit(limit)
        fast = run_export(tmp_path, "w.csv", text, block)
        with mock_blocks_off():
            slow = run_export(tmp_path, "w.csv", text, block)
    finally:
        csv.field_size_limit(default)
    assert (fast.outcome, fast.actual, fast.problems) == (slow.outcome, slow.actual, slow.problems)


def test_a_label_outside_the_vocabulary_never_hides_an_identity_problem(tmp_path: Path) -> None:
    outcome = run_export(
        tmp_path,
        "n.jsonl",
        '{"id": 5, "a": "PASS", "b": "maybe"}\n',
        "{labels: {PASS: true, FAIL: false}}",
    )
    assert outcome.actual == {"error": "review-case-identity"}
    assert outcome.evidence is not None
    problem = outcome.evidence.problem or ""
    assert problem.startswith(
        "n.jsonl:1 rows[0].id is 5 (a number), and an ID is text; read the export's integer IDs "
        "as their decimal text with 'ids: as-text' under 'ledger:' (c.rubric.yaml:5:13); and "
        "n.jsonl:1: the label of b"
    ), problem
    assert 'the label of b (id 5) is "maybe"' not in problem  # the ID is not text: not named
    assert "not one of the ledger's labels" in problem


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_a_long_export_sorted_by_grader_reads_whole_and_names_rows_by_first_judgement(
    tmp_path: Path, fmt: str
) -> None:
    """Each case's second judgement long after its first (the pairs are held meanwhile):
    the reader's own place in the file is not the line a paired row is named by."""
    cases = [(f"c{n:04d}", n % 3 == 0, n % 5 == 0) for n in range(3000)]
    judgements = [(i, "alice", "accept" if a else "reject") for i, a, _ in cases]
    judgements += [(i, "bob", "accept" if b else "reject") for i, _, b in cases]
    text = (
        "example_id,_annotator_id,answer\n" + "".join(f"{i},{w},{x}\n" for i, w, x in judgements)
        if fmt == "csv"
        else long_jsonl(judgements)
    )
    from unittest import mock

    from pytest_rubric.inputs import csvrows, jsonl, textfiles

    # A cap on a row's characters far below the export's size: a row is still a line.
    with (
        mock.patch.object(textfiles, "MAX_ROW_CHARS", 1000),
        mock.patch.object(csvrows, "MAX_ROW_CHARS", 1000),
        mock.patch.object(jsonl, "MAX_ROW_CHARS", 1000),
    ):
        outcome = run_export(tmp_path, f"long.{fmt}", text, LONG)
    assert outcome.actual == evaluate_agreement(
        {"rows": [{"id": i, "a": a, "b": b} for i, a, b in cases]}
    ), outcome.problems
    assert outcome.review is not None
    first = outcome.review["rows"][0]
    assert first["id"] == "c0003"  # type: ignore[index,call-overload]
    assert first["where"] == f"long.{fmt}:{5 if fmt == 'csv' else 4}"  # type: ignore[index,call-overload]


def _all_rules_project(pytester: pytest.Pytester) -> None:
    """One case file with a case for each rule of ``ledger:``, every expected answer the
    seeds' (or, for a bad description, a case error), and the exports beside it."""
    root = pytester.path
    (root / "x").mkdir()
    (root / "x/wide.csv").write_text("t,j,e,note\nx1,PASS,FAIL,n1\nx2,FAIL,FAIL,n2\n")
    (root / "x/words.csv").write_text("t,j,e\nx1,PASS,pass\n")
    (root / "x/nested.jsonl").write_text(
        '{"item": "x1", "l": {"j": 1, "e.v2": 0}}\n{"item": "x2", "l": {"j": 0, "e.v2": 0}}\n'
    )
    judgements = [
        ("x1", "al", "ok"),
        ("x2", "al", "no"),
        ("x1", "bo", "no"),
        ("x2", "cy", "ok"),
        ("x2", "bo", "no"),
    ]
    (root / "x/long.jsonl").write_text(
        "".join(json.dumps({"i": i, "g": g, "v": v}) + "\n" for i, g, v in judgements)
    )
    (root / "x/twice.jsonl").write_text(
        "".join(
            json.dumps({"i": i, "g": g, "v": v}) + "\n"
            for i, g, v in [("x1", "al", "ok"), ("x1", "al", "no"), ("x1", "bo", "ok")]
        )
    )
    (root / "x/once.jsonl").write_text(json.dumps({"i": "x1", "g": "al", "v": "ok"}) + "\n")
    (root / "x/wide.csv.gz").write_bytes(gzip.compress((root / "x/wide.csv").read_bytes()))
    long = "{rows: per-judgement, id: i, grader: g, label: v, a: al, b: bo, labels: {ok: true, no: false}}"
    wide = "{id: t, a: j, b: e, labels: {PASS: true, FAIL: false}, graders: {a: judge, b: editor}}"
    one = "{matrix: {bothPass: 0, bothFail: 1, aOnly: 1, bOnly: 0}, agreement: 1, total: 2, disagreements: [x1]}"
    cases = [
        ("mapped", "x/wide.csv", wide, one),
        ("gzipped", "x/wide.csv.gz", wide, one),
        ("word-outside", "x/words.csv", wide, "{error: review-label}"),
        (
            "nested",
            "x/nested.jsonl",
            "{id: item, a: l.j, b: [l, e.v2], labels: [[1, true], [0, false]]}",
            one,
        ),
        ("long", "x/long.jsonl", long, one),
        ("judged-twice", "x/twice.jsonl", long, "{error: review-case-identity}"),
        ("judged-once", "x/once.jsonl", long, "{error: review-label}"),
        ("missing-column", "x/wide.csv", "{id: t, a: jj, b: e}", "{error: review-label}"),
    ]
    body = "".join(
        f"  - id: {name}\n    input_file: {path}\n    ledger: {block}\n    expected: {expected}\n"
        for name, path, block, expected in cases
    )
    pytester.makefile(".rubric.yaml", rules=f"evaluator: agreement\ncases:\n{body}")


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_every_rule_through_pytest_serially_and_under_xdist(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    _all_rules_project(pytester)
    result = pytester.runpytest("-p", "no:randomly", "--rubric-report=r.json", *workers)
    result.assert_outcomes(passed=7, failed=1)
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "*rules.rubric.yaml:33:24: ledger 'a' names the column 'jj', which x/wide.csv's "
            "header does not have (it has t, j, e, note); did you mean 'j'?",
        ]
    )
    result.stdout.fnmatch_lines(['*"x1" (a is judge, b is editor)'])
    report = json.loads((pytester.path / "r.json").read_text())
    by_case = {record["case"]: record for record in report["cases"]}
    assert by_case["mapped"]["review"]["graders"] == {"a": "judge", "b": "editor"}
    assert by_case["mapped"]["review"]["rows"][0]["fields"] == {"note": "n1"}
    assert by_case["long"]["evidence"]["facts"]["ignored judgements"] == (
        "1 by graders other than a and b ('cy' 1)"
    )
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


@needs_pyarrow
@pytest.mark.parametrize("at", [0, 1, 2])
def test_a_parquet_text_id_that_is_not_utf8_is_a_case_error_naming_its_row(
    tmp_path: Path, at: int
) -> None:
    assert pyarrow is not None
    raw = [b"a", b"b", b"c"]
    raw[at] = raw[at] + b"\xff"
    ids = pyarrow.array(raw, pyarrow.binary()).view(pyarrow.string())  # Arrow checks no UTF-8
    columns = {"id": ids, "a": pyarrow.array([True] * 3), "b": pyarrow.array([True] * 3)}
    data = parquet_bytes(tmp_path, columns)
    for blocks in (True, False):
        with mock_blocks_off() if not blocks else contextlib.nullcontext():
            (tmp_path / "c.rubric.yaml").unlink(missing_ok=True)
            outcome = run_export(tmp_path, "w.parquet", data, None, review=False)
        assert outcome.outcome == "case-error", blocks
        assert outcome.problems == (
            f"the input is not usable: w.parquet#row {at + 1}: a text value is not UTF-8 "
            "(invalid start byte); write the export's text as UTF-8",
        ), blocks


#: Plain IDs (most exports' kind), unique by construction unless repeated on purpose.
PLAIN_LEDGERS = st.lists(
    st.tuples(st.text("abcxyz019-", min_size=1, max_size=5), st.booleans(), st.booleans()),
    max_size=12,
    unique_by=lambda row: row[0],
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.one_of(PLAIN_LEDGERS, PLAIN_LEDGERS, LEDGERS),
    seed=st.integers(0, 2**32 - 1),
    extra=st.one_of(
        st.just([]),
        st.lists(st.tuples(IDS, st.sampled_from(["alice", "bob", "carol"]), WORDS), max_size=3),
        st.lists(st.tuples(IDS, st.just("carol"), st.just("accept")), max_size=3),
    ),
    block=st.sampled_from([5, 13, 64, 1 << 16]),
)
def test_a_long_csv_in_any_order_answers_as_read_one_row_at_a_time(
    rows: list[tuple[str, bool, bool]],
    seed: int,
    extra: list[tuple[str, str, str]],
    block: int,
) -> None:
    """The any-order blocks path (JudgementTally) against the rows path, on shuffled
    exports with stray judgements (repeats, other graders, unknown words)."""
    words = {True: "accept", False: "reject"}
    judgements = [(i, "alice", words[a]) for i, a, _ in rows]
    judgements += [(i, "bob", words[b]) for i, _, b in rows]
    judgements += extra
    random.Random(seed).shuffle(judgements)
    if any("," in i or '"' in i or "\r" in i for i, _, _ in judgements):
        return  # an ID needing quotes: read one row at a time anyway
    text = "example_id,_annotator_id,answer\n" + "".join(f"{i},{g},{w}\n" for i, g, w in judgements)
    with tempfile.TemporaryDirectory() as name, mock_block(block):
        folder = Path(name)
        fast = run_export(folder, "long.csv", text, LONG)
        with mock_blocks_off():
            slow = run_export(folder, "long.csv", text, LONG)
    assert (fast.outcome, fast.actual, fast.problems) == (slow.outcome, slow.actual, slow.problems)
    assert fast.evidence == slow.evidence
    assert fast.review == slow.review


def test_a_case_judged_once_is_named_by_the_blocks_so_the_rows_need_not_wait(
    tmp_path: Path,
) -> None:
    from pytest_rubric.inputs.textblocks import lone_judgements

    lines = "".join(f"c{n},alice,accept\nc{n},bob,reject\n" for n in range(50))
    text = "example_id,_annotator_id,answer\nlone,bob,accept\n" + lines
    fast = run_export(tmp_path, "l.csv", text, LONG)
    with mock_blocks_off():
        slow = run_export(tmp_path, "l.csv", text, LONG)
    assert fast.actual == slow.actual == {"error": "review-label"}
    assert fast.evidence == slow.evidence
    assert fast.evidence is not None
    assert (fast.evidence.problem or "").startswith("l.csv:2 rows[0] (id 'lone') has no label a")
    (case,) = load_case_file(tmp_path / "c.rubric.yaml", "c.rubric.yaml", root=tmp_path).cases
    assert case.input_file is not None
    reader = FileRows(case.input_file)
    assert None in list(reader.label_blocks())
    assert lone_judgements(case.input_file) == frozenset({"lone"})
