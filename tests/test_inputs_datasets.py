"""A dataset's rows read as cases: the same outcomes as the same cases written in YAML, in
every format; what a row that cannot be a case says; ``expected_subset`` exactly."""

from __future__ import annotations

import csv
import gzip
import io
import json
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.core.evaluator import Evaluator
from pytest_rubric.evaluators.builtin import REASON
from pytest_rubric.running.datasetcases import dataset_cases
from pytest_rubric.running.runner import run_case

CODES = ["missing-title", "missing-source", "all-required-met"]
HEAD = "evaluator: reason\ncases:\n"
INPUT = (
    "      input:\n"
    "        fields: {title: checks.has_title, source: checks.has_source}\n"
    "        pass: verdict\n"
    "        reasons: reason_codes\n"
)


LABELS = "      labels: {PASS: true, FAIL: false}\n"


def load(folder: Path, text: str) -> list[Case]:
    """The cases of a case file written with ``text``, each dataset's rows as cases."""
    (folder / "c.rubric.yaml").write_text(text, encoding="utf-8")
    case_file = load_case_file(folder / "c.rubric.yaml", "c.rubric.yaml", root=folder)
    return [row for case in case_file.cases for row in dataset_cases(case, "c.rubric.yaml")]


def outcomes(cases: list[Case], evaluator: Evaluator = REASON) -> dict[str, tuple[str, Any]]:
    """Each case's outcome and answer, by name."""
    ran = (run_case(case, evaluator, path="c.rubric.yaml", source="") for case in cases)
    return {outcome.case.name: (outcome.outcome, outcome.actual) for outcome in ran}


def dataset_case(file: str, extra: str = "", expectation: str = "{coherent: true}") -> str:
    return (
        f"{HEAD}  - id: log\n    dataset:\n      file: {file}\n      id: decision_id\n"
        f"{INPUT}{extra}    expected_subset: {expectation}\n"
    )


# -- a dataset is its cases, in every format ------------------------------------------------------

DECISIONS = st.lists(
    st.tuples(
        st.text("abcdefxyz0123-_.", min_size=1, max_size=8),
        st.booleans(),
        st.booleans(),
        st.sampled_from(["PASS", "FAIL", "UNSURE"]),
        st.lists(st.sampled_from(CODES), max_size=3),
    ),
    max_size=8,
    unique_by=lambda row: row[0],
)
FORMATS = ["jsonl", "jsonl.gz", "csv", "csv.gz", "tsv", "tsv.gz", "json", "parquet", "xlsx"]


def write_log(folder: Path, fmt: str, rows: list[tuple[str, bool, bool, str, list[str]]]) -> str:
    """The decision log in format ``fmt``, as a grading pipeline would write it; the
    ``dataset:`` lines that read it beyond ``file``, ``id`` and ``input``."""
    records = [
        {
            "decision_id": case_id,
            "judge": "gpt-4o",
            "checks": {"has_title": title, "has_source": source},
            "verdict": verdict,
            "reason_codes": codes,
            "rationale": "…",
        }
        for case_id, title, source, verdict, codes in rows
    ]
    labels = "      labels: {PASS: true, FAIL: false}\n"
    name = f"log.{fmt}"
    if fmt.startswith("jsonl"):
        text = "".join(json.dumps(record) + "\n" for record in records)
        data = text.encode()
        (folder / name).write_bytes(gzip.compress(data) if fmt.endswith(".gz") else data)
        return labels
    if fmt == "json":
        (folder / name).write_text(json.dumps({"version": 2, "decisions": records}))
        return labels + "      records: decisions\n"
    if fmt == "parquet":
        import pyarrow
        import pyarrow.parquet

        pyarrow.parquet.write_table(pyarrow.Table.from_pylist(records), folder / name)
        return labels
    header = ["decision_id", "checks.has_title", "checks.has_source", "verdict", "codes"]
    if fmt == "xlsx":  # a spreadsheet's second sheet, its Booleans typed
        import openpyxl  # type: ignore[import-untyped]

        book = openpyxl.Workbook()
        sheet = book.create_sheet("decisions")
        sheet.append(header)
        for record in records:
            checks: Any = record["checks"]
            sheet.append(
                [
                    record["decision_id"],
                    checks["has_title"],
                    checks["has_source"],
                    record["verdict"],
                    ";".join(record["reason_codes"]),
                ]
            )
        book.save(folder / name)
        return labels + "      split: {codes: ';'}\n      sheet: decisions\n"
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n", delimiter="\t" if fmt[0] == "t" else ",")
    writer.writerow(header)
    for record in records:
        writer.writerow(
            [
                record["decision_id"],
                str(record["checks"]["has_title"]).lower(),  # type: ignore[index]
                str(record["checks"]["has_source"]).lower(),  # type: ignore[index]
                record["verdict"],
                ";".join(record["reason_codes"]),
            ]
        )
    data = stream.getvalue().encode()
    (folder / name).write_bytes(gzip.compress(data) if fmt.endswith(".gz") else data)
    # A CSV's columns are flat: the input names them as its header writes them.
    return labels + "      split: {codes: ';'}\n"


