"""``--rubric-baseline=REPORT``: a run marks in its summary what changed since an earlier
run's report, never changing its own outcome; a baseline that cannot be read stops the
run before any case runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

LEDGER = """\
evaluator: agreement
cases:
  - id: week
    input:
      rows:
        - {{id: A, a: true, b: {a}}}
        - {{id: B, a: true, b: true}}
        - {{id: C, a: false, b: {c}}}
    expected:
      matrix: {{bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}}
      agreement: 2
      total: 3
      disagreements: [A]
  - id: steady
    input:
      rows:
        - {{id: X, a: true, b: false}}
    expected: {{matrix: {{bothPass: 0, bothFail: 0, aOnly: 1, bOnly: 0}}, agreement: 0, total: 1, disagreements: [X]}}
"""
#: The ledger as the baseline saw it, and as it is now: A agrees, C disagrees.
BEFORE = LEDGER.format(a="false", c="false")
AFTER = LEDGER.format(a="true", c="true")

SINCE = [
    "since baseline base.json: 1 case changed outcome, 1 ledger changed",
    "  outcome changed (1):",
    "    ledger.rubric.yaml::week: matched -> mismatched",
    "  ledgers changed (1):",
    "    ledger.rubric.yaml::week: agreement 2/3 -> 2/3; bothPass 1 -> 2, bothFail 1 -> 0, "
    'aOnly 1 -> 0, bOnly 0 -> 1; entered "C" (ledger.rubric.yaml:8); left "A" '
    "(ledger.rubric.yaml:6)",
]


@pytest.fixture
def baseline(pytester: pytest.Pytester) -> Path:
    """The report of a run of the ledger before it changed (base.json)."""
    pytester.makefile(".rubric.yaml", ledger=BEFORE)
    result = pytester.runpytest("-p", "no:cacheprovider", "--rubric-report=base.json")
    result.assert_outcomes(passed=2)
    pytester.makefile(".rubric.yaml", ledger=AFTER)
    return pytester.path / "base.json"


@pytest.mark.parametrize("dist", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_the_summary_marks_what_changed_since_the_baseline_and_the_exit_status_stays(
    pytester: pytest.Pytester, baseline: Path, dist: tuple[str, ...]
) -> None:
    result = pytester.runpytest("-p", "no:cacheprovider", *dist, "--rubric-baseline=base.json")
    result.assert_outcomes(passed=1, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the mismatch's, as without a baseline
    result.stdout.fnmatch_lines(SINCE, consecutive=True)
    result.stdout.fnmatch_lines(["write the full report with: *"])
    assert not (pytester.path / "rubric-report.json").exists()  # a baseline writes no report


def test_a_run_like_its_baseline_says_nothing_changed_and_passes(
    pytester: pytest.Pytester, baseline: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_rubric.reports import htmlpage

    pages: list[Any] = []
    page = htmlpage.review_page

    def review_page(data: Any, comparison: Any = None) -> str:
        pages.append(comparison)
        return page(data, comparison=comparison)

    monkeypatch.setattr(htmlpage, "review_page", review_page)
    pytester.makefile(".rubric.yaml", ledger=BEFORE)
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--rubric-baseline=base.json",
        "--rubric-report=base.json",
        "--rubric-html=page.html",
    )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["nothing changed since baseline base.json"])
    # the baseline was read before the run wrote its own report over it
    assert json.loads(baseline.read_text())["summary"]["matched"] == 2
    # the page is handed the comparison, as pytest-rubric diff --json prints it
    (comparison,) = pages
    assert (comparison["format"], comparison["changed"]) == ("pytest-rubric-diff", False)
    assert (comparison["old"]["report"], comparison["new"]["report"]) == ("base.json",) * 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "ERROR: --rubric-baseline=base.json cannot be read: no such file or directory; *"),
        (
            "not json",
            "ERROR: --rubric-baseline: base.json is not a pytest-rubric report: not JSON *",
        ),
        (
            '{"format": "pytest-rubric-report", "version": 3}',
            "ERROR: --rubric-baseline: base.json is a version 3 report; this pytest-rubric "
            "(*) reads version 4: *",
        ),
    ],
    ids=["missing", "garbage", "version-3"],
)
def test_a_baseline_that_cannot_be_read_is_a_usage_error_before_any_case_runs(
    pytester: pytest.Pytester, content: str | None, message: str
) -> None:
    pytester.makefile(".rubric.yaml", ledger=BEFORE)
    if content is not None:
        (pytester.path / "base.json").write_text(content)
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--rubric-baseline=base.json", "--rubric-report=out.json"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert [line for line in result.stderr.lines if line.strip()] == [
        line for line in result.stderr.lines if line.startswith("ERROR: --rubric-baseline")
    ]
    result.stdout.no_fnmatch_line("*passed*")
    result.stdout.no_fnmatch_line("*Traceback*")
    assert not (pytester.path / "out.json").exists()


@pytest.mark.parametrize("dist", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_a_run_that_shares_no_case_with_its_baseline_says_nothing_was_compared(
    pytester: pytest.Pytester, dist: tuple[str, ...]
) -> None:
    """-k runs that selected different cases: the summary must not say "nothing
    changed", and the run's outcome is its own."""
    pytester.makefile(".rubric.yaml", ledger=BEFORE)
    first = pytester.runpytest("-p", "no:cacheprovider", "-k", "steady", "--rubric-report=b.json")
    first.assert_outcomes(passed=1, deselected=1)
    result = pytester.runpytest(
        "-p", "no:cacheprovider", *dist, "-k", "week", "--rubric-baseline=b.json"
    )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "since baseline b.json: nothing compared: no case ran both in the baseline and in "
            "this run",
            "  2 cases not compared: collected by both runs, selected by one only (-k, -m, "
            "--deselect, a shard)",
        ],
        consecutive=True,
    )
    result.stdout.no_fnmatch_line("*nothing changed*")


