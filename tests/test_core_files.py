"""Files the plugin writes are files like any other: the umask's mode when new, and an
existing file's mode, owner and group kept (issue: every output came out 0600)."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_rubric.core.files import path_problem, write_bytes_atomically, write_text_atomically

pytest_plugins = ["pytester"]

CASE_FILE = "evaluator: agreement\ncases:\n  - id: empty\n    input: {rows: []}\n    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 0, total: 0, disagreements: []}\n"


@pytest.fixture
def umask() -> Iterator[int]:
    """The umask 0o022 for the test, the old one put back after it."""
    old = os.umask(0o022)
    try:
        yield 0o022
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("umask")
def test_a_new_file_gets_the_umasks_mode_as_open_would_give(tmp_path: Path) -> None:
    write_text_atomically(tmp_path / "report.json", "{}", what="the report")
    with open(tmp_path / "plain.json", "w") as stream:
        stream.write("{}")
    assert _mode(tmp_path / "report.json") == _mode(tmp_path / "plain.json") == 0o644


@pytest.mark.usefixtures("umask")
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o755])
def test_an_existing_file_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    def text(path: Path) -> None:
        write_text_atomically(path, "{}", what="the report")

    def data(path: Path) -> None:
        write_bytes_atomically(path, b"x: 1\n")

    for write in (text, data):
        target = tmp_path / "out"
        target.write_text("old")
        target.chmod(mode)
        write(target)
        assert _mode(target) == mode
        target.unlink()


@pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() != 0, reason="only root may give a file to another user"
)
def test_running_as_root_a_file_owned_by_another_user_keeps_its_owner(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("{}")
    os.chown(target, 4321, 4322)
    write_text_atomically(target, '{"new": 1}', what="the report")
    found = target.stat()
    assert (found.st_uid, found.st_gid) == (4321, 4322)
    assert target.read_text() == '{"new": 1}'


@pytest.mark.usefixtures("umask")
def test_the_report_page_and_merge_output_are_written_as_open_would(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", ledger=CASE_FILE)
    existing = pytester.path / "kept.json"
    existing.write_text("{}")
    existing.chmod(0o640)
    result = pytester.runpytest_subprocess(
        "--rubric-report=report.json", "--rubric-html=page.html", "-p", "no:cacheprovider"
    )
    result.assert_outcomes(passed=1)
    assert _mode(pytester.path / "report.json") == 0o644
    assert _mode(pytester.path / "page.html") == 0o644
    result = pytester.runpytest_subprocess("--rubric-report=kept.json", "-p", "no:cacheprovider")
    assert _mode(existing) == 0o640
    merged = pytester.run(
        sys.executable, "-m", "pytest_rubric", "merge", "report.json", "-o", "merged.json"
    )
    assert merged.ret == 0, merged.stderr.str()
    assert _mode(pytester.path / "merged.json") == 0o644
    page = pytester.run(
        sys.executable, "-m", "pytest_rubric", "html", "report.json", "-o", "p.html"
    )
    assert page.ret == 0, page.stderr.str()
    assert _mode(pytester.path / "p.html") == 0o644


def test_a_name_as_long_as_the_folder_takes_is_written_and_no_longer_one_is_refused(
    tmp_path: Path,
) -> None:
    limit = os.pathconf(tmp_path, "PC_NAME_MAX") if hasattr(os, "pathconf") else 255
    longest = tmp_path / ("r" * (limit - 5) + ".json")
    assert path_problem(str(longest), "--rubric-report", "r.json") is None
    write_text_atomically(longest, "{}", what="the report")
    assert longest.read_text() == "{}"
    assert [path.name for path in tmp_path.iterdir()] == [longest.name]  # nothing left beside
    too_long = str(tmp_path / "made" / ("r" * (limit + 1)) / "r.json")
    problem = path_problem(too_long, "--rubric-report", "r.json")
    assert problem is not None
    assert "choose a shorter path" in problem


@pytest.mark.parametrize("option", ["--rubric-report", "--rubric-html", "--rubric-markdown"])
def test_an_output_name_the_check_accepts_is_written_at_the_end(
    pytester: pytest.Pytester, option: str
) -> None:
    pytester.makefile(".rubric.yaml", ledger=CASE_FILE)
    name = "r" * 240 + ".json"
    result = pytester.runpytest("-p", "no:cacheprovider", f"{option}={name}")
    result.assert_outcomes(passed=1)
    assert result.ret == 0
    assert (pytester.path / name).stat().st_size > 0
    refused = pytester.runpytest("-p", "no:cacheprovider", f"{option}={'r' * 300}.json")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stdout.no_fnmatch_line("*passed*")
