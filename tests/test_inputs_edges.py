"""Inputs at the edges: huge and overlong integers in ledgers and whole JSON inputs, odd
input_file paths (a NUL byte, a symlink loop, a directory, a symlink whose written name
decides the reader), bytes that are not UTF-8, runaway CSV and JSONL rows refused before
they are held, and JSON nested too deeply."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest
from _edges import BIG, BIG_TEXT, GOOD_CASE
from _inputs import input_file_at

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.inputs.formats.csvfile import CSV
from pytest_rubric.inputs.rows import FileRows
from pytest_rubric.inputs.textfiles import MAX_ROW_CHARS
from pytest_rubric.inputs.wholejson import read_json


def file_rows(path: Path, display: str) -> FileRows:
    """A ledger file's rows, read as its name says."""
    return FileRows(input_file_at(path, display))


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


# --- input_file: NUL bytes, symlink loops, the written name decides the reader ----------


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
    assert case.input_file.format is CSV
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


# --- ledger rows are bounded in memory ---------------------------------------------------


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


@pytest.mark.parametrize("report", [[], ["--rubric-report=r.json"]], ids=["plain", "report"])
def test_a_number_too_large_to_be_finite_in_a_ledger_is_the_inputs_problem_at_its_line(
    pytester: pytest.Pytester, report: list[str]
) -> None:
    # float() reads 1e99999 as infinity, which no JSON report can hold: refused as it is read,
    # so the case ends the same whichever reports are written.
    pytester.makefile(
        ".jsonl",
        inf='{"id": "a", "a": true, "b": false}\n{"id": "b", "a": true, "b": true, "n": 1e99999}\n',
    )
    pytester.makefile(
        ".rubric.yaml",
        ledger="evaluator: agreement\ncases:\n  - id: x\n    input_file: inf.jsonl\n"
        "    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 0}, agreement: 1, "
        "total: 2, disagreements: [a]}\n",
    )
    result = pytester.runpytest("-p", "no:cacheprovider", *report)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*inf.jsonl:2*1e99999 is not a finite number*"])
