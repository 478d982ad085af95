"""``--rubric-update`` holds refusals back: broken data is never pinned as the truth."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

#: Our own CI sets CI=true: every run here starts outside CI unless a test says otherwise.
pytestmark = pytest.mark.usefixtures("not_in_ci")


LEDGER_CASES = """\
evaluator: agreement
cases:
  - id: week-3
    input_file: week-3.csv
  - id: week-4
    input_file: week-4.csv
"""
# Exported with Python's csv module: its booleans come out as True and False.
PYTHON_CSV = "id,a,b\nr1,True,True\nr2,True,False\n"
GOOD_CSV = "id,a,b\nr1,true,true\nr2,true,false\n"

REASON_CASES = """\
evaluator: reason
rubric: {required: [title, source, author]}
cases:
  - id: first
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
  - id: second
    input: {fields: {title: false, source: true}, pass: false, reasons: [missing-title]}
    expected: {expectedPass: false, expectedReasons: [missing-title], coherent: true}
"""


def ledger_project(pytester: pytest.Pytester) -> Path:
    path = pytester.makefile(".rubric.yaml", weeks=LEDGER_CASES)
    (pytester.path / "week-3.csv").write_text(PYTHON_CSV)
    (pytester.path / "week-4.csv").write_text(GOOD_CSV)
    return path


@pytest.mark.parametrize("dist", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_new_holds_a_refusal_back_and_says_what_was_held(
    pytester: pytest.Pytester, dist: tuple[str, ...]
) -> None:
    path = ledger_project(pytester)
    report, junit = pytester.path / "report.json", pytester.path / "junit.xml"
    result = pytester.runpytest(
        "--rubric-update=new",
        "-p",
        "no:randomly",
        f"--rubric-report={report}",
        f"--junitxml={junit}",
        *dist,
    )
    result.assert_outcomes(passed=1, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "  its answer is a refusal (review-label: *), held back from being written as "
            "its expected; fix its input, or write it with --rubric-update-refusals*",
            "1 expected answer written, 1 created, in 1 file",
            "weeks.rubric.yaml:3: week-3: review-label: week-3.csv:2 rows[[]0].a (id 'r1') is "
            '"True" (a string), not a boolean*',
            "1 held back: refusals (the evidence of its answer names a problem with the input, "
            "so nothing was judged); fix the input, or write it anyway with "
            "--rubric-update-refusals",
        ]
    )
    text = path.read_text()
    assert "review-label" not in text  # the broken export is not pinned as the truth
    assert text.count("expected:") == 1  # week-4's answer, a verdict, is written
    records = {r["case"]: r for r in json.loads(report.read_text())["cases"]}
    assert records["week-3"]["outcome"] == "case-error"
    assert "update" not in records["week-3"]
    assert records["week-4"]["outcome"] == "matched"
    failures = [
        case.get("name")
        for case in ElementTree.parse(junit).iter("testcase")
        if case.find("failure") is not None
    ]
    assert failures == ["week-3"]
    # A plain run still fails it, as before.
    plain = pytester.runpytest("-p", "no:randomly")
    plain.assert_outcomes(passed=1, failed=1)


def test_all_holds_refusals_back_that_would_replace_verdicts(pytester: pytest.Pytester) -> None:
    path = pytester.makefile(".rubric.yaml", rubric=REASON_CASES)
    before = path.read_text()
    result = pytester.runpytest("--rubric-update=all", "-p", "no:randomly")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        [
            "rubric.rubric.yaml:4: first: invalid-reason-input: *author*",
            "rubric.rubric.yaml:7: second: invalid-reason-input: *author*",
            "2 held back: refusals (the evidence of each answer names a problem with the input, "
            "so nothing was judged); fix the input, or write them anyway with "
            "--rubric-update-refusals",
        ]
    )
    result.stdout.no_fnmatch_line("*expected answers written*")
    result.stdout.no_fnmatch_line("*no expected answer needed writing*")
    assert path.read_text() == before


def test_the_option_writes_refusals_for_fixtures_whose_point_is_one(
    pytester: pytest.Pytester,
) -> None:
    path = ledger_project(pytester)
    result = pytester.runpytest("--rubric-update=new", "--rubric-update-refusals")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["2 expected answers written, 2 created, in 1 file"])
    result.stdout.no_fnmatch_line("*held back*")
    assert "error: review-label" in path.read_text()
    assert pytester.runpytest().ret == pytest.ExitCode.OK


def test_a_custom_evaluators_answer_with_a_problem_is_a_refusal(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        """
from pytest_rubric import Evaluator, Evidence, hookimpl


def evaluate(case_input):
    return {"verdict": "unknown"} if "score" not in case_input else {"verdict": "ok"}


def explain(case_input):
    if "score" not in case_input:
        return Evidence(problem="score is missing")
    return Evidence()


@hookimpl
def rubric_evaluators():
    return [Evaluator("scorer", "scores", evaluate=evaluate, explain=explain)]
"""
    )
    pytester.makefile(
        ".rubric.yaml",
        s="evaluator: scorer\ncases:\n  - id: none\n    input: {}\n  - id: some\n    input: {score: 1}\n",
    )
    result = pytester.runpytest("--rubric-update=new", "-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["s.rubric.yaml:3: none: score is missing", "1 held back: *"])


@pytest.mark.parametrize("dist", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_a_held_problem_is_shown_as_data_and_travels_to_the_controller(
    pytester: pytest.Pytester, dist: tuple[str, ...]
) -> None:
    pytester.makeconftest(
        """
from pytest_rubric import Evaluator, Evidence, hookimpl

PROBLEMS = {"surrogate": "bad \\\\ud800 here", "ansi": "one\\\\ntwo \\\\x1b[31mRED\\\\x1b[0m", "blank": "  "}


@hookimpl
def rubric_evaluators():
    return [Evaluator("weird", "d", evaluate=lambda i: {"ok": True},
                      explain=lambda i: Evidence(problem=PROBLEMS[i["kind"]]))]
"""
    )
    pytester.makefile(
        ".rubric.yaml",
        w="evaluator: weird\ncases:\n"
        + "".join(
            f"  - id: {kind}\n    input: {{kind: {kind}}}\n"
            for kind in ("surrogate", "ansi", "blank")
        ),
    )
    result = pytester.runpytest("--rubric-update=new", "-p", "no:randomly", *dist)
    result.assert_outcomes(passed=1, failed=2)  # a blank problem names none: written
    text = result.stdout.str()
    assert "\x1b" not in text
    assert "INTERNALERROR" not in text
    result.stdout.fnmatch_lines(
        [
            "w.rubric.yaml:3: surrogate: bad \\ud800 here",
            "w.rubric.yaml:5: ansi: one\\ntwo \\x1b[[]31mRED\\x1b[[]0m",
            "2 held back: *",
        ]
    )
