"""``--rubric-update``: which cases write their answer, and writing them at the end of a run.

A case decides where it runs (a pytest-xdist worker too) whether its answer is
to be written, and tries the edit on its case file as collected
(:func:`pytest_rubric.update.check`, which reads only the case's own lines): an
answer that cannot be written makes the case a case error before pytest reports
it, so pytest's counts, JUnit XML and the rubric report all say so. Its payload
carries the write, with the case's edited lines, to the run that gathers it.
That run (a serial run, or the xdist controller) writes each case file once, at
the end: it checks that the file has not changed on disk, splices in its cases'
lines (:func:`pytest_rubric.update.splice`; a file whose cases could not be
edited line by line is edited whole with :func:`pytest_rubric.update.rewrite`)
and replaces it atomically, so ``-n 2`` writes exactly the bytes a serial run
writes. Workers never write. The hooks here never raise: a file that
still cannot be written at the end (it changed on disk meanwhile) is reported,
its cases become case errors in the rubric summary and report, and the run fails.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import hashlib
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_rubric.compare import json_equal
from pytest_rubric.jsonvalues import escape_controls, plain
from pytest_rubric.loader import Case
from pytest_rubric.outcome import CASE_ERROR, MATCHED, MISMATCHED, CaseOutcome
from pytest_rubric.paths import display_path
from pytest_rubric.records import Payload, PendingWrite, UpdateRecord, stopped
from pytest_rubric.summary import plural
from pytest_rubric.update import (
    Part,
    UpdateRefused,
    Write,
    check,
    rewrite,
    splice,
    unwritable,
)

if TYPE_CHECKING:
    from pytest_rubric.results import RubricRun

#: Variables that say the run is in CI (``CI`` itself is read apart: ``CI=false`` is not CI).
CI_VARIABLES = (
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "BUILDKITE",
    "TF_BUILD",
    "JENKINS_URL",
    "TEAMCITY_VERSION",
)


def ci_variable(environ: Mapping[str, str]) -> str | None:
    """The variable that says this run is in CI, shown as ``NAME=value``, or ``None``."""
    ci = environ.get("CI")
    if ci is not None and ci.strip().lower() not in ("", "0", "false"):
        return f"CI={ci}"
    for name in CI_VARIABLES:
        if name in environ:
            return f"{name}={environ[name]}"
    return None


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


def fillable(case: Case, mode: str | None) -> bool:
    """Whether ``case`` has no ``expected`` as its only problem, and the run fills it."""
    return (
        mode is not None
        and case.marks.xfail is None
        and case.missing_expected is not None
        and case.problems == (case.missing_expected,)
    )


def to_write(
    case: Case,
    result: CaseOutcome,
    mode: str | None,
    *,
    filled: bool,
    path: Path | None = None,
    digest: str = "",
) -> tuple[CaseOutcome, UpdateRecord | None, Part | None]:
    """The outcome to report, the write ``case`` asks for (``None`` for none), and
    its edited lines (``None`` when the file is to be edited whole at the end).

    A written case matches its new ``expected``. Only a case that ran its evaluator
    to an answer writes: never one with a problem, an evaluator failure or an xfail mark.
    With ``path`` (its case file, whose bytes were collected with SHA-256 ``digest``),
    the write is made and read back on the file as it is now, where the case runs: a
    write that cannot be made is a case error saying why, decided before pytest reports
    the case, so pytest's counts, JUnit XML and the rubric report agree.
    """
    if mode is None or case.marks.xfail is not None or not result.evaluated:
        return result, None, None
    answer = result.actual
    if not isinstance(answer, dict) or not (
        filled or (mode == "all" and result.outcome == MISMATCHED)
    ):
        return result, None, None
    problem = unwritable(answer)
    if problem is None and not json_equal(plain(answer), answer):
        # No transport to a pytest-xdist controller holds it as it is.
        problem = "its answer holds a value no case file can hold"
    part = None
    if problem is None and path is not None:
        write = Write(case.index, case.name, answer, created=filled)
        problem, part = _try(path, digest, case, write)
    if problem is not None:
        problem = f"its answer cannot be written into the case file: {problem}"
        return (
            dataclasses.replace(result, outcome=CASE_ERROR, evaluated=False, problems=(problem,)),
            None,
            None,
        )
    before = None if filled else plain(case.expected)
    written = dataclasses.replace(result, case=case.with_expected(answer), outcome=MATCHED)
    return written, {"before": before, "after": answer}, part


def _try(path: Path, digest: str, case: Case, write: Write) -> tuple[str | None, Part | None]:
    """Why ``write`` cannot be made in the case file at ``path`` (or ``None``), and
    the case's edited lines."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"it cannot be read: {exc.strerror or exc}; check it, then run again", None
    if hashlib.sha256(data).hexdigest() != digest:
        return (
            "it changed on disk since it was collected; run again to write the answers "
            "into the current file"
        ), None
    try:
        return None, check(data, write, case.lines, (case.input, case.expected))
    except UpdateRefused as exc:
        return str(exc), None


