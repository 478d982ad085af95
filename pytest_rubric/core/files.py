"""Files this package writes, written whole or not at all, and why a path cannot be.

Every output (the report, the page, the schema, a merge, a case file edited by
``--rubric-update``) goes through here: a temporary file beside the target,
flushed, then renamed over it, so readers see the old file or the new one.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from pytest_rubric.core.errors import ReportWriteError


def write_text_atomically(path: Path, text: str, *, what: str) -> None:
    """Write ``text`` to ``path`` (through a symlink, to its target) so that readers see
    the old file or the new one, never a part. Raises :class:`ReportWriteError` with a
    one-line reason naming ``what`` was not written; nothing is left behind."""
    write_with(path, what, lambda stream: stream.write(text))


def write_with(path: Path, what: str, fill: Callable[[TextIO], object]) -> None:
    """As :func:`write_text_atomically`, the text written by ``fill`` into a stream."""
    target = Path(os.path.realpath(path))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if os.path.exists(target) and not os.path.isfile(target):
            raise ReportWriteError(
                f"{what} was not written to {path}: it is no longer a regular file"
            )

        def write(handle: int) -> None:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                fill(stream)
                stream.flush()
                os.fsync(stream.fileno())

        _replace(target, write)
    except (OSError, ValueError, TypeError, OverflowError) as exc:
        raise ReportWriteError(f"{what} was not written to {path}: {os_reason(exc)}") from None


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """Replace the file at ``path`` (through a symlink) so that readers see the old
    bytes or the new ones, never a part; its mode, owner and group are kept."""

    def write(handle: int) -> None:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())

    _replace(Path(os.path.realpath(path)), write)


def _replace(target: Path, write: Callable[[int], None]) -> None:
    """A new file beside ``target`` filled by ``write`` (handed its descriptor, which it
    closes), then renamed over ``target``; removed again if anything fails.

    The new file gets what a plain ``open()`` would give it, ``0o666`` less the umask,
    and an existing ``target`` keeps its mode and, where this process may set them,
    its owner and group."""
    handle, temporary = new_file_beside(target)
    try:
        write(handle)
        _keep_what_target_has(temporary, target)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def new_file_beside(target: Path) -> tuple[int, str]:
    """A new empty file in ``target``'s folder, opened for writing (its descriptor) and its
    path: mode ``0o666`` less the umask, as ``open()`` gives. Its name is short whatever
    ``target``'s is, so any name the folder takes has room for it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        name = str(target.parent / f".rubric-{os.urandom(6).hex()}.tmp")
        try:
            return os.open(name, flags, 0o666), name  # the umask applies, as for open()
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target}")


def _keep_what_target_has(temporary: str, target: Path) -> None:
    try:
        found = os.stat(target)
    except FileNotFoundError:
        return
    chown = getattr(os, "chown", None)
    if chown is not None:
        # Root may give the file back to its owner; anyone may keep a group they are in.
        with contextlib.suppress(OSError):
            chown(temporary, found.st_uid, found.st_gid)
    os.chmod(temporary, stat.S_IMODE(found.st_mode))


def path_problem(value: str, option: str, example: str) -> str | None:
    """Why ``option``'s output path ``value`` cannot be written, or ``None``; ``example``
    is the file name suggested instead."""
    if not value.strip():
        return f"give a file name, e.g. {option}={example}"
    try:
        target = Path(os.path.realpath(value))  # a symlink is written through, as --junitxml does
        try:
            mode = target.stat().st_mode
        except (FileNotFoundError, NotADirectoryError):
            mode = None
        if mode is not None and stat.S_ISDIR(mode):
            return f"{value} is a directory; give a file name, e.g. {Path(value) / example}"
        if mode is not None and not stat.S_ISREG(mode):
            return f"{value} is not a regular file (a device, FIFO or socket); give a file name"
        folder = target.parent
        while not folder.exists():  # missing folders are created, as --junitxml does
            folder = folder.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            return f"cannot write {value}: {folder} is not a writable folder; choose a path you can write"
        too_long = _too_long(folder, target)
        if too_long is not None:
            shown = value if len(value) <= 80 else f"{value[:60]}…"
            return f"cannot write {shown!r}: {too_long}; choose a shorter path"
    except (OSError, ValueError) as exc:
        shown = value if len(value) <= 80 else f"{value[:60]}…"
        return f"cannot write {shown!r}: {os_reason(exc)}; choose another path"
    return None


