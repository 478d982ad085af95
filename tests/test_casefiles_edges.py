"""Case files at the edges, read by both YAML parsers (libyaml and pure Python): huge
integers where numbers and where text belong, hostile scalars anywhere, positions counted in
characters after multi-byte text, and the fallback names of cases without a usable ID."""

from __future__ import annotations

import decimal
from typing import Any

import pytest
import yaml
from _edges import BIG, BIG_SHOWN, BIG_TEXT, GOOD_CASE, hostile
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.casefiles.cases import CaseFile
from pytest_rubric.casefiles.loader import parse_case_file
from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.core.numbers import MAX_NUMBER_CHARS
from pytest_rubric.evaluators._common import describe

PARSERS = [pytest.param(yaml.SafeLoader, id="pure-python")]
if hasattr(yaml, "CSafeLoader"):
    PARSERS.insert(0, pytest.param(yaml.CSafeLoader, id="libyaml"))
BOTH_PARSERS: list[type[Any]] = [getattr(yaml, "CSafeLoader", yaml.SafeLoader), yaml.SafeLoader]

HEX_BIG = int("f" * 4000, 16)  # 4817 digits


@pytest.fixture(params=PARSERS)
def parser(request: pytest.FixtureRequest) -> Any:
    return request.param


def load(text: str, parser: Any) -> CaseFile:
    return parse_case_file(text.encode(), "c.rubric.yaml", parser)


def problems_of(case_file: CaseFile) -> dict[str, list[str]]:
    return {case.name: [str(p) for p in case.problems] for case in case_file.cases}


# --- huge integers ------------------------------------------------------------------------


def test_huge_decimal_and_hex_integers_load_as_integers(parser: Any) -> None:
    case_file = load(
        "evaluator: agreement\ncases:\n  - id: x\n"
        f"    input: {{rows: [{{id: r, a: {BIG_TEXT}, b: -{BIG_TEXT}}}]}}\n"
        f"    expected: {{h: 0x{'f' * 4000}, o: 0o{'7' * 5000}}}\n",
        parser,
    )
    (case,) = case_file.cases
    assert case.problems == ()
    rows: Any = case.input["rows"]
    assert rows[0]["a"] == BIG
    assert rows[0]["b"] == -BIG
    assert case.expected == {"h": HEX_BIG, "o": 8**5000 - 1}


def test_a_huge_integer_where_text_belongs_fails_only_that_case_at_its_position(
    parser: Any,
) -> None:
    case_file = load(
        "evaluator: reason\ncases:\n"
        + GOOD_CASE
        + f"  - id: {BIG_TEXT}\n    input: {{}}\n    expected: {{}}\n"
        + f"  - id: noted\n    note: 0x{'f' * 4000}\n    input: {{}}\n    expected: {{}}\n"
        + f"  - id: keyed\n    input:\n      ? {BIG_TEXT}\n      : 1\n    expected: {{}}\n",
        parser,
    )
    assert problems_of(case_file) == {
        "good": [],
        "cases.1": [
            f"c.rubric.yaml:6:9: a case id must be text, not {BIG_SHOWN}; "
            "write id: '<a unique name>'"
        ],
        "noted": [
            "c.rubric.yaml:10:11: 'note' must be text, not "
            "3019…9375 (an integer of 4817 digits); quote it or remove it"
        ],
        "keyed": [
            f"c.rubric.yaml:15:9: mapping key {BIG_SHOWN} is not a string; "
            "quote it to use it as a key"
        ],
    }


def test_a_number_longer_than_case_files_take_is_refused_at_its_position(parser: Any) -> None:
    digits = "9" * (MAX_NUMBER_CHARS + 1)
    case_file = load(
        f"evaluator: reason\ncases:\n{GOOD_CASE}  - id: long\n    input: {{v: {digits}}}\n"
        "    expected: {}\n",
        parser,
    )
    assert problems_of(case_file)["long"] == [
        f"c.rubric.yaml:7:16: a number written with {MAX_NUMBER_CHARS + 1} characters is longer "
        f"than case files take ({MAX_NUMBER_CHARS}); shorten it, or quote it if you mean the text"
    ]
    assert problems_of(case_file)["good"] == []


