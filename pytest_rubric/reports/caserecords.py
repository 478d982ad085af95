"""A case's record, built in one place from what became of the case.

A record is built once, when pytest reports the case's run, by one of two builders over
one core: :func:`full_record` when a report, a page or a baseline reads the run's records,
:func:`brief_record` otherwise. Each takes whose record it is (:class:`RecordOf`) and the
case's outcome (``None`` when it never ran to one: a case error until ``ended`` says
otherwise, a lost worker's case, a case whose record could not be made), how pytest or
another plugin ended it (``ended``), and the answer ``--rubric-update`` writes. After
that only what comes later changes it (:func:`stopped`): its teardown failing, or its
answer not being written after all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, TypeAlias, overload

from pytest_rubric.core.escapes import escape_controls, is_encodable
from pytest_rubric.core.jsonvalues import JSON, plain
from pytest_rubric.core.packed import plain_copy
from pytest_rubric.reports.records import CaseRecord, PanelRecord, UpdateRecord
from pytest_rubric.reports.sealing import KeptRecord, sealed, unsealed
from pytest_rubric.running.outcome import CASE_ERROR, MATCHED, CaseOutcome, Outcome

if TYPE_CHECKING:
    from pytest_rubric.casefiles.cases import Case

#: How something outside the case (a mark, a fixture, a hook, a timeout) ended it, and why.
Ended: TypeAlias = tuple[Outcome, str]


class RecordOf(NamedTuple):
    """Whose record it is: the case as it was collected, and how a report names it: its
    node ID, its case file and input file relative to rootdir (``""`` for none), and its
    evaluator's name. A tuple: one is made for every case a run reports."""

    case: Case
    nodeid: str
    file: str
    input_file: str
    evaluator: str


def brief_record(
    of: RecordOf,
    outcome: CaseOutcome | None,
    ended: Ended | None = None,
    update: UpdateRecord | None = None,
) -> CaseRecord:
    """The record of ``of`` a run keeps when nothing reads more than its summary: who,
    where and what became of it (see :func:`full_record` for the arguments)."""
    case = of.case if outcome is None else outcome.case
    record = _head(of, case, outcome)
    if (
        ended is None
        and update is None
        and not case.subset
        and case.row is None
        and case.pair is None
    ):
        return record  # most cases: nothing more to say
    return _finished(record, case, outcome, ended, update)


def full_record(
    of: RecordOf,
    outcome: CaseOutcome | None,
    ended: Ended | None = None,
    update: UpdateRecord | None = None,
) -> CaseRecord:
    """The whole record of ``of``, as a report writes it: of its ``outcome`` when it ran,
    else a case error until ``ended`` says otherwise; with the ``update`` it writes when
    it matched.

    An ``input`` the case keeps as packed text is left out (:func:`input_set_apart` says
    so), for :func:`~pytest_rubric.reports.sealing.sealed` to set that text in as it is."""
    case = of.case if outcome is None else outcome.case  # as it ran: with its expected
    record = _head(of, case, outcome)
    if of.input_file:
        record["inputFile"] = of.input_file
    elif outcome is not None and case.problems:  # its file's problems kept it from running
        record["input"] = {}
    elif type(case.packed_input) is not str:
        record["input"] = plain_copy(case.packed_input)
    if outcome is None:
        record["expected"] = plain_copy(case.packed_expected)
        record["differingKeys"] = []
        record["evidence"] = None
        record["problems"] = []
    else:
        _ran(record, outcome)
    return _finished(record, case, outcome, ended, update)


def input_set_apart(record: CaseRecord) -> bool:
    """Whether :func:`full_record` left ``record``'s ``input`` apart (``record`` has
    ``expected``: it is full)."""
    return "expected" in record and "input" not in record and "inputFile" not in record


def _head(of: RecordOf, case: Case, outcome: CaseOutcome | None) -> CaseRecord:
    """The keys every record has, of ``case`` as it ran."""
    evaluator = of.evaluator if outcome is None else outcome.evaluator
    names: tuple[str, ...] = (of.nodeid, case.name, of.file, evaluator)
    # The usual names, ASCII text (an evaluator's name may be anything a plugin gave), are
    # kept as they are; others as a record holds text.
    if type(evaluator) is not str or not "".join(names).isascii():
        names = tuple(text(name) or "" for name in names)
    nodeid, name, file, evaluator = names
    return {
        "nodeid": nodeid,
        "case": name,
        "file": file,
        "line": case.line,
        "index": case.index,
        "evaluator": evaluator,
        "outcome": CASE_ERROR if outcome is None else outcome.outcome,
    }


