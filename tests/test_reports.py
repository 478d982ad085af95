"""Review-ready output: the terminal summary, the JSON report and JUnit properties, xdist too."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, cast

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.core.errors import ReportWriteError
from pytest_rubric.reports.jsonreport import schema, write_atomically

EXAMPLE = Path(__file__).parent.parent / "example_project"

MIXED = """\
evaluator: agreement
cases:
  - id: ledger-ok
    input: {rows: [{id: A, a: true, b: false}, {id: B, a: true, b: true}]}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 0}, agreement: 1, total: 2, disagreements: [A]}
  - id: ledger-wrong
    input: {rows: [{id: A, a: false, b: true}]}
    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 0, bOnly: 1}, agreement: 1, total: 1, disagreements: [A]}
  - id: no-rows
    input: {rows: nope}
    expected: {error: review-label}
  - id: quoted
    input: {rows: [{id: A, a: "true", b: true}]}
    expected: {error: review-label}
"""

REASONS = """\
evaluator: reason
cases:
  - id: fine
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
  - id: typo
    input: {fields: {title: true, source: true}, pass: true, reasons: []}
    expectd: {}
"""


def validate(report: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    jsonschema.validate(report, schema(), cls=jsonschema.Draft202012Validator)


def test_the_summary_counts_each_evaluator_and_shows_each_ledger(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledgers=MIXED, reasons=REASONS)
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "*= rubric summary =*",
            "agreement: 4 cases, 2 matched, 1 mismatched, 1 case error",
            "reason: 2 cases, 1 matched, 0 mismatched, 1 case error",
            "agreement ledgers (2):",
            "  ledgers.rubric.yaml::ledger-ok",
            '    bothPass 1, bothFail 0, aOnly 1, bOnly 0; agreement 1/2; disagreements: "A"',
            "  ledgers.rubric.yaml::ledger-wrong [[]mismatched[]]",
            '    bothPass 0, bothFail 0, aOnly 0, bOnly 1; agreement 0/1; disagreements: "A"',
            "write the full report with: pytest --rubric-report=rubric-report.json",
            "*= short test summary info =*",
        ],
        consecutive=True,
    )


def test_the_summary_bounds_long_lists(pytester: pytest.Pytester) -> None:
    rows = ", ".join(f"{{id: r{n}, a: true, b: false}}" for n in range(13))
    ids = ", ".join(f"r{n}" for n in range(13))
    case = (
        "  - id: big-{n}\n    input: {{rows: [{rows}]}}\n"
        "    expected: {{matrix: {{bothPass: 0, bothFail: 0, aOnly: 13, bOnly: 0}}, agreement: 0, "
        "total: 13, disagreements: [{ids}]}}\n"
    )
    body = "".join(case.format(n=n, rows=rows, ids=ids) for n in range(12))
    pytester.makefile(".rubric.yaml", big=f"evaluator: agreement\ncases:\n{body}")
    result = pytester.runpytest("--rubric-report=out/r.json")
    result.stdout.fnmatch_lines(
        [
            "agreement: 12 cases, 12 matched, 0 mismatched, 0 case errors",
            "agreement ledgers (12):",
            "  big.rubric.yaml::big-0",
            "    bothPass 0, bothFail 0, aOnly 13, bOnly 0; agreement 0/13; "
            'disagreements: "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", and 3 more',
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(["  and 2 more", "full report: out/r.json"], consecutive=True)


def test_no_summary_appears_when_no_rubric_case_ran(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    assert True\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    assert "rubric summary" not in result.stdout.str()


def test_the_json_report_has_a_valid_record_per_case(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledgers=MIXED, reasons=REASONS)
    pytester.runpytest("--rubric-report=report.json").assert_outcomes(passed=3, failed=3)
    report = json.loads((pytester.path / "report.json").read_text())
    validate(report)
    assert (report["format"], report["version"]) == ("pytest-rubric-report", 4)
    assert report["exitStatus"] == 1
    assert report["shard"] is None
    assert report["suite"]["collected"] == report["suite"]["selected"] == 6
    rare = {"skipped": 0, "xfailed": 0, "xpassed": 0}
    assert report["summary"] == {
        "cases": 6,
        "matched": 3,
        "mismatched": 1,
        "caseErrors": 2,
        **rare,
        "evaluators": {
            "agreement": {"cases": 4, "matched": 2, "mismatched": 1, "caseErrors": 1, **rare},
            "reason": {"cases": 2, "matched": 1, "mismatched": 0, "caseErrors": 1, **rare},
        },
    }
    by_id = {case["case"]: case for case in report["cases"]}
    assert [case["nodeid"] for case in report["cases"]] == [
        "ledgers.rubric.yaml::ledger-ok",
        "ledgers.rubric.yaml::ledger-wrong",
        "ledgers.rubric.yaml::no-rows",
        "ledgers.rubric.yaml::quoted",
        "reasons.rubric.yaml::fine",
        "reasons.rubric.yaml::typo",
    ]
    wrong = by_id["ledger-wrong"]
    assert {
        key: wrong[key] for key in ("file", "line", "evaluator", "outcome", "differingKeys")
    } == {
        "file": "ledgers.rubric.yaml",
        "line": 6,
        "evaluator": "agreement",
        "outcome": "mismatched",
        "differingKeys": ["agreement"],
    }
    assert wrong["input"] == {"rows": [{"id": "A", "a": False, "b": True}]}
    assert wrong["actual"]["agreement"] == 0
    assert wrong["evidence"] == {
        "facts": {
            "matrix": {"bothPass": 0, "bothFail": 0, "aOnly": 0, "bOnly": 1},
            "agreement": "0/1",
            "disagreements": ["A"],
        },
        "problem": None,
    }
    assert by_id["quoted"]["evidence"]["problem"].startswith(
        "rows[0].a (id 'A') is \"true\" (a string)"
    )
    assert by_id["no-rows"]["outcome"] == "case-error"
    assert "actual" not in by_id["no-rows"]
    assert by_id["typo"]["problems"] == [
        "reasons.rubric.yaml:8:5: 'expectd' is not a case key; did you mean 'expected'?",
        "reasons.rubric.yaml:6:5: the case has no 'expected'; add 'expected:' with the exact "
        "expected answer as a mapping, or run 'pytest --rubric-update=new' to write the "
        "evaluator's answer there",
    ]
    fine = by_id["fine"]["evidence"]["facts"]
    assert fine["reasons"] == {
        "recorded": ["all-required-met"],
        "rubric": ["all-required-met"],
        "match": True,
    }


def test_the_report_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text('{"old": true}\n')
    with pytest.raises(ReportWriteError, match="not JSON serializable"):
        write_atomically(target, {"cases": [1, 2, object()]})  # fails part-way through
    assert json.loads(target.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left
    write_atomically(target, {"new": [1]})
    assert json.loads(target.read_text()) == {"new": [1]}


def test_an_interrupted_run_still_leaves_a_complete_report(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        from pytest_rubric import Evaluator, hookimpl

        def stop(record):
            raise KeyboardInterrupt

        @hookimpl
        def rubric_evaluators():
            return [Evaluator(name="stop", description="Interrupts the run.", evaluate=stop)]
        """
    )
    pytester.makefile(".rubric.yaml", a=f"{REASONS.split('  - id: typo')[0]}")
    pytester.makefile(
        ".rubric.yaml", z="evaluator: stop\ncases:\n  - {id: halt, input: {}, expected: {}}\n"
    )
    result = pytester.runpytest_subprocess("--rubric-report=report.json", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    report = json.loads((pytester.path / "report.json").read_text())
    validate(report)
    assert [case["case"] for case in report["cases"]] == ["fine"]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (
            "taken.txt/report.json",
            "cannot write taken.txt/report.json: */taken.txt is not a writable folder; *",
        ),
        ("somedir", "somedir is a directory; give a file name, e.g. somedir/rubric-report.json"),
    ],
)
def test_an_unwritable_report_path_is_a_usage_error_before_any_case_runs(
    pytester: pytest.Pytester, path: str, message: str
) -> None:
    (pytester.path / "taken.txt").write_text("a file, not a folder")
    (pytester.path / "somedir").mkdir()
    pytester.makefile(".rubric.yaml", ledgers=MIXED)
    result = pytester.runpytest(f"--rubric-report={path}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*argument --rubric-report: {message}"])
    assert "collected" not in result.stdout.str()