def test_a_huge_integer_at_file_level_is_a_clean_collection_error(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", c=f"evaluator: {BIG_TEXT}\ncases: []\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            f"c.rubric.yaml:1:12: 'evaluator' must be an evaluator's name, not "
            f"{BIG_SHOWN}; write e.g. 'evaluator: reason'"
        ]
    )
    result.stdout.no_fnmatch_line("*Traceback*")
    result.stdout.no_fnmatch_line("*int_max_str_digits*")


def test_a_huge_integer_as_an_agreement_label_answers_review_label(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c=(
            "evaluator: agreement\ncases:\n"
            f"  - id: huge-label\n    input: {{rows: [{{id: r1, a: {BIG_TEXT}, b: true}}]}}\n"
            "    expected: {error: review-label}\n"
            f"  - id: hex-label\n    input: {{rows: [{{id: r1, a: true, b: 0x{'f' * 4000}}}]}}\n"
            "    expected: {error: review-label}\n"
        ),
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=2)
    result.stdout.no_fnmatch_line("*Traceback*")


# --- Hypothesis: hostile scalars anywhere in a case file ---------------------------------


def _decimal_text(value: int) -> str:
    # The decimal module converts without the int/str digit limit.
    return str(decimal.Decimal(value))


class _HugeIntDumper(yaml.SafeDumper):
    """Writes strings double-quoted and escaped, and integers of any length in decimal
    (PyYAML's own representer calls ``str()``, which refuses past 4300 digits)."""


_HugeIntDumper.add_representer(
    str, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
)
_HugeIntDumper.add_representer(
    int, lambda dumper, n: dumper.represent_scalar("tag:yaml.org,2002:int", _decimal_text(n))
)


@given(value=hostile, case_id=hostile, flow=st.booleans())
def test_hostile_values_anywhere_load_as_written_or_fail_with_a_position(
    value: Any, case_id: Any, flow: bool
) -> None:
    document = {
        "evaluator": "agreement",
        "cases": [
            {"id": case_id, "note": value, "input": {"rows": [value]}, "expected": {"k": value}}
        ],
    }
    text = yaml.dump(document, Dumper=_HugeIntDumper, default_flow_style=flow, allow_unicode=False)
    for parser in BOTH_PARSERS:
        try:
            case_file = parse_case_file(text.encode("utf-8", "surrogatepass"), "f", parser)
        except CaseFileError as exc:
            error: CaseFileError | None = exc
        else:
            error = None
        if error is not None:
            assert (error.line, error.col) >= (1, 1)
            continue
        (case,) = case_file.cases
        assert all((p.line, p.col) >= (1, 1) for p in case.problems)
        if not case.problems:
            assert json_equal(case.expected, {"k": value})
        describe(case.input)  # never raises


# --- positions are characters, the same for both parsers ---------------------------------


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ("evaluator: reason\ncases:\n  - id: ééé\x01\n", 3, 12),
        ("a: 😀😀\x7f\n", 1, 6),
        ('a: "中文\x80"\n', 1, 7),
        ("# é\x1b\n", 1, 4),
        ("a: |\n  é\ufffe\n", 2, 4),
        ("a: é\rb: é\x01\n", 2, 5),  # a lone CR is a line break to YAML
    ],
    ids=[
        "ctrl-in-id",
        "del-after-emoji",
        "c1-in-quotes",
        "esc-in-comment",
        "nonchar-in-block",
        "after-cr",
    ],
)
def test_a_bad_character_is_reported_at_its_line_and_character_column_by_both_parsers(
    text: str, line: int, col: int
) -> None:
    for parser in BOTH_PARSERS:
        with pytest.raises(CaseFileError) as info:
            load(text, parser)
        assert (info.value.line, info.value.col) == (line, col), parser
        assert "is not allowed in YAML" in info.value.message


