"""The strict loader, without pytest: what a case file means, and how it is refused."""

from __future__ import annotations

import contextlib
import fnmatch
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.casefiles.cases import CaseFile
from pytest_rubric.casefiles.loader import load_case_file, parse_case_file
from pytest_rubric.casefiles.yamlstrict import MAX_DEPTH
from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.errors import CaseFileError

PARSERS = [pytest.param(yaml.SafeLoader, id="pure-python")]
if hasattr(yaml, "CSafeLoader"):
    PARSERS.insert(0, pytest.param(yaml.CSafeLoader, id="libyaml"))


@pytest.fixture(params=PARSERS)
def parser(request: pytest.FixtureRequest) -> Any:
    return request.param


def load(text: str, parser: Any) -> CaseFile:
    return parse_case_file(text.encode(), "c.rubric.yaml", parser)


def one_input(value_yaml: str, parser: Any) -> Any:
    case_file = load(
        f"evaluator: reason\ncases:\n  - id: x\n    input: {{v: {value_yaml}}}\n    expected: {{}}\n",
        parser,
    )
    (case,) = case_file.cases
    assert case.problems == ()
    return case.input["v"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("true", True),
        ("True", True),
        ("TRUE", True),
        ("false", False),
        ("False", False),
        ("FALSE", False),
        ("yes", "yes"),
        ("no", "no"),
        ("on", "on"),
        ("off", "off"),
        ("y", "y"),
        ("n", "n"),
        ("Yes", "Yes"),
        ("2024-01-02", "2024-01-02"),
        ("1:30", "1:30"),
        ("tRUE", "tRUE"),
        ("null", None),
        ("~", None),
        ("", None),
        ("NULL", None),
        ("12", 12),
        ("-3", -3),
        ("0o17", 15),
        ("0x1F", 31),
        ("017", 17),
        ("1_000", "1_000"),
        ("1.5", 1.5),
        ("1e3", 1000.0),
        ("-.5", -0.5),
        ("'true'", "true"),
        ('"12"', "12"),
    ],
)
def test_scalars_follow_yaml_1_2(text: str, value: Any, parser: Any) -> None:
    loaded = one_input(text, parser)
    assert loaded == value
    assert type(loaded) is type(value)


@pytest.mark.parametrize("text", [".nan", ".inf", "-.Inf"])
def test_non_finite_numbers_are_refused(text: str, parser: Any) -> None:
    case_file = load(
        f"evaluator: reason\ncases:\n  - id: x\n    input: {{v: {text}}}\n    expected: {{}}\n",
        parser,
    )
    (problem,) = case_file.cases[0].problems
    assert str(problem) == (
        f"c.rubric.yaml:4:16: {text} is not a finite number, and JSON has no such value; "
        f"quote it ('{text}') if you mean the text"
    )


def test_a_duplicate_key_in_a_row_fails_that_case_naming_both_lines(parser: Any) -> None:
    text = (
        "evaluator: agreement\ncases:\n"
        "  - id: dup\n    input:\n      rows:\n        - id: A\n          a: true\n          a: false\n"
        "          b: true\n    expected: {}\n"
        "  - id: fine\n    input: {rows: []}\n    expected: {}\n"
    )
    dup, fine = load(text, parser).cases
    assert [str(p) for p in dup.problems] == [
        "c.rubric.yaml:8:11: duplicate key 'a': first given at line 7, again at line 8; keep one of them"
    ]
    assert fine.problems == ()


def test_a_duplicate_top_level_key_is_a_file_error(parser: Any) -> None:
    with pytest.raises(CaseFileError) as info:
        load("evaluator: reason\nevaluator: agreement\ncases: []\n", parser)
    assert str(info.value) == (
        "c.rubric.yaml:2:1: duplicate key 'evaluator': first given at line 1, again at line 2; keep one of them"
    )


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("1", "mapping key 1 is not a string; quote it ('1') to use it as a key"),
        ("true", "mapping key true is not a string; quote it ('true') to use it as a key"),
        ("~", "mapping key null is not a string; quote it ('null') to use it as a key"),
        ("[a]", "a mapping key must be a string, not a mapping or list; use a plain text key"),
    ],
)
def test_mapping_keys_must_be_strings(key: str, message: str, parser: Any) -> None:
    case_file = load(
        f"evaluator: reason\ncases:\n  - id: x\n    input: {{{key}: 1}}\n    expected: {{}}\n",
        parser,
    )
    assert [p.message for p in case_file.cases[0].problems] == [message]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ("input: &shared {rows: []}", "anchor &shared is refused"),
        ("input: {rows: []}\n    expected: *x", "alias *x is refused"),
        ("input: {<<: {rows: []}}", "merge key '<<' is refused"),
        (
            "input: !!python/object/apply:os.system [echo hacked]",
            "tag tag:yaml.org,2002:python/object/apply:os.system is refused",
        ),
        ("input: !custom {rows: []}", "tag !custom is refused"),
        ("input: ! {rows: []}", "tag ! is refused"),
    ],
)
def test_anchors_aliases_merge_keys_and_tags_are_refused(
    body: str, fragment: str, parser: Any
) -> None:
    text = f"evaluator: agreement\ncases:\n  - id: x\n    {body}\n    expected: {{}}\n"
    problems = [str(p) for p in load(text, parser).cases[0].problems]
    assert any(fragment in p for p in problems), problems