def yaml_cases(rows: list[tuple[str, bool, bool, str, list[str]]]) -> str:
    words: dict[str, Any] = {"PASS": True, "FAIL": False}
    lines = [HEAD]
    for case_id, title, source, verdict, codes in rows:
        given = {"fields": {"title": title, "source": source}, "pass": words.get(verdict, verdict)}
        given["reasons"] = codes
        lines.append(f"  - id: 'log[{case_id}]'\n    input: {json.dumps(given)}\n")
        lines.append("    expected_subset: {coherent: true}\n")
    return "".join(lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=DECISIONS, fmt=st.sampled_from(FORMATS), seed=st.integers(0, 2**16))
def test_a_dataset_gives_the_outcomes_of_its_cases_written_in_yaml(
    rows: list[tuple[str, bool, bool, str, list[str]]], fmt: str, seed: int
) -> None:
    if not rows:
        return  # an empty dataset is the case's own problem (below)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        extra = write_log(folder, fmt, rows)
        text = dataset_case(f"log.{fmt}", extra)
        if fmt.startswith(("csv", "tsv")) or fmt == "xlsx":
            text = text.replace("checks.has_title", "'checks.has_title'")
            text = text.replace("checks.has_source", "'checks.has_source'")
            text = text.replace("reason_codes", "codes")
        from_dataset = outcomes(load(folder, text))
        # The YAML cases, named as the rows are; IDs with brackets cannot be case IDs, so
        # the expected outcomes come from cases named apart and renamed.
        written = load(folder, yaml_cases(rows).replace("'log[", "'log-").replace("]'", "'"))
        from_yaml = {
            f"log[{case.name.removeprefix('log-')}]": value
            for case, value in zip(written, outcomes(written).values(), strict=True)
        }
        assert from_dataset == from_yaml
        shuffled = rows[:]
        random.Random(seed).shuffle(shuffled)
        write_log(folder, fmt, shuffled)
        assert outcomes(load(folder, text)) == from_dataset


# -- rows that cannot be cases --------------------------------------------------------------------


