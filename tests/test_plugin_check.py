"""``--rubric-check``: case files loaded strictly, problems reported, nothing run."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent

GOOD = """\
evaluator: reason
cases:
  - id: ok
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
"""
SLIPS = """\
evaluator: reason
cases:
  - id: misspelt-answer
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReason: [all-required-met], coherent: true}
  - id: misspelt-key
    inptu: {}
    expected: {status: invalid-reason-input}
"""
UNKNOWN = "evaluator: reasn\ncases: []\n"
# Importing this module fails the run: a check must not import test modules.
TEST_MODULE = "raise SystemExit('a test module was imported')\n"


def test_every_problem_is_reported_at_its_place_and_the_check_fails(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", good=GOOD, slips=SLIPS, unknown=UNKNOWN)
    pytester.makepyfile(test_other=TEST_MODULE)
    result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            # Each where it is written: the answer's mapping, the misspelt key.
            "slips.rubric.yaml:5:15: case 'misspelt-answer': expected has no expectedReasons, "
            "which reason's answers always have",
            "slips.rubric.yaml:5:36: case 'misspelt-answer': expected.expectedReason is not a key "
            "of reason's answers; did you mean 'expectedReasons'?",
            "slips.rubric.yaml:6:5: the case has no 'input'; *",
            "slips.rubric.yaml:7:5: 'inptu' is not a case key; did you mean 'input'?",
            "unknown.rubric.yaml:1:12: unknown evaluator 'reasn'; did you mean 'reason'? *",
            "rubric check: 3 case files, 3 cases: 5 problems",
        ]
    )
    result.stdout.no_fnmatch_line("*a test module was imported*")
    result.stdout.no_fnmatch_line("*passed*")


def test_clean_case_files_pass_the_check(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", good=GOOD)
    wrong = pytester.makefile(
        ".rubric.yml", wrong=GOOD.replace("coherent: true", "coherent: false")
    )
    # A wrong answer is not a problem of the file: only running the case can tell.
    result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider", "-n", "2")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["rubric check: 2 case files, 2 cases: no problems"])
    assert wrong.exists()


def test_conftest_evaluators_are_known_to_the_check(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
from pytest_rubric import Evaluator, hookimpl

SCHEMA = {"type": "object", "required": ["verdict"], "additionalProperties": False,
          "properties": {"verdict": {"enum": ["ok", "bad"]}}}


@hookimpl
def rubric_evaluators():
    return [Evaluator("scorer", "scores", evaluate=lambda i: {"verdict": "ok"}, answer_schema=SCHEMA)]
"""
    )
    pytester.makefile(
        ".rubric.yaml",
        s="evaluator: scorer\ncases:\n  - id: a\n    input: {}\n    expected: {verdict: fine}\n",
    )
    result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "s.rubric.yaml:5:25: case 'a': expected.verdict is \"fine\" (a string), not one of ok, "
            "bad",
            "rubric check: 1 case file, 1 case: 1 problem",
        ]
    )


def _hook() -> dict[str, object]:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert isinstance(hook, dict)
    return hook


def test_the_pre_commit_hook_follows_the_convention() -> None:
    hook = _hook()
    assert hook["id"] == "rubric-check"
    # Case files and the names one slip away, which the check names (exactly those:
    # tests/test_plugin_nearmiss.py).
    for name in ("a.rubric.yaml", "a/b.rubric.yml", "week.rubrics.yaml", "week_rubric.yml"):
        assert re.search(str(hook["files"]), name), name
    assert not re.search(str(hook["files"]), "rubric.yaml")
    assert hook["pass_filenames"] is True
    assert hook["language"] == "python"


