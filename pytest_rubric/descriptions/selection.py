"""Which rows an export gives, and how its IDs read: ``records``, ``sheet``, ``where`` and
``ids``.

The names are the format (the SPEC pins them), the same in a ``ledger:`` block and in
each side of a join::

    records: results.results        # a .json document: the key path of its list of rows
    sheet: ratings                  # a workbook (.xlsx): the sheet of rows (else the first)
    where: {status: submitted}      # keep only rows (or judgements) where each path holds exactly this
    ids: as-text                    # an integer ID read as its decimal text

This module reads them from a block; what they do to rows is in
:mod:`~pytest_rubric.inputs.judgements`. It does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.numbers import decimal_text
from pytest_rubric.core.shown import describe, show
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter, read_key_path
from pytest_rubric.descriptions.misfits import LedgerError, misfit
from pytest_rubric.descriptions.positions import Block, Position, Written
from pytest_rubric.descriptions.traits import NO_FORMAT, FileTraits

AS_TEXT = "as-text"


@dataclass(frozen=True, slots=True)
class Selection:
    """Where the rows are in a document (``records``; ``None``: the top level is the
    list), the conditions a row (or judgement) must meet to be kept (``where``: each
    path with the value it must hold exactly), whether an integer ID is read as its
    decimal text (``ids: as-text``), and which sheet of a workbook holds the rows."""

    records: KeyPath | None = None
    where: tuple[tuple[KeyPath, JSON], ...] = ()
    ids_as_text: bool = False
    #: The sheet of a workbook the rows are in, as ``sheet:`` names it, and where it is
    #: written (``None``: the first sheet).
    sheet: str | None = None
    sheet_at: Position = (0, 0)


def read_selection(block: Block, traits: FileTraits, named: str = "ledger") -> Selection:
    """``records``, ``sheet``, ``where`` and ``ids`` as ``block`` gives them (for a file of these
    ``traits``), each problem refused at its place; ``named`` names the block in messages."""
    value_at, refuse, written = block.places.value, block.refuse, block.written
    values = block.value
    records = None
    if "records" in values:
        at = value_at("records")
        if traits.written and not traits.records:
            refuse(
                at,
                f"{named} 'records' names the list of rows inside a .json document, but "
                f"this file is {traits.written}, whose rows are its {traits.rows_are} "
                "already; remove 'records'",
            )
        else:
            records = read_key_path(
                values["records"], "records", at, written, NO_FORMAT, f"{named} 'records'"
            )
    sheet = _read_sheet(block, traits, named)
    where: list[tuple[KeyPath, JSON]] = []
    if "where" in values:
        where = _read_where(values["where"], value_at("where"), written, traits, named)
    ids_as_text = False
    if "ids" in values:
        if values["ids"] == AS_TEXT:
            ids_as_text = True
        else:
            refuse(
                value_at("ids"),
                f"{named} 'ids' is {describe(values['ids'])}; write 'ids: {AS_TEXT}' to read an "
                "integer ID as its decimal text, or leave it out",
            )
    sheet_at = (0, 0) if sheet is None else value_at("sheet")
    return Selection(records, tuple(where), ids_as_text, sheet, sheet_at)


def _read_sheet(block: Block, traits: FileTraits, named: str) -> str | None:
    """``sheet``: the name of a workbook's sheet of rows, or ``None`` (the first)."""
    if "sheet" not in block.value:
        return None
    value, at = block.value["sheet"], block.places.value("sheet")
    if traits.written and not traits.sheets:
        block.refuse(
            at,
            f"{named} 'sheet' names a sheet of a spreadsheet (.xlsx), but this file is "
            f"{traits.written}, which has no sheets; remove 'sheet'",
        )
        return None
    if type(value) is not str or not value:
        block.refuse(
            at,
            f"{named} 'sheet' is {describe(value)}; write the sheet's name as its tab "
            "shows it, quoted if it looks like a number ('sheet: \"2024\"'), or leave it "
            "out to read the first sheet",
        )
        return None
    return value


