"""Evaluators from conftest files, pytest plugins and installed packages, and rubric blocks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric import RubricConfigError, evaluate_reason
from pytest_rubric.evaluators.reason import evaluate_required, parse_required

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


THREE_FIELDS = """\
evaluator: reason
rubric: {{required: [title, source, author]}}
cases:
  - id: case
    input: {{fields: {fields}, pass: {passed}, reasons: {reasons}}}
    expected: {expected}
"""


@pytest.mark.parametrize(
    ("fields", "passed", "reasons", "expected"),
    [
        (
            "{title: true, source: true, author: true}",
            "true",
            "[all-required-met]",
            "{expectedPass: true, expectedReasons: [all-required-met], coherent: true}",
        ),
        (
            "{title: false, source: true, author: false}",
            "false",
            "[missing-title, missing-author]",
            "{expectedPass: false, expectedReasons: [missing-author, missing-title], coherent: true}",
        ),
        (
            "{title: true, source: true}",
            "true",
            "[all-required-met]",
            "{status: invalid-reason-input}",
        ),
        ("{title: true, source: true, author: 1}", "true", "[]", "{status: invalid-reason-input}"),
        (
            "{title: true, source: true, author: true}",
            "true",
            "[missing-editor]",
            "{status: invalid-reason-input}",
        ),
        (
            "{title: true, source: false, author: true}",
            "false",
            "[missing-source, missing-source]",
            "{status: invalid-reason-input}",
        ),
    ],
    ids=[
        "all-met",
        "two-missing-sorted",
        "field-missing",
        "field-not-boolean",
        "unknown-code",
        "repeated-code",
    ],
)
def test_a_three_field_rubric_block_has_the_seed_semantics(
    pytester: pytest.Pytester, fields: str, passed: str, reasons: str, expected: str
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c=THREE_FIELDS.format(fields=fields, passed=passed, reasons=reasons, expected=expected),
    )
    pytester.runpytest().assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (
            "rubric: {required: []}",
            "c.rubric.yaml:2:20: rubric: 'required' must be a non-empty list of field names, "
            "not [] (a list); write e.g. 'required: [title, source, author]'",
        ),
        (
            "rubric: {required: title}",
            "c.rubric.yaml:2:20: rubric: 'required' must be a non-empty list of field names, "
            "not \"title\" (a string); write e.g. 'required: [title, source, author]'",
        ),
        (
            "rubric: {required: [title, '  ']}",
            'c.rubric.yaml:2:28: rubric: a required field must be a non-blank name, not "  " (a string)',
        ),
        (
            "rubric: {required: [title, source, title]}",
            "c.rubric.yaml:2:36: rubric: required field 'title' is listed twice (first as item 1); "
            "list each field once",
        ),
        (
            "rubric: {required: [title, 3]}",
            "c.rubric.yaml:2:28: rubric: a required field must be a non-blank name, not 3 (a number)",
        ),
        (
            "rubric: {requird: [title]}",
            "c.rubric.yaml:2:19: rubric: 'requird' is not a rubric key; "
            "the block is 'rubric: {required: [field, ...]}'",
        ),
        (
            "rubric: [title, source]",
            "c.rubric.yaml:2:9: 'rubric' must be a mapping that configures the evaluator, "
            'not ["title", "source"] (a list); '
            "write e.g. 'rubric: {required: [title, source, author]}'",
        ),
    ],
)
def test_a_bad_rubric_block_is_a_collection_error_at_its_place(
    pytester: pytest.Pytester, block: str, message: str
) -> None:
    pytester.makefile(".rubric.yaml", c=f"evaluator: reason\n{block}\ncases: []\n")
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*_ ERROR collecting c.rubric.yaml _*", message], consecutive=True)
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_an_evaluator_that_takes_no_rubric_block_says_so(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml", c="evaluator: agreement\nrubric: {required: [a]}\ncases: []\n"
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        ["c.rubric.yaml:2:9: evaluator 'agreement' takes no 'rubric:' block; remove it"]
    )


records = st.fixed_dictionaries(
    {
        "fields": st.dictionaries(
            st.sampled_from(["title", "source", "x"]), st.booleans() | st.integers()
        ),
        "pass": st.booleans() | st.none(),
        "reasons": st.lists(
            st.sampled_from(["missing-title", "missing-source", "all-required-met", "x"])
        ),
    }
)


@given(record=records)
def test_required_title_and_source_is_exactly_the_seed_rubric(record: dict[str, Any]) -> None:
    assert evaluate_required(record, ("title", "source")) == evaluate_reason(record)


@given(
    fields=st.lists(
        st.text(min_size=1, max_size=6).filter(lambda t: t == t.strip()), min_size=1, unique=True
    ),
    data=st.data(),
)
def test_any_valid_required_list_gives_sorted_missing_codes(
    fields: list[str], data: st.DataObject
) -> None:
    assert parse_required({"required": fields}) == tuple(fields)
    values = {name: data.draw(st.booleans()) for name in fields}
    record = {"fields": values, "pass": all(values.values()), "reasons": []}
    answer = evaluate_required(record, tuple(fields))
    missing = [f"missing-{name}" for name in fields if not values[name]]
    expected = missing or ["all-required-met"]
    assert answer["expectedReasons"] == sorted(
        expected, key=lambda c: c.encode("utf-16-be", "surrogatepass")
    )
    assert answer["expectedPass"] is (not missing)


def test_parse_required_names_where_the_block_is_wrong() -> None:
    with pytest.raises(RubricConfigError) as info:
        parse_required({"required": ["a", "b", "a"]})
    assert info.value.where == ("required", 2)


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
