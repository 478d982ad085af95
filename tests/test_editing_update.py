"""``--rubric-update=new|all``: evaluators' answers written into case files, leaf by leaf."""

from __future__ import annotations

import json
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.casefiles.loader import parse_case_file
from pytest_rubric.casefiles.yamlstrict import decode, load
from pytest_rubric.core.compare import json_equal
from pytest_rubric.editing.decisions import CI_VARIABLES
from pytest_rubric.editing.edits import UpdateRefused, Write, rewrite
from pytest_rubric.editing.parts import Part, check, splice
from pytest_rubric.editing.yamltext import quoted, string

ALL_MET = "{expectedPass: true, expectedReasons: [all-required-met], coherent: true}"


#: Our own CI sets CI=true: every run here starts outside CI unless a test says otherwise.
pytestmark = pytest.mark.usefixtures("not_in_ci")


BLOCK = """\
# Review rubric cases.
evaluator: reason
cases:
  - id: right   # all met
    input:
      fields: {title: true, source: true}
      pass: true
      reasons: [all-required-met]
    expected:   # checked by hand
      expectedPass: true    # yes
      expectedReasons: [all-required-met]
      coherent: true

  # a wrong one
  - id: wrong
    input:
      fields: {title: false, source: true}
      pass: false
      reasons: [missing-title]
    expected:
      expectedPass: false   # right already
      expectedReasons: [missing-source]   # wrong
      coherent: false  # wrong too

  - id: missing
    note: written by --rubric-update
    input:
      fields: {title: true, source: false}
      pass: true
      reasons: [all-required-met]

  - id: last
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
"""

BLOCK_AFTER_NEW = BLOCK.replace(
    """\
      pass: true
      reasons: [all-required-met]

  - id: last""",
    """\
      pass: true
      reasons: [all-required-met]
    expected:
      expectedPass: false
      expectedReasons: [missing-source]
      coherent: false

  - id: last""",
)

BLOCK_AFTER_ALL = BLOCK_AFTER_NEW.replace(
    """\
      expectedReasons: [missing-source]   # wrong
      coherent: false  # wrong too""",
    """\
      expectedReasons: [missing-title]   # wrong
      coherent: true  # wrong too""",
)


def make(pytester: pytest.Pytester, name: str, text: str) -> Path:
    """Write a case file byte for byte (``pytester.makefile`` drops the final newline)."""
    path = pytester.path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", "no:randomly", *args)


def test_a_case_without_expected_fails_and_says_that_rubric_update_new_fills_it(
    pytester: pytest.Pytester,
) -> None:
    make(pytester, "review.rubric.yaml", BLOCK)
    result = run(pytester)
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*review.rubric.yaml:25:5: the case has no 'expected'; add 'expected:' with the exact "
            "expected answer as a mapping, or run 'pytest --rubric-update=new' to write the "
            "evaluator's answer there"
        ]
    )
    assert (pytester.path / "review.rubric.yaml").read_text() == BLOCK


def test_new_fills_only_a_missing_expected_and_reports_it_as_passed(
    pytester: pytest.Pytester,
) -> None:
    path = make(pytester, "review.rubric.yaml", BLOCK)
    result = run(pytester, "--rubric-update=new")
    result.assert_outcomes(passed=3, failed=1)  # the wrong one is not new: it still fails
    assert path.read_text() == BLOCK_AFTER_NEW
    result.stdout.fnmatch_lines(
        [
            "*= rubric update (new) =*",
            "--- review.rubric.yaml",
            "+++ review.rubric.yaml",
            "@@ -28,6 +28,10 @@",
            "       fields: {title: true, source: false}",
            "       pass: true",
            "       reasons: [all-required-met]",
            "+    expected:",
            "+      expectedPass: false",
            "+      expectedReasons: [missing-source]",
            "+      coherent: false",
            " ",
            "   - id: last",
            "     input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}",
            "1 expected answer written, 1 created, in 1 file",
        ],
        consecutive=True,
    )


def test_all_also_rewrites_the_differing_leaves_of_a_mismatching_expected(
    pytester: pytest.Pytester,
) -> None:
    path = make(pytester, "review.rubric.yaml", BLOCK)
    result = run(pytester, "--rubric-update=all")
    result.assert_outcomes(passed=4)
    assert result.ret == 0
    assert path.read_text() == BLOCK_AFTER_ALL
    result.stdout.fnmatch_lines(["2 expected answers written, 1 created, in 1 file"])
    run(pytester).assert_outcomes(passed=4)


def test_a_second_update_changes_no_byte_and_a_plain_run_then_passes(
    pytester: pytest.Pytester,
) -> None:
    path = make(pytester, "review.rubric.yaml", BLOCK)
    run(pytester, "--rubric-update=all").assert_outcomes(passed=4)
    first = path.read_bytes()
    again = run(pytester, "--rubric-update=all")
    again.assert_outcomes(passed=4)
    again.stdout.fnmatch_lines(["no expected answer needed writing"])
    assert path.read_bytes() == first
    assert run(pytester).ret == 0


# -- the corpus: every style, each case right, wrong or missing its expected ----------

JSON_CASES = (
    "evaluator: reason\n"
    "cases:\n"
    '  - {"id": "right", "input": {"fields": {"title": true, "source": true}, "pass": true, '
    '"reasons": ["all-required-met"]}, "expected": {"expectedPass": true, "expectedReasons": '
    '["all-required-met"], "coherent": true}}\n'
    '  - {"id": "wrong", "input": {"fields": {"title": false, "source": true}, "pass": false, '
    '"reasons": ["missing-title"]}, "expected": {"expectedPass": true, "expectedReasons": '
    '["missing-title"], "coherent": true}}  # a comment\n'
    '  - {"id": "missing", "input": {"fields": {"title": true, "source": false}, "pass": false, '
    '"reasons": ["missing-source"]}}\n'
)
JSON_CASES_AFTER = JSON_CASES.replace(
    '"expected": {"expectedPass": true, "expectedReasons": ["missing-title"], "coherent": true}}',
    '"expected": {"expectedPass": false, "expectedReasons": ["missing-title"], "coherent": true}}',
).replace(
    '"reasons": ["missing-source"]}}',
    '"reasons": ["missing-source"]}, "expected": {"expectedPass": false, "expectedReasons": '
    '["missing-source"], "coherent": true}}',
)