def jsonl(folder: Path, *rows: object) -> None:
    (folder / "log.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))


def good(case_id: object) -> dict[str, Any]:
    return {
        "decision_id": case_id,
        "checks": {"has_title": True, "has_source": True},
        "verdict": "PASS",
        "reason_codes": ["all-required-met"],
    }


def test_rows_that_cannot_be_cases_fail_on_their_own_items_and_the_others_run(
    tmp_path: Path,
) -> None:
    jsonl(tmp_path, good("d1"), good(7), good(" "), good("d1"), good("a]b"), ["not", "a", "row"])
    cases = load(tmp_path, dataset_case("log.jsonl", "      labels: {PASS: true, FAIL: false}\n"))
    assert [case.name for case in cases] == [
        "log[d1]",
        "log[line 2]",
        "log[line 3]",
        "log[line 4]",
        "log[line 5]",
        "log[line 6]",
    ]
    assert cases[0].problems == ()
    assert [case.row.place for case in cases if case.row] == [f"log.jsonl:{n}" for n in range(1, 7)]
    words = [str(case.problems[0]) for case in cases[1:]]
    assert words == [
        "c.rubric.yaml:3:5: log.jsonl:2: the ID at 'decision_id' is 7 (a number), not text; "
        "write 'ids: as-text' in the dataset block to read whole numbers as their text",
        "c.rubric.yaml:3:5: log.jsonl:3: the ID at 'decision_id' is \" \" (a string), which is blank",
        "c.rubric.yaml:3:5: log.jsonl:4: the ID 'd1' repeats the row at log.jsonl:1; every row "
        "of a dataset is a case of its own, with its own ID",
        "c.rubric.yaml:3:5: log.jsonl:5: the ID 'a]b' holds ']', which would break its pytest "
        "node ID; IDs of dataset rows are letters, digits and punctuation but '::', '[' and ']'",
        'c.rubric.yaml:3:5: log.jsonl:6 is ["not", "a", "row"] (a list), not a mapping (a row)',
    ]
    assert outcomes(cases[:1]) == {
        "log[d1]": (
            "matched",
            {"expectedPass": True, "expectedReasons": ["all-required-met"], "coherent": True},
        )
    }


@pytest.mark.parametrize(
    ("rows", "valid_at"),
    [
        pytest.param([good("line 2"), good(None)], "log.jsonl:1", id="the-valid-row-first"),
        pytest.param(
            [good("a"), good(None), good("line 2")], "log.jsonl:3", id="the-refused-row-first"
        ),
    ],
)
def test_a_row_id_written_as_another_rows_place_keeps_its_name_and_the_place_yields(
    tmp_path: Path, rows: list[dict[str, Any]], valid_at: str
) -> None:
    jsonl(tmp_path, *rows)
    cases = load(tmp_path, dataset_case("log.jsonl", LABELS))
    named = {case.name: case for case in cases}
    assert len(named) == len(cases)
    valid, refused = named["log[line 2]"], named["log[line 2_]"]
    assert valid.problems == ()
    assert valid.row is not None
    assert valid.row.place == valid_at
    assert len(refused.problems) == 1
    assert refused.row is not None
    assert refused.row.place == "log.jsonl:2"


def test_integer_ids_read_as_text_with_ids_as_text(tmp_path: Path) -> None:
    jsonl(tmp_path, good(31), good(10**30))
    cases = load(tmp_path, dataset_case("log.jsonl", "      ids: as-text\n"))
    assert [case.name for case in cases] == ["log[31]", f"log[{10**30}]"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            "      where: {judge: claude}\n",
            "c.rubric.yaml:11:15: dataset 'where' leaves out the only row (judge is "
            'not "claude": 1); the first: log.jsonl:1 holds "gpt-4o" at judge, so the dataset '
            "would be empty; write the values as the export holds them",
        ),
    ],
)
def test_a_where_that_keeps_no_row_is_the_dataset_cases_problem(
    tmp_path: Path, extra: str, message: str
) -> None:
    jsonl(tmp_path, {**good("d1"), "judge": "gpt-4o"})
    (case,) = load(tmp_path, dataset_case("log.jsonl", extra))
    assert case.name == "log"
    assert [str(problem) for problem in case.problems] == [message]


def test_a_where_that_keeps_only_rows_that_cannot_be_cases_is_no_empty_dataset(
    tmp_path: Path,
) -> None:
    jsonl(
        tmp_path,
        {**good(""), "judge": "claude"},
        {**good(" "), "judge": "claude"},
        {**good("d3"), "judge": "gpt-4o"},
    )
    cases = load(tmp_path, dataset_case("log.jsonl", "      where: {judge: claude}\n" + LABELS))
    assert [case.name for case in cases] == ["log[line 1]", "log[line 2]"]
    assert [str(case.problems[0]).split(": ", 2)[2] for case in cases] == [
        "the ID at 'decision_id' is \"\" (a string), which is blank",
        "the ID at 'decision_id' is \" \" (a string), which is blank",
    ]


def test_an_empty_dataset_is_the_cases_problem_never_no_tests(tmp_path: Path) -> None:
    (tmp_path / "log.jsonl").write_text("")
    (case,) = load(tmp_path, dataset_case("log.jsonl"))
    assert [str(problem) for problem in case.problems] == [
        "c.rubric.yaml:5:7: log.jsonl holds no rows, so the dataset would be empty; a dataset "
        "case needs a row at least"
    ]


