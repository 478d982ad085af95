"""Paths as people and records read them: the one place a path is made relative."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest


def relative(path: Path | str, start: Path | str) -> str:
    """``path`` relative to ``start``, or as given where it cannot be (another drive
    on Windows)."""
    try:
        return os.path.relpath(path, start)
    except ValueError:
        return str(path)


def display_path(config: pytest.Config, path: Path | str) -> str:
    """The path as the user typed it: relative to where pytest was invoked."""
    return relative(path, config.invocation_params.dir)


def root_path(config: pytest.Config, path: Path | str) -> str:
    """The path for machine-readable output: relative to rootdir, with ``/``."""
    return Path(relative(path, config.rootpath)).as_posix()
