"""Data at the edges (issue 9, items 7-11): huge integers, odd input_file paths, positions
after multi-byte text, runaway ledger rows, and the names of cases without a usable ID."""

from __future__ import annotations

import decimal
import json
import json.encoder
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, example, given
from hypothesis import strategies as st

from pytest_rubric.casefiles.cases import CaseFile
from pytest_rubric.casefiles.loader import load_case_file, parse_case_file
from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.errors import CaseFileError, RubricInputError
from pytest_rubric.core.evaluator import Evaluator
from pytest_rubric.core.jsonvalues import (
    MAX_DEPTH,
    _json_text,
    _plain,
    escape_controls,
    json_problem,
    normalised,
    plain,
    show,
)
from pytest_rubric.core.numbers import MAX_NUMBER_CHARS, decimal_int
from pytest_rubric.editing.readback import identical
from pytest_rubric.evaluators._common import describe, int_text
from pytest_rubric.inputs.reading import input_file_at
from pytest_rubric.inputs.rows import FileRows
from pytest_rubric.inputs.textfiles import MAX_ROW_CHARS
from pytest_rubric.inputs.wholejson import read_json
from pytest_rubric.running.runner import _Caller, _EvaluatorFailed, _review_row


def file_rows(path: Path, display: str) -> FileRows:
    """A ledger file's rows, read as its name says."""
    return FileRows(input_file_at(path, display))


PARSERS = [pytest.param(yaml.SafeLoader, id="pure-python")]
if hasattr(yaml, "CSafeLoader"):
    PARSERS.insert(0, pytest.param(yaml.CSafeLoader, id="libyaml"))
BOTH_PARSERS: list[type[Any]] = [getattr(yaml, "CSafeLoader", yaml.SafeLoader), yaml.SafeLoader]

BIG = int("1" * 4000) * 10**1000 + 5678  # 5000 digits; str() refuses it
BIG_TEXT = "1" * 4000 + "0" * 996 + "5678"
BIG_SHOWN = "1111…5678 (an integer of 5000 digits)"
HEX_BIG = int("f" * 4000, 16)  # 4817 digits
GOOD_CASE = """\
  - id: good
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
"""


@pytest.fixture(params=PARSERS)
def parser(request: pytest.FixtureRequest) -> Any:
    return request.param


def load(text: str, parser: Any) -> CaseFile:
    return parse_case_file(text.encode(), "c.rubric.yaml", parser)


def problems_of(case_file: CaseFile) -> dict[str, list[str]]:
    return {case.name: [str(p) for p in case.problems] for case in case_file.cases}


# --- 7. huge integers ---------------------------------------------------------------------


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


def test_ledger_files_read_huge_integers_and_refuse_overlong_ones_at_their_line(
    tmp_path: Path,
) -> None:
    ledger = tmp_path / "week.jsonl"
    ledger.write_text(f'{{"id": "r1", "a": {BIG_TEXT}, "b": true}}\n')
    assert list(file_rows(ledger, "week.jsonl")) == [{"id": "r1", "a": BIG, "b": True}]
    whole = tmp_path / "input.json"
    whole.write_text(f'{{"rows": [], "n": -{BIG_TEXT}}}')
    assert read_json(whole, "input.json") == {"rows": [], "n": -BIG}
    ledger.write_text('{"id": "r1", "a": true, "b": true}\n' + '{"a": ' + "7" * 100_001 + "}\n")
    with pytest.raises(RubricInputError) as info:
        list(file_rows(ledger, "week.jsonl"))
    assert str(info.value) == (
        "week.jsonl:2: a number written with 100001 digits is longer than inputs take "
        "(100000); shorten it, or quote it if you mean the text"
    )


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (BIG, BIG_SHOWN),
        (-BIG, f"-{BIG_SHOWN}"),
        ([1, {"n": BIG}], f'[1, {{"n": {BIG_SHOWN}}}] (a list)'),
    ],
    ids=["huge", "negative", "nested"],
)
def test_describe_shows_integers_too_long_to_print_abbreviated(value: Any, shown: str) -> None:
    assert describe(value) == shown


def test_int_text_prints_what_str_can_and_estimates_an_absurd_integer_cheaply() -> None:
    assert int_text(10**4213) == str(10**4213)
    assert int_text(1 << 5_000_000).endswith("(an integer of about 1505151 digits)")


def _decimal_text(value: int) -> str:
    # The decimal module converts without the int/str digit limit.
    return str(decimal.Decimal(value))