def test_an_alias_bomb_is_refused_without_being_expanded(parser: Any) -> None:
    lines = [
        "evaluator: reason",
        "cases:",
        "  - id: bomb",
        "    input:",
        '      l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ]
    for level in range(1, 20):
        prev = f"*l{level - 1}"
        lines.append(f"      l{level}: &l{level} [{', '.join([prev] * 9)}]")
    lines.append("    expected: {}")
    case_file = load("\n".join(lines) + "\n", parser)
    problems = [str(problem) for problem in case_file.cases[0].problems]
    # Each alias is refused once where it is written (19 levels of 9), never followed:
    # expanding them would mean 9**19 values.
    assert sum(" alias *l" in problem for problem in problems) == 19 * 9
    assert sum(" anchor &l" in problem for problem in problems) == 20


def test_thousands_of_nesting_levels_give_an_error_not_a_recursion_error(parser: Any) -> None:
    deep = "[" * 5000 + "]" * 5000
    with pytest.raises(CaseFileError) as info:
        load(
            f"evaluator: reason\ncases:\n  - id: x\n    input: {{v: {deep}}}\n    expected: {{}}\n",
            parser,
        )
    # On line 4, inside the brackets: where exactly depends on how far the parser scans
    # ahead (libyaml meets its own limit of 1000 levels first), so only the range is pinned.
    error = info.value
    assert (error.line, error.message) == (
        4,
        f"nesting deeper than {MAX_DEPTH} levels is refused; flatten this value",
    )
    assert 16 <= error.col <= 16 + len(deep)


def test_a_second_document_is_a_file_error(parser: Any) -> None:
    with pytest.raises(
        CaseFileError, match=r"^c.rubric.yaml:3:1: a second YAML document starts here"
    ):
        load("evaluator: reason\ncases: []\n---\nevaluator: reason\n", parser)


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n"])
def test_an_empty_file_is_an_error(text: str, parser: Any) -> None:
    with pytest.raises(CaseFileError, match=r"^c.rubric.yaml:1:1: the file is empty"):
        load(text, parser)


def test_a_bom_is_fine_and_other_encodings_are_refused_with_a_position(parser: Any) -> None:
    good = "\ufeffevaluator: reason\ncases: []\n".encode()
    assert parse_case_file(good, "c.rubric.yaml", parser).evaluator == "reason"
    latin1 = "evaluator: reason\ndescription: caf\u00e9\ncases: []\n".encode("latin-1")
    with pytest.raises(CaseFileError) as info:
        parse_case_file(latin1, "c.rubric.yaml", parser)
    assert str(info.value) == "c.rubric.yaml:2:17: byte 0xe9 is not UTF-8; save the file as UTF-8"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "evaluater: reason\ncases: []\n",
            "c.rubric.yaml:1:1: 'evaluater' is not a top-level key; did you mean 'evaluator'?",
        ),
        (
            "cases: []\n",
            "c.rubric.yaml:1:1: 'evaluator:' is missing; name the evaluator, e.g. 'evaluator: reason'",
        ),
        (
            "evaluator: reason\n",
            "c.rubric.yaml:1:1: 'cases:' is missing; add 'cases:' with a list of cases (it may be empty: 'cases: []')",
        ),
        (
            "evaluator: reason\ncases: {a: 1}\n",
            "c.rubric.yaml:2:8: 'cases' must be a list of cases, not {\"a\": 1} (a mapping); write each case as an item starting with '- id: ...'",
        ),
        (
            "evaluator: 3\ncases: []\n",
            "c.rubric.yaml:1:12: 'evaluator' must be an evaluator's name, not 3 (a number); write e.g. 'evaluator: reason'",
        ),
        (
            "- evaluator: reason\n",
            "c.rubric.yaml:1:1: a case file must be a mapping with 'evaluator:' and 'cases:', not [[]{\"evaluator\": \"reason\"}[]] (a list); start the file with 'evaluator: <name>' and 'cases:'",
        ),
        (
            "evaluator: reason\ncases: [\n",
            "c.rubric.yaml:3:1: invalid YAML: *; check the indentation and quoting here",
        ),
        (
            "evaluator: reason\ncases: []\n  bad: indent\n",
            "c.rubric.yaml:3:3: invalid YAML: *; check the indentation and quoting here",
        ),
        (
            'evaluator: reason\ndescription: "a\x01"\ncases: []\n',
            "c.rubric.yaml:2:16: character U+0001 is not allowed in YAML; *",
        ),
    ],
)
def test_file_level_problems_name_path_line_col_and_the_fix(
    text: str, message: str, parser: Any
) -> None:
    with pytest.raises(CaseFileError) as info:
        load(text, parser)
    # The parsers word syntax errors differently; the position and the advice are the same.
    assert fnmatch.fnmatchcase(str(info.value), message), str(info.value)


