"""A loaded case file as JSON values and back: the one place its shape is written down,
its cases' ``ledger:`` and ``dataset:`` blocks too.

Each type is a table of its fields in order, each with how it is written and read
(a :class:`Codec`); both directions read the same table, so a new field is one new
row (tests/test_casefiles_cache.py and tests/test_casefiles_casecodec.py check that
every field has one). A field is read
a column at a time: its values in all the cases of a file, checked together (their
types in one pass, their least value in another), so a cached case costs no call per
field. Reading checks every value's type and raises ``TypeError`` or ``ValueError``
for anything else, and :class:`Unkept` is raised for what is not to be written (a
case with a problem, a mapping its JSON text would not give back exactly): the cache
treats both as "no entry". An input file is resolved anew as it is read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import islice
from operator import attrgetter
from typing import Any

from pytest_rubric.casefiles.cases import Case, CaseFile, Place
from pytest_rubric.casefiles.marks import NO_MARKS, Marks, XFail
from pytest_rubric.casefiles.yamlstrict import Position
from pytest_rubric.core.packed import pack
from pytest_rubric.descriptions.dataset import Dataset, Template
from pytest_rubric.descriptions.join import Side
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.panel import Panel
from pytest_rubric.descriptions.selection import Selection
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.inputs.source import InputFile, joined_sides

#: A column reader: the values of one field (a list), given how input files resolve,
#: read into a list of as many values, in order.
Load = Callable[[list[Any], InputFiles], list[Any]]


class Unkept(ValueError):
    """A value that is not written: its file is parsed each time instead."""


@dataclass(frozen=True, slots=True)
class Codec:
    """How one field's values are read back (``load``: a column of them at a time) and
    written as JSON (``dump``, one value; ``None``: as it is, JSON writing a tuple as a
    list)."""

    load: Load
    dump: Callable[[Any], Any] | None = None


def _typed(values: list[Any], types: frozenset[type], what: str) -> None:
    """``TypeError`` unless each of ``values`` is exactly of one of ``types``."""
    if not {*map(type, values)} <= types:
        raise TypeError(f"{what} expected")


_LIST = frozenset({list})


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

    def load(self, values: list[Any], files: InputFiles, **given: Any) -> list[Any]:
        """The values :meth:`dump` wrote, read a field at a time, made with ``given``."""
        names = self._names
        _typed(values, _LIST, f"a list of {len(names)}")
        if {*map(len, values)} - {len(names)}:
            raise TypeError(f"a list of {len(names)} expected")
        # Each value has every field (checked above): no zip here can come up short.
        columns = [
            load(list(column), files)
            for load, column in zip(self._loads, zip(*values, strict=True), strict=False)
        ]
        cls = self.cls
        rows = zip(*columns, strict=True)
        if given:
            return [cls(**given, **dict(zip(names, fields, strict=True))) for fields in rows]
        # Each row has a field a name (checked above): the mapping alone is the call's.
        return [cls(**dict(zip(names, fields, strict=False))) for fields in rows]

    def codec(self) -> Codec:
        """This record as a field of another."""
        return Codec(self.load, self.dump)


def _each(load: Callable[[Any, InputFiles], Any]) -> Load:
    """A column reader calling ``load`` on each value: for the fields a case file has
    once, or a case seldom."""
    return lambda values, files: [load(value, files) for value in values]


def _of_type(kind: type, what: str, least: int | None = None) -> Codec:
    """Values of exactly ``kind``, read as they are; ``least`` or more, when given."""
    types = frozenset({kind})

    def load(values: list[Any], files: InputFiles) -> list[Any]:
        _typed(values, types, what)
        if least is not None and values and min(values) < least:
            raise TypeError(f"{what} expected")
        return values

    return Codec(load)


def _as_is(value: Any) -> Any:
    return value


def _maybe(codec: Codec, none: object = None) -> Codec:
    """``codec``'s values, or ``None`` (read as ``none``)."""
    load, dump = codec.load, codec.dump

    def load_some(values: list[Any], files: InputFiles) -> list[Any]:
        given = [value for value in values if value is not None]
        if not given:
            return [none] * len(values)
        made = iter(load(given, files))
        return [none if value is None else next(made) for value in values]

    if none is not None:  # written as None when it is ``none``
        some = _as_is if dump is None else dump
        return Codec(load_some, lambda value: None if value == none else some(value))
    if dump is None:
        return Codec(load_some)
    return Codec(load_some, lambda value: None if value is None else dump(value))


