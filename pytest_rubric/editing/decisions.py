"""``--rubric-update``'s decisions: which cases write their answer, and what each case
file becomes once they are written.

A case decides where it runs (a pytest-xdist worker too) whether its answer is to be
written, and tries the edit on its case file as collected
(:func:`pytest_rubric.editing.edits.check`, which reads only the case's own lines): an
answer that cannot be written makes the case a case error before pytest reports it, so
pytest's counts, JUnit XML and the rubric report all say so. Its payload carries the
write, with the case's edited lines, to the run that gathers it, which writes each case
file once, at the end (:func:`write_file`): it checks that the file has not changed on
disk, splices in its cases' lines (:func:`pytest_rubric.editing.edits.splice`; a file
whose cases could not be edited line by line is edited whole with
:func:`pytest_rubric.editing.edits.rewrite`) and replaces it atomically, so ``-n 2``
writes exactly the bytes a serial run writes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pytest_rubric.casefiles.loader import Case
from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.files import write_bytes_atomically
from pytest_rubric.core.jsonvalues import escape_controls, plain
from pytest_rubric.core.lines import BREAKS
from pytest_rubric.editing.diffs import unified
from pytest_rubric.editing.edits import (
    Part,
    Source,
    UpdateRefused,
    Write,
    check,
    rewrite,
    splice,
    unwritable,
)
from pytest_rubric.reports.records import PartRecord, Payload, PendingWrite, UpdateRecord
from pytest_rubric.running.outcome import CASE_ERROR, MATCHED, MISMATCHED, CaseOutcome

_TO_THE_END = 1 << 62  # a line range's end past any file's last line

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


def fillable(case: Case, mode: str | None) -> bool:
    """Whether ``case`` has no ``expected`` as its only problem, and the run fills it."""
    return (
        mode is not None
        and case.marks.xfail is None
        and case.missing_expected is not None
        and case.problems == (case.missing_expected,)
    )


@dataclasses.dataclass(frozen=True, slots=True)
class Held:
    """An answer held back from being written: a refusal, its code (the answer's
    ``error`` or ``status``, when it has one) and the problem its evidence names."""

    code: str | None
    problem: str

    def words(self) -> str:
        """The code and the problem, escaped: an evaluator's text is data, shown as data
        (and a lone surrogate in it could not travel to a pytest-xdist controller)."""
        text = f"{self.code}: {self.problem}" if self.code else self.problem
        return escape_controls(text)


def refusal_of(result: CaseOutcome) -> Held | None:
    """The refusal ``result``'s answer is, if it is one: an answer whose evidence names a
    problem, because the input could not be judged (the built-ins' ``review-label``,
    ``review-case-identity`` and ``invalid-reason-input``, and any evaluator's answer
    whose evidence carries a ``problem``)."""
    problem = result.evidence.problem if result.evidence is not None else None
    if not result.evaluated or not isinstance(problem, str) or not problem.strip():
        return None  # a blank problem names none
    answer = result.actual
    codes = [answer.get(key) for key in ("error", "status")] if isinstance(answer, dict) else []
    return Held(next((code for code in codes if isinstance(code, str)), None), problem)


class Decision(NamedTuple):
    """What :func:`to_write` decided for a case."""

    #: The outcome to report.
    result: CaseOutcome
    #: The write the case asks for, if any.
    update: UpdateRecord | None
    #: Its edited text (``None`` when the file is to be edited whole at the end).
    part: Part | None
    #: Its answer, a refusal, held back from being written.
    held: Held | None = None


def to_write(
    case: Case,
    result: CaseOutcome,
    mode: str | None,
    *,
    filled: bool,
    path: Path | None = None,
    digest: str = "",
    root: Path | None = None,
    files: CaseFileReads | None = None,
    refusals: bool = False,
) -> Decision:
    """The outcome to report, the write ``case`` asks for (``None`` for none), and
    its edited lines (``None`` when the file is to be edited whole at the end).

    A written case matches its new ``expected``. Only a case that ran its evaluator
    to an answer writes: never one with a problem, an evaluator failure or an xfail mark.
    An answer that is a refusal (:func:`refusal_of`) is held back unless ``refusals``:
    the case fails as it fails in a plain run (without an ``expected``, as a case error
    saying what was held).
    With ``path`` (its case file, whose bytes were collected with SHA-256 ``digest``),
    the write is made and read back on the file as it is now, where the case runs: a
    write that cannot be made is a case error saying why, decided before pytest reports
    the case, so pytest's counts, JUnit XML and the rubric report agree. Nothing outside
    ``root`` (the repository) is written: a case file that leads outside it, through a
    symlink or a linked folder, is refused. ``files``: the case files this run has read
    so far to check writes (each is read once while it stays as it is on disk).
    """
    if mode is None or case.marks.xfail is not None or not result.evaluated:
        return Decision(result, None, None)
    answer = result.actual
    if not isinstance(answer, dict) or not (
        filled or (mode == "all" and result.outcome == MISMATCHED)
    ):
        return Decision(result, None, None)
    held = None if refusals else refusal_of(result)
    if held is not None:
        if not filled:
            return Decision(result, None, None, held)  # it mismatches, as in a plain run
        why = (
            f"its answer is a refusal ({held.words()}), held back from being written as its "
            "expected; fix its input, or write it with --rubric-update-refusals if the "
            "refusal is the point of this case"
        )
        stays = dataclasses.replace(result, outcome=CASE_ERROR, evaluated=False, problems=(why,))
        return Decision(stays, None, None, held)
    problem = unwritable(answer)
    if problem is None and not json_equal(plain(answer), answer):
        # No transport to a pytest-xdist controller holds it as it is.
        problem = "its answer holds a value no case file can hold"
    if problem is None and path is not None and root is not None:
        problem = outside(path, root)
    part = None
    if problem is None and path is not None:
        write = Write(case.index, case.name, answer, created=filled)
        problem, part = _try(path, digest, case, write, files or CaseFileReads())
    if problem is not None:
        problem = f"its answer cannot be written into the case file: {problem}"
        return Decision(
            dataclasses.replace(result, outcome=CASE_ERROR, evaluated=False, problems=(problem,)),
            None,
            None,
        )
    before = None if filled else plain(case.expected)
    written = dataclasses.replace(result, case=case.with_expected(answer), outcome=MATCHED)
    return Decision(written, {"before": before, "after": answer}, part)


def outside(path: Path, root: Path) -> str | None:
    """Why the case file at ``path`` may not be written, if it lives outside ``root`` (the
    repository) once its symlinks are followed; ``None`` if it lives inside."""
    target = Path(os.path.realpath(path))
    if target.is_relative_to(Path(os.path.realpath(root))):
        return None
    how = ", through a symlink" if target != Path(os.path.abspath(path)) else ""
    return (
        f"the file lives outside the repository ({root}), at {target}{how}; "
        "--rubric-update writes only inside it: edit that file where it lives"
    )


def read_only(path: Path) -> str | None:
    """Why the case file at ``path`` is not to be replaced, if its mode says no one may
    write it (root could, but a file made read-only was made so on purpose)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # the write itself says why
    return _read_only_mode(mode)


