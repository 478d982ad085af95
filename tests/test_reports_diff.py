"""``pytest-rubric diff OLD NEW``: what changed between two reports, case by case and per
agreement ledger, in words or as JSON, and a refusal in one line for what is not a report.

The example project runs once; every other report is a copy of its report, edited, or
made from hand-written records with the report's own code."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import jsonschema
import pytest
from _schemas import diff_schema
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_rubric import cli
from pytest_rubric.reports.diff import compare, entered_and_left
from pytest_rubric.reports.difftext import diff_lines
from pytest_rubric.reports.jsonreport import document
from pytest_rubric.reports.jsonreport import schema as report_schema
from pytest_rubric.reports.records import CaseRecord
from pytest_rubric.reports.suites import suite_record

EXAMPLE = Path(__file__).parent.parent / "example_project"
Report = dict[str, Any]
REPORT_SCHEMA = jsonschema.Draft202012Validator(report_schema())
DIFF_SCHEMA = jsonschema.Draft202012Validator(diff_schema())

LEDGER = "rubrics/newsroom/exported-ledgers.rubric.yaml::week-48-export"
CALIBRATION = "rubrics/newsroom/judge-vs-editor.rubric.yaml::week-47-calibration"
REASON = "rubrics/newsroom/byline-checks.rubric.yaml::author-missing-from-record"
ROW = "rubrics/newsroom/judge-decisions.rubric.yaml::judge-2024-12[dec-2024-12-000031]"
OTHER_ROW = "rubrics/newsroom/judge-decisions.rubric.yaml::judge-2024-12[dec-2024-12-000032]"


@pytest.fixture(scope="module")
def example_report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    """The example project's report (one run for the module)."""
    folder = tmp_path_factory.mktemp("diff")
    project = folder / "example_project"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns(".pytest_cache", "__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    out = folder / "report.json"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            f"--rubric-report={out}",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout
    loaded: Report = json.loads(out.read_text(encoding="utf-8"))
    return loaded


@pytest.fixture
def base(example_report: Report) -> Report:
    return copy.deepcopy(example_report)


def case_of(report: Report, nodeid: str) -> dict[str, Any]:
    return next(case for case in report["cases"] if case["nodeid"] == nodeid)


def settled(report: Report) -> Report:
    """``report`` with its summary and exit status agreeing with its edited cases."""
    failing = any(case["outcome"] in ("mismatched", "case-error") for case in report["cases"])
    return document(
        report["cases"],
        1 if failing else report["exitStatus"],
        report["pytestRubric"],
        suite=report["suite"],
        shard=report["shard"],
    )


def written(folder: Path, name: str, report: Report | str | bytes) -> str:
    path = folder / name
    if isinstance(report, bytes):
        path.write_bytes(report)
    else:
        path.write_text(report if isinstance(report, str) else json.dumps(report))
    return str(path)


def diff(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    """The exit status, the lines printed and what went to stderr."""
    status = cli.main(["diff", *args])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def diff_json(capsys: pytest.CaptureFixture[str], old: str, new: str) -> tuple[int, Report]:
    status, lines, err = diff(capsys, old, new, "--json")
    assert err == ""
    document_: Report = json.loads("\n".join(lines))
    DIFF_SCHEMA.validate(document_)
    return status, document_


def changed_week_48(report: Report) -> None:
    """Week 48 re-exported: hl-401 now disagrees, hl-405 no longer does (a mismatch)."""
    ledger = case_of(report, LEDGER)
    ledger["actual"] = {
        "matrix": {"bothPass": 3, "bothFail": 3, "aOnly": 2, "bOnly": 0},
        "agreement": 6,
        "total": 8,
        "disagreements": ["hl-401", "hl-402"],
    }
    ledger["outcome"] = "mismatched"
    rows = ledger["review"]["rows"]
    ledger["review"]["rows"] = [
        {**rows[0], "id": "hl-401", "where": "rubrics/newsroom/ledgers/week-48.jsonl:1"},
        rows[0],
    ]


# -- nothing changed -------------------------------------------------------------------


def test_a_report_against_itself_says_nothing_changed_and_exits_0(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = written(tmp_path, "r.json", base)
    status, lines, err = diff(capsys, path, path)
    assert (status, err) == (0, "")
    assert lines == [f"pytest-rubric diff: nothing changed ({path} -> {path})"]
    status, made = diff_json(capsys, path, path)
    assert status == 0
    assert (made["changed"], made["sameSuite"], made["cases"], made["ledgers"]) == (
        False,
        True,
        [],
        [],
    )
    assert made["old"] == {
        "report": path,
        "pytestRubric": base["pytestRubric"],
        "cases": 45,
        "digest": base["suite"]["digest"],
        "collected": 45,
        "collectedOnly": 0,
    }


def test_a_report_of_another_pytest_rubric_version_of_this_format_compares(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = written(tmp_path, "old.json", {**base, "pytestRubric": "0.0.1"})
    new = written(tmp_path, "new.json", base)
    status, made = diff_json(capsys, old, new)
    assert (status, made["old"]["pytestRubric"], made["changed"]) == (0, "0.0.1", False)


def test_an_equal_answer_written_otherwise_is_no_change_but_true_is_not_1(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = written(tmp_path, "old.json", base)
    case_of(base, REASON)["actual"] = {"score": 1}
    before = copy.deepcopy(base)
    case_of(base, REASON)["actual"] = {"score": 1.0}
    status, made = diff_json(
        capsys, written(tmp_path, "a.json", before), written(tmp_path, "b.json", base)
    )
    assert (status, made["changed"]) == (0, False)
    case_of(base, REASON)["actual"] = {"score": True}
    status, made = diff_json(
        capsys, written(tmp_path, "a.json", before), written(tmp_path, "b.json", base)
    )
    assert status == 1
    assert made["cases"] == [
        {
            "nodeid": REASON,
            "case": "author-missing-from-record",
            "file": "rubrics/newsroom/byline-checks.rubric.yaml",
            "line": case_of(base, REASON)["line"],
            "change": "answer",
            "before": "matched",
            "after": "matched",
        }
    ]
    assert made["summary"]["answerChanged"] == 1
    assert old  # the untouched report stays readable


# -- what changed ----------------------------------------------------------------------


def test_every_kind_of_change_in_json_failures_first(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_report = copy.deepcopy(base)
    changed_week_48(base)
    case_of(base, ROW)["outcome"] = "case-error"
    del case_of(base, ROW)["actual"]
    case_of(base, OTHER_ROW)["actual"] = {"coherent": False}
    gone = case_of(base, REASON)
    base["cases"].remove(gone)
    old_report["cases"] = [c for c in old_report["cases"] if c["nodeid"] != CALIBRATION]
    for report in (base, old_report):  # each case left out of its suite too
        kept = [c["nodeid"] for c in report["cases"]]
        report["suite"] = suite_record(kept, len(kept))
    old = written(tmp_path, "old.json", settled(old_report))
    new = written(tmp_path, "new.json", settled(base))
    status, made = diff_json(capsys, old, new)
    assert status == 1
    assert made["summary"] == {
        "onlyOld": 1,
        "onlyNew": 1,
        "outcomeChanged": 2,
        "answerChanged": 1,
        "ledgersChanged": 1,
        "notCompared": 0,
        "compared": 43,
    }
    assert [(c["nodeid"], c["change"], c["before"], c["after"]) for c in made["cases"]] == [
        (LEDGER, "outcome", "matched", "mismatched"),
        (ROW, "outcome", "matched", "case-error"),
        (OTHER_ROW, "answer", "matched", "matched"),
        (CALIBRATION, "only-new", None, "matched"),
        (REASON, "only-old", "matched", None),
    ]
    row = next(c for c in made["cases"] if c["nodeid"] == ROW)
    assert row["dataset"] == case_of(base, ROW)["dataset"]
    (ledger,) = made["ledgers"]
    assert ledger["before"] == {
        "matrix": {"bothPass": 4, "bothFail": 2, "aOnly": 1, "bOnly": 1},
        "agreement": 6,
        "total": 8,
    }
    assert ledger["after"]["matrix"] == {"bothPass": 3, "bothFail": 3, "aOnly": 2, "bOnly": 0}
    assert ledger["entered"] == [
        {"id": "hl-401", "where": "rubrics/newsroom/ledgers/week-48.jsonl:1"}
    ]
    assert ledger["left"] == [{"id": "hl-405", "where": "rubrics/newsroom/ledgers/week-48.jsonl:5"}]


def test_the_text_says_the_counts_first_then_each_change_datasets_grouped(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = written(tmp_path, "old.json", base)
    changed_week_48(base)
    case_of(base, ROW)["outcome"] = "mismatched"
    case_of(base, OTHER_ROW)["outcome"] = "mismatched"
    status, lines, err = diff(capsys, old, written(tmp_path, "new.json", settled(base)))
    assert (status, err) == (1, "")
    assert lines == [
        f"pytest-rubric diff: 3 cases changed outcome, 1 ledger changed ({old} -> "
        f"{tmp_path / 'new.json'})",
        "outcome changed (3):",
        f"  {LEDGER}: matched -> mismatched",
        "  dataset judge-2024-12 (rubrics/newsroom/judge-decisions.rubric.yaml), 2 rows:",
        f"    {ROW}: matched -> mismatched",
        f"    {OTHER_ROW}: matched -> mismatched",
        "ledgers changed (1):",
        f"  {LEDGER}: agreement 6/8 -> 6/8; bothPass 4 -> 3, bothFail 2 -> 3, aOnly 1 -> 2, "
        'bOnly 1 -> 0; entered "hl-401" (rubrics/newsroom/ledgers/week-48.jsonl:1); '
        'left "hl-405" (rubrics/newsroom/ledgers/week-48.jsonl:5)',
    ]


def test_an_id_whose_row_the_capped_review_left_out_has_no_place(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = written(tmp_path, "old.json", base)
    changed_week_48(base)
    ledger = case_of(base, LEDGER)
    ledger["review"] = {"rows": [], "more": 2}
    _status, made = diff_json(capsys, old, written(tmp_path, "new.json", settled(base)))
    assert made["ledgers"][0]["entered"] == [{"id": "hl-401", "where": None}]
    _status, lines, _ = diff(capsys, old, str(tmp_path / "new.json"))
    assert lines[-1].endswith(
        'entered "hl-401"; left "hl-405" (rubrics/newsroom/ledgers/week-48.jsonl:5)'
    )


def test_reports_of_different_suites_compare_and_say_so(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = written(tmp_path, "old.json", base)
    extra = {**case_of(base, REASON), "nodeid": "rubrics/late.rubric.yaml::late", "case": "late"}
    extra["file"] = "rubrics/late.rubric.yaml"
    base["cases"].append(extra)
    base["suite"] = suite_record([*base["suite"]["nodeids"], extra["nodeid"]], 46)
    new = written(tmp_path, "new.json", settled(base))
    status, lines, _ = diff(capsys, old, new)
    assert status == 1
    # the suites differ by the case listed below: no line says it again
    assert lines[:3] == [
        f"pytest-rubric diff: 1 only in new ({old} -> {new})",
        "only in new (1):",
        "  rubrics/late.rubric.yaml::late (matched)",
    ]
    made = diff_json(capsys, old, new)[1]
    assert made["sameSuite"] is False
    assert (made["old"]["collectedOnly"], made["new"]["collectedOnly"]) == (0, 1)


def test_data_is_escaped_for_the_terminal_and_ids_quoted_as_json(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = written(tmp_path, "old.json", base)
    changed_week_48(base)
    ledger = case_of(base, LEDGER)
    ledger["actual"]["disagreements"] = ['hl-"4\x1b[31m01', "hl-402"]
    ledger["review"]["rows"][0]["id"] = 'hl-"4\x1b[31m01'
    _status, lines, _ = diff(capsys, old, written(tmp_path, "new.json", settled(base)))
    assert '"hl-\\"4\\u001b[31m01" (rubrics/newsroom/ledgers/week-48.jsonl:1)' in lines[-1]
    assert all("\x1b" not in line for line in lines)


# -- what is not a report --------------------------------------------------------------


def _forged(edit: Callable[[Report], None]) -> Callable[[Report], str]:
    def make(report: Report) -> str:
        edit(report)
        return json.dumps(report)

    return make


def _set(path: str, value: object) -> Callable[[Report], None]:
    def edit(report: Report) -> None:
        *parents, last = path.split(".")
        target: Any = report
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return edit


def _review_more(report: Report) -> None:
    case_of(report, LEDGER)["review"]["more"] = 10**18


def _twice(report: Report) -> None:
    report["cases"][1] = report["cases"][0]


BAD: list[tuple[str, Callable[[Report], str | bytes], str]] = [
    ("not-json", lambda r: "{nope", "is not a pytest-rubric report: not JSON (line 1, column 2"),
    ("not-utf8", lambda r: b"\xff\xfe{}", "it is not UTF-8 text"),
    ("not-a-report", lambda r: '{"format": "junit"}', 'it has no "format": "pytest-rubric-report"'),
    ("a-list", lambda r: "[]", 'it has no "format": "pytest-rubric-report"'),
    (
        "duplicate-key",
        lambda r: json.dumps(r)[:-1] + ', "exitStatus": 0}',
        'it gives the key "exitStatus" twice in one object',
    ),
    ("nan", lambda r: json.dumps(r).replace('"duration": ', '"duration": NaN, "x": ', 1), "NaN"),
    ("version-3", _forged(_set("version", 3)), "is a version 3 report; this pytest-rubric"),
    ("version-5", _forged(_set("version", 5)), "reads version 4"),
    ("no-tool-version", _forged(_set("pytestRubric", 4)), '"pytestRubric" is not a version'),
    ("line-text", _forged(_set("cases.0.line", "4")), "cases[0] is not a case record"),
    ("outcome", _forged(_set("cases.0.outcome", "passed")), "cases[0] is not a case record"),
    (
        "collected",
        _forged(_set("suite.collected", 41)),
        '"suite.collected" or "suite.selected" is not a count of its node IDs',
    ),
    ("summary", _forged(_set("summary.cases", 41)), '"summary.cases" is not the count'),
    ("cases", _forged(_set("cases", {})), '"cases" is not a list'),
    ("review-more", _forged(_review_more), "review is not {rows: [{...}, ...], more: a count}"),
    ("null-suite", _forged(_set("suite", None)), '"suite" is null'),
    ("case-twice", _forged(_twice), "is not a report pytest-rubric wrote: cases[1] is "),
]


@pytest.mark.parametrize(("make", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
@pytest.mark.parametrize("side", ["old", "new"])
def test_what_is_not_a_readable_report_is_one_line_and_exit_2(
    base: Report,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    make: Callable[[Report], str | bytes],
    message: str,
    side: str,
) -> None:
    good = written(tmp_path, "good.json", base)
    bad = written(tmp_path, "bad.json", make(copy.deepcopy(base)))
    status, lines, err = diff(capsys, *((bad, good) if side == "old" else (good, bad)))
    assert (status, lines) == (2, [])
    assert err.count("\n") == 1
    assert err.startswith(f"pytest-rubric: error: cannot compare: {bad}")
    assert message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "good.json"]


def test_a_missing_file_or_a_folder_is_one_line_and_exit_2(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = written(tmp_path, "good.json", base)
    for name, why in ((tmp_path / "gone.json", "no such file"), (tmp_path, "it is a directory")):
        status, lines, err = diff(capsys, good, str(name))
        assert (status, lines, err.count("\n")) == (2, [], 1)
        assert why in err
    status, lines, err = diff(capsys, good)
    assert (status, lines, err.count("\n")) == (2, [], 1)
    assert "NEW" in err


def test_python_dash_m_runs_diff_and_help_lists_it(base: Report, tmp_path: Path) -> None:
    path = written(tmp_path, "r.json", base)
    run = subprocess.run(
        [sys.executable, "-m", "pytest_rubric", "diff", path, path],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout.startswith("python -m pytest_rubric diff: nothing changed")
    shown = subprocess.run(
        [sys.executable, "-m", "pytest_rubric", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "diff" in shown.stdout


# -- properties ------------------------------------------------------------------------

_ids = st.lists(st.sampled_from([f"hl-{n}" for n in range(12)] + ["", "é", '"']), unique=True)
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
_outcomes = st.sampled_from(["matched", "mismatched", "case-error", "skipped", "xfailed"])


def ledger_answer(ids: list[str]) -> dict[str, Any]:
    return {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": len(ids), "bOnly": 0},
        "agreement": 1,
        "total": 1 + len(ids),
        "disagreements": ids,
    }


def record(n: int, outcome: str, actual: object, ledger: bool = False) -> dict[str, Any]:
    made: dict[str, Any] = {
        "nodeid": f"cases.rubric.yaml::case-{n}",
        "case": f"case-{n}",
        "file": "cases.rubric.yaml",
        "line": 3 + 4 * n,
        "index": n,
        "evaluator": "agreement" if ledger else "reason",
        "outcome": outcome,
        "input": {},
        "expected": {},
        "differingKeys": [],
        "evidence": None,
        "problems": [],
        "duration": 0.0,
    }
    if outcome not in ("case-error", "skipped"):
        made["actual"] = actual
    if outcome == "case-error":
        made["problems"] = ["cases.rubric.yaml:3: the evaluator raised"]
    if outcome in ("skipped", "xfailed", "xpassed"):
        made["reason"] = "a mark said so"
    if ledger and isinstance(actual, dict):
        # An evaluator that declares a ledger's review gives its record one (here as
        # --rubric-review-rows=0 keeps it): that is what makes the record a ledger's.
        made["review"] = {"rows": [], "more": len(actual["disagreements"])}
    return made


def hand_made(records: list[dict[str, Any]]) -> Report:
    failing = any(r["outcome"] in ("mismatched", "case-error") for r in records)
    nodeids = [r["nodeid"] for r in records]
    made = document(
        cast("list[CaseRecord]", records),
        int(failing),
        "0.1.0",
        suite=suite_record(nodeids, len(nodeids)),
        shard=None,
    )
    REPORT_SCHEMA.validate(made)
    return made


@settings(max_examples=60)
@given(st.lists(st.tuples(_outcomes, _json), max_size=5), st.lists(_ids, max_size=2))
def test_any_report_against_itself_says_nothing_changed_and_exits_0(
    cases: list[tuple[str, object]], ledgers: list[list[str]]
) -> None:
    records = [record(n, outcome, {"a": actual}) for n, (outcome, actual) in enumerate(cases)]
    records += [
        record(len(cases) + n, "matched", ledger_answer(ids), ledger=True)
        for n, ids in enumerate(ledgers)
    ]
    with tempfile.TemporaryDirectory() as folder:
        path = written(Path(folder), "r.json", hand_made(records))
        # a report of no case compares nothing, which is never "nothing changed"
        status = 0 if records else 1
        assert cli.main(["diff", path, path]) == status
        assert cli.main(["diff", "--json", path, path]) == status


@given(_ids, _ids)
def test_the_ids_that_entered_and_left_are_exactly_the_set_differences_in_order(
    old_ids: list[str], new_ids: list[str]
) -> None:
    old = hand_made([record(0, "matched", ledger_answer(old_ids), ledger=True)])
    new = hand_made([record(0, "matched", ledger_answer(new_ids), ledger=True)])
    made = compare(old, new, "old.json", "new.json")
    entered = [one for one in new_ids if one not in old_ids]
    left = [one for one in old_ids if one not in new_ids]
    assert entered_and_left(old_ids, new_ids) == (entered, left)
    if old_ids == new_ids:
        assert (made["changed"], made["ledgers"]) == (False, [])
    else:
        (ledger,) = made["ledgers"]
        assert [moved["id"] for moved in ledger["entered"]] == entered
        assert [moved["id"] for moved in ledger["left"]] == left
        assert made["cases"] == []  # a ledger's answer is told as a ledger, not again
    DIFF_SCHEMA.validate(made)


@given(st.lists(st.tuples(_outcomes, _json), min_size=1, max_size=4), st.data())
def test_every_case_is_listed_once_when_it_changed_and_never_otherwise(
    cases: list[tuple[str, object]], data: st.DataObject
) -> None:
    old = [record(n, outcome, {"a": actual}) for n, (outcome, actual) in enumerate(cases)]
    new = [
        record(n, data.draw(_outcomes), {"a": data.draw(_json)}) if data.draw(st.booleans()) else r
        for n, r in enumerate(old)
    ]
    made = compare(hand_made(old), hand_made(new), "a", "b")
    listed = [c["nodeid"] for c in made["cases"]]
    for before, after in zip(old, new, strict=True):
        same = before["outcome"] == after["outcome"] and json.dumps(
            before.get("actual"), sort_keys=True
        ) == json.dumps(after.get("actual"), sort_keys=True)
        if same and ("actual" in before) == ("actual" in after):
            assert before["nodeid"] not in listed
    assert len(listed) == len(set(listed))
    failing = [c["after"] in ("mismatched", "case-error") for c in made["cases"]]
    assert failing == sorted(failing, reverse=True)


def test_cases_one_run_collected_but_did_not_select_are_not_compared(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run with -k, or one shard, against a whole run: the cases it did not select were
    not run there, which is no change."""
    selected = copy.deepcopy(base)
    selected["cases"] = [c for c in selected["cases"] if c["nodeid"] == LEDGER]
    selected["suite"] = {**selected["suite"], "selected": 1}
    old = written(tmp_path, "old.json", base)
    new = written(tmp_path, "new.json", settled(selected))
    status, made = diff_json(capsys, old, new)
    assert status == 0
    assert made["summary"]["notCompared"] == len(base["cases"]) - 1
    assert made["cases"] == []
    status, lines, _ = diff(capsys, old, new)
    assert status == 0
    assert lines[1] == (
        f"{len(base['cases']) - 1} cases not compared: collected by both runs, selected by "
        "one only (-k, -m, --deselect, a shard)"
    )


def test_a_lone_surrogate_in_a_report_is_written_as_its_json_escape(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new_report = copy.deepcopy(base)
    actual = case_of(new_report, LEDGER)["actual"]
    actual["disagreements"] = [*actual["disagreements"], "\ud800x"]
    old = written(tmp_path, "old.json", base)
    new = written(tmp_path, "new.json", new_report)  # json.dumps writes it as \ud800
    status, made = diff_json(capsys, old, new)
    assert status == 1
    (ledger,) = made["ledgers"]
    assert ledger["entered"] == [{"id": "\ud800x", "where": None}]


def test_a_large_file_that_starts_as_no_report_is_refused_before_it_is_read(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = written(tmp_path, "old.json", base)
    zeros = tmp_path / "zeros.json"
    with zeros.open("wb") as stream:  # sparse: 3 GB that take no room
        stream.truncate(3 * 1024**3)
    status, lines, err = diff(capsys, old, str(zeros))
    assert (status, lines) == (2, [])
    assert err == (
        f"pytest-rubric: error: cannot read {zeros}: it does not start with '{{', as a JSON "
        "report does\n"
    )


def test_a_ledger_whose_cells_moved_but_not_its_disagreements_names_no_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = ledger_answer(["d1"])
    after = {
        **ledger_answer(["d1"]),
        "matrix": {"bothPass": 0, "bothFail": 1, "aOnly": 1, "bOnly": 0},
    }
    reordered = ledger_answer(["d2", "d1"])
    old = written(
        tmp_path,
        "old.json",
        hand_made(
            [
                record(0, "matched", before, ledger=True),
                record(1, "matched", ledger_answer(["d1", "d2"]), ledger=True),
            ]
        ),
    )
    new = written(
        tmp_path,
        "new.json",
        hand_made(
            [record(0, "matched", after, ledger=True), record(1, "matched", reordered, ledger=True)]
        ),
    )
    status, lines, _ = diff(capsys, old, new)
    assert status == 1
    assert lines[-2:] == [
        "  cases.rubric.yaml::case-0: agreement 1/2 -> 1/2; bothPass 1 -> 0, bothFail 0 -> 1",
        "  cases.rubric.yaml::case-1: agreement 1/3 -> 1/3; the same disagreements in another order",
    ]


def test_a_ledger_is_a_record_whose_evaluator_declared_one_never_an_answer_of_its_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An answer with a ledger's keys from an evaluator that declared no ledger (its record
    has no review) is compared as an answer; the same answers of a declared ledger, as a
    ledger."""
    before, after = ledger_answer(["d1"]), ledger_answer(["d2"])
    for declared in (False, True):
        old = hand_made([record(0, "matched", before, ledger=declared)])
        new = hand_made([record(0, "matched", after, ledger=declared)])
        made = compare(old, new, "old.json", "new.json")
        kinds = ([c["change"] for c in made["cases"]], len(made["ledgers"]))
        assert kinds == (([], 1) if declared else (["answer"], 0))
        DIFF_SCHEMA.validate(made)


def _embedded(page: Path) -> dict[str, Any]:
    found = re.search(
        r'<script type="application/json" id="rubric-data">(.*?)</script>',
        page.read_text(encoding="utf-8"),
    )
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_html_command_opens_the_page_with_what_changed_since_a_baseline(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = written(tmp_path, "old.json", base)
    changed = copy.deepcopy(base)
    changed_week_48(changed)
    new = written(tmp_path, "new.json", settled(changed))
    page = tmp_path / "review.html"
    assert cli.main(["html", "--baseline", old, "-o", str(page), new]) == 0
    comparison = _embedded(page)["comparison"]
    assert comparison["baseline"] == old
    assert [ledger["case"] for ledger in comparison["ledgers"]] == [case_of(base, LEDGER)["case"]]
    plain = tmp_path / "plain.html"
    assert cli.main(["html", "-o", str(plain), new]) == 0
    assert not _embedded(plain).get("comparison")
    capsys.readouterr()
    refused = tmp_path / "refused.html"
    assert cli.main(["html", "--baseline", str(tmp_path), "-o", str(refused), new]) == 2
    assert capsys.readouterr().err == (
        f"pytest-rubric: error: cannot read {tmp_path}: it is a directory; give a report file\n"
    )
    assert not refused.exists()


def test_two_shards_that_share_no_case_compare_nothing_and_never_exit_0(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two disjoint shards of one suite (or -k runs selecting different cases): nothing
    was compared, which must not read as "nothing changed"."""
    halves = []
    for keep in (0, 1):
        shard = copy.deepcopy(base)
        shard["cases"] = [c for n, c in enumerate(base["cases"]) if n % 2 == keep]
        shard["suite"] = {**shard["suite"], "selected": len(shard["cases"])}
        halves.append(written(tmp_path, f"s{keep}.json", settled(shard)))
    status, lines, err = diff(capsys, *halves)
    assert (status, err) == (1, "")
    assert lines == [
        f"pytest-rubric diff: nothing compared: no case ran in both reports "
        f"({halves[0]} -> {halves[1]})",
        "45 cases not compared: collected by both runs, selected by one only "
        "(-k, -m, --deselect, a shard)",
    ]
    status, made = diff_json(capsys, *halves)
    assert status == 1
    assert (made["changed"], made["summary"]["compared"], made["summary"]["notCompared"]) == (
        False,
        0,
        45,
    )


def test_a_change_among_no_compared_case_says_nothing_was_compared() -> None:
    old = hand_made([record(0, "matched", {"a": 1})])
    new = hand_made([record(1, "matched", {"a": 1})])
    made = compare(old, new, "old.json", "new.json")
    assert diff_lines(made)[:2] == [
        "pytest-rubric diff: 1 only in new, 1 only in old; nothing compared: no case ran in "
        "both reports (old.json -> new.json)",
        "the runs collected no case in common (1 case in old.json, 1 case in new.json): node "
        "IDs are relative to each run's rootdir; were both run from the same one?",
    ]


def test_cases_of_one_suite_only_that_were_not_run_are_named_where_no_section_lists_them(
    base: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A case the old run collected but deselected, which the new run does not collect:
    listed nowhere below, so the line on the suites says it."""
    grown = copy.deepcopy(base)
    late = "rubrics/late.rubric.yaml::late"
    grown["suite"] = suite_record([*base["suite"]["nodeids"], late], 45)
    old = written(tmp_path, "old.json", settled(grown))
    new = written(tmp_path, "new.json", base)
    status, lines, _ = diff(capsys, old, new)
    assert status == 0  # every case in both was compared, and none changed
    assert lines == [
        f"pytest-rubric diff: nothing changed ({old} -> {new})",
        f"cases of one suite only, not run by the run that collected them: 1 case in {old}",
    ]


def test_the_html_command_never_writes_the_page_over_its_baseline(
    base: Report,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """-o at the baseline's path, however spelt, is refused as -o at a report's path is."""
    monkeypatch.chdir(tmp_path)
    old = written(tmp_path, "old.json", base)
    new = written(tmp_path, "new.json", base)
    (tmp_path / "link.json").symlink_to("old.json")
    before = Path(old).read_bytes()
    for output in ("old.json", old, "./sub/../old.json", "link.json"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        status = cli.main(["html", "new.json", "--baseline", old, "-o", output])
        assert (status, capsys.readouterr().err) == (
            2,
            f"pytest-rubric: error: -o {output} is the baseline {old}; write to another path\n",
        )
        assert Path(old).read_bytes() == before
    assert cli.main(["html", new, "--baseline", "link.json", "-o", old]) == 2
    assert Path(old).read_bytes() == before
