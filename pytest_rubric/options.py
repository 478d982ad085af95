"""What pytest asks of pytest-rubric before any case file is found.

The checks of the command-line options' values (argparse ``type=`` functions, run
before any case runs) and the test of whether a file is a case file. A run that
collects no case file needs nothing else, so this module imports nothing heavy:
no yaml, no loader, no evaluator. This module does not import pytest.
"""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

#: A case file's name ends in one of these.
SUFFIXES = (".rubric.yaml", ".rubric.yml")
#: How many rows to review (disagreements) a report keeps per ledger unless told.
DEFAULT_REVIEW_ROWS = 1000
#: ``--rubric-update``'s values.
UPDATE_MODES = ("new", "all")


def is_case_file(path: Path) -> bool:
    return path.name.endswith(SUFFIXES)


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
    problem = path_problem(value, option, example)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return value


def path_problem(value: str, option: str, example: str) -> str | None:
    """Why ``option``'s output path ``value`` cannot be written, or ``None``; ``example``
    is the file name suggested instead."""
    if not value.strip():
        return f"give a file name, e.g. {option}={example}"
    try:
        target = Path(os.path.realpath(value))  # a symlink is written through, as --junitxml does
        try:
            mode = target.stat().st_mode
        except (FileNotFoundError, NotADirectoryError):
            mode = None
        if mode is not None and stat.S_ISDIR(mode):
            return f"{value} is a directory; give a file name, e.g. {Path(value) / example}"
        if mode is not None and not stat.S_ISREG(mode):
            return f"{value} is not a regular file (a device, FIFO or socket); give a file name"
        folder = target.parent
        while not folder.exists():  # missing folders are created, as --junitxml does
            folder = folder.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            return f"cannot write {value}: {folder} is not a writable folder; choose a path you can write"
    except (OSError, ValueError) as exc:
        shown = value if len(value) <= 80 else f"{value[:60]}…"
        return f"cannot write {shown!r}: {os_reason(exc)}; choose another path"
    return None


def os_reason(exc: BaseException) -> str:
    """An error as a short lower-case reason (``permission denied``)."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return os.strerror(exc.errno).lower()
    return str(exc) or type(exc).__name__
