"""The installed distribution's version, as reports and ``--version`` name it."""

from __future__ import annotations

import functools


@functools.cache
def version() -> str:
    """``pytest-rubric``'s version, or ``0+unknown`` in a source tree that is not installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("pytest-rubric")
    except PackageNotFoundError:
        return "0+unknown"