def pending_write(
    *, path: Path, digest: str, case: Case, update: UpdateRecord, part: Part | None
) -> PendingWrite:
    return {
        "path": str(path),
        "digest": digest,
        "index": case.index,
        "name": case.name,
        "after": update["after"],
        "created": update["before"] is None,
        "part": (
            None if part is None else {"first": part.first, "after": part.after, "text": part.text}
        ),
    }


@dataclasses.dataclass(slots=True)
class _FileResult:
    display: str
    diff: list[str] = dataclasses.field(default_factory=list)
    written: int = 0
    created: int = 0
    refused: str | None = None
    #: The cases whose answers were to be written (reported as passed) when refused.
    cases: int = 0


class UpdateRun:
    """Writes the gathered answers into their case files at the end of the run."""

    def __init__(self, config: pytest.Config, run: RubricRun) -> None:
        self.config = config
        self.run = run
        self.mode: str = config.option.rubric_update
        self.files: list[_FileResult] = []
        #: Cases whose answers could not be written, found where they ran (they failed).
        self.unwritten = 0
        self.finished = False

    @pytest.hookimpl(tryfirst=True)  # before the report is written from the same records
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.run.is_worker:
            return
        try:
            self._finish()
        except Exception as exc:  # never an internal error: say so and fail the run
            self.files.append(
                _FileResult("(rubric update)", refused=f"{type(exc).__name__}: {exc}")
            )
        self.finished = True
        if any(file.refused for file in self.files) and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _finish(self) -> None:
        by_path: dict[str, list[Payload]] = {}
        for payload in self.run.cases.values():
            self.unwritten += bool(payload.get("unwritten"))
            write = payload.get("write")
            if write is not None and payload["record"]["outcome"] == MATCHED:
                # One file reached through a symlink and directly is one file to write.
                by_path.setdefault(os.path.realpath(write["path"]), []).append(payload)
            else:
                payload.pop("write", None)
                payload["record"].pop("update", None)
        for path, payloads in sorted(by_path.items()):
            result = self._write_file(Path(path), payloads)
            self.files.append(result)
            if result.refused is not None:
                result.cases = len(payloads)
                for payload in payloads:
                    payload.pop("write", None)
                    record = payload["record"]
                    record.pop("update", None)
                    payload["record"] = stopped(
                        record,
                        CASE_ERROR,
                        f"its expected answer was not written: {result.refused}",
                    )

    def _write_file(self, path: Path, payloads: list[Payload]) -> _FileResult:
        display = escape_controls(display_path(self.config, path))
        result = _FileResult(display)
        # The same case collected twice (through a symlink too) is written once.
        pending = sorted(
            {
                payload["write"]["index"]: payload["write"]
                for payload in payloads
                if "write" in payload
            }.values(),
            key=lambda write: write["index"],
        )
        digests = {write["digest"] for write in pending}
        writes = [
            Write(write["index"], write["name"], _mapping(write["after"]), write["created"])
            for write in pending
        ]
        # Each case's lines, edited and read back where it ran (none: edit the file whole).
        edits = [
            (write, Part(**part))
            for write, part in zip(writes, (write.get("part") for write in pending), strict=True)
            if part is not None
        ]
        try:
            data = path.read_bytes()
            if len(digests) != 1 or hashlib.sha256(data).hexdigest() not in digests:
                raise UpdateRefused(
                    "it changed on disk since it was collected; run again to write the "
                    "answers into the current file"
                )
            new = splice(data, edits) if len(edits) == len(writes) else rewrite(data, writes)
            if new != data:
                write_bytes_atomically(path, new)
        except UpdateRefused as exc:
            result.refused = f"nothing was written: {exc}"
            return result
        except (OSError, ValueError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            result.refused = f"nothing was written: {why}"
            return result
        old_lines = data.decode("utf-8-sig").splitlines()
        new_lines = new.decode("utf-8-sig").splitlines()
        result.diff = list(
            difflib.unified_diff(old_lines, new_lines, display, display, lineterm="")
        )
        result.written = len(writes)
        result.created = sum(write.created for write in writes)
        return result

    @pytest.hookimpl(trylast=True)  # after the rubric summary: the run ends with what was written
    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.run.is_worker or not self.finished or self.config.option.collectonly:
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
        elif not self.unwritten and len(written) == len(self.files):
            terminalreporter.write_line("no expected answer needed writing")
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


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """Replace the file at ``path`` (through a symlink) so that readers see the old
    bytes or the new ones, never a part; its permissions are kept."""
    target = Path(os.path.realpath(path))
    mode = target.stat().st_mode & 0o7777
    handle, temporary = tempfile.mkstemp(prefix=".rubric-update-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def register(config: pytest.Config, run: RubricRun) -> None:
    if config.option.rubric_update is not None:
        config.pluginmanager.register(UpdateRun(config, run), "rubric-update")
