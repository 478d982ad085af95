"""``--rubric-markdown=PATH`` in a run, and the commands ``diff --markdown`` and ``markdown``:
the same document serially and under pytest-xdist, written by the controller only, added
to a GitHub job summary, refused before any case runs where it cannot be written, never
changing the run's outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_rubric import cli

LEDGER = """\
evaluator: agreement
cases:
  - id: week-1
    input:
      rows:
        - {{id: A, a: true, b: {a}}}
        - {{id: "@team [x](https://e.example)", a: true, b: false}}
    expected:
      matrix: {{bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 0}}
      agreement: 1
      total: 2
      disagreements: ["@team [x](https://e.example)"]
  - id: week-2
    skip: the desk is re-labelling
    input: {{rows: []}}
    expected: {{matrix: {{bothPass: 0, bothFail: 0, aOnly: 0, bOnly: 0}}, agreement: 0, total: 0, disagreements: []}}
"""
PASSING = LEDGER.format(a="true")
FAILING = LEDGER.format(a="false")
CLEAN = {"PYTEST_XDIST_AUTO_NUM_WORKERS": "0"}


def run(
    pytester: pytest.Pytester, *args: str, env: dict[str, str] | None = None
) -> pytest.RunResult:
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("GITHUB_STEP_SUMMARY", raising=False)
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


@pytest.mark.parametrize("dist", [("-n", "0"), ("-n", "2")], ids=["serial", "xdist"])
def test_a_run_writes_its_markdown_the_same_serially_and_under_xdist(
    pytester: pytest.Pytester, dist: tuple[str, ...]
) -> None:
    pytester.makefile(".rubric.yaml", ledger=FAILING)
    result = run(pytester, *dist, "--rubric-markdown=out/summary.md")
    result.assert_outcomes(failed=1, skipped=1)
    text = (pytester.path / "out" / "summary.md").read_text(encoding="utf-8")
    assert text.splitlines()[:2] == [
        "<!-- pytest-rubric -->",
        "**pytest-rubric failed**: 2 cases, 1 mismatched, 1 skipped",
    ]
    assert "- `week-1` at `ledger.rubric.yaml:3`: differs in `matrix.bothPass`, " in text
    assert "Disagreements (2): `A`, `@team [x](https://e.example)`\n" in text
    assert "- `week-2` at `ledger.rubric.yaml:13`, skipped: `the desk is re-labelling`\n" in text
    serial = pytester.path / "serial.md"
    if dist[1] == "2":
        run(pytester, "-n", "0", f"--rubric-markdown={serial}")
        assert serial.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("dist", [("-n", "0"), ("-n", "2")], ids=["serial", "xdist"])
def test_the_job_summary_keeps_what_earlier_steps_wrote_and_gets_one_document(
    pytester: pytest.Pytester, dist: tuple[str, ...]
) -> None:
    pytester.makefile(".rubric.yaml", ledger=PASSING)
    summary = pytester.path / "step_summary"
    summary.write_text("## Lint\nall clean", encoding="utf-8")
    env = {"GITHUB_STEP_SUMMARY": str(summary)}
    result = run(pytester, *dist, f"--rubric-markdown={summary}", env=env)
    assert result.ret == 0
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## Lint\nall clean\n\n<!-- pytest-rubric -->\n**pytest-rubric passed**")
    assert text.count("<!-- pytest-rubric -->") == 1
    (pytester.path / "link.md").symlink_to(summary)  # the same file, through a link
    run(pytester, *dist, "--rubric-markdown=link.md", env=env)
    assert summary.read_text(encoding="utf-8").count("<!-- pytest-rubric -->") == 2


def test_a_job_summary_whose_folder_is_not_made_yet_is_made_as_a_replaced_files_is(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", ledger=PASSING)
    summary = pytester.path / "not" / "made" / "step_summary"
    env = {"GITHUB_STEP_SUMMARY": str(summary)}
    result = run(pytester, "-n", "2", f"--rubric-markdown={summary}", env=env)
    assert result.ret == 0
    assert "ERROR" not in result.stdout.str()
    assert summary.read_text(encoding="utf-8").startswith("<!-- pytest-rubric -->\n")


def test_any_other_existing_path_is_replaced(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledger=PASSING)
    (pytester.path / "summary.md").write_text("an older summary\n", encoding="utf-8")
    assert run(pytester, "-n", "0", "--rubric-markdown=summary.md").ret == 0
    assert (
        (pytester.path / "summary.md")
        .read_text(encoding="utf-8")
        .startswith("<!-- pytest-rubric -->\n")
    )


def test_a_marker_and_a_limit_are_taken(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledger=FAILING)
    run(
        pytester,
        "-n",
        "0",
        "--rubric-markdown=s.md",
        "--rubric-markdown-marker=evals-nightly",
        "--rubric-markdown-limit=2000",
    )
    text = (pytester.path / "s.md").read_text(encoding="utf-8")
    assert text.startswith("<!-- evals-nightly -->\n")
    assert len(text) <= 2000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rubric-markdown=folder"], "*--rubric-markdown*folder is a directory*"),
        (["--rubric-markdown=x.rubric.yaml"], "*named as a case file*"),
        (
            ["--rubric-markdown=same.json", "--rubric-report=same.json"],
            "*--rubric-report=same.json and --rubric-markdown=same.json are one file*",
        ),
        (
            ["--rubric-markdown=s.md", "--rubric-markdown-limit=100"],
            "*not a size the Markdown fits in*",
        ),
        (
            ["--rubric-markdown=s.md", "--rubric-markdown-marker=a--b"],
            "*cannot name the marker comment*",
        ),
    ],
    ids=["folder", "case-file", "another-output", "limit", "marker"],
)
def test_a_path_or_option_that_cannot_be_used_stops_the_run_before_any_case(
    pytester: pytest.Pytester, args: list[str], message: str
) -> None:
    pytester.makefile(".rubric.yaml", ledger=PASSING)
    (pytester.path / "folder").mkdir()
    result = run(pytester, "-n", "0", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "passed" not in result.stdout.str()
    assert not (pytester.path / "s.md").exists()


def test_a_markdown_that_cannot_be_written_is_said_and_never_fails_the_run(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", ledger=PASSING)
    pytester.makeconftest(
        "import os\n\ndef pytest_sessionstart(session):\n    os.mkdir('late.md')\n"
    )
    result = run(pytester, "-n", "0", "--rubric-markdown=late.md")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["ERROR: the rubric Markdown was not written to late.md: *"])


def test_with_a_baseline_what_changed_comes_first(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", ledger=PASSING)
    run(pytester, "-n", "0", "--rubric-report=base.json")
    pytester.makefile(".rubric.yaml", ledger=FAILING)
    result = run(pytester, "-n", "0", "--rubric-baseline=base.json", "--rubric-markdown=s.md")
    assert result.ret == 1
    lines = (pytester.path / "s.md").read_text(encoding="utf-8").splitlines()
    assert lines[3:6] == [
        "### Since the baseline `base.json`",
        "",
        "1 case changed outcome, 1 ledger changed.",
    ]
    assert lines.index("### Cases by evaluator") > lines.index("**Ledgers changed (1)**")


# -- the commands on reports ------------------------------------------------------------


@pytest.fixture
def reports(pytester: pytest.Pytester) -> tuple[str, str]:
    pytester.makefile(".rubric.yaml", ledger=PASSING)
    run(pytester, "-n", "0", "--rubric-report=old.json")
    pytester.makefile(".rubric.yaml", ledger=FAILING)
    run(pytester, "-n", "0", "--rubric-report=new.json", "--rubric-markdown=run.md")
    return str(pytester.path / "old.json"), str(pytester.path / "new.json")


def test_diff_markdown_exits_as_diff_does(
    reports: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = reports
    assert cli.main(["diff", old, new, "--markdown"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("<!-- pytest-rubric -->\n**pytest-rubric diff: 1 case changed outcome")
    assert cli.main(["diff", old, old, "--markdown", "--marker", "evals"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "<!-- evals -->",
        f"**pytest-rubric diff: nothing changed** (`{old}` → `{old}`)",
    ]
    Path(old).write_text("{}", encoding="utf-8")
    assert cli.main(["diff", old, new, "--markdown"]) == 2
    assert cli.main(["diff", new, new, "--markdown", "--json"]) == 2
    assert cli.main(["diff", new, new, "--markdown", "--limit", "10"]) == 2


def test_the_markdown_command_writes_what_the_run_wrote(
    pytester: pytest.Pytester, reports: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = reports
    out = pytester.path / "again.md"
    assert cli.main(["markdown", "-o", str(out), new]) == 0
    assert out.read_text(encoding="utf-8") == (pytester.path / "run.md").read_text(encoding="utf-8")
    assert cli.main(["markdown", "--baseline", old, "-o", str(out), new]) == 0
    assert "### Since the baseline" in out.read_text(encoding="utf-8")
    assert cli.main(["markdown", "-o", new, new]) == 2
    assert cli.main(["markdown", "--baseline", old, "-o", old, new]) == 2
    assert json.loads(Path(new).read_text(encoding="utf-8"))["format"] == "pytest-rubric-report"
