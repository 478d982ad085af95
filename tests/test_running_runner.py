"""``running.runner``: a mismatched answer's hints, as pytest shows them: each expected key
the answer lacks, with the key meant (the answer's own keys and its schema's)."""

from __future__ import annotations

import pytest

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
