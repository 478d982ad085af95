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
from collections.abc import Callable
from dataclasses import dataclass

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.evaluator import Evidence, RowId, RowLabel
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import nearest
from pytest_rubric.core.numbers import int_text
from pytest_rubric.core.shown import describe, show
from pytest_rubric.descriptions.keypaths import index_of
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import LedgerError
from pytest_rubric.inputs.groups import MAX_GROUPS, GroupTally

#: How a judgement without a grader (its ``grader`` path leads nowhere) is counted.
NO_GRADER = "(no grader)"


def grader_shown(value: object) -> str:
    """A grader as an export holds it, shown as data: text quoted and escaped as IDs
    are (``'editor '``, ``'editor\\u200b'``), anything else as JSON (``7``)."""
    if type(value) is str:
        return escape_controls(repr(value))
    return show(value)


def nearest_grader(name: object, found: dict[str, object]) -> str | None:
    """The grader among ``found`` (shown -> as held) most likely meant by ``name``, as a
    suggestion: the same text held as a number (or a number held as text), a name
    that holds it (Prodigy saves the session ``alice`` as ``dataset-alice``), or the
    nearest text."""
    text = name if type(name) is str else show(name)
    for shown, held in found.items():
        if type(held) in (int, float) and type(name) is str and show(held) == name:
            return f"{shown} (a number there: write it unquoted, {show(held)})"
        if type(held) is str and type(name) in (int, float) and held == text:
            return f"{shown} (text there: write it quoted, '{held}')"
    words = {held: shown for shown, held in found.items() if type(held) is str}
    folded = text.casefold()
    holding = sorted((held for held in words if folded and folded in held.casefold()), key=len)
    if holding:
        return words[holding[0]]
    close = nearest(text, words)
    return None if close is None else words[close]


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
    #: The first row handed over whose ID is an integer: its index, place and ID.
    int_id: tuple[int, str, int] | None = None
    #: ``group_by`` as written, and the groups of a ledger read whole (each as the
    #: report's ``review.groups`` holds it), in the order of their first row.
    group_by: str | None = None
    groups: tuple[dict[str, JSON], ...] | None = None
    #: The case's problem when no row holds the ``group_by`` path (a problem only beside
    #: a valid answer: the groups of an invalid ledger are not shown anyway).
    group_nowhere: str | None = None

    def problem(self) -> str | None:
        """The first label outside the vocabulary, in words, naming row, value and labels."""
        outside = self.outside
        if outside is None:
            return None
        shown = describe(outside.value)
        case_id = outside.case_id
        named = "" if type(case_id) is not str else f" (id {escape_controls(repr(case_id))})"
        head = (
            f"{outside.where}: the label of {outside.side}{named} is {shown}, which is not one "
            f"of the ledger's labels: {self.vocabulary}"
        )
        if outside.hint is not None:
            return f"{head}; {outside.hint}"
        return (
            f"{head}; labels are compared exactly (no case folding, no trimming): add it to "
            "'labels' if the export means it, or fix the row"
        )

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
            total = sum(count for _, count in self.left_out)
            kind = "judgement" if self.judged is not None else "row"
            why = "; ".join(f"{reason}: {count}" for reason, count in self.left_out)
            facts["left out"] = f"{total} {kind}{'' if total == 1 else 's'} by 'where' ({why})"
        if self.sides:
            facts["IDs"] = ", ".join(
                f"{side} {count} ({name})"
                for side, (name, count) in zip("ab", self.sides, strict=False)
            )
            if self.one_side:
                facts["on one side only"] = ", ".join(self.one_side)
        if self.ignored:
            total = sum(count for _, count in self.ignored)
            by = ", ".join(f"{name} {count}" for name, count in self.ignored[:5])
            if len(self.ignored) > 5:
                by += f", and {len(self.ignored) - 5} more graders"
            facts["ignored judgements"] = f"{total} by graders other than a and b ({by})"
        if self.judged is not None and self.judged.count(0) == 1:
            side = "a" if self.judged[0] == 0 else "b"
            name = self.names[0 if side == "a" else 1]
            meant = nearest_grader(name, dict(self.graders))
            facts["judged nothing"] = (
                f"{side} ({grader_shown(name)}): no judgement is by that grader"
                + ("" if meant is None else f"; did you mean {meant}?")
            )
        return facts

    def applied_to(self, evidence: Evidence | None) -> Evidence | None:
        """``evidence`` with these notes: other graders' judgements among its facts, and a
        label outside the vocabulary named in its problem: in place of the evaluator's
        words when ``evidence.about`` is that row's label, after them otherwise (an
        identity problem, another row, the other side)."""
        facts, outside = self.facts(), self.problem()
        if self.group_by is not None and evidence is not None and evidence.problem is None:
            label = f"by {escape_controls(self.group_by)}"
            if self.groups is not None:
                facts[label] = group_facts(self.groups)
            elif self.whole:
                facts[label] = (
                    f"not broken down: the rows fall into more than {MAX_GROUPS:,} groups "
                    "(a group_by is for a handful of values: desks, weeks, rubric versions)"
                )
        int_id = self.int_id
        if (
            int_id is not None
            and evidence is not None
            and evidence.about == RowId(int_id[0])
            and type(evidence.about) is RowId
        ):
            index, where, value = int_id
            evidence = Evidence(
                facts=evidence.facts,
                problem=f"{where} rows[{index}].id is {int_text(value)} (a number), and an ID "
                "is text; read the export's integer IDs as their decimal text with 'ids: "
                "as-text' under 'ledger:'",
                about=evidence.about,
            )
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


