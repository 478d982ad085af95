"""A hint for every slip a new user makes, as pytest shows it."""

from __future__ import annotations

import pytest

from pytest_rubric.evaluators.agreement import evaluate_agreement
from pytest_rubric.evaluators.reason import explain_reason

MET = "{fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}"


def test_a_misspelt_answer_key_names_the_key_meant(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c=f"""\
evaluator: reason
cases:
  - id: a
    input: {MET}
    expected: {{expectedPass: true, expectedReason: [all-required-met], coherent: true}}
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["  'expectedReason' is not a key of reason's answers; did you mean 'expectedReasons'?"]
    )


def test_a_misspelt_nested_answer_key_is_found_through_the_answer_schema(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c="""\
evaluator: agreement
cases:
  - id: a
    input: {rows: [{id: x, a: true, b: true}]}
    expected:
      matrix: {bothpass: 1, bothFail: 0, aOnly: 0, bOnly: 0}
      agreement: 1
      total: 1
      disagreements: []
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["  matrix.'bothpass' is not a key of agreement's answers; did you mean matrix.'bothPass'?"]
    )


def test_without_an_answer_schema_the_answers_own_keys_are_the_known_ones(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        """
from pytest_rubric import Evaluator, hookimpl


@hookimpl
def rubric_evaluators():
    return [Evaluator("echo", "echoes", evaluate=lambda case_input: {"verdict": "ok"})]
"""
    )
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: echo\ncases:\n  - id: a\n    input: {}\n    expected: {verdit: ok}\n",
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        ["  'verdit' is not a key of echo's answers; did you mean 'verdict'?"]
    )


def test_a_key_far_from_every_known_one_gets_no_guess(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c=f"""\
evaluator: reason
cases:
  - id: a
    input: {MET}
    expected: {{expectedPass: true, expectedReasons: [all-required-met], coherent: true, zzz: 1}}
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.no_fnmatch_line("*did you mean*")


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (
            {"feilds": {}, "pass": True, "reasons": []},
            "fields is missing (the input has 'feilds'; did you mean fields?); it must be a "
            "mapping of field Booleans",
        ),
        (
            {"fields": {"title": True, "source": True}, "pas": True, "reasons": []},
            "pass is missing (the input has 'pas'; did you mean pass?); it must be a boolean",
        ),
        (
            {"fields": {"title": True, "source": True}, "pass": True, "reason": []},
            "reasons is missing (the input has 'reason'; did you mean reasons?); it must be a "
            "list of reason codes",
        ),
        (
            {"pass": True, "reasons": []},
            "fields is missing; it must be a mapping of field Booleans",
        ),
    ],
)
def test_a_misspelt_input_key_of_reason_names_the_key_meant(
    record: dict[str, object], problem: str
) -> None:
    assert explain_reason(record).problem == problem


def test_a_misspelt_input_key_of_agreement_names_the_key_meant(pytester: pytest.Pytester) -> None:
    with pytest.raises(
        ValueError, match=r"'rows' is missing \(the input has 'rowz'; did you mean rows\?\)"
    ):
        evaluate_agreement({"rowz": []})
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: a\n    input: {rowz: []}\n    expected: {}\n",
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*'rows' is missing (the input has 'rowz'; did you mean rows?)*"])


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


WARNING = "pytest_rubric.plugin.RubricNameWarning"


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


def test_a_tab_used_for_indentation_is_named_with_where_and_the_fix(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml", t="evaluator: reason\ncases:\n  - id: a\n    input:\n\t  fields: {}\n"
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        [
            "t.rubric.yaml:5:1: a tab indents this line: case files take no tabs outside quotes, "
            "for indentation or between tokens; indent with spaces, and write spaces in place "
            "of the tab"
        ]
    )
    result.stdout.no_fnmatch_line("*cannot start any token*")