def _read_where(
    value: JSON, at: Position, written: Written, traits: FileTraits, named: str
) -> list[tuple[KeyPath, JSON]]:
    refuse = written.refuse
    example = "'where: {status: submitted}'"
    if not isinstance(value, dict) or not value:
        refuse(
            at,
            f"{named} 'where' must be a mapping of key paths to the values they must hold, "
            f"not {describe(value)}; write e.g. {example}",
        )
        return []
    places = written.places(value, at)
    # A key in the list form is text, not a list of the document: its parts have no places.
    unlisted = Written(written.keys, {}, refuse)
    conditions = []
    for key, held in value.items():
        key_at, held_at = places.key(key), places.value(key)
        text: JSON = key
        if key.startswith("[") and key.endswith("]"):  # the list form, as a key
            text = [part.strip() for part in key[1:-1].split(",")]
        elif not traits.flat and not all(key.split(".")):
            refuse(
                key_at,
                f"{named} 'where' key {escape_controls(repr(key))} has an empty part "
                "between its dots; write the key path as its keys joined by single dots, or "
                "in the list form as the key ('[outer, key.with.dots]': VALUE) for keys that "
                "hold a dot",
            )
            continue
        path = read_key_path(text, "where", key_at, unlisted, traits, f"{named} 'where' key")
        if path is None:
            continue
        if traits.text_cells and type(held) is not str:
            refuse(
                held_at,
                f"{named} 'where' wants {escape_controls(repr(key))} to hold "
                f"{describe(held)}, but every cell of a .csv file is text; write it quoted "
                f"('{escape_controls(show(held))}')",
            )
            continue
        conditions.append((path, held))
    return conditions


def id_reader(path: KeyPath, selection: Selection) -> Callable[[object], object]:
    """The ID at ``path`` in a row (:data:`ABSENT` where there is none): with ``ids:
    as-text``, an integer (never a Boolean) as its decimal text."""
    get = getter(path)
    if not selection.ids_as_text:
        return get

    def as_text(row: object) -> object:
        value = get(row)
        return decimal_text(value) if type(value) is int else value

    return as_text


class Conditions:
    """``where`` as a test of one row (or judgement): :meth:`kept` says whether it meets
    every condition, and counts the first one it fails under :attr:`left_out`;
    ``where()``, if given, names the row being read, for :attr:`first` (the first left
    out, with what it holds there)."""

    __slots__ = ("checks", "first", "first_place", "first_row", "left_out", "paths", "where")

    def __init__(
        self, where: tuple[tuple[KeyPath, JSON], ...], named: Callable[[], str] | None = None
    ) -> None:
        self.paths = tuple(path for path, _ in where)
        self.checks = tuple((getter(path), path.written, held) for path, held in where)
        self.where = named
        #: How many were left out, by the first condition each failed ("PATH is not VALUE").
        self.left_out: dict[str, int] = {}
        self.first: str | None = None
        self.first_row: object = None
        self.first_place = ""

    def kept(self, row: object) -> bool:
        for get, written, held in self.checks:
            value = get(row)
            if value is ABSENT or not json_equal(value, held):
                shown = escape_controls(written)
                reason = (
                    f"{shown} is not {escape_controls(show(held))}"
                    if value is not ABSENT
                    else f"no {shown}"
                )
                self.left_out[reason] = self.left_out.get(reason, 0) + 1
                if self.first is None and self.where is not None:
                    self.first_row, place = row, self.where()
                    self.first_place = place
                    self.first = (
                        f"{place} has no {shown}"
                        if value is ABSENT
                        else f"{place} holds {escape_controls(show(value))} at {shown}"
                    )
                return False
        return True

    def none_kept(
        self, case_file: str, what: str, named: str = "", holder: str = "ledger"
    ) -> LedgerError:
        """The case's problem when ``where`` kept none of the ``what`` (rows or judgements),
        at the ``where`` block's place (``named``: whose block, for a side of a join): the
        counts, and the first left out. Never an empty ledger (``holder``: or dataset)."""
        total = sum(self.left_out.values())
        why = "; ".join(f"{reason}: {count}" for reason, count in self.left_out.items())
        first = "" if self.first is None else f"; the first: {self.first}"
        counted = f"the only {what[:-1]}" if total == 1 else f"every one of the {total} {what}"
        return misfit(
            case_file,
            self.paths[0].at,
            f"{named}'where' leaves out {counted} ({why}){first}, so the {holder} would be "
            "empty; write the values as the export holds them",
        )


#: Every row of the file, IDs as they are: what a block without these keys says.
EVERY_ROW = Selection()
