"""Which files are case files: the one test pytest makes of every file it collects.

Imports nothing: a run that collects no case file pays for this look only.
"""

from __future__ import annotations

from pathlib import Path

#: A case file's name ends in one of these.
SUFFIXES = (".rubric.yaml", ".rubric.yml")


def is_case_file(path: Path) -> bool:
    return path.name.endswith(SUFFIXES)
