"""Which files are case files: the one test pytest makes of every file it collects.

Imports nothing, and compiles no pattern until a name holds ``rubric`` (``re`` keeps
what it compiled): a run that collects no case file pays for this look only (and a
lowercase copy of each name that holds ``rubric``, to warn of a near miss; a file named
``*_rubric.yml`` or ``*-rubric.yaml`` is also read, its first 64 KiB, to tell a case file
from another tool's).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

#: A case file's name ends in one of these.
SUFFIXES = (".rubric.yaml", ".rubric.yml")
#: A name one slip away from a case file's: another casing, ``rubrics``, a doubled
#: suffix (group 1: the stem, group 2: ``yaml`` or ``yml``).
_NEAR = r"(.+?)\.rubrics?\.(ya?ml)(?:\.ya?ml)?"
#: ``_`` or ``-`` for the dot (``week_rubric.yml``): ``scoring-rubric.yaml`` is another
#: tool's file as often as a slip, so such a name is one only for a file that holds a
#: case file's top-level ``evaluator:`` and ``cases:`` (:func:`holds_cases`).
_JOINED = r"(.+?)[_-]rubrics?\.(ya?ml)"
_NAME_FLAGS = re.IGNORECASE | re.ASCII
#: How much of a file :func:`holds_cases` reads.
_HEAD = 1 << 16
_EVALUATOR = rb"""^(?:\{\s*)?["']?evaluator["']?\s*:"""
_CASES = rb"""(?:^|[{,]\s*)["']?cases["']?\s*:"""


def is_case_file(path: Path) -> bool:
    return path.name.endswith(SUFFIXES)


def near_miss(name: str) -> str | None:
    """The case-file name ``name`` (not one) is most likely meant to be, if it is one
    slip away (``week.rubrics.yaml``, ``x.rubric.yaml.yaml``, ``X.Rubric.yaml``)."""
    if "rubric" not in name.lower():
        return None
    found = re.fullmatch(_NEAR, name, _NAME_FLAGS)
    if found is None:
        return None
    meant = f"{found.group(1)}.rubric.{found.group(2).lower()}"
    return meant if meant != name else None


def joined_near_miss(name: str) -> str | None:
    """The case-file name meant by a name joined with ``_`` or ``-`` (``week_rubric.yml``:
    ``week.rubric.yml``), a slip only when the file :func:`holds_cases`."""
    if "rubric" not in name.lower():
        return None
    found = re.fullmatch(_JOINED, name, _NAME_FLAGS)
    return None if found is None else f"{found.group(1)}.rubric.{found.group(2).lower()}"


def near_miss_at(path: Path) -> str | None:
    """The case-file name the file at ``path`` is meant to have, if its name is one slip
    away: :func:`near_miss`, or :func:`joined_near_miss` for a file that holds cases."""
    name = path.name
    if "rubric" not in name.lower():
        return None  # every file pytest collects: the one look a run pays for
    meant = near_miss(name)
    if meant is None:
        meant = joined_near_miss(name)
        if meant is not None and not holds_cases(path):
            return None
    return meant


def holds_cases(path: Path) -> bool:
    """Whether the regular file at ``path`` begins like a case file: a top-level
    ``evaluator:`` key, and a ``cases:`` key, in its first 64 KiB."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return False
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return False  # a FIFO or a device must not block or flood the run
        head = os.read(handle, _HEAD)
    except OSError:
        return False
    finally:
        os.close(handle)
    return (
        re.search(_EVALUATOR, head, re.MULTILINE) is not None
        and re.search(_CASES, head, re.MULTILINE) is not None
    )
