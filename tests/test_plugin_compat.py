"""Beside the plugins users already run: reporting, annotations, reruns and random order.

Each test needs its plugin from the ``compat`` extra and skips without it; ``.ci/run`` runs this
module in an environment with ``.[test,compat]``. Runs are subprocesses, so a plugin's global state
(allure's plugin manager, pytest-randomly's reseeding) stays out of the outer run, and every other
installed plugin is switched off where it could change what is checked.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = Path(__file__).parent.parent / "example_project"

REVIEW = """\
evaluator: reason
cases:
  - id: fine
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
  - id: passed-without-source
    input: {fields: {title: true, source: false}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
  - id: typo
    input: {fields: {title: true, source: true}, pass: true, reasons: []}
    expectd: {}
"""
# 1-based line of the mismatching case, as pytest's own crash locations count.
MISMATCH_LINE = 6
# The crash message: the place is in the location's own path and lineno.
HEADLINE = (
    "'passed-without-source' (reason) differs from expected in "
    "expectedPass, expectedReasons, coherent"
)

QUIET = ("-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:rerunfailures")


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(*QUIET, *args)


def rubric_summary(result: pytest.RunResult) -> list[str]:
    """The lines of the rubric summary section, without its title and pytest's final line."""
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "= rubric summary =" in line) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("="))
    return lines[start:end]


# 1. pytest-json-report


def test_json_report_records_a_mismatch_with_its_crash_location_and_headline(
    pytester: pytest.Pytester,
) -> None:
    pytest.importorskip("pytest_jsonreport")
    pytester.makefile(".rubric.yaml", review=REVIEW)
    result = run(pytester, "--json-report", "--json-report-file=report.json")
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    report = json.loads((pytester.path / "report.json").read_text())
    tests = {test["nodeid"]: test for test in report["tests"]}
    assert tests["review.rubric.yaml::fine"]["outcome"] == "passed"
    mismatch = tests["review.rubric.yaml::passed-without-source"]
    assert mismatch["outcome"] == "failed"
    crash = mismatch["call"]["crash"]
    assert Path(crash["path"]).name == "review.rubric.yaml"
    assert crash["lineno"] == MISMATCH_LINE
    assert HEADLINE in crash["message"]
    assert tests["review.rubric.yaml::typo"]["outcome"] == "failed"


# 2. allure-pytest


def allure_statuses(results: Path) -> dict[str, str]:
    statuses: dict[str, str] = {}
    for path in results.glob("*-result.json"):
        record: dict[str, Any] = json.loads(path.read_text())
        statuses[record["name"]] = record["status"]
    return statuses


def test_allure_records_a_mismatch_as_failed_not_broken(pytester: pytest.Pytester) -> None:
    pytest.importorskip("allure_pytest")
    pytester.makefile(".rubric.yaml", review=REVIEW)
    result = run(pytester, "--alluredir=allure-results")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    statuses = allure_statuses(pytester.path / "allure-results")
    assert statuses["fine"] == "passed"
    assert statuses["passed-without-source"] == "failed"
    # A case that cannot be evaluated is not an assertion failure; either reading is honest.
    assert statuses["typo"] in {"failed", "broken"}


# 3. pytest-github-actions-annotate-failures