def _finished(
    record: CaseRecord,
    case: Case,
    outcome: CaseOutcome | None,
    ended: Ended | None,
    update: UpdateRecord | None,
) -> CaseRecord:
    """``record`` with what every record says after its outcome: how pytest ended it, the
    answer it writes, and the case's ``expected_subset`` and dataset."""
    if ended is not None:
        _end(record, *ended)
    if update is not None and outcome is not None and record["outcome"] == MATCHED:
        record["update"] = {"before": update["before"], "after": plain(update["after"])}
    if case.subset:
        record["expectedSubset"] = True
    if case.row is not None:
        record["dataset"] = {
            "case": text(case.row.dataset) or "",
            "row": text(case.row.place) or "",
        }
    if case.pair is not None:
        pair = case.pair
        record["panel"] = _panel(pair.panel, pair.pair, pair.pairs, outcome)
        record["panel"]["graders"] = list(pair.graders)
    return record


def _panel(
    case: str, pair: str, pairs: tuple[str, ...], outcome: CaseOutcome | None
) -> PanelRecord:
    """Whose pair a case is, with its agreement over its total where it answered so."""
    panel: PanelRecord = {"case": case, "pair": pair, "pairs": list(pairs)}
    actual = None if outcome is None else outcome.actual
    if isinstance(actual, dict):
        agreement, total = actual.get("agreement"), actual.get("total")
        error = actual.get("error")
        if type(agreement) is int and type(total) is int:
            panel["agreement"], panel["total"] = agreement, total
        elif type(error) is str:
            panel["error"] = error
    return panel


def _ran(record: CaseRecord, outcome: CaseOutcome) -> None:
    """The keys of a full record that running the case decided."""
    clean = outcome.clean  # then plain() would give each value back as it is
    if outcome.evaluated:
        record["actual"] = outcome.actual if clean else plain(outcome.actual)
    # An answer written exactly as its expected answer is that value: not read again.
    same = outcome.as_written and clean and outcome.evaluated
    record["expected"] = record["actual"] if same else plain_copy(outcome.case.packed_expected)
    keys, problems = outcome.differing_keys(), outcome.problems
    record["differingKeys"] = [escape_controls(key) for key in keys] if keys else []
    evidence = outcome.evidence
    record["evidence"] = (
        None
        if evidence is None
        else {
            "facts": evidence.facts if clean else _facts(evidence.facts),
            "problem": text(evidence.problem),
        }
    )
    record["problems"] = [text(problem) or "" for problem in problems] if problems else []
    if outcome.review is not None:
        record["review"] = outcome.review


def _facts(facts: object) -> dict[str, JSON]:
    shown = plain(facts) if type(facts) is dict else {}
    return shown if isinstance(shown, dict) else {}


@overload
def stopped(record: CaseRecord, outcome: Outcome, why: str) -> CaseRecord: ...
@overload
def stopped(record: KeptRecord, outcome: Outcome, why: str) -> KeptRecord: ...
def stopped(record: KeptRecord, outcome: Outcome, why: str) -> KeptRecord:
    """``record`` ended by what came after it was made: a case error because its teardown
    failed, or its answer was not written after all. A case error writes no answer
    (its ``update`` goes). A sealed record is sealed again."""
    if "sealed" in record:
        whole = unsealed(record)
        _end(whole, outcome, why)
        return sealed(whole)
    whole = unsealed(record).copy()
    _end(whole, outcome, why)
    return whole


def _end(record: CaseRecord, outcome: Outcome, why: str) -> None:
    """``record`` ended otherwise than by running: skipped, xfailed, or a case error
    because something outside the case stopped it."""
    record["outcome"] = outcome
    if outcome in (CASE_ERROR, "skipped"):  # an xfailed or xpassed case ran: keep its answer
        record.pop("actual", None)
    if outcome == CASE_ERROR:
        record.pop("update", None)
        record["problems"] = [*record.get("problems", ()), text(why) or ""]
    else:
        record["reason"] = text(why) or ""


def text(value: str | None) -> str | None:
    """``value`` as a record holds text: made plain when UTF-8 cannot encode it."""
    if type(value) is str and (value.isascii() or is_encodable(value)):  # kept as it is
        return value
    if value is None:
        return None
    shown = plain(value)
    return shown if isinstance(shown, str) else str(shown)