def _groups(tally: GroupTally) -> tuple[dict[str, JSON], ...] | None:
    found = tally.groups()
    return None if found is None else tuple(found)


def group_facts(groups: tuple[dict[str, JSON], ...]) -> dict[str, JSON]:
    """The groups as evidence shows them: by label, each group's matrix, agreement over
    total and disagreement IDs, in the order of their first row."""
    return {
        str(group["label"]): {
            "matrix": group["matrix"],
            "agreement": f"{group['agreement']}/{group['total']}",
            "disagreements": group["disagreements"],
        }
        for group in groups
    }


class Findings:
    """The notes one pass takes as it reads (each pass its own: a second pass, to find a
    repeated ID's first place, takes its own and leaves the first's alone)."""

    __slots__ = (
        "dotted",
        "graders",
        "groups",
        "ignored",
        "int_id",
        "judged",
        "left_out",
        "names",
        "nowhere",
        "one_side",
        "outside",
        "sides",
        "ungraded",
        "whole",
    )

    def __init__(self) -> None:
        self.outside: LabelOutside | None = None
        self.ignored: Counter[str] = Counter()
        self.whole = False
        #: One row per judgement: see :class:`ReadNotes`; and the first judgement
        #: without a grader, with where it is.
        self.judged: tuple[int, int] | None = None
        self.names: tuple[JSON, JSON] = (None, None)
        self.graders: dict[str, object] = {}
        self.ungraded: tuple[str, dict[str, object]] | None = None
        self.left_out: dict[str, int] = {}
        #: A join's: see :class:`ReadNotes`.
        self.sides: tuple[tuple[str, int], ...] = ()
        self.one_side: list[str] = []
        self.dotted: str | None = None
        self.int_id: tuple[int, str, int] | None = None
        #: ``group_by``: the groups of the rows handed over; the case's problem when no
        #: row holds its path.
        self.groups: GroupTally | None = None
        self.nowhere: str | None = None

    def note_id(self, index: int, case_id: object, where: Callable[[], str]) -> None:
        """Row ``index`` is handed over with ``case_id``: the first integer is noted."""
        if type(case_id) is int and self.int_id is None:
            self.int_id = (index, where(), case_id)

    def label_outside(
        self,
        where: str,
        side: str,
        case_id: object,
        value: object,
        index: int | None,
        hint: str | None = None,
    ) -> None:
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

    def notes(self, vocabulary: str) -> ReadNotes:
        return ReadNotes(
            vocabulary,
            self.outside,
            tuple(self.ignored.most_common()),
            self.whole,
            self.judged,
            self.names,
            tuple(self.graders.items()),
            tuple(self.left_out.items()),
            self.sides,
            tuple(self.one_side),
            self.dotted,
            self.int_id,
            None if self.groups is None else self.groups.path.written,
            None if self.groups is None or not self.whole else _groups(self.groups),
            self.nowhere,
        )


