"""A ledger broken down by group (``group_by: PATH`` under ``ledger:``), for people.

As a ledger's rows are handed over, :class:`GroupTally` takes each with the value its
export row holds at the ``group_by`` path, and keeps per group value what the whole
ledger's answer keeps: the 2x2 matrix, the agreement over the total, and the
disagreement IDs in row order. Groups come in the order of their first row. A row
without the key is in a group of its own, named ``(no PATH)``.

Values are grouped under strict JSON equality: ``1`` and ``'1'`` are two groups,
``true`` and ``1`` too; ``1`` and ``1.0`` are one number. Each group gets a label people
read, unique within the ledger: its text, or the JSON text of any other value (a
label an earlier group holds gets the value's kind after it).

The groups are for people (the evidence, the report's ``review``, the page): never in
the answer, which keeps the seeds' shape. They mean something only for a valid ledger
(every ID text and unique, every label a Boolean); a row that is not is left out of
them, and the evidence shows groups only beside a valid answer. This module does not
import pytest.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import compress
from operator import ne
from typing import Final

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON, plain
from pytest_rubric.core.labelblocks import MATRIX_CELLS
from pytest_rubric.core.nearest import nearest
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter

#: The most groups a ledger is broken down into: a breakdown is for a handful of values
#: (desks, weeks, rubric versions); a path that holds more (an ID, a timestamp) is no
#: grouping, and holding a tally for each of a million values would cost the run dearly.
MAX_GROUPS = 1000

#: The keys of a Parquet value JSON has no type for (a date, a timestamp, a decimal).
_PARQUET_VALUE = frozenset({"parquet value", "text"})

#: The kind of each JSON value, said after a label that an earlier group holds.
_KINDS: Final = {bool: "a Boolean", int: "a number", float: "a number", dict: "a mapping"}


def _key(value: object) -> object:
    """What a group is found by: text as it is (the usual group), anything else tagged by
    its kind, so that ``'1'``, ``1`` and ``true`` stay apart and ``1`` and ``1.0`` meet."""
    kind = type(value)
    if kind is bool:
        return ("bool", value)
    if kind is int:
        return ("number", value)
    if type(value) is float:  # NaN is not NaN, but its rows are one group (Parquet's)
        return ("number", value) if math.isfinite(value) else ("number", repr(value))
    if value is None:
        return ("null",)
    if value is ABSENT:
        return ABSENT
    return ("json", json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr))


class _Group:
    """One group's tally: its value and label, its matrix and its disagreement IDs."""

    __slots__ = ("a_only", "b_only", "both", "ids", "label", "neither", "value")

    def __init__(self, value: object, label: str) -> None:
        self.value = value
        self.label = label
        self.both = self.neither = self.a_only = self.b_only = 0
        self.ids: list[object] = []

    def to_json(self) -> dict[str, JSON]:
        group: dict[str, JSON] = {"label": plain(self.label)}
        if self.value is not ABSENT:
            group["value"] = plain(self.value)
        agreement = self.both + self.neither
        counts = {
            (True, True): self.both,
            (False, False): self.neither,
            (True, False): self.a_only,
            (False, True): self.b_only,
        }
        group["matrix"] = {cell: counts[pair] for pair, cell in MATRIX_CELLS.items()}
        group["agreement"] = agreement
        group["total"] = agreement + self.a_only + self.b_only
        group["disagreements"] = [plain(case_id) for case_id in self.ids]
        return group