def test_a_github_annotation_for_a_mismatch_carries_the_headline(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pytest_github_actions_annotate_failures")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.delenv("PYTEST_RUN_PATH", raising=False)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    pytester.makefile(".rubric.yaml", review=REVIEW)
    result = run(pytester)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    prefix = f"::error file=review.rubric.yaml,line={MISMATCH_LINE}::"
    # The plugin writes its workflow commands to stderr.
    annotations = [line for line in result.stderr.lines if line.startswith(prefix)]
    assert len(annotations) == 1, result.stderr.str()
    # The workflow command escapes line breaks as %0A; the headline itself has none.
    assert HEADLINE in annotations[0]


# 4. pytest-rerunfailures

NINE_CASES = (
    """\
evaluator: reason
cases:
"""
    + "".join(
        f"""\
  - id: matched-{n}
    input: {{fields: {{title: true, source: true}}, pass: true, reasons: [all-required-met]}}
    expected: {{expectedPass: true, expectedReasons: [all-required-met], coherent: true}}
"""
        for n in range(4)
    )
    + "".join(
        f"""\
  - id: mismatched-{n}
    input: {{fields: {{title: true, source: false}}, pass: true, reasons: [all-required-met]}}
    expected: {{expectedPass: true, expectedReasons: [all-required-met], coherent: true}}
"""
        for n in range(3)
    )
    + """\
  - id: typo
    input: {fields: {title: true, source: true}, pass: true, reasons: []}
    expectd: {}
"""
)

FLAKY_CONFTEST = """\
from collections import Counter

from pytest_rubric import Evaluator, hookimpl

ATTEMPTS = Counter()


def pytest_runtest_setup(item):
    ATTEMPTS[item.name] += 1


def attempt(record):
    return {"attempt": ATTEMPTS[record["case"]]}


@hookimpl
def rubric_evaluators():
    return [Evaluator(name="flaky", description="Matches on its second attempt.", evaluate=attempt)]
"""

FLAKY_CASE = """\
evaluator: flaky
cases:
  - id: second-time-lucky
    input: {case: second-time-lucky}
    expected: {attempt: 2}
"""


def test_reruns_count_each_case_once_by_its_final_attempt(pytester: pytest.Pytester) -> None:
    pytest.importorskip("pytest_rerunfailures")
    pytester.makeconftest(FLAKY_CONFTEST)
    pytester.makefile(".rubric.yaml", review=NINE_CASES, flaky=FLAKY_CASE)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:randomly", "--reruns", "2",
        "--rubric-report=report.json",
    )  # fmt: skip
    # 3 mismatched and 1 case error, each run 3 times, and 1 case that matches on its rerun.
    counts = result.parseoutcomes()
    assert (counts["passed"], counts["failed"], counts["rerun"]) == (5, 4, 9)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert rubric_summary(result)[:2] == [
        "flaky: 1 case, 1 matched, 0 mismatched, 0 case errors",
        "reason: 8 cases, 4 matched, 3 mismatched, 1 case error",
    ]
    report = json.loads((pytester.path / "report.json").read_text())
    records = report["cases"]
    assert len(records) == 9
    assert len({record["nodeid"] for record in records}) == 9
    outcomes = {record["case"]: record["outcome"] for record in records}
    assert outcomes["second-time-lucky"] == "matched"
    assert outcomes["typo"] == "case-error"
    assert report["summary"]["cases"] == 9
    assert report["summary"]["matched"] == 5


# 5. pytest-randomly

MORE_LEDGERS = "evaluator: agreement\ncases:\n" + "".join(
    f"""\
  - id: extra-{n}
    input: {{rows: [{{id: x{n}, a: true, b: false}}]}}
    expected: {{matrix: {{bothPass: 0, bothFail: 0, aOnly: 1, bOnly: 0}}, agreement: 0, total: 1, disagreements: [x{n}]}}
"""
    for n in range(6)
)


def test_the_rubric_summary_does_not_depend_on_the_random_order(
    pytester: pytest.Pytester,
) -> None:
    pytest.importorskip("pytest_randomly")
    shutil.copytree(EXAMPLE, pytester.path, dirs_exist_ok=True)
    # More ledgers than the summary shows, so which ten are listed depends on the order too.
    (pytester.path / "rubrics" / "more.rubric.yaml").write_text(MORE_LEDGERS)

    serial = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly")
    assert serial.ret == pytest.ExitCode.OK
    expected = rubric_summary(serial)
    assert any(line.startswith("agreement ledgers (") for line in expected)

    orders = []
    for seed in ("1", "2", "3"):
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-v", f"--randomly-seed={seed}"
        )
        assert result.ret == pytest.ExitCode.OK
        result.stdout.fnmatch_lines([f"Using --randomly-seed={seed}"])
        orders.append([line.split()[0] for line in result.stdout.lines if " PASSED" in line])
        assert rubric_summary(result) == expected, f"seed {seed}"
    # Otherwise this test would prove nothing.
    assert len({tuple(order) for order in orders}) > 1