def no_judgement_error(ledger: Ledger, findings: Findings, case_file: str) -> LedgerError:
    """The case's problem when neither a nor b judged anything although the export holds
    judgements: the ledger would be empty, which would pass as an answer. Names the
    graders found and the nearest to what was written; when no judgement has a grader at
    all, what the ``grader`` path meets in the first judgement."""
    assert ledger.grader is not None
    ignored = findings.ignored
    if findings.ungraded is not None and set(ignored) == {NO_GRADER}:
        where, judgement = findings.ungraded
        path = ledger.grader
        return LedgerError(
            f"{case_file}:{path.at[0]}:{path.at[1]}: ledger 'grader' is "
            f"{escape_controls(repr(path.written))}, which finds no grader in any of the "
            f"{sum(ignored.values())} judgements, so the ledger would be empty: "
            f"{path_break(path.parts, judgement, where)}"
        )
    found = ", ".join(
        f"{name} ({count} judgement{'' if count == 1 else 's'})"
        for name, count in ignored.most_common(10)
    )
    if len(ignored) > 10:
        found += f", and {len(ignored) - 10} more"
    meant = [
        f"{side}: {close}"
        for side, name in (("a", ledger.a_name), ("b", ledger.b_name))
        if (close := nearest_grader(name, findings.graders)) is not None
    ]
    hint = f"; did you mean {' and '.join(meant)}?" if meant else "; name two of them"
    return LedgerError(
        f"{case_file}:{ledger.a.at[0]}:{ledger.a.at[1]}: no judgement is by a "
        f"({grader_shown(ledger.a_name)}) or b ({grader_shown(ledger.b_name)}), so the ledger "
        f"would be empty; graders are compared exactly as the export holds them, and the "
        f"graders found are {found}{hint}"
    )


def path_break(parts: tuple[str, ...], judgement: dict[str, object], where: str) -> str:
    """Where the key path ``parts`` stops in ``judgement`` (read at ``where``), and what
    to write instead."""
    value: object = judgement
    for depth, part in enumerate(parts):
        reached = ".".join(parts[:depth])
        if type(value) is list:
            index = index_of(part)
            size = f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
            return (
                f"{where} holds {size} at {escape_controls(repr(reached))}, which has no "
                f"item {escape_controls(part)}; name the item (from 0) or the key that holds "
                "each judgement's grader"
                if index is not None
                else f"{where} holds {size} at {escape_controls(repr(reached))}, which a key "
                f"path indexes by number, not by {escape_controls(repr(part))}"
            )
        if type(value) is not dict:
            return (
                f"{where} holds {describe(value)} at {escape_controls(repr(reached))}, not a mapping; name the "
                "key that holds each judgement's grader"
            )
        if part not in value:
            rest = ".".join(parts[depth:])
            if depth + 1 < len(parts) and rest in value:
                return (
                    f"{where} holds {escape_controls(repr(rest))} as one key"
                    + (f" under {escape_controls(repr(reached))}" if reached else "")
                    + "; a dotted name is a key path, each dot a step into a value: write "
                    f"the key that holds dots in the list form ('grader: [{'' if not reached else reached + ', '}{escape_controls(rest)}]')"
                )
            keys = [key for key in value if isinstance(key, str)]
            shown = ", ".join(escape_controls(repr(key)) for key in keys[:20]) or "no keys"
            close = nearest(part, keys)
            at = f" under {escape_controls(repr(reached))}" if reached else ""
            hint = (
                f"did you mean {escape_controls(repr(close))}?"
                if close
                else "name the key that holds each judgement's grader"
            )
            return f"{where} has no key {escape_controls(repr(part))}{at} (it has {shown}); {hint}"
        value = value[part]
    return f"{where} has no grader there"
