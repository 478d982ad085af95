"""A dataset case's rows as cases of their own, read anew at each collection (the case
cache keeps the block, never the rows, so an edited file of rows is always read as it is).

Each row's case is named ``<case id>[<row id>]``; a row whose ID cannot name it is
named by its place (``<case id>[line 7]``; ``[line 7_]`` where a row's ID is that text)
and fails with what is wrong. A block its file does not fit (a column the header lacks,
a ``where`` that keeps no row, no row) is the dataset case's own problem, and so is a
file that cannot be read at all (named at its ``file:``): the case file's other cases
still run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from pytest_rubric.casefiles.cases import Case, RowOf
from pytest_rubric.core.errors import CaseFileError, RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.packed import pack
from pytest_rubric.descriptions.misfits import LedgerError
from pytest_rubric.inputs.datasetrows import dataset_rows


def dataset_cases(case: Case, display: str) -> Iterator[Case]:
    """The cases of ``case``'s dataset rows (``display`` names the case file), or ``case``
    itself when it has problems (its item fails with them)."""
    source = case.dataset
    if source is None or case.problems:
        yield case
        return
    made: list[Case] = []
    refused: dict[int, str] = {}  # each row that cannot be a case (its index): its place
    try:
        for row in dataset_rows(source, display):
            of = RowOf(case.name, row.place, row.expected is not None)
            if row.problem is not None:
                problem = CaseFileError(
                    display, case.line, case.place.col, escape_controls(row.problem)
                )
                refused[len(made)] = row.label
                made.append(replace(case, dataset=None, row=of, problems=(problem,)))
                continue
            assert row.input is not None
            expected = case.packed_expected if row.expected is None else pack(row.expected)
            made.append(
                replace(
                    case,
                    name=f"{case.name}[{row.case_id}]",
                    dataset=None,
                    row=of,
                    packed_input=pack(row.input),
                    packed_expected=expected,
                )
            )
    except LedgerError as exc:
        at = exc.at or (case.line, case.place.col)
        made.append(replace(case, problems=(CaseFileError(display, at[0], at[1], exc.words),)))
    except RubricInputError as exc:  # the file cannot be read at all: named at its 'file:'
        assert source.dataset is not None
        line, col = source.dataset.file_at
        words = escape_controls(f"dataset of case {case.name!r}: {exc}")
        made.append(replace(case, problems=(CaseFileError(display, line, col, words),)))
    yield from _named(made, refused, case.name)


def _named(made: list[Case], refused: dict[int, str], case_name: str) -> list[Case]:
    """``made`` with each row that cannot be a case (``refused``: its index, its place)
    named by its place, ``<case id>[line 7]``. A row that is a case keeps its
    ``<case id>[<row id>]``, known only once every row is read, and a place's name
    yields to it (``[line 7_]``)."""
    taken = {case.name for index, case in enumerate(made) if index not in refused}
    for index, label in refused.items():
        name = f"{case_name}[{label}]"
        while name in taken:
            name = f"{name[:-1]}_]"
        taken.add(name)
        made[index] = replace(made[index], name=name)
    return made
