"""``overlap: both-judged``: a panel's pair keeps the cases both of it judged.

A case is judged by a grader of one row per case when the grader's label is there (its
key present, not ``null``, not an empty cell); of one row per judgement, when a
judgement by that grader names the case. The cases one grader judged alone are counted
(``Findings.alone``: a's, b's), never dropped silently, and a pair that judged no case
in common is a problem of its case, never an empty ledger. The rows kept are read as
any ledger's are: the answer is the two-grader answer over the cases both judged. This
module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from pytest_rubric.descriptions.keypaths import ABSENT, getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import misfit
from pytest_rubric.descriptions.selection import id_reader
from pytest_rubric.inputs.findings import Findings


def judged(value: object) -> bool:
    """Whether a label cell holds a judgement: there, not ``null``, not an empty cell."""
    return value is not ABSENT and value is not None and value != ""


def both_judged_rows(
    rows: Iterable[object], ledger: Ledger, findings: Findings, case_file: str
) -> Iterator[object]:
    """The rows of one row per case whose a and b both judged (anything not a mapping
    kept: the evaluator names it); the others counted in ``findings.alone``."""
    get_a, get_b = getter(ledger.a), getter(ledger.b)
    alone_a = alone_b = kept = seen = 0
    for seen, row in enumerate(rows, 1):  # noqa: B007  (how many were read, after the loop)
        if type(row) is dict:
            by_a, by_b = judged(get_a(row)), judged(get_b(row))
            if not (by_a and by_b):
                alone_a += by_a
                alone_b += by_b
                continue
        kept += 1
        yield row
    findings.alone = (alone_a, alone_b)
    if seen and not kept:
        raise _nothing_in_common(ledger, alone_a, alone_b, case_file)


def both_judged_judgements(
    judgements: Iterable[object],
    again: Callable[[], Iterable[object]],
    ledger: Ledger,
    findings: Findings,
    case_file: str,
) -> Iterator[object]:
    """The judgements of one row per judgement of the cases a and b both judged (and
    every other grader's and anything not a mapping, which the pairing counts or
    names); ``again()`` reads the judgements afresh, once, to find which cases each
    judged."""
    assert ledger.grader is not None
    get_grader, get_id = getter(ledger.grader), id_reader(ledger.id, ledger.selection)
    names = (ledger.a_name, ledger.b_name)
    by: tuple[set[object], set[object]] = (set(), set())
    for judgement in again():
        if type(judgement) is dict:
            side = _side(get_grader(judgement), names)
            case_id = get_id(judgement)
            if side is not None and _hashable(case_id):
                by[side].add(case_id)
    both = by[0] & by[1]
    findings.alone = (len(by[0] - both), len(by[1] - both))
    if not both and (by[0] or by[1]):
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
