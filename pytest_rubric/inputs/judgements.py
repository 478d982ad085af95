"""An export's rows as the judgements and rows a ``ledger:`` block keeps.

- **Judgements in lists.** With ``rows: per-judgement``, a row may hold several
  judgements. When the ``grader`` and ``label`` paths run through one list
  (``annotations.completed_by`` and ``annotations.result.0.value.choices.0``), each item
  of that list is one judgement; when both end in lists of one length
  (``[verdict.responses.users]`` and ``[verdict.responses]``), their items are paired by
  position, and so are the items of a ``where`` path that ends in a list of that length
  (Argilla's ``[verdict.responses.status]``). Each judgement is handed on as the row
  with each list's place holding its one item, so every key path reads it as it reads
  a row of its own.
- **where.** Only the rows (or judgements) where every named path holds exactly the
  value given are kept; the others are counted by the first condition they fail.
- **overlap: both-judged.** A panel's pair keeps the cases both of it judged: of one
  row per case, those where both labels are there (the key present, not ``null``, not
  an empty cell); of one row per judgement, those a judgement by each names. The cases
  one grader judged alone are counted (``Findings.alone``: a's, b's), never dropped
  silently, and a pair that judged no case in common is a problem of its case, never an
  empty ledger.

This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath, getter, index_of, walk_steps
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import dotted_words, misfit
from pytest_rubric.descriptions.selection import Conditions, id_reader
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.formats.base import InputFile

if TYPE_CHECKING:
    from pytest_rubric.inputs.findings import Findings

Steps = tuple[tuple[str, int | None], ...]


class _Paths(NamedTuple):
    """The paths a judgement is split along: the grader's and the label's, as written and
    as steps, and each ``where`` path's steps (``beside``) with the path."""

    grader: KeyPath
    label: KeyPath
    grader_steps: Steps
    label_steps: Steps
    beside: tuple[Steps, ...]
    where_paths: tuple[KeyPath, ...]


def steps_of(path: KeyPath) -> Steps:
    return tuple((part, index_of(part)) for part in path.parts)


def kept_rows(rows: Iterable[object], conditions: Conditions) -> Iterator[object]:
    """The rows ``conditions`` keep (a row that is not a mapping is kept: the evaluator
    names it)."""
    kept = conditions.kept
    for row in rows:
        if type(row) is not dict or kept(row):
            yield row


def judgements_of(
    rows: Iterable[object],
    grader: KeyPath,
    label: KeyPath,
    conditions: Conditions,
    where: Callable[[], str],
    findings: Findings | None = None,
) -> Iterator[object]:
    """Each row's judgements, as the module says, those ``conditions`` keep; ``where()``
    names the row just read (for lists of unequal length). Once every row is read,
    ``findings.split`` holds how many rows were read and how many judgements they held
    (before ``where``: a row holding an empty list holds none)."""
    grader_steps, label_steps = steps_of(grader), steps_of(label)
    where_paths = conditions.paths
    beside = tuple(steps_of(path) for path in where_paths)
    kept = conditions.kept if conditions.checks else None
    # The usual export: its judgements in a list under one key of the row (Label Studio's
    # annotations, SageMaker's workers), both paths running on inside its items.
    through = grader_steps[0][0] if grader_steps[0][1] is None else None
    paths = _Paths(grader, label, grader_steps, label_steps, beside, where_paths)
    shared = (
        through is not None
        and len(grader_steps) > 1
        and grader_steps[1][1] is None  # the next part a key: the list is run through
        and len(label_steps) > 1
        and label_steps[0] == grader_steps[0]
    )
    read = held = 0
    for row in rows:
        read += 1
        if type(row) is not dict:
            held += 1  # the evaluator names it
            yield row
            continue
        items = row.get(through, ABSENT) if shared else ABSENT
        if type(items) is list:
            held += len(items)
            for item in items:
                copy = row.copy()
                copy[through] = item
                if kept is None or kept(copy):
                    yield copy
            continue
        for judgement in _split(row, paths, where):
            held += 1
            if kept is None or kept(judgement):
                yield judgement
    if findings is not None:
        findings.split = (read, held)


