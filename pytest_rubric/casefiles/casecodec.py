"""A loaded case file as JSON values and back: the one place its shape is written down.

Each type is a table of its fields in order, each with how it is written and read
(a :class:`Codec`); both directions read the same table, so a new field is one new
row (tests/test_casefiles_cache.py checks that every field has one). Reading checks every
value's type and raises ``TypeError`` or ``ValueError`` for anything else, and
:class:`Unkept` is raised for what is not to be written (a case with a problem, a
mapping its JSON text would not give back exactly): the cache treats both as "no
entry". An input file is resolved anew as it is read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any

from pytest_rubric.casefiles.cases import Case, CaseFile, Place
from pytest_rubric.casefiles.inputpaths import InputFiles
from pytest_rubric.casefiles.marks import NO_MARKS, Marks, XFail
from pytest_rubric.casefiles.yamlstrict import Position
from pytest_rubric.core.packed import pack
from pytest_rubric.inputs import ledgerspec
from pytest_rubric.inputs.source import InputFile, joined_sides


class Unkept(ValueError):
    """A value that is not written: its file is parsed each time instead."""


@dataclass(frozen=True, slots=True)
class Codec:
    """How one value is read back (``load``, given how input files resolve) and written
    as JSON (``dump``; ``None``: as it is, JSON writing a tuple as a list)."""

    load: Callable[[Any, InputFiles], Any]
    dump: Callable[[Any], Any] | None = None


class Record:
    """A dataclass as the JSON list of its fields, each by its codec. ``kept`` names the
    fields that are not written, as each must hold the value given there; ``given``,
    those the reader is handed (:meth:`load`'s keywords)."""

    def __init__(
        self,
        cls: type[Any],
        rows: dict[str, Codec],
        kept: dict[str, object] | None = None,
        given: tuple[str, ...] = (),
    ) -> None:
        self.cls = cls
        self.rows = tuple(rows.items())
        self.kept = kept or {}
        self.given = given
        self._names = tuple(rows)
        self._loads = tuple(codec.load for codec in rows.values())
        self._dumps = tuple(codec.dump for codec in rows.values())
        self._fields = attrgetter(*rows, *self.kept)
        self._held = tuple(self.kept.values())

    def dump(self, value: Any) -> list[Any]:
        fields = self._fields(value)
        size = len(self._names)
        if fields[size:] != self._held:
            raise Unkept("a field that is not written holds a value")
        return [
            item if dump is None else dump(item)
            for dump, item in zip(self._dumps, fields[:size], strict=True)
        ]

    def load(self, value: Any, files: InputFiles, **given: Any) -> Any:
        if type(value) is not list or len(value) != len(self._names):
            raise TypeError(f"a list of {len(self._names)} expected")
        for name, load, item in zip(self._names, self._loads, value, strict=False):
            given[name] = load(item, files)
        return self.cls(**given)

    def codec(self) -> Codec:
        """This record as a field of another."""
        return Codec(self.load, self.dump)


def _load_text(value: Any, files: InputFiles) -> str:
    if type(value) is not str:
        raise TypeError("text expected")
    return value


def _counted(least: int) -> Codec:
    def load(value: Any, files: InputFiles) -> int:
        if type(value) is not int or value < least:
            raise TypeError("a line or column expected")
        return value

    return Codec(load)


def _two_counts(value: Any, least: int, what: str) -> tuple[int, int]:
    """Two whole numbers, the first 1 or more, the second ``least`` or more."""
    if type(value) is not list or len(value) != 2:
        raise TypeError(f"{what} expected")
    first, second = value
    if type(first) is not int or type(second) is not int or first < 1 or second < least:
        raise TypeError(f"{what} expected")
    return first, second


def _load_position(value: Any, files: InputFiles) -> tuple[int, int]:
    return _two_counts(value, 1, "a line and a column")


def _load_bool(value: Any, files: InputFiles) -> bool:
    if type(value) is not bool:
        raise TypeError("true or false expected")
    return value


def _maybe(codec: Codec) -> Codec:
    """``codec``'s value, or ``None``."""
    load, dump = codec.load, codec.dump
    return Codec(
        lambda value, files: None if value is None else load(value, files),
        None if dump is None else lambda value: None if value is None else dump(value),
    )


def _pair(first: Codec, second: Codec) -> Codec:
    """A tuple of two values, each by its codec."""
    load_first, load_second = first.load, second.load
    if first.dump is not None or second.dump is not None:
        raise NotImplementedError("pairs of values written as they are")

    def load(value: Any, files: InputFiles) -> tuple[Any, Any]:
        if type(value) is not list or len(value) != 2:
            raise TypeError("a list of 2 expected")
        return load_first(value[0], files), load_second(value[1], files)

    return Codec(load)


def _many(codec: Codec) -> Codec:
    """A tuple of any length, each value by ``codec``."""
    load, dump = codec.load, codec.dump

    def load_all(value: Any, files: InputFiles) -> tuple[Any, ...]:
        if type(value) is not list:
            raise TypeError("a list expected")
        return tuple([load(item, files) for item in value])

    return Codec(load_all, None if dump is None else lambda value: [dump(item) for item in value])


def _dump_packed(value: Any) -> str:
    if type(value) is not str:
        raise Unkept("a mapping its JSON text would not give back exactly")
    return value


def _dump_rubric(value: Any) -> str:
    return _dump_packed(pack(value))


def _load_rubric(value: Any, files: InputFiles) -> dict[str, Any]:
    rubric = json.loads(_load_text(value, files))
    if type(rubric) is not dict:
        raise TypeError("a mapping expected")
    return rubric


def _dump_input_file(value: InputFile) -> list[Any]:
    return [value.text, None if value.ledger is None else value.ledger.to_json()]


def _load_input_file(value: Any, files: InputFiles) -> InputFile:
    if type(value) is not list or len(value) != 2:
        raise TypeError("a list of 2 expected")
    input_file = _resolved(_load_text(value[0], files), files)
    if value[1] is None:
        return input_file
    ledger = ledgerspec.from_json(value[1])
    if ledger.join is None:
        return replace(input_file, ledger=ledger)
    a, b = (_resolved(side.input_file, files) for side in ledger.join)  # each side's anew
    return joined_sides(replace(a, ledger=ledger), (a, b))


def _resolved(text: str, files: InputFiles) -> InputFile:
    input_file, problem = files.resolve(text)
    if problem is not None:
        raise Unkept(problem)  # told where a fresh load tells it
    return input_file


def _load_key(value: Any, files: InputFiles) -> str | int:
    return value if type(value) is str else INDEX.load(value, files)


def _dump_rubric_at(value: dict[tuple[str | int, ...], Position]) -> list[Any]:
    return [[where, at] for where, at in value.items()]


def _load_rubric_at(value: Any, files: InputFiles) -> dict[tuple[str | int, ...], Position]:
    return dict(_many(_pair(_many(Codec(_load_key)), POSITION)).load(value, files))


def _load_lines(value: Any, files: InputFiles) -> tuple[int, int] | None:
    """A case's first line and the next case's (0 after the last), or ``None``."""
    return None if value is None else _two_counts(value, 0, "a line and the next case's line")


def _load_end(value: Any, files: InputFiles) -> tuple[int, int] | None:
    return None if value is None else _load_position(value, files)


def _load_lines_of_rows(value: Any, files: InputFiles) -> tuple[int, ...]:
    if type(value) is not list or not all(type(line) is int and line >= 1 for line in value):
        raise TypeError("a list of lines expected")
    return tuple(value)


TEXT = Codec(_load_text)
COUNT = _counted(1)
INDEX = _counted(0)
POSITION = Codec(_load_position)

# Read for every case of every cached file: each field one call, no wrappers.
PLACE = Record(
    Place,
    {
        "line": COUNT,
        "col": COUNT,
        "lines": Codec(_load_lines),
        "end": Codec(_load_end),
        "row_lines": Codec(_load_lines_of_rows),
    },
)
XFAIL = Record(XFail, {"reason": TEXT, "strict": Codec(_load_bool)})
MARKS = Record(
    Marks,
    {"skip": _maybe(TEXT), "xfail": _maybe(XFAIL.codec()), "names": _many(_pair(TEXT, POSITION))},
)
_SOME_MARKS = Codec(
    lambda value, files: NO_MARKS if value is None else MARKS.load(value, files),
    lambda value: None if value == NO_MARKS else MARKS.dump(value),
)
CASE = Record(
    Case,
    {
        "name": TEXT,
        "index": INDEX,
        "place": PLACE.codec(),
        "packed_input": Codec(_load_text, _dump_packed),
        "packed_expected": Codec(_load_text, _dump_packed),
        "input_file": _maybe(Codec(_load_input_file, _dump_input_file)),
        "marks": _SOME_MARKS,
    },
    kept={"problems": (), "missing_expected": None},
)
#: A case file but its ``display`` and ``digest``, which the cache knows otherwise.
CASE_FILE = Record(
    CaseFile,
    {
        "evaluator": TEXT,
        "evaluator_at": POSITION,
        "description": _maybe(TEXT),
        "cases": _many(CASE.codec()),
        "rubric": _maybe(Codec(_load_rubric, _dump_rubric)),
        "rubric_at": Codec(_load_rubric_at, _dump_rubric_at),
        "marks": _SOME_MARKS,
    },
    given=("display", "digest"),
)


def case_file_to_json(case_file: CaseFile) -> list[Any]:
    """``case_file`` as JSON values, but its ``display`` and ``digest``; :class:`Unkept`
    when it is not to be kept."""
    return CASE_FILE.dump(case_file)


def case_file_from_json(value: Any, display: str, digest: str, files: InputFiles) -> CaseFile:
    """The case file :func:`case_file_to_json` wrote, named ``display``, its input files
    resolved by ``files``; ``TypeError``, ``ValueError`` or :class:`Unkept` for anything
    else."""
    case_file: CaseFile = CASE_FILE.load(value, files, display=display, digest=digest)
    names = [case.name for case in case_file.cases]
    if "" in names or len(set(names)) != len(names):
        raise ValueError("case names are unique and not empty")
    if [case.index for case in case_file.cases] != list(range(len(names))):
        raise ValueError("each case's index is its place in the list")
    return case_file