def test_missing_report_folders_are_created(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledgers=MIXED)
    pytester.runpytest("--rubric-report=reports/nightly/rubric.json")
    validate(json.loads((pytester.path / "reports/nightly/rubric.json").read_text()))


def junit_properties(path: Path) -> dict[str, dict[str, str]]:
    tree = ET.parse(path)
    found = {}
    for case in tree.iter("testcase"):
        properties = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
        found[properties["rubric_case"]] = properties
    return found


def test_junit_xml_carries_case_id_evaluator_and_location(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledgers=MIXED)
    pytester.runpytest("--junitxml=junit.xml")
    properties = junit_properties(pytester.path / "junit.xml")
    assert properties["ledger-wrong"] == {
        "rubric_case": "ledger-wrong",
        "rubric_evaluator": "agreement",
        "rubric_location": "ledgers.rubric.yaml:6",
    }
    assert len(properties) == 4


def _without_timings(report: dict[str, Any]) -> dict[str, Any]:
    for case in report["cases"]:
        del case["duration"]
    return report


def test_under_xdist_the_controller_merges_the_same_report_as_a_serial_run(
    pytester: pytest.Pytester,
) -> None:
    project = pytester.path / "example_project"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns(".pytest_cache", "__pycache__"))
    # One mismatch, so the merged report has all three kinds of record.
    ledger = project / "rubrics/newsroom/judge-vs-editor.rubric.yaml"
    ledger.write_text(ledger.read_text().replace("agreement: 4\n", "agreement: 5\n"))
    pytester.chdir()
    common = ["example_project", "-p", "no:cacheprovider"]
    serial = pytester.runpytest_subprocess(
        *common, "--rubric-report=serial.json", "--junitxml=serial.xml"
    )
    parallel = pytester.runpytest_subprocess(
        *common, "-n", "2", "--rubric-report=parallel.json", "--junitxml=parallel.xml"
    )
    assert serial.ret == parallel.ret == pytest.ExitCode.TESTS_FAILED
    parallel.stdout.fnmatch_lines(
        [
            "*2 workers*",
            "*= rubric summary =*",
            "agreement: 22 cases, 19 matched, 1 mismatched, 0 case errors, 1 skipped, 1 xfailed",
        ]
    )
    serial_report = json.loads((pytester.path / "serial.json").read_text())
    parallel_report = json.loads((pytester.path / "parallel.json").read_text())
    validate(parallel_report)
    collected = pytester.runpytest_subprocess(*common, "--collect-only", "-q").stdout.lines
    assert len(parallel_report["cases"]) == sum("::" in line for line in collected) > 0
    assert _without_timings(parallel_report) == _without_timings(serial_report)
    assert junit_properties(pytester.path / "parallel.xml") == junit_properties(
        pytester.path / "serial.xml"
    )


