"""``--rubric-update`` costs the same per case whatever the case file's size and style.

Counted, not timed: how much text the run hashes and reads as YAML while it updates a
file of many cases. Both grow with the file once (collection, the check of each case on
its own lines, the write at the end), never with the file once per case.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles import yamlstrict
from pytest_rubric.casefiles.loader import parse_case_file
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.editing import diffs, edits, filewrites, parts, readback, writable

CASES = 120


#: Our own CI sets CI=true: every run here starts outside CI unless a test says otherwise.
pytestmark = pytest.mark.usefixtures("not_in_ci")


def reason_cases(count: int) -> list[dict[str, Any]]:
    """``count`` cases, every third with a wrong expected answer."""
    cases = []
    for n in range(count):
        title = n % 2 == 0
        cases.append(
            {
                "id": f"case-{n:04d}",
                "input": {
                    "fields": {"title": title, "source": True},
                    "pass": title,
                    "reasons": ["all-required-met"] if title else ["missing-title"],
                },
                "expected": {
                    "expectedPass": title if n % 3 else not title,
                    "expectedReasons": ["all-required-met"] if title else ["missing-title"],
                    "coherent": True,
                },
            }
        )
    return cases


def block_text(cases: list[dict[str, Any]]) -> str:
    lines = ["evaluator: reason", "cases:"]
    for case in cases:
        lines.append(f"  - id: {case['id']}")
        lines.append(f"    input: {json.dumps(case['input'])}")
        if "expected" in case:
            lines.append(f"    expected: {json.dumps(case['expected'])}")
    return "\n".join(lines) + "\n"


def json_text(cases: list[dict[str, Any]], style: str = "json") -> str:
    """The cases as JSON: pretty-printed (``json``), or all on one line (``one-line``)."""
    indent = 2 if style == "json" else None
    return json.dumps({"evaluator": "reason", "cases": cases}, indent=indent) + "\n"


def text_of(cases: list[dict[str, Any]], style: str) -> str:
    return block_text(cases) if style == "block" else json_text(cases, style)


class Counted:
    """How many characters were read as YAML, and bytes hashed, by the editing layer."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.loaded = 0
        self.hashed = 0
        real_load, real_sha256 = yamlstrict.load, hashlib.sha256

        def load(text: str, *args: Any, **kwargs: Any) -> Any:
            self.loaded += len(text)
            return real_load(text, *args, **kwargs)

        def sha256(data: bytes = b"") -> Any:
            self.hashed += len(data)
            return real_sha256(data)

        class Hashlib:
            pass

        shim = Hashlib()
        shim.sha256 = sha256  # type: ignore[attr-defined]
        monkeypatch.setattr(readback, "load", load)
        monkeypatch.setattr(writable, "hashlib", shim)
        monkeypatch.setattr(filewrites, "hashlib", shim)


@pytest.mark.parametrize("style", ["block", "json", "one-line"])
def test_an_update_reads_a_large_file_a_bounded_number_of_times(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, style: str
) -> None:
    cases = reason_cases(CASES)
    text = text_of(cases, style)
    path = pytester.path / "many.rubric.yaml"
    path.write_text(text, encoding="utf-8")
    counted = Counted(monkeypatch)
    result = pytester.runpytest(
        "--rubric-update=all", "-p", "no:randomly", "-p", "no:cacheprovider"
    )
    result.assert_outcomes(passed=CASES)
    result.stdout.fnmatch_lines([f"*{CASES // 3} expected answers written*"])
    size = len(text)
    # Once for the checks, once at the end: not once for each of the 40 cases written.
    assert counted.hashed <= 3 * size, (counted.hashed, size)
    # Each case's own text, then the new file once: not the whole file for each case.
    assert counted.loaded <= 4 * size, (counted.loaded, size)
    assert pytester.runpytest("-p", "no:randomly").ret == 0
    if style != "block":
        json.loads(path.read_text(encoding="utf-8"))  # still JSON


def test_a_pretty_printed_json_file_is_updated_case_by_case_and_stays_json(
    pytester: pytest.Pytester,
) -> None:
    cases = reason_cases(7)
    cases[2].pop("expected")
    path = pytester.path / "pretty.rubric.yaml"
    text = json_text(cases)
    path.write_text(text, encoding="utf-8")
    result = pytester.runpytest("--rubric-update=all", "-p", "no:randomly", "-n", "2")
    result.assert_outcomes(passed=7)
    result.stdout.fnmatch_lines(["4 expected answers written, 1 created, in 1 file"])
    after = json.loads(path.read_text(encoding="utf-8"))
    assert [case["input"] for case in after["cases"]] == [case["input"] for case in cases]
    right = reason_cases(7)
    for n in (0, 3, 6):  # the wrong ones, now right
        flipped = not right[n]["expected"]["expectedPass"]
        assert after["cases"][n]["expected"]["expectedPass"] is flipped
    assert pytester.runpytest("-p", "no:randomly").ret == 0
    # Only the written cases' lines changed; every other line is as it was.
    old_lines, new_lines = text.splitlines(), path.read_text(encoding="utf-8").splitlines()
    assert old_lines[:4] == new_lines[:4]
    assert old_lines[-2:] == new_lines[-2:]


