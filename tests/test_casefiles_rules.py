"""Every loading rule as a user meets it: a bad case file, and the message pytest shows."""

from __future__ import annotations

import random
import re
from fnmatch import fnmatch
from pathlib import Path

import pytest

from pytest_rubric.casefiles.loader import parse_case_file
from pytest_rubric.core.errors import CaseFileError

GOOD_CASE = """\
  - id: good
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
"""

#: Rules whose message a pytest run is also checked for (the rest: the loader's word is
#: enough, as a run shows each problem of a case, or of a file, the same way).
SHOWN_IN_A_RUN = {"python-tag", "duplicate-label-key", "two-documents", "unknown-evaluator"}
#: File rules that the plugin, not the loader, finds.
NOT_THE_LOADERS = {"unknown-evaluator"}

# (rule, text of the one case after the good one, the message shown for it)
CASE_RULES = [
    (
        "duplicate-label-key",
        "  - id: dup\n    input:\n      rows:\n        - {id: A, a: true, a: false, b: true}\n    expected: {}\n",
        "  c.rubric.yaml:9:28: duplicate key 'a': first given at line 9, again at line 9; keep one of them",
    ),
    (
        "non-string-key",
        "  - id: numeric-key\n    input: {1: true}\n    expected: {}\n",
        "  c.rubric.yaml:7:13: mapping key 1 is not a string; quote it ('1') to use it as a key",
    ),
    (
        "anchor",
        "  - id: anchored\n    input: &in {rows: []}\n    expected: {}\n",
        "  c.rubric.yaml:7:12: anchor &in is refused: case files do not share values; "
        "remove '&in' and write each value out in full",
    ),
    (
        "alias",
        "  - id: aliased\n    input: {rows: []}\n    expected: *in\n",
        "  c.rubric.yaml:8:15: alias *in is refused: case files do not share values; write the value out in full",
    ),
    (
        "merge-key",
        "  - id: merged\n    input: {<<: {rows: []}}\n    expected: {}\n",
        "  c.rubric.yaml:7:13: merge key '<<' is refused: case files do not share values; "
        "write the merged keys out in full",
    ),
    (
        "python-tag",
        "  - id: tagged\n    input: !!python/object/apply:os.system [touch HACKED]\n    expected: {}\n",
        "  c.rubric.yaml:7:12: tag tag:yaml.org,2002:python/object/apply:os.system is refused: "
        "case files hold plain data only; remove the tag and write the value as plain YAML",
    ),
    (
        "local-tag",
        "  - id: tagged\n    input: {rows: !ledger []}\n    expected: {}\n",
        "  c.rubric.yaml:7:19: tag !ledger is refused: case files hold plain data only; "
        "remove the tag and write the value as plain YAML",
    ),
    (
        "misspelt-case-key",
        "  - id: typo\n    inptu: {rows: []}\n    input: {rows: []}\n    expected: {}\n",
        "  c.rubric.yaml:7:5: 'inptu' is not a case key; did you mean 'input'?",
    ),
    (
        "missing-input",
        "  - id: no-input\n    expected: {}\n",
        "  c.rubric.yaml:6:5: the case has no 'input'; add 'input:' with the evaluator's input as a mapping",
    ),
    (
        "expected-not-a-mapping",
        "  - id: scalar-expected\n    input: {rows: []}\n    expected: review-label\n",
        "  c.rubric.yaml:8:15: 'expected' must be a mapping (the exact expected answer), not "
        "\"review-label\" (a string); write 'expected:' followed by indented keys, or {...}",
    ),
    (
        "id-with-double-colon",
        "  - id: 'a::b'\n    input: {}\n    expected: {}\n",
        "  c.rubric.yaml:6:9: case id 'a::b' contains '::', which would break its pytest node ID; "
        "use letters, digits, '-', '_' or '.'",
    ),
    (
        "id-with-brackets",
        "  - id: 'case[1]'\n    input: {}\n    expected: {}\n",
        "  c.rubric.yaml:6:9: case id 'case[1]' contains '[', which would break its pytest node ID; "
        "use letters, digits, '-', '_' or '.'",
    ),
    (
        "id-with-line-break",
        '  - id: "two\\nlines"\n    input: {}\n    expected: {}\n',
        "  c.rubric.yaml:6:9: case id 'two\\nlines' contains '\\n', which would break its pytest node ID; "
        "use letters, digits, '-', '_' or '.'",
    ),
    (
        "blank-id",
        "  - id: '   '\n    input: {}\n    expected: {}\n",
        "  c.rubric.yaml:6:9: a case id must not be blank; name the case",
    ),
    (
        "numeric-id",
        "  - id: 7\n    input: {}\n    expected: {}\n",
        "  c.rubric.yaml:6:9: a case id must be text, not 7 (a number); write id: '7'",
    ),
    (
        "repeated-id",
        "  - id: good\n    input: {}\n    expected: {}\n",
        "  c.rubric.yaml:6:9: case id 'good' is already used by the case at line 3; give each case a unique id",
    ),
    (
        "not-a-finite-number",
        "  - id: nan\n    input: {v: .nan}\n    expected: {}\n",
        "  c.rubric.yaml:7:16: .nan is not a finite number, and JSON has no such value; "
        "quote it ('.nan') if you mean the text",
    ),
]


