"""``skip:``, ``xfail:`` and ``marks:`` in case files, per case and per file."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from fnmatch import fnmatch
from typing import Any

import jsonschema
import pytest

from pytest_rubric.casefiles.loader import parse_case_file
from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.reports.jsonreport import schema

MATCH = (
    "input: {rows: [{id: A, a: true, b: true}]}\n"
    "    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, "
    "total: 1, disagreements: []}"
)
MISMATCH = "input: {rows: [{id: A, a: true, b: true}]}\n    expected: {error: review-label}"
BROKEN = "input: {rows: nope}\n    expected: {error: review-label}"


def case(name: str, body: str, extra: str = "") -> str:
    return f"  - id: {name}\n{extra}    {body}\n"


def cases_file(*cases: str, head: str = "") -> str:
    return f"evaluator: agreement\n{head}cases:\n{''.join(cases)}"


def _records(pytester: pytest.Pytester) -> dict[str, Any]:
    report = json.loads((pytester.path / "r.json").read_text())
    jsonschema.validate(report, schema(), cls=jsonschema.Draft202012Validator)
    return {record["case"]: record for record in report["cases"]}


def test_a_skip_key_skips_the_case_with_its_reason(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        s=cases_file(
            case("parked", MISMATCH, "    skip: waiting for the rubric change in issue 42\n"),
            case("runs", MATCH),
        ),
    )
    result = pytester.runpytest("-rs", "--rubric-report=r.json")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(
        ["SKIPPED [[]1[]] s.rubric.yaml: waiting for the rubric change in issue 42"]
    )
    result.stdout.fnmatch_lines(
        ["agreement: 2 cases, 1 matched, 0 mismatched, 0 case errors, 1 skipped"]
    )
    record = _records(pytester)["parked"]
    assert (record["outcome"], record["reason"]) == (
        "skipped",
        "waiting for the rubric change in issue 42",
    )


def test_a_file_level_skip_applies_to_every_case_and_a_case_reason_wins(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        s=cases_file(
            case("one", MATCH),
            case("two", MATCH, "    skip: its own reason\n"),
            head="skip: the grader is being replaced\n",
        ),
    )
    result = pytester.runpytest("-rs")
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines(
        [
            "SKIPPED [[]1[]] s.rubric.yaml: the grader is being replaced",
            "SKIPPED [[]1[]] s.rubric.yaml: its own reason",
        ]
    )


def test_an_xfail_case_that_mismatches_is_xfailed(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml", x=cases_file(case("known-bug", MISMATCH, "    xfail: grader bug 7\n"))
    )
    result = pytester.runpytest("-rx", "--rubric-report=r.json")
    result.assert_outcomes(xfailed=1)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["XFAIL x.rubric.yaml::known-bug - grader bug 7"])
    record = _records(pytester)["known-bug"]
    assert (record["outcome"], record["reason"]) == ("xfailed", "grader bug 7")
    assert record["actual"] == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 0},
        "agreement": 1,
        "total": 1,
        "disagreements": [],
    }


@pytest.mark.parametrize(
    "ini", ["", "[pytest]\nxfail_strict = false\n"], ids=["default", "ini-false"]
)
def test_an_xfail_case_that_matches_fails_by_default_saying_to_remove_the_xfail(
    pytester: pytest.Pytester, ini: str
) -> None:
    if ini:
        pytester.makeini(ini)
    pytester.makefile(
        ".rubric.yaml", x=cases_file(case("fixed-now", MATCH, "    xfail: grader bug 7\n"))
    )
    result = pytester.runpytest("--rubric-report=r.json")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "x.rubric.yaml:3: 'fixed-now' matched its expected answer, but it is marked xfail "
            "(grader bug 7); remove the 'xfail:', or write 'xfail: {reason: ..., strict: false}' "
            "to let it pass as XPASS"
        ]
    )
    # The run fails, so the report counts it as a failure, saying why.
    record = _records(pytester)["fixed-now"]
    assert record["outcome"] == "case-error"
    assert record["problems"] == [
        "it matched its expected answer, but it is marked xfail (grader bug 7), strictly"
    ]
    report = json.loads((pytester.path / "r.json").read_text())
    assert report["summary"]["caseErrors"] == 1
    result.stdout.fnmatch_lines(["agreement: 1 case, 0 matched, 0 mismatched, 1 case error"])


def test_a_non_strict_xfail_case_that_matches_is_xpass(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        x=cases_file(
            case("maybe", MATCH, "    xfail: {reason: flaky grader, strict: false}\n"),
        ),
    )
    result = pytester.runpytest("-rX")
    result.assert_outcomes(xpassed=1)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["XPASS x.rubric.yaml::maybe - flaky grader", "*1 xpassed*"])
    result.stdout.fnmatch_lines(
        ["agreement: 1 case, 0 matched, 0 mismatched, 0 case errors, 1 xpassed"]
    )


def test_a_case_error_under_xfail_still_fails(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml", x=cases_file(case("broken", BROKEN, "    xfail: grader bug 7\n"))
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*'broken' cannot be evaluated*"])


def test_runxfail_runs_xfail_cases_as_plain_cases(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        x=cases_file(
            case("known-bug", MISMATCH, "    xfail: grader bug 7\n"),
            case("fixed-now", MATCH, "    xfail: grader bug 8\n"),
        ),
    )
    pytester.runpytest("--runxfail").assert_outcomes(passed=1, failed=1)


MARKED = cases_file(
    case("slow-one", MATCH, "    marks: [slow, nightly]\n"),
    case("plain", MATCH),
    head="marks: [newsroom]\n",
)


def test_marks_select_cases_with_dash_m_at_file_and_case_level(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nmarkers =\n    slow\n    nightly\n    newsroom\n")
    pytester.makefile(".rubric.yaml", m=MARKED)
    pytester.runpytest("-m", "slow").assert_outcomes(passed=1, deselected=1)
    pytester.runpytest("-m", "newsroom").assert_outcomes(passed=2)
    pytester.runpytest("-m", "not nightly").assert_outcomes(passed=1, deselected=1)


def test_an_unregistered_mark_is_pytests_warning_at_the_case_files_line(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini("[pytest]\nmarkers =\n    slow\n    newsroom\n")
    pytester.makefile(".rubric.yaml", m=MARKED)
    # In a process of its own: pytest remembers registered markers per process.
    result = pytester.runpytest_subprocess("-m", "nightly")
    result.assert_outcomes(passed=1, deselected=1, warnings=1)
    result.stdout.fnmatch_lines(
        [
            "  m.rubric.yaml:5: PytestUnknownMarkWarning: m.rubric.yaml:5:19: Unknown pytest.mark.nightly*"
        ]
    )


def test_an_unregistered_mark_is_an_error_under_strict_markers(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nmarkers =\n    slow\n    newsroom\n")
    pytester.makefile(".rubric.yaml", m=MARKED)
    result = pytester.runpytest_subprocess("--strict-markers")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "  m.rubric.yaml:5:19: 'nightly' not found in `markers` configuration option; "
            "register the marker under 'markers' in pytest's configuration, or remove it"
        ]
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("    skip: '  '\n", "4:11: 'skip' needs a reason: non-blank text, not *"),
        ("    skip: true\n", "4:11: 'skip' needs a reason: non-blank text, not true (a boolean)*"),
        ("    xfail: {reason: x, strict: 'yes'}\n", "4:32: 'strict' must be true or false, not *"),
        (
            "    xfail: {reason: x, stirct: false}\n",
            "4:24: 'stirct' is not an xfail key; did you mean 'strict'?",
        ),
        ("    xfail: {strict: false}\n", "4:12: 'xfail' needs a 'reason'*"),
        ("    marks: slow\n", "4:12: 'marks' must be a list of marker names*"),
        ("    marks: [slow(3)]\n", "4:13: a mark is a plain marker name*"),
        (
            "    marks: [skipif]\n",
            "4:13: 'skipif' cannot be a mark here: conditions are not evaluated*",
        ),
        ("    mark: [slow]\n", "4:5: 'mark' is not a case key; did you mean 'marks'?"),
    ],
    ids=[
        "blank-skip",
        "skip-not-text",
        "strict-not-bool",
        "misspelt-key",
        "no-reason",
        "marks-not-list",
        "mark-with-arguments",
        "reserved-mark",
        "misspelt-marks",
    ],
)
def test_wrong_mark_keys_are_positioned_problems_of_their_case(extra: str, message: str) -> None:
    text = cases_file(case("bad", MATCH, extra), case("good", MATCH))
    bad, good = parse_case_file(text.encode(), "k.rubric.yaml").cases
    assert len(bad.problems) == 1
    assert fnmatch(str(bad.problems[0]), f"k.rubric.yaml:{message}")
    assert good.problems == ()


def test_a_wrong_file_level_mark_key_is_an_error_of_the_file() -> None:
    text = cases_file(case("good", MATCH), head="xfail: ''\n")
    with pytest.raises(CaseFileError) as raised:
        parse_case_file(text.encode(), "k.rubric.yaml")
    assert fnmatch(str(raised.value), "k.rubric.yaml:2:8: 'xfail' needs a reason: non-blank text*")


def test_junit_and_xdist_show_the_same_outcomes(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        x=cases_file(
            case("parked", MATCH, "    skip: parked\n"),
            case("known-bug", MISMATCH, "    xfail: bug\n"),
            case("maybe", MATCH, "    xfail: {reason: flaky, strict: false}\n"),
            case("fixed-now", MATCH, "    xfail: bug\n"),
            case("plain", MATCH),
        ),
    )
    outcomes = dict(skipped=1, xfailed=1, xpassed=1, failed=1, passed=1)
    pytester.runpytest("--junitxml=j.xml").assert_outcomes(**outcomes)
    pytester.runpytest("-n", "2", "-p", "no:randomly").assert_outcomes(**outcomes)
    suite = ET.parse(pytester.path / "j.xml").getroot()[0]
    assert suite.get("skipped") == "2"
    assert suite.get("failures") == "1"
    kinds = {case.get("name"): [child.tag for child in case] for case in suite.iter("testcase")}
    assert kinds["parked"][-1] == "skipped"
    assert kinds["known-bug"][-1] == "skipped"
    assert kinds["fixed-now"][-1] == "failure"


UNDERSCORED = (
    "evaluator: reason\ncases:\n  - id: a\n    marks: [{name}]\n"
    "    input: {{fields: {{title: true, source: true}}, pass: true, reasons: [all-required-met]}}\n"
    "    expected: {{expectedPass: true, expectedReasons: [all-required-met], coherent: true}}\n"
    "  - id: b\n"
    "    input: {{fields: {{title: true, source: true}}, pass: true, reasons: [all-required-met]}}\n"
    "    expected: {{expectedPass: true, expectedReasons: [all-required-met], coherent: true}}\n"
)


@pytest.mark.parametrize("name", ["_private", "_", "__class__", "_config"])
def test_a_marker_name_starting_with_an_underscore_is_a_problem_of_its_case(name: str) -> None:
    marked, plain = parse_case_file(
        UNDERSCORED.format(name=name).encode(), "cases.rubric.yaml"
    ).cases
    assert len(marked.problems) == 1
    assert fnmatch(
        str(marked.problems[0]), f"cases.rubric.yaml:4:13: *{name}* cannot be a mark*rename it*"
    )
    assert marked.marks.names == ()
    assert plain.problems == ()


def test_a_marker_name_pytest_itself_holds_never_reaches_pytest(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", cases=UNDERSCORED.format(name="__class__"))
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*cases.rubric.yaml:4:13: *__class__* cannot be a mark*rename it*"]
    )
    result.stdout.no_fnmatch_line("*Traceback*")
    assert "INTERNALERROR" not in result.stdout.str()


@pytest.mark.parametrize("args", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_skip_and_xfail_reasons_are_recorded_as_written_and_shown_escaped(
    pytester: pytest.Pytester, args: list[str]
) -> None:
    reason = "tab\\there \\e[31mred\\e[0m \\u202e (bug 7)"
    pytester.makefile(
        ".rubric.yaml",
        x=cases_file(
            case("parked", MATCH, f'    skip: "{reason}"\n'),
            case("known-bug", MISMATCH, f'    xfail: "{reason}"\n'),
        ),
    )
    result = pytester.runpytest("--rubric-report=r.json", "-rsx", *args)
    result.assert_outcomes(skipped=1, xfailed=1)
    written = "tab\there \x1b[31mred\x1b[0m \u202e (bug 7)"
    records = _records(pytester)
    assert records["parked"]["reason"] == written
    assert records["known-bug"]["reason"] == written
    assert "\x1b" not in result.stdout.str()
    result.stdout.fnmatch_lines(["*tab\\there \\x1b[31mred*"])
