"""Evaluator registration: conftest scoping under every import mode, and plugins that hand over garbage."""

from __future__ import annotations

from pathlib import Path

import pytest

HOOK_SOURCE = """\
from pytest_rubric import Evaluator, hookimpl


def shout(record):
    return {{"loud": str(record.get("text", "")).upper()}}


@hookimpl
def rubric_evaluators():
    return [Evaluator(name="{name}", description="Upper-cases the text.", evaluate=shout)]
"""

CASES = """\
evaluator: {name}
cases:
  - id: hello
    input: {{text: hello}}
    expected: {{loud: HELLO}}
"""

REASON_CASES = """\
evaluator: reason
cases:
  - id: ok
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
"""


def _evaluators_in(pytester: pytest.Pytester, folder: str, name: str) -> None:
    """A conftest in ``folder`` that provides ``name``, and a case file beside it that uses it."""
    directory = pytester.path / folder
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "conftest.py").write_text(HOOK_SOURCE.format(name=name))
    (directory / f"{name}.rubric.yaml").write_text(CASES.format(name=name))


def _assert_clean(result: pytest.RunResult) -> None:
    """No internal error, and no traceback or frame from pytest-rubric or pluggy."""
    for output in (result.stdout, result.stderr):
        output.no_fnmatch_line("*Traceback*")
        output.no_fnmatch_line("*INTERNALERROR*")
        output.no_fnmatch_line("*/pytest_rubric/*")
        output.no_fnmatch_line("*/pluggy/*")


# -- item 5: two conftests, import modes, symlinks ------------------------------------------


@pytest.mark.parametrize("mode", ["prepend", "importlib"])
def test_sibling_conftests_each_give_their_own_directory_its_evaluators(
    pytester: pytest.Pytester, mode: str
) -> None:
    _evaluators_in(pytester, "a", "shout-a")
    _evaluators_in(pytester, "b", "shout-b")
    # b's evaluator is not visible from a.
    (pytester.path / "a/cross.rubric.yaml").write_text(CASES.format(name="shout-b"))
    result = pytester.runpytest_subprocess(
        f"--import-mode={mode}", "-p", "no:cacheprovider", "--continue-on-collection-errors"
    )
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["a/cross.rubric.yaml:1:12: unknown evaluator 'shout-b'; *"])
    result.stdout.no_fnmatch_line("*already registered*")


@pytest.mark.parametrize("mode", ["prepend", "importlib"])
def test_a_root_and_a_subdirectory_conftest_both_apply_below_the_subdirectory(
    pytester: pytest.Pytester, mode: str
) -> None:
    _evaluators_in(pytester, ".", "outer")
    _evaluators_in(pytester, "sub", "inner")
    (pytester.path / "sub/outer.rubric.yaml").write_text(CASES.format(name="outer"))
    result = pytester.runpytest_subprocess(f"--import-mode={mode}", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3)


def test_conftests_in_packages_scope_their_evaluators_under_append_import_mode(
    pytester: pytest.Pytester,
) -> None:
    # Under append, pytest itself needs packages for two conftests (one module name otherwise).
    for folder in ("a", "b"):
        _evaluators_in(pytester, folder, f"shout-{folder}")
        (pytester.path / folder / "__init__.py").write_text("")
    (pytester.path / "a/cross.rubric.yaml").write_text(CASES.format(name="shout-b"))
    result = pytester.runpytest_subprocess(
        "--import-mode=append", "-p", "no:cacheprovider", "--continue-on-collection-errors"
    )
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["a/cross.rubric.yaml:1:12: unknown evaluator 'shout-b'; *"])


@pytest.mark.parametrize("mode", ["prepend", "importlib"])
def test_a_case_reached_through_a_symlinked_directory_sees_the_same_evaluators(
    pytester: pytest.Pytester, mode: str
) -> None:
    _evaluators_in(pytester, "real", "shout")
    (pytester.path / "link").symlink_to(pytester.path / "real", target_is_directory=True)
    result = pytester.runpytest_subprocess(f"--import-mode={mode}", "-p", "no:cacheprovider", "-v")
    result.stdout.fnmatch_lines(
        ["link/shout.rubric.yaml::hello PASSED*", "real/shout.rubric.yaml::hello PASSED*"]
    )
    result.assert_outcomes(passed=2)
    listing = pytester.runpytest_subprocess(
        f"--import-mode={mode}", "-p", "no:cacheprovider", "--rubric-evaluators"
    )
    listing.stdout.fnmatch_lines(["*- rubric evaluators (3) -*"])
    assert listing.stdout.str().count("shout -- real/conftest.py") == 1
    assert listing.ret == pytest.ExitCode.OK


