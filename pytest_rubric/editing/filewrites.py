"""The write at the end of an update run: each case file written once, with the answers
its cases shipped (:class:`~pytest_rubric.running.caserun.CaseWrite`), by the run that
gathers them (a serial run or the pytest-xdist controller; workers never write).

The file must not have changed on disk since its cases were collected (its SHA-256);
each case's lines are edited again as they were where the case ran
(:func:`pytest_rubric.editing.parts.part_of`) and spliced in, the new text read back
whole, or, when some case could not be edited on its own lines, the file is edited whole
(:func:`pytest_rubric.editing.edits.rewrite`); then it is replaced atomically, its mode
and owner kept. So ``-n 2`` writes exactly the bytes a serial run writes.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from pathlib import Path

from pytest_rubric.core.files import write_bytes_atomically
from pytest_rubric.core.lines import BREAKS
from pytest_rubric.editing.diffs import unified
from pytest_rubric.editing.edits import rewrite
from pytest_rubric.editing.parts import Part, Source, part_of, splice
from pytest_rubric.editing.readback import UpdateRefused
from pytest_rubric.editing.writable import outside, read_only
from pytest_rubric.editing.writes import Write, write_of
from pytest_rubric.running.caserun import CaseWrite

_TO_THE_END = 1 << 62  # a line range's end past any file's last line


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
    path: Path, display: str, shipped: Sequence[CaseWrite], *, root: Path | None = None
) -> FileResult:
    """Write the answers ``shipped`` into the case file at ``path`` (named ``display`` in
    messages), all or none: refused when the file changed on disk since its cases were
    collected, or lives outside ``root``. Each case's edited lines are spliced in where
    every case of the file could be edited alone; otherwise the file is edited whole."""
    result = FileResult(display)
    away = None if root is None else outside(path, root)
    away = away or read_only(path)
    if away is not None:
        result.refused = f"nothing was written: {away}"
        return result
    # The same case (or pair) collected twice (through a symlink too) is written once.
    pending = sorted({_key(write): write for write in shipped}.values(), key=_key)
    digests = {write["digest"] for write in pending}
    writes = combined(pending)
    try:
        data = path.read_bytes()
        if len(digests) != 1 or hashlib.sha256(data).hexdigest() not in digests:
            raise UpdateRefused(
                "it changed on disk since it was collected; run again to write the "
                "answers into the current file"
            )
        edits = _parts(Source(data), writes, pending) if len(writes) == len(pending) else None
        new = splice(data, edits) if edits is not None else rewrite(data, writes)
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
        _changed(edits) if edits is not None else None,
    )
    result.written = len(pending)
    result.created = sum(write["created"] for write in pending)
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


def _key(write: CaseWrite) -> tuple[int, int]:
    """A write's case, and its pair's place in panel order (-1: the case's expected)."""
    pairs = write["pairs"]
    if pairs is None:
        return write["index"], -1
    return write["index"], pairs.index(next(iter(write["after"])))


def combined(pending: Sequence[CaseWrite]) -> list[Write]:
    """The writes to make, in order: the pairs of one panel case (``pending`` in
    :func:`_key` order) make one write of all their answers, in panel order."""
    writes: list[Write] = []
    for write in pending:
        made = write_of(write)
        last = writes[-1] if writes else None
        if last is not None and last.key == made.key != "expected" and last.index == made.index:
            after = {**last.after, **made.after}
            writes[-1] = dataclasses.replace(
                last, after=after, created=last.created and made.created
            )
        else:
            writes.append(made)
    return writes


def _parts(
    source: Source, writes: Sequence[Write], pending: Sequence[CaseWrite]
) -> list[tuple[Write, Part]] | None:
    """Each case's lines of ``source`` edited alone, as where it ran; ``None`` when one
    case could not be edited alone (then the file is edited whole)."""
    edits = []
    for write, shipped in zip(writes, pending, strict=True):
        lines, span = shipped["lines"], shipped["span"]
        if lines is None:
            return None
        at = None if span is None else (lines[0], span[0], (span[1], span[2]))
        part = part_of(source, write, (lines[0], lines[1]), at)
        if part is None:
            return None
        edits.append((write, part))
    return edits
