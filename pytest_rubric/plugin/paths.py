"""Paths as pytest's run names them: as typed, and relative to rootdir for records."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_rubric.core.paths import relative


def display_path(config: pytest.Config, path: Path | str) -> str:
    """The path as the user typed it: relative to where pytest was invoked."""
    return relative(path, config.invocation_params.dir)


def root_path(config: pytest.Config, path: Path | str) -> str:
    """The path for machine-readable output: relative to rootdir, with ``/``."""
    return Path(relative(path, config.rootpath)).as_posix()
