"""``pytest-rubric`` / ``python -m pytest_rubric``: commands that work on reports after runs.

Every error is one line on stderr and exit status 2, never a traceback (``diff`` exits 1
when the reports differ, as ``diff`` does, and when they share no case to compare).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from pytest_rubric.core.errors import ReportWriteError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.files import (
    ReportReadError,
    path_problem,
    read_report_bytes,
    same_file,
    write_text_atomically,
)
from pytest_rubric.core.version import version
from pytest_rubric.reports.htmlpage import review_page
from pytest_rubric.reports.jsonreport import write_report
from pytest_rubric.reports.markdown import limit_argument, marker_argument
from pytest_rubric.reports.merge import MergeRefused, ShardReport, merge, parse
from pytest_rubric.reports.summary import count_words

if TYPE_CHECKING:
    from pytest_rubric.reports.diff import Comparison

USAGE_ERROR = 2


class _Stop(Exception):
    """A usage error or a refusal: its message is the one line printed."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints the whole usage before its error; one line is enough.
        raise _Stop(f"{message} (see {self.prog} --help)")


def build_parser(prog: str = "pytest-rubric") -> argparse.ArgumentParser:
    """The command line: one subcommand per task."""
    parser = _Parser(
        prog=prog,
        description="Work with pytest-rubric reports (pytest --rubric-report=PATH).",
    )
    parser.add_argument("--version", action="version", version=f"pytest-rubric {version()}")
    commands = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", required=True
    )
    joining = commands.add_parser(
        "merge",
        help="join the reports of a sharded run into the report of the whole suite, "
        "refusing when a case is missing or reported twice",
        description="Join shard reports (pytest-split, pytest-shard, or any runs of one suite "
        "that each selected a part of it) into the report one run of the whole suite writes. "
        "Refuses, with exit status 2, when the inputs collected different suites, report a "
        "case twice or leave a collected case unreported, or are not reports of this "
        "pytest-rubric version. The inputs are only read.",
    )
    joining.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="where to write the merged report (atomically)",
    )
    joining.add_argument("reports", nargs="+", metavar="REPORT", help="a shard's report")
    paging = commands.add_parser(
        "html",
        help="write the review page (agreement ledgers, their disagreement rows, mismatches "
        "and case errors) of one report, or of shard reports merged as merge does",
        description="Write one self-contained HTML page for reviewing a report: every "
        "agreement ledger's matrix, agreement over total and disagreement rows, and every "
        "mismatch and case error. Several reports are merged first, as the merge command "
        "merges them (and refused as it refuses). The inputs are only read: -o is refused "
        "at the path of a report or of the baseline.",
    )
    paging.add_argument(
        "-o", "--output", required=True, metavar="OUT", help="where to write the page (atomically)"
    )
    paging.add_argument(
        "--baseline",
        metavar="REPORT",
        default=None,
        help="an earlier run's report: the page opens with what changed since it, as "
        "pytest --rubric-baseline=REPORT --rubric-html=OUT shows it",
    )
    paging.add_argument("reports", nargs="+", metavar="REPORT", help="a report (or a shard's)")
    comparing = commands.add_parser(
        "diff",
        help="compare two reports: cases that changed outcome or answer or are in one only, "
        "and per agreement ledger the disagreement IDs that entered and left",
        description="Compare two reports (of two runs, of any pytest-rubric version that "
        "writes this report format): the cases in one report only, those whose outcome "
        "changed, those whose answer changed while their outcome did not, and for each "
        "agreement ledger in both its matrix and agreement before and after and the "
        "disagreement IDs that entered and left, each with its row's place. Exit status 0 "
        "when nothing changed, 1 when something did or when no case is in both reports "
        "(nothing was compared), 2 when a report cannot be read. The inputs are only read.",
    )
    comparing.add_argument("old", metavar="OLD", help="the earlier report")
    comparing.add_argument("new", metavar="NEW", help="the later report")
    shown = comparing.add_mutually_exclusive_group()
    shown.add_argument(
        "--json",
        action="store_true",
        dest="as_json",
        help="print the comparison as JSON (described by diff.schema.json) instead of text",
    )
    shown.add_argument(
        "--markdown",
        action="store_true",
        dest="as_markdown",
        help="print the comparison as Markdown for a pull request comment, cut to --limit",
    )
    _markdown_options(comparing, "the comparison")
    writing = commands.add_parser(
        "markdown",
        help="write the Markdown of one report, or of shard reports merged as merge does "
        "(a pull request comment, a CI job summary)",
        description="Write a report's results as Markdown, as pytest --rubric-markdown=PATH "
        "writes them: the verdict, counts per evaluator, mismatches, case errors, ledgers, "
        "datasets, skipped cases, cut to --limit characters. Several reports are merged "
        "first, as the merge command merges them. Added to what is there when OUT is "
        "$GITHUB_STEP_SUMMARY. The inputs are only read.",
    )
    writing.add_argument("-o", "--output", required=True, metavar="OUT", help="where to write it")
    writing.add_argument(
        "--baseline",
        metavar="REPORT",
        default=None,
        help="an earlier run's report: the Markdown opens with what changed since it",
    )
    _markdown_options(writing, "the Markdown")
    writing.add_argument("reports", nargs="+", metavar="REPORT", help="a report (or a shard's)")
    return parser