#: The length of :func:`new_file_beside`'s names (``.rubric-`` 12 hex digits ``.tmp``).
_TEMPORARY_NAME = 25


def _too_long(folder: Path, target: Path) -> str | None:
    """Why the names the write makes under the existing ``folder`` (the folders to be
    made, ``target``, its temporary file beside it) are longer than the file system
    takes, or ``None``."""
    pathconf = getattr(os, "pathconf", None)
    if pathconf is None:
        return None  # no such limits to ask for (Windows): the write says what fails
    try:
        name_max = pathconf(folder, "PC_NAME_MAX")
        path_max = pathconf(folder, "PC_PATH_MAX")
    except (OSError, ValueError):
        return None
    for name in target.relative_to(folder).parts:
        if name_max > 0 and len(os.fsencode(name)) > name_max:
            return f"a name in it is longer than the {name_max} bytes its folder takes"
    longest = (
        len(os.fsencode(str(target.parent)))
        + 1
        + max(len(os.fsencode(target.name)), _TEMPORARY_NAME)
    )
    if path_max > 0 and longest >= path_max:
        return f"it is longer than the {path_max - 1} bytes a path may have"
    return None


def same_file(one: str, other: str) -> bool:
    """Whether the paths ``one`` and ``other`` name one file, however spelt: relative or
    absolute, through symlinks, or (where both exist) as hard links or by a case-blind
    file system's other spelling."""
    if os.path.realpath(one) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(one, other)
    except (OSError, ValueError):  # one of them does not exist (yet), or cannot be a path
        return False


def os_reason(exc: BaseException) -> str:
    """An error as a short lower-case reason (``permission denied``)."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return os.strerror(exc.errno).lower()
    return str(exc) or type(exc).__name__


#: No report a run writes comes near this size; a larger file is refused before it is read.
MAX_REPORT_BYTES = 4 * 1024**3


#: How much of a report file is read first, to refuse one that starts as no report does.
_HEAD = 65536


class ReportReadError(ValueError):
    """A report file that cannot be read; the message says why, as a clause (``it is a
    directory``), for the caller to name the file and the remedy; ``no_file`` when the
    path names something that is no file at all."""

    def __init__(self, message: str, *, no_file: bool = False) -> None:
        super().__init__(message)
        self.no_file = no_file


def read_report_bytes(path: str) -> bytes:
    """The bytes of the report file at ``path``, refused (:class:`ReportReadError`) when it
    is no regular file, larger than :data:`MAX_REPORT_BYTES`, or does not start as a JSON
    object does: a 2 GB file of zeros is refused at its first byte, never read whole."""
    if not path:
        raise ReportReadError("no path is given")
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise ReportReadError("it is a directory", no_file=True)
        if not stat.S_ISREG(info.st_mode):
            raise ReportReadError(
                "it is not a regular file (a FIFO, a device, a socket)", no_file=True
            )
        if info.st_size > MAX_REPORT_BYTES:
            raise ReportReadError(
                f"it is {info.st_size:,} bytes, more than any report ({MAX_REPORT_BYTES:,} at most)"
            )
        with open(path, "rb") as stream:
            head = stream.read(_HEAD)
            start = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
            # A small file is read whole, and the JSON parser says where it goes wrong.
            if len(head) == _HEAD and not start.startswith(b"{"):
                raise ReportReadError("it does not start with '{', as a JSON report does")
            return head + stream.read()
    except OSError as exc:
        reason = os.strerror(exc.errno).lower() if exc.errno is not None else str(exc)
        raise ReportReadError(reason) from None


def regular_size(path: Path) -> int:
    """The size of the regular file at ``path``; ``OSError`` for anything else (a FIFO,
    a device or a socket put where an input file was since the case file was collected,
    which reading would wait on or never finish)."""
    status = path.stat()
    if not stat.S_ISREG(status.st_mode):
        raise OSError(f"{path.name} is no longer a regular file (a FIFO, a device, a socket)")
    return status.st_size