def _split(row: dict[str, object], paths: _Paths, where: Callable[[], str]) -> Iterator[object]:
    grader, label, grader_steps, label_steps, beside, where_paths = paths
    value: object = row
    for depth, (part, index) in enumerate(grader_steps):
        kind = type(value)
        if kind is list and index is None:  # the grader path runs through a list here
            if label_steps[:depth] != grader_steps[:depth] or len(label_steps) <= depth:
                raise RubricInputError(
                    f"{where()}: the grader path {_shown(grader)} runs through the list at "
                    f"{_shown_parts(grader.parts[:depth])}, one judgement an item, but the "
                    f"label path {_shown(label)} does not; name each judgement's label "
                    "inside the same list"
                )
            for item in value:  # type: ignore[attr-defined]
                yield _replaced(row, grader_steps[:depth], item)
            return
        if kind is dict:
            value = value.get(part, ABSENT)  # type: ignore[attr-defined]
        elif kind is list and index < len(value):  # type: ignore[arg-type, operator]
            value = value[index]  # type: ignore[index]
        else:
            value = ABSENT
        if value is ABSENT:
            break
    if type(value) is list:
        labels = walk_steps(row, label_steps)
        if labels is ABSENT and len(label.parts) > 1 and label.column in row:
            raise RubricInputError(f"{where()}: {dotted_words('label', label, 'the row holds')}")
        if type(labels) is not list:
            raise RubricInputError(
                f"{where()}: the grader path {_shown(grader)} ends in a list of "
                f"{len(value)} graders, but the label path {_shown(label)} holds "
                f"{'nothing' if labels is ABSENT else 'no list'}; with judgements in two "
                "lists, both paths end in lists of one length"
            )
        if len(labels) != len(value):
            raise RubricInputError(
                f"{where()}: the grader path {_shown(grader)} holds {len(value)} items and "
                f"the label path {_shown(label)} {len(labels)}; judgements in two lists are "
                "paired by position, so both lists need one length"
            )
        size = len(value)
        paired = [(grader_steps, value), (label_steps, labels)]
        for steps, path in zip(beside, where_paths, strict=True):  # where's lists go with them
            held = walk_steps(row, steps)
            if type(held) is list:
                if len(held) != size:
                    raise RubricInputError(
                        f"{where()}: the grader path {_shown(grader)} holds {size} items and "
                        f"the 'where' path {_shown(path)} {len(held)}; judgements in lists "
                        "are paired by position, so every list needs one length"
                    )
                paired.append((steps, held))
        for position in range(size):
            judgement: object = row
            for steps, items in paired:
                judgement = _replaced(judgement, steps, items[position])
            yield judgement
        return
    yield row


def _replaced(value: object, steps: Sequence[tuple[str, int | None]], item: object) -> object:
    """A copy of ``value`` along ``steps`` (each mapping or list on the way copied, the
    rest shared) with ``item`` where the steps lead."""
    if not steps:
        return item
    (part, index), rest = steps[0], steps[1:]
    if type(value) is dict:
        copy = dict(value)
        copy[part] = _replaced(value.get(part), rest, item)
        return copy
    if type(value) is list and index is not None and index < len(value):
        items = list(value)
        items[index] = _replaced(value[index], rest, item)
        return items
    return value


def _shown(path: KeyPath) -> str:
    return escape_controls(repr(path.written))


def _shown_parts(parts: Sequence[str]) -> str:
    return escape_controls(repr(".".join(parts)))


def judged(value: object) -> bool:
    """Whether a label cell holds a judgement: there, not ``null``, not an empty cell."""
    return value is not ABSENT and value is not None and value != ""


