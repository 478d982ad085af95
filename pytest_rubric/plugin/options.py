"""The command-line options' values, checked as argparse ``type=`` functions before any
case runs. Imports nothing heavy: a run that collects no case file needs no more."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from pytest_rubric.casefiles.suffixes import SUFFIXES as CASE_FILE_SUFFIXES

#: How many rows to review (disagreements) a report keeps per ledger unless told.
DEFAULT_REVIEW_ROWS = 1000
#: ``--rubric-update``'s values.
UPDATE_MODES = ("new", "all")


def report_path(value: str) -> str:
    """``--rubric-report``'s ``type=``: a path that can be written, checked before any case runs."""
    return _writable(value, "--rubric-report", "rubric-report.json")


def html_path(value: str) -> str:
    """``--rubric-html``'s ``type=``: a path that can be written, checked before any case runs."""
    return _writable(value, "--rubric-html", "rubric-review.html")


def markdown_path(value: str) -> str:
    """``--rubric-markdown``'s ``type=``: a path that can be written (or added to, when it is
    the GitHub job summary), checked before any case runs."""
    import os

    from pytest_rubric.reports.mdwrite import markdown_problem

    checked = _writable(value, "--rubric-markdown", "rubric-summary.md", check=False)
    problem = markdown_problem(checked, "--rubric-markdown", "rubric-summary.md", os.environ)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return checked


def markdown_limit(value: str) -> int:
    """``--rubric-markdown-limit``'s ``type=`` (imports the Markdown only when given)."""
    from pytest_rubric.reports.markdown import limit_argument

    return limit_argument(value)


def markdown_marker(value: str) -> str:
    """``--rubric-markdown-marker``'s ``type=`` (imports the Markdown only when given)."""
    from pytest_rubric.reports.markdown import marker_argument

    return marker_argument(value)


def schema_path(value: str) -> str:
    """``--rubric-schema``'s ``type=``: a path that can be written, checked before collection."""
    return _writable(value, "--rubric-schema", ".rubric-schema.json")


def baseline_path(value: str) -> str:
    """``--rubric-baseline``'s ``type=``: a path given. The report there is read once the
    run is configured, and only where the run is summarised (not on a pytest-xdist worker)."""
    if not value:
        raise argparse.ArgumentTypeError(
            "the path is empty; give a report an earlier run wrote, e.g. "
            "--rubric-baseline=rubric-report.json"
        )
    return value


class BaselineError(Exception):
    """The baseline cannot be read as a report; the message is one line."""


def read_baseline(path: str) -> Mapping[str, Any]:
    """The report at ``path`` (``--rubric-baseline``), read and checked as
    ``pytest-rubric diff`` reads one; :class:`BaselineError` when it cannot be."""
    from pytest_rubric.core.escapes import escape_controls
    from pytest_rubric.core.files import ReportReadError, read_report_bytes
    from pytest_rubric.core.version import version
    from pytest_rubric.reports.diff import read_report
    from pytest_rubric.reports.merge import MergeRefused

    shown = escape_controls(path)
    try:
        content = read_report_bytes(path)
    except ReportReadError as exc:
        raise BaselineError(
            f"--rubric-baseline={shown} cannot be read: {exc}; give a report an earlier "
            "run wrote with --rubric-report=PATH"
        ) from None
    try:
        return read_report(path, content, version())
    except MergeRefused as exc:
        raise BaselineError(f"--rubric-baseline: {exc}") from None


#: The run's outputs: each option's dest, and a path to suggest instead.
_OUTPUTS = (
    ("--rubric-report", "rubric_report", "rubric-report.json"),
    ("--rubric-html", "rubric_html", "rubric-review.html"),
    ("--rubric-markdown", "rubric_markdown", "rubric-summary.md"),
    ("--rubric-schema", "rubric_schema", ".rubric-schema.json"),
    ("--junitxml", "xmlpath", "junit.xml"),  # pytest's own, absent with -p no:junitxml
)


def clashing_paths(option: argparse.Namespace) -> str | None:
    """Why the run would write one output over another, or over its baseline (which it
    only reads); ``None`` when each has a path of its own. A report may be written over
    its own baseline: the baseline is read first, which is how a rolling baseline works.
    Paths are compared as files, however spelt."""
    given = [(flag, path, example) for flag, dest, example in _OUTPUTS
             if isinstance(path := getattr(option, dest, None), str) and path]  # fmt: skip
    baseline = option.rubric_baseline
    if len(given) + bool(baseline) < 2:
        return None  # a run without two such paths imports nothing for them
    from pytest_rubric.core.escapes import escape_controls
    from pytest_rubric.core.files import same_file

    for number, (flag, path, example) in enumerate(given):
        for earlier, other, _ in given[:number]:
            if same_file(path, other):
                return escape_controls(
                    f"{earlier}={other} and {flag}={path} are one file, which the run would "
                    f"write twice, one over the other; give each its own path, e.g. "
                    f"{flag}={example}"
                )
    for flag, path, example in given:
        if baseline and flag != "--rubric-report" and same_file(path, baseline):
            return escape_controls(
                f"{flag}={path} is the baseline --rubric-baseline={baseline}, which the run only "
                f"reads; write it elsewhere, e.g. {flag}={example}"
            )
    return None


def review_rows(value: str) -> int:
    """``--rubric-review-rows``'s ``type=``: a count, 0 or more."""
    try:
        count = int(value)
    except ValueError:
        count = -1
    if count < 0:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a count of rows; give a whole number, 0 or more, e.g. 1000"
        )
    return count


def update_mode(value: str) -> str:
    """``--rubric-update``'s ``type=``."""
    if value not in UPDATE_MODES:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not an update mode; write --rubric-update=new (fill missing "
            "expected answers) or --rubric-update=all (also rewrite mismatching ones)"
        )
    return value


def _writable(value: str, option: str, example: str, *, check: bool = True) -> str:
    from pytest_rubric.core.files import path_problem  # only when an output path is given

    if value.endswith(CASE_FILE_SUFFIXES):
        # Written at the end of the run, it would replace a case file of the same name.
        raise argparse.ArgumentTypeError(
            f"{value!r} is named as a case file ({' or '.join(CASE_FILE_SUFFIXES)}), which this "
            f"output would replace; name it otherwise, e.g. {option}={example}"
        )
    problem = path_problem(value, option, example) if check else None
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return value
