"""A workaround: our cases' quiet phase reports hidden while pytest writes its failures.

pytest prints each failure's teardown sections by rescanning every passed setup/teardown
report (pytest-dev/pytest#13360): O(failures x items), which grows with the square of a
suite's size when many cases mismatch. Our items' quiet phase reports have no sections,
so they can never print anything there: hide them while pytest writes its failure
sections (the outermost wrapper), and put them back before anything else, such as
``--durations``, reads the stats (the innermost wrapper, which runs right after those
sections). Registered with the first case gathered: a run without one never needs it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from typing import Any

import pytest

#: How a case's report names it; also how our reports are told apart from others.
REPORT_DOMAIN = "[rubric] "


class QuietPhases:
    """The stats pytest keeps of quiet phases, hidden and put back."""

    def __init__(self) -> None:
        self._hidden: list[Any] | None = None

    def hide(self, terminalreporter: pytest.TerminalReporter) -> None:
        quiet = terminalreporter.stats.get("")
        if quiet:
            self._hidden = quiet
            terminalreporter.stats[""] = [r for r in quiet if not _is_silent_rubric_phase(r)]

    def restore(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self._hidden is not None:
            terminalreporter.stats[""] = self._hidden
            self._hidden = None


class _HideQuietPhases:
    """The outer half of the workaround: a wrapper that runs first."""

    def __init__(self, quiet: QuietPhases) -> None:
        self.quiet = quiet

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_terminal_summary(
        self, terminalreporter: pytest.TerminalReporter
    ) -> Generator[None, None, None]:
        with contextlib.suppress(Exception):
            self.quiet.hide(terminalreporter)
        try:
            return (yield)
        finally:
            self.quiet.restore(terminalreporter)


class _RestoreQuietPhases:
    """The inner half: a wrapper that runs last, after pytest's failure sections."""

    def __init__(self, quiet: QuietPhases) -> None:
        self.quiet = quiet

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_terminal_summary(
        self, terminalreporter: pytest.TerminalReporter
    ) -> Generator[None, None, None]:
        self.quiet.restore(terminalreporter)
        return (yield)


def work_around_quiet_phases(config: pytest.Config) -> None:
    """Register the workaround, once."""
    manager = config.pluginmanager
    if manager.get_plugin("rubric-hide-quiet-phases") is None:
        quiet = QuietPhases()
        manager.register(_HideQuietPhases(quiet), "rubric-hide-quiet-phases")
        manager.register(_RestoreQuietPhases(quiet), "rubric-restore-quiet-phases")


def _is_silent_rubric_phase(report: Any) -> bool:
    location = getattr(report, "location", None)
    return (
        not getattr(report, "sections", True)
        and location is not None
        and location[2].startswith(REPORT_DOMAIN)
    )
