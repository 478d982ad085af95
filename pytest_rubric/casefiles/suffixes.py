"""Which files are case files: the one test pytest makes of every file it collects.

Imports nothing: a run that collects no case file pays for this look only (and a
lowercase copy of each name that holds ``rubric``, to warn of a near miss).
"""

from __future__ import annotations

import re
from pathlib import Path

#: A case file's name ends in one of these.
SUFFIXES = (".rubric.yaml", ".rubric.yml")
#: A name one slip away from a case file's: another casing, ``rubrics``, a doubled
#: suffix (group 1: the stem, group 2: ``yaml`` or ``yml``). ``scoring-rubric.yaml``
#: is another tool's file as often as a slip, so it is left alone.
_NEAR = re.compile(r"(.+?)\.rubrics?\.(ya?ml)(?:\.ya?ml)?", re.IGNORECASE)


def is_case_file(path: Path) -> bool:
    return path.name.endswith(SUFFIXES)


def near_miss(name: str) -> str | None:
    """The case-file name ``name`` (not one) is most likely meant to be, if it is one
    slip away (``week.rubrics.yaml``, ``x.rubric.yaml.yaml``, ``X.Rubric.yaml``)."""
    if "rubric" not in name.lower():
        return None
    found = _NEAR.fullmatch(name)
    if found is None:
        return None
    meant = f"{found.group(1)}.rubric.{found.group(2).lower()}"
    return meant if meant != name else None
