"""Delimited text as its tools write it: a ``.tsv`` reads as the same CSV with tabs
(answer, evidence, review, blocks and rows alike), and a header that repeats a name
(promptfoo's CSV of two prompts) names each of its columns ``NAME#N``, never the bare
name. The real files are under ``docs/demos/tools/``."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from _agreement import agreement_case, answer, reviewed, run_agreement
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.inputs.rows import FileRows
from pytest_rubric.reports.schema import shipped
from pytest_rubric.running.datasetcases import dataset_cases
from pytest_rubric.running.outcome import CaseOutcome

TOOLS = Path(__file__).resolve().parent.parent / "docs" / "demos" / "tools"
LABELS = "labels: {PASS: true, FAIL: false}"


def as_delimited(rows: list[list[str]], delimiter: str, ending: str = "\n") -> str:
    """``rows`` as Python's ``csv`` module (and so pandas and Label Studio) writes them."""
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator=ending).writerows(rows)
    return out.getvalue()


def seen(outcome: CaseOutcome) -> str:
    """Everything people and tools are told of ``outcome`` (its answer, evidence and
    rows to review), as JSON text with a ``.tsv`` file named as its ``.csv`` twin."""
    evidence = outcome.evidence
    told = {
        "outcome": outcome.outcome,
        "problems": outcome.problems,
        "actual": outcome.actual,
        "facts": None if evidence is None else evidence.facts,
        "problem": None if evidence is None else evidence.problem,
        "review": outcome.review,
    }
    return json.dumps(told).replace(".tsv", ".csv")


# -- a TSV and the same CSV -----------------------------------------------------------------------

#: An ID's oddities: none, or a character one of the two files must quote.
ODD = ["", "", "", ",", "\t", '"', " x", "\n"]
WORDS = ["PASS", "FAIL", "pass", ""]


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[str]], str]:
    """A table as an export holds it, and the ``ledger:`` block that reads it: plain
    ``id,a,b``, a tool's own columns and words, one row per judgement grouped by desk,
    or a header that repeats ``Status``."""
    shape = draw(st.sampled_from(["plain", "words", "judgements", "repeated"]))
    cases = draw(st.integers(0, 8))
    ids = [f"h{number}{draw(st.sampled_from(ODD))}" for number in range(cases)]
    if shape == "plain":
        cells = st.sampled_from(["true", "false", "TRUE"])
        rows = [[case_id, draw(cells), draw(cells)] for case_id in ids]
        return [["id", "a", "b"], *rows], ""
    words = st.sampled_from(WORDS)
    if shape == "words":
        rows = [[case_id, draw(words), draw(words), draw(words)] for case_id in ids]
        block = f"{{id: task, a: judge, b: desk, {LABELS}}}"
        return [["task", "judge", "desk", "note"], *rows], block
    if shape == "repeated":
        note = draw(st.booleans())
        header = ["id", "Status", "note", "Status"] if note else ["id", "Status", "Status"]
        rows = [[case_id, *(draw(words) for _ in header[1:])] for case_id in ids]
        where = ", where: {note: PASS}" if note and draw(st.booleans()) else ""
        return [header, *rows], f"{{id: id, a: 'Status#1', b: 'Status#2', {LABELS}{where}}}"
    judged = []
    for case_id in ids:
        graders = draw(st.permutations(["j", "e", "x"]))[: draw(st.integers(1, 3))]
        desk = draw(st.sampled_from(["sport", "city, west"]))
        judged += [[case_id, grader, draw(words), desk] for grader in graders]
    if draw(st.booleans()):
        judged.sort(key=lambda row: row[1])
    block = (
        "{rows: per-judgement, id: id, grader: who, label: verdict, a: j, b: e, "
        f"{LABELS}, group_by: desk}}"
    )
    return [["id", "who", "verdict", "desk"], *judged], block


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), ending=st.sampled_from(["\n", "\r\n"]), packed=st.booleans())
def test_a_tsv_gives_the_answer_evidence_and_review_of_the_same_csv(
    table: tuple[list[list[str]], str], ending: str, packed: bool
) -> None:
    rows, block = table
    ledger = f"    ledger: {block}\n" if block else ""
    told = []
    with tempfile.TemporaryDirectory() as folder:
        for delimiter, name in ((",", "w.csv"), ("\t", "w.tsv")):
            data = as_delimited(rows, delimiter, ending).encode()
            if packed:
                data, name = gzip.compress(data), f"{name}.gz"
            body = f"    input_file: {name}\n{ledger}"
            told.append(seen(run_agreement(Path(folder), {name: data}, body, review_at=name)))
    assert told[0] == told[1]