# -- item 6: registration garbage ------------------------------------------------------------

GARBAGE = {
    "returns-42": ("return 42", "returned 42 (int); return [Evaluator(*"),
    "returns-object": ("return object()", "returned <object object at *> (object); return [*"),
    "list-with-a-string": (
        'return [Evaluator(name="x", description="d", evaluate=len), "shout"]',
        "returned 'shout', which is not an Evaluator; return pytest_rubric.Evaluator(*) objects",
    ),
    "one-evaluator-not-in-a-list": (
        'return Evaluator(name="x", description="d", evaluate=len)',
        "returned one Evaluator, not a list; write 'return [...]'",
    ),
    "name-none": (
        'return [Evaluator(name=None, description="d", evaluate=len)]',
        "returned an Evaluator named None; its name must be non-blank text, *",
    ),
    "name-3": (
        'return [Evaluator(name=3, description="d", evaluate=len)]',
        "returned an Evaluator named 3 (int); its name must be non-blank text, *",
    ),
    "name-empty": (
        'return [Evaluator(name="", description="d", evaluate=len)]',
        "returned an Evaluator named ''; its name must be non-blank text, *",
    ),
    "name-blank": (
        'return [Evaluator(name="  ", description="d", evaluate=len)]',
        "returned an Evaluator named '  '; its name must be non-blank text, *",
    ),
    "evaluate-not-callable": (
        'return [Evaluator(name="x", description="d", evaluate="len")]',
        "returned evaluator 'x' with evaluate='len'; evaluate must be a function *",
    ),
    "two-with-one-name": (
        'return [Evaluator(name="x", description="d", evaluate=len), '
        'Evaluator(name="x", description="e", evaluate=len)]',
        "returned two evaluators named 'x'; rename one of them",
    ),
}


def _garbage_conftest(body: str) -> str:
    return (
        "from pytest_rubric import Evaluator, hookimpl\n\n\n"
        f"@hookimpl\ndef rubric_evaluators():\n    {body}\n"
    )


@pytest.mark.parametrize(("body", "message"), list(GARBAGE.values()), ids=list(GARBAGE))
def test_a_root_conftest_returning_garbage_is_a_usage_error_naming_it(
    pytester: pytest.Pytester, body: str, message: str
) -> None:
    pytester.makeconftest(_garbage_conftest(body))
    pytester.makefile(".rubric.yaml", a=REASON_CASES)
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: conftest.py: rubric_evaluators {message}"])
    _assert_clean(result)


@pytest.mark.parametrize("option", [(), ("--rubric-evaluators",)], ids=["run", "listing"])
def test_garbage_registration_is_an_error_also_in_a_project_with_no_case_files(
    pytester: pytest.Pytester, option: tuple[str, ...]
) -> None:
    pytester.makeconftest(_garbage_conftest("return 42"))
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest(*option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: conftest.py: rubric_evaluators returned 42 (int); *"])
    _assert_clean(result)


def test_a_hook_that_raises_shows_the_exception_and_its_own_frames_only(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "from pytest_rubric import hookimpl\n\n\n"
        "def load():\n"
        "    raise RuntimeError('no evaluators configured')\n\n\n"
        "@hookimpl\n"
        "def rubric_evaluators():\n"
        "    return load()\n"
    )
    pytester.makefile(".rubric.yaml", a=REASON_CASES)
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: conftest.py: rubric_evaluators raised RuntimeError: no evaluators configured",
            "    at conftest.py:10 in rubric_evaluators",
            "    at conftest.py:5 in load",
        ],
        consecutive=True,
    )
    _assert_clean(result)


def test_a_hook_with_a_wrong_signature_says_to_take_no_arguments(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "from pytest_rubric import hookimpl\n\n\n"
        "@hookimpl\ndef rubric_evaluators(config):\n    return []\n"
    )
    pytester.makefile(".rubric.yaml", a=REASON_CASES)
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: conftest.py: 'def rubric_evaluators(config)' takes arguments the hook "
            "does not give; write 'def rubric_evaluators():' with no arguments"
        ]
    )
    _assert_clean(result)