def test_the_pre_commit_hook_runs_as_pre_commit_runs_it(tmp_path: Path) -> None:
    # pre-commit runs the entry with the staged files that match 'files' as arguments.
    hook = _hook()
    (tmp_path / "good.rubric.yaml").write_text(GOOD)
    (tmp_path / "slips.rubric.yaml").write_text(SLIPS)
    (tmp_path / "test_other.py").write_text(TEST_MODULE)
    entry = shlex.split(str(hook["entry"]))
    assert entry[0] == "pytest"
    command = [sys.executable, "-m", *entry, "good.rubric.yaml", "slips.rubric.yaml"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stdout
    assert "slips.rubric.yaml:7:5: 'inptu' is not a case key; did you mean 'input'?" in done.stdout
    assert "rubric check: 2 case files, 3 cases: 4 problems" in done.stdout
    clean = subprocess.run(
        [*command[:-1]], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert clean.returncode == 0, clean.stdout
    assert "rubric check: 1 case file, 1 case: no problems" in clean.stdout


def test_a_test_module_named_on_the_command_line_is_not_imported(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", good=GOOD)
    pytester.makepyfile(test_other=TEST_MODULE)
    result = pytester.runpytest("--rubric-check", "test_other.py", "good.rubric.yaml")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["rubric check: 1 case file, 1 case: no problems"])
    result.stdout.no_fnmatch_line("*a test module was imported*")
    alone = pytester.runpytest("--rubric-check", "test_other.py")
    assert alone.ret == 0
    alone.stdout.fnmatch_lines(["rubric check: no case file among the 1 paths given: *"])


def test_a_near_miss_name_is_a_problem_of_the_check(pytester: pytest.Pytester) -> None:
    (pytester.path / "week.rubrics.yaml").write_text(GOOD)
    (pytester.path / "dir.rubric.yaml").mkdir()
    (pytester.path / "dir.rubric.yaml" / "inner.rubric.yaml").write_text(GOOD)
    for args in ((), ("week.rubrics.yaml",)):
        result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider", *args)
        assert result.ret == 1
        result.stdout.fnmatch_lines(
            [
                "week.rubrics.yaml:1:1: week.rubrics.yaml is not collected: case files are named "
                "[*].rubric.yaml or [*].rubric.yml; rename it to week.rubric.yaml to collect its "
                "cases",
            ]
        )
    result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider")
    # The folder named like a case file is a folder: one case file, the one inside it.
    result.stdout.fnmatch_lines(["rubric check: 1 case file, 1 case: 1 problem"])


@pytest.mark.parametrize(
    "other", ["--rubric-schema=s.json", "--rubric-evaluators", "--rubric-update=all"]
)
def test_the_check_runs_alone(pytester: pytest.Pytester, other: str) -> None:
    pytester.makefile(".rubric.yaml", slips=SLIPS)
    result = pytester.runpytest("--rubric-check", other)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: --rubric-check checks case files and runs nothing, so it takes no *"]
    )
    assert not (pytester.path / "s.json").exists()


def test_the_check_reads_pattern_properties_prefix_items_and_widened_codes(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        """
from pytest_rubric import Evaluator, hookimpl

SCHEMA = {
    "type": "object",
    "properties": {"code": {"enum": ["a", "b"]},
                   "t": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}],
                         "items": False}},
    "patternProperties": {"^x-": {"type": "integer"}},
    "additionalProperties": False,
}


def configure(block):
    return Evaluator("coded", "configured", evaluate=lambda i: i, answer_schema=SCHEMA)


@hookimpl
def rubric_evaluators():
    return [Evaluator("coded", "codes", evaluate=lambda i: i, answer_schema=SCHEMA,
                      configure=configure)]
"""
    )
    pytester.makefile(
        ".rubric.yaml",
        plain="evaluator: coded\ncases:\n  - id: a\n    input: {}\n"
        "    expected: {code: a, t: [1, s], x-y: 2}\n",
        block="evaluator: coded\nrubric: {any: thing}\ncases:\n  - id: z\n    input: {}\n"
        "    expected: {code: z}\n",
        wrong="evaluator: coded\ncases:\n  - id: w\n    input: {}\n"
        "    expected: {code: z, t: [1, s, 3], x-y: no}\n",
    )
    result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "wrong.rubric.yaml:5:22: case 'w': expected.code is \"z\" (a string), not one of a, b",
            "wrong.rubric.yaml:5:35: case 'w': expected.t[[]2] is not allowed here",
            "wrong.rubric.yaml:5:44: case 'w': expected.x-y is \"no\" (a string), not an integer",
            "rubric check: 3 case files, 3 cases: 3 problems",
        ]
    )