def test_a_plain_tsv_is_tallied_in_blocks_as_a_plain_csv_is(tmp_path: Path) -> None:
    shapes = {
        "": [["id", "a", "b"], ["h1", "true", "false"], ["h2", "true", "true"]],
        "{id: id, a: 'Status#1', b: 'Status#2'}": [
            ["id", "Status", "Status"],
            ["h1", "true", "false"],
            ["h2", "true", "true"],
        ],
        "{rows: per-judgement, id: id, grader: who, label: verdict, a: j, b: e}": [
            ["id", "who", "verdict", "note"],
            ["h1", "j", "true", "one"],
            ["h1", "e", "false", "two"],
            ["h2", "e", "true", "three"],
            ["h2", "j", "true", "four"],
        ],
    }
    for block, rows in shapes.items():
        ledger = f"    ledger: {block}\n" if block else ""
        for name, delimiter in (("w.csv", ","), ("w.tsv", "\t")):
            files: dict[str, str | bytes] = {name: as_delimited(rows, delimiter)}
            case = agreement_case(tmp_path, files, f"    input_file: {name}\n{ledger}")
            assert case.input_file is not None
            blocks = list(FileRows(case.input_file).label_blocks())
            assert None not in blocks, (block, name)
            assert sum(sum(found.pairs) for found in blocks if isinstance(found, LabelBlock)) == 2


# -- the tools' own files -------------------------------------------------------------------------


def test_label_studios_tsv_export_is_read_as_it_comes(tmp_path: Path) -> None:
    """Label Studio's TSV export (every text cell quoted, CRLF line ends) of the tasks in
    ``label-studio.json``: one row per annotation, its annotator's user ID as text."""
    data = (TOOLS / "label-studio.tsv").read_bytes()
    assert data.startswith(b'"annotation_id"\t"annotator"\t')  # quoted, as csv2.py writes
    assert data.count(b"\r\n") == 17
    body = (
        "    ledger: {rows: per-judgement, id: id, grader: annotator, label: verdict,\n"
        f"             a: '10', b: '12', {LABELS}}}\n"
    )
    for name, content in (("ls.tsv", data), ("ls.tsv.gz", gzip.compress(data))):
        outcome = run_agreement(
            tmp_path, {name: content}, f"    input_file: {name}\n{body}", review_at=name
        )
        assert answer(outcome) == {
            "matrix": {"bothPass": 5, "bothFail": 2, "aOnly": 0, "bOnly": 1},
            "agreement": 7,
            "total": 8,
            "disagreements": ["108"],
        }
        (row,) = reviewed(outcome)
        assert row["fields"]["text"] == "Zoo welcomes red panda cub"


PROMPTFOO = (TOOLS / "promptfoo-two-prompts.csv").read_text(encoding="utf-8")
TWO_PROMPTS = {
    "matrix": {"bothPass": 5, "bothFail": 1, "aOnly": 0, "bOnly": 2},
    "agreement": 6,
    "total": 8,
    "disagreements": ["h6", "h8"],
}


def promptfoo_tsv() -> str:
    """promptfoo's CSV of two prompts, saved with tabs."""
    return as_delimited(list(csv.reader(io.StringIO(PROMPTFOO, newline=""))), "\t")