class BothJudged:
    """Which rows of a pair's ledger its ``overlap: both-judged`` keeps (every row where
    it is not given), counting the rows each of the pair judged alone."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.on = ledger.both_judged is not None
        self.alone = [0, 0]
        self.kept = 0

    def keeps(self, by_a: bool, by_b: bool) -> bool:
        """Whether a row judged by a (``by_a``) and by b (``by_b``) is kept."""
        if not self.on or (by_a and by_b):
            self.kept += 1
            return True
        self.alone[0] += by_a
        self.alone[1] += by_b
        return False

    def close(self, findings: Findings, case_file: str) -> None:
        """Once every row is read: ``findings.alone``; a pair that judged no case in
        common is the case's problem, never an empty ledger."""
        if self.on:
            findings.alone = (self.alone[0], self.alone[1])
            if not self.kept:  # an export without rows too: both judged no case
                raise _nothing_in_common(self.ledger, *findings.alone, case_file)


def both_judged_rows(
    rows: Iterable[object], ledger: Ledger, findings: Findings, case_file: str
) -> Iterator[object]:
    """The rows of one row per case whose a and b both judged (anything not a mapping
    kept: the evaluator names it); the others counted in ``findings.alone``."""
    get_a, get_b = getter(ledger.a), getter(ledger.b)
    overlap = BothJudged(ledger)
    keeps = overlap.keeps
    for row in rows:
        if type(row) is dict:
            by_a, by_b = judged(get_a(row)), judged(get_b(row))
        else:
            by_a = by_b = True  # kept: the evaluator names it
        if keeps(by_a, by_b):
            yield row
    overlap.close(findings, case_file)


def both_judged_judgements(
    judgements: Iterable[object], file: InputFile, findings: Findings, case_file: str
) -> Iterator[object]:
    """The judgements of ``file``'s one row per judgement of the cases a and b both
    judged (and every other grader's, and anything not a mapping, which the pairing
    counts or names); the judgements are read afresh, once, to find which cases each
    judged."""
    ledger = file.ledger
    assert ledger is not None
    assert ledger.grader is not None
    assert ledger.label is not None
    get_grader, get_id = getter(ledger.grader), id_reader(ledger.id, ledger.selection)
    names = (ledger.a_name, ledger.b_name)
    by: tuple[set[object], set[object]] = (set(), set())
    named = lambda: file.display  # noqa: E731  (a fresh pass names no row)
    fresh = file.reader.rows(file, case_file, Cursor())
    kept = Conditions(ledger.selection.where, named)
    seen = 0
    for judgement in judgements_of(fresh, ledger.grader, ledger.label, kept, named):
        seen += 1
        if type(judgement) is dict:
            side = _side(get_grader(judgement), names)
            case_id = get_id(judgement)
            if side is not None and _hashable(case_id):
                by[side].add(case_id)
    both = by[0] & by[1]
    findings.alone = (len(by[0] - both), len(by[1] - both))
    # Neither judging while others did is the pairing's to say (it names who did).
    if not both and (by[0] or by[1] or not seen):
        raise _nothing_in_common(ledger, *findings.alone, case_file)
    for judgement in judgements:
        if type(judgement) is dict and _side(get_grader(judgement), names) is not None:
            case_id = get_id(judgement)
            if _hashable(case_id) and case_id not in both:
                continue
        yield judgement


def _side(grader: object, names: tuple[object, object]) -> int | None:
    """0 for grader a, 1 for b (strict JSON equality, never a Boolean), else ``None``."""
    for side, name in enumerate(names):
        if grader == name and type(grader) is not bool:  # as the pairing matches graders
            return side
    return None


def _hashable(value: object) -> bool:
    """Whether a case ID can be counted as a case: text or a number (the evaluator's
    identity rule says what is wrong with any other)."""
    return type(value) in (str, int, float)


def _nothing_in_common(ledger: Ledger, alone_a: int, alone_b: int, case_file: str) -> Exception:
    """The case's problem when a pair judged no case in common: never an empty ledger."""
    a, b = ledger.graders or ("a", "b")
    return misfit(
        case_file,
        ledger.both_judged or ledger.labels_at,
        f"with 'overlap: both-judged', {a} and {b} judged no case in common ({a} judged "
        f"{alone_a} alone, {b} {alone_b}), so their ledger would be empty; check the panel's "
        "names, or leave this pair out of the panel",
    )
