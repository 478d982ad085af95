"""Loaded case files kept between runs, so that an unchanged file is not parsed again.

Reading a case file strictly (YAML events, positions, every check) costs far more than
reading back its result, so, as pytest keeps rewritten test modules in ``__pycache__``, a case file
that loaded without a problem is kept in pytest's cache folder
(``.pytest_cache/d/rubric-cases``, one entry per case file) and reused while its
bytes, this package's loader and PyYAML are unchanged. What depends on more than
the file's bytes is done anew each time: each ``input_file`` is resolved again
(a ledger deleted since is found missing, exactly as a fresh load finds it), and
messages name the file as this run does. A file with any problem, or a value
JSON text cannot hold exactly, is parsed every time, as is every file when the
cache is off (``-p no:cacheprovider``). An entry that cannot be read or written
is a miss, never an error. This module does not import pytest.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import zlib
from pathlib import Path

import yaml

from pytest_rubric.casefiles import casecodec, loader, yamlstrict
from pytest_rubric.casefiles.cases import CaseFile
from pytest_rubric.core import escapes
from pytest_rubric.core.files import new_file_beside
from pytest_rubric.inputs.inputpaths import InputFiles

#: Changed whenever what an entry holds changes shape.
FORMAT = 9
#: The rooms whose code decides what a case file loads as: an entry is kept only while
#: each of their modules, in subpackages too (the formats' traits shape a block's
#: reading), is byte for byte what it was (an edited checkout never reuses one).
_SHAPERS = ("casefiles", "core", "descriptions", "inputs")
_PACKAGE = Path(__file__).resolve().parent.parent


def stamp() -> str:
    """What an entry must have been made by: the format, the Python, PyYAML and its
    parser, the longest integer text this interpreter reads, and the SHA-256 of each
    module that shapes a load."""
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    python = f"{sys.implementation.name}-{sys.version_info[0]}.{sys.version_info[1]}"
    parts = [str(FORMAT), python, yaml.__version__, yamlstrict.PARSER.__name__, str(limit)]
    for module in sorted(path for room in _SHAPERS for path in (_PACKAGE / room).rglob("*.py")):
        with open(module, "rb") as stream:
            parts.append(hashlib.sha256(stream.read()).hexdigest()[:16])
    return " ".join(parts)


class CaseCache:
    """Case files loaded through a cache folder (see the module's docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.stamp = stamp()

    def load(self, path: Path, display: str, root: Path | None) -> CaseFile:
        """What ``loader.load_case_file(path, display, root=root)`` gives, from the
        cache when the file is unchanged."""
        data = loader.read_case_file(path, display)
        digest = loader.digest_of(data)
        files = InputFiles(path, display, root)
        entry = self.folder / f"{hashlib.sha256(os.fsencode(path)).hexdigest()[:32]}.json"
        # An entry holds about what the file does; one far larger is not one of ours.
        text = _read_entry(entry, 4 * len(data) + (1 << 16))
        cached = None if text is None else loads(text, self.stamp, digest, display, files)
        if cached is not None:
            return cached
        case_file = loader.parse_case_file(data, display, files=files, digest=digest)
        text = dumps(case_file, self.stamp)
        if text is not None:
            _write(entry, text)
        return case_file


def _read_entry(entry: Path, limit: int) -> str | None:
    """The text of ``entry`` when it is a regular file of at most ``limit`` bytes (a FIFO
    or a device there must not block or flood the run), else ``None``."""
    try:
        handle = os.open(entry, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(os.dup(handle), "rb") as stream:
            return stream.read(limit + 1).decode("utf-8")
    except (OSError, UnicodeError):
        return None
    finally:
        os.close(handle)


def _write(entry: Path, text: str) -> None:
    """Write ``entry`` whole or not at all; a cache that cannot be written is no cache."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        # The umask's mode, as pytest's own cache files and a plain open() have.
        handle, temporary = new_file_beside(entry)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, entry)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass


def dumps(case_file: CaseFile, made_by: str) -> str | None:
    """``case_file`` as an entry's text, or ``None`` when it is not to be kept: a problem
    in it, or a value that JSON text would not give back exactly.

    Two lines: a head naming the format, the code that made it, the case file's digest
    and the CRC-32 of the body (:func:`_check`); then the body
    (:func:`casecodec.case_file_to_json`). A damaged entry fails that check."""
    try:
        body = casecodec.case_file_to_json(case_file)
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (casecodec.Unkept, TypeError, ValueError):
        return None
    if not escapes.is_encodable(text):
        return None
    head = {
        "format": FORMAT,
        "made_by": made_by,
        "digest": case_file.digest,
        "body": _check(text),
    }
    return f"{json.dumps(head)}\n{text}"


def _check(body: str) -> int:
    """The CRC-32 of ``body``, against damage (an entry is written whole, then renamed):
    a forged entry is a miss because every field is read as its type."""
    return zlib.crc32(body.encode("utf-8"))


def loads(text: str, made_by: str, digest: str, display: str, files: InputFiles) -> CaseFile | None:
    """The case file an entry's text holds, named ``display`` and with its input files
    resolved by ``files``; ``None`` when the entry is not one for these bytes made by
    this code, is damaged, or an input file no longer resolves cleanly."""
    try:
        head_text, _, body = text.partition("\n")
        head = json.loads(head_text)
        if head != {"format": FORMAT, "made_by": made_by, "digest": digest, "body": _check(body)}:
            return None
        return casecodec.case_file_from_json(json.loads(body), display, digest, files)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        return None  # damaged, or not ours: the file is simply read again
