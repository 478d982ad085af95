"""The review page in a real browser: Debian's Chromium, headless, driven by Selenium through
the packaged chromedriver (never a downloaded one). Skips, saying why, where they are missing;
``.ci/run`` installs them, so CI never skips."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _schemas import diff_schema

from pytest_rubric.reports.htmlpage import review_page
from pytest_rubric.reports.jsonreport import schema as report_schema
from pytest_rubric.reports.pagedata import PAGE_ROWS

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
)

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        pytest.skip(f"{' and '.join(missing)} missing: apt-get install -y chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_window_size(1280, 900)
    try:
        yield driver
    finally:
        driver.quit()


def _open(
    browser: Any,
    tmp_path: Path,
    report: dict[str, Any],
    comparison: dict[str, Any] | None = None,
) -> None:
    """Write ``report``'s page to disk, open it from there, and wait until it is ready."""
    # What is built here by hand is what a report and diff --json write.
    review = report_schema()["$defs"]["case"]["properties"]["review"]
    for case in report["cases"]:
        if "review" in case:
            jsonschema.validate(case["review"], review)
    if comparison is not None:
        jsonschema.validate(comparison, diff_schema())
    page = tmp_path / "review.html"
    page.write_text(review_page(report, comparison), encoding="utf-8")
    browser.get(page.as_uri())
    WebDriverWait(browser, 60).until(
        lambda driver: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
    )


def _ledger(case: str, rows: list[dict[str, Any]], **counts: int) -> dict[str, Any]:
    a_only = sum(row["side"] == "aOnly" for row in rows)
    matrix = {"bothPass": 0, "bothFail": 0, "aOnly": a_only, "bOnly": len(rows) - a_only}
    matrix.update(counts)
    total = sum(matrix.values())
    actual = {
        "matrix": matrix,
        "agreement": matrix["bothPass"] + matrix["bothFail"],
        "total": total,
        "disagreements": [row["id"] for row in rows],
    }
    return {
        "nodeid": f"ledgers.rubric.yaml::{case}",
        "case": case,
        "file": "ledgers.rubric.yaml",
        "line": 3,
        "index": 0,
        "evaluator": "agreement",
        "outcome": "matched",
        "expected": actual,
        "actual": actual,
        "differingKeys": [],
        "evidence": None,
        "problems": [],
        "duration": 0.0,
        "review": {"rows": rows, "more": 0},
    }


def _row(case_id: str, side: str, line: int, **fields: Any) -> dict[str, Any]:
    return {
        "id": case_id,
        "a": side == "aOnly",
        "b": side == "bOnly",
        "side": side,
        "where": f"ledgers/week.jsonl:{line}",
        "fields": fields,
    }