@given(
    value=st.integers()
    | st.binary(min_size=1, max_size=3000).map(lambda data: int.from_bytes(data, "big")),
    negative=st.booleans(),
)
def test_decimal_int_reads_integers_of_any_length_exactly(value: int, negative: bool) -> None:
    value = -value if negative else value
    assert decimal_int(_decimal_text(value)) == value


# --- Hypothesis: hostile scalars anywhere in a case file ---------------------------------

huge_integers = st.builds(
    lambda data, sign: sign * (int.from_bytes(data, "big") | 1 << 14_400),  # past 4300 digits
    st.binary(max_size=2000),
    st.sampled_from([1, -1]),
)
hostile_text = st.text(
    st.characters(codec=None, exclude_categories=())  # lone surrogates and control characters
    | st.sampled_from(
        ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\u2028", "\ud800", "\udfff", "\ufeff"]
    ),
    max_size=8,
)
hostile = st.recursive(
    st.none() | st.booleans() | st.integers() | huge_integers | st.floats() | hostile_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3),
    max_leaves=10,
)


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


@given(value=hostile)
def test_describe_never_raises(value: Any) -> None:
    assert describe(value)


class _Text(str):
    pass


@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | huge_integers | st.floats() | hostile_text,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.lists(inner, max_size=3).map(tuple)
            | st.dictionaries(hostile_text | st.integers(), inner, max_size=3)
            | inner.map(lambda leaf: _Text(leaf) if isinstance(leaf, str) else leaf)
        ),
        max_leaves=12,
    ),
    depth=st.integers(0, 4),
)
def test_plain_gives_a_clean_value_back_uncopied_and_copies_the_rest(
    value: Any, depth: int
) -> None:
    # The copy plain() made of every value before it gave clean ones back as they are.
    copy = _plain(value, depth, set())
    shown = plain(value, depth=depth)
    assert identical(shown, copy)
    if shown is value:
        assert identical(value, copy)


class _Mapping(dict):  # type: ignore[type-arg]
    def items(self) -> Any:
        return [("changed", True)]


class _List(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        return iter(["changed"])


_row_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | huge_integers
    # Past 14,000 bits yet under 4,300 digits; at the limit; one past it.
    | st.sampled_from([(2, 14_001), (-10, 4_299), (10, 4_300)]).map(lambda n: n[0] ** n[1])
    | st.floats()
    | hostile_text
    | hostile_text.map(_Text)
)
_row_values = st.recursive(
    _row_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.lists(inner, max_size=3).map(_List)
        | st.dictionaries(hostile_text | st.integers() | st.none(), inner, max_size=3)
        | st.dictionaries(hostile_text, inner, max_size=3).map(_Mapping)
    ),
    max_leaves=12,
)


@given(
    # A flat row with a mapping of fields, as most are.
    row=st.dictionaries(
        hostile_text,
        _row_scalars
        | st.dictionaries(hostile_text | hostile_text.map(_Text) | st.integers(), _row_scalars),
    )
    | st.dictionaries(hostile_text | hostile_text.map(_Text) | st.integers(), _row_values)
    | _row_values
)
@example(row={"id": "\ud800"})  # what each check refuses, every run
@example(row={"\udfff": True})
@example(row={"fields": {"note": "\ud800"}})
@example(row={"score": float("nan")})
@example(row={"score": float("inf")})
@example(row={"fields": [float("nan")]})
@example(row={"id": "a", 1: True})
@example(row={"fields": (1, 2)})
def test_a_review_row_is_kept_as_a_plain_copy_of_what_was_yielded(row: Any) -> None:
    # A review row is kept as the walk over it would make it, and never shared with the
    # evaluator: it may yield one mapping again, changed.
    call = _Caller(Evaluator(name="x", description="", evaluate=lambda data: {}), "here")
    if json_problem(row) is not None or not isinstance(row, dict):
        with pytest.raises(_EvaluatorFailed, match="review yielded"):
            _review_row(call, row)
        return
    kept = _review_row(call, row)
    assert identical(kept, plain(normalised(row)))
    if isinstance(row, dict) and row:
        assert kept is not row