def _markdown_options(parser: argparse.ArgumentParser, what: str) -> None:
    from pytest_rubric.reports.markdown import DEFAULT_LIMIT
    from pytest_rubric.reports.mdtext import DEFAULT_MARKER

    parser.add_argument(
        "--limit",
        type=limit_argument,
        default=DEFAULT_LIMIT,
        metavar="CHARS",
        help=f"cut {what}'s lists to fit in CHARS characters (default {DEFAULT_LIMIT}, what a "
        "GitHub comment holds); the verdict and counts are never cut",
    )
    parser.add_argument(
        "--marker",
        type=marker_argument,
        default=DEFAULT_MARKER,
        metavar="NAME",
        help=f"start the Markdown with <!-- NAME --> (default {DEFAULT_MARKER}), which a "
        "workflow finds to update one comment",
    )


def main(argv: Sequence[str] | None = None, prog: str = "pytest-rubric") -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser(prog)
    try:
        arguments = parser.parse_args(argv)
        if arguments.command == "html":
            return _html(arguments.output, arguments.reports, prog, arguments.baseline)
        if arguments.command == "diff":
            markdown = (arguments.limit, arguments.marker) if arguments.as_markdown else None
            return _diff(
                arguments.old,
                arguments.new,
                as_json=arguments.as_json,
                prog=prog,
                markdown=markdown,
            )
        if arguments.command == "markdown":
            return _markdown(arguments, prog)
        return _merge(arguments.output, arguments.reports, prog)
    except _Stop as exc:
        return _fail(prog, str(exc))
    except KeyboardInterrupt:
        return _fail(prog, "interrupted")
    except MemoryError:  # a report too large for this machine's memory
        return _fail(prog, "out of memory: the reports given do not fit in this machine's memory")
    except Exception as exc:  # a bug of ours: still one line, never a traceback
        return _fail(prog, f"internal error: {type(exc).__name__}: {exc}")


def _html(output: str, names: list[str], prog: str, baseline: str | None = None) -> int:
    problem = path_problem(output, "-o", "rubric-review.html")
    if problem is not None:
        raise _Stop(problem)
    data, comparison = _shown(output, names, baseline)
    try:
        page = review_page(data, comparison=comparison)
        write_text_atomically(Path(output), page, what="the review page")
    except ReportWriteError as exc:
        raise _Stop(str(exc)) from None
    _written(prog, "html", names, data, output)
    return 0


def _markdown(arguments: argparse.Namespace, prog: str) -> int:
    from pytest_rubric.reports.markdown import run_markdown
    from pytest_rubric.reports.mdchanges import baseline_parts
    from pytest_rubric.reports.mdwrite import markdown_problem, write_markdown

    output: str = arguments.output
    problem = markdown_problem(output, "-o", "rubric-summary.md", os.environ)
    if problem is not None:
        raise _Stop(problem)
    data, comparison = _shown(output, arguments.reports, arguments.baseline)
    since = [] if comparison is None else baseline_parts(comparison, arguments.baseline)
    text = run_markdown(
        data,
        since=since,
        limit=arguments.limit,
        marker_name=arguments.marker,
    )
    try:
        write_markdown(output, text, os.environ, what="the Markdown")
    except ReportWriteError as exc:
        raise _Stop(str(exc)) from None
    _written(prog, "markdown", arguments.reports, data, output)
    return 0


def _shown(
    output: str, names: list[str], baseline: str | None
) -> tuple[Mapping[str, Any], Comparison | None]:
    """The report to show (the reports named, merged when several) and its comparison
    with ``baseline``, when one is named; none of them may be ``output``."""
    reports = _reports(
        output, names, elsewhere="write to another path", refused="not a report to show"
    )
    before = None
    if baseline is not None:
        if same_file(output, baseline):
            raise _Stop(f"-o {output} is the baseline {baseline}; write to another path")
        from pytest_rubric.reports.diff import read_report

        try:
            before = read_report(baseline, _read(baseline), version())
        except MergeRefused as exc:
            raise _Stop(f"--baseline: {exc}") from None
    try:
        data = reports[0].data if len(reports) == 1 else merge(reports, version())
    except MergeRefused as exc:
        raise _Stop(f"merge refused: {exc}") from None
    comparison = None
    if before is not None:
        from pytest_rubric.reports.diff import compare

        shown = names[0] if len(names) == 1 else "the merged reports"
        comparison = compare(before, data, baseline or "", shown)
    return data, comparison