@pytest.mark.parametrize("narrowing", [("-k", "zzz"), ("-m", "slow"), ("-x",)])
def test_no_selection_narrows_the_check(
    pytester: pytest.Pytester, narrowing: tuple[str, ...]
) -> None:
    pytester.makefile(".rubric.yaml", slips=SLIPS, unknown=UNKNOWN)
    result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider", *narrowing)
    assert result.ret == 1
    result.stdout.fnmatch_lines(["rubric check: 2 case files, 2 cases: 5 problems"])


LEDGER_SLIPS = """\
evaluator: agreement
cases:
  - id: missing-file
    input_file: gone.csv
    ledger: {id: task, a: judge, b: editor, labls: {PASS: true, FAIL: false}}
    expected: {total: 1}
  - id: misspelt-key
    input_file: week.csv
    ledger: {id: task, a: judge, b: editor, labls: {PASS: true, FAIL: false}}
    expectd: {total: 1}
"""


def test_a_ledger_slip_is_listed_beside_the_cases_other_problems(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "week.csv").write_text("task,judge,editor\nr1,PASS,PASS\n")
    pytester.makefile(".rubric.yaml", l=LEDGER_SLIPS)
    result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "l.rubric.yaml:4:17: input_file 'gone.csv' does not exist (gone.csv); check the path",
            "l.rubric.yaml:5:45: 'labls' is not a ledger key; did you mean 'labels'?",
            "l.rubric.yaml:7:5: the case has no 'expected'; *",
            "l.rubric.yaml:9:45: 'labls' is not a ledger key; did you mean 'labels'?",
            "l.rubric.yaml:10:5: 'expectd' is not a case key; did you mean 'expected'?",
            "rubric check: 1 case file, 2 cases: 5 problems",
        ],
        consecutive=True,
    )


def test_deselect_does_not_narrow_the_check(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", slips=SLIPS, unknown=UNKNOWN)
    result = pytester.runpytest(
        "--rubric-check",
        "-p",
        "no:cacheprovider",
        "--deselect",
        "slips.rubric.yaml::misspelt-answer",
        "--deselect",
        "slips.rubric.yaml::misspelt-key",
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(["rubric check: 2 case files, 2 cases: 5 problems"])


@pytest.mark.parametrize("narrowing", [("--lf",), ("--sw",)])
def test_the_last_run_does_not_narrow_the_check(
    pytester: pytest.Pytester, narrowing: tuple[str, ...]
) -> None:
    pytester.makefile(".rubric.yaml", slips=SLIPS)
    pytester.runpytest().assert_outcomes(failed=2)  # the last run's failures: slips only
    pytester.makefile(".rubric.yaml", unknown=UNKNOWN)
    result = pytester.runpytest("--rubric-check", *narrowing)
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        ["unknown.rubric.yaml:1:12: unknown evaluator 'reasn'*", "rubric check: 2 case files, *"]
    )


YAML_11_ANSWER = """\
evaluator: reason
cases:
  - id: a
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected:
      expectedPass: yes
      expectedReasons: [all-required-met]
      coherent: on
"""


def test_a_yaml_11_boolean_is_named_with_a_plain_runs_words_at_its_value(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", c=YAML_11_ANSWER)
    plain = pytester.runpytest("-p", "no:cacheprovider")
    hint = "YAML 1.1 readers take {0} as a boolean, but here it is text: write true"
    plain.stdout.fnmatch_lines([f'*(expected is "yes" (a string); {hint.format("yes")})'])
    result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            f"c.rubric.yaml:6:21: case 'a': expected.expectedPass is \"yes\" (a string), "
            f"not a boolean; {hint.format('yes')}",
            f"c.rubric.yaml:8:17: case 'a': expected.coherent is \"on\" (a string), "
            f"not a boolean; {hint.format('on')}",
            "rubric check: 1 case file, 1 case: 2 problems",
        ],
        consecutive=True,
    )