def test_a_full_record_keeps_each_mapping_exactly_as_the_case_file_writes_it() -> None:
    from pytest_rubric.casefiles.loader import parse_case_file
    from pytest_rubric.core.evaluator import Evaluator
    from pytest_rubric.reports.caserecords import RecordOf, full_record, input_set_apart, stopped
    from pytest_rubric.reports.sealing import sealed, unsealed
    from pytest_rubric.running.runner import run_case

    text = "evaluator: x\ncases:\n  - id: a\n    input: {n: 1}\n    expected: {n: 1.0, t: true}\n"
    (case,) = parse_case_file(text.encode(), "c.rubric.yaml").cases
    answers_null = Evaluator(name="x", description="answers null", evaluate=lambda data: None)
    outcome = run_case(case, answers_null, path="c.rubric.yaml", source="")
    record = full_record(RecordOf(case, "c::a", "c.rubric.yaml", "", "x"), outcome)
    assert input_set_apart(record)  # the case's packed text, set in as it is when sealed
    written = unsealed(sealed(record, cast(str, case.packed_input)))
    assert json.dumps(written["input"]) == '{"n": 1}'  # 1 stays 1, true stays true
    assert json.dumps(record["expected"]) == '{"n": 1.0, "t": true}'
    assert "actual" in record
    assert record["actual"] is None
    assert record["evidence"] is None
    # A case stopped after it ran loses its answer, even a null one; the record it
    # was made from keeps its own.
    error = stopped(record, "case-error", "its teardown failed: OSError")
    assert "actual" not in error
    assert error["expected"] == record["expected"]
    assert "actual" in record