def _case_file_text(case_text: str) -> str:
    """A file of a good case and then ``case_text``, for the evaluator its input fits."""
    evaluator = "agreement" if "rows" in case_text else "reason"
    good = GOOD_CASE if evaluator == "reason" else GOOD_LEDGER_CASE
    return f"evaluator: {evaluator}\ncases:\n{good}{case_text}"


@pytest.mark.parametrize(
    ("case_text", "message"), [r[1:] for r in CASE_RULES], ids=[r[0] for r in CASE_RULES]
)
def test_a_case_level_problem_is_kept_on_that_case_alone_with_its_message(
    case_text: str, message: str
) -> None:
    good, bad = parse_case_file(_case_file_text(case_text).encode(), "c.rubric.yaml").cases
    assert good.problems == ()
    assert [f"  {problem}" for problem in bad.problems] == [message]


@pytest.mark.parametrize(
    ("case_text", "message"),
    [r[1:] for r in CASE_RULES if r[0] in SHOWN_IN_A_RUN],
    ids=[r[0] for r in CASE_RULES if r[0] in SHOWN_IN_A_RUN],
)
def test_a_case_level_problem_fails_that_case_with_its_message(
    pytester: pytest.Pytester, case_text: str, message: str
) -> None:
    pytester.makefile(".rubric.yaml", c=_case_file_text(case_text))
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    # The problem is the only line under the case's header: nothing is reported twice.
    result.stdout.fnmatch_lines(
        ["c.rubric.yaml:6: * cannot be evaluated", message], consecutive=True
    )
    assert result.stdout.lines[result.stdout.lines.index(message) + 1].startswith("=")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert not (pytester.path / "HACKED").exists()


GOOD_LEDGER_CASE = """\
  - id: good
    input: {rows: []}
    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 0, total: 0, disagreements: []}
"""

# (rule, whole file, the collection error shown)
FILE_RULES = [
    (
        "empty-file",
        b"",
        "c.rubric.yaml:1:1: the file is empty; a case file needs 'evaluator:' and 'cases:'",
    ),
    ("comments-only", b"# nothing yet\n", "c.rubric.yaml:1:1: the file is empty; *"),
    (
        "two-documents",
        b"evaluator: reason\ncases: []\n---\nevaluator: reason\ncases: []\n",
        "c.rubric.yaml:3:1: a second YAML document starts here; a case file holds exactly one document: "
        "remove this '---' or move these cases to another file",
    ),
    (
        "not-utf8",
        "evaluator: reason\ndescription: r\u00e9sum\u00e9\ncases: []\n".encode("latin-1"),
        "c.rubric.yaml:2:15: byte 0xe9 is not UTF-8; save the file as UTF-8",
    ),
    (
        "utf16",
        "evaluator: reason\ncases: []\n".encode("utf-16"),
        "c.rubric.yaml:1:1: byte 0xff is not UTF-8; save the file as UTF-8",
    ),
    (
        "duplicate-top-level-key",
        b"evaluator: reason\ncases: []\ncases: []\n",
        "c.rubric.yaml:3:1: duplicate key 'cases': first given at line 2, again at line 3; keep one of them",
    ),
    (
        "misspelt-top-level-key",
        b"evaluator: reason\ncase: []\n",
        "c.rubric.yaml:2:1: 'case' is not a top-level key; did you mean 'cases'?",
    ),
    (
        "unknown-evaluator",
        b"evaluator: agrement\ncases: []\n",
        "c.rubric.yaml:1:12: unknown evaluator 'agrement'; did you mean 'agreement'? registered: agreement, reason",
    ),
    (
        "cases-not-a-list",
        b"evaluator: reason\ncases: {id: a}\n",
        'c.rubric.yaml:2:8: \'cases\' must be a list of cases, not {"id": "a"} (a mapping); '
        "write each case as an item starting with '- id: ...'",
    ),
    (
        "syntax-error",
        b"evaluator: reason\ncases:\n  - id: a\n   input: {}\n",
        "c.rubric.yaml:4:*: invalid YAML: *; check the indentation and quoting here",
    ),
    (
        "deep-nesting",
        b"evaluator: reason\ncases:\n  - id: a\n    input: {v: "
        + b"[" * 3000
        + b"]" * 3000
        + b"}\n",
        "c.rubric.yaml:4:*: nesting deeper than 100 levels is refused; flatten this value",
    ),
    (
        "alias-bomb-at-top-level",
        b'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
        b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nevaluator: reason\ncases: []\n",
        "c.rubric.yaml:1:4: anchor &a is refused: *",
    ),
]


@pytest.mark.parametrize(
    ("data", "message"),
    [r[1:] for r in FILE_RULES if r[0] not in NOT_THE_LOADERS],
    ids=[r[0] for r in FILE_RULES if r[0] not in NOT_THE_LOADERS],
)
def test_a_file_level_problem_is_one_error_with_its_message(data: bytes, message: str) -> None:
    with pytest.raises(CaseFileError) as raised:
        parse_case_file(data, "c.rubric.yaml")
    assert fnmatch(str(raised.value), message)