def _pair(first: Codec, second: Codec) -> Codec:
    """A tuple of two values, each by its codec."""
    load_first, load_second = first.load, second.load

    def load(values: list[Any], files: InputFiles) -> list[Any]:
        _typed(values, _LIST, "a list of 2")
        if {*map(len, values)} - {2}:
            raise TypeError("a list of 2 expected")
        firsts = load_first([value[0] for value in values], files)
        return list(zip(firsts, load_second([value[1] for value in values], files), strict=True))

    if first.dump is None and second.dump is None:
        return Codec(load)
    dump_first, dump_second = first.dump or _as_is, second.dump or _as_is
    return Codec(load, lambda value: [dump_first(value[0]), dump_second(value[1])])


def _many(codec: Codec) -> Codec:
    """A tuple of any length, each value by ``codec``."""
    load, dump = codec.load, codec.dump

    def load_all(values: list[Any], files: InputFiles) -> list[Any]:
        _typed(values, _LIST, "a list")
        made = iter(load([item for value in values for item in value], files))
        return [tuple(islice(made, len(value))) for value in values]

    return Codec(load_all, None if dump is None else lambda value: [dump(item) for item in value])


def _dump_packed(value: Any) -> str:
    if type(value) is not str:
        raise Unkept("a mapping its JSON text would not give back exactly")
    return value


def _dump_rubric(value: Any) -> str:
    return _dump_packed(pack(value))


def _load_rubric(value: Any, files: InputFiles) -> dict[str, Any]:
    rubric = json.loads(TEXT.load([value], files)[0])
    if type(rubric) is not dict:
        raise TypeError("a mapping expected")
    return rubric


def _dump_input_file(value: InputFile) -> list[Any]:
    ledger, dataset = value.ledger, value.dataset
    return [value.text, None if ledger is None else LEDGER.dump(ledger)] + (
        [] if dataset is None else [DATASET.dump(dataset)]
    )


def _load_input_file(value: Any, files: InputFiles) -> InputFile:
    if type(value) is not list or len(value) not in (2, 3):
        raise TypeError("a list of 2 or 3 expected")
    input_file = _resolved(TEXT.load([value[0]], files)[0], files)
    if len(value) == 3:  # a dataset's file: no ledger
        return replace(input_file, dataset=DATASET.load([value[2]], files)[0])
    if value[1] is None:
        return input_file
    ledger: Ledger = LEDGER.load([value[1]], files)[0]
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
    return value if type(value) is str else INDEX.load([value], files)[0]


def _dump_rubric_at(value: dict[tuple[str | int, ...], Position]) -> list[Any]:
    return [[where, at] for where, at in value.items()]


def _load_rubric_at(value: Any, files: InputFiles) -> dict[tuple[str | int, ...], Position]:
    return dict(_many(_pair(_many(Codec(_each(_load_key))), POSITION)).load([value], files)[0])


TEXT = _of_type(str, "text")
COUNT = _of_type(int, "a line or column", least=1)
INDEX = _of_type(int, "a line or column", least=0)
BOOL = _of_type(bool, "true or false")
POSITION = _pair(COUNT, COUNT)

# -- the blocks that describe an input file (descriptions/), kept with the case ------------


def _of_types(kinds: tuple[type, ...], what: str) -> Codec:
    """Values of exactly one of ``kinds``, read as they are."""
    types = frozenset(kinds)

    def load(values: list[Any], files: InputFiles) -> list[Any]:
        _typed(values, types, what)
        return values

    return Codec(load)


def _filled(codec: Codec, what: str) -> Codec:
    """``codec``'s values, none of them empty."""
    load = codec.load

    def load_filled(values: list[Any], files: InputFiles) -> list[Any]:
        made = load(values, files)
        if not all(made):
            raise ValueError(f"{what} expected")
        return made

    return Codec(load_filled, codec.dump)


def _one_of(choices: tuple[str, ...]) -> Codec:
    def load(values: list[Any], files: InputFiles) -> list[Any]:
        _typed(values, frozenset({str}), "text")
        if not set(values) <= set(choices):
            raise ValueError(f"one of {choices} expected")
        return values

    return Codec(load)


def _dump_template(template: Template) -> Any:
    if isinstance(template, KeyPath):
        return {"path": KEY_PATH.dump(template)}
    return {"keys": [[key, _dump_template(inner)] for key, inner in template]}


def _load_template(value: Any, files: InputFiles) -> Template:
    if type(value) is dict and set(value) == {"path"}:
        path: KeyPath = KEY_PATH.load([value["path"]], files)[0]
        return path
    if type(value) is not dict or set(value) != {"keys"} or type(value["keys"]) is not list:
        raise TypeError("an input template expected")
    keys: list[tuple[str, Template]] = []
    for pair in value["keys"]:
        if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
            raise TypeError("an input key and its template expected")
        keys.append((pair[0], _load_template(pair[1], files)))
    if not keys:
        raise ValueError("an input mapping names a key at least")
    return tuple(keys)