CRLF_CASES = (
    "evaluator: reason\r\n"
    "cases:\r\n"
    "  - id: right\r\n"
    "    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}\r\n"
    "    expected:\r\n"
    "      expectedPass: true\r\n"
    "      expectedReasons: [all-required-met]\r\n"
    "      coherent: true\r\n"
    "  - id: wrong\r\n"
    "    input: {fields: {title: true, source: true}, pass: false, reasons: []}\r\n"
    "    expected:\r\n"
    "      expectedPass: false\r\n"
    "      expectedReasons: []\r\n"
    "      coherent: true\r\n"
    "  - id: missing\r\n"
    "    input: {fields: {title: true, source: true}, pass: true, reasons: []}\r\n"
)
CRLF_CASES_AFTER = (
    CRLF_CASES.replace(
        "      expectedPass: false\r\n      expectedReasons: []\r\n      coherent: true\r\n",
        "      expectedPass: true\r\n      expectedReasons: [all-required-met]\r\n"
        "      coherent: false\r\n",
    )
    + "    expected:\r\n"
    "      expectedPass: true\r\n"
    "      expectedReasons: [all-required-met]\r\n"
    "      coherent: false\r\n"
)

BOM_CASES = (
    "\ufeffevaluator: reason\n"
    "cases:\n"
    "- id: wrong\n"
    "  input:\n"
    "    fields: {title: false, source: false}\n"
    "    pass: false\n"
    "    reasons: [missing-source, missing-title]\n"
    "  expected:\n"
    "    expectedPass: false\n"
    "    expectedReasons: [missing-title]\n"
    "    coherent: true\n"
    "- id: missing\n"
    "  input:\n"
    "    fields: {title: true, source: true}\n"
    "    pass: true\n"
    "    reasons: [all-required-met]"
)
BOM_CASES_AFTER = (
    BOM_CASES.replace(
        "    expectedReasons: [missing-title]\n",
        "    expectedReasons: [missing-source, missing-title]\n",
    )
    + "\n  expected:\n"
    "    expectedPass: true\n"
    "    expectedReasons: [all-required-met]\n"
    "    coherent: true"
)

FLOW_VALUES = """\
evaluator: agreement
cases:
  - id: right
    input:
      rows:
        - {id: A, a: true, b: true}
        - {id: B, a: true, b: false}
    expected:
      matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 0}   # flow stays flow
      agreement: 1
      total: 2
      disagreements: [B]
  - id: wrong
    input:
      rows:
        - {id: A, a: true, b: true}
        - {id: B, a: false, b: true}
        - {id: "yes", a: false, b: true}
    expected:
      matrix: {bothPass: 1, bothFail: 0, aOnly: 2, bOnly: 0}   # one count wrong
      agreement: 0.3333333333333333
      total: 3
      disagreements: [B]
  - id: missing
    input: {rows: [{id: "1:30", a: false, b: false}]}
"""
FLOW_VALUES_AFTER = (
    FLOW_VALUES.replace(
        "matrix: {bothPass: 1, bothFail: 0, aOnly: 2, bOnly: 0}   # one count wrong",
        "matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 2}   # one count wrong",
    )
    .replace("agreement: 0.3333333333333333", "agreement: 1")
    .replace(
        "      disagreements: [B]\n  - id: missing",
        '      disagreements: [B, "yes"]\n  - id: missing',
    )
    + """\
    expected:
      matrix:
        bothPass: 0
        bothFail: 1
        aOnly: 0
        bOnly: 0
      agreement: 1
      total: 1
      disagreements: []
"""
)

CORPUS = {
    "block.rubric.yaml": (BLOCK, BLOCK_AFTER_ALL),
    "json.rubric.yaml": (JSON_CASES, JSON_CASES_AFTER),
    "crlf.rubric.yaml": (CRLF_CASES, CRLF_CASES_AFTER),
    "bom.rubric.yaml": (BOM_CASES, BOM_CASES_AFTER),
    "flow.rubric.yaml": (FLOW_VALUES, FLOW_VALUES_AFTER),
}


def write_corpus(folder: Path) -> None:
    for name, (before, _) in CORPUS.items():
        (folder / name).write_bytes(before.encode("utf-8"))


def test_every_style_keeps_every_byte_but_the_wrong_and_missing_expected_leaves(
    pytester: pytest.Pytester,
) -> None:
    write_corpus(pytester.path)
    result = run(pytester, "--rubric-update=all")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["10 expected answers written, 5 created, in 5 files"])
    for name, (_, after) in CORPUS.items():
        assert (pytester.path / name).read_bytes() == after.encode("utf-8"), name
    plain = run(pytester)
    assert plain.ret == 0
    plain.stdout.fnmatch_lines(["*15 passed*"])


def test_a_pytest_xdist_run_writes_exactly_the_bytes_a_serial_run_writes(
    pytester: pytest.Pytester,
) -> None:
    serial, parallel = pytester.mkdir("serial"), pytester.mkdir("parallel")
    write_corpus(serial)
    write_corpus(parallel)
    run(pytester, "--rubric-update=all", str(serial)).assert_outcomes(passed=15)
    result = run(pytester, "--rubric-update=all", "-n", "2", str(parallel))
    result.assert_outcomes(passed=15)
    result.stdout.fnmatch_lines(["10 expected answers written, 5 created, in 5 files"])
    for name in CORPUS:
        assert (parallel / name).read_bytes() == (serial / name).read_bytes(), name
        assert (serial / name).read_bytes() == CORPUS[name][1].encode("utf-8"), name


# -- what is never touched ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "written"),
    [
        (["-k", "missing"], {"missing"}),
        (["review.rubric.yaml::wrong"], {"wrong"}),
        (["--deselect", "review.rubric.yaml::missing"], {"wrong"}),
    ],
    ids=["-k", "node-id", "--deselect"],
)
def test_only_selected_cases_are_written(
    pytester: pytest.Pytester, args: list[str], written: set[str]
) -> None:
    path = make(pytester, "review.rubric.yaml", BLOCK)
    run(pytester, "--rubric-update=all", *args)
    text = path.read_text()
    assert ("expectedReasons: [missing-title]   # wrong" in text) == ("wrong" in written)
    assert ("expectedReasons: [missing-source]\n      coherent: false\n\n" in text) == (
        "missing" in written
    )