def test_promptfoos_csv_of_two_prompts_names_each_status_by_its_place() -> None:
    header = PROMPTFOO.partition("\n")[0].split(",")
    assert header.count("Status") == 2  # as promptfoo writes it
    body = f"{{id: id, a: 'Status#1', b: 'Status#2', graders: {{a: strict, b: lenient}}, {LABELS}}}"
    told = []
    with tempfile.TemporaryDirectory() as folder:
        for name, content in (("p.csv", PROMPTFOO), ("p.tsv", promptfoo_tsv())):
            outcome = run_agreement(
                Path(folder),
                {name: content},
                f"    input_file: {name}\n    ledger: {body}\n",
                review_at=name,
            )
            assert answer(outcome) == TWO_PROMPTS
            fields = reviewed(outcome)[0]["fields"]
            assert fields["[echo] lenient"] == "lenient: Unemployment plunges across the region"
            assert (fields["Score#1"], fields["Score#2"]) == ("0.00", "1.00")
            told.append(seen(outcome))
    assert told[0] == told[1]


@pytest.mark.parametrize("name", ["p.csv", "p.tsv"])
@pytest.mark.parametrize(
    ("ledger", "key", "col"),
    [
        (f"{{id: id, a: Status, b: 'Status#2', {LABELS}}}", "a", 25),
        (f"{{id: id, a: 'Status#1', b: 'Status#2', group_by: Score, {LABELS}}}", "group_by", 62),
        (
            f"{{id: id, a: 'Status#1', b: 'Status#2', where: {{Score: '1.00'}}, {LABELS}}}",
            "where",
            60,
        ),
    ],
)
def test_the_bare_repeated_name_is_refused_naming_each_column_and_how_to_write_it(
    tmp_path: Path, name: str, ledger: str, key: str, col: int
) -> None:
    content = PROMPTFOO if name == "p.csv" else promptfoo_tsv()
    outcome = run_agreement(
        tmp_path, {name: content}, f"    input_file: {name}\n    ledger: {ledger}\n"
    )
    column, first = ("Status", 5) if key == "a" else ("Score", 6)
    assert outcome.problems == (
        f"c.rubric.yaml:5:{col}: ledger '{key}' names the column '{column}', which {name}'s "
        f"header names twice; say which one: '{column}#1' (column {first}) or '{column}#2' "
        f"(column {first + 6})",
    )


def test_a_join_reads_each_prompt_from_its_own_file(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"strict.csv": PROMPTFOO, "lenient.tsv": promptfoo_tsv()}
    body = (
        "    ledger:\n"
        f"      a: {{input_file: strict.csv, id: id, label: 'Status#1', {LABELS}}}\n"
        f"      b: {{input_file: lenient.tsv, id: id, label: 'Status#2', {LABELS}}}\n"
    )
    assert answer(run_agreement(tmp_path, files, body)) == TWO_PROMPTS


def test_a_dataset_reads_a_repeated_name_by_its_place(tmp_path: Path) -> None:
    (tmp_path / "p.tsv").write_text(promptfoo_tsv(), encoding="utf-8")
    template = (
        "evaluator: reason\ncases:\n  - id: log\n    dataset:\n      file: p.tsv\n"
        "      id: id\n      input: {fields: {strict: NAME}, pass: NAME, reasons: flag}\n"
        f"      split: {{flag: ' '}}\n      {LABELS}\n    expected_subset: {{coherent: true}}\n"
    )
    case_path = tmp_path / "c.rubric.yaml"
    case_path.write_text(template.replace("NAME", "'Status#2'"), encoding="utf-8")
    (case,) = load_case_file(case_path, "c.rubric.yaml", root=tmp_path).cases
    passed = [row.input["pass"] for row in dataset_cases(case, "c.rubric.yaml")]
    assert passed == [True, True, False, True, True, True, True, True]
    case_path.write_text(template.replace("NAME", "Status"), encoding="utf-8")
    (case,) = load_case_file(case_path, "c.rubric.yaml", root=tmp_path).cases
    (row,) = dataset_cases(case, "c.rubric.yaml")
    assert tuple(map(str, row.problems)) == (
        "c.rubric.yaml:7:32: dataset 'input.fields.strict' names the column 'Status', which "
        "p.tsv's header names twice; say which one: 'Status#1' (column 5) or 'Status#2' "
        "(column 11)",
    )


