"""What reading an export found that the evaluator cannot see, as typed values.

A pass over an export's rows (or its label blocks) takes its notes in a
:class:`Findings`; :meth:`Findings.notes` hands them on as a frozen :class:`ReadNotes`,
which :meth:`ReadNotes.applied_to` adds to the evaluator's :class:`Evidence`:

- the judgements of graders other than a and b, counted among the facts, when the
  export was read to its end;
- the first label outside the ledger's vocabulary, in words naming the row, the value
  and the labels. The mapping layer knows which row handed to the evaluator holds it
  (its index) and on which side, a :class:`RowLabel`. An evaluator whose problem is
  about a row's label says so with ``Evidence.about``; when that is the same
  :class:`RowLabel`, the reading's words replace the evaluator's (which cannot know the
  vocabulary), else they are added after them. Nobody reads the evaluator's words.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pytest_rubric.core.evaluator import Evidence, RowLabel
from pytest_rubric.core.jsonvalues import JSON, describe, escape_controls


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


@dataclass(frozen=True, slots=True)
class ReadNotes:
    """What one reading of an export found: the first label outside the vocabulary
    (``vocabulary`` says the labels in words), the judgements of other graders by name,
    most first, and whether the export was read to its end (only then are they a count
    of it: an identity problem stops the reading where it is found)."""

    vocabulary: str
    outside: LabelOutside | None = None
    ignored: tuple[tuple[str, int], ...] = ()
    whole: bool = False

    def problem(self) -> str | None:
        """The first label outside the vocabulary, in words, naming row, value and labels."""
        outside = self.outside
        if outside is None:
            return None
        shown = describe(outside.value)
        case_id = outside.case_id
        named = "" if type(case_id) is not str else f" (id {escape_controls(repr(case_id))})"
        return (
            f"{outside.where}: the label of {outside.side}{named} is {shown}, which is not one "
            f"of the ledger's labels: {self.vocabulary}; labels are compared exactly (no case "
            "folding, no trimming): add it to 'labels' if the export means it, or fix the row"
        )

    def label(self) -> RowLabel | None:
        """Which row's label, among the rows handed over, is the first outside the vocabulary."""
        outside = self.outside
        if outside is None or outside.index is None:
            return None
        return RowLabel(outside.index, outside.side)

    def facts(self) -> dict[str, JSON]:
        """The judgements of other graders, counted, when the export was read whole."""
        if not self.ignored or not self.whole:
            return {}
        total = sum(count for _, count in self.ignored)
        by = ", ".join(f"{name} {count}" for name, count in self.ignored[:5])
        if len(self.ignored) > 5:
            by += f", and {len(self.ignored) - 5} more graders"
        return {
            "ignored judgements": f"{total} by graders other than a and b ({escape_controls(by)})"
        }

    def applied_to(self, evidence: Evidence | None) -> Evidence | None:
        """``evidence`` with these notes: other graders' judgements among its facts, and a
        label outside the vocabulary named in its problem: in place of the evaluator's
        words when ``evidence.about`` is that row's label, after them otherwise (an
        identity problem, another row, the other side)."""
        facts, outside = self.facts(), self.problem()
        if not facts and (outside is None or evidence is None or evidence.problem is None):
            return evidence
        base = evidence or Evidence()
        problem = base.problem
        if outside is not None and problem is not None:
            about = base.about
            problem = (
                outside
                if about is not None and about == self.label()
                else (f"{problem}; and {outside}")
            )
        return Evidence(facts={**base.facts, **facts}, problem=problem, about=base.about)


class Findings:
    """The notes one pass takes as it reads (each pass its own: a second pass, to find a
    repeated ID's first place, takes its own and leaves the first's alone)."""

    __slots__ = ("ignored", "outside", "whole")

    def __init__(self) -> None:
        self.outside: LabelOutside | None = None
        self.ignored: Counter[str] = Counter()
        self.whole = False

    def label_outside(
        self, where: str, side: str, case_id: object, value: object, index: int | None
    ) -> None:
        if self.outside is None:
            self.outside = LabelOutside(where, side, case_id, value, index)

    def handed_over(self, index: int) -> None:
        """The row holding the first label outside the vocabulary is handed over as row
        ``index``."""
        outside = self.outside
        if outside is not None and outside.index is None:
            self.outside = LabelOutside(
                outside.where, outside.side, outside.case_id, outside.value, index
            )

    def notes(self, vocabulary: str) -> ReadNotes:
        return ReadNotes(vocabulary, self.outside, tuple(self.ignored.most_common()), self.whole)
