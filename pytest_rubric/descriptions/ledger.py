"""A case's ``ledger:`` block: how to read the export its ``input_file`` names.

The names are the format (the SPEC pins them)::

    ledger:
      id: task_id                  # the column or key holding the case ID
      a: judge_label               # grader A's label (with rows: per-judgement, A's name)
      b: editor_label              # grader B's label (with rows: per-judgement, B's name)
      labels: {PASS: true, FAIL: false}   # the export's words for the two Booleans
      graders: {a: judge, b: editor}      # how people should read a and b
      rows: per-judgement          # one row per judgement, with grader: and label:
      grader: annotator            # with per-judgement: the column naming who judged
      label: answer                # with per-judgement: the judgement
      records: results.results     # a .json document: the key path of its list of rows
      sheet: ratings               # a workbook (.xlsx): the sheet of rows, else the first
      where: {status: submitted}   # keep only the rows (or judgements) holding these values
      ids: as-text                 # an integer ID read as its decimal text
      group_by: category           # the breakdown people read (evidence, report, page)

``a`` and ``b`` may instead each describe one grader's own file (a join: see
:mod:`~pytest_rubric.descriptions.join`).

A key is a path (:mod:`~pytest_rubric.descriptions.keypaths`): ``labels.judge`` reaches
inside nested JSON, ``result.0`` into a list, and the list form ``[labels, judge.v2]``
covers keys that hold a dot. ``labels`` as a mapping maps text
words; as a list of ``[value, Boolean]`` pairs it maps any JSON scalar exactly as
YAML types it (``1`` the number, ``'1'`` the text, ``true`` the Boolean).

:func:`read_ledger` turns the block into a :class:`Ledger`, or problems at the
block's ``line:col``. This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe, show
from pytest_rubric.descriptions.join import JOIN_LEDGER_KEYS, Side, outside_join, read_side
from pytest_rubric.descriptions.keypaths import KeyPath, read_key_path
from pytest_rubric.descriptions.labels import read_graders, read_labels
from pytest_rubric.descriptions.panel import PANEL_KEYS, Panel, read_panel, same_grader
from pytest_rubric.descriptions.positions import Block, Position, Written
from pytest_rubric.descriptions.selection import EVERY_ROW, Selection, read_selection
from pytest_rubric.descriptions.traits import NO_FORMAT, FileTraits, FormatLookup

LEDGER_KEYS = (
    "id",
    "a",
    "b",
    "labels",
    "graders",
    "rows",
    "grader",
    "label",
    "records",
    "sheet",
    "where",
    "ids",
    "group_by",
    *PANEL_KEYS,
)
PER_ROW = "per-row"
PER_JUDGEMENT = "per-judgement"
ROW_FORMS = (PER_ROW, PER_JUDGEMENT)


@dataclass(frozen=True, slots=True)
class Ledger:
    """A ``ledger:`` block as read: where each of ``id``, ``a`` and ``b`` is (with
    ``per-judgement`` rows, ``a`` and ``b`` hold the two graders' names as written in the
    ``grader`` column: ``a_name`` and ``b_name``), the label vocabulary (each JSON value
    with the Boolean it means; ``None``: only real booleans are labels), and the names
    people read for a and b; which rows are read (``selection``: ``records``, ``where``,
    ``ids``); and for a join, its two sides (``id``, ``a`` and ``b`` are then side a's
    ID, side a's label and side b's label)."""

    id: KeyPath
    a: KeyPath
    b: KeyPath
    labels: tuple[tuple[JSON, bool], ...] | None = None
    graders: tuple[str, str] | None = None
    per_judgement: bool = False
    grader: KeyPath | None = None
    label: KeyPath | None = None
    a_name: JSON = None
    b_name: JSON = None
    labels_at: Position = (0, 0)
    selection: Selection = EVERY_ROW
    join: tuple[Side, Side] | None = None
    #: A side of a join read as a ledger of its own: ``a`` or ``b`` (its messages then name
    #: ``a.id`` and ``a.label``, its ``a`` and ``b`` being the side's label); else empty.
    side: str = ""
    #: ``group_by``: the path of the value each row's group is (for a join, in side a's
    #: rows), or ``None``.
    group_by: KeyPath | None = None
    #: ``panel:``: every grader of a panel (``a`` and ``b`` are then its first two), or
    #: ``None``. Each pair is read as the ledger :meth:`of_pair` gives.
    panel: Panel | None = None
    #: A pair's ``overlap: both-judged``: where its panel is written; else ``None``.
    both_judged: Position | None = None

    #: How messages name the block a key path is written in.
    block = "ledger"

    def named(self) -> list[tuple[str, KeyPath | None]]:
        """The key paths a file's header or schema is checked against, each with the key
        messages name it by."""
        grouped = [] if self.group_by is None else [("group_by", self.group_by)]
        if self.side:
            return [(f"{self.side}.id", self.id), (f"{self.side}.label", self.a), *grouped]
        if self.per_judgement:
            return [("id", self.id), ("grader", self.grader), ("label", self.label), *grouped]
        return [("id", self.id), ("a", self.a), ("b", self.b), *grouped]

    def of_pair(self, x: int, y: int) -> Ledger:
        """The ledger of the panel's pair ``(x, y)``: this block's, with grader ``x`` as
        ``a`` and grader ``y`` as ``b``, named for people as the panel names them."""
        panel = self.panel
        assert panel is not None
        graders = (panel.names[x], panel.names[y])
        both_judged = panel.at if panel.both_judged else None
        if panel.sides:
            side_a, side_b = panel.sides[x], panel.sides[y]
            return replace(
                self,
                id=side_a.id,
                a=side_a.label,
                b=side_b.label,
                join=(side_a, side_b),
                graders=graders,
                panel=None,
                both_judged=both_judged,
            )
        if panel.judges:
            return replace(
                self,
                a_name=panel.judges[x],
                b_name=panel.judges[y],
                graders=graders,
                panel=None,
                both_judged=both_judged,
            )
        return replace(
            self,
            a=panel.paths[x],
            b=panel.paths[y],
            graders=graders,
            panel=None,
            both_judged=both_judged,
        )

    def vocabulary(self) -> str:
        """The labels as people read them: ``PASS (true), FAIL (false)``."""
        return vocabulary(self.labels)

    def ids_go(self, case_file: str) -> str:
        """Where this block's ``ids:`` is written, in words: the block (a side's own, ``a:``
        or ``b:``, in a join) and where in ``case_file`` its ``id`` is (the block's own
        place for an ``id`` left to its default)."""
        line, col = self.id.at
        return f"under '{self.side or self.block}:' ({case_file}:{line}:{col})"


def vocabulary(labels: tuple[tuple[JSON, bool], ...] | None) -> str:
    """Labels as people read them: ``PASS (true), FAIL (false)``."""
    if labels is None:
        return "true and false (real booleans)"
    return ", ".join(
        f"{escape_controls(show(value))} ({'true' if meaning else 'false'})"
        for value, meaning in labels
    )


def joins_files(block: object) -> bool:
    """Whether a ``ledger:`` value describes a join: its ``a`` or ``b``, or an item of its
    ``panel``, a grader's own file (a mapping)."""
    if not isinstance(block, dict):
        return False
    panel = block.get("panel")
    sides = [block.get("a"), block.get("b"), *(panel if type(panel) is list else ())]
    return any(isinstance(side, dict) for side in sides)


