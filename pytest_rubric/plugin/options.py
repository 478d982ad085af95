"""The command-line options' values, checked as argparse ``type=`` functions before any
case runs. Imports nothing heavy: a run that collects no case file needs no more."""

from __future__ import annotations

import argparse

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


def schema_path(value: str) -> str:
    """``--rubric-schema``'s ``type=``: a path that can be written, checked before collection."""
    return _writable(value, "--rubric-schema", ".rubric-schema.json")


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


def _writable(value: str, option: str, example: str) -> str:
    from pytest_rubric.core.files import path_problem  # only when an output path is given

    if value.endswith(CASE_FILE_SUFFIXES):
        # Written at the end of the run, it would replace a case file of the same name.
        raise argparse.ArgumentTypeError(
            f"{value!r} is named as a case file ({' or '.join(CASE_FILE_SUFFIXES)}), which this "
            f"output would replace; name it otherwise, e.g. {option}={example}"
        )
    problem = path_problem(value, option, example)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return value