#: A place in a case file as a block keeps it: a line and a column.
LINE_COL = _pair(_of_type(int, "a line"), _of_type(int, "a column"))
_PART = _filled(TEXT, "a part of a key path")
KEY_PATH = Record(
    KeyPath, {"parts": _filled(_many(_PART), "a key path"), "at": LINE_COL, "written": TEXT}
)
_PATH = KEY_PATH.codec()
_SOME_PATH = _maybe(_PATH)
#: A label as an export holds it: a JSON scalar, never a mapping or a list.
_LABELS = _maybe(_many(_pair(_of_types((str, bool, int, float, type(None)), "a label"), BOOL)))
SELECTION = Record(
    Selection,
    {
        "records": _SOME_PATH,
        "where": _many(_pair(_PATH, Codec(lambda values, files: values))),
        "ids_as_text": BOOL,
        "sheet": _maybe(TEXT),
        "sheet_at": LINE_COL,
    },
)
SIDE = Record(
    Side,
    {
        "input_file": TEXT,
        "file_at": LINE_COL,
        "id": _PATH,
        "label": _PATH,
        "labels": _LABELS,
        "labels_at": LINE_COL,
        "selection": SELECTION.codec(),
    },
)
#: A grader as the grader column holds it (or ``None``): text or a number.
_GRADER = _of_types((str, int, float, type(None)), "a grader")
PANEL = Record(
    Panel,
    {
        "names": _many(_filled(TEXT, "a grader's name")),
        "paths": _many(_PATH),
        "judges": _many(_GRADER),
        "sides": _many(SIDE.codec()),
        "both_judged": BOOL,
        "at": LINE_COL,
    },
)
LEDGER = Record(
    Ledger,
    {
        "id": _PATH,
        "a": _PATH,
        "b": _PATH,
        "labels": _LABELS,
        "graders": _maybe(_pair(TEXT, TEXT)),
        "per_judgement": BOOL,
        "grader": _SOME_PATH,
        "label": _SOME_PATH,
        "a_name": _GRADER,
        "b_name": _GRADER,
        "labels_at": LINE_COL,
        "selection": SELECTION.codec(),
        "join": _maybe(_pair(SIDE.codec(), SIDE.codec())),
        "side": _one_of(("", "a", "b")),
        "group_by": _SOME_PATH,
        "panel": _maybe(PANEL.codec()),
        "both_judged": _maybe(LINE_COL),
    },
)
DATASET = Record(
    Dataset,
    {
        "id": _PATH,
        "input": Codec(_each(_load_template), _dump_template),
        "expected": _SOME_PATH,
        "labels": _LABELS,
        "split": _many(_pair(_PART, _PART)),
        "selection": SELECTION.codec(),
        "at": LINE_COL,
        "file_at": LINE_COL,
    },
)

PLACE = Record(
    Place,
    {
        "line": COUNT,
        "col": COUNT,
        # The line a case starts on and the next case's (0 after the last).
        "lines": _maybe(_pair(COUNT, INDEX)),
        "end": _maybe(POSITION),
        "row_lines": _many(COUNT),
    },
)
XFAIL = Record(XFail, {"reason": TEXT, "strict": BOOL})
MARKS = Record(
    Marks,
    {"skip": _maybe(TEXT), "xfail": _maybe(XFAIL.codec()), "names": _many(_pair(TEXT, POSITION))},
)
_SOME_MARKS = _maybe(MARKS.codec(), none=NO_MARKS)
_INPUT_FILE = Codec(_each(_load_input_file), _dump_input_file)
CASE = Record(
    Case,
    {
        "name": TEXT,
        "index": INDEX,
        "place": PLACE.codec(),
        "packed_input": Codec(TEXT.load, _dump_packed),
        "packed_expected": Codec(TEXT.load, _dump_packed),
        "input_file": _maybe(_INPUT_FILE),
        "marks": _SOME_MARKS,
        "subset": BOOL,
        "dataset": _maybe(_INPUT_FILE),
        "pairs": BOOL,
    },
    kept={"problems": (), "missing_expected": None, "row": None, "pair": None},
)
#: A case file but its ``display`` and ``digest``, which the cache knows otherwise.
CASE_FILE = Record(
    CaseFile,
    {
        "evaluator": TEXT,
        "evaluator_at": POSITION,
        "description": _maybe(TEXT),
        "cases": _many(CASE.codec()),
        "rubric": _maybe(Codec(_each(_load_rubric), _dump_rubric)),
        "rubric_at": Codec(_each(_load_rubric_at), _dump_rubric_at),
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
    case_file: CaseFile = CASE_FILE.load([value], files, display=display, digest=digest)[0]
    names = [case.name for case in case_file.cases]
    if "" in names or len(set(names)) != len(names):
        raise ValueError("case names are unique and not empty")
    if [case.index for case in case_file.cases] != list(range(len(names))):
        raise ValueError("each case's index is its place in the list")
    return case_file