def test_a_misspelt_hook_or_a_hook_without_its_marker_is_named(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "from pytest_rubric import hookimpl\n\n\n"
        "@hookimpl\ndef rubric_evaluator():\n    return []\n"
    )
    pytester.makepyfile(
        other_plugin="def rubric_evaluators():\n    return []\n",
    )
    pytester.syspathinsert()
    result = pytester.runpytest("-p", "other_plugin")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: plugin other_plugin: rubric_evaluators is not marked as a hook; put "
            "'@pytest_rubric.hookimpl' on the line above 'def rubric_evaluators():'",
            "conftest.py: rubric_evaluator is not a pytest-rubric hook; the hook is "
            "'rubric_evaluators'",
        ]
    )


def test_a_subdirectory_conftest_returning_garbage_fails_the_case_files_it_applies_to(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "sub").mkdir()
    (pytester.path / "sub/conftest.py").write_text(_garbage_conftest("return 42"))
    (pytester.path / "sub/a.rubric.yaml").write_text(REASON_CASES)
    pytester.makefile(".rubric.yaml", top=REASON_CASES)
    result = pytester.runpytest("--continue-on-collection-errors")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR collecting sub/a.rubric.yaml _*",
            "sub/conftest.py: rubric_evaluators returned 42 (int); return [Evaluator(*",
        ],
        consecutive=True,
    )
    _assert_clean(result)
    listing = pytester.runpytest("--rubric-evaluators")
    assert listing.ret == pytest.ExitCode.USAGE_ERROR
    listing.stderr.fnmatch_lines(["ERROR: sub/conftest.py: rubric_evaluators returned 42 (int); *"])


@pytest.mark.parametrize("where", ["root", "sub"])
def test_broken_registration_fails_the_run_under_xdist(
    pytester: pytest.Pytester, where: str
) -> None:
    folder = pytester.path / ("." if where == "root" else "sub")
    folder.mkdir(exist_ok=True)
    (folder / "conftest.py").write_text(_garbage_conftest("return [object()]"))
    (folder / "a.rubric.yaml").write_text(REASON_CASES)
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    assert result.ret not in (pytest.ExitCode.OK, pytest.ExitCode.INTERNAL_ERROR)
    result.stdout.no_fnmatch_line("*INTERNALERROR*")
    output = result.stdout.str() + result.stderr.str()
    assert "rubric_evaluators returned <object object at" in output


def _install(site: Path, name: str, module_text: str, target: str) -> None:
    """A package installed the way pip leaves it: the module and its dist-info."""
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{name}.py").write_text(module_text)
    info = site / f"{name}-1.2.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.2\n")
    (info / "entry_points.txt").write_text(f"[pytest_rubric]\n{name} = {target}\n")
    (info / "RECORD").write_text("")


BROKEN_MODULES = {
    "import-error": (
        "import no_such_module_anywhere\n",
        "broken_rubrics",
        "ModuleNotFoundError: No module named 'no_such_module_anywhere'",
    ),
    "exception-at-import": (
        "raise ValueError('bad setup')\n",
        "broken_rubrics",
        "ValueError: bad setup",
    ),
    "missing-attribute": (
        "X = 1\n",
        "broken_rubrics:evaluators",
        "AttributeError: *evaluators*",
    ),
    "no-hook": ("X = 1\n", "broken_rubrics", None),
}


@pytest.mark.parametrize(
    ("module_text", "target", "error"), list(BROKEN_MODULES.values()), ids=list(BROKEN_MODULES)
)
@pytest.mark.parametrize("option", [(), ("--rubric-evaluators",)], ids=["run", "listing"])
def test_a_broken_entry_point_module_is_a_usage_error_naming_the_distribution(
    pytester: pytest.Pytester,
    module_text: str,
    target: str,
    error: str | None,
    option: tuple[str, ...],
) -> None:
    site = pytester.path / "site"
    _install(site, "broken_rubrics", module_text, target)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", str(site))
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    if error is None:
        expected = (
            "ERROR: broken_rubrics 1.2 (entry point pytest_rubric): the module has no "
            "rubric_evaluators hook; point the entry point at the module that defines it"
        )
    else:
        expected = (
            f"ERROR: broken_rubrics 1.2 (entry point pytest_rubric): cannot load "
            f"'broken_rubrics = {target}': {error}; fix it, or uninstall broken_rubrics"
        )
    result.stderr.fnmatch_lines([expected])
    _assert_clean(result)


def test_a_plugin_module_returning_garbage_is_named_by_its_module(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(junk_plugin=_garbage_conftest("return 42"))
    pytester.syspathinsert()
    result = pytester.runpytest("-p", "junk_plugin")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: plugin junk_plugin: rubric_evaluators returned 42 (int); *"]
    )
    _assert_clean(result)
