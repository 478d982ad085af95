"""What reading an export found that the evaluator cannot see, as a frozen value.

:meth:`ReadNotes.of` copies one pass's :class:`~pytest_rubric.inputs.findings.Findings`
once the pass is over; :meth:`ReadNotes.applied_to` adds them to the evaluator's
:class:`Evidence`, in the words of :mod:`~pytest_rubric.inputs.notewords`:

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

from dataclasses import dataclass

from pytest_rubric.core.evaluator import Evidence, RowId, RowLabel
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.inputs.findings import Findings, LabelOutside, NumberId
from pytest_rubric.inputs.notewords import (
    NOT_BROKEN_DOWN,
    also,
    group_fact_name,
    group_facts,
    ignored_fact,
    judged_nothing_fact,
    left_out_fact,
    number_id_problem,
    outside_problem,
    sides_fact,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadNotes:
    """What one reading of an export found: the first label outside the vocabulary
    (``vocabulary`` says the labels in words), the judgements of other graders by name,
    most first, and whether the export was read to its end (only then are they a count
    of it: an identity problem stops the reading where it is found)."""

    vocabulary: str
    outside: LabelOutside | None = None
    ignored: tuple[tuple[str, int], ...] = ()
    whole: bool = False
    #: One row per judgement: how many judgements a and b each gave, their names as the
    #: ledger writes them, and the other graders found (shown -> as held).
    judged: tuple[int, int] | None = None
    names: tuple[JSON, JSON] = (None, None)
    graders: tuple[tuple[str, object], ...] = ()
    #: The rows (or judgements) ``where`` left out, by the first condition each failed.
    left_out: tuple[tuple[str, int], ...] = ()
    #: A join's sides: each file's count of IDs, and the first IDs found on one side only.
    sides: tuple[tuple[str, int], ...] = ()
    one_side: tuple[str, ...] = ()
    #: A key path that leads nowhere where a row holds its dotted text as one key.
    dotted: str | None = None
    #: The first row handed over whose ID is a number.
    number_id: NumberId | None = None
    #: ``group_by`` as written, and the groups of a ledger read whole (each as the
    #: report's ``review.groups`` holds it), in the order of their first row.
    group_by: str | None = None
    groups: tuple[dict[str, JSON], ...] | None = None
    #: The case's problem when no row holds the ``group_by`` path (a problem only beside
    #: a valid answer: the groups of an invalid ledger are not shown anyway).
    group_nowhere: str | None = None
    #: ``overlap: both-judged``: how many cases a and b each judged alone.
    alone: tuple[int, int] | None = None

    @classmethod
    def of(cls, findings: Findings, vocabulary: str) -> ReadNotes:
        """The notes ``findings`` took, frozen; ``vocabulary`` says the labels in words."""
        tally = findings.groups
        found = None if tally is None or not findings.whole else tally.groups()
        return cls(
            vocabulary=vocabulary,
            outside=findings.outside,
            ignored=tuple(findings.ignored.most_common()),
            whole=findings.whole,
            judged=findings.judged,
            names=findings.names,
            graders=tuple(findings.graders.items()),
            left_out=tuple(findings.left_out.items()),
            sides=findings.sides,
            one_side=tuple(findings.one_side),
            dotted=findings.dotted,
            number_id=findings.number_id,
            group_by=None if tally is None else tally.path.written,
            groups=None if found is None else tuple(found),
            group_nowhere=findings.group_nowhere,
            alone=findings.alone,
        )

    def problem(self) -> str | None:
        """The first label outside the vocabulary, in words, naming row, value and labels."""
        outside = self.outside
        return None if outside is None else outside_problem(outside, self.vocabulary)

    def label(self) -> RowLabel | None:
        """Which row's label, among the rows handed over, is the first outside the vocabulary."""
        outside = self.outside
        if outside is None or outside.index is None:
            return None
        return RowLabel(outside.index, outside.side)

    def facts(self) -> dict[str, JSON]:
        """The judgements of other graders, counted, and a grader of a and b who judged
        nothing, when the export was read whole."""
        if not self.whole:
            return {}
        facts: dict[str, JSON] = {}
        if self.dotted is not None:
            facts["key path"] = self.dotted
        if self.left_out:
            facts["left out"] = left_out_fact(self.left_out, self.judged is not None)
        if self.sides:
            facts["IDs"] = sides_fact(self.sides)
            if self.one_side:
                facts["on one side only"] = ", ".join(self.one_side)
        if self.alone is not None:
            facts["judged alone"] = f"a {self.alone[0]}, b {self.alone[1]} (left out)"
        if self.ignored:
            facts["ignored judgements"] = ignored_fact(self.ignored)
        if self.judged is not None and self.judged.count(0) == 1:
            side = "a" if self.judged[0] == 0 else "b"
            name = self.names[0 if side == "a" else 1]
            facts["judged nothing"] = judged_nothing_fact(side, name, dict(self.graders))
        return facts

    def applied_to(self, evidence: Evidence | None) -> Evidence | None:
        """``evidence`` with these notes: other graders' judgements among its facts, and a
        label outside the vocabulary named in its problem: in place of the evaluator's
        words when ``evidence.about`` is that row's label, after them otherwise (an
        identity problem, another row, the other side)."""
        facts, outside = self.facts(), self.problem()
        if self.group_by is not None and evidence is not None and evidence.problem is None:
            if self.groups is not None:
                facts[group_fact_name(self.group_by)] = group_facts(self.groups)
            elif self.whole:
                facts[group_fact_name(self.group_by)] = NOT_BROKEN_DOWN
        number_id = self.number_id
        if (
            number_id is not None
            and evidence is not None
            and evidence.about == RowId(number_id.row)
            and type(evidence.about) is RowId
        ):
            evidence = Evidence(
                facts=evidence.facts, problem=number_id_problem(number_id), about=evidence.about
            )
        if not facts and (outside is None or evidence is None or evidence.problem is None):
            return evidence
        base = evidence or Evidence()
        problem = base.problem
        if outside is not None and problem is not None:
            about = base.about
            problem = (
                outside if about is not None and about == self.label() else also(problem, outside)
            )
        return Evidence(facts={**base.facts, **facts}, problem=problem, about=base.about)