def test_the_last_failed_cases_alone_are_written_with_lf(pytester: pytest.Pytester) -> None:
    path = make(pytester, "review.rubric.yaml", BLOCK)
    run(pytester)  # wrong and missing fail
    path.write_text(BLOCK.replace("id: right", "id: right-renamed"))
    result = run(pytester, "--lf", "--rubric-update=all")
    result.assert_outcomes(passed=2)
    assert path.read_text() == BLOCK_AFTER_ALL.replace("id: right", "id: right-renamed")


NEVER_TOUCHED = """\
evaluator: agreement
cases:
  - id: broken-input
    input: {rows: 3}
  - id: typo
    input: {rows: []}
    expect: {}
  - id: skipped
    skip: not yet
    input: {rows: []}
  - id: parked
    xfail: known gap
    input: {rows: []}
    expected: {total: 9}
  - id: ledger
    input_file: ledger.jsonl
"""


def test_case_errors_skips_xfails_and_input_files_are_never_touched(
    pytester: pytest.Pytester,
) -> None:
    path = make(pytester, "never.rubric.yaml", NEVER_TOUCHED)
    ledger = pytester.path / "ledger.jsonl"
    ledger.write_bytes(b'{"id": "A", "a": true, "b": true}\n')
    result = run(pytester, "--rubric-update=all", "-rA")
    result.assert_outcomes(failed=2, skipped=1, xfailed=1, passed=1)
    assert path.read_text() == NEVER_TOUCHED + (
        "    expected:\n"
        "      matrix:\n"
        "        bothPass: 1\n"
        "        bothFail: 0\n"
        "        aOnly: 0\n"
        "        bOnly: 0\n"
        "      agreement: 1\n"
        "      total: 1\n"
        "      disagreements: []\n"
    )
    assert ledger.read_bytes() == b'{"id": "A", "a": true, "b": true}\n'
    assert result.ret == 1


def test_the_report_records_each_write_with_its_node_id_before_and_after(
    pytester: pytest.Pytester,
) -> None:
    make(pytester, "review.rubric.yaml", BLOCK)
    run(pytester, "--rubric-update=all", "--rubric-report=report.json")
    report = json.loads((pytester.path / "report.json").read_text())
    writes = {case["nodeid"]: case["update"] for case in report["cases"] if "update" in case}
    assert writes == {
        "review.rubric.yaml::wrong": {
            "before": {
                "expectedPass": False,
                "expectedReasons": ["missing-source"],
                "coherent": False,
            },
            "after": {
                "expectedPass": False,
                "expectedReasons": ["missing-title"],
                "coherent": True,
            },
        },
        "review.rubric.yaml::missing": {
            "before": None,
            "after": {
                "expectedPass": False,
                "expectedReasons": ["missing-source"],
                "coherent": False,
            },
        },
    }
    assert {case["outcome"] for case in report["cases"]} == {"matched"}
    import jsonschema

    from pytest_rubric.reports.jsonreport import schema

    jsonschema.validate(report, schema(), cls=jsonschema.Draft202012Validator)


# -- CI ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [("CI", "true"), ("CI", "1"), ("CI", "yes")] + [(name, "") for name in CI_VARIABLES],
)
def test_an_update_in_ci_is_a_usage_error_naming_the_variable(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    path = make(pytester, "review.rubric.yaml", BLOCK)
    result = run(pytester, "--rubric-update=new")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"ERROR: --rubric-update=new is refused in CI ({name}={value} is set)*"]
    )
    assert "passed" not in result.stdout.str()
    assert "failed" not in result.stdout.str()
    assert path.read_text() == BLOCK


@pytest.mark.parametrize("value", ["", "0", "false", "FALSE", "False"])
def test_ci_set_to_empty_zero_or_false_is_not_ci(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("CI", value)
    path = make(pytester, "review.rubric.yaml", BLOCK)
    run(pytester, "--rubric-update=new").assert_outcomes(passed=3, failed=1)
    assert path.read_text() == BLOCK_AFTER_NEW


def test_rubric_update_in_ci_writes_in_ci_anyway(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    path = make(pytester, "review.rubric.yaml", BLOCK)
    run(pytester, "--rubric-update=all", "--rubric-update-in-ci").assert_outcomes(passed=4)
    assert path.read_text() == BLOCK_AFTER_ALL


def test_an_unknown_update_mode_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--rubric-update=some")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*'some' is not an update mode; write --rubric-update=new*"])


# -- refusals ---------------------------------------------------------------------