def test_a_column_the_csv_header_lacks_names_the_nearest(tmp_path: Path) -> None:
    (tmp_path / "log.csv").write_text("decision_id,verdict\nd1,PASS\n")
    text = (
        f"{HEAD}  - id: log\n    dataset:\n      file: log.csv\n      id: decision_id\n"
        "      input: {pass: verdit}\n    expected_subset: {coherent: true}\n"
    )
    (case,) = load(tmp_path, text)
    assert [str(problem) for problem in case.problems] == [
        "c.rubric.yaml:7:21: dataset 'input.pass' names the column 'verdit', which log.csv's "
        "header does not have (it has decision_id, verdict); did you mean 'verdict'?"
    ]


def test_a_dataset_that_cannot_be_read_is_its_cases_problem_at_its_file(
    tmp_path: Path,
) -> None:
    (tmp_path / "log.jsonl").write_text("{not json\n" + json.dumps(good("d1")) + "\n")
    (case,) = load(tmp_path, dataset_case("log.jsonl"))
    assert case.name == "log"
    assert [str(problem) for problem in case.problems] == [
        "c.rubric.yaml:5:13: dataset of case 'log': log.jsonl:1:2: invalid JSON: Expecting "
        "property name enclosed in double quotes; every line of a .jsonl ledger is one JSON object"
    ]


def test_a_row_the_reader_refuses_fails_on_its_own_item_after_the_rows_before_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "log.jsonl").write_text(json.dumps(good("d1")) + "\n{not json\n")
    first, broken = load(tmp_path, dataset_case("log.jsonl", LABELS))
    assert first.name == "log[d1]"
    assert first.problems == ()
    assert broken.name == "log[line 2]"
    assert [str(problem) for problem in broken.problems] == [
        "c.rubric.yaml:3:5: log.jsonl:2:2: invalid JSON: Expecting property name enclosed in "
        "double quotes; every line of a .jsonl ledger is one JSON object; the rows after it "
        "are not read: fix it, and they run again"
    ]


def test_a_value_json_cannot_hold_is_its_rows_problem(tmp_path: Path) -> None:
    import pyarrow
    import pyarrow.parquet

    table = pyarrow.table({"id": ["a", "b"], "score": [0.9, float("nan")]})
    pyarrow.parquet.write_table(table, tmp_path / "s.parquet")
    text = (
        "evaluator: reason\ncases:\n  - id: s\n    dataset: {file: s.parquet, id: id, "
        "input: {score: score}}\n    expected_subset: {coherent: true}\n"
    )
    good_row, bad_row = load(tmp_path, text)
    assert good_row.problems == ()
    assert [str(problem) for problem in bad_row.problems] == [
        "c.rubric.yaml:3:5: s.parquet#row 2: the input.score is nan, which JSON cannot hold"
    ]


def test_a_csv_row_spanning_lines_is_placed_at_the_line_it_starts_on(tmp_path: Path) -> None:
    (tmp_path / "log.csv").write_text(
        'decision_id,verdict,note\nd1,PASS,"a\nnote of\nthree lines"\nd2,PASS,\n'
        'd1,FAIL,"again\ntwice"\nd3,"PASS\nd4,PASS\n'
    )
    text = (
        f"{HEAD}  - id: log\n    dataset:\n      file: log.csv\n      id: decision_id\n"
        "      input: {pass: verdict}\n      labels: {PASS: true, FAIL: false}\n"
        "    expected_subset: {coherent: true}\n"
    )
    first, second, repeated, broken = load(tmp_path, text)
    assert [(case.name, case.row and case.row.place) for case in (first, second)] == [
        ("log[d1]", "log.csv:2"),
        ("log[d2]", "log.csv:5"),
    ]
    assert repeated.name == "log[line 6]"
    assert str(repeated.problems[0]).endswith(
        "log.csv:6: the ID 'd1' repeats the row at log.csv:2; every row of a dataset is a "
        "case of its own, with its own ID"
    )
    assert broken.name == "log[line 8]"
    assert str(broken.problems[0]) == (
        "c.rubric.yaml:3:5: log.csv:8: invalid CSV (the record runs from line 8 to line 9): "
        "unexpected end of data; the rows after it are not read: fix it, and they run again"
    )


