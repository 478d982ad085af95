"""``group_by: PATH`` under ``ledger:``: the ledger broken down by group for people (the
evidence, the report's review), the answer untouched; groups add up to the whole."""

from __future__ import annotations

import csv
import io
import json
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _agreement import agreement_case, answer, reviewed, run_agreement
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.casecodec import LEDGER
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs.groups import MAX_GROUPS
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.inputs.reading import open_input
from pytest_rubric.inputs.rows import FileRows

try:
    import pyarrow
    import pyarrow.parquet
except ImportError:  # the Parquet test skips
    pyarrow = None

#: Group values of every JSON kind, and a row without the key (``None`` below means
#: JSON null; ``"ABSENT"`` leaves the key out).
VALUES = st.sampled_from(["sports", "politics", "1", 1, 1.0, True, None, "ABSENT", [1], {"k": 1}])
#: Ledgers where some row holds the key (where none does, the path is taken for a slip).
ROWS = st.lists(st.tuples(VALUES, st.booleans(), st.booleans()), min_size=1, max_size=40).filter(
    lambda rows: any(value != "ABSENT" for value, _, _ in rows)
)


def jsonl(rows: list[tuple[Any, bool, bool]]) -> str:
    lines = []
    for number, (value, a, b) in enumerate(rows):
        row: dict[str, Any] = {"id": f"h{number}", "judge": a, "desk": b}
        if value != "ABSENT":
            row["meta"] = {"category": value}
        lines.append(json.dumps(row))
    return "\n".join(lines) + "\n"


def groups_of(outcome: Any) -> list[dict[str, Any]]:
    assert outcome.review is not None, outcome
    groups = outcome.review["groups"]
    assert isinstance(groups, list)
    return groups


def same_group(one: Any, other: Any) -> bool:
    """Strict JSON equality of two group values (``True`` is not ``1``; ``1`` is ``1.0``)."""
    if isinstance(one, bool) or isinstance(other, bool):
        return type(one) is type(other) and one == other
    if isinstance(one, str) or isinstance(other, str):
        return type(one) is type(other) and one == other
    return bool(one == other) and (one is None) == (other is None)


