"""One pass of an export's rows through its ``ledger:`` block: :func:`ledger_rows`.

The rows (or judgements) its ``where`` keeps are mapped into ledger rows, one a case
(:mod:`~pytest_rubric.inputs.ledgermaps`), or paired, one a judgement
(:mod:`~pytest_rubric.inputs.pairing`); the pass's findings are closed at its end.
This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.descriptions.keypaths import ABSENT, getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import LedgerError
from pytest_rubric.descriptions.selection import Conditions
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.judgements import (
    both_judged_judgements,
    both_judged_rows,
    judgements_of,
    kept_rows,
)
from pytest_rubric.inputs.ledgermaps import mapped_rows
from pytest_rubric.inputs.notewords import nothing_judged_error, path_break
from pytest_rubric.inputs.pairing import PairingPlaces, paired_judgements
from pytest_rubric.inputs.passes import Pass, close_groups
from pytest_rubric.inputs.textfiles import unreadable


def ledger_rows(file: InputFile, this: Pass, raw: Iterator[JSON], case_file: str) -> Iterator[JSON]:
    """The ledger rows of ``raw``, the rows pass ``this`` reads from ``file`` (its cursor
    moved by the reading); ``case_file`` names the case file in messages about the block."""
    ledger = file.ledger
    assert ledger is not None
    cursor, findings = this.cursor, this.findings

    def here() -> str:
        """The row just read, by its place in the file (for what reading found)."""
        return file.place(cursor.position)

    conditions = Conditions(ledger.selection.where, here)
    if ledger.per_judgement:
        rows = _paired(file, this, raw, conditions, case_file)
    else:
        if conditions.checks:
            raw = kept_rows(raw, conditions)  # type: ignore[assignment]
        if ledger.both_judged is not None:
            raw = both_judged_rows(raw, ledger, findings, case_file)  # type: ignore[assignment]
        rows = mapped_rows(raw, ledger, findings, here, findings.groups, case_file)
    handed = False
    try:
        for row in rows:
            handed = True
            yield row  # type: ignore[misc]
    except RubricInputError:
        raise
    except Exception as exc:  # mapping a row the reader handed over
        raise unreadable(here(), exc) from None
    if conditions.left_out and not handed:  # never an empty ledger
        raise _none_kept(ledger, conditions, case_file)
    read, held = findings.split
    if read and not held:  # rows read, none holding a judgement: never an empty ledger
        raise nothing_judged_error(ledger, read, file.display, case_file)
    close_groups(findings, file.display, bool(ledger.selection.where), case_file)
    findings.left_out = conditions.left_out
    findings.whole = True


def _paired(
    file: InputFile, this: Pass, raw: Iterator[JSON], conditions: Conditions, case_file: str
) -> Iterator[object]:
    """One row per judgement: the judgements ``conditions`` keep, paired by case; a case
    is named by the line of its first judgement."""
    ledger = file.ledger
    assert ledger is not None
    assert ledger.grader is not None
    assert ledger.label is not None
    here = conditions.where
    assert here is not None
    judgements = judgements_of(raw, ledger.grader, ledger.label, conditions, here, this.findings)
    if ledger.both_judged is not None:
        judgements = both_judged_judgements(judgements, file, this.findings, case_file)
    find_lone = partial(file.reader.lone_judgements, file)
    places = PairingPlaces(this.cursor, here)
    return paired_judgements(judgements, ledger, this.findings, places, find_lone, case_file)


def _none_kept(ledger: Ledger, conditions: Conditions, case_file: str) -> LedgerError:
    """The case's problem when ``where`` keeps nothing: never an empty ledger. When the
    ``grader`` path finds no grader in the first judgement left out either, that is said
    first: ``where`` is then not the slip."""
    grader = ledger.grader
    first = conditions.first_row
    if grader is not None and type(first) is dict and getter(grader)(first) is ABSENT:
        return LedgerError(
            f"{case_file}:{grader.at[0]}:{grader.at[1]}: ledger 'grader' is "
            f"{escape_controls(repr(grader.written))}, which finds no grader, and 'where' "
            "leaves out every judgement, so the ledger would be empty: "
            f"{path_break(grader.parts, first, conditions.first_place)}"
        )
    return conditions.none_kept(case_file, "judgements" if ledger.per_judgement else "rows")
