"""Where a run's Markdown goes: added to a GitHub job summary, or a file of its own.

GitHub gives each step a file (``$GITHUB_STEP_SUMMARY``) that other commands of the same
step may have written to already; a document written at that path is added after what
is there, never over it, starting a block of its own. Any other path is replaced whole
or not at all, as the report and the page are, so a rerun leaves one document.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pytest_rubric.core.errors import ReportWriteError
from pytest_rubric.core.files import os_reason, path_problem, write_text_atomically

#: The variable GitHub Actions names a step's summary file with.
STEP_SUMMARY = "GITHUB_STEP_SUMMARY"


def appends(path: str, environ: Mapping[str, str]) -> bool:
    """Whether a document written to ``path`` is added to what is there: ``path`` is the
    job summary of the GitHub Actions step that runs."""
    summary = environ.get(STEP_SUMMARY)
    if not summary:
        return False
    try:
        return os.path.realpath(path) == os.path.realpath(summary)
    except (OSError, ValueError):
        return False


def markdown_problem(
    value: str, option: str, example: str, environ: Mapping[str, str]
) -> str | None:
    """Why the Markdown cannot be written to ``value``, or ``None``."""
    problem = path_problem(value, option, example)
    exists = problem is None and appends(value, environ) and os.path.exists(value)
    if exists and not os.access(value, os.W_OK):
        return f"cannot add to {value} (${STEP_SUMMARY}): permission denied"
    return problem


def write_markdown(path: str, text: str, environ: Mapping[str, str], *, what: str) -> None:
    """Write ``text`` to ``path``: added to a job summary, or replacing any other file.
    :class:`~pytest_rubric.core.errors.ReportWriteError` says why it was not."""
    if not appends(path, environ):
        write_text_atomically(Path(path), text, what=what)
        return
    try:
        # As a replaced file's folders are made, so are a summary's not made yet.
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a+b") as stream:
            stream.seek(0, os.SEEK_END)
            size = stream.tell()
            ending = b""
            if size:
                stream.seek(max(0, size - 2))
                ending = stream.read()
            # A blank line first, so that the marker starts a block after any earlier text.
            gap = (
                "" if not size or ending == b"\n\n" else "\n" if ending.endswith(b"\n") else "\n\n"
            )
            stream.write((gap + text).encode("utf-8", "backslashreplace"))
            stream.flush()
    except (OSError, ValueError) as exc:
        raise ReportWriteError(f"{what} was not added to {path}: {os_reason(exc)}") from None