@pytest.mark.parametrize("levels", [MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
def test_a_review_row_nested_deeper_than_json_values_go_fails_its_case(levels: int) -> None:
    value: Any = "leaf"
    for _ in range(levels - 1):  # the row itself is one level
        value = [value]
    row = {"k": value}
    call = _Caller(Evaluator(name="x", description="", evaluate=lambda data: {}), "here")
    if levels <= MAX_DEPTH:
        assert identical(_review_row(call, row), row)
    else:
        with pytest.raises(_EvaluatorFailed, match="review yielded a dict"):
            _review_row(call, row)


# --- 8. input_file: NUL bytes, symlink loops, the written name decides the reader ----------


def test_an_input_file_with_a_nul_byte_fails_only_that_case(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c=(
            f"evaluator: reason\ncases:\n{GOOD_CASE}"
            '  - id: nul\n    input_file: "week\\0.jsonl"\n    expected: {}\n'
        ),
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "  c.rubric.yaml:7:17: input_file 'week\\x00.jsonl' contains a NUL character, which "
            "no path can hold; remove it"
        ]
    )
    result.stdout.no_fnmatch_line("*Traceback*")


def test_an_input_file_in_a_symlink_loop_fails_only_that_case(pytester: pytest.Pytester) -> None:
    os.symlink("loop.jsonl", pytester.path / "loop.jsonl")
    pytester.makefile(
        ".rubric.yaml",
        c=(
            f"evaluator: reason\ncases:\n{GOOD_CASE}"
            "  - id: loop\n    input_file: loop.jsonl\n    expected: {}\n"
        ),
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "  c.rubric.yaml:7:17: input_file 'loop.jsonl' cannot be followed: it is a symlink "
            "loop; point it at a real file"
        ]
    )
    result.stdout.no_fnmatch_line("*Traceback*")


def test_the_format_comes_from_the_written_name_not_the_symlink_target(tmp_path: Path) -> None:
    (tmp_path / "rows.jsonl").write_text("id,a,b\nr1,true,false\n")
    os.symlink("rows.jsonl", tmp_path / "week.csv")
    case_file_path = tmp_path / "c.rubric.yaml"
    case_file_path.write_text(
        "evaluator: agreement\ncases:\n  - id: x\n    input_file: week.csv\n    expected: {}\n"
    )
    (case,) = load_case_file(case_file_path, "c.rubric.yaml", root=tmp_path).cases
    assert case.problems == ()
    assert case.input_file is not None
    assert case.input_file.format == ".csv"
    assert case.input_file.path.name == "rows.jsonl"  # resolved, yet read as what it is called
    rows = FileRows(case.input_file)
    assert list(rows) == [{"id": "r1", "a": True, "b": False}]


def test_a_symlinked_ledger_is_read_by_its_written_name_end_to_end(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "rows.jsonl").write_text("id,a,b\nr1,true,false\n")
    os.symlink("rows.jsonl", pytester.path / "week.csv")
    pytester.makefile(
        ".rubric.yaml",
        c=(
            "evaluator: agreement\ncases:\n  - id: x\n    input_file: week.csv\n"
            "    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 1, bOnly: 0}, agreement: 0,"
            " total: 1, disagreements: [r1]}\n"
        ),
    )
    pytester.runpytest().assert_outcomes(passed=1)


# --- 9. positions are characters, the same for both parsers ------------------------------


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


# --- 10. ledger rows are bounded in memory -----------------------------------------------


def _peak_bytes_reading(path: Path) -> tuple[int, str]:
    tracemalloc.start()
    try:
        with pytest.raises(RubricInputError) as info:
            list(file_rows(path, path.name))
        return tracemalloc.get_traced_memory()[1], str(info.value)
    finally:
        tracemalloc.stop()


def test_a_runaway_csv_row_is_refused_at_its_line_before_it_is_held(tmp_path: Path) -> None:
    ledger = tmp_path / "week.csv"
    ledger.write_text("id,a,b\nr1,true,true\n" + "," * 5_000_000 + "\n")
    peak, message = _peak_bytes_reading(ledger)
    assert message == (
        f"week.csv:3: this row is longer than {MAX_ROW_CHARS} characters, which no ledger "
        "row needs (an id and two labels); look for a missing closing quote or a runaway "
        "line and fix it"
    )
    assert peak < 16 * 2**20  # reading the whole row costs over 40 MiB


def test_a_runaway_quoted_csv_cell_spanning_many_lines_is_refused_at_its_first_line(
    tmp_path: Path,
) -> None:
    ledger = tmp_path / "week.csv"
    ledger.write_text('id,a,b\n"r1\r\nstill r1",true,true\n' + '"\n",' * 400_000 + "\n")
    with pytest.raises(RubricInputError, match=r"^week\.csv:4: this row is longer than"):
        list(file_rows(ledger, "week.csv"))
    rows = file_rows(ledger, "week.csv")
    assert next(iter(rows)) == {"id": "r1\r\nstill r1", "a": True, "b": True}


