"""Case records: what a run keeps of each case, typed as the shipped report schema says.

A record is plain JSON (every value made safe by :func:`~pytest_rubric.core.jsonvalues.plain`)
because it travels on pytest's test report, to a pytest-xdist controller too,
and ends in ``--rubric-report``. :class:`CaseRecord` mirrors the schema's
``case`` definition, so mypy checks every field a feature adds. A record is built in
one place (:mod:`pytest_rubric.reports.caserecords`) and kept sealed
(:mod:`pytest_rubric.reports.sealing`) until the report is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NamedTuple, TypedDict

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.running.outcome import Outcome, ReviewRecord


class EvidenceRecord(TypedDict):
    facts: dict[str, JSON]
    problem: str | None


class RecordHead(TypedDict):
    """The keys every record has, sealed or not: what the summary, the counts and the
    report's order read."""

    nodeid: str
    case: str
    file: str
    line: int
    index: int
    evaluator: str
    outcome: Outcome


class CaseRecord(RecordHead, total=False):
    """One case's record. The keys after ``outcome`` are written only when a
    report is asked for (``full``), and ``duration`` by the run that gathers it; but
    ``expectedSubset`` and ``dataset``, always."""

    input: JSON
    inputFile: str
    expected: JSON
    actual: JSON
    differingKeys: list[str]
    evidence: EvidenceRecord | None
    problems: list[str]
    reason: str
    duration: float
    update: UpdateRecord
    review: ReviewRecord
    #: ``expected`` holds only the keys it names (``expected_subset``).
    expectedSubset: bool
    #: A case made from a dataset's row: the dataset case's ID, and the row's place.
    dataset: DatasetRecord
    #: A case made from a panel's pair: the panel case's ID, the pair, every pair.
    panel: PanelRecord


class DatasetRecord(TypedDict):
    """Whose row a case is: the dataset case's ID, and where the row is (``file:line``)."""

    case: str
    row: str


class _PanelRecord(TypedDict):
    case: str
    pair: str
    pairs: list[str]


class PanelRecord(_PanelRecord, total=False):
    """Whose pair a case is: the panel case's ID, the pair's name (``judge vs editor``),
    the panel's graders and every pair of the panel in panel order (the pairs' records link through it); and
    the pair's ``agreement`` and ``total`` where its answer holds them, or its
    ``error`` (the summary's table of the panel)."""

    agreement: int
    total: int
    error: str
    graders: list[str]


class UpdateRecord(TypedDict):
    """An ``expected`` written by ``--rubric-update``: ``before`` is ``None`` when the
    case had none."""

    before: JSON
    after: JSON


class SuiteRecord(TypedDict):
    """The rubric cases a run collected before any deselection (``-k``, ``--deselect``,
    a shard plugin), so that shard reports can be checked for completeness."""

    collected: int
    digest: str
    nodeids: list[str]
    selected: int


class ShardRecord(TypedDict):
    """Which shard a run was, as pytest-split or pytest-shard says (``group`` 1-based)."""

    plugin: Literal["pytest-split", "pytest-shard"]
    group: int
    splits: int


class Ledger(NamedTuple):
    """A ledger's record as diff and the review page read it: its evaluator's answer, and
    the rows it kept to review."""

    answer: Mapping[str, Any]
    review: Mapping[str, Any]


def ledger_of(record: Mapping[str, Any]) -> Ledger | None:
    """``record`` as a ledger's, or ``None`` when it is not one.

    A record is a ledger's because its evaluator declared one, never because of its
    answer's keys: only an evaluator with ``ledger=OnLedger(review=...)`` gives a record
    its ``review`` (when a report is asked for and its input is valid), so the record
    carries that declaration, in every report of this format, before this rule was
    written too. A ledger's record that kept no answer (a case error after it ran, a
    skip) is read as any other case's."""
    review, answer = record.get("review"), record.get("actual")
    if isinstance(review, Mapping) and isinstance(answer, Mapping):
        return Ledger(answer, review)
    return None
