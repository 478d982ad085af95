"""A case's ``input``/``expected`` written as one line of JSON is read by the JSON decoder
(``casefiles/yamljson.py``): every case file must load exactly as it does read as YAML,
value for value, problem for problem, error for error."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from _edges import hostile
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles import yamljson, yamlstrict
from pytest_rubric.casefiles.loader import parse_case_file
from pytest_rubric.casefiles.validate import Validator
from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.core.escapes import is_encodable
from pytest_rubric.inputs.inputpaths import InputFiles

HEAD = "evaluator: agreement\ncases:\n"


def tagged(value: Any) -> Any:
    """``value`` with each scalar's type beside it: ``true`` and ``1`` differ."""
    if isinstance(value, dict):
        return ("dict", [(key, tagged(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [tagged(item) for item in value])
    return (type(value).__name__, repr(value))


def loaded(text: str, json_values: bool) -> Any:
    """What loading ``text`` gives: its value and problems, or the error that stops it."""
    try:
        document = yamlstrict.load(text, ends=False, json_values=json_values)
    except yamlstrict.StrictYAMLError as exc:
        return ("error", exc.line, exc.col, exc.message)
    return tagged(document.value), document.problems, document.empty


def case_file(text: str, json_values: bool) -> Any:
    """The case file ``text`` validates to (its problems as their words: errors compare by
    identity), or its error, read each way."""
    files = InputFiles(Path("cases.rubric.yaml"), "cases.rubric.yaml", None)
    try:
        if json_values:
            made = parse_case_file(text.encode(), "cases.rubric.yaml", files=files)
        else:
            document = yamlstrict.load(text, ends=False)
            made = Validator("cases.rubric.yaml", document, files).case_file()
    except yamlstrict.StrictYAMLError as exc:  # as the loader words it
        return ("error", str(CaseFileError("cases.rubric.yaml", exc.line, exc.col, exc.message)))
    except CaseFileError as exc:
        return ("error", str(exc))
    cases = tuple(
        replace(
            case,
            problems=tuple(map(str, case.problems)),  # type: ignore[arg-type]
            missing_expected=str(case.missing_expected),  # type: ignore[arg-type]
        )
        for case in made.cases
    )
    return replace(made, cases=cases, digest="")


def assert_alike(text: str) -> None:
    assert loaded(text, True) == loaded(text, False)
    fast, slow = case_file(text, True), case_file(text, False)
    assert fast == slow
    if not isinstance(fast, tuple):  # the packed text, as the cache and records keep it
        assert [c.packed_input for c in fast.cases] == [c.packed_input for c in slow.cases]
        assert [c.place.row_lines for c in fast.cases] == [c.place.row_lines for c in slow.cases]


def written(value: Any, form: int) -> str:
    try:
        json.dumps(value)
    except ValueError:  # an integer longer than str() writes: no text to read back
        assume(False)
    if form == 0:
        return json.dumps(value)
    if form == 1:
        return json.dumps(value, separators=(",", ":"))
    text = json.dumps(value, ensure_ascii=False)
    assume(is_encodable(text))  # a lone surrogate: no UTF-8 case file holds one
    return text


json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.dictionaries(
                st.sampled_from(["rows", "a", "fields"]), json_like | hostile, max_size=3
            )
            | st.lists(json_like, max_size=3),
            json_like | hostile,
            st.integers(0, 2),
            st.sampled_from(["", "  ", "  # a note"]),
        ),
        max_size=4,
    )
)
def test_any_json_written_on_a_line_loads_as_yaml_reads_it(cases: list[Any]) -> None:
    lines = [HEAD]
    for index, (case_input, expected, form, tail) in enumerate(cases):
        lines.append(f"  - id: c{index}\n")
        lines.append(f"    input: {written(case_input, form)}{tail}\n")
        lines.append(f"    expected: {written(expected, form)}\n")
    assert_alike("".join(lines))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {"id": st.text("abc12", min_size=1, max_size=4), "a": st.booleans(), "b": st.booleans()}
        ),
        max_size=5,
    ),
    st.booleans(),
)
def test_rows_written_as_json_keep_their_line(rows: list[Any], first: bool) -> None:
    order = ["input", "expected", "id"] if first else ["id", "input", "expected"]
    parts = {
        "id": "id: ledger",
        "input": f"input: {json.dumps({'rows': rows})}",
        "expected": 'expected: {"agreement": 0}',
    }
    body = "".join(
        ("  - " if i == 0 else "    ") + parts[key] + "\n" for i, key in enumerate(order)
    )
    text = HEAD + body
    assert_alike(text)
    document = yamlstrict.load(text, ends=False, json_values=True)
    assert len(document.spans.json) == 2  # read by the JSON decoder: the test means it
    made = case_file(text, True)
    line = 3 + order.index("input")
    assert made.cases[0].place.row_lines == (line,) * len(rows)