def _written(
    prog: str, command: str, names: list[str], data: Mapping[str, Any], output: str
) -> None:
    noun = "report" if len(names) == 1 else "reports"
    cases = data.get("cases")
    count = len(cases) if isinstance(cases, list) else 0
    print(f"{prog} {command}: {len(names)} {noun}, {count} cases -> {escape_controls(output)}")


def _reports(output: str, names: list[str], *, elsewhere: str, refused: str) -> list[ShardReport]:
    """The reports named, read and checked; none of them may be ``output``. ``elsewhere``
    and ``refused`` word the two refusals for the command at hand."""
    seen: dict[str, str] = {}
    reports: list[ShardReport] = []
    for name in names:
        real = os.path.realpath(name)
        if same_file(output, name):
            raise _Stop(f"-o {output} is the input {name}; {elsewhere}")
        if real in seen:
            raise _Stop(f"{name} is given twice (also as {seen[real]}); give each report once")
        seen[real] = name
        try:
            reports.append(parse(name, _read(name), version()))
        except MergeRefused as exc:
            raise _Stop(f"{refused}: {exc}") from None
    return reports


def _merge(output: str, names: list[str], prog: str) -> int:
    problem = path_problem(output, "-o", "rubric-report.json")
    if problem is not None:
        raise _Stop(problem)
    reports = _reports(
        output, names, elsewhere="write the merged report elsewhere", refused="merge refused"
    )
    try:
        merged = merge(reports, version())
        write_report(Path(output), merged, what="the merged report")
    except MergeRefused as exc:
        raise _Stop(f"merge refused: {exc}") from None
    except ReportWriteError as exc:
        raise _Stop(str(exc)) from None
    summary = merged["summary"]
    counts = count_words(summary)
    noun = "report" if len(reports) == 1 else "reports"
    print(
        f"{prog} merge: {len(reports)} {noun}, {summary['cases']} cases"
        f"{f' ({counts})' if counts else ''} -> {escape_controls(output)}"
    )
    return 0


def _diff(
    old_name: str,
    new_name: str,
    *,
    as_json: bool,
    prog: str,
    markdown: tuple[int, str] | None = None,
) -> int:
    """``diff``: the comparison printed as text, JSON or (``markdown``: its limit and
    marker name) Markdown; the exit status as the comparison says."""
    from pytest_rubric.reports.diff import compare, read_report
    from pytest_rubric.reports.difftext import diff_lines

    reports = []
    for name in (old_name, new_name):
        try:
            reports.append(read_report(name, _read(name), version()))
        except MergeRefused as exc:
            raise _Stop(f"cannot compare: {exc}") from None
    comparison = compare(reports[0], reports[1], old_name, new_name)
    if as_json:
        shown = json.dumps(comparison, ensure_ascii=False, indent=1) + "\n"
    elif markdown is not None:
        from pytest_rubric.reports.mdchanges import diff_markdown

        shown = diff_markdown(comparison, limit=markdown[0], marker_name=markdown[1])
    else:
        shown = "".join(f"{line}\n" for line in diff_lines(comparison, prog))
    # A comparison of no case in both reports vouches for nothing: never "unchanged".
    status = 1 if comparison["changed"] or not comparison["summary"]["compared"] else 0
    if sys.stdout is None:
        raise _Stop("cannot write the comparison: standard output is closed")
    try:
        # A lone surrogate (a forged report's "\ud800") is written as that JSON escape.
        sys.stdout.buffer.write(shown.encode("utf-8", "backslashreplace"))
        sys.stdout.flush()
    except BrokenPipeError:  # read by `head` or the like, which has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as exc:
        reason = os.strerror(exc.errno).lower() if exc.errno is not None else str(exc)
        raise _Stop(f"cannot write the comparison to standard output: {reason}") from None
    return status


def _read(name: str) -> bytes:
    try:
        return read_report_bytes(name)
    except ReportReadError as exc:
        remedy = "; give a report file" if exc.no_file else ""
        raise _Stop(f"cannot read {escape_controls(name) or repr(name)}: {exc}{remedy}") from None


def _fail(prog: str, message: str) -> int:
    print(f"{prog}: error: {escape_controls(message)}", file=sys.stderr)
    return USAGE_ERROR
