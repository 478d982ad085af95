"""``python -m pytest_rubric``: the same command line as ``pytest-rubric``."""

from __future__ import annotations

import sys

from pytest_rubric.cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m pytest_rubric"))