@pytest.mark.parametrize(
    ("char", "name"),
    [("\x85", "next line"), ("\u2028", "line separator"), ("\u2029", "paragraph separator")],
)
def test_a_raw_nel_ls_or_ps_is_refused_where_editors_see_it_by_both_parsers(
    char: str, name: str
) -> None:
    # Text in YAML 1.2, a line break to YAML 1.1 readers: read either way, the file
    # would mean something else to someone.
    for parser in BOTH_PARSERS:
        with pytest.raises(CaseFileError) as info:
            load(f'evaluator: reason\ncases: []\nnote: "é{char}x"\n', parser)
        assert (info.value.line, info.value.col) == (3, 9), parser
        assert info.value.message == (
            f"a raw U+{ord(char):04X} ({name}) is text in YAML 1.2 but a line break to older "
            f"readers, so case files do not take it; write it as \\u{ord(char):04x} inside "
            "double quotes"
        )


@pytest.mark.parametrize("text", ['a: "éé\\q"\n', "a: !x%zz b\n", 'a: "é\\'])
def test_both_parsers_point_at_the_start_of_a_bad_escape(text: str) -> None:
    positions = set()
    for parser in BOTH_PARSERS:
        with pytest.raises(CaseFileError) as info:
            load(text, parser)
        positions.add((info.value.line, info.value.col))
    assert len(positions) == 1


def test_a_byte_that_is_not_utf8_after_a_line_break_other_than_newline_is_on_the_next_line() -> (
    None
):
    with pytest.raises(CaseFileError) as info:
        parse_case_file("a: é\rb: é\xff".encode("latin-1").replace(b"\xe9", "é".encode()), "c")
    assert (info.value.line, info.value.col) == (2, 5)


@given(
    lines=st.lists(st.text(st.sampled_from("aé😀中 \t#:"), max_size=12), min_size=1, max_size=4),
    bad=st.sampled_from(["\x01", "\x08", "\x1b", "\x7f", "\x80", "\x9f", "\ufffe", "\uffff"]),
)
def test_both_parsers_place_a_bad_character_after_any_text_at_the_same_column(
    lines: list[str], bad: str
) -> None:
    text = "\n".join(f"# {line}" for line in lines) + bad + "\n"
    expected = (len(lines), len(lines[-1]) + 3)
    for parser in BOTH_PARSERS:
        with pytest.raises(CaseFileError) as info:
            parse_case_file(text.encode(), "c", parser)
        assert (info.value.line, info.value.col) == expected


# --- names of cases without a usable ID --------------------------------------------------

UNNAMED = f"""\
evaluator: reason
cases:
{GOOD_CASE}  - input: {{}}
    expected: {{}}
"""


def test_a_case_without_a_usable_id_is_rerun_by_lf(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", c=UNNAMED)
    pytester.runpytest().assert_outcomes(passed=1, failed=1)
    result = pytester.runpytest("--lf", "-v")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["c.rubric.yaml::cases.1 FAILED*"])


def test_a_case_without_a_usable_id_can_be_deselected_and_selected_by_name(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", c=UNNAMED)
    pytester.runpytest("--deselect", "c.rubric.yaml::cases.1").assert_outcomes(passed=1)
    pytester.runpytest("-k", "cases.1").assert_outcomes(failed=1)
    pytester.runpytest("c.rubric.yaml::cases.1").assert_outcomes(failed=1)


def test_a_fallback_name_never_takes_a_real_case_id(parser: Any) -> None:
    case_file = load(
        "evaluator: reason\ncases:\n"
        "  - {id: cases.1, input: {}, expected: {}}\n"
        "  - {input: {}, expected: {}}\n"
        "  - {id: cases.1_, input: {}, expected: {}}\n"
        "  - {id: cases.1, input: {}, expected: {}}\n",
        parser,
    )
    assert [case.name for case in case_file.cases] == [
        "cases.1",
        "cases.1__",
        "cases.1_",
        "cases.3",
    ]