@settings(max_examples=60, deadline=None)
@given(rows=ROWS)
def test_groups_add_up_to_the_whole_and_keep_its_disagreements_in_order(
    rows: list[tuple[Any, bool, bool]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        grouped = run_agreement(
            Path(folder),
            {"w.jsonl": jsonl(rows)},
            "    input_file: w.jsonl\n"
            "    ledger: {id: id, a: judge, b: desk, group_by: meta.category}\n",
            review_at="w.jsonl",
        )
        plain = run_agreement(
            Path(folder),
            {"w.jsonl": jsonl(rows)},
            "    input_file: w.jsonl\n    ledger: {id: id, a: judge, b: desk}\n",
        )
    whole = answer(grouped)
    assert whole == answer(plain)  # groups are for people: the answer keeps its shape
    assert json.dumps(whole) == json.dumps(answer(plain))
    groups = groups_of(grouped)
    for key in ("bothPass", "bothFail", "aOnly", "bOnly"):
        assert sum(group["matrix"][key] for group in groups) == whole["matrix"][key]
    assert sum(group["total"] for group in groups) == whole["total"]
    assert sum(group["agreement"] for group in groups) == whole["agreement"]
    # The groups in the order of their first row, each value once.
    firsts: list[Any] = []
    for value, _, _ in rows:
        if not any(
            (seen == "ABSENT") == (value == "ABSENT") and same_group(seen, value) for seen in firsts
        ):
            firsts.append(value)
    assert len(groups) == len(firsts)
    for group, value in zip(groups, firsts, strict=True):
        if value == "ABSENT":
            assert "value" not in group
            assert group["label"] == "(no meta.category)"
        else:
            assert same_group(group["value"], value)
        members = [
            f"h{number}"
            for number, (one, _, _) in enumerate(rows)
            if (one == "ABSENT") == (value == "ABSENT") and same_group(one, value)
        ]
        # The whole's disagreements in order, restricted to the group.
        assert group["disagreements"] == [
            case_id for case_id in whole["disagreements"] if case_id in members
        ]
    assert len({group["label"] for group in groups}) == len(groups)  # labels unique
    # Each row to review names its group, and is among that group's disagreements.
    by_label = {group["label"]: group for group in groups}
    for row in reviewed(grouped):
        assert row["id"] in by_label[row["group"]]["disagreements"]
    assert grouped.review is not None
    assert grouped.review["groupBy"] == "meta.category"
    assert plain.review is not None
    assert "groups" not in plain.review
    # The evidence shows the same groups by label.
    assert grouped.evidence is not None
    shown = grouped.evidence.facts["by meta.category"]
    assert isinstance(shown, dict)
    assert list(shown) == [group["label"] for group in groups]


def test_group_labels_name_text_numbers_and_rows_without_the_key(tmp_path: Path) -> None:
    rows: list[tuple[Any, bool, bool]] = [
        ("sports", True, False),
        (1, True, True),
        ("1", False, True),
        ("ABSENT", False, False),
        (True, True, True),
        (None, True, True),
        ("sports", False, False),
    ]
    outcome = run_agreement(
        tmp_path,
        {"w.jsonl": jsonl(rows)},
        "    input_file: w.jsonl\n"
        "    ledger: {id: id, a: judge, b: desk, group_by: meta.category}\n",
    )
    assert [(group["label"], group.get("value", "-")) for group in groups_of(outcome)] == [
        ("sports", "sports"),
        ("1", 1),
        ("1 (text)", "1"),
        ("(no meta.category)", "-"),
        ("true", True),
        ("null", None),
    ]
    # As the report schema says a review is.
    schema = json.loads(
        resources.files("pytest_rubric").joinpath("report.schema.json").read_text("utf-8")
    )
    review = schema["$defs"]["case"]["properties"]["review"]
    jsonschema.Draft202012Validator(review).validate(outcome.review)
    sports = groups_of(outcome)[0]
    assert sports["matrix"] == {"bothPass": 0, "bothFail": 1, "aOnly": 1, "bOnly": 0}
    assert (sports["agreement"], sports["total"], sports["disagreements"]) == (1, 2, ["h0"])


def test_a_grouped_csv_per_judgement_export_groups_each_case_by_its_first_judgement(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["item", "desk", "annotator", "verdict"])
    writer.writerows(
        [
            ["h1", "sports", "judge", "PASS"],
            ["h1", "sports", "editor", "FAIL"],
            ["h2", "world", "judge", "PASS"],
            ["h3", "sports", "judge", "FAIL"],
            ["h2", "world", "editor", "PASS"],
            ["h3", "sports", "editor", "FAIL"],
        ]
    )
    outcome = run_agreement(
        tmp_path,
        {"j.csv": out.getvalue()},
        "    input_file: j.csv\n"
        "    ledger: {id: item, rows: per-judgement, grader: annotator, label: verdict,\n"
        "             a: judge, b: editor, labels: {PASS: true, FAIL: false}, group_by: desk}\n",
        review_at="j.csv",
    )
    assert answer(outcome)["disagreements"] == ["h1"]
    assert [(g["label"], g["total"], g["disagreements"]) for g in groups_of(outcome)] == [
        ("sports", 2, ["h1"]),
        ("world", 1, []),
    ]
    assert [(row["id"], row["group"]) for row in reviewed(outcome)] == [("h1", "sports")]


def test_a_join_groups_by_a_key_of_side_a_rows(tmp_path: Path) -> None:
    judge = "".join(
        json.dumps({"id": case_id, "verdict": verdict, "topic": topic}) + "\n"
        for case_id, verdict, topic in [
            ("h1", True, "sports"),
            ("h2", False, "world"),
            ("h3", True, "world"),
        ]
    )
    desk = "headline_id,verdict\nh1,PASS\nh2,PASS\nh3,PASS\n"
    outcome = run_agreement(
        tmp_path,
        {"judge.jsonl": judge, "desk.csv": desk},
        "    ledger:\n"
        "      a: {input_file: judge.jsonl, id: id, label: verdict}\n"
        "      b: {input_file: desk.csv, id: headline_id, label: verdict,"
        " labels: {PASS: true, FAIL: false}}\n"
        "      group_by: topic\n",
    )
    assert [(g["label"], g["matrix"], g["disagreements"]) for g in groups_of(outcome)] == [
        ("sports", {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 0}, []),
        ("world", {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 1}, ["h2"]),
    ]


@pytest.mark.skipif(pyarrow is None, reason="pyarrow (pytest-rubric[parquet])")
def test_a_grouped_parquet_ledger_reads_its_group_column(tmp_path: Path) -> None:
    table = pyarrow.table(
        {
            "id": ["h1", "h2", "h3"],
            "week": [48, 49, 48],
            "a": [True, True, False],
            "b": [True, False, False],
        }
    )
    pyarrow.parquet.write_table(table, tmp_path / "w.parquet")
    outcome = run_agreement(
        tmp_path,
        {},
        "    input_file: w.parquet\n    ledger: {id: id, a: a, b: b, group_by: week}\n",
    )
    assert [(g["label"], g["value"], g["total"]) for g in groups_of(outcome)] == [
        ("48", 48, 2),
        ("49", 49, 1),
    ]


def test_a_group_by_no_row_holds_is_the_case_problem_with_the_nearest_key(
    tmp_path: Path,
) -> None:
    rows: list[tuple[Any, bool, bool]] = [("sports", True, False), ("world", True, True)]
    outcome = run_agreement(
        tmp_path,
        {"w.jsonl": jsonl(rows)},
        "    input_file: w.jsonl\n    ledger: {id: id, a: judge, b: desk, group_by: mta}\n",
    )
    assert outcome.outcome == "case-error"
    (problem,) = outcome.problems
    assert problem.startswith("c.rubric.yaml:5:51: ledger 'group_by' names 'mta'"), problem
    assert "which no row of w.jsonl holds (its first row has id, judge, desk, meta)" in problem
    assert problem.endswith("did you mean 'meta'?")


def test_a_group_column_a_csv_header_lacks_is_named_with_the_nearest(tmp_path: Path) -> None:
    outcome = run_agreement(
        tmp_path,
        {"w.csv": "id,category,judge,desk\nh1,x,true,true\n"},
        "    input_file: w.csv\n    ledger: {id: id, a: judge, b: desk, group_by: categry}\n",
    )
    assert outcome.outcome == "case-error"
    (problem,) = outcome.problems
    assert "ledger 'group_by' names the column 'categry'" in problem
    assert problem.endswith("did you mean 'category'?")


def test_an_invalid_ledger_shows_no_groups(tmp_path: Path) -> None:
    text = '{"id": "h1", "judge": true, "desk": "maybe", "topic": "x"}\n'
    outcome = run_agreement(
        tmp_path,
        {"w.jsonl": text},
        "    input_file: w.jsonl\n    ledger: {id: id, a: judge, b: desk, group_by: topic}\n",
    )
    assert answer(outcome) == {"error": "review-label"}
    assert outcome.review is None
    assert outcome.evidence is not None
    assert not any(label.startswith("by ") for label in outcome.evidence.facts)


@pytest.mark.parametrize(
    ("written", "words"),
    [
        ("''", "ledger 'group_by' is empty"),
        ("3", "ledger 'group_by'"),
        ("a..b", "has an empty part between its dots"),
    ],
)
def test_a_group_by_that_is_no_path_is_refused_at_its_place(
    tmp_path: Path, written: str, words: str
) -> None:
    outcome = run_agreement(
        tmp_path,
        {"w.jsonl": '{"id": "h1", "a": true, "b": true}\n'},
        f"    input_file: w.jsonl\n    ledger: {{group_by: {written}}}\n",
    )
    assert outcome.outcome == "case-error"
    assert any(words in problem and "c.rubric.yaml:5:" in problem for problem in outcome.problems)


def test_group_by_is_kept_by_the_case_cache_and_forged_entries_are_refused() -> None:
    ledger = Ledger(
        id=KeyPath(("id",), (1, 1), "id"),
        a=KeyPath(("a",), (1, 1), "a"),
        b=KeyPath(("b",), (1, 1), "b"),
        group_by=KeyPath(("meta", "category"), (3, 7), "meta.category"),
    )
    files = InputFiles(Path("x"), "x", None)
    assert LEDGER.load([json.loads(json.dumps(LEDGER.dump(ledger)))], files)[0] == ledger
    forged = LEDGER.dump(ledger)
    forged[[name for name, _ in LEDGER.rows].index("group_by")] = {"parts": "x"}
    with pytest.raises((TypeError, ValueError)):
        LEDGER.load([forged], files)


def test_a_path_with_more_values_than_groups_is_not_broken_down(tmp_path: Path) -> None:
    rows = "".join(
        json.dumps({"id": f"h{n}", "judge": n % 7 == 0, "desk": True, "at": n}) + "\n"
        for n in range(MAX_GROUPS + 1)
    )
    outcome = run_agreement(
        tmp_path,
        {"w.jsonl": rows},
        "    input_file: w.jsonl\n    ledger: {id: id, a: judge, b: desk, group_by: at}\n",
    )
    assert answer(outcome)["total"] == MAX_GROUPS + 1
    assert outcome.review is not None
    assert "groups" not in outcome.review
    assert all("group" not in row for row in reviewed(outcome))
    assert outcome.evidence is not None
    assert "not broken down: the rows fall into more than 1,000 groups" in str(
        outcome.evidence.facts["by at"]
    )


@pytest.mark.skipif(pyarrow is None, reason="pyarrow (pytest-rubric[parquet])")
def test_parquet_dates_and_nans_group_as_values_and_the_review_holds(tmp_path: Path) -> None:
    import datetime

    table = pyarrow.table(
        {
            "id": ["h1", "h2", "h3", "h4", "h5"],
            "week": [datetime.date(2024, 12, 2), datetime.date(2024, 12, 9)] * 2
            + [datetime.date(2024, 12, 2)],
            "score": [float("nan"), float("nan"), 0.5, float("inf"), 0.5],
            "a": [True, True, False, True, False],
            "b": [False, True, False, True, True],
        }
    )
    pyarrow.parquet.write_table(table, tmp_path / "w.parquet")
    by_week = run_agreement(
        tmp_path,
        {},
        "    input_file: w.parquet\n    ledger: {id: id, a: a, b: b, group_by: week}\n",
    )
    assert [(g["label"], g["total"], g["disagreements"]) for g in groups_of(by_week)] == [
        ("2024-12-02", 3, ["h1", "h5"]),
        ("2024-12-09", 2, []),
    ]
    by_score = run_agreement(
        tmp_path,
        {},
        "    input_file: w.parquet\n    ledger: {id: id, a: a, b: b, group_by: score}\n",
    )
    assert by_score.outcome == by_week.outcome == "mismatched"  # expected: {}, never an error
    assert [(g["label"], g["total"]) for g in groups_of(by_score)] == [
        ("nan", 2),
        ("0.5", 2),
        ("inf", 1),
    ]
    assert all("score" not in row["fields"] for row in reviewed(by_score))


def test_labels_stay_unique_as_the_report_writes_them(tmp_path: Path) -> None:
    text = (
        '{"id": "c1", "desk": "\\ud800", "judge": true, "editor": false}\n'
        '{"id": "c2", "desk": "\\\\ud800", "judge": true, "editor": true}\n'
    )
    outcome = run_agreement(
        tmp_path,
        {"w.jsonl": text},
        "    input_file: w.jsonl\n    ledger: {id: id, a: judge, b: editor, group_by: desk}\n",
    )
    labels = [group["label"] for group in groups_of(outcome)]
    assert len(labels) == 2
    assert len(set(labels)) == 2
    assert outcome.evidence is not None
    shown = outcome.evidence.facts["by desk"]
    assert isinstance(shown, dict)
    assert len(shown) == 2


def test_a_where_that_keeps_no_row_holding_the_key_says_so(tmp_path: Path) -> None:
    text = (
        '{"id": "c1", "desk": "x", "week": 1, "judge": true, "editor": true}\n'
        '{"id": "c2", "week": 2, "judge": true, "editor": true}\n'
    )
    outcome = run_agreement(
        tmp_path,
        {"w.jsonl": text},
        "    input_file: w.jsonl\n"
        "    ledger: {id: id, a: judge, b: editor, where: {week: 2}, group_by: desk}\n",
    )
    (problem,) = outcome.problems
    assert (
        "which no row of w.jsonl that 'where' keeps holds (the first it keeps has id, week"
        in problem
    )


def test_a_misspelt_group_by_leaves_a_refusal_answer_alone(tmp_path: Path) -> None:
    text = '{"id": "c1", "desk": "x", "judge": "maybe", "editor": true}\n'
    outcome = run_agreement(
        tmp_path,
        {"w.jsonl": text},
        "    input_file: w.jsonl\n    ledger: {id: id, a: judge, b: editor, group_by: dsk}\n",
    )
    assert answer(outcome) == {"error": "review-label"}


def test_the_nearest_key_is_looked_for_where_the_path_stops(tmp_path: Path) -> None:
    text = '{"id": "c1", "vars": {"desk": "x", "pass": 1}, "judge": true, "editor": true}\n'
    outcome = run_agreement(
        tmp_path,
        {"w.jsonl": text},
        "    input_file: w.jsonl\n    ledger: {id: id, a: judge, b: editor, group_by: vars.dsk}\n",
    )
    (problem,) = outcome.problems
    assert "(its first row has desk, pass under 'vars'); did you mean 'vars.desk'?" in problem


DESKS = st.sampled_from(["sport", "politics", "", "1", "a b", "désk"])


@settings(max_examples=60, deadline=None)
@given(
    cases=st.lists(
        st.tuples(DESKS, DESKS, st.booleans(), st.booleans(), st.booleans()),
        min_size=1,
        max_size=30,
    )
)
def test_a_per_judgement_csv_is_grouped_alike_in_blocks_and_row_by_row(
    cases: list[tuple[str, str, bool, bool, bool]],
) -> None:
    """Each case's two judgements on adjacent lines (either grader first), its group the
    first judgement's (the second may hold another): the block path's groups are the rows'."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["item", "desk", "annotator", "verdict"])
    for number, (first, second, a, b, judge_first) in enumerate(cases):
        one = [f"h{number}", first, "judge", "PASS" if a else "FAIL"]
        other = [f"h{number}", second, "editor", "PASS" if b else "FAIL"]
        if not judge_first:
            one[2], other[2] = "editor", "judge"
            one[3], other[3] = other[3], one[3]
        writer.writerows([one, other])
    body = (
        "    input_file: j.csv\n"
        "    ledger: {id: item, rows: per-judgement, grader: annotator, label: verdict,\n"
        "             a: judge, b: editor, labels: {PASS: true, FAIL: false}, group_by: desk}\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        case = agreement_case(Path(folder), {"j.csv": out.getvalue()}, body)
        assert case.input_file is not None
        by_blocks = open_input(case.input_file, "c.rubric.yaml")
        assert isinstance(by_blocks, FileRows)
        assert all(block is not None for block in by_blocks.label_blocks())  # blocks answer
        assert AGREEMENT.ledger is not None
        assert AGREEMENT.ledger.stream is not None
        AGREEMENT.ledger.stream(by_blocks, by_blocks.where)
        by_rows = open_input(case.input_file, "c.rubric.yaml")
        assert isinstance(by_rows, FileRows)
        for _ in by_rows:
            pass
        block_notes, row_notes = by_blocks.notes(), by_rows.notes()
    assert block_notes is not None
    assert row_notes is not None
    assert block_notes.groups is not None
    assert block_notes.groups == row_notes.groups


def test_a_review_row_has_the_group_of_the_row_it_names_not_of_the_row_read_last(
    tmp_path: Path,
) -> None:
    from dataclasses import replace

    from pytest_rubric.running.runner import run_case

    def review_first(ledger: Any, where: Any) -> Any:
        rows = list(ledger["rows"])  # every row read before the first is named
        yield {"id": rows[0]["id"], "where": where(0)}
        yield {"id": rows[-1]["id"]}  # names no row: no group

    assert AGREEMENT.ledger is not None
    evaluator = replace(AGREEMENT, ledger=replace(AGREEMENT.ledger, review=review_first))
    case = agreement_case(
        tmp_path,
        {"l.jsonl": jsonl([("sports", True, False), ("politics", False, True)])},
        "    input_file: l.jsonl\n    ledger: {id: id, a: judge, b: desk, group_by: "
        "meta.category}\n",
    )
    outcome = run_case(case, evaluator, path="c.rubric.yaml", source="", review_limit=10)
    assert [(row["id"], row.get("group")) for row in reviewed(outcome)] == [
        ("h0", "sports"),
        ("h1", None),
    ]