def _read_only_mode(mode: int) -> str | None:
    if mode & 0o222:
        return None
    return (
        f"it is read-only (mode {stat.S_IMODE(mode):04o}); make it writable "
        "(chmod u+w) to have answers written into it"
    )


@dataclasses.dataclass(slots=True)
class FileRead:
    """A case file as read once: what :class:`CaseFileReads` keeps of it."""

    stamp: tuple[int, ...]  # device, inode, size, modification and change times
    digest: str  # SHA-256 of ``data``
    mode: int
    data: bytes
    source: Source | None = None  # its text, decoded when first needed


class CaseFileReads:
    """The case files read to check writes into them, each read once while it stays as
    it is on disk (its device, inode, size, modification and change times): the cases of
    a file of ten thousand are checked against one reading, hashed and decoded once.
    The write at the end reads the file again and checks its digest anew."""

    def __init__(self) -> None:
        self._read: dict[str, FileRead] = {}

    def read(self, path: Path) -> FileRead:
        """The file as it is on disk now; ``OSError`` when it cannot be read."""
        found = os.stat(path)
        stamp = (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)
        key = os.fspath(path)
        known = self._read.get(key)
        if known is None or known.stamp != stamp:
            data = path.read_bytes()
            known = FileRead(stamp, hashlib.sha256(data).hexdigest(), found.st_mode, data)
            self._read[key] = known
        return known


