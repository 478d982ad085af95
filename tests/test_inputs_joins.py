"""Two graders' files joined by case ID: the seeds' rules over the joined ledger (identity
before labels, one side only, an ID twice within a side), its order, what the evidence
says of each side, and the ``ledger:`` block's problems."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from _agreement import agreement_case, answer, reviewed, run_agreement
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.evaluators.agreement import stream_agreement, tally_blocks, tally_rows
from pytest_rubric.inputs.joins import JoinedRows
from pytest_rubric.running.outcome import CaseOutcome

JOIN = (
    "{a: {input_file: judge.jsonl, id: id, label: verdict}, "
    "b: {input_file: desk.csv, id: headline_id, label: verdict, labels: {PASS: true, FAIL: false}}}"
)


def run_case_file(folder: Path, files: dict[str, str], case: str) -> CaseOutcome:
    """The outcome of the one agreement case ``case`` (its keys after ``id: x``, indented
    four spaces), beside ``files``, with its rows for review kept."""
    return run_agreement(folder, dict(files), case)


def judge_jsonl(rows: list[tuple[Any, Any]]) -> str:
    return "".join(json.dumps({"id": i, "verdict": v, "reason": f"r-{i}"}) + "\n" for i, v in rows)


def desk_csv(rows: list[tuple[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["headline_id", "verdict"])
    writer.writerows(rows)
    return out.getvalue()


def joined(folder: Path, judge: list[tuple[Any, Any]], desk: list[tuple[str, str]]) -> CaseOutcome:
    return run_case_file(
        folder,
        {"judge.jsonl": judge_jsonl(judge), "desk.csv": desk_csv(desk)},
        f"    ledger: {JOIN}\n",
    )


def words(value: bool) -> str:
    return "PASS" if value else "FAIL"


def test_a_judge_file_and_a_desk_file_are_joined_by_case_id_in_side_as_order(
    tmp_path: Path,
) -> None:
    outcome = joined(
        tmp_path,
        [("h1", True), ("h2", False), ("h3", True)],
        [("h3", "FAIL"), ("h1", "PASS"), ("h2", "FAIL")],
    )
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 1, "aOnly": 1, "bOnly": 0},
        "agreement": 2,
        "total": 3,
        "disagreements": ["h3"],
    }
    assert outcome.evidence is not None
    assert outcome.evidence.facts["IDs"] == "a 3 (judge.jsonl), b 3 (desk.csv)"
    assert outcome.review is not None
    (row,) = reviewed(outcome)
    assert row["where"] == "judge.jsonl:3"  # the row as side a holds it
    assert row["fields"] == {"reason": "r-h3"}  # side a's other keys are review fields


def test_an_id_on_one_side_only_is_review_label_and_the_evidence_names_where(
    tmp_path: Path,
) -> None:
    outcome = joined(
        tmp_path,
        [("h1", True), ("h2", False)],
        [("h1", "PASS"), ("h9", "FAIL"), ("h2", "FAIL")],
    )
    assert outcome.actual == {"error": "review-label"}
    assert outcome.evidence is not None
    assert outcome.evidence.problem == (
        "desk.csv:3 rows[2] (id 'h9') has no label a; a missing label is an evidence gap, "
        "not a guess"
    )
    assert outcome.evidence.facts["on one side only"] == "'h9' (desk.csv:3, b only)"
    assert outcome.evidence.facts["IDs"] == "a 2 (judge.jsonl), b 3 (desk.csv)"


def test_the_evidence_names_the_first_three_ids_on_one_side_only(tmp_path: Path) -> None:
    judge = [(f"a{n}", True) for n in range(5)]
    outcome = joined(tmp_path, judge, [("b1", "PASS")])
    assert outcome.evidence is not None
    assert outcome.evidence.facts["on one side only"] == (
        "'a0' (judge.jsonl:1, a only), 'a1' (judge.jsonl:2, a only), 'a2' (judge.jsonl:3, a only)"
    )


def test_identity_comes_before_labels_an_id_twice_within_side_b(tmp_path: Path) -> None:
    # h9 is on one side only (a label problem, found first in row order), but the
    # repeat of h1 within b is an identity problem, which the seeds check first.
    outcome = joined(
        tmp_path,
        [("h9", True), ("h1", True)],
        [("h1", "PASS"), ("h1", "FAIL")],
    )
    assert outcome.actual == {"error": "review-case-identity"}
    assert outcome.evidence is not None
    assert "desk.csv:3" in (outcome.evidence.problem or "")
    assert "'h1'" in (outcome.evidence.problem or "")


def test_an_id_twice_within_side_a_is_an_identity_problem(tmp_path: Path) -> None:
    outcome = joined(tmp_path, [("h1", True), ("h1", False)], [("h1", "PASS")])
    assert outcome.actual == {"error": "review-case-identity"}
    assert outcome.evidence is not None
    assert (outcome.evidence.problem or "").startswith("judge.jsonl:2 rows[1]")


@pytest.mark.parametrize(
    ("judge_id", "desk_id"),
    [(" ", "h1"), ("h1", " "), (7, "7"), (True, "h1")],
    ids=["blank-in-a", "blank-in-b", "number-in-a", "boolean-in-a"],
)
def test_a_blank_or_non_text_id_on_either_side_is_an_identity_problem(
    tmp_path: Path, judge_id: Any, desk_id: str
) -> None:
    outcome = joined(tmp_path, [(judge_id, True), ("h2", True)], [(desk_id, "PASS")])
    assert outcome.actual == {"error": "review-case-identity"}


def test_ids_as_text_reads_a_sides_integer_ids_as_their_decimal_text(tmp_path: Path) -> None:
    outcome = run_case_file(
        tmp_path,
        {
            "judge.jsonl": judge_jsonl([(7, True), (12, False)]),
            "desk.csv": desk_csv([("12", "FAIL"), ("7", "FAIL")]),
        },
        "    ledger:\n"
        "      a: {input_file: judge.jsonl, id: id, label: verdict, ids: as-text}\n"
        "      b: {input_file: desk.csv, id: headline_id, label: verdict}\n"
        "      labels: [[true, true], [false, false], [PASS, true], [FAIL, false]]\n",
    )
    assert outcome.actual == {
        "matrix": {"bothPass": 0, "bothFail": 1, "aOnly": 1, "bOnly": 0},
        "agreement": 1,
        "total": 2,
        "disagreements": ["7"],
    }


TWO_SIDES = (
    "    ledger:\n"
    "      a: {{input_file: a.jsonl, id: id, label: verdict{a}}}\n"
    "      b: {{input_file: b.jsonl, id: id, label: verdict{b}}}\n"
)


@pytest.mark.parametrize(
    ("a_ids", "b_ids", "problem"),
    [
        pytest.param(
            [7, 12],
            ["7", "12"],
            "a.jsonl:1 rows[0].id is 7 (a number), and an ID is text; read the export's "
            "integer IDs as their decimal text with 'ids: as-text' under 'a:' (c.rubric.yaml:5:36)",
            id="an-integer-on-side-a",
        ),
        pytest.param(
            ["7", "12"],
            [7, 12],
            "b.jsonl:1 rows[2].id is 7 (a number), and an ID is text; read the export's "
            "integer IDs as their decimal text with 'ids: as-text' under 'b:' (c.rubric.yaml:6:36)",
            id="an-integer-on-side-b",
        ),
        pytest.param(
            [1.0, "12"],
            ["1", "12"],
            "a.jsonl:1 rows[0].id is 1.0 (a number), and an ID is text; write the IDs as text "
            "in the export itself: 'ids: as-text', under 'a:' (c.rubric.yaml:5:36), reads "
            "integers only, never 1.0",
            id="a-float-told-to-fix-the-export",
        ),
    ],
)
def test_a_number_id_on_a_side_names_that_sides_block_and_advice_for_an_export(
    tmp_path: Path, a_ids: list[Any], b_ids: list[Any], problem: str
) -> None:
    files: dict[str, str | bytes] = {
        "a.jsonl": judge_jsonl([(case_id, True) for case_id in a_ids]),
        "b.jsonl": judge_jsonl([(case_id, True) for case_id in b_ids]),
    }
    outcome = run_agreement(tmp_path, files, TWO_SIDES.format(a="", b=""))
    assert outcome.actual == {"error": "review-case-identity"}
    assert outcome.evidence is not None
    assert outcome.evidence.problem == problem
    if all(type(case_id) is not float for case_id in a_ids):  # the advice, followed, holds
        side = "a" if type(a_ids[0]) is int else "b"
        told = {"a": "", "b": "", side: ", ids: as-text"}
        fixed = run_agreement(tmp_path, files, TWO_SIDES.format(**told))
        assert fixed.problems == ()
        assert answer(fixed)["agreement"] == 2


def test_a_word_outside_a_sides_labels_names_that_sides_file_and_vocabulary(
    tmp_path: Path,
) -> None:
    outcome = joined(tmp_path, [("h1", True), ("h2", True)], [("h1", "PASS"), ("h2", "pass")])
    assert outcome.actual == {"error": "review-label"}
    assert outcome.evidence is not None
    assert outcome.evidence.problem == (
        "desk.csv:3: the label of b (id 'h2') is \"pass\" (a string), which is not one of the "
        "ledger's "
        'labels: "PASS" (true), "FAIL" (false); labels are compared exactly (no case '
        "folding, no trimming): add it to 'labels' if the export means it, or fix the row"
    )


def test_where_on_a_side_leaves_rows_out_and_the_evidence_counts_them(tmp_path: Path) -> None:
    judge = "".join(
        json.dumps({"id": i, "verdict": v, "epoch": e}) + "\n"
        for i, v, e in [("h1", True, 1), ("h1", False, 2), ("h2", True, 1), ("h2", True, 2)]
    )
    outcome = run_case_file(
        tmp_path,
        {"judge.jsonl": judge, "desk.csv": desk_csv([("h1", "PASS"), ("h2", "FAIL")])},
        "    ledger:\n"
        "      a: {input_file: judge.jsonl, id: id, label: verdict, where: {epoch: 1}}\n"
        "      b: {input_file: desk.csv, id: headline_id, label: verdict, "
        "labels: {PASS: true, FAIL: false}}\n",
    )
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": 1,
        "total": 2,
        "disagreements": ["h2"],
    }
    assert outcome.evidence is not None
    assert outcome.evidence.facts["left out"] == "2 rows by 'where' (a: epoch is not 1: 2)"


def test_a_json_document_side_reads_its_records(tmp_path: Path) -> None:
    log = {
        "version": 2,
        "samples": [
            {"id": 1, "scores": {"fact": {"value": "C"}}},
            {"id": 2, "scores": {"fact": {"value": "I"}}},
        ],
        "stats": {},
    }
    outcome = run_case_file(
        tmp_path,
        {
            "log.json": json.dumps(log, indent=2),
            "desk.csv": desk_csv([("2", "PASS"), ("1", "PASS")]),
        },
        "    ledger:\n"
        "      a: {input_file: log.json, records: samples, id: id, ids: as-text, "
        "label: scores.fact.value, labels: {C: true, I: false}}\n"
        "      b: {input_file: desk.csv, id: headline_id, label: verdict, "
        "labels: {PASS: true, FAIL: false}}\n",
    )
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 1},
        "agreement": 1,
        "total": 2,
        "disagreements": ["2"],
    }
    assert outcome.review is not None
    assert reviewed(outcome)[0]["where"] == "log.json#samples[1]"


# -- the same ledger written as id,a,b -------------------------------------------------------------

JOIN_IDS = st.text(st.characters(codec="utf-8", exclude_characters="\r\n\x00"), max_size=4)
SIDES = st.lists(
    st.tuples(JOIN_IDS, st.sampled_from([True, False, None]), st.sampled_from([True, False, None])),
    max_size=10,
).filter(lambda rows: all(a is not None or b is not None for _, a, b in rows))


def _no_places(text: str | None) -> str | None:
    """A problem without the places that name rows (each file names its own)."""
    return None if text is None else re.sub(r"\S+(:\d+|#\S*)( rows\[\d+\])?", "ROW", text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=SIDES, seed=st.integers(0, 2**16))
def test_a_joined_pair_shuffled_answers_as_the_same_ledger_written_as_id_a_b(
    rows: list[tuple[str, bool | None, bool | None]], seed: int
) -> None:
    shuffle = random.Random(seed).shuffle
    judge = [(i, a) for i, a, _ in rows if a is not None]
    desk = [(i, words(b)) for i, _, b in rows if b is not None]
    shuffle(judge)
    shuffle(desk)
    # The joined ledger: a's rows in a's order, each with b's first label of its ID; then,
    # in b's order, b's rows whose ID a lacks and b's repeats of an ID.
    first_b: dict[str, str] = {}
    for i, b in desk:
        first_b.setdefault(i, b)
    ledger: list[dict[str, Any]] = []  # the same ledger, a missing label left out
    used: set[str] = set()
    for i, a in judge:
        row: dict[str, Any] = {"id": i, "a": a}
        if i in first_b and i not in used:
            row["b"] = first_b[i] == "PASS"
        used.add(i)
        ledger.append(row)
    seen_b: set[str] = set()
    for i, b in desk:
        if i not in used or i in seen_b:
            ledger.append({"id": i, "b": b == "PASS"})
        seen_b.add(i)
    text = "".join(json.dumps(row) + "\n" for row in ledger)
    with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
        join = joined(Path(one), judge, desk)
        plain = run_case_file(Path(two), {"l.jsonl": text}, "    input_file: l.jsonl\n")
    assert join.actual == plain.actual
    assert (join.evidence is None) == (plain.evidence is None)
    if join.evidence is not None and plain.evidence is not None:
        assert _no_places(join.evidence.problem) == _no_places(plain.evidence.problem)
        for key in ("matrix", "agreement", "disagreements"):
            assert join.evidence.facts.get(key) == plain.evidence.facts.get(key)
    if join.review is not None or plain.review is not None:
        assert join.review is not None
        assert plain.review is not None
        assert [(r["id"], r["a"], r["b"], r["side"]) for r in reviewed(join)] == [
            (r["id"], r["a"], r["b"], r["side"]) for r in reviewed(plain)
        ]


# -- the ledger: block of a join ------------------------------------------------------------------


def problems_of(folder: Path, case: str) -> list[str]:
    empty: dict[str, str | bytes] = {"judge.jsonl": "", "desk.csv": ""}
    return [str(problem) for problem in agreement_case(folder, empty, case).problems]


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (
            f"    input_file: judge.jsonl\n    ledger: {JOIN}\n",
            "c.rubric.yaml:4:5: the ledger joins two files, each side naming its own "
            "'input_file'; remove the case's 'input_file'",
        ),
        (
            "    ledger: {a: {input_file: judge.jsonl, id: id, label: verdict}, b: verdict}\n",
            "c.rubric.yaml:4:71: 'a' is a side of a join (its grader's own file), so 'b' must "
            'be one too, not "verdict" (a string); write e.g. \'b: {input_file: labels/b.csv, id: '
            "case_id, label: verdict}'",
        ),
        (
            "    ledger: {a: {input_file: judge.jsonl, label: verdict}, "
            "b: {input_file: desk.csv, id: i, label: v}}\n",
            "c.rubric.yaml:4:17: side 'a' of the join needs 'id:' (the column or key of its "
            "case ID)",
        ),
        (
            "    ledger: {a: {input_file: judge.jsonl, id: id, label: verdict, wher: {x: 1}}, "
            "b: {input_file: desk.csv, id: i, label: v}}\n",
            "c.rubric.yaml:4:67: 'wher' is not a key of a side of a join ('a'); did you mean "
            "'where'?",
        ),
        (
            "    ledger: {a: {input_file: nowhere.csv, id: id, label: verdict}, "
            "b: {input_file: desk.csv, id: i, label: v}}\n",
            "c.rubric.yaml:4:30: input_file 'nowhere.csv' does not exist (nowhere.csv); check "
            "the path",
        ),
        (
            f"    ledger: {{where: {{x: 1}}, {JOIN[1:]}\n",
            "c.rubric.yaml:4:14: 'where' describes one file, and a join has two: write it "
            "under each side ('a: {..., where: ...}', 'b: {..., where: ...}')",
        ),
        (
            "    ledger: {a: {input_file: judge.jsonl, id: id, label: verdict}, "
            "b: {input_file: desk.csv, id: i, label: v, where: {flag: true}}}\n",
            "c.rubric.yaml:4:125: 'b' 'where' wants 'flag' to hold true (a boolean), but every "
            "cell of a .csv file is text; write it quoted ('true')",
        ),
        (
            "    ledger: {a: {input_file: judge.jsonl, id: id, label: verdict, records: r}, "
            "b: {input_file: desk.csv, id: i, label: v}}\n",
            "c.rubric.yaml:4:76: 'a' 'records' names the list of rows inside a .json "
            "document, but this file is .jsonl, whose rows are its lines already; remove "
            "'records'",
        ),
    ],
    ids=[
        "a-case-input-file-too",
        "one-side-a-column",
        "a-side-without-id",
        "a-misspelt-side-key",
        "a-side-file-missing",
        "where-at-the-ledger-level",
        "a-boolean-where-on-csv",
        "records-on-jsonl",
    ],
)
def test_a_join_block_with_a_slip_is_refused_at_its_place(
    tmp_path: Path, case: str, message: str
) -> None:
    assert message in problems_of(tmp_path, case)


def test_a_joined_case_file_reruns_from_the_cache_alike(pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("judge.jsonl").write_text(judge_jsonl([("h1", True), ("h2", False)]))
    pytester.path.joinpath("desk.csv").write_text(desk_csv([("h2", "PASS"), ("h1", "PASS")]))
    pytester.makefile(
        ".rubric.yaml",
        weeks=f"""\
        evaluator: agreement
        cases:
          - id: judge-vs-desk
            ledger: {JOIN}
            expected:
              matrix: {{bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 1}}
              agreement: 1
              total: 2
              disagreements: [h2]
        """,
    )
    first = pytester.runpytest("-p", "no:randomly", "--rubric-report=r.json")
    first.assert_outcomes(passed=1)
    (record,) = json.loads((pytester.path / "r.json").read_text())["cases"]
    assert record["review"]["rows"][0]["where"] == "judge.jsonl:2"
    pytester.path.joinpath("desk.csv").write_text(desk_csv([("h2", "FAIL"), ("h1", "PASS")]))
    again = pytester.runpytest("-p", "no:randomly")  # the case file from the cache
    again.assert_outcomes(failed=1)
    again.stdout.fnmatch_lines(["*disagreements*", "*actual*[[][]]*"])


def test_a_join_side_whose_where_keeps_nothing_is_a_case_error(tmp_path: Path) -> None:
    outcome = run_case_file(
        tmp_path,
        {"judge.jsonl": judge_jsonl([("h1", True)]), "desk.csv": desk_csv([("h1", "PASS")])},
        "    ledger:\n"
        "      a: {input_file: judge.jsonl, id: id, label: verdict, where: {reason: x}}\n"
        "      b: {input_file: desk.csv, id: headline_id, label: verdict, "
        "labels: {PASS: true, FAIL: false}}\n",
    )
    assert outcome.problems == (
        "c.rubric.yaml:5:68: side 'a': 'where' leaves out the only row (reason is "
        'not "x": 1); the first: judge.jsonl:1 holds "r-h1" at reason, so the ledger would be '
        "empty; write the values as the export holds them",
    )


def test_a_sides_missing_column_is_named_by_the_sides_key(tmp_path: Path) -> None:
    outcome = run_case_file(
        tmp_path,
        {"judge.jsonl": judge_jsonl([("h1", True)]), "desk.csv": desk_csv([("h1", "PASS")])},
        "    ledger:\n"
        "      a: {input_file: judge.jsonl, id: id, label: verdict}\n"
        "      b: {input_file: desk.csv, id: headline_id, label: verdcit, "
        "labels: {PASS: true, FAIL: false}}\n",
    )
    (problem,) = outcome.problems
    assert problem.startswith(
        "c.rubric.yaml:6:57: ledger 'b.label' names the column 'verdcit', which desk.csv's "
        "header does not have"
    )
    assert problem.endswith("did you mean 'verdict'?")


def test_a_side_row_that_is_not_a_mapping_is_named_with_what_it_holds(tmp_path: Path) -> None:
    outcome = run_case_file(
        tmp_path,
        {"judge.json": '[1, {"id": "h1", "verdict": true}]', "desk.csv": desk_csv([])},
        "    ledger:\n"
        "      a: {input_file: judge.json, id: id, label: verdict}\n"
        "      b: {input_file: desk.csv, id: headline_id, label: verdict}\n",
    )
    assert outcome.problems == (
        "the input is not usable: judge.json#[0]: the row is 1 (a number); a row of a side of "
        "a join is a mapping holding its ID and label",
    )


#: Joins that are mostly plain (each ID on both sides once), so the blocks answer.
PLAIN_SIDES = st.lists(
    st.tuples(st.text("abc", min_size=1, max_size=3), st.booleans(), st.booleans()),
    unique_by=lambda row: row[0],
    max_size=10,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=SIDES | PLAIN_SIDES, seed=st.integers(0, 2**16))
def test_a_join_tallied_in_blocks_answers_as_its_rows_one_at_a_time(
    rows: list[tuple[str, bool | None, bool | None]], seed: int
) -> None:
    shuffle = random.Random(seed).shuffle
    judge = [(i, a) for i, a, _ in rows if a is not None]
    desk = [(i, words(b)) for i, _, b in rows if b is not None]
    shuffle(judge)
    shuffle(desk)
    with tempfile.TemporaryDirectory() as folder:
        case = agreement_case(
            Path(folder),
            {"judge.jsonl": judge_jsonl(judge), "desk.csv": desk_csv(desk)},
            f"    ledger: {JOIN}\n",
        )
        assert case.input_file is not None
        by_rows = JoinedRows(case.input_file, "c.rubric.yaml")
        one_at_a_time = tally_rows(by_rows, by_rows.where)
        by_blocks = JoinedRows(case.input_file, "c.rubric.yaml")
        blocks = tally_blocks(by_blocks.label_blocks())
        if blocks is not None:
            assert blocks == one_at_a_time
            assert by_blocks.notes() == by_rows.notes()
        streamed = JoinedRows(case.input_file, "c.rubric.yaml")
        assert stream_agreement(streamed, streamed.where) == one_at_a_time


def test_a_plain_join_is_tallied_in_blocks_and_answers_as_its_rows(tmp_path: Path) -> None:
    judge = [(f"h{n:05d}", n % 3 == 0) for n in range(9000)]
    desk = [(i, words(n % 5 == 0)) for n, (i, _) in enumerate(judge)]
    random.Random(7).shuffle(desk)
    case = agreement_case(
        tmp_path,
        {"judge.jsonl": judge_jsonl(judge), "desk.csv": desk_csv(desk)},
        f"    ledger: {JOIN}\n",
    )
    assert case.input_file is not None
    by_rows = JoinedRows(case.input_file, "c.rubric.yaml")
    blocks = tally_blocks(JoinedRows(case.input_file, "c.rubric.yaml").label_blocks())
    assert blocks is not None
    assert blocks == tally_rows(by_rows, by_rows.where)