def test_a_case_its_file_keeps_from_running_is_recorded_with_an_empty_input() -> None:
    from pytest_rubric.casefiles.loader import parse_case_file
    from pytest_rubric.core.evaluator import Evaluator
    from pytest_rubric.reports.caserecords import RecordOf, full_record
    from pytest_rubric.running.runner import run_case

    text = "evaluator: x\ncases:\n  - id: 'a::b'\n    input: {n: 1}\n    expected: {n: 1}\n"
    (case,) = parse_case_file(text.encode(), "c.rubric.yaml").cases
    echo = Evaluator(name="x", description="echo", evaluate=lambda data: dict(data))
    outcome = run_case(case, echo, path="c.rubric.yaml", source="")
    assert outcome.outcome == "case-error"
    record = full_record(RecordOf(case, "c::x", "c.rubric.yaml", "", "x"), outcome)
    assert record["input"] == {}
    assert record["expected"] == {"n": 1}


def test_a_review_row_is_kept_as_it_was_when_yielded() -> None:
    from collections.abc import Callable, Iterator, Mapping

    from pytest_rubric.casefiles.loader import parse_case_file
    from pytest_rubric.core.evaluator import Evaluator, OnLedger
    from pytest_rubric.running.runner import run_case

    def one_dict_changed(ledger: Mapping[str, Any], where: Callable[[int], str]) -> Iterator[Any]:
        row = {"n": 0}
        for n in range(3):
            row["n"] = n
            yield row

    text = "evaluator: x\ncases:\n  - id: a\n    input: {}\n    expected: {}\n"
    (case,) = parse_case_file(text.encode(), "c.rubric.yaml").cases
    evaluator = Evaluator(
        name="x",
        description="x",
        evaluate=lambda data: {},
        ledger=OnLedger(review=one_dict_changed),
    )
    outcome = run_case(case, evaluator, path="c.rubric.yaml", source="", review_limit=10)
    assert outcome.review == {"rows": [{"n": 0}, {"n": 1}, {"n": 2}], "more": 0}


#: Values of JSON's own types as the runner checks answers and facts, with what a report
#: cannot take as it is: lone surrogates (in text and keys) and integers too long to print.
_checked_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([4299, 5000]).map(lambda digits: -(10**digits))
    | st.sampled_from([2**64, -0.0, 1e300])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet='aé\u2028\ud800\udfff\x00"\\', max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet="k\ud834é", max_size=2), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(value=_checked_values)
def test_a_report_holds_an_answer_as_its_plain_copy_one_record_a_line(value: Any) -> None:
    """A record keeps the answer as the plain copy (what every JSON encoder can carry),
    and the report writes each record on a line of its own, as json's encoder writes it."""
    import tempfile

    from pytest_rubric.casefiles.loader import parse_case_file
    from pytest_rubric.core.evaluator import Evaluator
    from pytest_rubric.core.jsonvalues import plain
    from pytest_rubric.editing.readback import identical
    from pytest_rubric.reports.caserecords import RecordOf, full_record
    from pytest_rubric.reports.jsonreport import document, write_report
    from pytest_rubric.running.runner import run_case

    text = "evaluator: x\ncases:\n  - id: a\n    input: {n: 1}\n    expected: {n: 1}\n"
    (case,) = parse_case_file(text.encode(), "c.rubric.yaml").cases
    answers = Evaluator(name="x", description="x", evaluate=lambda data: value)
    outcome = run_case(case, answers, path="c.rubric.yaml", source="")
    record = full_record(RecordOf(case, "c::a", "c.rubric.yaml", "", "x"), outcome)
    assert identical(record["actual"], plain(value))
    data = document([record, record], 0, "0", suite=None, shard=None)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.json"
        write_report(path, data)
        written = path.read_text(encoding="utf-8")
    assert identical(json.loads(written), json.loads(json.dumps(data)))
    line = json.JSONEncoder(ensure_ascii=False).encode(record)
    assert written.split("\n")[1:3] == [f"{line},", line]


