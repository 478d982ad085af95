"""Whether an answer can be written into its case file: checked where the case runs,
before pytest reports it, on the file as it is on disk (read once while it stays so)."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import stat
from pathlib import Path

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.core.escapes import escape_controls, is_encodable
from pytest_rubric.core.jsonvalues import JSON, plain
from pytest_rubric.core.numbers import decimal_digits
from pytest_rubric.editing.parts import Source, check
from pytest_rubric.editing.readback import UpdateRefused
from pytest_rubric.editing.writes import Write
from pytest_rubric.editing.yamltext import quoted

#: YAML readers take a key written before its ':' (an implicit key) of at most this
#: many characters, quotes included.
MAX_KEY_CHARS = 1024


def unwritable(answer: JSON) -> str | None:
    """Why ``answer`` cannot be written into a case file as it is, or ``None``: text
    with a lone surrogate (UTF-8 cannot encode it), an integer too long to carry in
    decimal, or a key longer than YAML reads before its ':'."""
    stack: list[tuple[JSON, str]] = [(answer, "expected")]
    while stack:
        value, at = stack.pop()
        if isinstance(value, str):
            if not is_encodable(value):
                return (
                    f"{at} holds a lone surrogate, which UTF-8, and so a case file, cannot "
                    "hold; fix the evaluator's answer, or write this expected by hand"
                )
        elif type(value) is int:
            if isinstance(plain(value), str):
                return (
                    f"{at} is an integer of {decimal_digits(abs(value))} digits, longer than "
                    "Python writes in decimal (4300 digits); have the evaluator answer it as "
                    "text, or write this expected by hand"
                )
        elif isinstance(value, dict):
            for key, item in value.items():
                where = f"{at}[{_short(key)}]"
                stack.append((key, f"a key in {at}"))
                if len(quoted(key)) > MAX_KEY_CHARS:
                    return (
                        f"{where} is a key of {len(key)} characters; YAML reads a key of at "
                        f"most {MAX_KEY_CHARS} characters before its ':'; have the evaluator "
                        "answer a shorter key, or write this expected by hand"
                    )
                stack.append((item, where))
        elif isinstance(value, list):
            stack.extend((item, f"{at}[{index}]") for index, item in enumerate(value))
    return None


def _short(key: str) -> str:
    """A key as messages show it: escaped, and cut when long."""
    shown = escape_controls(repr(key))
    return shown if len(shown) <= 40 else f"{shown[:30]}…{shown[-8:]}"


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
    return read_only_mode(mode)


def read_only_mode(mode: int) -> str | None:
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


def can_write(
    path: Path, digest: str, case: Case, write: Write, files: CaseFileReads
) -> tuple[str | None, bool]:
    """Why ``write`` cannot be made in the case file at ``path`` (or ``None``), and whether
    it can be made on the case's own lines (else the file is edited whole at the end)."""
    try:
        read = files.read(path)
    except OSError as exc:
        return f"it cannot be read: {exc.strerror or exc}; check it, then run again", False
    if read.digest != digest:
        return (
            "it changed on disk since it was collected; run again to write the answers "
            "into the current file"
        ), False
    locked = read_only_mode(read.mode)
    if locked is not None:
        return locked, False
    at = None if case.place.end is None else (case.line, case.place.col, case.place.end)
    # A pair's answer is written with its case's other pairs, into the whole file, at the end.
    lines = case.place.lines if write.key == "expected" else None
    try:
        if read.source is None:
            read.source = Source(read.data)
        part = check(read.source, write, lines, (case.input, case.expected), at=at)
    except UpdateRefused as exc:
        return str(exc), False
    return None, part is not None
