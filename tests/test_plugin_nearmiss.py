"""Files named one slip away from a case file's name: warned of in a run, a problem of
``--rubric-check``, and passed to it by the pre-commit hook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.casefiles import suffixes

REPO = Path(__file__).resolve().parent.parent
WARNING = "pytest_rubric.plugin.RubricNameWarning"
CASES = "evaluator: reason\ncases: []\n"
MISMATCH = """\
evaluator: reason
cases:
  - id: a
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: false, expectedReasons: [], coherent: true}
"""


def test_a_near_miss_under_filterwarnings_error_is_one_line_naming_the_file(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini("[pytest]\nfilterwarnings = error\n")
    (pytester.path / "course.rubrics.yaml").write_text("weeks: [1, 2]\n")
    pytester.makepyfile(test_a="def test_a():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    # A collection error of that file, as pytest's own collection warnings give one.
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR collecting course.rubrics.yaml _*",
            "course.rubrics.yaml:1:1: RubricNameWarning: course.rubrics.yaml is not collected: "
            "case files are named [*].rubric.yaml or [*].rubric.yml; rename it to "
            "course.rubric.yaml to collect its cases; or, if it holds no cases, keep its name "
            f"and filter the warning: filterwarnings = ignore::{WARNING}",
            "*= short test summary info =*",
            "ERROR course.rubrics.yaml",
        ],
        consecutive=True,
    )
    result.stdout.no_fnmatch_line("*nearmiss.py*")
    result.stdout.no_fnmatch_line("*INTERNALERROR*")
    # pytest carries on where it is told to: the rest of the run is not lost.
    carried = pytester.runpytest("-p", "no:cacheprovider", "--continue-on-collection-errors")
    carried.assert_outcomes(passed=1, errors=1)
    carried.stdout.no_fnmatch_line("*nearmiss.py*")
    # The filter the line names keeps the name.
    kept = pytester.runpytest("-p", "no:cacheprovider", "-W", f"ignore::{WARNING}")
    kept.assert_outcomes(passed=1)


def test_a_case_file_joined_with_an_underscore_or_a_hyphen_is_warned_of(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "week_rubric.yml").write_text(MISMATCH)
    (pytester.path / "day-Rubric.yaml").write_text(MISMATCH)
    # Another tool's files, named so: left alone.
    (pytester.path / "grading_rubric.yml").write_text("criteria: [clarity]\nevaluator: a person\n")
    (pytester.path / "scoring-rubric.yaml").write_text("k: v\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-W", f"default::{WARNING}")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines(
        [
            "*week_rubric.yml:1: RubricNameWarning: week_rubric.yml is not collected: *; "
            "rename it to week.rubric.yml to collect its cases",
        ]
    )
    result.stdout.fnmatch_lines(["*rename it to day.rubric.yaml to collect its cases"])
    result.stdout.no_fnmatch_line("*grading_rubric*")
    result.stdout.no_fnmatch_line("*scoring-rubric*")
    check = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider")
    assert check.ret == 1
    check.stdout.fnmatch_lines(
        ["week_rubric.yml:1:1: week_rubric.yml is not collected: *", "rubric check: *2 problems"]
    )
    alone = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider", "grading_rubric.yml")
    assert alone.ret == 0
    alone.stdout.fnmatch_lines(["rubric check: no case file among the 1 paths given: *"])


def _files() -> str:
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return str(hook["files"])


def _named(name: str) -> bool:
    """Whether the plugin collects ``name`` or may warn of it (a name joined with ``_``
    or ``-`` is warned of when the file holds cases)."""
    return (
        suffixes.is_case_file(Path(name))
        or suffixes.near_miss(name) is not None
        or suffixes.joined_near_miss(name) is not None
    )


NAMES = [
    "a.rubric.yaml",
    "a.rubric.yml",
    ".rubric.yaml",
    "week.rubrics.yaml",
    "x.rubric.yaml.yaml",
    "X.Rubric.yaml",
    "a.RUBRIC.YML",
    "week_rubric.yml",
    "week-rubrics.YAML",
    "rubric.yaml",
    "grading_rubric.yml.bak",
    "a.rubric.json",
    "_rubric.yaml",
    "test_rubric.py",
    "a.rubric.yaml\n",
    "x.rubr\u0130c.yaml",
]


@pytest.mark.parametrize("name", NAMES)
def test_the_pre_commit_hook_passes_exactly_the_names_the_plugin_reads(name: str) -> None:
    files = _files()
    assert bool(re.search(files, name)) is _named(name)
    assert bool(re.search(files, f"some/dir/{name}")) is _named(name)


PIECES = (
    *(".", "_", "-", "a", " ", "\n"),
    *("rubric", "rubrics", "Rubric", "RUBRIC", "yaml", "yml", "YAML"),
    # Letters whose other case is ASCII (long s, Kelvin, dotted I): not a slip of ours.
    *("\u017f", "\u212a", "\u0130"),
)


@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join))
def test_the_pre_commit_hook_pattern_agrees_with_the_plugin_on_any_name(name: str) -> None:
    if name in ("", ".", ".."):
        return
    files = _files()
    assert bool(re.search(files, name)) is _named(name)
    assert bool(re.search(files, f"d/{name}")) is _named(name)


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("week.rubrics.yaml", "week.rubric.yaml"),
        ("x.rubric.yaml.yaml", "x.rubric.yaml"),
        ("X.Rubric.yaml", "X.rubric.yaml"),
        ("a.RUBRIC.YML", "a.rubric.yml"),
    ],
)
def test_a_file_named_one_slip_away_is_warned_of(
    pytester: pytest.Pytester, name: str, meant: str
) -> None:
    (pytester.path / name).write_text("evaluator: reason\ncases: []\n")
    # Shown, not raised: this suite's own settings make warnings errors.
    result = pytester.runpytest("-p", "no:cacheprovider", "-W", f"default::{WARNING}")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines(
        [
            f"*{name}:1: RubricNameWarning: {name} is not collected: case files are named "
            f"[*].rubric.yaml or [*].rubric.yml; rename it to {meant} to collect its cases"
        ]
    )


def test_a_near_miss_is_a_collection_error_where_warnings_are_errors(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "week.rubrics.yaml").write_text("evaluator: reason\ncases: []\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-W", f"error::{WARNING}")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*RubricNameWarning: week.rubrics.yaml is not collected*"])
    result.stdout.no_fnmatch_line("*INTERNALERROR*")


def test_case_files_and_other_files_are_not_warned_of(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", good="evaluator: reason\ncases: []\n")
    pytester.makefile(".rubric.yaml.bak", old="evaluator: reason\ncases: []\n")
    pytester.makefile(".yaml", rubric="evaluator: reason\ncases: []\n")
    # Another tool's file as often as a slip: left alone.
    (pytester.path / "scoring-rubric.yaml").write_text("k: v\n")
    (pytester.path / "grading_rubric.yml").write_text("k: v\n")
    (pytester.path / "dir.rubrics.yaml").mkdir()
    pytester.makepyfile(test_rubric="def test_x():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-W", f"default::{WARNING}")
    result.assert_outcomes(passed=1)
    result.stdout.no_fnmatch_line("*RubricNameWarning*")
