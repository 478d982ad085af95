"""A ``ledger:`` block's ``panel:``: three or more graders (two too), every pair of them
read as a ledger of its own.

The names are the format (the SPEC pins them)::

    ledger:
      id: task_id
      panel: [judge_label, editor_label, lead_label]   # columns (rows: per-judgement: names;
                                                       # a join: one side's mapping each)
      graders: [judge, editor, lead]                   # how people read them, in panel order
      overlap: both-judged                             # each pair keeps the cases both judged

:func:`read_panel` reads ``panel:``, ``graders:`` and ``overlap:`` into a :class:`Panel`;
:meth:`Panel.pairs` gives the pairs in panel order, each named ``<x> vs <y>``. The
ledger of a pair is the block's own with ``a`` the first grader of the pair and ``b``
the second (:mod:`~pytest_rubric.descriptions.ledger`). This module does not import
pytest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe, show
from pytest_rubric.descriptions.join import Side, read_side
from pytest_rubric.descriptions.keypaths import KeyPath, read_key_path
from pytest_rubric.descriptions.positions import Block, Position
from pytest_rubric.descriptions.traits import FileTraits

#: ``overlap:``'s one value: each pair keeps the cases both of it judged.
BOTH_JUDGED = "both-judged"
#: The keys a panel adds to a ``ledger:`` block.
PANEL_KEYS = ("panel", "overlap")


@dataclass(frozen=True, slots=True)
class Panel:
    """The graders of a panel, in panel order: ``names`` as people and pair items read
    them (``graders:``, else as the panel writes each); for one row per case, the key
    path of each grader's label (``paths``); with ``rows: per-judgement``, each grader's
    value in the grader column (``judges``); for a join, each grader's file (``sides``).
    ``both_judged``: ``overlap: both-judged``."""

    names: tuple[str, ...]
    paths: tuple[KeyPath, ...] = ()
    judges: tuple[JSON, ...] = ()
    sides: tuple[Side, ...] = ()
    both_judged: bool = False
    at: Position = (0, 0)

    def pairs(self) -> list[tuple[int, int]]:
        """Every pair of graders, by index, in panel order: (0, 1), (0, 2), ... (1, 2)."""
        count = len(self.names)
        return [(x, y) for x in range(count) for y in range(x + 1, count)]

    def pair_name(self, x: int, y: int) -> str:
        """How pair ``(x, y)`` is named: ``judge vs editor``."""
        return f"{self.names[x]} vs {self.names[y]}"


@dataclass(frozen=True, slots=True)
class PairOf:
    """Where a case made from a panel's pair comes from: the panel case's ID, the pair's
    name (``judge vs editor``), every pair of the panel by name, in panel order, and
    whether its expected answer is its own (``expected_pairs``) rather than the case's,
    and the panel's graders as people read them, in panel order."""

    panel: str
    pair: str
    pairs: tuple[str, ...]
    pinned: bool = False
    graders: tuple[str, ...] = ()


def read_panel(
    block: Block,
    per_judgement: bool,
    traits: FileTraits,
    traits_of: Callable[[str], FileTraits],
) -> Panel | None:
    """The block's ``panel:`` (with ``graders:`` and ``overlap:``), or ``None`` after
    refusing each problem; the graders read as ``per_judgement`` rows name them, or as
    join sides where the panel's items are mappings."""
    values, value_at = block.value, block.places.value
    value, at = values["panel"], value_at("panel")
    for key in ("a", "b"):
        if key in values:
            block.refuse(
                block.places.key(key),
                f"'panel' names every grader, so '{key}' is not read beside it; remove "
                f"'{key}', or write the graders as 'panel: [X, Y]' alone",
            )
    if type(value) is not list or len(value) < 2:
        block.refuse(
            at,
            f"'panel' must be a list of two graders or more, not {describe(value)}; write "
            "e.g. 'panel: [judge_label, editor_label, lead_label]'",
        )
        return None
    places = [block.written.item(value, index, at) for index in range(len(value))]
    if any(isinstance(item, dict) for item in value):
        read = _sides(block, value, places, traits_of)
    elif per_judgement:
        read = _judges(block, value, places, traits)
    else:
        read = _paths(block, value, places, traits)
    names = _names(block, len(value))
    both_judged = _overlap(block)
    if read is None or names is _REFUSED:
        return None
    panel = replace(
        read, names=read.names if names is None else names, both_judged=both_judged, at=at
    )
    return panel if _named_apart(block, panel, names is not None) else None


_REFUSED = ("",)


def _paths(
    block: Block, value: list[JSON], places: list[Position], traits: FileTraits
) -> Panel | None:
    """One row per case: each grader's label column or key path."""
    paths: list[KeyPath] = []
    for index, item in enumerate(value):
        path = read_key_path(
            item, "panel", places[index], block.written, traits, f"ledger 'panel[{index}]'"
        )
        if path is None:
            return None
        for before, other in enumerate(paths):
            if other.parts == path.parts:
                block.refuse(
                    places[index],
                    f"'panel[{before}]' and 'panel[{index}]' name the same column or key "
                    f"{escape_controls(repr(path.written))}; each grader names its own",
                )
                return None
        paths.append(path)
    return Panel(tuple(escape_controls(path.written) for path in paths), paths=tuple(paths))