def test_a_file_changed_on_disk_during_the_run_is_not_written_and_the_run_fails(
    pytester: pytest.Pytester,
) -> None:
    path = make(pytester, "review.rubric.yaml", BLOCK)
    pytester.makeconftest(
        """
        from pathlib import Path

        def pytest_runtest_call(item):
            if item.name == "missing":
                path = Path(str(item.path))
                path.write_text(path.read_text() + "# edited meanwhile\\n")
        """
    )
    result = run(pytester, "--rubric-update=all", "--rubric-report=report.json")
    assert result.ret == 1
    # 'missing' ran after the change: it fails as it runs. 'wrong' ran before it and was
    # reported as passed; the write at the end finds the change, and says so.
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "review.rubric.yaml:25: 'missing' cannot be evaluated",
            "  its answer cannot be written into the case file: it changed on disk "
            "since it was collected; run again to write the answers into the current file",
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(
        [
            "1 expected answer could not be written: its case fails above, saying why",
            "review.rubric.yaml: nothing was written: it changed on disk since it was "
            "collected; run again to write the answers into the current file; its case, "
            "reported as passed above, is a case error",
        ],
        consecutive=True,
    )
    assert path.read_text() == BLOCK + "# edited meanwhile\n"
    report = json.loads((pytester.path / "report.json").read_text())
    outcomes = {case["case"]: case["outcome"] for case in report["cases"]}
    assert outcomes == {
        "right": "matched",
        "wrong": "case-error",
        "missing": "case-error",
        "last": "matched",
    }


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_a_file_changed_after_its_cases_ran_fails_the_run_and_says_they_are_case_errors(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    path = make(pytester, "review.rubric.yaml", BLOCK)
    pytester.makeconftest(
        """
        from pathlib import Path

        import pytest

        @pytest.hookimpl(wrapper=True)
        def pytest_runtestloop(session):
            result = yield
            if not hasattr(session.config, "workerinput"):  # where the file is written
                path = Path(str(session.config.rootpath)) / "review.rubric.yaml"
                path.write_text(path.read_text() + "# edited at the end\\n")
            return result
        """
    )
    result = run(pytester, *workers, "--rubric-update=all", "--rubric-report=report.json")
    assert result.ret == 1
    result.assert_outcomes(passed=4)  # decided as they ran, before the file changed
    result.stdout.fnmatch_lines(
        [
            "*= rubric update (all) =*",
            "review.rubric.yaml: nothing was written: it changed on disk since it was "
            "collected; run again to write the answers into the current file; its 2 cases, "
            "reported as passed above, are case errors",
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(["reason: 4 cases, 2 matched, 0 mismatched, 2 case errors"])
    assert path.read_text() == BLOCK + "# edited at the end\n"
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["exitStatus"] == 1
    assert {case["case"]: case["outcome"] for case in report["cases"]} == {
        "right": "matched",
        "wrong": "case-error",
        "missing": "case-error",
        "last": "matched",
    }


#: A kept block scalar's trailing line breaks are its value: inserting after it changes it.
KEPT_NOTE = (
    "evaluator: reason\n"
    "cases:\n"
    "  - id: kept-note\n"
    "    input: {fields: {title: true, source: true}, pass: true, reasons: []}\n"
    "    note: |+\n"
    "      kept\n"
    "\n"
)


def test_nothing_is_written_after_a_block_scalar_that_keeps_its_line_breaks() -> None:
    with pytest.raises(UpdateRefused) as refused:
        rewrite(KEPT_NOTE.encode(), [Write(0, "kept-note", {"x": 1}, created=True)])
    assert str(refused.value) == (
        "the value at line 5 is a block scalar that keeps its trailing line breaks ('|+'), "
        "so nothing can be written after it without changing it; write '|' instead of '|+' "
        "there (or move that key above the others), then run again"
    )


def test_an_edit_that_would_not_read_back_as_the_answer_is_refused() -> None:
    # '{reason, b: 1}': 'reason' has no ':' and an empty value; a value written there
    # would join the key.
    text = "evaluator: x\ncases:\n  - id: a\n    input: {}\n    expected: {reason, b: 1}\n"
    with pytest.raises(UpdateRefused) as refused:
        rewrite(text.encode(), [Write(0, "a", {"reason": "r", "b": 1}, created=False)])
    assert str(refused.value) == (
        "case 'a' would not read back with its answer as its expected; "
        "write this case's expected by hand"
    )


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_a_case_whose_answer_cannot_be_written_fails_in_pytest_junit_and_the_report(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    text = KEPT_NOTE + (
        "  - id: other\n    input: {fields: {title: true, source: true}, pass: true, reasons: []}\n"
    )
    path = make(pytester, "review.rubric.yaml", text)
    result = run(
        pytester,
        *workers,
        "--rubric-update=new",
        "--junitxml=junit.xml",
        "--rubric-report=report.json",
    )
    assert result.ret == 1
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "review.rubric.yaml:3: 'kept-note' cannot be evaluated",
            "  its answer cannot be written into the case file: the value at line 5 is a "
            "block scalar that keeps its trailing line breaks ('|+'), so nothing can be "
            "written after it without changing it; write '|' instead of '|+' there (or move "
            "that key above the others), then run again",
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(
        [
            "reason: 2 cases, 1 matched, 0 mismatched, 1 case error",
            "*",
            "*= rubric update (new) =*",
            "--- review.rubric.yaml",
            "*",
            "1 expected answer written, 1 created, in 1 file",
            "1 expected answer could not be written: its case fails above, saying why",
        ]
    )
    assert path.read_text() == text + (
        "    expected:\n"
        "      expectedPass: true\n"
        "      expectedReasons: [all-required-met]\n"
        "      coherent: false\n"
    )
    junit = ElementTree.parse(pytester.path / "junit.xml").getroot()
    cases = {case.get("name"): case for case in junit.iter("testcase")}
    failure = cases["kept-note"].find("failure")
    assert failure is not None
    assert "its answer cannot be written into the case file" in (failure.get("message") or "")
    assert cases["other"].find("failure") is None
    report = json.loads((pytester.path / "report.json").read_text())
    assert {case["case"]: case["outcome"] for case in report["cases"]} == {
        "kept-note": "case-error",
        "other": "matched",
    }
    assert report["exitStatus"] == 1
    plain = run(pytester)
    plain.assert_outcomes(passed=1, failed=1)  # the written case passes; kept-note has none


def test_a_case_file_changed_before_its_cases_ran_fails_them_as_they_run(
    pytester: pytest.Pytester,
) -> None:
    path = make(pytester, "review.rubric.yaml", BLOCK)
    pytester.makeconftest(
        """
        from pathlib import Path

        def pytest_collection_finish(session):
            path = Path(str(session.config.rootpath)) / "review.rubric.yaml"
            path.write_text(path.read_text() + "# edited meanwhile\\n")
        """
    )
    result = run(pytester, "--rubric-update=all", "--junitxml=junit.xml")
    assert result.ret == 1
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "review.rubric.yaml:15: 'wrong' cannot be evaluated",
            "  its answer cannot be written into the case file: it changed on disk*",
            "*",
            "review.rubric.yaml:25: 'missing' cannot be evaluated",
            "  its answer cannot be written into the case file: it changed on disk*",
            "*",
            "2 expected answers could not be written: their cases fail above, saying why",
        ]
    )
    result.stdout.no_fnmatch_line("*reported as passed above*")
    assert path.read_text() == BLOCK + "# edited meanwhile\n"
    junit = ElementTree.parse(pytester.path / "junit.xml").getroot()
    failed = {
        case.get("name") for case in junit.iter("testcase") if case.find("failure") is not None
    }
    assert failed == {"wrong", "missing"}


# -- quoting: every written value reads back the same under every YAML reader --------

TRICKY = [
    "true",
    "True",
    "yes",
    "No",
    "on",
    "OFF",
    "y",
    "n",
    "null",
    "~",
    "",
    "1:30",
    "2024-01-02",
    "0x1F",
    "0o17",
    "1e3",
    "1_000",
    ".inf",
    ".nan",
    "+1",
    "# not a comment",
    "*alias",
    "&anchor",
    "!tag",
    "a: b",
    "a #b",
    " padded ",
    "tab\there",
    "bell\x07",
    "line\nbreak",
    "nel\x85",
    "sep\u2028",
    "- item",
    "[x]",
    "{x}",
    "@at",
    "`tick",
    "%pct",
    "|",
    ">",
    "?",
    "'single'",
    '"double"',
    "back\\slash",
    "<<",
    "=",
    "é",
    "x" * 300 + " " + "y" * 300,
    "missing-title",
]


@pytest.mark.parametrize("text", TRICKY, ids=[repr(t)[:30] for t in TRICKY])
def test_a_tricky_string_reads_back_as_the_same_string_everywhere(text: str) -> None:
    answer = {"value": text, text: [text], "nested": {"list": [{"k": text}]}}
    for template, write in templates(answer):
        new = rewrite(template.encode(), [write])
        assert_reads_back(new, write.index, answer)
        if len(text) > 200:  # never folded
            assert any(text.replace(" ", "") in line.replace(" ", "") for line in lines(new))


def lines(data: bytes) -> list[str]:
    return data.decode("utf-8-sig").splitlines()


def test_a_plain_word_stays_plain_and_everything_else_is_double_quoted() -> None:
    assert string("missing-title") == "missing-title"
    assert string("yes") == '"yes"'
    assert quoted('a\u2028b\x7f"\\') == '"a\\u2028b\\u007f\\"\\\\"'  # escapes JSON reads too


def templates(answer: dict[str, Any]) -> list[tuple[str, Write]]:
    """Case files where ``answer`` is created or rewritten, in block, flow and JSON styles."""
    head = "evaluator: reason\ncases:\n"
    block_missing = head + "  - id: a\n    input:\n      x: 1\n"
    block_wrong = head + "  - id: a\n    input:\n      x: 1\n    expected:\n      value: 0\n"
    flow_wrong = head + "  - id: a\n    input: {x: 1}\n    expected: {value: 0, nested: 1}\n"
    json_missing = head + '  - {"id": "a", "input": {"x": 1}}\n'
    json_wrong = head + '  - {"id": "a", "input": {"x": 1}, "expected": {"value": [0]}}\n'
    same_keys = (
        head
        + "  - id: a\n    input: {x: 1}\n    expected:"
        + ("".join(f"\n      {quoted(key)}: 0" for key in answer) if answer else " {}")
    )
    return [
        (block_missing, Write(0, "a", answer, created=True)),
        (block_wrong, Write(0, "a", answer, created=False)),
        (flow_wrong, Write(0, "a", answer, created=False)),
        (json_missing, Write(0, "a", answer, created=True)),
        (json_wrong, Write(0, "a", answer, created=False)),
        (same_keys, Write(0, "a", answer, created=False)),
    ]


def assert_reads_back(data: bytes, index: int, answer: Any) -> None:
    strict = load(decode(data))
    assert not strict.problems
    value: Any = strict.value
    assert json_equal(value["cases"][index]["expected"], answer)
    for loader in (yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        read = yaml.load(data.decode("utf-8-sig"), Loader=loader)
        assert json_equal(read["cases"][index]["expected"], answer)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=12,
)


@given(answer=st.dictionaries(st.text(), JSON_VALUES, max_size=5))
def test_any_json_answer_written_reads_back_equal_with_the_strict_loader_and_safe_load(
    answer: dict[str, Any],
) -> None:
    for template, write in templates(answer):
        assert_reads_back(rewrite(template.encode(), [write]), write.index, answer)


MIDDLE = (
    "evaluator: reason  # first and last cases stay as they are\n"
    "cases:\n"
    "  - id: first\n"
    "    input: {x: 1}\n"
    "    expected: {x: 1}\n"
    "  # the middle one\n"
    "  - id: middle\n"
    "    input: {x: 1}\n"
    "EXPECTED"
    '  - {"id": "last", "input": {}, "expected": {}}\n'
    "description: after the cases\n"
)
MIDDLE_EXPECTED = [
    "",
    "    expected:\n",
    "    expected:\n      value: 0   # a comment\n      nested:\n        - [1]\n",
    "    expected: {value: 0, nested: 1}\n",
    "    note: |+\n      kept\n\n",
]


@given(answer=st.dictionaries(st.text(), JSON_VALUES, max_size=5))
def test_one_case_edited_on_its_own_lines_agrees_with_the_whole_file_rewritten(
    answer: dict[str, Any],
) -> None:
    for expected in MIDDLE_EXPECTED:
        data = MIDDLE.replace("EXPECTED", expected).encode()
        case = parse_case_file(data, "middle.rubric.yaml").cases[1]
        assert case.place.lines == (7, 9 + expected.count("\n"))
        write = Write(1, "middle", answer, created=case.missing_expected is not None)
        known = (case.input, case.expected)
        assert refusal(check, data, write, case.place.lines, known) == refusal(
            rewrite, data, [write]
        )
        if refusal(rewrite, data, [write]) is None:
            part = check(data, write, case.place.lines, known)
            assert part is not None
            assert splice(data, [(write, part)]) == rewrite(data, [write])


def refusal(edit: Callable[..., object], *args: Any) -> str | None:
    """Why ``edit(*args)`` was refused, or ``None``."""
    try:
        edit(*args)
    except UpdateRefused as exc:
        return str(exc)
    return None


def test_the_example_project_is_left_alone_by_an_update_with_nothing_to_write(
    pytester: pytest.Pytester,
) -> None:
    example = Path(__file__).resolve().parent.parent / "example_project"
    shutil.copytree(example, pytester.path / "example", dirs_exist_ok=True)
    before = {
        path: path.read_bytes() for path in (pytester.path / "example").rglob("*.rubric.y*ml")
    }
    assert before, "the example project has no case file to check"
    run(pytester, "--rubric-update=all", str(pytester.path / "example"))
    for path, data in before.items():
        assert path.read_bytes() == data, path


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (
            '"x\\ud800"',
            "expected['v'] holds a lone surrogate, which UTF-8, and so a case file, cannot "
            "hold; fix the evaluator's answer, or write this expected by hand",
        ),
        (
            "10**5000",
            "expected['v'] is an integer of 5001 digits, longer than Python writes in "
            "decimal (4300 digits); have the evaluator answer it as text, or write this "
            "expected by hand",
        ),
        (
            '{"k" * 2000: 1}',
            f"expected['v']['{'k' * 29}…{'k' * 7}'] is a key of 2000 characters; YAML reads a key of at most "
            "1024 characters before its ':'; have the evaluator answer a shorter key, or "
            "write this expected by hand",
        ),
    ],
    ids=["lone-surrogate", "huge-int", "long-key"],
)
def test_an_answer_no_case_file_can_hold_is_a_case_error_never_a_lost_case(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    workers: list[str],
    answer: str,
    why: str,
) -> None:
    for variable in (
        "CI",
        "GITHUB_ACTIONS",
        "GITLAB_CI",
        "BUILDKITE",
        "TF_BUILD",
        "JENKINS_URL",
        "TEAMCITY_VERSION",
    ):
        monkeypatch.delenv(variable, raising=False)
    pytester.makeconftest(
        f"""
from pytest_rubric import Evaluator, hookimpl

@hookimpl
def rubric_evaluators():
    return [Evaluator(name="odd", description="", evaluate=lambda data: {{"v": {answer}}})]
"""
    )
    text = "evaluator: odd\ncases:\n  - id: one\n    input: {}\n    expected: {v: old}"
    before = pytester.makefile(".rubric.yaml", a=text).read_bytes()
    result = pytester.runpytest_subprocess(
        *workers, "--rubric-update=all", "--rubric-report=r.json", "-p", "no:randomly"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(failed=1)
    result.stdout.no_fnmatch_line("*INTERNALERROR*")
    assert f"  its answer cannot be written into the case file: {why}" in result.stdout.lines
    assert (pytester.path / "a.rubric.yaml").read_bytes() == before
    report = json.loads((pytester.path / "r.json").read_text())
    assert [record["outcome"] for record in report["cases"]] == ["case-error"]


def test_a_case_file_collected_through_a_symlink_and_directly_is_written_once(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    real = pytester.mkdir("real")
    (real / "a.rubric.yaml").write_text(
        "evaluator: reason\ncases:\n  - id: one\n"
        "    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}\n"
    )
    pytester.mkdir("cases")
    (pytester.path / "cases" / "link.rubric.yaml").symlink_to("../real/a.rubric.yaml")
    result = pytester.runpytest("--rubric-update=new", "-p", "no:randomly")
    assert result.ret == pytest.ExitCode.OK
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["1 expected answer written, 1 created, in 1 file"])
    result.stdout.no_fnmatch_line("*changed on disk*")
    pytester.runpytest().assert_outcomes(passed=2)


# -- values rewritten in part: lists that change length, mappings whose keys change ---

ECHO = """
from pytest_rubric import Evaluator, hookimpl

@hookimpl
def rubric_evaluators():
    return [Evaluator(name="echo", description="", evaluate=lambda data: data["answer"])]
"""

PARTS = """\
evaluator: echo
cases:
  - id: grows
    input: {answer: {items: [a, b, c], rows: [{id: A, count: 1}, {id: B, count: 2}]}}
    expected:   # lists that grow
      items:
        - a   # first
        - b   # second
      rows:
        - id: A   # row A
          count: 1
  - id: shrinks
    input: {answer: {items: [a, x]}}
    expected:
      items:
        - a   # kept
        - b   # changed
        # c goes
        - c   # removed
        - d
  - id: keys
    input:
      answer:
        matrix: {bothPass: 1, aOnly: 0, total: 3}
        rows: [{id: A, b: true, c: 1}, {b: false}]
    expected:
      matrix:
        bothPass: 1   # right
        bothFail: 0   # gone
        aOnly: 2   # wrong
      rows:
        - id: A   # row A
          a: false
          b: true   # kept
        - id: B   # goes with its line
          b: false   # kept, moves up
"""

PARTS_AFTER = """\
evaluator: echo
cases:
  - id: grows
    input: {answer: {items: [a, b, c], rows: [{id: A, count: 1}, {id: B, count: 2}]}}
    expected:   # lists that grow
      items:
        - a   # first
        - b   # second
        - c
      rows:
        - id: A   # row A
          count: 1
        - id: B
          count: 2
  - id: shrinks
    input: {answer: {items: [a, x]}}
    expected:
      items:
        - a   # kept
        - x   # changed
  - id: keys
    input:
      answer:
        matrix: {bothPass: 1, aOnly: 0, total: 3}
        rows: [{id: A, b: true, c: 1}, {b: false}]
    expected:
      matrix:
        bothPass: 1   # right
        aOnly: 0   # wrong
        total: 3
      rows:
        - id: A   # row A
          b: true   # kept
          c: 1
        - b: false   # kept, moves up
"""

FLOWS = """\
evaluator: echo
cases:
  - id: flow
    input: {answer: {matrix: {bothPass: 1, total: 2}, ids: [A, B, "yes"], rows: [{id: A}]}}
    expected:
      matrix: {bothPass: 1, aOnly: 0}   # a flow mapping whose keys change
      ids: [A]   # a flow list that grows
      rows: [{id: A, x: 1}, {id: B}]   # one that shrinks
      deep: {a: [1]}   # one that goes
  - {"id": "json", "input": {"answer": {"m": {"a": 1, "b": [{"c": "d"}]}}}, "expected": {"m": {"a": 1, "c": true}}}  # JSON stays JSON
"""

FLOWS_AFTER = """\
evaluator: echo
cases:
  - id: flow
    input: {answer: {matrix: {bothPass: 1, total: 2}, ids: [A, B, "yes"], rows: [{id: A}]}}
    expected:
      matrix: {bothPass: 1, total: 2}   # a flow mapping whose keys change
      ids: [A, B, "yes"]   # a flow list that grows
      rows: [{id: A}]   # one that shrinks
  - {"id": "json", "input": {"answer": {"m": {"a": 1, "b": [{"c": "d"}]}}}, "expected": {"m": {"a": 1, "b": [{"c": "d"}]}}}  # JSON stays JSON
"""


@pytest.mark.parametrize(
    ("text", "after", "cases"),
    [(PARTS, PARTS_AFTER, 3), (FLOWS, FLOWS_AFTER, 2)],
    ids=["block-parts", "flow-values"],
)
def test_a_value_rewritten_in_part_keeps_its_unchanged_lines_comments_and_style(
    pytester: pytest.Pytester, text: str, after: str, cases: int
) -> None:
    pytester.makeconftest(ECHO)
    path = make(pytester, "parts.rubric.yaml", text)
    result = run(pytester, "--rubric-update=all")
    assert result.ret == 0
    assert path.read_text() == after
    run(pytester).assert_outcomes(passed=cases)


EMPTY_LEAVES = """\
evaluator: echo
cases:
  - id: empty
    input: {answer: {reason: r, other: [1, 2], deep: {a: 1}, none: null, item: [x, y]}}
    expected:
      reason:   # to fill
      other:
      deep:
      none:
      item:
        -
        - y
"""

EMPTY_LEAVES_AFTER = """\
evaluator: echo
cases:
  - id: empty
    input: {answer: {reason: r, other: [1, 2], deep: {a: 1}, none: null, item: [x, y]}}
    expected:
      reason: r   # to fill
      other: [1, 2]
      deep:
        a: 1
      none:
      item:
        - x
        - y
"""


def test_an_empty_leaf_in_expected_is_written_where_it_stands(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(ECHO)
    path = make(pytester, "empty.rubric.yaml", EMPTY_LEAVES)
    result = run(pytester, "--rubric-update=all")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["1 expected answer written, 0 created, in 1 file"])
    assert path.read_text() == EMPTY_LEAVES_AFTER
    run(pytester).assert_outcomes(passed=1)


EMPTY_EXPECTED = """\
evaluator: echo
cases:
  - id: left-empty
    input: {answer: {a: 1, b: [x]}}
    expected:   # fill me
  - id: written-null
    input: {answer: {a: 2}}
    expected: null   # or me
  - {"id": "json-null", "input": {"answer": {"a": 3}}, "expected": null}
  - id: tilde
    input: {answer: {a: 4}}
    expected: ~
"""

EMPTY_EXPECTED_AFTER = """\
evaluator: echo
cases:
  - id: left-empty
    input: {answer: {a: 1, b: [x]}}
    expected:   # fill me
      a: 1
      b: [x]
  - id: written-null
    input: {answer: {a: 2}}
    expected:   # or me
      a: 2
  - {"id": "json-null", "input": {"answer": {"a": 3}}, "expected": {"a": 3}}
  - id: tilde
    input: {answer: {a: 4}}
    expected:
      a: 4
"""


def test_an_empty_expected_is_missing_and_new_fills_it_in_place(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(ECHO)
    path = make(pytester, "empty.rubric.yaml", EMPTY_EXPECTED)
    plain = run(pytester)
    plain.assert_outcomes(failed=4)
    plain.stdout.fnmatch_lines(
        [
            "  empty.rubric.yaml:5:5: the case's 'expected' is empty; write the exact expected "
            "answer under it as a mapping, or run 'pytest --rubric-update=new' to write the "
            "evaluator's answer there"
        ]
    )
    result = run(pytester, "--rubric-update=new")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["4 expected answers written, 4 created, in 1 file"])
    assert path.read_text() == EMPTY_EXPECTED_AFTER
    run(pytester).assert_outcomes(passed=4)


COMMENTS_AROUND = """\
evaluator: echo
cases:
  - id: a
    input:
      answer: {x: 1}
      # more: later
    # expected: to be written
  # b is next
  - id: b
    input: {answer: {why: 2}}

    # after a blank line: about what follows
  - id: c
    input: {answer: {z: 3}}
# the end
"""

COMMENTS_AROUND_AFTER = """\
evaluator: echo
cases:
  - id: a
    input:
      answer: {x: 1}
      # more: later
    # expected: to be written
    expected:
      x: 1
  # b is next
  - id: b
    input: {answer: {why: 2}}
    expected:
      why: 2

    # after a blank line: about what follows
  - id: c
    input: {answer: {z: 3}}
    expected:
      z: 3
# the end
"""


def test_an_inserted_expected_goes_below_its_cases_own_comments_and_above_the_next_ones(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(ECHO)
    path = make(pytester, "comments.rubric.yaml", COMMENTS_AROUND)
    assert run(pytester, "--rubric-update=new").ret == 0
    assert path.read_text() == COMMENTS_AROUND_AFTER
    run(pytester).assert_outcomes(passed=3)


FLOW_LIST = (
    "evaluator: echo\n"
    "cases: [{id: a, input: {answer: {x: 1}}, expected: {x: 0}},  # wrong\n"
    "        {id: b, input: {answer: {y: [1]}}}]\n"
)
FLOW_LIST_AFTER = (
    "evaluator: echo\n"
    "cases: [{id: a, input: {answer: {x: 1}}, expected: {x: 1}},  # wrong\n"
    '        {id: b, input: {answer: {y: [1]}}, expected: {"y": [1]}}]\n'
)
CR_ONLY = "evaluator: echo\rcases:\r  - id: a\r    input: {answer: {x: 1}}\r    expected:\r      x: 0  # wrong\r"


@pytest.mark.parametrize(
    ("text", "after"),
    [
        (FLOW_LIST, FLOW_LIST_AFTER),
        (CR_ONLY, CR_ONLY.replace("x: 0", "x: 1")),
    ],
    ids=["cases-in-a-flow-list", "CR-line-breaks"],
)
def test_files_whose_cases_cannot_be_read_line_by_line_are_edited_whole(
    pytester: pytest.Pytester, text: str, after: str
) -> None:
    pytester.makeconftest(ECHO)
    path = make(pytester, "whole.rubric.yaml", text)
    result = run(pytester, "--rubric-update=all")
    assert result.ret == 0
    assert path.read_bytes() == after.encode()
    assert run(pytester).ret == 0


@pytest.mark.parametrize(
    "text",
    [
        # The part also changes the next case: it must not be written.
        '  - id: middle\n    input: {x: 1}\n    expected: {a: 1}\n  - {"id": "last", "input": {x: 2}, "expected": {}}\n',
        # The part writes another answer than the write says.
        "  - id: middle\n    input: {x: 1}\n    expected: {a: 2}\n",
        # The part breaks the file's YAML.
        "  - id: middle\n    input: {x: 1\n    expected: {a: 1}\n",
        # The part is no longer a case of its own: its lines join the case before it.
        "    note: the middle case is gone\n    expected: {a: 1}\n",
    ],
    ids=["changes-another-case", "other-answer", "broken-yaml", "joins-the-case-before"],
)
def test_the_spliced_file_is_read_back_whole_before_it_is_written(text: str) -> None:
    data = MIDDLE.replace("EXPECTED", "").encode()
    case = parse_case_file(data, "middle.rubric.yaml").cases[1]
    assert case.place.lines is not None
    first, after = case.place.lines
    if text.count("- ") == 2:  # the part spans the last case too
        after = 0
        text += "description: after the cases\n"
    write = Write(1, "middle", {"a": 1}, created=True)
    bad = Part(first, after, text)
    with pytest.raises(UpdateRefused):
        splice(data, [(write, bad)])


@pytest.mark.parametrize("layout", ["linked-file", "linked-folder"])
@pytest.mark.parametrize("args", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_an_update_never_writes_outside_the_repository_through_a_symlink(
    pytester: pytest.Pytester,
    tmp_path_factory: pytest.TempPathFactory,
    layout: str,
    args: list[str],
) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    text = (
        "evaluator: reason\ncases:\n  - id: a\n    input:\n"
        "      fields: {title: true, source: true}\n      pass: true\n      reasons: [all-required-met]\n"
    )
    (elsewhere / "outside.rubric.yaml").write_text(text)
    pytester.makeini("[pytest]\n")
    if layout == "linked-file":
        (pytester.path / "linked.rubric.yaml").symlink_to(elsewhere / "outside.rubric.yaml")
    else:
        (pytester.path / "linked").symlink_to(elsewhere, target_is_directory=True)
    result = pytester.runpytest(
        "--rubric-update=new", "--rubric-update-in-ci", "-p", "no:cacheprovider", *args
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*its answer cannot be written into the case file: the file lives outside the "
            f"repository ({pytester.path}), at {elsewhere / 'outside.rubric.yaml'}, through a symlink*"
        ]
    )
    assert (elsewhere / "outside.rubric.yaml").read_text() == text


@pytest.mark.parametrize("args", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_a_read_only_case_file_is_not_replaced(pytester: pytest.Pytester, args: list[str]) -> None:
    text = (
        "evaluator: reason\ncases:\n  - id: a\n    input:\n"
        "      fields: {title: true, source: true}\n      pass: true\n      reasons: [all-required-met]\n"
    )
    path = pytester.path / "locked.rubric.yaml"
    path.write_text(text)
    path.chmod(0o444)
    result = pytester.runpytest("--rubric-update=new", "--rubric-update-in-ci", *args)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*its answer cannot be written into the case file: it is read-only (mode 0444); make "
            "it writable (chmod u+w)*"
        ]
    )
    assert path.read_text() == text
    assert stat.S_IMODE(path.stat().st_mode) == 0o444


HOSTILE_TEXT = (
    "esc\x1b nul\x00 del\x7f nel\x85 ls\u2028 ps\u2029 bell\x07 vt\x0b fffe\ufffe ffff\uffff"
)


def test_an_answer_with_controls_and_non_characters_keeps_a_json_case_json(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "from pytest_rubric import Evaluator, hookimpl\n\n\n"
        "@hookimpl\n"
        "def rubric_evaluators():\n"
        f"    return [Evaluator(name='echo', description='d', evaluate=lambda data: {{'s': {HOSTILE_TEXT!r}}})]\n"
    )
    pytester.makefile(
        ".rubric.yaml", json_case='evaluator: echo\ncases:\n  - {"id": "a", "input": {"n": 1}}\n'
    )
    run(pytester, "--rubric-update=new", "--rubric-update-in-ci").assert_outcomes(passed=1)
    line = (pytester.path / "json_case.rubric.yaml").read_text().splitlines()[2]
    case = json.loads(line.removeprefix("  - "))  # still one line of JSON
    assert case == {"id": "a", "input": {"n": 1}, "expected": {"s": HOSTILE_TEXT}}
    run(pytester).assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("answer", "written"),
    [
        ("[]", "      k: []  # note\n"),
        ("3", "      k: 3  # note\n"),
        ("{'a': 1}", "      k:  # note\n        a: 1\n"),
        ("['b', 'c']", "      k:  # note\n      - b\n      - c\n"),  # item by item, in place
    ],
    ids=["empty-list", "scalar", "mapping", "list"],
)
def test_a_block_list_at_its_keys_column_after_a_comment_is_rewritten_where_it_reads_back(
    pytester: pytest.Pytester, answer: str, written: str
) -> None:
    pytester.makeconftest(
        "from pytest_rubric import Evaluator, hookimpl\n\n\n"
        "@hookimpl\n"
        "def rubric_evaluators():\n"
        f"    return [Evaluator(name='k', description='d', evaluate=lambda data: {{'k': {answer}}})]\n"
    )
    head = "evaluator: k\ncases:\n  - id: a\n    input: {n: 1}\n    expected:\n"
    path = pytester.path / "k.rubric.yaml"
    path.write_text(head + "      k:  # note\n      - x\n")
    run(pytester, "--rubric-update=all", "--rubric-update-in-ci").assert_outcomes(passed=1)
    assert path.read_text() == head + written
    run(pytester).assert_outcomes(passed=1)


