"""Rows to review: each ledger's disagreement rows in ``--rubric-report`` (bounded), and the
review page that ``--rubric-html`` and ``python -m pytest_rubric html`` write from them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _schemas import diff_schema
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.inputs.wholejson import _row_offsets, read_json_with_row_lines
from pytest_rubric.reports.diff import compare
from pytest_rubric.reports.htmlpage import embedded_json, review_page
from pytest_rubric.reports.jsonreport import schema
from pytest_rubric.reports.pagedata import page_data

LEDGERS = """\
evaluator: agreement
cases:
  - id: inline
    input:
      rows:
        - {id: A, a: true, b: false, headline: "<b>bold</b>", note: first}
        - {id: B, a: true, b: true}
        - {id: "A ", a: false, b: true, url: "https://example.test/x"}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 1}, agreement: 1, total: 3, disagreements: [A, "A "]}
  - id: from-file
    input_file: week.jsonl
    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 3, bOnly: 2}, agreement: 0, total: 5, disagreements: [r1, r2, r3, r4, r5]}
  - id: broken
    input: {rows: [{id: A, a: "yes", b: true}]}
    expected: {error: review-label}
"""
WEEK = "".join(
    json.dumps({"id": f"r{n}", "a": n % 2 == 1, "b": n % 2 == 0, "note": f"n{n}"}) + "\n"
    for n in range(1, 6)
)


def _project(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledgers=LEDGERS)
    pytester.path.joinpath("week.jsonl").write_text(WEEK, encoding="utf-8")


def _report(pytester: pytest.Pytester, *args: str) -> dict[str, Any]:
    pytester.runpytest("--rubric-report=report.json", *args).assert_outcomes(passed=3)
    report: dict[str, Any] = json.loads(pytester.path.joinpath("report.json").read_text())
    jsonschema.validate(report, schema())
    return report


def test_a_report_keeps_each_ledgers_disagreement_rows_with_their_place(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester)
    by_id = {case["case"]: case for case in _report(pytester)["cases"]}
    assert by_id["inline"]["review"] == {
        "rows": [
            {
                "id": "A",
                "a": True,
                "b": False,
                "side": "aOnly",
                "where": "ledgers.rubric.yaml:6",
                "fields": {"headline": "<b>bold</b>", "note": "first"},
            },
            {
                "id": "A ",
                "a": False,
                "b": True,
                "side": "bOnly",
                "where": "ledgers.rubric.yaml:8",
                "fields": {"url": "https://example.test/x"},
            },
        ],
        "more": 0,
    }
    rows = by_id["from-file"]["review"]["rows"]
    assert [(row["id"], row["side"], row["where"]) for row in rows] == [
        (f"r{n}", "aOnly" if n % 2 else "bOnly", f"week.jsonl:{n}") for n in range(1, 6)
    ]
    assert rows[0]["fields"] == {"note": "n1"}
    assert "review" not in by_id["broken"]  # an invalid ledger has nothing to review


def test_a_review_row_in_a_json_input_file_or_a_flow_list_is_named_by_its_own_line(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        ledgers="""\
evaluator: agreement
cases:
  - id: json-file
    input_file: week.json
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 1}, agreement: 1, total: 3, disagreements: ["x", "z"]}
  - id: flow
    input: {rows: [{id: p, a: true, b: false},
                   {id: q, a: true, b: true}, {id: r, a: false, b: true}]}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 1}, agreement: 1, total: 3, disagreements: [p, r]}
