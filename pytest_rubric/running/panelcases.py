"""A panel case's pairs as cases of their own (:func:`panel_cases`), read anew at each
collection (the case cache keeps the panel case).

Each pair of a ``panel:`` is named ``<case id>[<x> vs <y>]``, in panel order, and reads
the export as a two-grader ledger whose ``a`` is the first of the pair
(:meth:`~pytest_rubric.descriptions.ledger.Ledger.of_pair`): its answer is the
two-grader answer on that pair's rows. Its expected answer is its own under
``expected_pairs``, the case's ``expected_subset`` (every pair's), or its ``expected``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.packed import pack
from pytest_rubric.descriptions.panel import PairOf
from pytest_rubric.inputs.heldsides import HeldSides
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.inputs.panelheld import PanelReads
from pytest_rubric.inputs.source import joined_sides


def panel_cases(
    case: Case, display: str, files: InputFiles, reads: PanelReads | None = None
) -> Iterator[Case]:
    """The cases of ``case``'s pairs (``display`` names the case file; ``files`` finds
    a join's side files), or ``case`` itself when it has no panel, or problems other
    than no expected answer (its item fails with them). The pairs of one export share
    one holder of it read once, held by the run's ``reads``."""
    source = case.input_file
    ledger = None if source is None else source.ledger
    if (
        source is None
        or ledger is None
        or ledger.panel is None
        or any(problem is not case.missing_expected for problem in case.problems)
    ):
        yield case
        return
    panel = ledger.panel
    names = tuple(panel.pair_name(x, y) for x, y in panel.pairs())
    pinned = case.expected if case.pairs else None
    holder = (reads or PanelReads()).panel(panel.pairs())
    held = HeldSides(
        panel.pairs(), holder.review_limit
    )  # a join's side files, read once for its pairs
    for (x, y), name in zip(panel.pairs(), names, strict=True):
        pair = ledger.of_pair(x, y)
        if pair.join is None:
            input_file = replace(source, ledger=pair, pair_of=(ledger, x, y), panel_read=holder)
        else:
            sides = []
            for side in pair.join:
                resolved, problem = files.resolve(side.input_file)
                if problem is not None:  # the loader resolved each side: moved since
                    raise CaseFileError(display, side.file_at[0], side.file_at[1], problem)
                sides.append(resolved)
            joined = joined_sides(replace(sides[0], ledger=pair), (sides[0], sides[1]))
            input_file = replace(joined, panel_sides=(held, x, y))
        made = replace(
            case,
            name=f"{case.name}[{name}]",
            input_file=input_file,
            pair=PairOf(case.name, name, names, pinned=pinned is not None, graders=panel.names),
            pairs=False,
        )
        if pinned is not None:
            made = _pinned(made, pinned.get(name), display, name)
        if made.problems:  # it never reads the export: no part to wait for
            holder.take((x, y))
        yield made


def not_run(case: Case) -> None:
    """``case`` will not run in this process (deselected): if it is a panel's pair, its
    panel's export is not held for it."""
    source = case.input_file
    if source is not None and source.panel_read is not None and source.pair_of is not None:
        source.panel_read.take(source.pair_of[1:])


def _pinned(case: Case, expected: JSON, display: str, name: str) -> Case:
    """A pair's case with its answer under ``expected_pairs`` (``expected``), or failing
    for want of one (which ``--rubric-update=new`` fills)."""
    if isinstance(expected, dict):
        return replace(case, packed_expected=pack(expected))
    missing = CaseFileError(
        display,
        case.line,
        case.place.col,
        f"'expected_pairs' has no answer for the pair {escape_controls(repr(name))}; add "
        f"'{escape_controls(name)}:' under it with the pair's exact answer, or run "
        "'pytest --rubric-update=new' to write it",
    )
    return replace(
        case,
        packed_expected=pack({}),
        problems=(*case.problems, missing),
        missing_expected=missing,
    )
