"""Evaluators from conftest files, pytest plugins and installed packages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "README.md"

PLUGIN_SOURCE = """\
from pytest_rubric import Evaluator, hookimpl


def shout(record):
    return {{"loud": str(record.get("text", "")).upper()}}


@hookimpl
def rubric_evaluators():
    return [Evaluator(name="{name}", description="Upper-cases the text.", evaluate=shout)]
"""

SHOUT_CASES = """\
evaluator: {name}
cases:
  - id: hello
    input: {{text: hello}}
    expected: {{loud: HELLO}}
"""


def test_a_conftest_evaluator_is_used_by_the_case_files_below_it(pytester: pytest.Pytester) -> None:
    pytester.mkpydir("graded")
    (pytester.path / "graded/conftest.py").write_text(PLUGIN_SOURCE.format(name="shout"))
    (pytester.path / "graded/a.rubric.yaml").write_text(SHOUT_CASES.format(name="shout"))
    (pytester.path / "other").mkdir()
    (pytester.path / "other/b.rubric.yaml").write_text(SHOUT_CASES.format(name="shout"))
    result = pytester.runpytest("--continue-on-collection-errors")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        ["other/b.rubric.yaml:1:12: unknown evaluator 'shout'; registered: agreement, reason"]
    )


def test_an_evaluator_from_a_pytest_plugin_module_is_discovered(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(shout_plugin=PLUGIN_SOURCE.format(name="shout"))
    pytester.makefile(".rubric.yaml", a=SHOUT_CASES.format(name="shout"))
    pytester.syspathinsert()
    pytester.runpytest("-p", "shout_plugin").assert_outcomes(passed=1)


def _install_distribution(site: Path, name: str) -> None:
    """A package installed the way pip leaves it: the module and its dist-info."""
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{name}.py").write_text(PLUGIN_SOURCE.format(name=name.replace("_", "-")))
    info = site / f"{name}-1.2.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.2\n")
    (info / "entry_points.txt").write_text(f"[pytest_rubric]\n{name} = {name}\n")
    (info / "RECORD").write_text("")


def test_an_installed_package_is_discovered_without_configuration(
    pytester: pytest.Pytester,
) -> None:
    site = pytester.path / "site"
    _install_distribution(site, "loud_rubrics")
    pytester.makefile(".rubric.yaml", a=SHOUT_CASES.format(name="loud-rubrics"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", str(site))
        result = pytester.runpytest_subprocess("-v", "-p", "no:cacheprovider")
        listing = pytester.runpytest_subprocess("--rubric-evaluators", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["a.rubric.yaml::hello PASSED*"])
    assert result.ret == pytest.ExitCode.OK
    listing.stdout.fnmatch_lines(
        [
            "*- rubric evaluators (3) -*",
            "agreement -- pytest-rubric (built-in)",
            "*",
            "*",
            "loud-rubrics -- loud_rubrics 1.2 (entry point pytest_rubric)",
            "    Upper-cases the text.",
            "reason -- pytest-rubric (built-in)",
        ],
        consecutive=True,
    )


def test_two_evaluators_with_one_name_is_an_error_naming_both_sources(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(PLUGIN_SOURCE.format(name="reason"))
    pytester.makefile(".rubric.yaml", a=SHOUT_CASES.format(name="reason"))
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "two evaluators are named 'reason': one from pytest-rubric (built-in) and one from "
            "conftest.py; rename one of them"
        ]
    )
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.no_fnmatch_line("*Traceback*")


def test_rubric_evaluators_lists_each_evaluator_with_its_source(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(PLUGIN_SOURCE.format(name="shout"))
    result = pytester.runpytest("--rubric-evaluators")
    result.stdout.fnmatch_lines(
        [
            "*- rubric evaluators (3) -*",
            "agreement -- pytest-rubric (built-in)",
            "    Two graders' Boolean labels per case ID: 2x2 matrix, agreement/total, disagreement IDs.",
            "    answer codes: review-case-identity, review-label",
            "reason -- pytest-rubric (built-in)",
            "*",
            "    answer codes: invalid-reason-input",
            "    takes a 'rubric:' block",
            "shout -- conftest.py",
            "    Upper-cases the text.",
        ],
        consecutive=True,
    )
    assert result.ret == pytest.ExitCode.OK


def test_the_readme_evaluator_example_runs_as_written(pytester: pytest.Pytester) -> None:
    text = README.read_text()
    section = text[text.index("## Writing your own evaluator") :]
    python = re.search(r"```python\n(.*?)```", section, re.S)
    cases = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert python is not None
    assert cases is not None
    pytester.makeconftest(python.group(1))
    pytester.makefile(".rubric.yaml", summaries=cases.group(1))
    result = pytester.runpytest("-v")
    result.stdout.fnmatch_lines(
        [
            "summaries.rubric.yaml::short-enough PASSED*",
            "summaries.rubric.yaml::limit-written-as-text PASSED*",
        ]
    )
    result.assert_outcomes(passed=2)


def test_the_example_project_uses_its_own_and_declarative_evaluators(
    pytester: pytest.Pytester,
) -> None:
    example = Path(__file__).parent.parent / "example_project"
    result = pytester.runpytest_subprocess(
        str(example / "rubrics/newsroom"), "-v", "-p", "no:cacheprovider"
    )
    result.stdout.fnmatch_lines(
        [
            "*byline-checks.rubric.yaml::missing-byline PASSED*",
            "*judge-position-bias.rubric.yaml::first-position-bias PASSED*",
        ]
    )
    assert result.ret == pytest.ExitCode.OK


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("explain", "'not a function'", "explain must be a function, or None"),
        ("ledger", "42", "ledger=42 (int); write pytest_rubric.OnLedger(stream=..., review=...)"),
        ("ledger", "OnLedger(stream=42)", "ledger stream=42 (int); stream must be a function"),
        ("ledger", "OnLedger(review='x')", "ledger review='x'; review must be a function"),
    ],
)
def test_a_declared_capability_of_the_wrong_type_is_a_registration_error(
    pytester: pytest.Pytester, field: str, value: str, words: str
) -> None:
    pytester.makeconftest(
        "from pytest_rubric import Evaluator, OnLedger, hookimpl\n\n\n@hookimpl\n"
        "def rubric_evaluators():\n"
        f"    return [Evaluator(name='x', description='x', evaluate=dict, {field}={value})]\n"
    )
    pytester.makefile(".rubric.yaml", x="evaluator: x\ncases: []\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{words}*"])