""",
    )
    # A BOM, CRLF line ends, an earlier member holding "rows" as text, and rows that
    # span lines: each row is named by the line its "{" is on.
    week = (
        '\ufeff{"note": "rows: [\\"not these\\"]", "nested": {"rows": [1, 2]},\r\n'
        ' "rows" : [\r\n  {"id": "x", "a": true, "b": false},\r\n'
        '  {"id": "y", "a": true,\r\n   "b": true},\r\n'
        '\r\n  {"id": "z", "a": false, "b": true}\r\n ]\r\n}'
    )
    pytester.path.joinpath("week.json").write_bytes(week.encode("utf-8"))
    pytester.runpytest("--rubric-report=report.json").assert_outcomes(passed=2)
    report = json.loads(pytester.path.joinpath("report.json").read_text())
    jsonschema.validate(report, schema())
    where = {
        case["case"]: [(row["id"], row["where"]) for row in case["review"]["rows"]]
        for case in report["cases"]
    }
    assert where == {
        "json-file": [("x", "week.json:3"), ("z", "week.json:7")],
        "flow": [("p", "ledgers.rubric.yaml:7"), ("r", "ledgers.rubric.yaml:8")],
    }


def test_review_rows_are_bounded_per_ledger_and_the_rest_counted(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester)
    by_id = {case["case"]: case for case in _report(pytester, "--rubric-review-rows=2")["cases"]}
    assert [row["id"] for row in by_id["from-file"]["review"]["rows"]] == ["r1", "r2"]
    assert by_id["from-file"]["review"]["more"] == 3
    assert by_id["inline"]["review"]["more"] == 0


def test_a_review_row_count_that_is_not_a_count_is_a_usage_error(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester)
    result = pytester.runpytest("--rubric-review-rows=-1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*'-1' is not a count of rows; give a whole number, 0 or more*"])


def test_rubric_html_writes_the_page_at_the_end_of_a_run_under_xdist_too(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester)
    pytester.runpytest("-n", "2", "--rubric-html=out/review.html").assert_outcomes(passed=3)
    page = pytester.path.joinpath("out", "review.html").read_text(encoding="utf-8")
    data = _embedded(page)
    assert [ledger["case"] for ledger in data["ledgers"]] == ["inline", "from-file"]
    assert [passed["case"] for passed in data["passed"]] == ["inline", "from-file", "broken"]
    assert not pytester.path.joinpath("report.json").exists()


def _html_command(folder: Path, report: str) -> subprocess.CompletedProcess[str]:
    """``python -m pytest_rubric html REPORT -o page.html`` run in ``folder``."""
    return subprocess.run(
        [sys.executable, "-m", "pytest_rubric", "html", report, "-o", "page.html"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_html_command_writes_a_page_from_one_report(pytester: pytest.Pytester) -> None:
    _project(pytester)
    _report(pytester)
    result = _html_command(pytester.path, "report.json")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("html: 1 report, 3 cases -> page.html")
    assert _embedded(pytester.path.joinpath("page.html").read_text(encoding="utf-8"))["ledgers"]


def test_the_html_command_refuses_a_file_that_is_not_a_report(tmp_path: Path) -> None:
    tmp_path.joinpath("junk.json").write_text('{"format": "other"}', encoding="utf-8")
    result = _html_command(tmp_path, "junk.json")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "not a report to show" in result.stderr
    assert not tmp_path.joinpath("page.html").exists()


def test_zero_review_rows_means_no_rows_not_no_ledgers(pytester: pytest.Pytester) -> None:
    _project(pytester)
    by_id = {case["case"]: case for case in _report(pytester, "--rubric-review-rows=0")["cases"]}
    assert by_id["from-file"]["review"] == {"rows": [], "more": 5}
    assert by_id["inline"]["review"] == {"rows": [], "more": 2}
    pytester.runpytest("--rubric-html=page.html", "--rubric-review-rows=0").assert_outcomes(
        passed=3
    )
    ledgers = _embedded(pytester.path.joinpath("page.html").read_text(encoding="utf-8"))["ledgers"]
    assert [(ledger["case"], ledger["rows"], ledger["more"]) for ledger in ledgers] == [
        ("inline", [], 2),
        ("from-file", [], 5),
    ]


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        (
            "review",
            {"rows": "A", "more": 0},
            "cases[0].review is not {rows: [{...}, ...], more: a count}",
        ),
        (
            "review",
            {"rows": [], "more": -1},
            "cases[0].review is not {rows: [{...}, ...], more: a count}",
        ),
        ("problems", "broken", "cases[0].problems is not a list of text"),
        ("differingKeys", [1], "cases[0].differingKeys is not a list of text"),
        (
            "evidence",
            {"facts": []},
            "cases[0].evidence is neither null nor {facts: {...}, problem: text or null}",
        ),
        ("duration", "1s", "cases[0].duration is not a number of seconds"),
    ],
)
def test_the_html_command_refuses_a_report_of_the_wrong_shape_in_one_line(
    pytester: pytest.Pytester, key: str, value: Any, words: str
) -> None:
    _project(pytester)
    report = _report(pytester)
    report["cases"][0][key] = value
    pytester.path.joinpath("forged.json").write_text(json.dumps(report), encoding="utf-8")
    result = _html_command(pytester.path, "forged.json")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr
    assert not pytester.path.joinpath("page.html").exists()


HOSTILE = "</script><script>alert(1)</script>&amp;\u2028\u2029<!--"


def test_embedded_json_cannot_end_its_script_element_or_break_a_line() -> None:
    text = embedded_json({"id": HOSTILE})
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == {"id": HOSTILE}


def test_data_reaches_the_page_only_inside_its_json_element() -> None:
    report = {
        "cases": [
            {
                "case": HOSTILE,
                "file": "x.rubric.yaml",
                "line": 1,
                "evaluator": "agreement",
                "outcome": "mismatched",
                "expected": {"total": 2},
                "actual": {"matrix": {}, "agreement": 0, "total": 1, "disagreements": []},
                "review": {"rows": [{"id": HOSTILE, "side": "aOnly"}], "more": 0},
                "evidence": None,
                "problems": [],
            }
        ]
    }
    page = review_page(report)
    assert page.count("<script") == 2  # the data element and the page's own script
    assert "alert(1)" not in page.replace(embedded_json(page_data(report)), "")
    assert 'src="http' not in page
    assert "href=" not in page
    data = _embedded(page)
    assert data["problems"][0]["differing"] == [  # JSON text, keys in the report's order
        {"key": "total", "expected": "2", "actual": "1"},
        {"key": "matrix", "actual": "{}"},
        {"key": "agreement", "actual": "0"},
        {"key": "disagreements", "actual": "[]"},
    ]


def _embedded(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="rubric-data">(.*?)</script>', page)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    before=st.dictionaries(st.text(max_size=4).filter(lambda k: k != "rows"), _values, max_size=3),
    rows=st.lists(_values, max_size=5),
    indent=st.none() | st.integers(0, 3),
    crlf=st.booleans(),
)
def test_each_json_row_is_found_at_the_line_it_is_written_on(
    tmp_path_factory: pytest.TempPathFactory,
    before: dict[str, Any],
    rows: list[Any],
    indent: int | None,
    crlf: bool,
) -> None:
    text = json.dumps({**before, "rows": rows, "after": before}, indent=indent)
    path = tmp_path_factory.mktemp("json") / "ledger.json"
    path.write_bytes(text.replace("\n", "\r\n" if crlf else "\n").encode("utf-8"))
    value, lines = read_json_with_row_lines(path, "ledger.json")
    assert value["rows"] == rows
    offsets = _row_offsets(text)
    # Each offset is where its row's text starts (decoding there gives that row and
    # ends before the next row starts), and the line is the one that offset is on.
    decoder = json.JSONDecoder()
    ends = [decoder.raw_decode(text, at) for at in offsets]
    assert [row for row, _ in ends] == rows
    assert all(end <= later for (_, end), later in zip(ends, offsets[1:], strict=False))
    assert all(text.rfind('"rows"', 0, at) != -1 for at in offsets)
    assert lines == [text.count("\n", 0, at) + 1 for at in offsets]


def test_without_a_baseline_the_page_is_as_it_was(pytester: pytest.Pytester) -> None:
    _project(pytester)
    report = _report(pytester)
    assert review_page(report, None) == review_page(report)
    data = _embedded(review_page(report))
    assert "comparison" not in data
    assert all("since" not in case for case in data["problems"] + data["passed"])
    assert all(not {"baseline", "groups", "groupBy"} & set(ledger) for ledger in data["ledgers"])


def test_the_page_holds_what_diff_says_changed_since_the_baseline(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester)
    before = _report(pytester)
    # r5 is a disagreement no longer, r6 a new one; the inline ledger's total is now wrong.
    week = WEEK.replace('{"id": "r5", "a": true, "b": false', '{"id": "r5", "a": true, "b": true')
    week += json.dumps({"id": "r6", "a": False, "b": True}) + "\n"
    pytester.path.joinpath("week.jsonl").write_text(week, encoding="utf-8")
    pytester.runpytest("--rubric-report=report.json")
    after: dict[str, Any] = json.loads(pytester.path.joinpath("report.json").read_text())
    comparison = compare(before, after, "before.json", "report.json")
    jsonschema.validate(comparison, diff_schema())
    data = _embedded(review_page(after, comparison))
    by_case = {ledger["case"]: ledger for ledger in data["ledgers"]}
    change = by_case["from-file"]["baseline"]
    assert (change["entered"], change["left"]) == (
        [{"id": "r6", "where": "week.jsonl:6"}],
        [{"id": "r5", "where": "week.jsonl:5"}],
    )
    assert (change["before"]["agreement"], change["after"]["agreement"]) == (0, 1)
    assert by_case["from-file"]["since"]["change"] == "outcome"
    assert data["comparison"]["baseline"] == "before.json"
    assert data["comparison"]["ledgers"][0]["section"] == 1  # the page's second ledger
    assert "baseline" not in by_case["inline"]


def test_a_comparison_of_the_wrong_shape_is_passed_over() -> None:
    report = {"cases": [{"nodeid": "x::a", "case": "a", "outcome": "matched"}]}
    forged = {"old": None, "summary": [], "cases": "x", "ledgers": [1, {"nodeid": 3}]}
    assert _embedded(review_page(report, forged))["comparison"] == {
        "baseline": "",
        "sameSuite": True,
        "summary": dict.fromkeys(
            ("onlyOld", "onlyNew", "outcomeChanged", "answerChanged", "ledgersChanged"), 0
        ),
        "compared": 0,
        "cases": [],
        "ledgers": [],
    }
    odd = {"cases": [{"nodeid": "x::a", "change": "outcome"}], "ledgers": [{"nodeid": "x::a"}]}
    data = page_data(report, odd)
    assert data["passed"][0]["since"] == {"change": "outcome", "before": None, "after": None}


def test_a_grouped_ledgers_groups_reach_the_page_counted(pytester: pytest.Pytester) -> None:
    _project(pytester)
    report = _report(pytester)
    ledger = next(case for case in report["cases"] if case["case"] == "from-file")
    review = ledger["review"]
    for row in review["rows"]:
        row["group"] = "odd" if row["side"] == "aOnly" else "(no week)"
    odd = {"bothPass": 0, "bothFail": 0, "aOnly": 3, "bOnly": 0}
    review["groupBy"] = "week"
    review["groups"] = [
        {"label": "odd", "value": "odd", "matrix": odd, "agreement": 0, "total": 3,
         "disagreements": ["r1", "r3", "r5"]},
        {"label": "(no week)", "matrix": {**odd, "aOnly": 0, "bOnly": 2}, "agreement": 0,
         "total": 2, "disagreements": ["r2", "r4"]},
    ]  # fmt: skip
    jsonschema.validate(report, schema())
    ledgers = _embedded(review_page(report))["ledgers"]
    grouped = next(ledger for ledger in ledgers if ledger["case"] == "from-file")
    assert grouped["groupBy"] == "week"
    assert [(group["label"], group["disagreements"]) for group in grouped["groups"]] == [
        ("odd", 3),
        ("(no week)", 2),
    ]
    assert [row["group"] for row in grouped["rows"]] == ["odd", "(no week)"] * 2 + ["odd"]


def test_a_lone_surrogate_read_from_a_json_escape_is_embedded_as_that_escape() -> None:
    text = embedded_json({"id": "x\ud800</script>"})
    assert "\\ud800" in text
    assert text.encode("utf-8")
    assert json.loads(text) == {"id": "x\ud800</script>"}
    page = review_page({"cases": [{"case": "x\udfff", "outcome": "matched"}]})
    assert page.encode("utf-8").count(b"<script") == 2
