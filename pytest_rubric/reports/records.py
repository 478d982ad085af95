"""Case records: what a run keeps of each case, typed as the shipped report schema says.

A record is plain JSON (every value made safe by :func:`~pytest_rubric.core.jsonvalues.plain`)
because it travels on pytest's test report, to a pytest-xdist controller too,
and ends in ``--rubric-report``. :class:`CaseRecord` mirrors the schema's
``case`` definition, so mypy checks every field a feature adds. A record is built in
one place (:mod:`pytest_rubric.reports.caserecords`) and kept sealed
(:mod:`pytest_rubric.reports.sealing`) until the report is written.
"""

from __future__ import annotations

from typing import Literal, TypedDict

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


class DatasetRecord(TypedDict):
    """Whose row a case is: the dataset case's ID, and where the row is (``file:line``)."""

    case: str
    row: str


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