def test_cases_sharing_a_line_in_a_flow_list_are_still_written(pytester: pytest.Pytester) -> None:
    cases = reason_cases(4)
    path = pytester.path / "oneline.rubric.yaml"
    path.write_text(json.dumps({"evaluator": "reason", "cases": cases}) + "\n", encoding="utf-8")
    result = pytester.runpytest("--rubric-update=all", "-p", "no:randomly")
    result.assert_outcomes(passed=4)
    assert pytester.runpytest("-p", "no:randomly").ret == 0
    assert (
        json.loads(path.read_text(encoding="utf-8"))["cases"][0]["expected"]["expectedPass"] is True
    )


def test_a_flow_case_alone_on_its_lines_is_checked_alone() -> None:
    cases = reason_cases(3)
    data = json_text(cases).encode()
    loaded = parse_case_file(data, "c.rubric.yaml")
    case = loaded.cases[1]
    assert case.place.lines is not None
    assert case.place.end is not None
    answer: dict[str, JSON] = {
        "expectedPass": False,
        "expectedReasons": ["missing-title"],
        "coherent": True,
    }
    write = edits.Write(1, case.name, answer, created=False)
    part = parts.check(
        data,
        write,
        case.place.lines,
        (case.input, case.expected),
        at=(case.line, case.place.col, case.place.end),
    )
    assert part is not None
    assert part.end == case.place.end
    assert parts.splice(data, [(write, part)]) == edits.rewrite(data, [write])


@settings(max_examples=60, deadline=None)
@given(
    style=st.sampled_from(["block", "json", "one-line"]),
    wrong=st.sets(st.integers(0, 11), min_size=1),
    created=st.sets(st.integers(0, 11), max_size=3),
)
def test_the_diff_of_the_changed_windows_is_the_diff_of_the_whole_file(
    style: str, wrong: set[int], created: set[int]
) -> None:
    cases = reason_cases(12)
    for n in range(12):
        cases[n]["expected"]["coherent"] = n not in wrong
    for n in created:
        del cases[n]["expected"]
    data = text_of(cases, style).encode()
    loaded = parse_case_file(data, "c.rubric.yaml")
    edited = []
    for case in loaded.cases:
        if case.missing_expected is None and case.index not in wrong:
            continue
        answer: dict[str, JSON] = {
            "expectedPass": True,
            "expectedReasons": ["all-required-met"],
            "coherent": True,
        }
        write = edits.Write(
            case.index, case.name, answer, created=case.missing_expected is not None
        )
        at = None if case.place.end is None else (case.line, case.place.col, case.place.end)
        known = (case.input, case.expected)
        part = parts.check(data, write, case.place.lines, known, at=at)
        assert part is not None
        edited.append((write, part))
    new = parts.splice(data, edited)
    old_text, new_text = data.decode(), new.decode()
    windows = diffs.unified("c.rubric.yaml", old_text, new_text, filewrites._changed(edited))
    # A diff that turns the old file into the new one, with every line outside the
    # changes kept as context where difflib would keep it.
    assert patched(diffs.lines_of(old_text), windows) == diffs.lines_of(new_text)
    whole = diffs.unified("c.rubric.yaml", old_text, new_text)
    assert sum(line.startswith("@@") for line in windows) <= sum(
        line.startswith("@@") for line in whole
    ) + len(edited)


def patched(old: list[str], diff: list[str]) -> list[str]:
    """``old`` with the unified ``diff`` applied; each context and removed line checked."""
    assert diff[0].startswith("--- ")
    assert diff[1].startswith("+++ ")
    new: list[str] = []
    at = 0  # the next old line not yet copied
    for line in diff[2:]:
        if line.startswith("@@"):
            start = int(line.split()[1].split(",")[0][1:])
            count = line.split()[1].split(",")
            begin = start - 1 if len(count) == 1 or count[1] != "0" else start
            assert begin >= at, "hunks in order, not overlapping"
            new += old[at:begin]
            at = begin
        elif line.startswith("+"):
            new.append(line[1:])
        else:
            assert old[at] == line[1:], (at, line)
            if line.startswith(" "):
                new.append(line[1:])
            at += 1
    return new + old[at:]
