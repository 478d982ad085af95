"""``--rubric-update`` in a pytest run: refused in CI before anything runs, and the
gathered answers written at the end (by a serial run or the pytest-xdist controller;
workers never write). Each case decides where it runs
(:mod:`pytest_rubric.editing.decisions`) and ships its answer; each file is written once
here (:mod:`pytest_rubric.editing.filewrites`).

The hooks here never raise: a file that still cannot be written at the end (it
changed on disk meanwhile) is reported, its cases become case errors in the rubric
summary and report, and the run fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.editing.decisions import ci_variable
from pytest_rubric.editing.filewrites import FileResult, write_file
from pytest_rubric.plugin.paths import display_path
from pytest_rubric.plugin.payloads import Payload
from pytest_rubric.reports.caserecords import stopped
from pytest_rubric.reports.summary import MAX_LINES, plural
from pytest_rubric.running.caserun import CaseWrite, HeldRecord
from pytest_rubric.running.outcome import CASE_ERROR, MATCHED


def refuse_in_ci(config: pytest.Config, environ: Mapping[str, str]) -> None:
    """A usage error, before anything runs, for ``--rubric-update`` in CI."""
    mode = config.option.rubric_update
    if mode is None or config.option.rubric_update_in_ci:
        return
    found = ci_variable(environ)
    if found is not None:
        raise pytest.UsageError(
            f"--rubric-update={mode} is refused in CI ({escape_controls(found)} is set): it "
            "writes case files, which CI runs should only check; run it on your machine and "
            "commit the diff, or add --rubric-update-in-ci to write anyway"
        )


class UpdateRun:
    """Writes the gathered answers into their case files at the end of the run."""

    def __init__(
        self, config: pytest.Config, cases: dict[str, Payload], *, is_worker: bool
    ) -> None:
        self.config = config
        #: The run's payloads by node ID, as gathered (the same dict, filled as cases end).
        self.cases = cases
        self.is_worker = is_worker
        self.mode: str = config.option.rubric_update
        self.files: list[FileResult] = []
        #: Cases whose answers could not be written, found where they ran (they failed).
        self.unwritten = 0
        #: Cases whose answers, refusals, were held back (they failed).
        self.held: list[HeldRecord] = []
        #: Cases whose answers differ but are never written: dataset rows by dataset
        #: (file and case), the cases with expected_subset and the pairs of a panel whose
        #: case pins one 'expected' for every pair (node IDs).
        self.rows_kept: dict[tuple[str, str], int] = {}
        self.subsets_kept: list[str] = []
        self.pairs_kept: list[str] = []
        self.finished = False

    @pytest.hookimpl(tryfirst=True)  # before the report is written from the same records
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.is_worker:
            return
        try:
            self._finish()
        except Exception as exc:  # never an internal error: say so and fail the run
            self.files.append(FileResult("(rubric update)", refused=f"{type(exc).__name__}: {exc}"))
        self.finished = True
        if any(file.refused for file in self.files) and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _finish(self) -> None:
        by_path: dict[str, list[tuple[Payload, CaseWrite]]] = {}
        for payload in self.cases.values():
            self.unwritten += bool(payload.get("unwritten"))
            if "held" in payload:
                self.held.append(payload["held"])
            if "kept" in payload:
                self._kept(payload)
            write = payload.pop("write", None)
            if write is not None and payload["record"]["outcome"] == MATCHED:
                # One file reached through a symlink and directly is one file to write.
                by_path.setdefault(os.path.realpath(write["path"]), []).append((payload, write))
        for path, shipped in sorted(by_path.items()):
            display = escape_controls(display_path(self.config, path))
            writes = [write for _payload, write in shipped]
            result = write_file(Path(path), display, writes, root=self.config.rootpath)
            self.files.append(result)
            if result.refused is not None:
                result.cases = len(shipped)
                for payload, _write in shipped:
                    # Its answer was not written after all: a case error, without its update.
                    payload["record"] = stopped(
                        payload["record"],
                        CASE_ERROR,
                        f"its expected answer was not written: {result.refused}",
                    )

    def _kept(self, payload: Payload) -> None:
        record = payload["record"]
        of = record.get("dataset")
        if of is not None:
            key = (record["file"], of["case"])
            self.rows_kept[key] = self.rows_kept.get(key, 0) + 1
        elif "panel" in record and not record.get("expectedSubset"):
            self.pairs_kept.append(record["nodeid"])
        else:
            self.subsets_kept.append(record["nodeid"])

    @pytest.hookimpl(trylast=True)  # after the rubric summary: the run ends with what was written
    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.is_worker or not self.finished or self.config.option.collectonly:
            return
        try:
            self._summary(terminalreporter)
        except Exception as exc:
            terminalreporter.write_line(f"rubric update could not be shown: {type(exc).__name__}")

    def _summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        terminalreporter.write_sep("=", f"rubric update ({self.mode})")
        written = [file for file in self.files if file.refused is None]
        for file in written:
            for line in file.diff:
                markup = {"red": True} if line.startswith("-") else {}
                if line.startswith("+"):
                    markup = {"green": True}
                terminalreporter.write_line(escape_controls(line), **markup)
        count = sum(file.written for file in written)
        if count:
            created = sum(file.created for file in written)
            terminalreporter.write_line(
                f"{plural(count, 'expected answer')} written, {created} created, "
                f"in {plural(len(written), 'file')}"
            )
        elif not (
            self.unwritten or self.held or self.rows_kept or self.subsets_kept or self.pairs_kept
        ) and len(written) == len(self.files):
            terminalreporter.write_line("no expected answer needed writing")
        if self.held:
            self._held(terminalreporter)
        for (where, case), count in sorted(self.rows_kept.items()):
            terminalreporter.write_line(
                escape_controls(
                    f"{where}: dataset {case}: {plural(count, 'row')} not written: "
                    "--rubric-update never writes a dataset's rows; fix what the rows say, "
                    "or what the case expects of them"
                ),
                yellow=True,
            )
        if self.subsets_kept:
            terminalreporter.write_line(
                escape_controls(
                    f"{plural(len(self.subsets_kept), 'case')} with expected_subset not "
                    f"written ({_first_names(self.subsets_kept)}): "
                    "--rubric-update writes whole answers into 'expected'; edit the keys "
                    "it pins by hand"
                ),
                yellow=True,
            )
        if self.pairs_kept:
            terminalreporter.write_line(
                escape_controls(
                    f"{plural(len(self.pairs_kept), 'pair')} of a panel not written "
                    f"({_first_names(self.pairs_kept)}): their case's 'expected' is "
                    "every pair's, which one pair's answer does not replace; write "
                    "'expected_pairs:' instead of it, and --rubric-update writes each pair's"
                ),
                yellow=True,
            )
        if self.unwritten:
            terminalreporter.write_line(
                f"{plural(self.unwritten, 'expected answer')} could not be written: "
                f"{'its case fails' if self.unwritten == 1 else 'their cases fail'} above, "
                "saying why",
                red=True,
            )
        for file in self.files:
            if file.refused is not None:
                # Its cases were reported as passed when they ran; they are not.
                passed = (
                    "its case, reported as passed above, is a case error"
                    if file.cases == 1
                    else f"its {file.cases} cases, reported as passed above, are case errors"
                )
                terminalreporter.write_line(
                    f"{file.display}: {escape_controls(file.refused)}"
                    + (f"; {passed}" if file.cases else ""),
                    red=True,
                )

    def _held(self, terminalreporter: pytest.TerminalReporter) -> None:
        """The answers held back, each with its code and problem, then their count and
        how to write them anyway."""
        for held in sorted(self.held, key=_place):
            terminalreporter.write_line(
                escape_controls(f"{held['at']}: {held['case']}: {held['words']}"), yellow=True
            )
        count = len(self.held)
        terminalreporter.write_line(
            f"{count} held back: refusals (the evidence of "
            f"{'its answer' if count == 1 else 'each answer'} names a problem with the input, "
            "so nothing was judged); fix the input, or write "
            f"{'it' if count == 1 else 'them'} anyway with --rubric-update-refusals",
            yellow=True,
        )


def _place(held: HeldRecord) -> tuple[str, int]:
    path, _, line = held["at"].rpartition(":")
    return path, int(line) if line.isdigit() else 0


def register(config: pytest.Config, cases: dict[str, Payload], *, is_worker: bool) -> None:
    if config.option.rubric_update is not None:
        update = UpdateRun(config, cases, is_worker=is_worker)
        config.pluginmanager.register(update, "rubric-update")


def _first_names(names: Iterable[str]) -> str:
    """The first :data:`MAX_LINES` of ``names`` in order, and how many more there are."""
    shown = sorted(names)
    more = len(shown) - MAX_LINES
    return ", ".join(shown[:MAX_LINES]) + (f", and {more} more" if more > 0 else "")