def _judges(
    block: Block, value: list[JSON], places: list[Position], traits: FileTraits
) -> Panel | None:
    """One row per judgement: each grader's value in the grader column."""
    for index, name in enumerate(value):
        if type(name) is str and name:
            pass
        elif type(name) in (int, float) and traits.text_cells:
            block.refuse(
                places[index],
                f"with 'rows: per-judgement', a panel's grader is its name as the grader "
                f"column writes it, and every cell of a .csv ledger is text; write it quoted "
                f"('{show(name)}')",
            )
            return None
        elif type(name) not in (int, float):
            block.refuse(
                places[index],
                f"with 'rows: per-judgement', a panel's grader is its name as the grader "
                f"column writes it, not {describe(name)}; write it as text, or as a number "
                "where the export holds a number",
            )
            return None
        for before in range(index):
            if same_grader(value[before], name):
                block.refuse(
                    places[index],
                    f"'panel[{before}]' and 'panel[{index}]' name the same grader "
                    f"{escape_controls(show(name))}; name each grader once",
                )
                return None
    shown = (escape_controls(name if type(name) is str else show(name)) for name in value)
    return Panel(tuple(shown), judges=tuple(value))


def _sides(
    block: Block,
    value: list[JSON],
    places: list[Position],
    traits_of: Callable[[str], FileTraits],
) -> Panel | None:
    """A join: each grader's own file, described as a side of a join is."""
    sides: list[Side] = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            block.refuse(
                places[index],
                f"'panel[{index}]' is {describe(item)}, but the panel's other graders are "
                "files of their own; write it as one too: "
                "'{input_file: labels/x.csv, id: case_id, label: verdict}'",
            )
            return None
        side = read_side(f"panel[{index}]", Block.of(item, places[index], block.written), traits_of)
        if side is None:
            return None
        sides.append(side)
    return Panel(tuple(escape_controls(side.input_file) for side in sides), sides=tuple(sides))


def _names(block: Block, count: int) -> tuple[str, ...] | None:
    """``graders:`` beside a panel: a name people read for each grader, in panel order;
    ``None`` where it is not given, :data:`_REFUSED` after refusing it."""
    if "graders" not in block.value:
        return None
    value, at = block.value["graders"], block.places.value("graders")
    if type(value) is not list or len(value) != count:
        block.refuse(
            at,
            f"beside a panel of {count} graders, 'graders' is a list of {count} names in "
            f"panel order, not {describe(value)}; write e.g. 'graders: [judge, editor, lead]'",
        )
        return _REFUSED
    for index, name in enumerate(value):
        if type(name) is not str or not name.strip() or escape_controls(name) != name:
            block.refuse(
                block.written.item(value, index, at),
                f"'graders[{index}]' must be a name as text people read, not "
                f"{describe(name)}; write e.g. 'graders: [judge, editor, lead]'",
            )
            return _REFUSED
        if name in value[:index]:
            block.refuse(
                block.written.item(value, index, at),
                f"'graders' gives two graders one name {name!r}; name each",
            )
            return _REFUSED
    return tuple(str(name) for name in value)


def _named_apart(block: Block, panel: Panel, given: bool) -> bool:
    """Whether every pair has a name of its own (its node ID, its key under
    ``expected_pairs``, its record): two graders shown alike (one file twice in a join,
    ``1`` and ``'1'``), or a name holding `` vs ``, give two pairs one name."""
    named: dict[str, tuple[int, int]] = {}
    for x, y in panel.pairs():
        name = panel.pair_name(x, y)
        if name in named:
            first = named[name]
            where = "rename them in 'graders'" if given else "name each with 'graders: [...]'"
            block.refuse(
                block.places.value("graders") if given else panel.at,
                f"the pairs 'panel[{first[0]}]' with 'panel[{first[1]}]' and 'panel[{x}]' with "
                f"'panel[{y}]' would both be named {escape_controls(repr(name))}; each pair "
                f"needs a name of its own: {where}, each different and none holding ' vs '",
            )
            return False
        named[name] = (x, y)
    return True


def _overlap(block: Block) -> bool:
    """Whether ``overlap: both-judged`` is given (anything else refused)."""
    if "overlap" not in block.value:
        return False
    value = block.value["overlap"]
    if value != BOTH_JUDGED or type(value) is not str:
        block.refuse(
            block.places.value("overlap"),
            f"ledger 'overlap' is {describe(value)}; write 'overlap: both-judged' (each pair "
            "keeps the cases both judged), or leave it out (every case judged by both)",
        )
    return value == BOTH_JUDGED


def same_grader(first: object, second: object) -> bool:
    """Whether two grader names are one under strict JSON equality: text equals only
    text, a number only a number (``7`` is ``7.0``), never a Boolean."""
    if type(first) is str or type(second) is str:
        return type(first) is type(second) and first == second
    numbers = (int, float)
    return type(first) in numbers and type(second) in numbers and first == second
