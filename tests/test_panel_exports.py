"""Panels read from exports their tools wrote (issue 47): a Label Studio project three
users annotated, exported by the server as JSON, JSON-MIN and CSV; Prodigy's ``db-out`` of
three named sessions (docs/demos/tools/, with the scripts that made them)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.running.outcome import CaseOutcome
from pytest_rubric.running.panelcases import panel_cases
from pytest_rubric.running.runner import run_case

TOOLS = Path(__file__).resolve().parent.parent / "docs" / "demos" / "tools"
LABEL_STUDIO = (
    "{rows: per-judgement, id: id, ids: as-text, grader: annotations.completed_by, "
    "label: annotations.result.0.value.choices.0, panel: [2, 3, 4], graders: [ana, ben, cleo], "
    "labels: {PASS: true, FAIL: false}, where: {annotations.was_cancelled: false}%s}"
)
# The JSON-MIN and CSV exports: one row per annotation, the user in 'annotator' (a number in
# JSON, text in CSV), cancelled annotations already left out.
MIN = (
    "{rows: per-judgement, id: id, ids: as-text, grader: annotator, label: verdict, "
    "panel: [2, 3, 4], graders: [ana, ben, cleo], labels: {PASS: true, FAIL: false}%s}"
)
CSV = MIN.replace("ids: as-text, ", "").replace("[2, 3, 4]", "['2', '3', '4']")
PRODIGY = (
    "{rows: per-judgement, id: _input_hash, ids: as-text, grader: _session_id, label: answer, "
    "panel: [headlines_check-rita, headlines_check-omar, headlines_check-lena], "
    "graders: [rita, omar, lena], labels: {accept: true, reject: false}}"
)
BOTH = ", overlap: both-judged"


def pairs(folder: Path, name: str, ledger: str) -> dict[str, CaseOutcome]:
    """Each pair's outcome, by pair name, of a panel reading ``name`` as it was written."""
    shutil.copy(TOOLS / name, folder / name)
    path = folder / "c.rubric.yaml"
    path.write_text(
        f"evaluator: agreement\ncases:\n  - id: x\n    input_file: {name}\n"
        f"    ledger: {ledger}\n    expected: {{}}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(path, "c.rubric.yaml", root=folder).cases
    assert case.problems == ()
    made = panel_cases(case, "c.rubric.yaml", InputFiles(path, "c.rubric.yaml", folder))
    return {
        made_case.name[len("x[") : -1]: run_case(
            made_case, AGREEMENT, path="c.rubric.yaml", source="", review_limit=1000, review_at=name
        )
        for made_case in made
    }


def answer(both: int, fail: int, a_only: int, b_only: int, *ids: str) -> dict[str, Any]:
    return {
        "matrix": {"bothPass": both, "bothFail": fail, "aOnly": a_only, "bOnly": b_only},
        "agreement": both + fail,
        "total": both + fail + a_only + b_only,
        "disagreements": list(ids),
    }


BOTH_JUDGED = {
    "ana vs ben": answer(5, 2, 0, 1, "8"),
    "ana vs cleo": answer(3, 2, 1, 1, "2", "8"),
    "ben vs cleo": answer(4, 2, 1, 0, "2"),
}


def test_the_export_is_the_one_label_studio_wrote_with_a_skipped_task() -> None:
    tasks = json.loads((TOOLS / "label-studio-panel.json").read_text(encoding="utf-8"))
    assert [task["id"] for task in tasks] == list(range(1, 9))
    assert all(len(task["annotations"]) == 3 for task in tasks)
    (skipped,) = [a for task in tasks for a in task["annotations"] if a["was_cancelled"]]
    assert (skipped["task"], skipped["completed_by"], skipped["result"]) == (5, 4, [])
    assert tasks[4]["cancelled_annotations"] == 1


def test_each_pair_of_the_label_studio_json_export_under_the_seeds_rule(tmp_path: Path) -> None:
    got = pairs(tmp_path, "label-studio-panel.json", LABEL_STUDIO % "")
    assert got["ana vs ben"].actual == BOTH_JUDGED["ana vs ben"]
    for pair in ("ana vs cleo", "ben vs cleo"):
        outcome = got[pair]
        assert outcome.actual == {"error": "review-label"}
        assert outcome.evidence is not None
        # cleo skipped task 5: the pair's first case one of them did not judge.
        assert outcome.evidence.problem == (
            "label-studio-panel.json#[4] rows[4] (id '5') has no label b; a missing label is "
            "an evidence gap, not a guess"
        )


def test_each_pair_of_the_label_studio_json_export_keeping_the_cases_both_judged(
    tmp_path: Path,
) -> None:
    got = pairs(tmp_path, "label-studio-panel.json", LABEL_STUDIO % BOTH)
    assert {pair: outcome.actual for pair, outcome in got.items()} == BOTH_JUDGED
    alone = {pair: outcome.evidence.facts["judged alone"] for pair, outcome in got.items()}  # type: ignore[union-attr]
    assert alone == {
        "ana vs ben": "a 0, b 0 (left out)",
        "ana vs cleo": "a 1, b 0 (left out)",
        "ben vs cleo": "a 1, b 0 (left out)",
    }


@pytest.mark.parametrize(
    ("name", "ledger"),
    [("label-studio-panel-min.json", MIN), ("label-studio-panel.csv", CSV)],
    ids=["json-min", "csv"],
)
def test_the_json_min_and_csv_exports_of_the_same_project_answer_alike(
    tmp_path: Path, name: str, ledger: str
) -> None:
    got = pairs(tmp_path, name, ledger % BOTH)
    assert {pair: outcome.actual for pair, outcome in got.items()} == BOTH_JUDGED
    # Without the skipped annotation in the file, cleo never judged task 5.
    seeds = pairs(tmp_path, name, ledger % "")
    assert seeds["ana vs ben"].actual == BOTH_JUDGED["ana vs ben"]
    assert seeds["ana vs cleo"].actual == seeds["ben vs cleo"].actual == {"error": "review-label"}


def test_each_pair_of_prodigy_sessions_and_an_ignored_answer(tmp_path: Path) -> None:
    got = pairs(tmp_path, "prodigy-panel.jsonl", PRODIGY)
    assert got["rita vs omar"].actual == answer(5, 2, 0, 1, "-1173789389")
    for pair in ("rita vs lena", "omar vs lena"):
        outcome = got[pair]
        assert outcome.actual == {"error": "review-label"}
        assert outcome.evidence is not None
        # Prodigy's third button is an answer of its own, never read as a label.
        assert outcome.evidence.problem is not None
        assert outcome.evidence.problem.startswith(
            "prodigy-panel.jsonl:21: the label of b (id '527858757') is \"ignore\""
        )