# -- headers no description can read --------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "ledger", "message"),
    [
        (
            "id,a,a,b",
            "",
            "w.csv:1: the header names the column 'a' more than once (columns 2 and 3); say "
            "which one under 'ledger:' (e.g. 'ledger: {a: a#2}' for the second)",
        ),
        (
            "id,Status,Status,Status#2",
            "{id: id, a: 'Status#1', b: 'Status#2'}",
            "w.csv:1: the header names the column 'Status#2' twice (columns 3 and 4); give "
            "each column its own name",
        ),
    ],
)
def test_a_header_no_description_can_read_is_refused_at_its_line(
    tmp_path: Path, header: str, ledger: str, message: str
) -> None:
    block = f"    ledger: {ledger}\n" if ledger else ""
    files: dict[str, str | bytes] = {"w.csv": f"{header}\nh1,true,true,true\n"}
    outcome = run_agreement(tmp_path, files, f"    input_file: w.csv\n{block}")
    assert outcome.problems == (f"the input is not usable: {message}",)


def test_other_repeated_columns_are_review_fields_by_their_place(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "w.tsv": "id\ta\tb\tnote\tnote\nh1\ttrue\tfalse\tfirst\tsecond\n"
    }
    outcome = run_agreement(tmp_path, files, "    input_file: w.tsv\n", review_at="w.tsv")
    (row,) = reviewed(outcome)
    assert row["fields"] == {"note#1": "first", "note#2": "second"}


def test_rubric_check_knows_a_tsv_and_how_a_repeated_name_is_written(
    pytester: pytest.Pytester,
) -> None:
    shutil.copy(TOOLS / "promptfoo-two-prompts.csv", pytester.path / "p.csv")
    (pytester.path / "p.tsv").write_text(promptfoo_tsv(), encoding="utf-8")
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n"
        f"  - id: ok\n    input_file: p.tsv\n    ledger: {{id: id, a: 'Status#1', b: 'Status#2', {LABELS}}}\n"
        f"    expected: {json.dumps(TWO_PROMPTS)}\n"
        f"  - id: listed\n    input_file: p.csv\n    ledger: {{id: id, a: 'Status#1', b: [Status, 2], {LABELS}}}\n"
        f"    expected: {json.dumps(TWO_PROMPTS)}\n",
    )
    result = pytester.runpytest("--rubric-check")
    assert result.ret != 0
    result.stdout.fnmatch_lines(
        [
            "c.rubric.yaml:9:40: ledger 'b' is a key path of 2 keys, but a .csv file has flat "
            "columns; for the 2nd column its header names 'Status', write 'b: Status#2'",
            "rubric check: 1 case file, 2 cases: 1 problem",
        ]
    )
    pytester.makefile(
        ".rubric.yaml",
        c=(pytester.path / "c.rubric.yaml").read_text().replace("[Status, 2]", "'Status#2'"),
    )
    assert pytester.runpytest("--rubric-check").ret == 0
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_the_case_file_schema_knows_a_tsv_and_how_a_repeated_name_is_written() -> None:
    case = shipped()["$defs"]["case"]["properties"]
    patterns: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            patterns.extend(v for k, v in value.items() if k == "pattern" and "jsonl" in v)
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(case)
    assert len(patterns) == 4  # input_file, each side of a join, dataset's file
    for pattern in patterns:
        assert re.search(pattern, "w.tsv")
        assert re.search(pattern, "w.tsv.gz")
        assert not re.search(pattern, "w.tsv.bak")
    assert "Status#2" in case["ledger"]["description"]
    assert "Status#2" in case["dataset"]["description"]


def test_a_tsvs_header_is_shown_with_its_tabs(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"w.tsv": "case\ta\tb\nh1\ttrue\n"}
    outcome = run_agreement(tmp_path, files, "    input_file: w.tsv\n")
    assert outcome.problems == (
        "the input is not usable: w.tsv:1: the header must name the columns id, a and b "
        "(found 'case\\ta\\tb'); write 'id\\ta\\tb' on the first line, or say which columns "
        "hold them under 'ledger:' (e.g. 'ledger: {id: task_id, a: judge_label, b: "
        "editor_label}')",
    )
    files = {"w.tsv": "id\ta\tb\nh1\ttrue\n"}
    outcome = run_agreement(tmp_path, files, "    input_file: w.tsv\n")
    assert outcome.problems == (
        "the input is not usable: w.tsv:2: 2 cells where the header has 3 (id\\ta\\tb); "
        "quote a cell that holds a tab",
    )