@pytest.mark.parametrize(
    "args",
    [
        ["--rubric-schema=schema.json"],
        ["--rubric-schema=schema.json", "-n", "2"],
        ["--collect-only"],
        ["--rubric-evaluators"],
        ["--fixtures"],
        ["--fixtures-per-test"],
        ["--setup-plan"],
        ["--setup-only"],
        ["-m", "unknown", "--strict-markers"],
        ["-m", "unknown", "--strict-markers", "-n", "2"],
    ],
    ids=[
        "schema",
        "schema-xdist",
        "collect-only",
        "evaluators",
        "fixtures",
        "fixtures-per-test",
        "setup-plan",
        "setup-only",
        "usage-error",
        "usage-error-xdist",
    ],
)
def test_a_run_that_runs_no_case_by_how_it_was_asked_leaves_the_report_and_page_alone(
    pytester: pytest.Pytester, args: list[str]
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        seeds="evaluator: reason\ncases:\n  - id: a\n    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}\n    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}\n",
    )
    if "unknown" in args and int(pytest.__version__.split(".")[0]) < 9:
        pytest.skip("pytest 8 runs -m with an unknown marker (selecting nothing), no usage error")
    (pytester.path / "report.json").write_text('{"kept": true}')
    (pytester.path / "page.html").write_text("<p>kept</p>")
    pytester.runpytest_subprocess("--rubric-report=report.json", "--rubric-html=page.html", *args)
    assert (pytester.path / "report.json").read_text() == '{"kept": true}'
    assert (pytester.path / "page.html").read_text() == "<p>kept</p>"


@pytest.mark.parametrize(
    "args", [(), ("-n", "2", "--rubric-report=r.json")], ids=["serial", "xdist-report"]
)
def test_the_summary_says_why_each_case_was_skipped_or_xfailed(
    pytester: pytest.Pytester, args: tuple[str, ...]
) -> None:
    met = "{fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}"
    answer = "{expectedPass: true, expectedReasons: [all-required-met], coherent: true}"
    pytester.makefile(
        ".rubric.yaml",
        c=f"""\
evaluator: reason
cases:
  - id: parked
    skip: the export is being re-labelled
    input: {met}
    expected: {answer}
  - id: known-wrong
    xfail: the rubric change is under review
    input: {met}
    expected: {{expectedPass: false, expectedReasons: [all-required-met], coherent: true}}
""",
    )
    result = pytester.runpytest("-p", "no:randomly", *args)
    result.assert_outcomes(skipped=1, xfailed=1)
    result.stdout.fnmatch_lines(
        [
            "skipped and xfailed cases (2):",
            "  c.rubric.yaml::parked [[]skipped]: the export is being re-labelled",
            "  c.rubric.yaml::known-wrong [[]xfailed]: the rubric change is under review",
        ]
    )


@given(
    value=st.dictionaries(st.text(alphabet="kés\ud800", max_size=3), _checked_values, max_size=4),
    skipped=st.booleans(),
)
def test_a_sealed_record_takes_the_packed_input_as_encoding_its_copy_writes_it(
    value: dict[str, Any], skipped: bool
) -> None:
    """A full record's ``input`` set apart as the case's packed text is sealed into the
    text the report writes exactly as the record with the input's plain copy encodes;
    an input that packs as no text stays in the record."""
    from pytest_rubric.casefiles.cases import Case, Place
    from pytest_rubric.core.packed import pack, plain_copy
    from pytest_rubric.reports.caserecords import RecordOf, full_record, input_set_apart
    from pytest_rubric.reports.sealing import encode_record, sealed

    case = Case(name="a", index=0, place=Place(line=3, col=5), packed_input=pack(value))
    ended: Any = ("skipped", "a reason") if skipped else None
    record = full_record(RecordOf(case, "c::a", "c.rubric.yaml", "", "x"), None, ended)
    # The record as it would be with its input's plain copy: the input after the head.
    items = list(record.items())
    rest = [(key, value) for key, value in items[7:] if key != "input"]
    whole: Any = dict([*items[:7], ("input", plain_copy(case.packed_input)), *rest])
    if type(case.packed_input) is str:
        assert input_set_apart(record)
        assert sealed(record, case.packed_input) == sealed(whole)
    else:
        assert not input_set_apart(record)
        assert list(record.items()) == list(whole.items())
    assert sealed(whole)["sealed"] == encode_record(whole)
