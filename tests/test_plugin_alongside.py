"""Beside what users already run: --durations, -qq, -k, subfolders, xdist's --tb=line."""

from __future__ import annotations

import json

import pytest

CASES = """\
evaluator: agreement
cases:
  - id: fine
    input: {rows: [{id: A, a: true, b: true}]}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, total: 1, disagreements: []}
  - id: wrong-total
    input: {rows: [{id: A, a: true, b: false}]}
    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 1, bOnly: 0}, agreement: 0, total: 3, disagreements: [A]}
"""

REASON = """\
evaluator: reason
cases:
  - id: all-met
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
"""


def test_durations_still_show_a_slow_setup_and_failures_keep_teardown_sections(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        """
import sys
import time


def pytest_runtest_setup(item):
    if item.name == "fine":
        time.sleep(0.3)


def pytest_runtest_teardown(item):
    if item.name == "wrong-total":
        sys.stdout.write("closing the grader session\\n")
"""
    )
    pytester.makefile(".rubric.yaml", ledger=CASES)
    result = pytester.runpytest("--durations=3", "--durations-min=0.2")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*slowest 3 durations*", "0.3*s setup    ledger.rubric.yaml::fine"]
    )
    result.stdout.fnmatch_lines(
        ["*- Captured stdout teardown -*", "closing the grader session"], consecutive=True
    )


def test_dash_qq_prints_the_rubric_summary_as_one_line(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledger=CASES, reasons=REASON)
    result = pytester.runpytest("-qq")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["rubric: 3 cases, 2 matched, 1 mismatched, 0 case errors"])
    result.stdout.no_fnmatch_line("*rubric summary*")
    result.stdout.no_fnmatch_line("*agreement ledgers*")


def test_dash_k_selects_cases_by_their_evaluators_name(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledger=CASES, reasons=REASON)
    result = pytester.runpytest("-k", "agreement", "--collect-only", "-q")
    result.stdout.fnmatch_lines(
        ["ledger.rubric.yaml::fine", "ledger.rubric.yaml::wrong-total", "", "*2/3 tests*"],
        consecutive=True,
    )
    pytester.runpytest("-k", "reason").assert_outcomes(passed=1, deselected=2)


def test_report_paths_are_relative_to_rootdir_when_run_from_a_subfolder(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini("[pytest]\n")
    sub = pytester.mkdir("suite")
    (sub / "ledger.rubric.yaml").write_text(CASES)
    (sub / "rows.jsonl").write_text('{"id": "A", "a": true, "b": true}\n')
    (sub / "files.rubric.yaml").write_text(
        "evaluator: agreement\ncases:\n  - id: from-file\n    input_file: rows.jsonl\n"
        "    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, "
        "total: 1, disagreements: []}\n"
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(sub)
        result = pytester.runpytest("--rubric-report=r.json")
    result.assert_outcomes(passed=2, failed=1)
    # The terminal keeps the path as typed from where pytest ran...
    result.stdout.fnmatch_lines(["ledger.rubric.yaml:6: 'wrong-total' (agreement) differs*"])
    # ...machine-readable output is relative to rootdir, with "/".
    records = json.loads((sub / "r.json").read_text())["cases"]
    assert [(r["nodeid"], r["file"]) for r in records] == [
        ("suite/files.rubric.yaml::from-file", "suite/files.rubric.yaml"),
        ("suite/ledger.rubric.yaml::fine", "suite/ledger.rubric.yaml"),
        ("suite/ledger.rubric.yaml::wrong-total", "suite/ledger.rubric.yaml"),
    ]
    assert records[0]["inputFile"] == "suite/rows.jsonl"


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_tb_line_prints_one_full_headline_per_failure(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    pytester.makefile(".rubric.yaml", ledger=CASES)
    result = pytester.runpytest(*workers, "--tb=line", "-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1)
    headline = "ledger.rubric.yaml:6: 'wrong-total' (agreement) differs from expected in total"
    assert result.stdout.lines.count(headline) == 1
    result.stdout.fnmatch_lines(["*= FAILURES =*", headline])


def test_the_summary_lists_ledgers_in_file_order_whatever_the_run_order(
    pytester: pytest.Pytester,
) -> None:
    body = "".join(
        f"  - id: ledger-{n}\n    input: {{rows: [{{id: r{n}, a: true, b: false}}]}}\n"
        "    expected: {error: none}\n"
        for n in range(6)
    )
    pytester.makefile(".rubric.yaml", many="evaluator: agreement\ncases:\n" + body)
    outputs = []
    for args in ([], ["-n", "2"]):
        result = pytester.runpytest(*args, "-p", "no:randomly")
        lines = result.stdout.lines
        start = lines.index("agreement ledgers (6):")
        outputs.append(lines[start : start + 13])
    assert outputs[0] == outputs[1]
    assert outputs[0][1::2] == [
        f"  many.rubric.yaml::ledger-{n} [[]mismatched]".replace("[[]", "[") for n in range(6)
    ]