def test_cases_added_and_removed_are_told_once_not_as_another_suite(
    pytester: pytest.Pytester, baseline: Path
) -> None:
    renamed = BEFORE.replace("id: steady", "id: fresh")
    pytester.makefile(".rubric.yaml", ledger=renamed)
    result = pytester.runpytest("-p", "no:cacheprovider", "-n", "2", "--rubric-baseline=base.json")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "since baseline base.json: 1 only in new, 1 only in old",
            "  only in new (1):",
            "    ledger.rubric.yaml::fresh (matched)",
            "  only in old (1):",
            "    ledger.rubric.yaml::steady (matched)",
        ],
        consecutive=True,
    )
    result.stdout.no_fnmatch_line("*different suites*")


def _refused_before_any_case(result: pytest.RunResult, message: str) -> None:
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.stderr.lines if line.strip()] == [f"ERROR: {message}"]
    result.stdout.no_fnmatch_line("*passed*")
    result.stdout.no_fnmatch_line("*failed*")


@pytest.mark.parametrize("dist", [(), ("-n", "2")], ids=["serial", "xdist"])
@pytest.mark.parametrize(
    "spelt", ["base.json", "./sub/../base.json", "{root}/base.json", "link.json"]
)
def test_the_page_is_never_written_over_the_baseline(
    pytester: pytest.Pytester, baseline: Path, dist: tuple[str, ...], spelt: str
) -> None:
    (pytester.path / "sub").mkdir()
    (pytester.path / "link.json").symlink_to("base.json")
    before = baseline.read_bytes()
    page = spelt.format(root=pytester.path)
    result = pytester.runpytest(
        "-p", "no:cacheprovider", *dist, "--rubric-baseline=base.json", f"--rubric-html={page}"
    )
    _refused_before_any_case(
        result,
        f"--rubric-html={page} is the baseline --rubric-baseline=base.json, which the run only "
        "reads; write it elsewhere, e.g. --rubric-html=rubric-review.html",
    )
    assert baseline.read_bytes() == before


@pytest.mark.parametrize("dist", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_two_outputs_at_one_path_are_a_usage_error_before_any_case_runs(
    pytester: pytest.Pytester, dist: tuple[str, ...]
) -> None:
    pytester.makefile(".rubric.yaml", ledger=BEFORE)
    (pytester.path / "out").mkdir()
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        *dist,
        "--rubric-report=out/run.json",
        f"--rubric-html={pytester.path}/out/../out/run.json",
    )
    _refused_before_any_case(
        result,
        f"--rubric-report=out/run.json and --rubric-html={pytester.path}/out/../out/run.json "
        "are one file, which the run would write twice, one over the other; give each its own "
        "path, e.g. --rubric-html=rubric-review.html",
    )
    assert list((pytester.path / "out").iterdir()) == []  # nothing written
    result = pytester.runpytest(*dist, "--rubric-report=out/run.json", "--junitxml=out/run.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert list((pytester.path / "out").iterdir()) == []
