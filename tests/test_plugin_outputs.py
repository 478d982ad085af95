"""An output the run writes at its end (report, page, Markdown) never replaces a file its
cases read: the case that reads it fails saying so, the output is not written, the run fails,
serially and on pytest-xdist workers alike; the other cases run."""

from __future__ import annotations

import json

import pytest

LEDGER = "".join(
    json.dumps({"id": str(n), "verdict": "PASS" if n % 2 else "FAIL", "label": n % 3 == 0}) + "\n"
    for n in range(6)
)
OTHER = """\
  - id: inline
    input: {"rows": [{"id": "x", "a": true, "b": true}]}
    expected: {"matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 0}, "agreement": 1, "total": 1, "disagreements": []}
"""
ONE_FILE = """\
evaluator: agreement
cases:
  - id: reads
    input_file: data/ledger.jsonl
    ledger: {id: id, a: verdict, b: label, labels: {PASS: true, FAIL: false}}
    expected: {}
"""
JOIN = """\
evaluator: agreement
cases:
  - id: reads
    ledger:
      labels: {PASS: true, FAIL: false}
      a: {input_file: data/a.jsonl, id: id, label: verdict}
      b: {input_file: data/ledger.jsonl, id: id, label: verdict}
    expected: {}
"""
DATASET = """\
evaluator: reason
cases:
  - id: reads
    dataset:
      file: data/ledger.jsonl
      id: id
      input: {fields: {title: label, source: label}, pass: verdict, reasons: verdict}
      labels: {PASS: true, FAIL: false}
    expected_subset: {coherent: true}
"""
WORKERS = [pytest.param(("-p", "no:xdist"), id="serial"), pytest.param(("-n", "2"), id="xdist")]


def project(pytester: pytest.Pytester, body: str) -> bytes:
    (pytester.path / "data").mkdir()
    (pytester.path / "data" / "ledger.jsonl").write_text(LEDGER)
    (pytester.path / "data" / "a.jsonl").write_text(LEDGER)
    pytester.makefile(".rubric.yaml", reads=body)
    other = "evaluator: agreement\ncases:\n" + OTHER
    pytester.makefile(".rubric.yaml", other=other)
    return (pytester.path / "data" / "ledger.jsonl").read_bytes()


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize("option", ["--rubric-report", "--rubric-html", "--rubric-markdown"])
def test_an_output_named_as_an_input_file_fails_the_case_and_keeps_the_file(
    pytester: pytest.Pytester, option: str, workers: tuple[str, str]
) -> None:
    kept = project(pytester, ONE_FILE)
    result = pytester.runpytest(*workers, "-p", "no:cacheprovider", f"{option}=data/ledger.jsonl")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert (pytester.path / "data" / "ledger.jsonl").read_bytes() == kept
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            f"*reads.rubric.yaml:3:5: data/ledger.jsonl is read by this run's cases and is the "
            f"file {option} writes at the run's end, which would replace it; write {option} to "
            "another file"
        ]
    )


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize("body", [JOIN, DATASET], ids=["join-side-b", "dataset"])
def test_a_join_side_or_a_dataset_named_as_the_report_is_kept(
    pytester: pytest.Pytester, body: str, workers: tuple[str, str]
) -> None:
    kept = project(pytester, body)
    result = pytester.runpytest(
        *workers, "-p", "no:cacheprovider", "--rubric-report=data/ledger.jsonl"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert (pytester.path / "data" / "ledger.jsonl").read_bytes() == kept
    result.assert_outcomes(passed=1, failed=1)  # the dataset is not made into rows
    result.stdout.fnmatch_lines(["*data/ledger.jsonl is read by this run's cases*"])


def test_the_other_outputs_are_written(pytester: pytest.Pytester) -> None:
    kept = project(pytester, ONE_FILE)
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--rubric-report=data/ledger.jsonl", "--rubric-html=page.html"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert (pytester.path / "data" / "ledger.jsonl").read_bytes() == kept
    assert "<html" in (pytester.path / "page.html").read_text(encoding="utf-8")


def test_a_hard_link_or_a_symlink_to_the_input_is_the_input(pytester: pytest.Pytester) -> None:
    kept = project(pytester, ONE_FILE)
    (pytester.path / "hard.jsonl").hardlink_to(pytester.path / "data" / "ledger.jsonl")
    (pytester.path / "soft.jsonl").symlink_to(pytester.path / "data" / "ledger.jsonl")
    for name in ("hard.jsonl", "soft.jsonl", "./data/../data/ledger.jsonl"):
        result = pytester.runpytest("-p", "no:cacheprovider", f"--rubric-report={name}")
        assert result.ret == pytest.ExitCode.TESTS_FAILED, name
        assert (pytester.path / "data" / "ledger.jsonl").read_bytes() == kept, name