NASTY = {
    "inside a literal block": HEAD + '  - id: a\n    note: |\n      input: {"a": 1}\n'
    '    input: {"a": 2}\n    expected: {"b": 1}\n',
    "inside a quoted scalar": HEAD + '  - id: a\n    note: "one\n      input: {\\"a\\": 1}"\n'
    '    input: {"a": 2}\n    expected: {}\n',
    "a top-level key": 'input: {"a": 1}\n' + HEAD + '  - id: a\n    input: {"a": 2}\n',
    "inside a rubric block": 'rubric:\n  input: {"a": 1}\n' + HEAD + "  - id: a\n    input: {}\n",
    "a key given twice": '{"a": 1, "a": 2}',
    "NaN": "NaN",
    "an exponent": '{"x": 1e5, "y": 1E+2}',
    "minus zero": '{"x": -0, "y": -0.0}',
    "a long number": '{"x": ' + "9" * 400 + "}",
    "a long key": '{"' + "k" * 1100 + '": 1}',
    "a tab in text": '{"x": "a\tb"}',
    "a DEL in text": '{"x": "a\x7fb"}',
    "an escape": '{"x": "a\\nb", "y": "\\ud800"}',
    "nothing after": "[]",
    "yes, not true": '{"x": yes}',
}


@pytest.mark.parametrize("name", sorted(NASTY))
def test_the_nasty_ones_load_as_yaml_reads_them(name: str) -> None:
    text = NASTY[name]
    if not text.startswith(("evaluator", "input", "rubric")):
        text = (
            HEAD + f"  - id: a\n    input: {text}\n    expected: {text}\n  - id: b\n"
            '    input: {"rows": []}\n    expected: {"total": 0}\n'
        )
    assert_alike(text)


@pytest.mark.parametrize("depth", [96, 97, 98, 99, 150])
def test_nesting_at_the_limit_is_refused_alike(depth: int) -> None:
    text = HEAD + f"  - id: a\n    input: {'[' * depth}{']' * depth}\n    expected: {{}}\n"
    assert_alike(text)


def test_a_duplicate_input_drops_its_value_and_later_cases_keep_their_own() -> None:
    # The dropped value's id must never name a later case's value (its text would be read).
    cases = "".join(
        f'  - id: c{n}\n    input: {{"n": {n}}}\n    input: {{"m": {n}}}\n'
        f'    expected: {{"k": {n}}}\n  - id: d{n}\n    input:\n      z: {n}\n'
        f"    expected:\n      w: {n}\n"
        for n in range(40)
    )
    text = HEAD + cases
    assert_alike(text)
    made = case_file(text, True)
    assert made.cases[1].packed_input == '{"z": 1}'.replace("1", "0")


def test_windows_line_ends_and_tabs_load_alike() -> None:
    text = HEAD.replace("\n", "\r\n") + '  - id: a\r\n    input: {"a": 1}\r\n    expected: {}\r\n'
    assert_alike(text)
    assert yamljson.find(text, 97) == (text, {})


def test_only_canonical_ascii_json_is_read_whole() -> None:
    text = HEAD + '  - id: a\n    input: {"a": 1}\n    expected: {"b":1}\n'
    parsed, wholes = yamljson.find(text, 97)
    assert [whole.text for whole in wholes.values()] == ['{"a": 1}']
    assert list(wholes) == [(4, 12)]
    assert parsed == HEAD + '  - id: a\n    input: {}\n    expected: {"b":1}\n'


def test_long_runs_of_digits_cost_no_more_than_yaml_reading_them() -> None:
    # Runs of characters a number is made of, each just short of a number too long to
    # read: looking for a long number must not start again at every character of a run.
    runs = ", ".join(['"' + "9" * 4_300 + '"'] * 200)
    text = HEAD + f'  - id: a\n    input: {{"k": [{runs}]}}\n    expected: {{}}\n'
    assert_alike(text)

    def best(json_values: bool) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            yamlstrict.load(text, ends=False, json_values=json_values)
            times.append(time.perf_counter() - start)
        return min(times)

    assert best(True) < 20 * best(False) + 0.05


def test_integers_past_the_digit_limit_load_alike_with_the_limit_lifted() -> None:
    # sys.set_int_max_str_digits(0) lets json.loads read any integer, in quadratic time:
    # past 4300 digits the line is read as YAML (which refuses one past MAX_NUMBER_CHARS).
    # Set in a child process: the limit is the whole process's (a Python before 3.10.7 has
    # none: it reads any integer).
    script = (
        "import sys; getattr(sys, 'set_int_max_str_digits', lambda limit: None)(0)\n"
        "from pytest_rubric.casefiles import yamlstrict\n"
        "head = 'evaluator: agreement\\ncases:\\n  - id: a\\n    input: {\"n\": '\n"
        "for digits in (4_300, 4_301, 100_000, 100_001):\n"
        "    text = head + '7' * digits + '}\\n    expected: {}\\n'\n"
        "    fast, slow = (yamlstrict.load(text, ends=False, json_values=j) for j in (1, 0))\n"
        "    assert fast.value == slow.value and fast.problems == slow.problems, digits\n"
        "    assert len(fast.spans.json) == 1 + (digits <= 4_300), digits  # expected: {} too\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
