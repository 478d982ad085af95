"""Paths made relative: the one place a path is, for people and records alike."""

from __future__ import annotations

import os
from pathlib import Path


def relative(path: Path | str, start: Path | str) -> str:
    """``path`` relative to ``start``, or as given where it cannot be (another drive
    on Windows)."""
    try:
        return os.path.relpath(path, start)
    except ValueError:
        return str(path)