QUOTING_CONFTEST = (
    "from pytest_rubric import Evaluator, hookimpl\n\n\n"
    "@hookimpl\n"
    "def rubric_evaluators():\n"
    "    return [Evaluator(name='k', description='d', evaluate=lambda data: {'a': 2, 'b': 'zed', 'm': {'p': 'qq'}})]\n"
)


@pytest.mark.parametrize(
    ("expected", "written"),
    [
        (
            '\n      a: 1\n      b: "x"\n      m: {"p": "r"}\n',
            '\n      a: 2\n      b: "zed"\n      m: {"p": "qq"}\n',
        ),
        (' {a: 1, b: "x", m: {p: "r"}}\n', ' {a: 2, b: "zed", m: {p: "qq"}}\n'),
    ],
    ids=["block", "flow"],
)
def test_a_double_quoted_value_stays_double_quoted(
    pytester: pytest.Pytester, expected: str, written: str
) -> None:
    pytester.makeconftest(QUOTING_CONFTEST)
    head = "evaluator: k\ncases:\n  - id: a\n    input: {n: 1}\n    expected:"
    path = pytester.path / "k.rubric.yaml"
    path.write_text(head + expected)
    run(pytester, "--rubric-update=all", "--rubric-update-in-ci").assert_outcomes(passed=1)
    assert path.read_text() == head + written


def test_a_comment_inside_a_flow_mapping_that_must_be_rewritten_is_never_lost(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(QUOTING_CONFTEST)
    text = (
        "evaluator: k\ncases:\n  - id: a\n    input: {n: 1}\n"
        "    expected: {a: 1,\n      # why b\n      b: x, m: {p: r}, z: 1}\n"
    )
    path = pytester.path / "k.rubric.yaml"
    path.write_text(text)
    run(pytester, "--rubric-update=all", "--rubric-update-in-ci").assert_outcomes(failed=1)
    assert path.read_text() == text
    pytester.runpytest("--rubric-update=all", "--rubric-update-in-ci").stdout.fnmatch_lines(
        [
            "*the comment at line 6 is inside the flow collection this answer rewrites, and would "
            "be lost; move it out of the brackets*"
        ]
    )
