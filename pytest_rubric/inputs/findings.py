"""What one pass over an export finds as it reads: :class:`Findings`, the accumulator.

Each pass takes its own (a second pass, to find a repeated ID's first place, leaves the
first's alone); once the pass is over,
:meth:`ReadNotes.of <pytest_rubric.inputs.readnotes.ReadNotes.of>` makes its frozen copy,
and :mod:`~pytest_rubric.inputs.notewords` words it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import show
from pytest_rubric.inputs.groups import GroupTally

#: How a judgement without a grader (its ``grader`` path leads nowhere) is counted.
NO_GRADER = "(no grader)"


def grader_shown(value: object) -> str:
    """A grader as an export holds it, shown as data (and counted under that name): text
    quoted and escaped as IDs are (``'editor '``, ``'editor\\u200b'``), anything else as
    JSON (``7``)."""
    if type(value) is str:
        return escape_controls(repr(value))
    return show(value)


@dataclass(frozen=True, slots=True)
class LabelOutside:
    """A label outside the vocabulary: where it was read (``file:line``), its side, the
    case ID beside it, the value, and the index of the row handed over that holds it
    (``None`` when the reading stopped before that row was handed over)."""

    where: str
    side: str
    case_id: object
    value: object
    index: int | None = None
    #: What to write, where "add it to 'labels', or fix the row" is the wrong advice.
    hint: str | None = None


class NumberId(NamedTuple):
    """The first row handed over whose ID is a number: its index, its place, the ID, and
    where its block's ``ids:`` is written (``under 'a:' (c.rubric.yaml:5:9)``)."""

    row: int
    where: str
    value: int | float
    ids_go: str


class Findings:
    """The notes one pass takes as it reads (each pass its own)."""

    __slots__ = (
        "alone",
        "dotted",
        "graders",
        "group_nowhere",
        "groups",
        "ignored",
        "judged",
        "left_out",
        "names",
        "number_id",
        "one_side",
        "outside",
        "sides",
        "split",
        "ungraded",
        "whole",
    )

    def __init__(self) -> None:
        self.outside: LabelOutside | None = None
        #: Judgements by graders other than a and b, by :func:`grader_shown` name.
        self.ignored: Counter[str] = Counter()
        self.whole = False
        #: One row per judgement: how many judgements a and b each gave, their names as
        #: the ledger writes them, the other graders found (shown -> as held), and the
        #: first judgement without a grader, with where it is.
        self.judged: tuple[int, int] | None = None
        self.names: tuple[JSON, JSON] = (None, None)
        self.graders: dict[str, object] = {}
        self.ungraded: tuple[str, dict[str, object]] | None = None
        #: How many rows were read, and how many judgements they held (before ``where``),
        #: once every row is split into its judgements.
        self.split: tuple[int, int] = (0, 0)
        #: The rows (or judgements) ``where`` left out, by the first condition each failed.
        self.left_out: dict[str, int] = {}
        #: A join's sides: each file's count of IDs, and the first IDs found on one side only.
        self.sides: tuple[tuple[str, int], ...] = ()
        self.one_side: list[str] = []
        #: A key path that leads nowhere where a row holds its dotted text as one key.
        self.dotted: str | None = None
        #: The first row handed over whose ID is a number.
        self.number_id: NumberId | None = None
        #: ``group_by``: the groups of the rows handed over; the case's problem when no
        #: row holds its path.
        self.groups: GroupTally | None = None
        self.group_nowhere: str | None = None
        #: ``overlap: both-judged``: how many cases a and b each judged alone.
        self.alone: tuple[int, int] | None = None

    def note_id(self, index: int, case_id: object, where: Callable[[], str], ids_go: str) -> None:
        """Row ``index`` is handed over with ``case_id``: the first number is noted, with
        where its block's ``ids:`` is written (``ids_go``)."""
        if type(case_id) in (int, float) and self.number_id is None:
            self.number_id = NumberId(index, where(), case_id, ids_go)  # type: ignore[arg-type]

    def label_outside(
        self,
        where: str,
        side: str,
        case_id: object,
        value: object,
        index: int | None,
        hint: str | None = None,
    ) -> None:
        """A label outside the vocabulary is read: the first is noted."""
        if self.outside is None:
            self.outside = LabelOutside(where, side, case_id, value, index, hint)

    def handed_over(self, index: int) -> None:
        """The row holding the first label outside the vocabulary is handed over as row
        ``index``."""
        outside = self.outside
        if outside is not None and outside.index is None:
            self.outside = LabelOutside(
                outside.where, outside.side, outside.case_id, outside.value, index, outside.hint
            )
