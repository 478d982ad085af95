"""What reading an export found, in words: the problems and facts of
:class:`~pytest_rubric.inputs.readnotes.ReadNotes`, and the case's problem when an
export's judgements fit no grader of its ``ledger:`` block (:func:`no_judgement_error`),
or its rows hold no judgement at all (:func:`nothing_judged_error`).
"""

from __future__ import annotations

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import nearest
from pytest_rubric.core.numbers import int_text
from pytest_rubric.core.shown import describe, show
from pytest_rubric.descriptions.keypaths import index_of
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import LedgerError, misfit
from pytest_rubric.inputs.findings import (
    NO_GRADER,
    Findings,
    LabelOutside,
    NumberId,
    grader_shown,
)
from pytest_rubric.inputs.groups import MAX_GROUPS

#: The groups fact of a ledger read whole whose rows hold too many values to be grouped.
NOT_BROKEN_DOWN = (
    f"not broken down: the rows fall into more than {MAX_GROUPS:,} groups "
    "(a group_by is for a handful of values: desks, weeks, rubric versions)"
)


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


def outside_problem(outside: LabelOutside, vocabulary: str) -> str:
    """The first label outside the vocabulary, in words naming row, value and labels
    (``vocabulary``: the labels as people read them)."""
    case_id = outside.case_id
    named = "" if type(case_id) is not str else f" (id {escape_controls(repr(case_id))})"
    head = (
        f"{outside.where}: the label of {outside.side}{named} is {describe(outside.value)}, "
        f"which is not one of the ledger's labels: {vocabulary}"
    )
    if outside.hint is not None:
        return f"{head}; {outside.hint}"
    return (
        f"{head}; labels are compared exactly (no case folding, no trimming): add it to "
        "'labels' if the export means it, or fix the row"
    )


def also(problem: str, outside: str) -> str:
    """The evaluator's ``problem`` with the reading's words about another label after it."""
    return f"{problem}; and {outside}"


def number_id_problem(number_id: NumberId) -> str:
    """The problem of the first number ID handed over, in place of the evaluator's
    (which tells a case file to quote it): for an integer, the ``ids:`` that reads it as
    text, in its own block; for any other number, that the export must write its IDs
    as text, since ``ids: as-text`` reads integers only."""
    index, where, value, ids_go = number_id
    shown = int_text(value) if type(value) is int else show(value)
    head = f"{where} rows[{index}].id is {shown} (a number), and an ID is text; "
    if type(value) is int:
        return (
            f"{head}read the export's integer IDs as their decimal text with 'ids: as-text' "
            f"{ids_go}"
        )
    return (
        f"{head}write the IDs as text in the export itself: 'ids: as-text', {ids_go}, "
        f"reads integers only, never {shown}"
    )


def left_out_fact(left_out: tuple[tuple[str, int], ...], per_judgement: bool) -> str:
    """The rows (or judgements) ``where`` left out, counted by the first condition each
    failed."""
    total = sum(count for _, count in left_out)
    kind = "judgement" if per_judgement else "row"
    why = "; ".join(f"{reason}: {count}" for reason, count in left_out)
    return f"{total} {kind}{'' if total == 1 else 's'} by 'where' ({why})"


def sides_fact(sides: tuple[tuple[str, int], ...]) -> str:
    """A join's sides: each file's count of IDs."""
    return ", ".join(
        f"{side} {count} ({name})" for side, (name, count) in zip("ab", sides, strict=False)
    )


def ignored_fact(ignored: tuple[tuple[str, int], ...]) -> str:
    """The judgements of graders other than a and b, counted, the most first."""
    total = sum(count for _, count in ignored)
    by = ", ".join(f"{name} {count}" for name, count in ignored[:5])
    if len(ignored) > 5:
        by += f", and {len(ignored) - 5} more graders"
    return f"{total} by graders other than a and b ({by})"


def judged_nothing_fact(side: str, name: JSON, graders: dict[str, object]) -> str:
    """Grader ``side`` (its ``name`` as the ledger writes it) judged nothing: the nearest
    of the other ``graders`` found (shown -> as held), if any."""
    meant = nearest_grader(name, graders)
    return f"{side} ({grader_shown(name)}): no judgement is by that grader" + (
        "" if meant is None else f"; did you mean {meant}?"
    )


def group_fact_name(group_by: str) -> str:
    """The name of the groups' fact: ``group_by`` as written."""
    return f"by {escape_controls(group_by)}"


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


def nothing_judged_error(ledger: Ledger, rows: int, export: str, case_file: str) -> LedgerError:
    """The case's problem when the ``rows`` read from ``export`` hold no judgement at all
    (each one's list of judgements empty: a project nobody has labelled yet): a and b
    judged nothing, and the ledger would be empty, which would pass as an answer."""
    grader = ledger.grader
    assert grader is not None
    read, each = (
        (f"the one row (task) read from {export} holds no judgement", "in it")
        if rows == 1
        else (f"none of the {rows} rows (tasks) read from {export} holds a judgement", "in each")
    )
    return misfit(
        case_file,
        grader.at,
        f"{read}: the list of judgements along 'grader' "
        f"({escape_controls(repr(grader.written))}) is empty {each}, so a and b judged "
        "nothing and the ledger would be empty; compare the export once its tasks are "
        "judged, or name the list that holds its judgements in 'grader' and 'label'",
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
            return _no_key(parts, depth, value, where)
        value = value[part]
    return f"{where} has no grader there"


def _no_key(parts: tuple[str, ...], depth: int, value: dict[str, object], where: str) -> str:
    """Where ``value``, reached at ``depth`` along ``parts``, has no key ``parts[depth]``."""
    part, reached = parts[depth], ".".join(parts[:depth])
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