def _try(
    path: Path, digest: str, case: Case, write: Write, files: CaseFileReads
) -> tuple[str | None, Part | None]:
    """Why ``write`` cannot be made in the case file at ``path`` (or ``None``), and
    the case's edited text."""
    try:
        read = files.read(path)
    except OSError as exc:
        return f"it cannot be read: {exc.strerror or exc}; check it, then run again", None
    if read.digest != digest:
        return (
            "it changed on disk since it was collected; run again to write the answers "
            "into the current file"
        ), None
    locked = _read_only_mode(read.mode)
    if locked is not None:
        return locked, None
    at = None if case.place.end is None else (case.line, case.place.col, case.place.end)
    try:
        if read.source is None:
            read.source = Source(read.data)
        return None, check(read.source, write, case.place.lines, (case.input, case.expected), at=at)
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
            None
            if part is None
            else {
                "first": part.first,
                "after": part.after,
                "text": part.text,
                "col": part.col,
                "end": None if part.end is None else list(part.end),
            }
        ),
    }


@dataclasses.dataclass(slots=True)
class FileResult:
    """What became of one case file's writes: its diff and counts, or why it was refused."""

    display: str
    diff: list[str] = dataclasses.field(default_factory=list)
    written: int = 0
    created: int = 0
    refused: str | None = None
    #: The cases whose answers were to be written (reported as passed) when refused.
    cases: int = 0


def write_file(
    path: Path, display: str, payloads: list[Payload], *, root: Path | None = None
) -> FileResult:
    """Write the answers ``payloads`` carry into the case file at ``path`` (named
    ``display`` in messages), all or none: refused when the file changed on disk since
    its cases were collected, or lives outside ``root``. Each case's edited lines are
    spliced in where every case of the file could be edited alone; otherwise the file
    is edited whole."""
    result = FileResult(display)
    away = None if root is None else outside(path, root)
    away = away or read_only(path)
    if away is not None:
        result.refused = f"nothing was written: {away}"
        return result
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
        (write, _part(part))
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
        spliced = len(edits) == len(writes)
        new = splice(data, edits) if spliced else rewrite(data, writes)
        if new != data:
            write_bytes_atomically(path, new)
    except UpdateRefused as exc:
        result.refused = f"nothing was written: {exc}"
        return result
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        result.refused = f"nothing was written: {why}"
        return result
    result.diff = unified(
        display,
        data.decode("utf-8-sig"),
        new.decode("utf-8-sig"),
        _changed(edits) if spliced else None,
    )
    result.written = len(writes)
    result.created = sum(write.created for write in writes)
    return result


def _changed(edits: list[tuple[Write, Part]]) -> list[tuple[int, int, int, int]]:
    """The 0-based line ranges the parts replaced, in the old text and the new; parts
    that share a line (cases of a flow list) make one range."""
    merged: list[list[int]] = []  # old first, old end, lines added (or removed)
    for _write, part in sorted(edits, key=lambda edit: (edit[1].first, edit[1].col)):
        breaks = len(BREAKS.findall(part.text))
        if part.end is not None:  # from a column of line first to a column of line end
            old = [part.first - 1, part.end[0], breaks - (part.end[0] - part.first)]
        elif part.after:  # whole lines, from first up to after
            old = [part.first - 1, part.after - 1, breaks - (part.after - part.first)]
        else:  # whole lines, to the end of the file
            old = [part.first - 1, _TO_THE_END, 0]
        if merged and old[0] < merged[-1][1]:
            last = merged[-1]
            last[1], last[2] = max(last[1], old[1]), last[2] + old[2]
        else:
            merged.append(old)
    changed = []
    shift = 0
    for old_first, old_end, added in merged:
        end = _TO_THE_END if old_end == _TO_THE_END else old_end + shift + added
        changed.append((old_first, old_end, old_first + shift, end))
        shift += added
    return changed


def _part(record: PartRecord) -> Part:
    end = record["end"]
    return Part(
        record["first"],
        record["after"],
        record["text"],
        record["col"],
        None if end is None else (end[0], end[1]),
    )


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
