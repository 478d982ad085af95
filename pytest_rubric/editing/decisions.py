"""``--rubric-update``'s decision for one case, made where it runs (a pytest-xdist worker
too): whether its answer is to be written, held back, or cannot be written.

An answer that cannot be written (:func:`pytest_rubric.editing.writable.can_write`, which
edits and reads back only the case's own lines) makes the case a case error before
pytest reports it, so pytest's counts, JUnit XML and the rubric report all say so. A
case whose answer is to be written ships it (:class:`~pytest_rubric.running.caserun.CaseWrite`)
to the run that gathers it, which writes each case file once, at the end
(:func:`pytest_rubric.editing.filewrites.write_file`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.jsonvalues import JSON, plain
from pytest_rubric.editing.writes import PAIRS, Write
from pytest_rubric.running.caserun import CaseRun, CaseWrite, Held
from pytest_rubric.running.outcome import CASE_ERROR, MATCHED, MISMATCHED, CaseOutcome

if TYPE_CHECKING:
    from pytest_rubric.editing.writable import CaseFileReads

#: Variables that say the run is in CI (``CI`` itself is read apart: ``CI=false`` is not CI).
CI_VARIABLES = (
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "BUILDKITE",
    "TF_BUILD",
    "JENKINS_URL",
    "TEAMCITY_VERSION",
)


def ci_variable(environ: Mapping[str, str]) -> str | None:
    """The variable that says this run is in CI, shown as ``NAME=value``, or ``None``."""
    ci = environ.get("CI")
    if ci is not None and ci.strip().lower() not in ("", "0", "false"):
        return f"CI={ci}"
    for name in CI_VARIABLES:
        if name in environ:
            return f"{name}={environ[name]}"
    return None


#: Why an answer that differs is not written (:attr:`CaseRun.kept`).
DATASET_ROW = "a dataset's row"
SUBSET = "expected_subset"
PANEL_PAIR = "a panel's pair"


def fillable(case: Case, mode: str | None) -> bool:
    """Whether ``case`` has no ``expected`` as its only problem, and the run fills it."""
    return (
        mode is not None
        and case.marks.xfail is None
        and case.missing_expected is not None
        and case.problems == (case.missing_expected,)
    )


def refusal_of(result: CaseOutcome) -> Held | None:
    """The refusal ``result``'s answer is, if it is one: an answer whose evidence names a
    problem, because the input could not be judged (the built-ins' ``review-label``,
    ``review-case-identity`` and ``invalid-reason-input``, and any evaluator's answer
    whose evidence carries a ``problem``)."""
    problem = result.evidence.problem if result.evidence is not None else None
    if not result.evaluated or not isinstance(problem, str) or not problem.strip():
        return None  # a blank problem names none
    answer = result.actual
    codes = [answer.get(key) for key in ("error", "status")] if isinstance(answer, dict) else []
    return Held(next((code for code in codes if isinstance(code, str)), None), problem)


def decide(
    case: Case,
    result: CaseOutcome,
    mode: str | None,
    *,
    filled: bool,
    path: Path | None = None,
    digest: str = "",
    root: Path | None = None,
    files: CaseFileReads | None = None,
    refusals: bool = False,
) -> CaseRun:
    """The outcome to report, and the answer ``case`` asks to write, if any.

    A written case matches its new ``expected``. Only a case that ran its evaluator
    to an answer writes: never one with a problem, an evaluator failure or an xfail mark,
    and never a dataset's row, a panel's pair whose case pins one ``expected`` for every
    pair, or a case with ``expected_subset`` (its answer is :attr:`CaseRun.kept`: it
    mismatches, as in a plain run, and the run says why). A panel's pair writes its answer
    under its case's ``expected_pairs``, at its name.
    An answer that is a refusal (:func:`refusal_of`) is held back unless ``refusals``:
    the case fails as it fails in a plain run (without an ``expected``, as a case error
    saying what was held).
    With ``path`` (its case file, whose bytes were collected with SHA-256 ``digest``),
    the write is made and read back on the file as it is now, where the case runs: a
    write that cannot be made is a case error saying why, decided before pytest reports
    the case, so pytest's counts, JUnit XML and the rubric report agree. Nothing outside
    ``root`` (the repository) is written: a case file that leads outside it, through a
    symlink or a linked folder, is refused. ``files``: the case files this run has read
    so far to check writes (each is read once while it stays as it is on disk).
    """
    if mode is None or case.marks.xfail is not None or not result.evaluated:
        return CaseRun(result)
    answer = result.actual
    if not isinstance(answer, dict) or not (
        filled or (mode == "all" and result.outcome == MISMATCHED)
    ):
        return CaseRun(result)
    if case.row is not None:  # its expected answer is the case's or the row's, never written
        return CaseRun(result, kept=DATASET_ROW)
    if case.subset:
        return CaseRun(result, kept=SUBSET)
    pair = case.pair
    if pair is not None and not (pair.pinned or filled):
        # Its answer is the case's 'expected', every pair's: one pair's answer is not it.
        return CaseRun(result, kept=PANEL_PAIR)
    held = None if refusals else refusal_of(result)
    if held is not None:
        if not filled:
            return CaseRun(result, held=held)  # it mismatches, as in a plain run
        why = (
            f"its answer is a refusal ({held.words()}), held back from being written as its "
            "expected; fix its input, or write it with --rubric-update-refusals if the "
            "refusal is the point of this case"
        )
        stays = dataclasses.replace(result, outcome=CASE_ERROR, evaluated=False, problems=(why,))
        return CaseRun(stays, held=held)
    # The text surgery that checks a write, imported when an answer is to be written:
    # a run that writes none never loads it.
    from pytest_rubric.editing.writable import CaseFileReads, can_write, outside, unwritable

    problem = unwritable(answer)
    if problem is None and not json_equal(plain(answer), answer):
        # No transport to a pytest-xdist controller holds it as it is.
        problem = "its answer holds a value no case file can hold"
    if problem is None and path is not None and root is not None:
        problem = outside(path, root)
    alone = False
    if problem is None and path is not None:
        write = _write_of(case, answer, filled=filled)
        problem, alone = can_write(path, digest, case, write, files or CaseFileReads())
    if problem is not None:
        problem = f"its answer cannot be written into the case file: {problem}"
        failed = dataclasses.replace(
            result, outcome=CASE_ERROR, evaluated=False, problems=(problem,)
        )
        return CaseRun(failed, unwritten=True)
    place = case.place
    shipped: CaseWrite = {
        "path": str(path),
        "digest": digest,
        "index": case.index,
        "name": case.name,
        "after": answer,
        "created": filled,
        "lines": list(place.lines) if alone and place.lines is not None else None,
        "span": [place.col, *place.end] if alone and place.end is not None else None,
        "pairs": None if pair is None else list(pair.pairs),
    }
    if pair is not None:
        shipped["after"] = {pair.pair: answer}
    written = dataclasses.replace(result, case=case.with_expected(answer), outcome=MATCHED)
    return CaseRun(written, shipped, None if filled else plain(case.expected))


def _write_of(case: Case, answer: dict[str, JSON], *, filled: bool) -> Write:
    """The write of ``case``'s answer: its ``expected``, or a pair's place in its panel
    case's ``expected_pairs``."""
    pair = case.pair
    if pair is None:
        return Write(case.index, case.name, answer, created=filled)
    after = {pair.pair: answer}
    return Write(case.index, case.name, after, created=filled, key=PAIRS, order=pair.pairs)