@pytest.mark.parametrize(
    ("after", "fault"),
    [
        (
            '"meta": {"run": 1, "run": 2}',
            "3:10: in the value that starts here: duplicate key 'run'",
        ),
        ('"meta": {"score": NaN}', "3:10: in the value that starts here: NaN is not JSON"),
    ],
    ids=["duplicate-key", "nan"],
)
def test_a_fault_after_a_documents_rows_is_the_documents_own_never_its_last_rows(
    tmp_path: Path, after: str, fault: str
) -> None:
    rows = f"{json.dumps(good('d1'))},\n {json.dumps(good('d2'))}"
    (tmp_path / "log.json").write_text(f'{{"rows": [{rows}],\n {after}}}')
    first, second, document = load(
        tmp_path, dataset_case("log.json", LABELS + "      records: rows\n")
    )
    assert [(case.name, case.problems) for case in (first, second)] == [
        ("log[d1]", ()),
        ("log[d2]", ()),
    ]
    assert document.name == "log"  # the dataset case: no row follows to be named
    (problem,) = map(str, document.problems)
    assert problem.startswith(f"c.rubric.yaml:5:13: dataset of case 'log': log.json:{fault}")
    assert "rows after it" not in problem


def test_a_fault_between_a_documents_rows_is_the_next_rows(tmp_path: Path) -> None:
    rows = f"{json.dumps(good('d1'))}, {json.dumps(good('d2'))}\n {json.dumps(good('d3'))}"
    (tmp_path / "log.json").write_text(f"[{rows}]")
    first, second, broken = load(tmp_path, dataset_case("log.json", LABELS))
    assert [case.problems for case in (first, second)] == [(), ()]
    assert broken.name == "log[item 2]"
    assert broken.row is not None
    assert broken.row.place == "log.json#[2]"
    assert str(broken.problems[0]).startswith(
        "c.rubric.yaml:3:5: log.json:2:2: expecting ',' or ']' between rows; the rows after it "
        "are not read"
    )


def test_a_parquet_batch_that_cannot_be_read_is_its_rows_not_the_row_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    parquet = pytest.importorskip("pyarrow.parquet")
    monkeypatch.setattr("pytest_rubric.inputs.parquet.BATCH_ROWS", 1)
    ids = pyarrow.array([b"d1", b"d2", b"d3\xff"], pyarrow.binary()).view(pyarrow.string())
    parquet.write_table(pyarrow.table({"id": ids, "verdict": ["PASS"] * 3}), tmp_path / "s.parquet")
    text = (
        "evaluator: reason\ncases:\n  - id: s\n    dataset: {file: s.parquet, id: id, "
        "input: {pass: verdict}}\n    expected_subset: {coherent: true}\n"
    )
    cases = load(tmp_path, text)
    assert [case.name for case in cases] == ["s[d1]", "s[d2]", "s[row 3]"]
    assert str(cases[2].problems[0]).startswith(
        "c.rubric.yaml:3:5: s.parquet#row 3: a text value is not UTF-8"
    )


def test_an_id_with_whitespace_at_an_end_is_refused_as_a_lookalike(tmp_path: Path) -> None:
    jsonl(tmp_path, good("x"), good("x "))
    cases = load(tmp_path, dataset_case("log.jsonl", LABELS))
    assert [case.name for case in cases] == ["log[x]", "log[line 2]"]
    assert str(cases[1].problems[0]).endswith(
        "log.jsonl:2: the ID 'x ' has leading or trailing whitespace, which would make two IDs "
        "look alike; write it without"
    )


def test_labels_replace_only_their_words_and_a_csv_holds_booleans_as_true_and_false(
    tmp_path: Path,
) -> None:
    (tmp_path / "log.csv").write_text(
        "id,title,source,verdict,codes\n"
        "d1,true,false,FAIL,missing-source\n"
        "d2,true,true,UNSURE,\n"
        "d3,TRUE,true,PASS,all-required-met;missing-title\n"
    )
    text = (
        f"{HEAD}  - id: log\n    dataset:\n      file: log.csv\n      id: id\n"
        "      input: {fields: {title: title, source: source}, pass: verdict, reasons: codes}\n"
        "      labels: {PASS: true, FAIL: false}\n      split: {codes: ';'}\n"
        "    expected_subset: {coherent: true}\n"
    )
    cases = load(tmp_path, text)
    assert [case.input for case in cases] == [
        {"fields": {"title": True, "source": False}, "pass": False, "reasons": ["missing-source"]},
        {"fields": {"title": True, "source": True}, "pass": "UNSURE", "reasons": []},
        {
            "fields": {"title": "TRUE", "source": True},
            "pass": True,
            "reasons": ["all-required-met", "missing-title"],
        },
    ]
    assert [value[0] for value in outcomes(cases).values()] == ["matched", "mismatched"] * 1 + [
        "mismatched"
    ]