class GroupTally:
    """The groups of one pass over a ledger's rows (each pass its own).

    ``add(row, value)`` takes a ledger row as handed over (``{"id", "a", "b", ...}``)
    and the value its export row holds at the path (:data:`ABSENT` where the path leads
    nowhere); :attr:`last` is the label of the latest row's group; :meth:`groups` the
    groups as the report writes them.
    """

    __slots__ = ("_get", "_groups", "_labels", "first", "last", "overflow", "path")

    def __init__(self, path: KeyPath) -> None:
        self.path = path
        self._get = getter(path)
        self._groups: dict[object, _Group] = {}
        self._labels: set[str] = set()
        self.last: str | None = None
        #: The first export row read, for the words about a path no row holds.
        self.first: dict[str, object] | None = None
        #: Whether the rows hold more than :data:`MAX_GROUPS` values (then none is kept).
        self.overflow = False

    def read(self, raw: object) -> object:
        """The value at the path in the export row ``raw`` (:data:`ABSENT` where it
        leads nowhere)."""
        if self.first is None and type(raw) is dict:
            self.first = raw
        return self._get(raw)

    def nowhere(self) -> bool:
        """Whether rows were handed over and none holds the path: a misspelt key, most
        likely, which must not pass for one group of every row."""
        return not self.overflow and len(self._groups) == 1 and ABSENT in self._groups

    def _group(self, value: object) -> _Group | None:
        """The group of ``value``, made when it is new; ``None`` past :data:`MAX_GROUPS`."""
        key = value if type(value) is str else _key(value)
        group = self._groups.get(key)
        if group is None:
            if self.overflow or len(self._groups) == MAX_GROUPS:
                self.overflow = True
                self._groups.clear()
                self.last = None
                return None
            group = self._groups[key] = _Group(value, self._label(value))
        return group

    def add_block(
        self,
        values: Sequence[str],
        ids: Sequence[str],
        a_labels: Sequence[bool],
        b_labels: Sequence[bool],
    ) -> None:
        """Rows handed over as a block (text IDs, Boolean labels, text group values, in
        row order): tallied by counting, as :meth:`add` tallies them one at a time."""
        for value in dict.fromkeys(values):  # new groups in the order of their first row
            if self._group(value) is None:
                return
        groups = self._groups
        for (value, a, b), count in Counter(zip(values, a_labels, b_labels, strict=True)).items():
            group = groups[value]
            if a:
                if b:
                    group.both += count
                else:
                    group.a_only += count
            elif b:
                group.b_only += count
            else:
                group.neither += count
        for value, case_id in compress(zip(values, ids, strict=True), map(ne, a_labels, b_labels)):
            groups[value].ids.append(case_id)

    def add(self, row: object, value: object) -> None:
        """Row ``row`` is handed over, its export row holding ``value`` at the path."""
        group = self._group(value)
        if group is None:
            return
        self.last = group.label
        if type(row) is not dict:
            return  # not a mapping: the ledger is not valid, and its groups not shown
        a, b = row.get("a"), row.get("b")
        if a is True:
            if b is True:
                group.both += 1
            elif b is False:
                group.a_only += 1
                group.ids.append(row.get("id"))
        elif a is False:
            if b is False:
                group.neither += 1
            elif b is True:
                group.b_only += 1
                group.ids.append(row.get("id"))

    def _label(self, value: object) -> str:
        """A new group's label, as a report holds text: unique among the groups found
        before it."""
        if value is ABSENT:
            label = f"(no {self.path.written})"
            kind = "absent"
        elif type(value) is str:
            label, kind = value, "text"
        elif type(value) is float and not math.isfinite(value):
            label, kind = repr(value), "a number"
        elif isinstance(value, Mapping) and set(value) == _PARQUET_VALUE:
            label, kind = str(value["text"]), str(value["parquet value"])  # a date's ISO text
        else:
            label = json.dumps(plain(value), ensure_ascii=False)
            kind = "null" if value is None else _KINDS.get(type(value), "a list")
        label = str(plain(label))  # a lone surrogate as the report writes it
        if label in self._labels:
            label = f"{label} ({kind})"
            base, number = label, 2
            while label in self._labels:
                label = f"{base} #{number}"
                number += 1
        self._labels.add(label)
        return label

    def groups(self) -> list[dict[str, JSON]] | None:
        """Every group in the order of its first row: ``{"label", "value", "matrix",
        "agreement", "total", "disagreements"}`` (no ``value`` for the rows without the
        key), as the report's ``review.groups`` holds them; ``None`` past
        :data:`MAX_GROUPS`."""
        if self.overflow:
            return None
        return [group.to_json() for group in self._groups.values()]


def nowhere_words(groups: GroupTally, holder: str, kept: bool) -> str:
    """What to say of a ``group_by`` path no row holds; ``holder`` names the export,
    ``kept`` whether a ``where`` chose the rows. The nearest key is looked for where the
    first row stops following the path."""
    path = groups.path
    value: object = groups.first or {}
    depth = 0
    while depth < len(path.parts) and isinstance(value, dict) and path.parts[depth] in value:
        value = value[path.parts[depth]]
        depth += 1
    keys = [key for key in value if type(key) is str] if isinstance(value, dict) else []
    close = nearest(path.parts[depth], keys) if depth < len(path.parts) else None
    if close is not None:
        meant = ".".join((*path.parts[:depth], close, *path.parts[depth + 1 :]))
        hint = f"did you mean {escape_controls(repr(meant))}?"
    else:
        hint = "name a key the rows hold"
    where = ".".join(path.parts[:depth])
    inside = f" under {escape_controls(repr(where))}" if depth else ""
    shown = ", ".join(escape_controls(key) for key in keys[:12]) or "no keys"
    rows = f"row of {holder} that 'where' keeps" if kept else f"row of {holder}"
    first = "the first it keeps" if kept else "its first row"
    return (
        f"ledger 'group_by' names {escape_controls(repr(path.written))}, which no {rows} "
        f"holds ({first} has {shown}{inside}); {hint}"
    )