def read_ledger(
    value: JSON,
    at: Position,
    written: Written,
    *,
    formats: FormatLookup,
) -> Ledger | None:
    """The :class:`Ledger` a case's ``ledger:`` value describes, or ``None`` after
    refusing each problem. ``at`` is where the value starts; ``written`` the loader's
    positions; ``formats`` what the input file's format (and a join's sides') can hold."""
    if not isinstance(value, dict):
        written.refuse(
            at,
            f"'ledger' must be a mapping, not {describe(value)}; write e.g. "
            "'ledger: {id: task_id, a: judge_label, b: editor_label}'",
        )
        return None
    problems: list[tuple[Position, str]] = []

    def refuse(where: Position, message: str) -> None:
        problems.append((where, message))

    block = Block.of(value, at, written.refusing(refuse))
    block.refuse_unknown(LEDGER_KEYS, "a ledger key")
    panel = _panel(block, formats)
    if panel is _REFUSED:
        ledger = None
    elif (panel is not None and panel.sides) or (
        isinstance(value.get("a"), dict) or isinstance(value.get("b"), dict)
    ):
        ledger = _join(block, formats.of, panel)
    else:
        ledger = _one_file(block, formats.file, panel)
    for where, message in problems:
        written.refuse(where, message)
    return None if problems else ledger