def test_each_rows_own_expected_answer_and_a_whole_input_by_one_path(tmp_path: Path) -> None:
    given = {"fields": {"title": True, "source": False}, "pass": False, "reasons": ["x"]}
    jsonl(
        tmp_path,
        {"id": "c1", "input": given, "expected": {"status": "invalid-reason-input"}},
        {"id": "c2", "input": "text", "expected": {}},
        {"id": "c3", "input": given},
    )
    text = (
        f"{HEAD}  - id: set\n    dataset: {{file: log.jsonl, id: id, input: input, "
        "expected: expected}\n"
    )
    cases = load(tmp_path, text)
    assert [str(problem) for case in cases for problem in case.problems] == [
        "c.rubric.yaml:3:5: log.jsonl:2: the input at 'input' is \"text\" (a string), not a mapping",
        "c.rubric.yaml:3:5: log.jsonl:3 has no expected answer at 'expected'; give every row "
        "one there",
    ]
    assert outcomes(cases[:1]) == {"set[c1]": ("matched", {"status": "invalid-reason-input"})}


@pytest.mark.parametrize(
    "input_block",
    [
        pytest.param("input: input", id="one-key-path"),
        pytest.param(
            "input: {fields: input.fields, pass: input.pass, reasons: input.reasons}",
            id="a-path-to-a-mapping",
        ),
        pytest.param(
            "input: {fields: {title: input.fields.title, source: input.fields.source}, "
            "pass: input.pass, reasons: input.reasons}",
            id="leaf-by-leaf",
        ),
    ],
)
def test_labels_read_every_leaf_of_the_input_however_it_is_described(
    tmp_path: Path, input_block: str
) -> None:
    words = {"fields": {"title": "PASS", "source": "FAIL"}, "pass": "FAIL"}
    jsonl(
        tmp_path,
        {"id": "c1", "input": {**words, "reasons": ["missing-source"]}},
        {"id": "c2", "input": {**words, "reasons": ["FAIL"]}},
    )
    text = (
        f"{HEAD}  - id: set\n    dataset: {{file: log.jsonl, id: id, {input_block}, "
        "labels: {PASS: true, FAIL: false}}\n    expected_subset: {coherent: true}\n"
    )
    cases = load(tmp_path, text)
    read = {"fields": {"title": True, "source": False}, "pass": False}
    # A list is one leaf: its items reach the evaluator as they are.
    assert [case.input for case in cases] == [
        {**read, "reasons": ["missing-source"]},
        {**read, "reasons": ["FAIL"]},
    ]
    assert outcomes(cases[:1])["set[c1]"][0] == "matched"


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (
            "    dataset: {file: log.jsonl, id: id, input: {pass: v}}\n    expected: {}\n"
            "    expected_subset: {a: 1}\n",
            "c.rubric.yaml:6:5: the case gives both 'expected' and 'expected_subset'",
        ),
        (
            "    dataset: {file: log.jsonl, id: id, input: {pass: v}, expected: e}\n"
            "    expected_subset: {a: 1}\n",
            "c.rubric.yaml:4:14: the case gives both 'expected_subset' and 'dataset.expected'",
        ),
        (
            "    dataset: {file: log.jsonl, id: id, input: {pass: v}}\n",
            "c.rubric.yaml:4:5: the dataset case says nothing its rows' answers must hold",
        ),
        (
            "    input: {}\n    dataset: {file: log.jsonl, id: id, input: {pass: v}}\n"
            "    expected: {}\n",
            "c.rubric.yaml:4:5: a dataset case reads each row's input from its file; remove 'input'",
        ),
        (
            "    dataset: {file: log.jsonl, id: id, inputs: {pass: v}}\n    expected: {}\n",
            "c.rubric.yaml:4:40: 'inputs' is not a dataset key; did you mean 'input'?",
        ),
        (
            "    dataset: {file: log.jsonl, id: id, input: {pass: v}, split: {v: ';'}}\n"
            "    expected: {}\n",
            "c.rubric.yaml:4:65: dataset 'split' reads a .csv column as a list",
        ),
        (
            "    dataset: {file: log.jsonl, id: id, input: {}}\n    expected: {}\n",
            "c.rubric.yaml:4:47: dataset 'input' is an empty mapping",
        ),
        (
            "    dataset: {file: ../log.jsonl, id: id, input: {pass: v}}\n    expected: {}\n",
            "c.rubric.yaml:4:21: dataset file '../log.jsonl' leads outside the repository",
        ),
        (
            "    input: {pass: true}\n    expected_subset: {}\n",
            "c.rubric.yaml:5:22: 'expected_subset' is empty and pins nothing",
        ),
    ],
)
def test_a_dataset_or_subset_written_wrong_says_where_and_what_to_write(
    tmp_path: Path, case: str, message: str
) -> None:
    folder = tmp_path / "repo"
    folder.mkdir()
    jsonl(folder, good("d1"))
    jsonl(tmp_path, good("d1"))
    text = f"{HEAD}  - id: c\n{case}"
    (folder / "c.rubric.yaml").write_text(text, encoding="utf-8")
    (loaded,) = load_case_file(folder / "c.rubric.yaml", "c.rubric.yaml", root=folder).cases
    assert any(str(problem).startswith(message) for problem in loaded.problems), loaded.problems