def test_a_runaway_jsonl_line_is_refused_at_its_line(tmp_path: Path) -> None:
    ledger = tmp_path / "week.jsonl"
    ledger.write_text('{"id": "r1", "a": true, "b": true}\n[' + "0," * 1_000_000 + "0]\n")
    _, message = _peak_bytes_reading(ledger)
    assert message.startswith("week.jsonl:2: this row is longer than")


def test_deeply_nested_json_is_an_input_error_not_a_recursion_error(tmp_path: Path) -> None:
    ledger = tmp_path / "week.jsonl"
    ledger.write_text("[" * 100_000 + "\n")
    with pytest.raises(RubricInputError, match=r"^week\.jsonl:1: nested too deeply"):
        list(file_rows(ledger, "week.jsonl"))
    whole = tmp_path / "input.json"
    whole.write_text("[" * 100_000)
    with pytest.raises(RubricInputError, match=r"^input\.json: nested too deeply"):
        read_json(whole, "input.json")


# --- 11. names of cases without a usable ID ----------------------------------------------

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


def test_an_input_file_that_is_a_directory_is_named_as_not_a_regular_file(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "week.jsonl").mkdir()
    pytester.makefile(
        ".rubric.yaml",
        d="evaluator: agreement\ncases:\n  - id: c\n    input_file: week.jsonl\n"
        "    expected: {error: review-label}\n",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["  d.rubric.yaml:4:17: input_file 'week.jsonl' is not a regular file (week.jsonl is a *"]
    )


@pytest.mark.parametrize("bad_line", [2, 1001])
def test_a_byte_that_is_not_utf8_in_a_jsonl_ledger_is_reported_at_its_line(
    pytester: pytest.Pytester, bad_line: int
) -> None:
    row = b'{"id": "r%d", "a": true, "b": true}\n'
    rows = [row % n for n in range(1, bad_line)] + [b'{"id": "\xff", "a": true, "b": true}\n']
    (pytester.path / "rows.jsonl").write_bytes(b"".join(rows))
    pytester.makefile(
        ".rubric.yaml",
        u="evaluator: agreement\ncases:\n  - id: c\n    input_file: rows.jsonl\n"
        "    expected: {error: review-label}\n",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*rows.jsonl:{bad_line}: not UTF-8 (invalid start byte)*"])


@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | huge_integers | st.floats() | hostile_text,
        lambda inner: (
            st.lists(inner, max_size=12) | st.dictionaries(hostile_text, inner, max_size=12)
        ),
        max_leaves=60,
    ),
    limit=st.integers(1, 40),
)
def test_a_value_shown_from_its_start_reads_as_the_whole_value_shown(
    value: Any, limit: int
) -> None:
    # show() reads only the first limit // 3 + 1 entries of each list and mapping; the
    # text must be what rendering the whole value and cutting it gives.
    whole = escape_controls(_json_text(plain(value)))
    expected = whole if len(whole) <= limit else f"{whole[: limit - 1]}…"
    assert show(value, limit=limit) == expected


def test_a_huge_answer_is_shown_without_reading_it_all() -> None:
    class Counted(list[int]):
        read = 0

        def __iter__(self) -> Any:
            for item in super().__iter__():
                Counted.read += 1
                yield item

    shown = show(Counted(range(1_000_000)), limit=60)
    assert shown == "[" + ", ".join(map(str, range(100)))[:58] + "…"
    assert Counted.read == 60 // 3 + 1


@given(value=st.dictionaries(hostile_text, hostile, max_size=4))
def test_a_case_keeps_its_input_packed_and_gives_back_an_equal_fresh_copy(value: Any) -> None:
    from pytest_rubric.core.packed import pack, plain_copy, unpack

    assume(json_problem(value) is None)  # what a case file can hold: no NaN, no infinity
    packed = pack(value)
    first, second = unpack(packed), unpack(packed)
    assert identical(first, value)  # same types throughout: true is not 1, 1.0 is not 1
    assert first is not value
    assert first is not second
    assert identical(plain_copy(packed), plain(value))  # as a report carries it
    if isinstance(packed, dict):  # only what JSON text cannot hold stays a mapping
        # An integer str() refuses, or a lone surrogate UTF-8 cannot encode.
        with pytest.raises((ValueError, UnicodeEncodeError), match=r"digits|surrogate"):
            json.dumps(value, ensure_ascii=False).encode("utf-8")