HOSTILE_IDS = ("<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "A", "A ")


def _report(*cases: dict[str, Any]) -> dict[str, Any]:
    return {"pytestRubric": "test", "summary": {"cases": len(cases)}, "cases": list(cases)}


def _rows(browser: Any) -> list[Any]:
    return list(browser.find_elements(By.CSS_SELECTOR, "tr.review-row"))


def test_the_page_opens_from_disk_with_the_matrix_and_the_rows(
    browser: Any, tmp_path: Path
) -> None:
    rows = [
        _row("hl-402", "aOnly", 2, headline="Council vote", note="judge missed the source"),
        _row("hl-405", "bOnly", 5, url="https://example.test/405"),
    ]
    _open(browser, tmp_path, _report(_ledger("week-48", rows, bothPass=4, bothFail=2)))
    cells = {
        cell.get_attribute("data-cell"): cell.text
        for cell in browser.find_elements(By.CSS_SELECTOR, "td.cell")
    }
    assert cells == {"bothPass": "4", "bothFail": "2", "aOnly": "1", "bOnly": "1"}
    assert "Agreement: 6 / 8" in browser.find_element(By.CLASS_NAME, "ledger").text
    assert [row.text.replace("\n", " ") for row in _rows(browser)] == [
        "1 hl-402 true false aOnly ledgers/week.jsonl:2 headline: Council vote "
        "note: judge missed the source",
        "2 hl-405 false true bOnly ledgers/week.jsonl:5 url: https://example.test/405",
    ]
    assert "kappa" not in browser.page_source.lower()
    assert browser.find_elements(By.TAG_NAME, "select") == []  # not grouped
    assert browser.find_elements(By.ID, "baseline") == []  # no baseline given


def test_clicking_a_matrix_cell_shows_only_its_rows(browser: Any, tmp_path: Path) -> None:
    rows = [_row(f"r{n}", "aOnly" if n % 3 else "bOnly", n) for n in range(1, 10)]
    _open(browser, tmp_path, _report(_ledger("mixed", rows, bothPass=1)))
    assert len(_rows(browser)) == 9
    browser.find_element(By.CSS_SELECTOR, 'td[data-cell="bOnly"]').click()
    assert [row.get_attribute("data-side") for row in _rows(browser)] == ["bOnly"] * 3
    browser.find_element(By.CSS_SELECTOR, 'td[data-cell="aOnly"]').click()
    assert [row.get_attribute("data-side") for row in _rows(browser)] == ["aOnly"] * 6
    browser.find_element(By.CSS_SELECTOR, 'td[data-cell="bothPass"]').click()
    assert _rows(browser) == []
    assert (
        "agreements are counted, not listed" in browser.find_element(By.CLASS_NAME, "status").text
    )
    browser.find_element(By.CSS_SELECTOR, 'td[data-cell="bothPass"]').click()  # again: all
    assert len(_rows(browser)) == 9


def test_hostile_ids_stay_text_and_ids_differing_in_whitespace_look_different(
    browser: Any, tmp_path: Path
) -> None:
    rows = [
        _row(case_id, "aOnly" if n % 2 else "bOnly", n, note=case_id)
        for n, case_id in enumerate(HOSTILE_IDS, start=1)
    ]
    ledger = _ledger(HOSTILE_IDS[0], rows)
    mismatch = {
        **_ledger(HOSTILE_IDS[1], rows),
        "outcome": "mismatched",
        "expected": {"total": "<b>4</b>"},
        "evidence": {"facts": {"<i>x</i>": "<img src=y onerror=alert(3)>"}, "problem": None},
        "problems": [],
    }
    _open(browser, tmp_path, _report(ledger, mismatch))
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert browser.find_elements(By.TAG_NAME, "b") == []
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 2  # the page's own
    text = browser.find_element(By.TAG_NAME, "body").text
    for case_id in HOSTILE_IDS[:2]:
        assert case_id in text
    assert "<img src=y onerror=alert(3)>" in text
    ids = [row.find_element(By.CLASS_NAME, "id") for row in _rows(browser)[:4]]
    plain, spaced = ids[2], ids[3]
    assert plain.text == "A"
    assert plain.find_elements(By.CLASS_NAME, "ws") == []
    assert spaced.text != plain.text
    assert [
        marker.get_attribute("title") for marker in spaced.find_elements(By.CLASS_NAME, "ws")
    ] == ["U+0020"]


def test_ten_thousand_disagreements_open_a_page_at_a_time(browser: Any, tmp_path: Path) -> None:
    # How long that takes is benchmarks/bench_page.py's to measure, not a test's.
    rows = [
        _row(f"case-{n:05d}", "aOnly" if n % 2 else "bOnly", n, note=f"note {n}")
        for n in range(1, 10_001)
    ]
    _open(browser, tmp_path, _report(_ledger("big", rows, bothPass=5)))
    assert len(_rows(browser)) == PAGE_ROWS
    click = "document.querySelector(arguments[0]).click();"
    browser.execute_script(click, "button.next")
    assert _rows(browser)[0].text.startswith(f"{PAGE_ROWS + 1} case-{PAGE_ROWS + 1:05d}")
    browser.execute_script(click, 'td[data-cell="bOnly"]')
    assert len(_rows(browser)) == PAGE_ROWS
    assert "5000 recorded" in browser.find_element(By.CLASS_NAME, "status").text


def test_the_packaged_browser_is_used_never_a_downloaded_one() -> None:
    assert shutil.which("chromedriver") in (None, str(CHROMEDRIVER))


def _ten_ledgers_and_two_problems(pytester: pytest.Pytester) -> dict[str, Any]:
    """A real run's report: ten ledgers (two of them with disagreements), a mismatch
    and a case error."""
    lines = ["evaluator: agreement", "cases:"]
    for n in range(10):
        b = "false" if n in (6, 8) else "true"
        lines += [
            f"  - id: week-{n}",
            f"    input: {{rows: [{{id: a{n}, a: true, b: true}}, {{id: b{n}, a: true, b: {b}}}]}}",
        ]
        agreement, disagreements = (1, f"[b{n}]") if b == "false" else (2, "[]")
        a_only = 1 if b == "false" else 0
        lines.append(
            f"    expected: {{matrix: {{bothPass: {2 - a_only}, bothFail: 0, aOnly: {a_only}, "
            f"bOnly: 0}}, agreement: {agreement}, total: 2, disagreements: {disagreements}}}"
        )
    lines += [
        "  - id: wrong-total",
        "    input: {rows: [{id: x, a: true, b: true}]}",
        "    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, "
        "total: 2, disagreements: []}",
        "  - id: no-rows",
        "    input: {}",
        "    expected: {error: review-label}",
    ]
    pytester.makefile(".rubric.yaml", ledgers="\n".join(lines) + "\n")
    report = pytester.path / "report.json"
    result = pytester.runpytest("-p", "no:randomly", f"--rubric-report={report}")
    result.assert_outcomes(passed=10, failed=2)
    loaded: dict[str, Any] = __import__("json").loads(report.read_text(encoding="utf-8"))
    return loaded


def test_the_page_leads_with_what_needs_a_look(
    browser: Any, tmp_path: Path, pytester: pytest.Pytester
) -> None:
    _open(browser, tmp_path, _ten_ledgers_and_two_problems(pytester))
    headings = browser.find_elements(By.TAG_NAME, "h2")
    assert [h.get_attribute("id") for h in headings] == [
        "problems",
        "disagreeing",
        "agreeing",
        "others",
    ]
    assert [h.text for h in headings][:3] == [
        "Mismatches and case errors (2)",
        "Agreement ledgers with disagreements (2)",
        "Agreement ledgers in agreement (9)",  # the mismatching ledger too
    ]
    tops = [h.location["y"] for h in headings]
    assert tops == sorted(tops)
    # The mismatches are on the first screen, not below every matched ledger.
    assert tops[0] < 900
    sections = browser.find_elements(By.CSS_SELECTOR, "section")
    titles = [section.find_element(By.TAG_NAME, "h3").text.split()[0] for section in sections]
    assert titles[:4] == ["wrong-total", "no-rows", "week-6", "week-8"]
    agreeing = [f"week-{n}" for n in range(10) if n not in (6, 8)]
    assert sorted(titles[4:]) == sorted([*agreeing, "wrong-total"])


def test_the_header_counts_in_plain_words_and_links_to_each_section(
    browser: Any, tmp_path: Path, pytester: pytest.Pytester
) -> None:
    _open(browser, tmp_path, _ten_ledgers_and_two_problems(pytester))
    overview = browser.find_element(By.ID, "overview")
    assert "caseErrors" not in overview.text
    links = overview.find_elements(By.CSS_SELECTOR, "a.jump")
    assert [(link.text, link.get_attribute("hash")) for link in links] == [
        ("1 mismatched", "#problems"),
        ("1 case error", "#problems"),
        ("2 ledgers with disagreements", "#disagreeing"),
        ("9 ledgers in agreement", "#agreeing"),
        ("10 matched", "#others"),
    ]
    arrived = (
        "return location.hash === '#' + arguments[0] && ("
        "Math.abs(document.getElementById(arguments[0]).getBoundingClientRect().top) < 5 "
        "|| window.innerHeight + window.scrollY >= document.body.scrollHeight - 2);"
    )
    for link in links[2:]:
        target: str = link.get_attribute("hash")[1:]
        browser.execute_script("window.scrollTo(0, 0);")
        link.click()

        def there(driver: Any, target: str = target) -> bool:
            return bool(driver.execute_script(arrived, target))

        WebDriverWait(browser, 10).until(there)


def test_named_graders_read_on_the_matrix_and_the_rows(browser: Any, tmp_path: Path) -> None:
    rows = [_row("hl-702", "aOnly", 3), _row("hl-705", "bOnly", 6)]
    ledger = _ledger("week-51", rows, bothPass=2, bothFail=1)
    ledger["review"]["graders"] = {"a": "judge", "b": "<b>editor</b>"}
    _open(browser, tmp_path, _report(ledger))
    matrix = browser.find_element(By.CSS_SELECTOR, "table.matrix")
    heads = [cell.text for cell in matrix.find_elements(By.TAG_NAME, "th")]
    assert heads == ["", "<b>editor</b> pass", "<b>editor</b> fail", "judge pass", "judge fail"]
    a_only = browser.find_element(By.CSS_SELECTOR, 'td[data-cell="aOnly"]')
    assert a_only.get_attribute("title").startswith("aOnly (judge pass / <b>editor</b> fail)")
    a_only.click()
    status = browser.find_element(By.CLASS_NAME, "status").text
    assert status.startswith("aOnly (judge pass / <b>editor</b> fail) rows: 1 recorded")
    assert "a is judge, b is <b>editor</b>." in browser.find_element(By.CLASS_NAME, "ledger").text
    assert browser.find_elements(By.TAG_NAME, "b") == []  # a name is text, never markup


def test_without_graders_the_matrix_reads_a_and_b(browser: Any, tmp_path: Path) -> None:
    _open(browser, tmp_path, _report(_ledger("week-48", [_row("x", "aOnly", 2)])))
    matrix = browser.find_element(By.CSS_SELECTOR, "table.matrix")
    heads = [cell.text for cell in matrix.find_elements(By.TAG_NAME, "th")]
    assert heads == ["", "b true", "b false", "a true", "a false"]


def _dataset_row(row_id: str, line: int, outcome: str, **record: Any) -> dict[str, Any]:
    return {
        "nodeid": f"judge.rubric.yaml::judge-2024-12[{row_id}]",
        "case": f"judge-2024-12[{row_id}]",
        "file": "judge.rubric.yaml",
        "line": 4,
        "index": 0,
        "evaluator": "reason",
        "outcome": outcome,
        "expectedSubset": True,
        "dataset": {"case": "judge-2024-12", "row": f"logs/decisions.jsonl:{line}"},
        "differingKeys": [],
        "evidence": None,
        "problems": [],
        "duration": 0.0,
        **record,
    }


def test_a_datasets_rows_are_shown_under_it_failures_first(browser: Any, tmp_path: Path) -> None:
    coherent = {"expected": {"coherent": True}, "actual": {"coherent": True, "expectedPass": True}}
    rows = [
        _dataset_row("dec-1", 1, "matched", **coherent),
        _dataset_row(
            "dec-2",
            2,
            "mismatched",
            expected={"coherent": True},
            actual={"coherent": False, "expectedPass": False},
            evidence={"facts": {"missing codes": ["missing-source"]}, "problem": None},
            problems=[],
        ),
        _dataset_row("dec-3", 3, "matched", **coherent),
        _dataset_row(
            "line 4",
            4,
            "case-error",
            problems=["judge.rubric.yaml:4:5: logs/decisions.jsonl:4: the ID 'dec-1' repeats"],
        ),
    ]
    _open(browser, tmp_path, _report(*rows))
    dataset = browser.find_element(By.CSS_SELECTOR, "section.dataset")
    assert "4 rows: 1 mismatched, 1 case-error, 2 matched" in dataset.text
    failing = dataset.find_elements(By.CSS_SELECTOR, "section.problem")
    assert [section.find_element(By.TAG_NAME, "h3").text for section in failing] == [
        "judge-2024-12[dec-2] logs/decisions.jsonl:2 · reason mismatched",
        "judge-2024-12[line 4] logs/decisions.jsonl:4 · reason case-error",
    ]
    # Only the key the subset names differs: expectedPass is not compared.
    assert failing[0].find_element(By.CSS_SELECTOR, "table.differing").text.split("\n")[1:] == [
        "coherent true false"
    ]
    passed = dataset.find_element(By.CSS_SELECTOR, "details.cases")
    assert passed.find_element(By.TAG_NAME, "summary").text == "2 other rows"
    assert "Mismatches and case errors (0)" in browser.find_element(By.ID, "problems").text
    assert "1 dataset" in browser.find_element(By.ID, "overview").text


def _grouped(
    case: str, group_by: str, groups: dict[str, tuple[int, int]], rows: list[dict[str, Any]]
) -> dict[str, Any]:
    """A grouped ledger's record, as the report writes it: ``groups`` gives each group's
    label and its bothPass and bothFail, in order of first appearance; each row's
    ``group`` names its group, and its side counts there."""
    ledger = _ledger(case, rows)
    whole = ledger["actual"]["matrix"]
    review = ledger["review"]
    review["groupBy"] = group_by
    review["groups"] = []
    for label, (both_pass, both_fail) in groups.items():
        sides = [row["side"] for row in rows if row["group"] == label]
        matrix = {
            "bothPass": both_pass,
            "bothFail": both_fail,
            "aOnly": sides.count("aOnly"),
            "bOnly": sides.count("bOnly"),
        }
        whole["bothPass"] += both_pass
        whole["bothFail"] += both_fail
        group = (
            {"label": label, "value": label} if not label.startswith("(no ") else {"label": label}
        )
        review["groups"].append(
            {
                **group,
                "matrix": matrix,
                "agreement": both_pass + both_fail,
                "total": sum(matrix.values()),
                "disagreements": [row["id"] for row in rows if row["group"] == label],
            }
        )
    ledger["actual"]["agreement"] = whole["bothPass"] + whole["bothFail"]
    ledger["actual"]["total"] = sum(whole.values())
    return ledger


def _in_group(group: str, case_id: str, side: str, line: int) -> dict[str, Any]:
    return {**_row(case_id, side, line), "group": group}


def _cells(browser: Any) -> dict[str, str]:
    return {
        cell.get_attribute("data-cell"): cell.text
        for cell in browser.find_elements(By.CSS_SELECTOR, "td.cell")
    }


def test_choosing_a_group_shows_its_matrix_and_only_its_rows(browser: Any, tmp_path: Path) -> None:
    rows = [
        _in_group("politics", "hl-1", "aOnly", 2),
        _in_group("sport", "hl-2", "bOnly", 3),
        _in_group("politics", "hl-3", "aOnly", 5),
        _in_group("(no category)", "hl-4", "bOnly", 8),
    ]
    groups = {"politics": (3, 1), "sport": (2, 0), "(no category)": (0, 0)}
    ledger = _grouped("week-49", "category", groups, rows)
    ledger["review"]["groups"][1]["disagreements"].append("hl-9")  # beyond the rows kept
    ledger["review"]["more"] = 1
    _open(browser, tmp_path, _report(ledger))
    select = webdriver.support.select.Select(browser.find_element(By.CLASS_NAME, "group-filter"))
    assert [option.text for option in select.options] == [
        "all groups",
        "politics (4 / 6)",
        "sport (2 / 3)",
        "(no category) (0 / 1)",
    ]
    whole = {"bothPass": "5", "bothFail": "1", "aOnly": "2", "bOnly": "2"}
    assert _cells(browser) == whole
    table = browser.find_element(By.CSS_SELECTOR, "table.groups")
    assert [row.text for row in table.find_elements(By.TAG_NAME, "tr")] == [
        "category bothPass aOnly bOnly bothFail agreement disagreements",
        "politics 3 2 0 1 4 / 6 2",
        "sport 2 0 1 0 2 / 3 2",
        "(no category) 0 0 1 0 0 / 1 1",
        "whole ledger 5 2 2 1 6 / 10 4",
    ]

    select.select_by_index(1)
    assert _cells(browser) == {"bothPass": "3", "bothFail": "1", "aOnly": "2", "bOnly": "0"}
    section = browser.find_element(By.CLASS_NAME, "ledger")
    assert "Agreement in category politics: 4 / 6" in section.text
    assert [row.text.split()[1:3] for row in _rows(browser)] == [
        ["hl-1", "politics"],
        ["hl-3", "politics"],
    ]
    select.select_by_visible_text("sport (2 / 3)")
    assert [row.text.split()[1] for row in _rows(browser)] == ["hl-2"]
    assert browser.find_element(By.CLASS_NAME, "status").text == (
        "Disagreement rows in category sport: 1 recorded, showing 1\u20131; "
        "1 more disagreement in category sport was not recorded (--rubric-review-rows)."
    )
    browser.find_element(By.CSS_SELECTOR, 'td[data-cell="aOnly"]').click()  # within the group
    assert _rows(browser) == []
    table.find_elements(By.CSS_SELECTOR, "tr.group")[2].click()  # a group's row chooses it
    assert select.first_selected_option.text == "(no category) (0 / 1)"
    assert _rows(browser) == []  # still aOnly only
    browser.find_element(By.CSS_SELECTOR, 'td[data-cell="aOnly"]').click()
    assert [row.text.split()[1:3] for row in _rows(browser)] == [["hl-4", "(no"]]

    select.select_by_visible_text("all groups")
    assert _cells(browser) == whole
    assert "Agreement: 6 / 10" in section.text
    assert len(_rows(browser)) == 4


DIGEST = "sha256:" + "0" * 64


def _comparison(**document: Any) -> dict[str, Any]:
    """A ``pytest-rubric diff --json`` document: nothing changed, but for ``document``."""
    side = {"report": "new.json", "pytestRubric": "test", "cases": 3, "digest": DIGEST}
    side.update(collected=3, collectedOnly=0)
    summary = {
        "onlyOld": 0,
        "onlyNew": 0,
        "outcomeChanged": 0,
        "answerChanged": 0,
        "notCompared": 0,
        "compared": 3,
    }
    return {
        "format": "pytest-rubric-diff",
        "version": 1,
        "old": {**side, "report": "baseline.json"},
        "new": side,
        "sameSuite": True,
        "changed": True,
        "summary": {**summary, "ledgersChanged": 0},
        "cases": [],
        "ledgers": [],
        **document,
    }


def _counts(both_pass: int, both_fail: int, a_only: int, b_only: int) -> dict[str, Any]:
    matrix = {"bothPass": both_pass, "bothFail": both_fail, "aOnly": a_only, "bOnly": b_only}
    return {"matrix": matrix, "agreement": both_pass + both_fail, "total": sum(matrix.values())}


def _place(case: str) -> dict[str, Any]:
    return {
        "nodeid": f"ledgers.rubric.yaml::{case}",
        "case": case,
        "file": "ledgers.rubric.yaml",
        "line": 9,
    }


def _change(case: str, change: str, before: str | None, after: str | None) -> dict[str, Any]:
    return {**_place(case), "change": change, "before": before, "after": after}


def test_the_comparison_shows_what_entered_left_and_changed_outcome(
    browser: Any, tmp_path: Path
) -> None:
    rows = [_row("hl-1", "aOnly", 2), _row("hl-2", "bOnly", 5), _row("hl-3", "aOnly", 6)]
    ledger = _ledger("week-48", rows, bothPass=4, bothFail=1)
    mismatch = {
        **_ledger("wrong-total", []),
        "outcome": "mismatched",
        "expected": {"total": 3},
        "evidence": None,
        "problems": [],
    }
    fresh = _ledger("fresh", [])
    del fresh["review"]
    summary = {
        "onlyOld": 1,
        "onlyNew": 1,
        "outcomeChanged": 1,
        "answerChanged": 0,
        "notCompared": 0,
        "compared": 2,
    }
    comparison = _comparison(
        sameSuite=False,
        summary={**summary, "ledgersChanged": 1},
        cases=[
            _change("wrong-total", "outcome", "matched", "mismatched"),
            _change("gone", "only-old", "case-error", None),
            _change("fresh", "only-new", None, "matched"),
        ],
        ledgers=[
            {
                **_place("week-48"),
                "before": _counts(5, 1, 1, 0),
                "after": _counts(4, 1, 2, 1),
                "entered": [
                    {"id": "hl-2", "where": "ledgers/week.jsonl:5"},
                    {"id": "hl-3", "where": "ledgers/week.jsonl:6"},
                ],
                "left": [{"id": "hl-0", "where": "ledgers/week.jsonl:1"}],
            }
        ],
    )
    _open(browser, tmp_path, _report(ledger, mismatch, fresh), comparison)
    headings = browser.find_elements(By.TAG_NAME, "h2")
    assert headings[0].text == "Since the baseline baseline.json"
    section = browser.find_element(By.ID, "page")
    assert "The baseline is a report of another suite" in section.text
    assert browser.find_element(By.CSS_SELECTOR, "p.counts").text == (
        "1 case changed outcome, 1 case only in the baseline, 1 case new in this run, "
        "1 ledger changed."
    )
    changed = browser.find_elements(By.CSS_SELECTOR, ".baseline-cases tr")
    assert [row.text for row in changed[1:]] == [
        "1 wrong-total ledgers.rubric.yaml:9 outcome changed matched \u2192 mismatched",
        "2 gone ledgers.rubric.yaml:9 only in the baseline case-error \u2192 (none)",
        "3 fresh ledgers.rubric.yaml:9 new since the baseline (none) \u2192 matched",
    ]
    link = browser.find_element(By.CSS_SELECTOR, ".baseline-ledgers a")
    assert (link.text, link.get_attribute("hash")) == ("week-48", "#ledger-0")

    week = browser.find_element(By.ID, "ledger-0")
    assert (
        "Since the baseline: agreement 6 / 7 \u2192 5 / 8; bothPass 5 \u2192 4, "
        "aOnly 1 \u2192 2, bOnly 0 \u2192 1, bothFail 1 \u2192 1; "
        "2 disagreements entered (marked new in the rows), 1 left."
    ) in week.text
    marked = [row.text.split()[1:3] for row in _rows(browser) if "new" in row.text.split()]
    assert marked == [["hl-2", "new"], ["hl-3", "new"]]
    moved = week.find_elements(By.CSS_SELECTOR, ".moved tr")
    assert [row.text for row in moved[1:]] == [
        "1 hl-2 entered ledgers/week.jsonl:5",
        "2 hl-3 entered ledgers/week.jsonl:6",
        "3 hl-0 left was at ledgers/week.jsonl:1",
    ]
    problem = browser.find_element(By.CSS_SELECTOR, "section.problem h3")
    assert problem.find_element(By.CLASS_NAME, "since").text == "was matched"
    passed = browser.find_element(By.ID, "passed")
    passed.click()
    assert "fresh new since the baseline" in passed.text
    overview = browser.find_element(By.ID, "overview")
    assert overview.find_element(By.CSS_SELECTOR, "a.jump").text == "4 changes since the baseline"


def test_a_baseline_that_shares_no_case_is_never_called_unchanged(
    browser: Any, tmp_path: Path
) -> None:
    """-k runs or shards that selected different cases: nothing was compared."""
    summary = _comparison()["summary"]
    comparison = _comparison(changed=False, summary={**summary, "compared": 0, "notCompared": 3})
    _open(browser, tmp_path, _report(_ledger("week-48", [])), comparison)
    counts = browser.find_element(By.CSS_SELECTOR, "p.counts").text
    assert counts == "Nothing was compared: no case ran both in the baseline and in this run."
    overview = browser.find_element(By.ID, "overview")
    jump = overview.find_element(By.CSS_SELECTOR, "a.jump")
    assert jump.text == "nothing compared with the baseline"


def test_integer_like_group_labels_keep_the_order_of_their_first_rows(
    browser: Any, tmp_path: Path
) -> None:
    """A script's object puts integer-like keys first; the page shows the groups, and any
    mapping, in the report's order: in the evidence, the differing values, a row's other
    fields, the group filter and the table of groups."""
    order = ["50", "49", "late", "51", "48"]
    rows = [_in_group(label, f"hl-{n}", "aOnly", n) for n, label in enumerate(order, start=1)]
    rows[0]["fields"] = {"9": "nine", "10": "ten", "note": "n", "1": "one"}
    ledger = _grouped("weeks", "week", dict.fromkeys(order, (1, 0)), rows)
    by_week = {
        label: {"matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0}} for label in order
    }
    ledger.update(
        outcome="mismatched",
        expected={**ledger["actual"], "byWeek": {"51": 0, "50": 1}},
        evidence={"facts": {"by week": by_week}, "problem": None},
    )
    _open(browser, tmp_path, _report(ledger))
    problem = browser.find_element(By.CSS_SELECTOR, "section.problem")
    evidence = problem.find_element(By.TAG_NAME, "li").text
    assert evidence.startswith('by week: {"50":{')
    assert [evidence.index(f'"{label}":') for label in order] == sorted(
        evidence.index(f'"{label}":') for label in order
    )
    differing = problem.find_elements(By.CSS_SELECTOR, "table.differing td")
    assert [cell.text for cell in differing[-3:]] == ["byWeek", '{"51":0,"50":1}', "(missing)"]
    first = _rows(browser)[0].find_element(By.CLASS_NAME, "fields")
    assert first.text.split("\n") == ["9: nine", "10: ten", "note: n", "1: one"]
    select = webdriver.support.select.Select(browser.find_element(By.CLASS_NAME, "group-filter"))
    assert [option.text.split()[0] for option in select.options[1:]] == order
    labels = browser.find_elements(By.CSS_SELECTOR, "table.groups tr.group td:first-child")
    assert [label.text for label in labels] == order
    assert [row.text.split()[2] for row in _rows(browser)] == order  # the rows' group column


HOSTILE_TEXT = (
    "</script><img src=x onerror=alert(4)>",
    "tab\there \x1b[31mred\x1b[0m",
    "lone \\ud800 as written",  # how a report writes a lone surrogate
    "raw \ud800 surrogate",  # one read back from a JSON escape
)


def test_hostile_group_labels_ids_and_paths_stay_text(browser: Any, tmp_path: Path) -> None:
    rows = [
        _in_group(label, label, "aOnly" if n % 2 else "bOnly", n)
        for n, label in enumerate(HOSTILE_TEXT, start=1)
    ]
    ledger = _grouped("hostile", "<b>by</b>", dict.fromkeys(HOSTILE_TEXT, (1, 0)), rows)
    moved = [{"id": label, "where": label} for label in HOSTILE_TEXT]
    comparison = _comparison(
        old={
            "report": HOSTILE_TEXT[0],
            "pytestRubric": "test",
            "cases": 1,
            "digest": DIGEST,
            "collected": 1,
            "collectedOnly": 0,
        },
        cases=[
            {**_change(HOSTILE_TEXT[0], "answer", "matched", "matched"), "file": HOSTILE_TEXT[0]}
        ],
        ledgers=[
            {
                **_place("hostile"),
                "before": _counts(4, 0, 0, 0),
                "after": _counts(4, 0, 2, 2),
                "entered": moved,
                "left": moved,
            }
        ],
    )
    _open(browser, tmp_path, _report(ledger), comparison)
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert browser.find_elements(By.TAG_NAME, "b") == []
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 2  # the page's own
    # WebDriver cannot carry a lone surrogate: the text comes with U+FFFD in its place.
    text = browser.execute_script("return document.body.innerText.toWellFormed();")
    assert text.count(HOSTILE_TEXT[0]) >= 6  # report path, file, label, ID, where twice
    assert "Group by <b>by</b>:" in text
    assert text.count(HOSTILE_TEXT[2]) >= 5
    select = webdriver.support.select.Select(browser.find_element(By.CLASS_NAME, "group-filter"))
    assert [option.text for option in select.options[2:4]] == [
        "tab\u27e8U+0009\u27e9here \u27e8U+001B\u27e9[31mred\u27e8U+001B\u27e9[0m (1 / 2)",
        "lone \\ud800 as written (1 / 2)",
    ]
    labels = browser.find_elements(By.CSS_SELECTOR, "table.groups tr.group td:first-child")
    markers = [
        [marker.get_attribute("title") for marker in label.find_elements(By.CLASS_NAME, "ws")]
        for label in labels
    ]
    assert markers == [[], ["U+0009", "U+001B", "U+001B"], [], ["U+D800"]]
    select.select_by_index(4)
    assert [row.get_attribute("data-side") for row in _rows(browser)] == ["bOnly"]


def test_a_panel_is_a_grid_of_its_pairs_each_cell_leading_to_its_rows(
    browser: Any, tmp_path: Path
) -> None:
    graders = ["ana", "ben", "cleo"]
    pairs = ["ana vs ben", "ana vs cleo", "ben vs cleo"]
    cases = []
    for index, (pair, rows) in enumerate(
        (
            ("ana vs ben", [_row("h8", "bOnly", 8)]),
            ("ana vs cleo", [_row("h2", "aOnly", 2), _row("h8", "bOnly", 8)]),
            ("ben vs cleo", []),
        )
    ):
        case = _ledger(f"desk[{pair}]", rows, bothPass=3, bothFail=2)
        case["index"] = index
        case["nodeid"] = f"ledgers.rubric.yaml::desk[{pair}]"
        actual = case["actual"]
        case["panel"] = {
            "case": "desk",
            "pair": pair,
            "pairs": pairs,
            "graders": graders,
            "agreement": actual["agreement"],
            "total": actual["total"],
        }
        cases.append(case)
    _open(browser, tmp_path, _report(*cases))
    grid = browser.find_element(By.CSS_SELECTOR, "section.panel table.panel-grid")
    assert [row.text for row in grid.find_elements(By.TAG_NAME, "tr")] == [
        "ana ben cleo",
        "ana \u2014 5 / 6 5 / 7",
        "ben 5 / 6 \u2014 5 / 5",
        "cleo 5 / 7 5 / 5 \u2014",
    ]
    link = grid.find_elements(By.TAG_NAME, "tr")[1].find_elements(By.TAG_NAME, "a")[1]
    target = browser.find_element(By.ID, link.get_attribute("href").split("#")[1])
    assert "desk[ana vs cleo]" in target.find_element(By.TAG_NAME, "h3").text
    assert [
        row.find_elements(By.TAG_NAME, "td")[1].text
        for row in target.find_elements(By.CSS_SELECTOR, "tr.review-row")
    ] == ["h2", "h8"]
