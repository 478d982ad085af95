"""Loaded case files kept between runs, so that an unchanged file is not parsed again.

Reading a case file strictly costs about ten times what reading back its result
does, so, as pytest keeps rewritten test modules in ``__pycache__``, a case file
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
import tempfile
from pathlib import Path
from typing import Any

import yaml

from pytest_rubric import jsonvalues, ledgers, loader, marks, yamlstrict
from pytest_rubric.loader import Case, CaseFile, InputFiles, pack
from pytest_rubric.marks import NO_MARKS, Marks, XFail

#: Changed whenever what an entry holds changes shape.
FORMAT = 1
#: The modules whose code decides what a case file loads as: an entry is kept only
#: while each is byte for byte what it was (so an edited checkout never reuses one).
_SHAPERS = (loader, yamlstrict, marks, jsonvalues, ledgers)


def stamp() -> str:
    """What an entry must have been made by: the format, PyYAML and its parser, and
    the size and time of each module that shapes a load."""
    parts = [str(FORMAT), yaml.__version__, yamlstrict.PARSER.__name__]
    for module in _SHAPERS:
        info = os.stat(module.__file__ or "")
        parts.append(f"{info.st_size}:{info.st_mtime_ns}")
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
        cached = self._read(entry, digest, display, files)
        if cached is not None:
            return cached
        case_file = loader.parse_case_file(data, display, files=files, digest=digest)
        text = dumps(case_file, self.stamp)
        if text is not None:
            _write(entry, text)
        return case_file

    def _read(self, entry: Path, digest: str, display: str, files: InputFiles) -> CaseFile | None:
        try:
            text = entry.read_text(encoding="utf-8")
        except (OSError, UnicodeError):
            return None
        return loads(text, self.stamp, digest, display, files)


def _write(entry: Path, text: str) -> None:
    """Write ``entry`` whole or not at all; a cache that cannot be written is no cache."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".", suffix=".tmp")
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
    in it, or a value that JSON text would not give back exactly."""
    rubric: str | None = None
    if case_file.rubric is not None:
        packed = pack(case_file.rubric)
        if type(packed) is not str:
            return None
        rubric = packed
    cases = []
    for case in case_file.cases:
        if case.problems or case.missing_expected is not None:
            return None
        if type(case.packed_input) is not str or type(case.packed_expected) is not str:
            return None
        cases.append(
            [
                case.name,
                case.index,
                case.line,
                case.col,
                case.packed_input,
                case.packed_expected,
                None if case.marks == case_file.marks else _marks(case.marks),
                case.lines,
                case.row_lines,
                case.input_file_text or None,
            ]
        )
    entry = {
        "format": FORMAT,
        "made_by": made_by,
        "digest": case_file.digest,
        "evaluator": [case_file.evaluator, case_file.evaluator_at],
        "description": case_file.description,
        "rubric": rubric,
        "rubric_at": [[list(where), at] for where, at in case_file.rubric_at.items()],
        "marks": _marks(case_file.marks),
        "cases": cases,
    }
    try:
        text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    return text if jsonvalues.is_encodable(text) else None


def loads(text: str, made_by: str, digest: str, display: str, files: InputFiles) -> CaseFile | None:
    """The case file an entry's text holds, named ``display`` and with its input files
    resolved by ``files``; ``None`` when the entry is not one for these bytes made by
    this code, is damaged, or an input file no longer resolves cleanly."""
    try:
        entry = json.loads(text)
        if (
            type(entry) is not dict
            or entry.get("format") != FORMAT
            or entry.get("made_by") != made_by
            or entry.get("digest") != digest
        ):
            return None
        return _case_file(entry, digest, display, files)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None  # damaged, or not ours: the file is simply read again


def _case_file(
    entry: dict[str, Any], digest: str, display: str, files: InputFiles
) -> CaseFile | None:
    evaluator, evaluator_at = entry["evaluator"]
    file_marks = _read_marks(entry["marks"])
    cases = []
    for (
        name,
        index,
        line,
        col,
        packed_input,
        packed_expected,
        case_marks,
        lines,
        row_lines,
        input_file_text,
    ) in entry["cases"]:
        input_file: Path | None = None
        input_file_display = input_format = ""
        if input_file_text is not None:
            input_file, input_file_display, input_format, problem = files.resolve(input_file_text)
            if problem is not None:
                return None  # its problem is told where a fresh load tells it
        cases.append(
            Case(
                name,
                index,
                line,
                col,
                _text(packed_input),
                _text(packed_expected),
                (),
                input_file,
                input_file_display,
                input_format,
                file_marks if case_marks is None else _read_marks(case_marks),
                None,
                None if lines is None else (lines[0], lines[1]),
                tuple(row_lines),
                input_file_text or "",
            )
        )
    rubric = entry["rubric"]
    return CaseFile(
        display,
        evaluator,
        (evaluator_at[0], evaluator_at[1]),
        entry["description"],
        tuple(cases),
        None if rubric is None else json.loads(rubric),
        {tuple(where): (at[0], at[1]) for where, at in entry["rubric_at"]},
        file_marks,
        digest,
    )


def _text(value: object) -> str:
    if type(value) is not str:
        raise TypeError("a packed mapping is text in an entry")
    return value


def _marks(value: Marks) -> list[Any] | None:
    if value == NO_MARKS:
        return None
    xfail = None if value.xfail is None else [value.xfail.reason, value.xfail.strict]
    return [value.skip, xfail, [[name, at] for name, at in value.names]]


def _read_marks(value: list[Any] | None) -> Marks:
    if value is None:
        return NO_MARKS
    skip, xfail, names = value
    return Marks(
        skip=skip,
        xfail=None if xfail is None else XFail(xfail[0], xfail[1]),
        names=tuple((name, (at[0], at[1])) for name, at in names),
    )