# -- expected_subset ------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([1.0, 0.5])
    | st.text("ab", max_size=2),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text("xy", max_size=1), inner, max_size=2)
    ),
    max_leaves=6,
)


def strictly_equal(left: object, right: object) -> bool:
    """JSON equality as the seeds mean it: ``true`` is not ``1``; ``1`` is ``1.0``."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(strictly_equal(left[k], right[k]) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(strictly_equal, left, right))
    return type(left) is type(right) and left == right


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    answer=st.dictionaries(st.sampled_from("abcd"), JSON_VALUES, max_size=4),
    subset=st.dictionaries(st.sampled_from("abcd"), JSON_VALUES, min_size=1, max_size=3),
    copied=st.booleans(),
)
def test_expected_subset_holds_exactly_when_every_named_key_is_strictly_equal(
    answer: dict[str, Any], subset: dict[str, Any], copied: bool
) -> None:
    if copied:  # the subset taken from the answer itself: it holds
        subset = {key: answer[key] for key in subset if key in answer} or subset
    evaluator = Evaluator(name="x", description="x", evaluate=lambda data: answer)
    with tempfile.TemporaryDirectory() as name:
        text = f"evaluator: x\ncases:\n  - id: c\n    input: {{}}\n    expected_subset: {json.dumps(subset)}\n"
        (case,) = load(Path(name), text)
    outcome = run_case(case, evaluator, path="c.rubric.yaml", source="")
    holds = all(
        key in answer and strictly_equal(value, answer[key]) for key, value in subset.items()
    )
    assert outcome.outcome == ("matched" if holds else "mismatched")
    differing = [
        key
        for key, value in subset.items()
        if key not in answer or not strictly_equal(value, answer[key])
    ]
    assert {key.split(".")[0] for key in outcome.differing_keys()} == set(differing)


def test_a_subset_compares_whole_values_and_says_only_its_keys(tmp_path: Path) -> None:
    answer: dict[str, Any] = {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 0},
        "total": 1,
    }
    evaluator = Evaluator(name="x", description="x", evaluate=lambda data: answer)
    text = "evaluator: x\ncases:\n  - id: c\n    input: {}\n    expected_subset: {matrix: {aOnly: 0}}\n"
    (case,) = load(tmp_path, text)
    outcome = run_case(case, evaluator, path="c.rubric.yaml", source="")
    assert outcome.outcome == "mismatched"
    assert outcome.differing_keys() == ["matrix.bothPass", "matrix.bothFail", "matrix.bOnly"]
    truthy: Callable[[Any], Any] = lambda data: {"ok": 1}  # noqa: E731
    (case,) = load(tmp_path, text.replace("{matrix: {aOnly: 0}}", "{ok: true}"))
    assert (
        run_case(
            case, Evaluator(name="x", description="x", evaluate=truthy), path="c", source=""
        ).outcome
        == "mismatched"
    )
