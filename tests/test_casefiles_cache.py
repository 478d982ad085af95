"""Loaded case files kept in pytest's cache: reused exactly, or not at all."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, reject
from hypothesis import strategies as st

from pytest_rubric.casefiles import cache, loader
from pytest_rubric.casefiles.cache import dumps, loads, stamp
from pytest_rubric.casefiles.casecodec import CASE, CASE_FILE, MARKS, PLACE, Record
from pytest_rubric.casefiles.cases import CaseFile
from pytest_rubric.casefiles.loader import parse_case_file
from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.inputs.inputpaths import InputFiles

EXAMPLES = Path(__file__).parent.parent / "example_project" / "rubrics"
MATCH = (
    "input: {rows: [{id: A, a: true, b: true}]}\n"
    "    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, "
    "total: 1, disagreements: []}"
)
MISMATCH = "input: {rows: [{id: A, a: true, b: false}]}\n    expected: {error: review-label}"

HANDWRITTEN = {
    "marks-and-rubric": """\
evaluator: reason
description: "Reasons, ünïcödé, and \\t escapes"
rubric:
  required: [title, source]
  weights: {title: 1.0, source: 2, strict: true, none: null, deep: [[1, -0.0, 1e300]]}
xfail: {reason: parked, strict: false}
marks: [slow, nightly]
cases:
  - id: one
    note: a note
    input: {record: {title: "T", source: ""}, verdict: {pass: false, reasons: [missing-source]}}
    expected: {valid: true}
  - id: two
    skip: not yet
    marks: [fast]
    input:
      record: {title: 0x1F, source: 1_000}
      verdict:
        pass: true
        reasons: []
    expected: {valid: false, big: 123456789012345678901234567890}
""",
    "flow-list": """\
evaluator: agreement
cases: [{id: a, input: {rows: [{id: x, a: true, b: true}]}, expected: {total: 1}},
  {id: b, input: {rows: []}, expected: {}}]
""",
    "rows-on-lines": """\
evaluator: agreement
cases:
  - id: rows
    input:
      rows:
        - {id: A, a: true, b: true}
        - id: B
          a: false
          b: true
    expected: {total: 2}
  - id: keys-in-odd-order
    xfail: only this one
    input: {rows: []}
    expected: {"z": 1, "a": [true, 1, 1.0, "1", null]}