@pytest.mark.parametrize(
    ("case_id", "message"),
    [
        (
            "'a::b'",
            "case id 'a::b' contains '::', which would break its pytest node ID; use letters, digits, '-', '_' or '.'",
        ),
        (
            "'a[1]'",
            "case id 'a[1]' contains '[', which would break its pytest node ID; use letters, digits, '-', '_' or '.'",
        ),
        (
            '"a\\nb"',
            "case id 'a\\nb' contains '\\n', which would break its pytest node ID; use letters, digits, '-', '_' or '.'",
        ),
        ("'  '", "a case id must not be blank; name the case"),
        ("' x'", "case id ' x' has leading or trailing whitespace; write 'x'"),
        ("1", "a case id must be text, not 1 (a number); write id: '1'"),
        ("null", "a case id must be text, not empty (null); write id: '<a unique name>'"),
    ],
)
def test_unusable_case_ids_fail_that_case_only(case_id: str, message: str, parser: Any) -> None:
    text = (
        "evaluator: reason\ncases:\n"
        f"  - id: {case_id}\n    input: {{}}\n    expected: {{}}\n"
        "  - id: ok\n    input: {}\n    expected: {}\n"
    )
    bad, ok = load(text, parser).cases
    assert bad.name == "cases.0"
    assert [p.message for p in bad.problems] == [message]
    assert ok.name == "ok"
    assert ok.problems == ()


def test_a_repeated_case_id_fails_the_second_case(parser: Any) -> None:
    text = "evaluator: reason\ncases:\n  - {id: a, input: {}, expected: {}}\n  - {id: a, input: {}, expected: {}}\n"
    first, second = load(text, parser).cases
    assert first.name == "a"
    assert first.problems == ()
    assert second.name == "cases.1"
    assert [str(p) for p in second.problems] == [
        "c.rubric.yaml:4:10: case id 'a' is already used by the case at line 3; give each case a unique id"
    ]


def test_a_file_that_cannot_be_read_is_an_error_naming_why(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError) as info:
        load_case_file(tmp_path / "gone.rubric.yaml", "gone.rubric.yaml")
    assert str(info.value) == (
        "gone.rubric.yaml:1:1: cannot be read: No such file or directory; check the path and its permissions"
    )


def test_loading_leaves_pyyaml_global_state_alone() -> None:
    load("evaluator: reason\ncases: [{id: a, input: {v: yes}, expected: {}}]\n", yaml.SafeLoader)
    assert yaml.safe_load("a: yes") == {"a": True}
    assert yaml.safe_load("d: 2024-01-02")["d"].year == 2024


def test_both_parsers_read_the_example_project_identically() -> None:
    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML was built without libyaml")
    paths = sorted(Path(__file__).parent.parent.joinpath("example_project").rglob("*.rubric.y*ml"))
    assert len(paths) >= 5  # the example project's case files, not an empty glob
    for path in paths:
        libyaml = load_case_file(path, "x", yaml.CSafeLoader)
        pure = load_case_file(path, "x", yaml.SafeLoader)
        assert all(not case.problems for case in libyaml.cases)
        assert libyaml == pure


@given(text=st.text(max_size=200))
def test_arbitrary_text_only_ever_raises_case_file_error(text: str) -> None:
    for parser in (yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        with contextlib.suppress(CaseFileError):
            parse_case_file(text.encode("utf-8", "surrogatepass"), "f", parser)


yaml_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)


class _QuotingDumper(yaml.SafeDumper):
    """Writes every string double-quoted and escaped: PyYAML's dumper leaves strings
    such as ``0E0`` plain, which YAML 1.2 (rightly) reads as numbers."""


_QuotingDumper.add_representer(
    str, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
)


@given(value=yaml_like, flow=st.booleans())
def test_arbitrary_yaml_structures_only_ever_raise_case_file_error(value: Any, flow: bool) -> None:
    document = {
        "evaluator": "reason",
        "cases": [{"id": "x", "input": {"v": value}, "expected": {}}],
    }
    text = yaml.dump(document, Dumper=_QuotingDumper, default_flow_style=flow)
    try:
        case_file = parse_case_file(text.encode(), "f")
    except CaseFileError:
        return
    (case,) = case_file.cases
    if not case.problems:  # what loads cleanly means exactly what was written
        assert json_equal(case.input, {"v": value})