_REFUSED = Panel(names=())


def _panel(block: Block, formats: FormatLookup) -> Panel | None:
    """The block's ``panel:``, ``None`` where it has none, :data:`_REFUSED` after refusing
    it; ``overlap:`` without a panel refused."""
    values = block.value
    if "panel" not in values:
        if "overlap" in values:
            block.refuse(
                block.places.key("overlap"),
                "'overlap' says which cases each pair of a panel keeps, and this ledger has "
                "no 'panel'; write the graders as 'panel: [X, Y, ...]', or remove 'overlap'",
            )
        return None
    per_judgement = values.get("rows") == PER_JUDGEMENT
    panel = read_panel(block, per_judgement, formats.file, formats.of)
    return _REFUSED if panel is None else panel


def _one_file(block: Block, traits: FileTraits, panel: Panel | None) -> Ledger | None:
    """A ``ledger:`` block describing the case's one input file, of these ``traits``
    (its graders a ``panel`` where it has one)."""
    values, at, value_at = block.value, block.places.at, block.places.value
    per_judgement = _per_judgement(block, panel is not None)

    def path(key: str, default: str | None) -> KeyPath | None:
        if key not in values:
            if default is None:
                return None
            return KeyPath((default,), at, default)
        return read_key_path(values[key], key, value_at(key), block.written, traits)

    case_id = path("id", "id")
    grader = path("grader", None) if per_judgement else None
    label = path("label", None) if per_judgement else None
    a_name: JSON = None
    b_name: JSON = None
    if per_judgement:
        if panel is None:
            a_name, b_name = _grader_names(block, traits)
        else:
            a_name, b_name = panel.judges[0], panel.judges[1]
        a: KeyPath | None = KeyPath(("a",), value_at("a"), "a")
        b: KeyPath | None = KeyPath(("b",), value_at("b"), "b")
    elif panel is None:
        a = path("a", "a")
        b = path("b", "b")
    else:
        a, b = panel.paths[0], panel.paths[1]
    graded: list[tuple[str, KeyPath | None]] = (
        [("a", a), ("b", b)]
        if panel is None or per_judgement
        else [(f"panel[{index}]", one) for index, one in enumerate(panel.paths)]
    )
    _refuse_shared(
        block,
        [("id", case_id), ("grader", grader), ("label", label)]
        if per_judgement
        else [("id", case_id), *graded],
    )
    labels = read_labels(block, traits)
    graders = read_graders(block) if panel is None else None
    selection = read_selection(block, traits)
    group_by = path("group_by", None)
    if case_id is None or a is None or b is None:  # each refused
        return None
    return Ledger(
        id=case_id,
        a=a,
        b=b,
        labels=labels,
        graders=graders,
        per_judgement=per_judgement,
        grader=grader,
        label=label,
        a_name=a_name,
        b_name=b_name,
        labels_at=value_at("labels"),
        selection=selection,
        group_by=group_by,
        panel=panel,
    )


def _per_judgement(block: Block, panel: bool) -> bool:
    """Whether the block reads one row per judgement (``rows: per-judgement``), the keys
    that form needs or refuses refused."""
    values = block.value
    rows = values.get("rows", PER_ROW)
    if rows not in ROW_FORMS:
        block.refuse(
            block.places.value("rows"),
            f"ledger 'rows' is {describe(rows)}; write 'rows: per-judgement' for one row per "
            "judgement, or leave it out for one row per case",
        )
        rows = PER_ROW
    if rows != PER_JUDGEMENT:
        for key in ("grader", "label"):
            if key in values:
                block.refuse(
                    block.places.key(key),
                    f"'{key}' is read only with 'rows: per-judgement' (one row per "
                    "judgement); add that, or remove it",
                )
        return False
    for key in ("grader", "label") if panel else ("grader", "label", "a", "b"):
        if key not in values:
            block.refuse(
                block.places.at,
                f"a 'rows: per-judgement' ledger needs '{key}:' "
                + {
                    "grader": "(the column naming who judged)",
                    "label": "(the column holding the judgement)",
                    "a": "(grader A's name, as the grader column writes it)",
                    "b": "(grader B's name, as the grader column writes it)",
                }[key],
            )
    return True