""",
}


def _strict(case_file: CaseFile) -> str:
    """Everything a case file holds, types included (``repr`` tells ``True`` from ``1``
    and ``1`` from ``1.0``, which ``==`` does not)."""
    return repr(case_file)


def _round_trip(data: bytes, folder: Path, display: str = "c.rubric.yaml") -> CaseFile | None:
    files = InputFiles(folder / "c.rubric.yaml", display, folder)
    fresh = parse_case_file(data, display, files=files)
    text = dumps(fresh, "made-by")
    if text is None:
        return None
    again = loads(text, "made-by", fresh.digest, display, files)
    assert again is not None
    assert _strict(again) == _strict(fresh)
    return again


@pytest.mark.parametrize("name", sorted(HANDWRITTEN))
def test_a_case_file_read_back_from_its_entry_is_exactly_the_one_parsed(
    name: str, tmp_path: Path
) -> None:
    assert _round_trip(HANDWRITTEN[name].encode(), tmp_path) is not None


@pytest.mark.parametrize(
    "path", sorted(EXAMPLES.rglob("*.rubric.yaml")), ids=lambda path: path.name
)
def test_every_example_case_file_reads_back_exactly(path: Path) -> None:
    files = InputFiles(path, path.name, EXAMPLES.parent)
    fresh = loader.load_case_file(path, path.name, root=EXAMPLES.parent)
    text = dumps(fresh, "made-by")
    if text is not None:
        again = loads(text, "made-by", fresh.digest, path.name, files)
        assert again is not None
        assert _strict(again) == _strict(fresh)


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=8)
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(
    given_input=st.dictionaries(st.text(max_size=5), _values, max_size=3),
    expected=st.dictionaries(st.text(max_size=5), _values, max_size=3),
    rubric=st.none() | st.dictionaries(st.text(max_size=5), _values, max_size=3),
    xfail=st.none() | st.booleans(),
)
def test_any_clean_case_file_reads_back_exactly(
    given_input: dict[str, Any], expected: dict[str, Any], rubric: Any, xfail: bool | None
) -> None:
    document: dict[str, Any] = {"evaluator": "reason"}
    if rubric is not None:
        document["rubric"] = rubric
    case: dict[str, Any] = {"id": "x", "input": given_input, "expected": expected}
    if xfail is not None:
        case["xfail"] = {"reason": "why", "strict": xfail}
    document["cases"] = [case, {"id": "y", "input": {}, "expected": {}}]
    text = json.dumps(document, ensure_ascii=False)  # JSON is YAML the loader reads exactly
    try:
        _round_trip(text.encode(), Path("/nonexistent-folder"))
    except CaseFileError:
        reject()  # a character YAML does not allow (U+FFFE, say): no file to keep


def test_a_file_with_a_problem_or_a_value_json_text_cannot_hold_is_not_kept(
    tmp_path: Path,
) -> None:
    problem = "evaluator: reason\ncases:\n  - id: a\n    input: {}\n"  # no expected
    huge = f"evaluator: reason\ncases:\n  - id: a\n    input: {{n: {'9' * 5000}}}\n    expected: {{}}\n"
    for text in (problem, huge):
        assert dumps(parse_case_file(text.encode(), "c.rubric.yaml"), "made-by") is None


def _forged(text: str, body: Any) -> str:
    """An entry whose head vouches for ``body`` (as only a deliberate forger would)."""
    head = json.loads(text.partition("\n")[0])
    body_text = json.dumps(body)
    head["body"] = hashlib.sha256(body_text.encode()).hexdigest()
    return f"{json.dumps(head)}\n{body_text}"


def test_an_entry_for_other_bytes_other_code_or_damaged_is_not_used(tmp_path: Path) -> None:
    data = HANDWRITTEN["rows-on-lines"].encode()
    files = InputFiles(tmp_path / "c.rubric.yaml", "c.rubric.yaml", tmp_path)
    fresh = parse_case_file(data, "c.rubric.yaml", files=files)
    text = dumps(fresh, "made-by")
    assert text is not None
    assert loads(text, "made-by", fresh.digest, "c.rubric.yaml", files) is not None
    assert loads(text, "other-code", fresh.digest, "c.rubric.yaml", files) is None
    assert loads(text, "made-by", "0" * 64, "c.rubric.yaml", files) is None
    head, _, body_text = text.partition("\n")
    body = json.loads(body_text)
    case = body[_at(CASE_FILE, "cases")][0]
    place = case[_at(CASE, "place")]
    damaged = [
        text[: len(text) // 2],
        "",
        "[]",
        text.replace("rows", "rowz"),  # the body no longer what its head vouches for
        f"{head}\n{'[' * 100_000}{']' * 100_000}",
    ]
    # Forged with a head that vouches for them: every field is still read as its type.
    for bad in (
        _with(body, CASE_FILE, "cases", 5),
        _with(body, CASE_FILE, "cases", [[1, 2]]),
        _with(body, CASE_FILE, "cases", [_with(case, CASE, "name", 5)]),
        _with(body, CASE_FILE, "cases", [_with(case, CASE, "index", 3)]),
        _with(body, CASE_FILE, "cases", [_with(case, CASE, "place", ["3", *place[1:]])]),
        _with(body, CASE_FILE, "cases", [_with(case, CASE, "place", [-5, *place[1:]])]),
        _with(body, CASE_FILE, "cases", [case, _with(case, CASE, "index", 1)]),  # one name twice
        _with(body, CASE_FILE, "marks", [5, None, []]),
        _with(body, CASE_FILE, "marks", [None, ["why", 1], []]),  # strict is no boolean
        _with(body, CASE_FILE, "marks", "skip"),
        _with(body, CASE_FILE, "evaluator", 5),
        _with(body, CASE_FILE, "evaluator_at", [0, 1]),
        _with(body, CASE_FILE, "rubric", "[1]"),
        _with(body, CASE_FILE, "rubric", "{"),
        [*body, None],
        "[" * 100_000 + "]" * 100_000,
    ):
        damaged.append(_forged(text, bad))
    for entry in damaged:
        assert loads(entry, "made-by", fresh.digest, "c.rubric.yaml", files) is None


def _at(record: Record, name: str) -> int:
    return [row for row, _ in record.rows].index(name)


def _with(value: list[Any], record: Record, name: str, field_value: Any) -> list[Any]:
    """``value``, a list ``record`` wrote, with its field ``name`` replaced."""
    changed = list(value)
    changed[_at(record, name)] = field_value
    return changed


@pytest.mark.parametrize("record", [CASE_FILE, CASE, PLACE, MARKS], ids=lambda r: r.cls.__name__)
def test_the_codec_names_every_field_of_each_type_once(record: Record) -> None:
    written = [name for name, _ in record.rows]
    assert sorted([*written, *record.kept, *record.given]) == sorted(
        field.name for field in dataclasses.fields(record.cls)
    )


@pytest.mark.parametrize(
    "module",
    [
        "casefiles/loader.py",
        "inputs/joins.py",
        "core/packed.py",
        "descriptions/ledger.py",
        "inputs/formats/registry.py",
    ],
)
def test_the_stamp_changes_with_any_shaping_modules_code_even_at_the_same_size_and_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    package = Path(cache.__file__).resolve().parent.parent
    for room in cache._SHAPERS:
        shutil.copytree(package / room, tmp_path / room)
    monkeypatch.setattr(cache, "_PACKAGE", tmp_path)
    before = stamp()
    copy = tmp_path / module
    text = copy.read_text(encoding="utf-8")
    changed = text.replace("the", "teh", 1)
    assert changed != text
    copy.write_text(changed, encoding="utf-8")
    original = os.stat(package / module)
    os.utime(copy, ns=(original.st_atime_ns, original.st_mtime_ns))
    assert copy.stat().st_size == original.st_size
    assert stamp() != before


def test_the_stamp_names_the_longest_integer_text_the_interpreter_reads() -> None:
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("Python 3.10 reads integers of any length")
    before = stamp()
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        assert stamp() != before
    finally:
        sys.set_int_max_str_digits(old)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_entry_that_is_no_regular_file_is_a_miss_not_a_hang(pytester: pytest.Pytester) -> None:
    _corpus(pytester)
    pytester.runpytest().assert_outcomes(passed=2)
    for entry in _entries(pytester):
        entry.unlink()
        os.mkfifo(entry)
    pytester.runpytest().assert_outcomes(passed=2)
    for entry in _entries(pytester):
        entry.unlink()
        entry.symlink_to("/dev/zero")
    pytester.runpytest().assert_outcomes(passed=2)


def _corpus(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", c=f"evaluator: agreement\ncases:\n  - id: one\n    {MATCH}\n")
    (pytester.path / "week.jsonl").write_text('{"id": "A", "a": true, "b": true}\n')
    expected = "{matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, total: 1, disagreements: []}"
    pytester.makefile(
        ".rubric.yaml",
        ledger=f"evaluator: agreement\ncases:\n  - id: week\n    input_file: week.jsonl\n    expected: {expected}\n",
    )


def _entries(pytester: pytest.Pytester) -> list[Path]:
    return sorted((pytester.path / ".pytest_cache" / "d" / "rubric-cases").glob("*.json"))


def test_a_rerun_reuses_each_unchanged_case_file_without_parsing_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _corpus(pytester)
    pytester.runpytest().assert_outcomes(passed=2)
    assert len(_entries(pytester)) == 2

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("parsed again")

    monkeypatch.setattr(loader, "parse_case_file", refuse)
    pytester.runpytest("-v").assert_outcomes(passed=2)


def test_an_edited_case_file_is_parsed_again(pytester: pytest.Pytester) -> None:
    _corpus(pytester)
    pytester.runpytest().assert_outcomes(passed=2)
    pytester.makefile(
        ".rubric.yaml", c=f"evaluator: agreement\ncases:\n  - id: one\n    {MISMATCH}\n"
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*c.rubric.yaml:3*one*"])


def test_a_ledger_deleted_after_it_was_cached_is_found_missing(pytester: pytest.Pytester) -> None:
    _corpus(pytester)
    pytester.runpytest().assert_outcomes(passed=2)
    (pytester.path / "week.jsonl").unlink()
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*input_file 'week.jsonl' does not exist (week.jsonl); check the path*"]
    )


def test_a_damaged_entry_is_a_miss_and_is_written_anew(pytester: pytest.Pytester) -> None:
    _corpus(pytester)
    pytester.runpytest().assert_outcomes(passed=2)
    for entry in _entries(pytester):
        entry.write_text('{"format": 1, "cases": ')
    pytester.runpytest().assert_outcomes(passed=2)
    for entry in _entries(pytester):
        assert json.loads(entry.read_text().partition("\n")[2])[_at(CASE_FILE, "cases")]


def test_no_cache_is_written_when_pytests_cache_is_off(pytester: pytest.Pytester) -> None:
    _corpus(pytester)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)
    assert not (pytester.path / ".pytest_cache").exists()


def test_a_cache_folder_that_cannot_be_made_only_means_no_cache(pytester: pytest.Pytester) -> None:
    _corpus(pytester)
    (pytester.path / "blocked").write_text("a file where the cache folder would be")
    result = pytester.runpytest(
        "-o", "cache_dir=blocked", "-W", "ignore::pytest.PytestCacheWarning"
    )
    result.assert_outcomes(passed=2)
    assert (pytester.path / "blocked").is_file()


def test_an_entry_that_cannot_be_written_only_means_no_cache(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _corpus(pytester)

    def full(*args: object, **kwargs: object) -> object:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache, "new_file_beside", full)
    pytester.runpytest().assert_outcomes(passed=2)
    assert _entries(pytester) == []


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_an_entry_gets_the_umasks_mode_as_pytests_own_cache_files_do(
    pytester: pytest.Pytester, umask: int
) -> None:
    _corpus(pytester)
    old = os.umask(umask)
    try:
        pytester.runpytest().assert_outcomes(passed=2)
    finally:
        os.umask(old)
    entries = _entries(pytester)
    assert len(entries) == 2
    for entry in entries:
        assert entry.stat().st_mode & 0o777 == 0o666 & ~umask
    # pytest's own cache file, beside them, has that mode too.
    lastfailed = pytester.path / ".pytest_cache" / "v" / "cache" / "nodeids"
    assert lastfailed.stat().st_mode & 0o777 == 0o666 & ~umask


def test_the_cache_serves_pytest_xdist_workers_alike(pytester: pytest.Pytester) -> None:
    _corpus(pytester)
    pytester.makefile(
        ".rubric.yaml", bad=f"evaluator: agreement\ncases:\n  - id: two\n    {MISMATCH}\n"
    )
    for _ in range(2):
        result = pytester.runpytest_subprocess("-n", "2")
        result.assert_outcomes(passed=2, failed=1)
    assert len(_entries(pytester)) == 3
    assert (
        yaml.safe_load((pytester.path / "bad.rubric.yaml").read_text())["cases"][0]["id"] == "two"
    )
