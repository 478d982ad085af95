"""One row per judgement, and the words reading an export finds: a description that
matches no judgement, grader names as the export holds them, each grader's review
fields, label hints that never ask to edit the export; Parquet maps and ambiguous
struct fields."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from _agreement import answer, reviewed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.running.outcome import CaseOutcome
from pytest_rubric.running.runner import run_case


def run_export(folder: Path, name: str, content: str | bytes, ledger: str) -> CaseOutcome:
    """The outcome of one agreement case reading ``name`` as ``ledger`` describes it,
    with its rows for review kept."""
    target = folder / name
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content, encoding="utf-8", newline="")
    (folder / "c.rubric.yaml").write_text(
        f"evaluator: agreement\ncases:\n  - id: x\n    input_file: {name}\n"
        f"    ledger: {ledger}\n    expected: {{}}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(folder / "c.rubric.yaml", "c.rubric.yaml", root=folder).cases
    return run_case(
        case, AGREEMENT, path="c.rubric.yaml", source="", review_limit=1000, review_at=name
    )


def problems_of(folder: Path, ledger: str, name: str = "e.jsonl") -> list[str]:
    """The problems of a case whose ``ledger:`` block is ``ledger`` (found when loading)."""
    (folder / "c.rubric.yaml").write_text(
        f"evaluator: agreement\ncases:\n  - id: x\n    input_file: {name}\n"
        f"    ledger: {ledger}\n    expected: {{}}\n",
        encoding="utf-8",
    )
    (folder / name).write_text("", encoding="utf-8")
    (case,) = load_case_file(folder / "c.rubric.yaml", "c.rubric.yaml", root=folder).cases
    return [str(problem) for problem in case.problems]


def prodigy(judgements: list[tuple[str, Any, str]], **extra: Any) -> str:
    """JSONL as Prodigy's ``db-out`` writes a multi-user session: one line per judgement,
    ``_annotator_id`` and ``_session_id`` ``<dataset>-<session>``."""
    lines = []
    for n, (example, who, said) in enumerate(judgements):
        task = {
            "text": f"Headline {example}",
            "meta": {"source": "wire"},
            "_input_hash": -1_234_567 + int(example.rpartition("-")[2]),
            "_task_hash": 987_654 + n,
            "label": "CLICKBAIT",
            "_view_id": "classification",
            "example_id": example,
            "answer": said,
            "_timestamp": 1_700_000_000 + n,
            "_annotator_id": who,
            "_session_id": who,
            **extra,
        }
        lines.append(json.dumps(task) + "\n")
    return "".join(lines)


PAIRS = [
    ("hl-1", "accept", "accept"),
    ("hl-2", "reject", "accept"),
    ("hl-3", "reject", "reject"),
]


def sessions(a: Any, b: Any) -> list[tuple[str, Any, str]]:
    return [(i, a, x) for i, x, _ in PAIRS] + [(i, b, y) for i, _, y in PAIRS]


PRODIGY = (
    "{{rows: per-judgement, id: example_id, grader: {grader}, label: answer, "
    "a: {a}, b: {b}, labels: {{accept: true, reject: false}}}}"
)


def case_error(outcome: CaseOutcome) -> str:
    assert not outcome.evaluated, (outcome.actual, outcome.evidence)
    (problem,) = outcome.problems
    return problem


# -- 1. a description that matches no judgement -----------------------------------------------


def test_session_names_where_prodigy_saves_dataset_session_are_a_case_error_naming_them(
    tmp_path: Path,
) -> None:
    export = prodigy(sessions("headline_check-alice", "headline_check-bob"))
    outcome = run_export(
        tmp_path, "db-out.jsonl", export, PRODIGY.format(grader="_annotator_id", a="alice", b="bob")
    )
    problem = case_error(outcome)
    assert problem.startswith("c.rubric.yaml:5:")
    assert "no judgement is by a ('alice') or b ('bob'), so the ledger would be empty" in problem
    assert "'headline_check-alice' (3 judgements), 'headline_check-bob' (3 judgements)" in problem
    assert problem.endswith("did you mean a: 'headline_check-alice' and b: 'headline_check-bob'?")
    # Written as the export holds them, the same export answers.
    right = run_export(
        tmp_path,
        "db-out.jsonl",
        export,
        PRODIGY.format(grader="_annotator_id", a="headline_check-alice", b="headline_check-bob"),
    )
    assert right.actual == {
        "matrix": {"bothPass": 1, "bothFail": 1, "aOnly": 0, "bOnly": 1},
        "agreement": 2,
        "total": 3,
        "disagreements": ["hl-2"],
    }


def test_a_misspelt_grader_key_is_a_case_error_naming_the_nearest_key(tmp_path: Path) -> None:
    export = prodigy(sessions("headline_check-alice", "headline_check-bob"))
    outcome = run_export(
        tmp_path,
        "db-out.jsonl",
        export,
        PRODIGY.format(grader="_annotator", a="headline_check-alice", b="headline_check-bob"),
    )
    problem = case_error(outcome)
    assert problem.startswith(
        "c.rubric.yaml:5:59: ledger 'grader' is '_annotator', which finds no grader in any of "
        "the 6 judgements, so the ledger would be empty: db-out.jsonl:1 has no key '_annotator' "
    )
    assert problem.endswith("did you mean '_annotator_id'?")


def test_a_grader_path_through_a_list_needs_the_label_inside_the_same_list(
    tmp_path: Path,
) -> None:
    rows = "".join(
        json.dumps({"id": i, "by": [{"name": who}], "v": v}) + "\n"
        for i, who, v in [("x1", "al", True), ("x1", "bo", True)]
    )
    outcome = run_export(
        tmp_path, "e.jsonl", rows, "{rows: per-judgement, grader: by.name, label: v, a: al, b: bo}"
    )
    assert case_error(outcome) == (
        "the input is not usable: e.jsonl:1: the grader path 'by.name' runs through the list "
        "at 'by', one judgement an item, but the label path 'v' does not; name each "
        "judgement's label inside the same list"
    )


def test_a_grader_path_past_the_end_of_a_list_says_where_it_stops(tmp_path: Path) -> None:
    rows = "".join(
        json.dumps({"id": i, "by": [who], "v": v}) + "\n"
        for i, who, v in [("x1", "al", True), ("x1", "bo", True)]
    )
    outcome = run_export(
        tmp_path, "e.jsonl", rows, "{rows: per-judgement, grader: by.1, label: v, a: al, b: bo}"
    )
    problem = case_error(outcome)
    assert "ledger 'grader' is 'by.1', which finds no grader in any of the 2 judgements" in problem
    assert "e.jsonl:1 holds a list of 1 item at 'by', which has no item 1" in problem


def test_numeric_grader_ids_are_matched_as_numbers_and_text_is_told_it_is_a_number(
    tmp_path: Path,
) -> None:
    export = prodigy(sessions(7, 8))
    text = run_export(
        tmp_path, "e.jsonl", export, PRODIGY.format(grader="_annotator_id", a="'7'", b="'8'")
    )
    problem = case_error(text)
    assert "no judgement is by a ('7') or b ('8')" in problem
    assert "the graders found are 7 (3 judgements), 8 (3 judgements)" in problem
    assert problem.endswith(
        "did you mean a: 7 (a number there: write it unquoted, 7) and "
        "b: 8 (a number there: write it unquoted, 8)?"
    )
    number = run_export(
        tmp_path, "e.jsonl", export, PRODIGY.format(grader="_annotator_id", a="7", b="8.0")
    )
    assert number.actual == {
        "matrix": {"bothPass": 1, "bothFail": 1, "aOnly": 0, "bOnly": 1},
        "agreement": 2,
        "total": 3,
        "disagreements": ["hl-2"],
    }


def test_a_number_as_a_grader_of_a_csv_export_is_told_to_quote_it(tmp_path: Path) -> None:
    (problem,) = problems_of(
        tmp_path, "{rows: per-judgement, grader: g, label: v, a: 7, b: '8'}", "e.csv"
    )
    assert problem.endswith(
        "with 'rows: per-judgement', 'a' is a grader's name as the grader column writes it, "
        "and every cell of a .csv ledger is text; write it quoted ('7')"
    )
    assert problems_of(tmp_path, "{rows: per-judgement, grader: g, label: v, a: 7, b: 7.0}") == [
        "c.rubric.yaml:5:65: a and b name the same grader 7; name two graders"
    ]


@pytest.mark.parametrize("body", ["plain", "quoted"], ids=["blocks", "rows"])
def test_a_long_csv_by_other_graders_only_is_a_case_error_on_blocks_and_rows_alike(
    tmp_path: Path, body: str
) -> None:
    lines = "".join(
        f"hl-{n},{who},{'ok' if n % 2 else 'no'}\n"
        for n in range(1, 40)
        for who in ("headline_check-alice", "headline_check-bob")
    )
    if body == "quoted":
        lines = lines.replace("hl-1,", '"hl-1",', 1)
    outcome = run_export(
        tmp_path,
        "e.csv",
        "i,g,v\n" + lines,
        "{rows: per-judgement, id: i, grader: g, label: v, a: alice, b: bob, "
        "labels: {ok: true, no: false}}",
    )
    problem = case_error(outcome)
    assert "no judgement is by a ('alice') or b ('bob'), so the ledger would be empty" in problem
    assert problem.endswith("did you mean a: 'headline_check-alice' and b: 'headline_check-bob'?")


def test_one_grader_who_judged_nothing_is_said_among_the_facts(tmp_path: Path) -> None:
    export = prodigy(sessions("headline_check-alice", "headline_check-bobby"))
    outcome = run_export(
        tmp_path,
        "db-out.jsonl",
        export,
        PRODIGY.format(grader="_annotator_id", a="headline_check-alice", b="headline_check-bob"),
    )
    assert outcome.actual == {"error": "review-label"}
    assert outcome.evidence is not None
    assert outcome.evidence.facts["judged nothing"] == (
        "b ('headline_check-bob'): no judgement is by that grader; "
        "did you mean 'headline_check-bobby'?"
    )
    assert outcome.evidence.facts["ignored judgements"] == (
        "3 by graders other than a and b ('headline_check-bobby' 3)"
    )


def test_an_export_with_no_judgement_at_all_is_an_empty_ledger(tmp_path: Path) -> None:
    outcome = run_export(
        tmp_path, "e.jsonl", "", PRODIGY.format(grader="_annotator_id", a="al", b="bo")
    )
    assert outcome.actual == {
        "matrix": {"bothPass": 0, "bothFail": 0, "aOnly": 0, "bOnly": 0},
        "agreement": 0,
        "total": 0,
        "disagreements": [],
    }


# -- 3. and 16. Parquet: maps, and a name two fields hold ---------------------------------------


def write_parquet(path: Path, columns: dict[str, Any]) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    parquet = pytest.importorskip("pyarrow.parquet")
    parquet.write_table(pyarrow.table(columns), path)


def test_a_key_path_into_a_parquet_map_reads_the_value_the_map_holds(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    labels = pyarrow.array(
        [
            [("judge", "PASS"), ("editor", "PASS")],
            [("editor", "FAIL"), ("judge", "PASS")],
            [("judge", "FAIL"), ("editor", "FAIL")],
        ],
        type=pyarrow.map_(pyarrow.string(), pyarrow.string()),
    )
    write_parquet(tmp_path / "e.parquet", {"task_id": ["hl-1", "hl-2", "hl-3"], "labels": labels})
    outcome = run_export(
        tmp_path,
        "e.parquet",
        (tmp_path / "e.parquet").read_bytes(),
        "{id: task_id, a: labels.judge, b: labels.editor, labels: {PASS: true, FAIL: false}}",
    )
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 1, "aOnly": 1, "bOnly": 0},
        "agreement": 2,
        "total": 3,
        "disagreements": ["hl-2"],
    }


def test_a_parquet_map_holding_a_key_twice_is_not_read_as_either_value(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    labels = pyarrow.array(
        [[("judge", "PASS"), ("judge", "FAIL"), ("editor", "PASS")]],
        type=pyarrow.map_(pyarrow.string(), pyarrow.string()),
    )
    write_parquet(tmp_path / "e.parquet", {"task_id": ["hl-1"], "labels": labels})
    outcome = run_export(
        tmp_path,
        "e.parquet",
        (tmp_path / "e.parquet").read_bytes(),
        "{id: task_id, a: labels.judge, b: labels.editor, labels: {PASS: true, FAIL: false}}",
    )
    assert outcome.actual == {"error": "review-label"}


def test_a_parquet_struct_with_two_fields_of_one_name_is_an_ambiguous_path(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    task = pyarrow.StructArray.from_arrays(
        [pyarrow.array(["hl-1"]), pyarrow.array(["hl-9"])], names=["id", "id"]
    )
    write_parquet(tmp_path / "e.parquet", {"task": task, "a": [True], "b": [False]})
    outcome = run_export(
        tmp_path, "e.parquet", (tmp_path / "e.parquet").read_bytes(), "{id: task.id}"
    )
    assert case_error(outcome) == (
        "c.rubric.yaml:5:18: ledger 'id' names 'task.id', which is ambiguous: e.parquet's "
        "schema has 2 fields named 'id' in the struct 'task', and a key path cannot tell "
        "them apart"
    )


# -- 13. and 14. label hints that lead somewhere ---------------------------------------------


def test_a_number_as_a_labels_key_is_told_the_pairs_form(tmp_path: Path) -> None:
    assert problems_of(tmp_path, "{labels: {1: true, '0': false}}") == [
        "c.rubric.yaml:5:23: mapping key 1 is not a string; quote it ('1') to use it as a key "
        "if the export writes it as text (a CSV cell); for the number, as JSON and Parquet "
        "hold it, write the labels as pairs: 'labels: [[1, true], [0, false]]'"
    ]


@pytest.mark.parametrize(
    ("labels", "pairs"),
    [
        (
            "{PASS: true, FAIL: false}",
            "[[true, true], [false, false], [PASS, true], [FAIL, false]]",
        ),
        (
            "{'yes': true, 'no': false}",
            "[[true, true], [false, false], ['yes', true], ['no', false]]",
        ),
        (
            "{'1': true, 'pass it': true, '0': false}",
            "[[true, true], [false, false], ['1', true], ['pass it', true], ['0', false]]",
        ),
    ],
)
def test_a_boolean_against_labels_a_mapping_cannot_hold_is_shown_the_pairs_to_write(
    tmp_path: Path, labels: str, pairs: str
) -> None:
    word = labels.split(":")[0].strip("{'")
    rows = f'{{"id": "x1", "a": true, "b": "{word}"}}\n'
    outcome = run_export(tmp_path, "e.jsonl", rows, f"{{labels: {labels}}}")
    assert outcome.actual == {"error": "review-label"}
    assert outcome.evidence is not None
    assert outcome.evidence.problem is not None
    assert outcome.evidence.problem.endswith(
        "; the export holds true (a boolean), and the words of a 'labels' mapping are text: "
        f"write the labels as pairs of values as the export holds them, 'labels: {pairs}'"
    )
    fixed = run_export(tmp_path, "e.jsonl", rows, f"{{labels: {pairs}}}")
    assert answer(fixed)["matrix"] == {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 0}


def test_a_number_against_text_labels_is_told_the_pairs_form_not_to_add_it(
    tmp_path: Path,
) -> None:
    outcome = run_export(
        tmp_path,
        "e.jsonl",
        '{"id": "x1", "a": 1, "b": 0}\n',
        "{labels: {'1': true, '0': false}}",
    )
    assert outcome.actual == {"error": "review-label"}
    assert outcome.evidence is not None
    assert outcome.evidence.problem == (
        "e.jsonl:1: the label of a (id 'x1') is 1 (a number), which is not one of the "
        'ledger\'s labels: "1" (true), "0" (false); the export holds the number 1, and the '
        "words of a 'labels' mapping are text: write the labels as pairs of values as the "
        "export holds them, e.g. 'labels: [[1, true], [0, false]]'"
    )
    fixed = run_export(
        tmp_path, "e.jsonl", '{"id": "x1", "a": 1, "b": 0}\n', "{labels: [[1, true], [0, false]]}"
    )
    assert fixed.actual == {
        "matrix": {"bothPass": 0, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": 0,
        "total": 1,
        "disagreements": ["x1"],
    }


@pytest.mark.parametrize(
    ("name", "content", "ledger", "block"),
    [
        ("e.csv", "k,j,e\nx1,yes,no\n", "{id: k, a: j, b: e}", "{'yes': true, 'no': false}"),
        ("e.csv", "k,j,e\nx1,NO,YES\n", "{id: k, a: j, b: e}", "{'YES': true, 'NO': false}"),
        (
            "e.csv",
            "k,j,e\nx1,True,False\n",
            "{id: k, a: j, b: e}",
            "{'True': true, 'False': false}",
        ),
        (
            "e.jsonl",
            '{"i": "x1", "g": "al", "v": "on"}\n{"i": "x1", "g": "bo", "v": "off"}\n',
            "{rows: per-judgement, id: i, grader: g, label: v, a: al, b: bo}",
            "{'on': true, 'off': false}",
        ),
        ("e.jsonl", '{"id": "x1", "a": 1, "b": 0}\n', "{id: id}", "[[1, true], [0, false]]"),
    ],
    ids=["yes", "upper-no", "python-csv", "per-judgement", "number"],
)
def test_a_word_for_a_boolean_in_an_export_suggests_the_labels_block_not_an_edit(
    tmp_path: Path, name: str, content: str, ledger: str, block: str
) -> None:
    outcome = run_export(tmp_path, name, content, ledger)
    assert outcome.actual == {"error": "review-label"}
    assert outcome.evidence is not None
    problem = outcome.evidence.problem
    assert problem is not None
    assert problem.endswith(f"with 'labels: {block}' in its ledger: block"), problem
    assert "YAML 1.1" not in problem
    assert "write true" not in problem
    assert "write false" not in problem


def test_a_word_for_a_boolean_in_a_plain_ledger_keeps_the_yaml_hint(tmp_path: Path) -> None:
    outcome = run_export(tmp_path, "e.csv", "id,a,b\nx1,yes,true\n", "{id: id}")
    assert outcome.evidence is not None
    assert outcome.evidence.problem is not None
    assert "labels: {'yes': true, 'no': false}" in outcome.evidence.problem
    (tmp_path / "c.rubric.yaml").write_text(
        "evaluator: agreement\ncases:\n  - id: x\n    input_file: e.csv\n    expected: {}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(tmp_path / "c.rubric.yaml", "c.rubric.yaml", root=tmp_path).cases
    plain = run_case(case, AGREEMENT, path="c.rubric.yaml", source="")
    assert plain.evidence is not None
    assert plain.evidence.problem == (
        "e.csv:2 rows[0].a (id 'x1') is \"yes\" (a string), not a boolean; YAML 1.1 readers "
        "take yes as a boolean, but here it is text: write true"
    )


# -- 17. and 18. data kept for review, and names shown as data -------------------------------


def test_each_graders_own_review_fields_are_kept_and_said_to_be_whose(tmp_path: Path) -> None:
    judgements = [
        ("hl-1", "headline_check-bob", "accept", "clear", 4),
        ("hl-1", "headline_check-alice", "reject", "bait", 2),
        ("hl-2", "headline_check-alice", "accept", "fine", 3),
        ("hl-2", "headline_check-bob", "accept", "fine", 3),
    ]
    export = "".join(
        json.dumps(
            {
                "text": f"Headline {i}",
                "_input_hash": 17,
                "example_id": i,
                "_annotator_id": who,
                "answer": answer,
                "rationale": why,
                "minutes": minutes,
            }
        )
        + "\n"
        for i, who, answer, why, minutes in judgements
    )
    outcome = run_export(
        tmp_path,
        "db-out.jsonl",
        export,
        PRODIGY.format(grader="_annotator_id", a="headline_check-alice", b="headline_check-bob"),
    )
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 1},
        "agreement": 1,
        "total": 2,
        "disagreements": ["hl-1"],
    }
    assert outcome.review is not None
    (row,) = reviewed(outcome)
    assert isinstance(row, dict)
    assert row["fields"] == {
        "text": "Headline hl-1",
        "_input_hash": 17,
        "a.rationale": "bait",
        "a.minutes": 2,
        "b.rationale": "clear",
        "b.minutes": 4,
    }
    assert list(row["fields"]) == [
        "text",
        "_input_hash",
        "a.rationale",
        "a.minutes",
        "b.rationale",
        "b.minutes",
    ]


def test_other_graders_are_listed_quoted_and_escaped_as_ids_are(tmp_path: Path) -> None:
    export = prodigy(
        [
            ("hl-1", "editor", "accept"),
            ("hl-1", "judge", "accept"),
            ("hl-1", "editor ", "reject"),
            ("hl-1", "editor\u200b", "reject"),
            ("hl-1", 7, "reject"),
            ("hl-1", "7", "reject"),
        ]
    )
    outcome = run_export(
        tmp_path, "e.jsonl", export, PRODIGY.format(grader="_annotator_id", a="judge", b="editor")
    )
    assert outcome.evidence is not None
    assert outcome.evidence.facts["ignored judgements"] == (
        "4 by graders other than a and b ('editor ' 1, 'editor\\u200b' 1, 7 1, '7' 1)"
    )


@pytest.mark.parametrize("quote", ["", '"'], ids=["blocks", "rows"])
def test_other_graders_of_a_long_csv_are_quoted_on_blocks_and_rows_alike(
    tmp_path: Path, quote: str
) -> None:
    lines = "".join(f"hl-{n},al,ok\nhl-{n},bo,no\nhl-{n},editor ,ok\n" for n in range(1, 30))
    outcome = run_export(
        tmp_path,
        "e.csv",
        "i,g,v\n" + lines.replace("hl-1,", f"{quote}hl-1{quote},", 1),
        "{rows: per-judgement, id: i, grader: g, label: v, a: al, b: bo, "
        "labels: {ok: true, no: false}}",
    )
    assert outcome.actual is not None
    assert outcome.evidence is not None
    assert outcome.evidence.facts["ignored judgements"] == (
        "29 by graders other than a and b ('editor ' 29)"
    )


# -- judgements kept in lists (Label Studio, Argilla, SageMaker) ----------------------------------


def label_studio_task(task: int, annotations: list[tuple[int, str | None, bool]]) -> dict[str, Any]:
    """A task as Label Studio's JSON export writes it: its judgements in ``annotations``,
    each choice inside ``result[0].value.choices``; a cancelled one with an empty result."""
    return {
        "id": task,
        "annotations": [
            {
                "id": task * 10 + n,
                "completed_by": who,
                "result": []
                if choice is None
                else [
                    {
                        "id": f"r{task}{n}",
                        "type": "choices",
                        "value": {"choices": [choice]},
                        "origin": "manual",
                        "to_name": "text",
                        "from_name": "verdict",
                    }
                ],
                "was_cancelled": cancelled,
                "ground_truth": False,
                "task": task,
                "project": 7,
            }
            for n, (who, choice, cancelled) in enumerate(annotations)
        ],
        "data": {"text": f"Headline {task}"},
        "meta": {},
        "project": 7,
        "inner_id": task,
    }


LABEL_STUDIO = (
    "{rows: per-judgement, id: id, ids: as-text, grader: annotations.completed_by, "
    "label: annotations.result.0.value.choices.0, a: 10, b: 12, "
    "labels: {PASS: true, FAIL: false}, where: {annotations.was_cancelled: false}}"
)


def test_label_studio_judgements_in_annotations_are_read_and_cancelled_ones_left_out(
    tmp_path: Path,
) -> None:
    tasks = [
        label_studio_task(101, [(10, "PASS", False), (12, "PASS", False)]),
        label_studio_task(102, [(12, None, True), (10, "FAIL", False), (12, "PASS", False)]),
        label_studio_task(103, [(10, "FAIL", False), (12, "FAIL", False), (14, "PASS", False)]),
    ]
    outcome = run_export(tmp_path, "project-7.json", json.dumps(tasks), LABEL_STUDIO)
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 1, "aOnly": 0, "bOnly": 1},
        "agreement": 2,
        "total": 3,
        "disagreements": ["102"],
    }
    assert outcome.evidence is not None
    assert outcome.evidence.facts["left out"] == (
        "1 judgement by 'where' (annotations.was_cancelled is not false: 1)"
    )
    assert outcome.evidence.facts["ignored judgements"] == "1 by graders other than a and b (14 1)"


ARGILLA_USERS = ("3f7c1c4e-2b8a-4d0e-9a51-6c2d1e0a7b10", "b2e94d7a-58c1-4f3b-8e06-91a4c5d3f212")
ARGILLA = (
    "{rows: per-judgement, id: id, grader: [verdict.responses.users], "
    f"label: [verdict.responses], a: {ARGILLA_USERS[0]}, b: {ARGILLA_USERS[1]}, "
    "labels: {PASS: true, FAIL: false}, where: {'[verdict.responses.status]': submitted}}"
)


def argilla_row(record: str, responses: list[tuple[str, str, str]]) -> str:
    """A record as Argilla's Hugging Face export flattens it: parallel lists under column
    names that hold dots."""
    return (
        json.dumps(
            {
                "id": record,
                "status": "completed",
                "_server_id": f"9a0c-{record}",
                "headline": f"Headline {record}",
                "verdict.responses": [value for value, _, _ in responses],
                "verdict.responses.users": [user for _, user, _ in responses],
                "verdict.responses.status": [status for _, _, status in responses],
            }
        )
        + "\n"
    )


def test_argilla_parallel_lists_are_paired_by_position_and_drafts_left_out(
    tmp_path: Path,
) -> None:
    alice, bob = ARGILLA_USERS
    export = argilla_row(
        "h1", [("PASS", alice, "submitted"), ("FAIL", bob, "submitted")]
    ) + argilla_row(
        "h2", [("FAIL", bob, "draft"), ("PASS", alice, "submitted"), ("PASS", bob, "submitted")]
    )
    outcome = run_export(tmp_path, "records.jsonl", export, ARGILLA)
    assert outcome.actual == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": 1,
        "total": 2,
        "disagreements": ["h1"],
    }
    assert outcome.evidence is not None
    assert outcome.evidence.facts["left out"] == (
        "1 judgement by 'where' ([verdict.responses.status] is not \"submitted\": 1)"
    )


@pytest.mark.parametrize(
    ("name", "export", "ledger"),
    [
        (  # a Label Studio project nobody has labelled yet
            "project-7.json",
            json.dumps([label_studio_task(task, []) for task in (101, 102, 103)]),
            LABEL_STUDIO,
        ),
        (  # the same, without 'where' or 'ids': read in blocks first
            "project-7.json",
            json.dumps([{**label_studio_task(task, []), "id": f"t{task}"} for task in (1, 2, 3)]),
            LABEL_STUDIO.replace("ids: as-text, ", "").replace(
                ", where: {annotations.was_cancelled: false}", ""
            ),
        ),
        ("records.jsonl", "".join(argilla_row(f"h{n}", []) for n in (1, 2, 3)), ARGILLA),
    ],
    ids=["label-studio", "label-studio-blocks", "argilla"],
)
def test_an_export_of_tasks_that_hold_no_judgement_is_a_case_error_never_an_empty_ledger(
    tmp_path: Path, name: str, export: str, ledger: str
) -> None:
    reviewed = run_export(tmp_path, name, export, ledger)
    # Without rows kept for review, a tally in blocks answers alone where it can.
    (case,) = load_case_file(tmp_path / "c.rubric.yaml", "c.rubric.yaml", root=tmp_path).cases
    tallied = run_case(case, AGREEMENT, path="c.rubric.yaml", source="")
    grader = ledger.index("grader: ") + len("grader: ") + len("    ledger: ") + 1
    written = "annotations.completed_by" if "annotations" in ledger else "[verdict.responses.users]"
    for outcome in (reviewed, tallied):
        assert case_error(outcome) == (
            f"c.rubric.yaml:5:{grader}: none of the 3 rows (tasks) read from {name} holds a "
            f"judgement: the list of judgements along 'grader' ('{written}') is empty in each, "
            "so a and b judged nothing and the ledger would be empty; compare the export once "
            "its tasks are judged, or name the list that holds its judgements in 'grader' and "
            "'label'"
        )


def test_one_task_without_a_judgement_is_worded_as_one(tmp_path: Path) -> None:
    outcome = run_export(tmp_path, "p.json", json.dumps([label_studio_task(7, [])]), LABEL_STUDIO)
    assert "the one row (task) read from p.json holds no judgement: " in case_error(outcome)
    assert "is empty in it, so a and b judged nothing" in case_error(outcome)


def test_parallel_lists_of_unequal_length_are_worded_at_the_row(tmp_path: Path) -> None:
    row = {
        "id": "h1",
        "verdict.responses": ["PASS"],
        "verdict.responses.users": list(ARGILLA_USERS),
        "verdict.responses.status": ["submitted", "submitted"],
    }
    outcome = run_export(tmp_path, "records.jsonl", json.dumps(row) + "\n", ARGILLA)
    assert case_error(outcome) == (
        "the input is not usable: records.jsonl:1: the grader path "
        "'[verdict.responses.users]' holds 2 items and the label path '[verdict.responses]' "
        "1; judgements in two lists are paired by position, so both lists need one length"
    )


def test_a_dotted_column_name_is_told_the_list_form_never_the_name_as_written(
    tmp_path: Path,
) -> None:
    export = argilla_row("h1", [("PASS", ARGILLA_USERS[0], "submitted")])
    dotted = ARGILLA.replace("[verdict.responses.users]", "verdict.responses.users")
    problem = case_error(run_export(tmp_path, "records.jsonl", export, dotted))
    assert problem.endswith(
        "records.jsonl:1 holds 'verdict.responses.users' as one key; a dotted name is a key "
        "path, each dot a step into a value: write the key that holds dots in the list form "
        "('grader: [verdict.responses.users]')"
    )
    assert "did you mean 'verdict.responses.users'" not in problem


def test_a_dotted_parquet_column_is_told_the_list_form(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    pytest.importorskip("pyarrow.parquet")

    table = pyarrow.table(
        {
            "id": ["h1"],
            "verdict.responses": [["PASS", "PASS"]],
            "verdict.responses.users": [list(ARGILLA_USERS)],
            "verdict.responses.status": [["submitted", "submitted"]],
        }
    )
    pyarrow.parquet.write_table(table, tmp_path / "records.parquet")
    (tmp_path / "c.rubric.yaml").write_text(
        "evaluator: agreement\ncases:\n  - id: x\n    input_file: records.parquet\n"
        f"    ledger: {ARGILLA.replace('[verdict.responses.users]', 'verdict.responses.users')}\n"
        "    expected: {}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(tmp_path / "c.rubric.yaml", "c.rubric.yaml", root=tmp_path).cases
    problem = case_error(run_case(case, AGREEMENT, path="c.rubric.yaml", source=""))
    assert problem.endswith(
        "ledger 'grader' is the key path 'verdict.responses.users', each dot a step into a "
        "value, but records.parquet's schema holds 'verdict.responses.users' as one name; "
        "write it in the list form 'grader: [verdict.responses.users]'"
    )
    right = run_case(
        load_case_file(
            _write(
                tmp_path, ARGILLA.replace("where: {'[verdict.responses.status]': submitted}", "")
            ),
            "c.rubric.yaml",
            root=tmp_path,
        ).cases[0],
        AGREEMENT,
        path="c.rubric.yaml",
        source="",
    )
    assert right.actual is not None
    assert answer(right)["total"] == 1


def _write(folder: Path, ledger: str) -> Path:
    path = folder / "c.rubric.yaml"
    path.write_text(
        "evaluator: agreement\ncases:\n  - id: x\n    input_file: records.parquet\n"
        f"    ledger: {ledger}\n    expected: {{}}\n",
        encoding="utf-8",
    )
    return path


JUDGEMENTS = st.lists(
    st.tuples(
        st.sampled_from(["t1", "t2", "t3", "t4"]),
        st.sampled_from([10, 12, 14]),
        st.sampled_from(["PASS", "FAIL", "MAYBE"]),
        st.booleans(),
    ),
    max_size=14,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(judgements=JUDGEMENTS)
def test_an_export_nested_in_lists_answers_as_its_judgements_flattened_one_per_row(
    judgements: list[tuple[str, int, str, bool]],
) -> None:
    # Nested: one task per case (in the order of each case's first judgement), its
    # judgements in a list; flattened: one row per judgement, in the same order.
    tasks: dict[str, list[tuple[int, str, bool]]] = {}
    for task, who, choice, cancelled in judgements:
        tasks.setdefault(task, []).append((who, choice, cancelled))
    nested = [
        {
            "id": task,
            "annotations": [
                {
                    "completed_by": who,
                    "result": [{"value": {"choices": [choice]}}],
                    "was_cancelled": c,
                }
                for who, choice, c in items
            ],
        }
        for task, items in tasks.items()
    ]
    flat = "".join(
        json.dumps({"id": task, "completed_by": who, "choice": choice, "was_cancelled": c}) + "\n"
        for task, items in tasks.items()
        for who, choice, c in items
    )
    words = "labels: {PASS: true, FAIL: false}, a: 10, b: 12"
    with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
        lists = run_export(
            Path(one),
            "tasks.json",
            json.dumps(nested),
            "{rows: per-judgement, id: id, grader: annotations.completed_by, "
            f"label: annotations.result.0.value.choices.0, {words}, "
            "where: {annotations.was_cancelled: false}}",
        )
        rows = run_export(
            Path(two),
            "rows.jsonl",
            flat,
            "{rows: per-judgement, id: id, grader: completed_by, label: choice, "
            f"{words}, where: {{was_cancelled: false}}}}",
        )
    assert lists.outcome == rows.outcome
    assert lists.actual == rows.actual
    if lists.evidence is not None and rows.evidence is not None:
        assert lists.evidence.facts.get("ignored judgements") == rows.evidence.facts.get(
            "ignored judgements"
        )
        assert (lists.evidence.facts.get("left out") is None) == (
            rows.evidence.facts.get("left out") is None
        )


def test_a_where_list_of_another_length_than_the_judgements_is_worded_at_the_row(
    tmp_path: Path,
) -> None:
    row = {
        "id": "h2",
        "verdict.responses": ["PASS", "FAIL"],
        "verdict.responses.users": list(ARGILLA_USERS),
        "verdict.responses.status": ["submitted"],
    }
    outcome = run_export(tmp_path, "records.jsonl", json.dumps(row) + "\n", ARGILLA)
    assert case_error(outcome) == (
        "the input is not usable: records.jsonl:1: the grader path '[verdict.responses.users]' "
        "holds 2 items and the 'where' path '[verdict.responses.status]' 1; judgements in "
        "lists are paired by position, so every list needs one length"
    )


# -- judgements read as JSON, tallied in blocks ---------------------------------------------------

NESTED = (
    "{rows: per-judgement, id: id, grader: annotations.completed_by, "
    "label: annotations.result.0.value.choices.0, a: 10, b: 12, labels: {PASS: true, FAIL: false}}"
)


def blocks_off() -> Any:
    from unittest import mock

    from pytest_rubric.inputs.rows import FileRows

    def none(self: object) -> Any:
        yield None

    return mock.patch.object(FileRows, "label_blocks", none)


def nested_blocks(folder: Path, name: str, content: str, ledger: str) -> list[Any]:
    from pytest_rubric.inputs.rows import FileRows

    run_export(folder, name, content, ledger)
    (case,) = load_case_file(folder / "c.rubric.yaml", "c.rubric.yaml", root=folder).cases
    assert case.input_file is not None
    return list(FileRows(case.input_file).label_blocks())


@pytest.mark.parametrize("document", [False, True], ids=["jsonl", "json"])
def test_judgements_in_lists_are_tallied_in_blocks_in_the_order_of_their_first_judgement(
    tmp_path: Path, document: bool
) -> None:
    tasks = [  # t2's two judgements come later than t3's first
        {"id": "t1", "annotations": [ann(10, "PASS"), ann(12, "FAIL")]},
        {"id": "t2", "annotations": [ann(12, "PASS")]},
        {"id": "t3", "annotations": [ann(12, "FAIL"), ann(13, "PASS"), ann(10, "PASS")]},
        {"id": "t2", "annotations": [ann(10, "FAIL")]},
    ]
    name = "e.json" if document else "e.jsonl"
    text = json.dumps(tasks) if document else "".join(json.dumps(task) + "\n" for task in tasks)
    blocks = nested_blocks(tmp_path, name, text, NESTED)
    assert None not in blocks
    outcome = run_export(tmp_path, name, text, NESTED)
    assert outcome.actual == {
        "matrix": {"bothPass": 0, "bothFail": 0, "aOnly": 2, "bOnly": 1},
        "agreement": 0,
        "total": 3,
        "disagreements": ["t1", "t2", "t3"],
    }
    assert outcome.evidence is not None
    assert outcome.evidence.facts["ignored judgements"] == "1 by graders other than a and b (13 1)"
    with blocks_off():
        slow = run_export(tmp_path, name, text, NESTED)
    assert (outcome.actual, outcome.evidence, outcome.review) == (
        slow.actual,
        slow.evidence,
        slow.review,
    )


def ann(who: Any, choice: Any) -> dict[str, Any]:
    """An annotation as Label Studio writes one (``choice`` ``...``: no result at all)."""
    result = [] if choice is ... else [{"value": {"choices": [choice]}, "type": "choices"}]
    return {"completed_by": who, "result": result, "was_cancelled": False}


@pytest.mark.parametrize(
    ("tasks", "why"),
    [
        ([{"id": "t1", "annotations": [ann(10, "PASS")]}], "a case judged once"),
        ([{"id": 7, "annotations": [ann(10, "PASS"), ann(12, "PASS")]}], "an ID that is a number"),
        ([{"id": "t1", "annotations": [ann(True, "PASS"), ann(12, "PASS")]}], "a Boolean grader"),
        ([{"id": "t1", "annotations": [ann(10, "MAYBE"), ann(12, "PASS")]}], "a word outside"),
        ([{"id": "t1", "annotations": [ann(10, True), ann(12, "PASS")]}], "a Boolean label"),
        ([{"id": "t1", "annotations": [ann(10, ...), ann(12, "PASS")]}], "no label"),
        ([{"id": " t1", "annotations": [ann(10, "PASS"), ann(12, "PASS")]}], "a blank start"),
        ([{"id": "t1", "annotations": [ann(10, "PASS"), ann(10, "PASS")]}], "judged twice"),
        ([{"id": "t1", "annotations": "none"}], "no list"),
        (["t1"], "a row that is not a mapping"),
    ],
)
def test_judgements_the_blocks_cannot_decide_are_read_one_row_at_a_time(
    tmp_path: Path, tasks: list[Any], why: str
) -> None:
    text = "".join(json.dumps(task) + "\n" for task in tasks)
    assert None in nested_blocks(tmp_path, "e.jsonl", text, NESTED), why
    fast = run_export(tmp_path, "e.jsonl", text, NESTED)
    with blocks_off():
        slow = run_export(tmp_path, "e.jsonl", text, NESTED)
    assert (fast.outcome, fast.actual, fast.problems) == (slow.outcome, slow.actual, slow.problems)
    assert fast.evidence == slow.evidence


GRADERS = st.sampled_from([10, 12, 12, 10, 13, "10", True, 10.0, None])
CHOICES = st.sampled_from(["PASS", "FAIL", "PASS", "FAIL", "MAYBE", True, ...])
TASK_IDS = st.one_of(st.sampled_from(["t1", "t2", "t3", "t4", "t5", "", " t6"]), st.just(8))


@st.composite
def clean_tasks(draw: st.DrawFn) -> list[tuple[Any, list[tuple[Any, Any]]]]:
    """Rows as exports write them: each case judged once by 10 and once by 12 (and maybe
    by 13), the judgements in any order, adjacent ones of one case in one row."""
    cases = draw(st.lists(st.sampled_from(["t1", "t2", "t3", "t4", "t5", "t6"]), unique=True))
    word = st.sampled_from(["PASS", "FAIL"])
    judgements = [(case, who, draw(word)) for case in cases for who in (10, 12)]
    judgements += [(case, 13, "PASS") for case in draw(st.lists(st.sampled_from(cases or ["t1"])))]
    judgements = draw(st.permutations(judgements))
    rows: list[tuple[Any, list[tuple[Any, Any]]]] = []
    for case, who, said in judgements:
        if rows and rows[-1][0] == case and draw(st.booleans()):
            rows[-1][1].append((who, said))
        else:
            rows.append((case, [(who, said)]))
    return rows


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tasks=st.one_of(
        clean_tasks(),
        st.lists(
            st.tuples(TASK_IDS, st.lists(st.tuples(GRADERS, CHOICES), max_size=4)), max_size=8
        ),
    ),
    document=st.booleans(),
    chunk=st.sampled_from([1, 2, 3, 4096]),
)
def test_judgements_in_lists_answer_alike_in_blocks_and_one_row_at_a_time(
    tasks: list[tuple[Any, list[tuple[Any, Any]]]], document: bool, chunk: int
) -> None:
    from unittest import mock

    from pytest_rubric.inputs import judgementblocks

    rows = [
        {"id": task_id, "annotations": [ann(who, choice) for who, choice in judged]}
        for task_id, judged in tasks
    ]
    name, text = (
        ("e.json", json.dumps(rows))
        if document
        else ("e.jsonl", "".join(json.dumps(row) + "\n" for row in rows))
    )
    with (
        tempfile.TemporaryDirectory() as folder,
        mock.patch.object(judgementblocks, "CHUNK", chunk),
    ):
        fast = run_export(Path(folder), name, text, NESTED)
        with blocks_off():
            slow = run_export(Path(folder), name, text, NESTED)
    assert (fast.outcome, fast.actual, fast.problems) == (slow.outcome, slow.actual, slow.problems)
    assert fast.evidence == slow.evidence
    assert fast.review == slow.review