def _grader_names(block: Block, traits: FileTraits) -> tuple[JSON, JSON]:
    """With ``rows: per-judgement``, the names ``a`` and ``b`` give the two graders, as
    the grader column writes them."""
    values, value_at = block.value, block.places.value
    a_name, b_name = values.get("a"), values.get("b")
    for key, name in (("a", a_name), ("b", b_name)):
        if key not in values or (type(name) is str and name):
            continue
        if type(name) in (int, float) and traits.text_cells:
            block.refuse(
                value_at(key),
                f"with 'rows: per-judgement', '{key}' is a grader's name as the grader "
                f"column writes it, and every cell of a .csv ledger is text; write it "
                f"quoted ('{show(name)}')",
            )
        elif type(name) not in (int, float):
            block.refuse(
                value_at(key),
                f"with 'rows: per-judgement', '{key}' is a grader's name as the grader "
                f"column writes it, not {describe(name)}; write it as text, or as a "
                f"number where the export holds a number ('{key}: 7')",
            )
    if same_grader(a_name, b_name):
        block.refuse(value_at("b"), f"a and b name the same grader {a_name!r}; name two graders")
    return a_name, b_name


def _refuse_shared(block: Block, named: list[tuple[str, KeyPath | None]]) -> None:
    """Refuse two keys of ``named`` naming the same column or key."""
    value_at = block.places.value
    for index, (first, one) in enumerate(named):
        for second, other in named[index + 1 :]:
            if one is not None and other is not None and one.parts == other.parts:
                block.refuse(
                    value_at(second) if second in block.value else value_at(first),
                    f"ledger '{first}' and '{second}' name the same column or key "
                    f"{escape_controls(repr(one.written))}; each names its own",
                )


def _join(
    block: Block, traits_of: Callable[[str], FileTraits], panel: Panel | None
) -> Ledger | None:
    """A ``ledger:`` block whose ``a`` or ``b`` is a mapping (or whose ``panel`` lists
    mappings): a join of files, each side's file of the traits ``traits_of`` finds by its
    written name."""
    values, at, value_at = block.value, block.places.at, block.places.value
    for key in values:
        if key in LEDGER_KEYS and key not in (*JOIN_LEDGER_KEYS, *PANEL_KEYS):
            block.refuse(block.places.key(key), outside_join(key))
    sides: list[Side | None] = []
    for name in () if panel is not None else ("a", "b"):
        value = values.get(name)
        if not isinstance(value, dict):
            other = "b" if name == "a" else "a"
            block.refuse(
                value_at(name) if name in values else at,
                f"'{other}' is a side of a join (its grader's own file), so '{name}' must be "
                f"one too, not {describe(value) if name in values else 'left out'}; write e.g. "
                f"'{name}: {{input_file: labels/{name}.csv, id: case_id, label: verdict}}'",
            )
            sides.append(None)
            continue
        sides.append(read_side(name, Block.of(value, value_at(name), block.written), traits_of))
    # Labels at the ledger level are for every side: text only where each holds text.
    both_text = (
        all(
            traits_of(side.input_file).text_cells
            for side in (panel.sides if panel is not None else ())
        )
        if panel is not None
        else all(
            isinstance(side, dict) and traits_of(str(side.get("input_file", ""))).text_cells
            for side in (values.get("a"), values.get("b"))
        )
    )
    labels = read_labels(block, FileTraits(text_cells=both_text))
    graders = read_graders(block) if panel is None else None
    side_a, side_b = sides if panel is None else panel.sides[:2]
    group_by = None
    if "group_by" in values:  # a key of side a's rows, read as side a's file holds keys
        side_traits = NO_FORMAT if side_a is None else traits_of(side_a.input_file)
        group_by = read_key_path(
            values["group_by"], "group_by", value_at("group_by"), block.written, side_traits
        )
    if side_a is None or side_b is None:
        return None
    return Ledger(
        id=side_a.id,
        a=side_a.label,
        b=side_b.label,
        labels=labels,
        graders=graders,
        labels_at=value_at("labels"),
        join=(side_a, side_b),
        group_by=group_by,
        panel=panel,
    )