@pytest.mark.parametrize(
    ("data", "message"),
    [r[1:] for r in FILE_RULES if r[0] in SHOWN_IN_A_RUN],
    ids=[r[0] for r in FILE_RULES if r[0] in SHOWN_IN_A_RUN],
)
def test_a_file_level_problem_is_one_collection_error_with_its_message(
    pytester: pytest.Pytester, data: bytes, message: str
) -> None:
    (pytester.path / "c.rubric.yaml").write_bytes(data)
    pytester.makefile(".rubric.yaml", other=f"evaluator: reason\ncases:\n{GOOD_CASE}")
    result = pytester.runpytest("--continue-on-collection-errors")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*_ ERROR collecting c.rubric.yaml _*", message], consecutive=True)
    result.stdout.no_fnmatch_line("*Traceback*")
    plain = pytester.runpytest()
    assert plain.ret == pytest.ExitCode.INTERRUPTED


def test_yes_stays_a_string_and_the_record_is_invalid(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c="""\
evaluator: reason
cases:
  - id: yes-label
    input: {fields: {title: yes, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            '  invalid input: fields.title is "yes" (a string), not a boolean; YAML 1.1 readers '
            "take yes as a boolean, but here it is text: write true"
        ]
    )


@pytest.mark.parametrize(("word", "meant"), [("on", "true"), ("n", "false"), ("Off", "false")])
def test_a_yaml_1_1_boolean_in_expected_gets_the_fix(
    pytester: pytest.Pytester, word: str, meant: str
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c=f"""\
evaluator: reason
cases:
  - id: word
    input: {{fields: {{title: {meant}, source: true}}, pass: {meant}, reasons: [all-required-met]}}
    expected: {{expectedPass: {word}, expectedReasons: [all-required-met], coherent: true}}
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f'*actual   {meant}  (expected is "{word}" (a string); YAML 1.1 readers take {word} '
            f"as a boolean, but here it is text: write {meant})"
        ]
    )


def test_a_quoted_label_and_a_numeric_id_are_named_with_their_fix(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c="""\
evaluator: agreement
cases:
  - id: quoted-label
    input: {rows: [{id: A, a: "true", b: true}]}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, total: 1, disagreements: []}
  - id: numeric-id
    input: {rows: [{id: 1, a: true, b: true}]}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, total: 1, disagreements: []}
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        [
            "  invalid input: rows[0].a (id 'A') is \"true\" (a string), not a boolean; write true without quotes",
            "*",
            "  invalid input: rows[0].id is 1 (a number), not a string; quote it: id: '1'",
        ]
    )


def test_importing_the_plugin_leaves_pyyaml_as_it_was(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import yaml
        import pytest_rubric.plugin

        def test_yaml_is_untouched():
            assert yaml.safe_load("a: yes") == {"a": True}
            assert yaml.safe_load("b: 2024-01-02")["b"].isoformat() == "2024-01-02"
        """
    )
    pytester.makefile(".rubric.yaml", c=f"evaluator: reason\ncases:\n{GOOD_CASE}")
    pytester.runpytest().assert_outcomes(passed=2)


def _mutations(seed: int, source: str, count: int) -> list[str]:
    """Case files spoilt the ways hands spoil them: characters dropped, doubled, swapped."""
    rng = random.Random(seed)
    noise = [
        ":",
        "-",
        " ",
        "\n",
        "  ",
        "{",
        "}",
        "[",
        "]",
        "&a",
        "*a",
        "!",
        "'",
        '"',
        "<<",
        "\t",
        "yes",
        "1",
    ]
    out = []
    for _ in range(count):
        text = list(source)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(text))
            action = rng.random()
            if action < 0.4:
                del text[at]
            elif action < 0.8:
                text.insert(at, rng.choice(noise))
            else:
                other = rng.randrange(len(text))
                text[at], text[other] = text[other], text[at]
        out.append("".join(text))
    return out


SEED_FILE = (
    Path(__file__).parent.parent / "example_project/rubrics/newsroom/judge-vs-editor.rubric.yaml"
).read_text()


def test_randomly_mutated_case_files_never_crash_pytest(pytester: pytest.Pytester) -> None:
    for index, text in enumerate(_mutations(20261129, SEED_FILE, 60)):
        (pytester.path / f"m{index:03d}.rubric.yaml").write_text(text)
    result = pytester.runpytest_subprocess(
        "--continue-on-collection-errors", "-p", "no:cacheprovider"
    )
    output = result.stdout.str() + result.stderr.str()
    assert result.ret in (
        pytest.ExitCode.OK,
        pytest.ExitCode.TESTS_FAILED,
        pytest.ExitCode.INTERRUPTED,
    )
    assert "INTERNALERROR" not in output
    assert "Traceback" not in output
    assert not re.search(r"pytest_rubric[/\\]", output), (
        "a traceback from inside the plugin was shown"
    )


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
