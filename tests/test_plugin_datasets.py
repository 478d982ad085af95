"""A dataset's rows as pytest items: named, selected, rerun, spread over workers and reported
as any case; never written by --rubric-update."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pytest_rubric.reports.jsonreport import schema

JUDGE = """\
evaluator: reason
cases:
  - id: judge-2024-12
    dataset:
      file: logs/decisions.jsonl
      id: decision_id
      input:
        fields: {title: checks.has_title, source: checks.has_source}
        pass: verdict
        reasons: reason_codes
      labels: {PASS: true, FAIL: false}
    expected_subset: {coherent: true}
"""


def decision(case_id: object, title: bool, source: bool, verdict: str, codes: list[str]) -> str:
    """A line as a grading pipeline writes its decision log."""
    return json.dumps(
        {
            "decision_id": case_id,
            "judge": "gpt-4o",
            "checks": {"has_title": title, "has_source": source},
            "verdict": verdict,
            "reason_codes": codes,
            "rationale": "The headline names its source.",
        }
    )


LOG = [
    decision("dec-1", True, True, "PASS", ["all-required-met"]),
    decision("dec-2", True, False, "PASS", ["all-required-met"]),  # incoherent
    decision("dec-3", False, True, "FAIL", ["missing-title"]),
    decision("dec-4", True, True, "UNSURE", []),  # invalid: reason says so
    decision("dec-1", True, True, "PASS", ["all-required-met"]),  # a repeated ID
]


#: A case beside the dataset case, which runs whatever becomes of the dataset.
OTHER = """\
  - id: ok
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected_subset: {coherent: true}
"""


def project(pytester: pytest.Pytester, lines: list[str] = LOG) -> None:
    pytester.makefile(".rubric.yaml", judge=JUDGE)
    (pytester.path / "logs").mkdir(exist_ok=True)
    (pytester.path / "logs" / "decisions.jsonl").write_text("\n".join(lines) + "\n")


def outcomes(report: Path) -> dict[str, str]:
    data = json.loads(report.read_text())
    jsonschema.validate(data, schema())
    return {case["nodeid"]: case["outcome"] for case in data["cases"]}


def test_each_row_is_an_item_named_by_its_id(pytester: pytest.Pytester) -> None:
    project(pytester)
    result = pytester.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(
        [
            "judge.rubric.yaml::judge-2024-12[[]dec-1[]]",
            "judge.rubric.yaml::judge-2024-12[[]dec-2[]]",
            "judge.rubric.yaml::judge-2024-12[[]dec-3[]]",
            "judge.rubric.yaml::judge-2024-12[[]dec-4[]]",
            "judge.rubric.yaml::judge-2024-12[[]line 5[]]",
        ],
        consecutive=True,
    )


def test_a_failing_row_names_its_place_and_the_summary_counts_the_rows(
    pytester: pytest.Pytester,
) -> None:
    project(pytester)
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=2, failed=3)
    result.stdout.fnmatch_lines(
        [
            "judge.rubric.yaml:3 (logs/decisions.jsonl:2): 'judge-2024-12[[]dec-2[]]' (reason) "
            "differs from expected in coherent",
            "  coherent  expected true",
            "            actual   false",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*logs/decisions.jsonl:5: the ID 'dec-1' repeats the row at logs/decisions.jsonl:1*",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "reason: 5 cases, 2 matched, 2 mismatched, 1 case error",
            "  dataset judge-2024-12 (judge.rubric.yaml): 5 rows, 2 matched, 2 mismatched, "
            "1 case error",
        ]
    )


def test_rows_are_selected_and_rerun_as_any_case(pytester: pytest.Pytester) -> None:
    project(pytester)
    by_k = pytester.runpytest("-k", "dec-3 or dec-4", "-p", "no:randomly")
    by_k.assert_outcomes(passed=1, failed=1)
    by_id = pytester.runpytest("judge.rubric.yaml::judge-2024-12[dec-2]")
    by_id.assert_outcomes(failed=1)
    deselected = pytester.runpytest(
        "--deselect", "judge.rubric.yaml::judge-2024-12[dec-2]", "-p", "no:randomly"
    )
    deselected.assert_outcomes(passed=2, failed=2, deselected=1)
    pytester.runpytest()  # every row, so that --lf knows which failed
    last_failed = pytester.runpytest("--lf", "-v", "-p", "no:randomly")
    last_failed.assert_outcomes(failed=3)  # the rows that passed are not even collected
    last_failed.stdout.fnmatch_lines(["*::judge-2024-12[[]dec-2[]] FAILED*"])


def test_rows_have_the_same_outcomes_under_xdist(pytester: pytest.Pytester) -> None:
    lines = [
        decision(f"d{n:03d}", n % 3 != 0, n % 5 != 0, "PASS", ["all-required-met"])
        for n in range(60)
    ]
    project(pytester, lines)
    serial = pytester.runpytest("-p", "no:xdist", "--rubric-report=serial.json")
    spread = pytester.runpytest("-n", "2", "--rubric-report=spread.json")
    assert serial.ret == spread.ret == pytest.ExitCode.TESTS_FAILED
    found = outcomes(pytester.path / "serial.json")
    assert found == outcomes(pytester.path / "spread.json")
    assert sorted(set(found.values())) == ["matched", "mismatched"]


def test_the_report_says_whose_row_each_case_is(pytester: pytest.Pytester) -> None:
    project(pytester)
    pytester.runpytest("--rubric-report=report.json")
    data: dict[str, Any] = json.loads((pytester.path / "report.json").read_text())
    jsonschema.validate(data, schema())
    first = data["cases"][0]
    assert first["dataset"] == {"case": "judge-2024-12", "row": "logs/decisions.jsonl:1"}
    assert first["expectedSubset"] is True
    assert first["input"] == {
        "fields": {"title": True, "source": True},
        "pass": True,
        "reasons": ["all-required-met"],
    }
    assert first["expected"] == {"coherent": True}


def test_an_edited_log_is_read_as_it_is_now(pytester: pytest.Pytester) -> None:
    project(pytester)
    pytester.runpytest().assert_outcomes(passed=2, failed=3)  # the case file is cached now
    project(pytester, LOG[:1])
    pytester.runpytest().assert_outcomes(passed=1)


def test_update_never_writes_into_a_dataset_and_says_so(
    pytester: pytest.Pytester, not_in_ci: None
) -> None:
    project(pytester)
    before = (pytester.path / "judge.rubric.yaml").read_text()
    log = (pytester.path / "logs" / "decisions.jsonl").read_text()
    result = pytester.runpytest("--rubric-update=all", "-p", "no:randomly")
    result.assert_outcomes(passed=2, failed=3)
    result.stdout.fnmatch_lines(
        [
            "judge.rubric.yaml: dataset judge-2024-12: 2 rows not written: --rubric-update never "
            "writes a dataset's rows; fix what the rows say, or what the case expects of them"
        ]
    )
    assert (pytester.path / "judge.rubric.yaml").read_text() == before
    assert (pytester.path / "logs" / "decisions.jsonl").read_text() == log


#: Dataset files that cannot be read at all, each with what its failure says.
UNREADABLE = {
    "decisions.jsonl": (b"{broken\n" + "\n".join(LOG[:2]).encode(), "*:1:2: invalid JSON*"),
    "latin.jsonl": (b'{"decision_id": "d\xe9"}\n', "*latin.jsonl:1: not UTF-8*"),
    "cut.jsonl.gz": (gzip.compress("\n".join(LOG).encode())[:60], "*not a whole gzip file*"),
    "rows.json": (json.dumps({"rows": []}).encode(), "*name the list of rows with 'records:'*"),
    "damaged.parquet": (b"PAR1 no Parquet file", "*logs/damaged.parquet: *"),
}


@pytest.mark.parametrize("workers", [["-p", "no:xdist"], ["-n", "2"]], ids=["serial", "xdist"])
def test_a_log_that_cannot_be_read_fails_its_own_case_and_the_others_run(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    (pytester.path / "logs").mkdir()
    for name, (data, _) in UNREADABLE.items():
        (pytester.path / "logs" / name).write_bytes(data)
        stem = name.split(".")[0]
        pytester.makefile(
            ".rubric.yaml",
            **{stem: JUDGE.replace("decisions.jsonl", name) + OTHER},
        )
    result = pytester.runpytest(*workers, "-p", "no:randomly", "--rubric-report=report.json")
    result.assert_outcomes(passed=len(UNREADABLE), failed=len(UNREADABLE))
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    found = outcomes(pytester.path / "report.json")
    for name, (_, words) in UNREADABLE.items():
        stem = name.split(".")[0]
        assert found[f"{stem}.rubric.yaml::judge-2024-12"] == "case-error"
        assert found[f"{stem}.rubric.yaml::ok"] == "matched"
        # at its 'file:' (line 5, its value at column 13), naming the dataset's file
        result.stdout.fnmatch_lines(
            [f"*{stem}.rubric.yaml:5:13: dataset of case 'judge-2024-12': {words}"]
        )


def test_a_broken_line_fails_alone_after_the_rows_before_it(pytester: pytest.Pytester) -> None:
    project(pytester, [*LOG[:2], "{broken", LOG[2]])
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(["FAILED judge.rubric.yaml::judge-2024-12[[]line 3[]]*"])


def test_rubric_check_holds_a_subset_to_the_answers_schema(pytester: pytest.Pytester) -> None:
    project(pytester)
    (pytester.path / "judge.rubric.yaml").write_text(
        JUDGE.replace("{coherent: true}", "{coherant: true}")
    )
    result = pytester.runpytest("--rubric-check")
    result.stdout.fnmatch_lines(
        [
            "judge.rubric.yaml:12:23: case 'judge-2024-12': expected_subset.coherant is not a key of "
            "reason's answers; did you mean 'coherent'?"
        ]
    )
    assert result.ret == 1
