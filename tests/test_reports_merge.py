"""Sharded runs: every report records its suite, and ``python -m pytest_rubric merge`` joins
shard reports into the whole run's report or refuses, in one line, to pretend it can."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pytest_rubric import __version__
from pytest_rubric.plugin.shards import shard_of
from pytest_rubric.reports.jsonreport import schema
from pytest_rubric.reports.merge import combined_exit_status

#: Marks a made input that is JSON text already, to be written as it is.
RAW = "raw:"
EXAMPLE = Path(__file__).parent.parent / "example_project"
SHARDS = ("s1.json", "s2.json", "s3.json")
EXTRA_CASE = (
    "evaluator: reason\ncases:\n  - id: late-addition\n"
    "    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}\n"
    "    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}\n"
)


@dataclass(frozen=True)
class Runs:
    """Reports of the example project (with one mismatch) run whole and in three shards."""

    folder: Path

    def report(self, name: str) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads((self.folder / name).read_text(encoding="utf-8"))
        return loaded


def run_pytest(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    folder = tmp_path_factory.mktemp("runs")
    project = folder / "example_project"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns(".pytest_cache", "__pycache__"))
    # One mismatch, so the reports hold every kind of record and every run fails.
    ledger = project / "rubrics/newsroom/judge-vs-editor.rubric.yaml"
    ledger.write_text(ledger.read_text().replace("agreement: 4\n", "agreement: 5\n"))
    whole = run_pytest(project, f"--rubric-report={folder / 'whole.json'}")
    assert whole.returncode == 1, whole.stdout
    for group, name in enumerate(SHARDS, start=1):
        xdist = ["-n", "2"] if group == 2 else []  # one shard gathered by an xdist controller
        shard = run_pytest(
            project,
            *xdist,
            "--splits",
            "3",
            "--group",
            str(group),
            f"--rubric-report={folder / name}",
        )
        assert shard.returncode in (0, 1), shard.stdout
        assert xdist or f"Running group {group}/3" in shard.stdout  # workers' lines are not shown
    narrowed = run_pytest(project, "-k", "seeds", f"--rubric-report={folder / 'narrowed.json'}")
    assert narrowed.returncode == 0, narrowed.stdout
    (project / "rubrics/late.rubric.yaml").write_text(EXTRA_CASE)
    grown = run_pytest(
        project, "--splits", "3", "--group", "3", f"--rubric-report={folder / 'grown.json'}"
    )
    assert grown.returncode in (0, 1), grown.stdout
    return Runs(folder)


def rubric(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_rubric", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def validate(report: dict[str, Any]) -> None:
    jsonschema.validate(report, schema(), cls=jsonschema.Draft202012Validator)


def without_timings(report: dict[str, Any]) -> dict[str, Any]:
    report = json.loads(json.dumps(report))
    for case in report["cases"]:
        del case["duration"]
    return report


def test_three_pytest_split_shards_merge_into_the_report_of_one_whole_run(
    runs: Runs, tmp_path: Path
) -> None:
    result = rubric("merge", "-o", tmp_path / "merged.json", *SHARDS, cwd=runs.folder)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        f"python -m pytest_rubric merge: 3 reports, 45 cases (42 matched, 1 mismatched, "
        f"1 skipped, 1 xfailed) -> {tmp_path / 'merged.json'}\n"
    )
    merged = json.loads((tmp_path / "merged.json").read_text(encoding="utf-8"))
    validate(merged)
    whole = runs.report("whole.json")
    assert merged["summary"]["mismatched"] == 1
    assert merged["exitStatus"] == whole["exitStatus"] == 1
    assert merged["shard"] is whole["shard"] is None
    assert without_timings(merged) == without_timings(whole)


def test_each_shard_report_records_the_whole_suite_and_which_group_it_ran(runs: Runs) -> None:
    whole = runs.report("whole.json")
    assert whole["suite"]["collected"] == whole["suite"]["selected"] == len(whole["cases"]) == 45
    assert whole["suite"]["nodeids"] == sorted(case["nodeid"] for case in whole["cases"])
    reported: list[str] = []
    for group, name in enumerate(SHARDS, start=1):
        shard = runs.report(name)
        validate(shard)
        assert shard["version"] == 4
        assert shard["suite"] == {**whole["suite"], "selected": len(shard["cases"])}
        assert shard["shard"] == {"plugin": "pytest-split", "group": group, "splits": 3}
        reported += [case["nodeid"] for case in shard["cases"]]
    assert sorted(reported) == whole["suite"]["nodeids"]


def test_a_run_records_the_suite_it_collected_before_deselecting(
    runs: Runs, tmp_path: Path
) -> None:
    narrowed = runs.report("narrowed.json")
    validate(narrowed)
    assert narrowed["suite"]["digest"] == runs.report("whole.json")["suite"]["digest"]
    assert narrowed["suite"]["collected"] == 45
    assert narrowed["suite"]["selected"] == len(narrowed["cases"]) < 45
    result = rubric("merge", "-o", tmp_path / "merged.json", "narrowed.json", cwd=runs.folder)
    assert result.returncode == 2
    assert "the suite is incomplete" in result.stderr
    assert not (tmp_path / "merged.json").exists()


def edit(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    def change(report: dict[str, Any]) -> Any:
        report[key] = value
        return report

    return change


def tamper_suite(report: dict[str, Any]) -> dict[str, Any]:
    report["suite"]["nodeids"] = report["suite"]["nodeids"][1:]
    report["suite"]["collected"] -= 1
    return report


# (inputs to merge, files to write first as name -> edit of s2.json or raw bytes, stderr line)
REFUSALS: dict[str, tuple[list[str], dict[str, Any], str]] = {
    "a-missing-shard": (
        ["s1.json", "s2.json"],
        {},
        "merge refused: the suite is incomplete: 15 of its 45 cases are in none of s1.json, "
        "s2.json (no report from group 3 of 3): rubrics/*::*, rubrics/*::*, rubrics/*::*, "
        "and 12 more",
    ),
    "a-case-reported-twice": (
        ["s1.json", "s2.json", "s3.json", "whole.json"],
        {},
        "merge refused: 45 cases are reported by two inputs: rubrics/*::* (in s?.json and whole.json), "
        "*, and 42 more; give each shard's report once, and shard with disjoint groups",
    ),
    "another-format-version": (
        ["s1.json", "old.json", "s3.json"],
        {"old.json": edit("version", 2)},
        "merge refused: old.json is a version 2 report; this pytest-rubric (*) merges "
        "version 4: rerun that shard with pytest-rubric *",
    ),
    "another-plugin-version": (
        ["s1.json", "other.json", "s3.json"],
        {"other.json": edit("pytestRubric", "0.0.1")},
        "merge refused: other.json was written by pytest-rubric 0.0.1, and this is *: run "
        "every shard and the merge with one pytest-rubric version",
    ),
    "shards-of-different-suites": (
        ["s1.json", "s2.json", "grown.json"],
        {},
        "merge refused: s1.json and grown.json collected different suites (45 and 46 cases; "
        "only grown.json has rubrics/late.rubric.yaml::late-addition): run every shard of one "
        "suite with the same arguments apart from the shard options",
    ),
    "a-file-that-is-not-json": (
        ["s1.json", "notes.json"],
        {"notes.json": b"shard 2 failed, see the log\n"},
        "merge refused: notes.json is not a pytest-rubric report: not JSON (line 1, column 1: "
        "expecting value)",
    ),
    "a-json-file-of-another-format": (
        ["s1.json", "junit.json"],
        {"junit.json": b'{"format": "junit", "tests": []}'},
        'merge refused: junit.json is not a pytest-rubric report (it has no "format": '
        '"pytest-rubric-report"); give the files that pytest --rubric-report=PATH wrote',
    ),
    "a-suite-that-does-not-match-its-digest": (
        ["s1.json", "tampered.json", "s3.json"],
        {"tampered.json": tamper_suite},
        'merge refused: tampered.json is not a complete pytest-rubric report: "suite.digest" '
        'does not match "suite.nodeids"',
    ),
    "a-duration-that-is-not-json": (
        ["s1.json", "nan.json", "s3.json"],
        {"nan.json": lambda report: _with_nan_duration(report)},
        "merge refused: nan.json is not a pytest-rubric report: it holds NaN, which JSON does "
        "not have",
    ),
    "a-record-without-its-keys": (
        ["s1.json", "bare.json", "s3.json"],
        {"bare.json": lambda report: _without_case_keys(report)},
        "merge refused: bare.json is not a complete pytest-rubric report: cases[0] is not a "
        "case record",
    ),
    "a-forged-number-of-shards": (
        ["s1.json", "forged.json", "s3.json"],
        {"forged.json": lambda report: {**report, "shard": {**report["shard"], "splits": 10**12}}},
        'merge refused: forged.json is not a complete pytest-rubric report: "shard.splits" is '
        "1000000000000, more shards than any run has (at most 10,000)",
    ),
    "more-selected-than-collected": (
        ["s1.json", "forged.json", "s3.json"],
        {
            "forged.json": lambda report: {
                **report,
                "suite": {**report["suite"], "selected": 10**12},
            }
        },
        'merge refused: forged.json is not a complete pytest-rubric report: "suite.collected" or '
        '"suite.selected" is not a count of its node IDs',
    ),
    "a-line-before-the-first": (
        ["s1.json", "forged.json", "s3.json"],
        {"forged.json": lambda report: _with_case(report, line=-5)},
        "merge refused: forged.json is not a complete pytest-rubric report: cases[0].line or "
        "index is not a place in a case file (line from 1, index from 0)",
    ),
    "an-exit-status-pytest-never-gives": (
        ["s1.json", "forged.json", "s3.json"],
        {"forged.json": edit("exitStatus", -7)},
        'merge refused: forged.json is not a complete pytest-rubric report: "exitStatus" is not '
        "one of pytest's exit statuses (0 to 5)",
    ),
    "a-passing-exit-status-with-a-mismatch": (
        ["s1.json", "forged.json", "s3.json"],
        {
            "forged.json": lambda report: _with_case(
                {**report, "exitStatus": 0}, outcome="mismatched"
            )
        },
        "merge refused: forged.json is not a complete pytest-rubric report: cases[0] is "
        'mismatched, but "exitStatus" is 0 (a run that passed)',
    ),
    "a-key-given-twice": (
        ["s1.json", "twice.json", "s3.json"],
        {"twice.json": lambda report: RAW + json.dumps(report)[:-1] + ', "exitStatus": 0}'},
        'merge refused: twice.json is not a pytest-rubric report: it gives the key "exitStatus" '
        "twice in one object",
    ),
    "a-missing-input-file": (
        ["s1.json", "s4.json"],
        {},
        "cannot read s4.json: no such file or directory",
    ),
    "a-folder-for-an-input": (
        ["s1.json", "example_project"],
        {},
        "cannot read example_project: it is a directory; give a report file",
    ),
    "one-input-given-twice": (
        ["s1.json", "s2.json", "s1.json", "s3.json"],
        {},
        "s1.json is given twice (also as s1.json); give each report once",
    ),
}


def _with_nan_duration(report: dict[str, Any]) -> str:
    report["cases"][0]["duration"] = float("nan")
    return RAW + json.dumps(report)


def _with_case(report: dict[str, Any], **keys: Any) -> dict[str, Any]:
    report["cases"][0].update(keys)
    return report


def _without_case_keys(report: dict[str, Any]) -> dict[str, Any]:
    del report["cases"][0]["case"]
    return report


@pytest.mark.parametrize("kind", list(REFUSALS))
def test_the_merge_refuses_in_one_line_and_leaves_its_inputs_alone(
    runs: Runs, tmp_path: Path, kind: str
) -> None:
    inputs, written, message = REFUSALS[kind]
    for name in (*SHARDS, "whole.json", "grown.json"):
        shutil.copy(runs.folder / name, tmp_path / name)
    (tmp_path / "example_project").mkdir()
    for name, content in written.items():
        if callable(content):
            made = content(runs.report("s2.json"))
            if isinstance(made, str) and made.startswith(RAW):
                content = made[len(RAW) :].encode()  # already JSON text (with NaN in it)
            else:
                content = json.dumps(made).encode()
        (tmp_path / name).write_bytes(content)
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    result = rubric("merge", "-o", "merged.json", *inputs, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    pytest.LineMatcher(result.stderr.splitlines()).fnmatch_lines(
        [f"python -m pytest_rubric: error: {message}"]
    )
    assert len(result.stderr.splitlines()) == 1
    after = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    assert after == before  # nothing changed, nothing removed, no merged.json written


def test_the_output_cannot_be_one_of_the_inputs(runs: Runs, tmp_path: Path) -> None:
    for name in SHARDS:
        shutil.copy(runs.folder / name, tmp_path / name)
    before = (tmp_path / "s1.json").read_bytes()
    result = rubric("merge", "-o", "s1.json", *SHARDS, cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "python -m pytest_rubric: error: -o s1.json is the input s1.json; "
        "write the merged report elsewhere\n"
    )
    assert (tmp_path / "s1.json").read_bytes() == before


def test_help_lists_the_merge_command(tmp_path: Path) -> None:
    result = rubric("--help", cwd=tmp_path)
    assert result.returncode == 0
    pytest.LineMatcher(result.stdout.splitlines()).fnmatch_lines(
        ["usage: python -m pytest_rubric *COMMAND*", "commands:", "*merge*join the reports*"]
    )
    merge_help = rubric("merge", "--help", cwd=tmp_path)
    assert merge_help.returncode == 0
    assert "--output OUT" in merge_help.stdout  # argparse words it "-o, --output OUT" on 3.13
    assert "REPORT" in merge_help.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "the following arguments are required: COMMAND"),
        (("split",), "argument COMMAND: invalid choice: 'split' *"),
        (("merge", "s1.json"), "the following arguments are required: -o/--output"),
        (("merge", "-o", "out.json"), "the following arguments are required: REPORT"),
    ],
    ids=["no-command", "unknown-command", "no-output", "no-reports"],
)
def test_a_usage_error_is_one_line_and_exit_status_2(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    result = rubric(*args, cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    pytest.LineMatcher(result.stderr.splitlines()).fnmatch_lines(
        [f"python -m pytest_rubric: error: {message} (see python -m pytest_rubric* --help)"]
    )
    assert len(result.stderr.splitlines()) == 1


def test_the_console_script_runs_the_same_command_line(tmp_path: Path) -> None:
    script = shutil.which("pytest-rubric", path=str(Path(sys.executable).parent))
    assert script is not None, "pytest-rubric is not installed beside this Python"
    result = subprocess.run(
        [script, "--version"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout) == (0, f"pytest-rubric {__version__}\n")


@pytest.mark.parametrize(
    ("options", "shard"),
    [
        ({"splits": 3, "group": 2}, {"plugin": "pytest-split", "group": 2, "splits": 3}),
        ({"splits": None, "group": None}, None),
        ({"num_shards": 4, "shard_id": 0}, {"plugin": "pytest-shard", "group": 1, "splits": 4}),
        ({"num_shards": 1, "shard_id": 0}, None),  # pytest-shard's defaults: no sharding
        ({}, None),  # neither plugin installed
    ],
    ids=["pytest-split", "pytest-split-unused", "pytest-shard", "pytest-shard-unused", "none"],
)
def test_the_shard_is_read_from_pytest_split_or_pytest_shard_options(
    options: dict[str, Any], shard: dict[str, Any] | None
) -> None:
    assert shard_of(lambda name, default: options.get(name, default)) == shard


@pytest.mark.parametrize(
    ("statuses", "combined"),
    [([0, 0, 0], 0), ([0, 1, 0], 1), ([0, 5, 0], 0), ([5, 5], 5), ([1, 2, 5], 2)],
)
def test_the_merged_exit_status_is_the_worst_of_the_shards_that_ran_cases(
    statuses: list[int], combined: int
) -> None:
    assert combined_exit_status(statuses) == combined


def test_shards_run_with_different_selections_are_told_to_use_the_same_arguments(
    tmp_path: Path,
) -> None:
    project = tmp_path / "example_project"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns(".pytest_cache", "__pycache__"))
    for group, keyword in ((1, "seeds"), (2, "not seeds")):
        shard = run_pytest(
            project,
            "-k",
            keyword,
            "--splits",
            "2",
            "--group",
            str(group),
            f"--rubric-report={tmp_path / f'k{group}.json'}",
        )
        assert shard.returncode in (0, 1), shard.stdout
    done = rubric(
        "merge", tmp_path / "k1.json", tmp_path / "k2.json", "-o", tmp_path / "m.json", cwd=tmp_path
    )
    assert done.returncode == 2
    message = done.stderr.strip()
    assert "\n" not in message
    assert message.startswith(
        "python -m pytest_rubric: error: merge refused: the shards selected different cases "
        "from the suite of 45 they each collected ("
    )
    assert "k1.json selected " in message
    assert "k2.json selected " in message
    assert message.endswith(
        "groups 1 to 2 of 2, as they should be): run every shard with the same arguments apart "
        "from its shard options (the same -k, -m, --deselect and paths)"
    )


def test_the_merge_line_counts_in_plain_words(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "c.rubric.yaml").write_text(
        "evaluator: reason\ncases:\n"
        "  - id: broken\n    input: {}\n    expected: {status: ok}\n"
        "  - id: also-broken\n    input: {}\n    expected: {status: ok}\n"
    )
    (project / "d.rubric.yaml").write_text(
        "evaluator: reason\ncases:\n  - id: no-expected\n    input: {}\n"
    )
    ran = run_pytest(project, f"--rubric-report={tmp_path / 'r.json'}")
    assert ran.returncode == 1, ran.stdout
    done = rubric("merge", tmp_path / "r.json", "-o", tmp_path / "m.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "(2 mismatched, 1 case error)" in done.stdout
    assert "caseErrors" not in done.stdout
