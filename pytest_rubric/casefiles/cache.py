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
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import yaml

from pytest_rubric.casefiles import loader, marks, yamlgaps, yamlstrict
from pytest_rubric.casefiles.inputpaths import InputFiles
from pytest_rubric.casefiles.loader import Case, CaseFile, Place
from pytest_rubric.casefiles.marks import NO_MARKS, Marks, XFail
from pytest_rubric.core import jsonvalues, numbers
from pytest_rubric.core.packed import pack
from pytest_rubric.inputs import formats, ledgerspec

#: Changed whenever what an entry holds changes shape.
FORMAT = 3
#: The modules whose code decides what a case file loads as: an entry is kept only
#: while each is byte for byte what it was (so an edited checkout never reuses one).
_SHAPERS = (loader, yamlstrict, yamlgaps, marks, jsonvalues, numbers, formats, ledgerspec)


def stamp() -> str:
    """What an entry must have been made by: the format, the Python, PyYAML and its
    parser, the longest integer text this interpreter reads, and the SHA-256 of each
    module that shapes a load."""
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    python = f"{sys.implementation.name}-{sys.version_info[0]}.{sys.version_info[1]}"
    parts = [str(FORMAT), python, yaml.__version__, yamlstrict.PARSER.__name__, str(limit)]
    for module in _SHAPERS:
        with open(module.__file__ or "", "rb") as stream:
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
    in it, or a value that JSON text would not give back exactly.

    Two lines: a head naming the format, the code that made it, the case file's digest
    and the SHA-256 of the body; then the body. A damaged entry fails that check."""
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
        ledger = None if case.input_file is None else case.input_file.ledger
        cases.append(
            [
                case.name,
                case.place.line,
                case.place.col,
                case.packed_input,
                case.packed_expected,
                None if case.marks == case_file.marks else _marks(case.marks),
                case.place.lines,
                case.place.row_lines,
                None if case.input_file is None else case.input_file.text,
                case.place.end,
                None if ledger is None else ledger.to_json(),
            ]
        )
    body = {
        "evaluator": [case_file.evaluator, case_file.evaluator_at],
        "description": case_file.description,
        "rubric": rubric,
        "rubric_at": [[list(where), at] for where, at in case_file.rubric_at.items()],
        "marks": _marks(case_file.marks),
        "cases": cases,
    }
    try:
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    if not jsonvalues.is_encodable(text):
        return None
    head = {
        "format": FORMAT,
        "made_by": made_by,
        "digest": case_file.digest,
        "body": _check(text),
    }
    return f"{json.dumps(head)}\n{text}"


def _check(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def loads(text: str, made_by: str, digest: str, display: str, files: InputFiles) -> CaseFile | None:
    """The case file an entry's text holds, named ``display`` and with its input files
    resolved by ``files``; ``None`` when the entry is not one for these bytes made by
    this code, is damaged, or an input file no longer resolves cleanly."""
    try:
        head_text, _, body = text.partition("\n")
        head = json.loads(head_text)
        if head != {"format": FORMAT, "made_by": made_by, "digest": digest, "body": _check(body)}:
            return None
        return _case_file(json.loads(body), digest, display, files)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        return None  # damaged, or not ours: the file is simply read again


def _case_file(
    entry: dict[str, Any], digest: str, display: str, files: InputFiles
) -> CaseFile | None:
    """The case file of an entry's body, every field read as the type it must have
    (a ``TypeError`` or ``ValueError`` otherwise: the entry is not used)."""
    evaluator, evaluator_at = entry["evaluator"]
    file_marks = _read_marks(entry["marks"])
    cases = []
    names: set[str] = set()
    for index, (
        name,
        line,
        col,
        packed_input,
        packed_expected,
        case_marks,
        lines,
        row_lines,
        input_file_text,
        text_end,
        ledger,
    ) in enumerate(entry["cases"]):
        input_file = None
        if input_file_text is not None:
            input_file, problem = files.resolve(_text(input_file_text))
            if problem is not None:
                return None  # its problem is told where a fresh load tells it
            if ledger is not None:
                input_file = replace(input_file, ledger=ledgerspec.from_json(ledger))
        if _text(name) in names or not name:
            raise ValueError("case names are unique and not empty")
        names.add(name)
        cases.append(
            Case(
                name=name,
                index=index,
                place=Place(
                    line=_count(line),
                    col=_count(col),
                    lines=None if lines is None else (_count(lines[0]), _count(lines[1], 0)),
                    end=None if text_end is None else (_count(text_end[0]), _count(text_end[1])),
                    row_lines=tuple(map(_count, row_lines)),
                ),
                packed_input=_text(packed_input),
                packed_expected=_text(packed_expected),
                input_file=input_file,
                marks=file_marks if case_marks is None else _read_marks(case_marks),
            )
        )
    rubric = entry["rubric"]
    description = entry["description"]
    return CaseFile(
        display,
        _text(evaluator),
        _position(evaluator_at),
        None if description is None else _text(description),
        tuple(cases),
        None if rubric is None else _mapping(json.loads(_text(rubric))),
        {tuple(_key(part) for part in where): _position(at) for where, at in entry["rubric_at"]},
        file_marks,
        digest,
    )


def _text(value: object) -> str:
    if type(value) is not str:
        raise TypeError("text expected")
    return value


def _count(value: object, least: int = 1) -> int:
    if type(value) is not int or value < least:
        raise TypeError("a line or column expected")
    return value


def _position(value: object) -> tuple[int, int]:
    line, col = cast(list[object], value)
    return _count(line), _count(col)


def _key(value: object) -> str | int:
    if type(value) is str:
        return value
    return _count(value, 0)


def _mapping(value: object) -> dict[str, Any]:
    if type(value) is not dict:
        raise TypeError("a mapping expected")
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
    strict = None if xfail is None else xfail[1]
    if xfail is not None and type(strict) is not bool:
        raise TypeError("xfail's strict is a boolean")
    return Marks(
        skip=None if skip is None else _text(skip),
        xfail=None if xfail is None else XFail(_text(xfail[0]), bool(strict)),
        names=tuple((_text(name), _position(at)) for name, at in names),
    )
