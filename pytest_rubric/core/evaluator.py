"""Evaluators as typed objects, and what they hand back: evidence and summary lines."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from pytest_rubric.core.jsonvalues import JSON


class RowLabel(NamedTuple):
    """One label of one ledger row: ``row``, the row's index among the rows handed over,
    and its ``side`` (``"a"`` or ``"b"``)."""

    row: int
    side: str


class RowId(NamedTuple):
    """The ID of one ledger row: ``row``, the row's index among the rows handed over."""

    row: int


@dataclass(frozen=True, slots=True)
class Evidence:
    """What an answer rests on, for people reading a mismatch.

    ``facts`` are JSON-compatible values keyed by a short human label, in the
    order they should be read; ``problem`` is one sentence saying what made an
    input invalid, or ``None`` when the input was valid. ``about``, when the problem
    is about one row's label (not a boolean, or missing), names that label as a
    :class:`RowLabel`, and when it is about a row's ID (not text), that ID as a
    :class:`RowId`: where the export's reading knows more of that very value (a label
    outside its vocabulary, an integer ID that ``ids: as-text`` reads), the reading's
    words are shown in place of the evaluator's, which cannot know the export.
    """

    facts: dict[str, JSON] = field(default_factory=dict)
    problem: str | None = None
    about: RowLabel | RowId | None = None


@dataclass(frozen=True, slots=True)
class Summary:
    """How an evaluator's answers appear in the rubric summary at the end of a run.

    ``line`` turns one answer into one line of text (or ``None`` for an answer
    with nothing to say, such as an error answer); the lines of all cases are
    shown under ``title``. The built-in ``agreement`` shows each ledger's matrix,
    agreement over total and disagreement IDs this way.
    """

    title: str
    line: Callable[[JSON], str | None]


#: Names row N's place, as ``file:line rows[N]`` (or ``rows[N]`` for an inline input).
Where = Callable[[int], str]


@dataclass(frozen=True, slots=True)
class OnLedger:
    """What an evaluator does with a ledger's rows, besides ``evaluate``: both functions
    take the rows and a function naming row N's place.

    - ``stream(rows, where) -> (answer, Evidence)``: answers for ledger rows read one
      at a time from an ``input_file`` (``.jsonl``, ``.csv``, ``.parquet``) without
      holding them all; ``where(index)`` names row ``index``, any row handed over so far
      (each row's place is kept, a number a row). Without it, such rows are gathered into ``{"rows": [...]}`` for
      ``evaluate``. The rows may also offer themselves as blocks of label pairs
      (:class:`pytest_rubric.core.labelblocks.LabelBlockSource`), which a stream may
      tally instead, a block at a time.
    - ``review(ledger, where) -> rows``: picks the rows a person should review
      (``agreement``: its disagreements) for ``--rubric-report`` and ``--rubric-html``:
      it takes the ledger (``{"rows": ...}``, rows possibly streamed from a file) and
      yields one JSON mapping per row, in ledger order. It is called only when the
      answer rests on a valid input.
    - ``review_picks_disagreements``: declares that ``review`` yields one row for each
      ledger row whose ``a`` and ``b`` are two different Booleans, in row order, each
      from its row alone: handed only those rows, it yields the same. A panel's one pass
      over its export then keeps each pair's first disagreements for it, instead of each
      pair reading the export again for its review.
    """

    stream: Callable[[Iterable[JSON], Where], tuple[JSON, Evidence]] | None = None
    review: Callable[[Mapping[str, JSON], Where], Iterable[Mapping[str, JSON]]] | None = None
    review_picks_disagreements: bool = False


@dataclass(frozen=True, slots=True)
class Evaluator:
    """One rubric evaluator, as plugins hand it to pytest-rubric.

    The one way to write an evaluator: ``evaluate``, a pure function from a case's
    ``input`` mapping to a JSON-compatible answer, and, for evidence beside a mismatch
    and in reports, ``explain``, a pure function from the same input to
    :class:`Evidence`. Both are called for every case, so that a case ends the same
    whichever reports a run writes; neither changes the input, and one decoded copy of a
    case's input serves both (``review`` reads its own).

    ``codes`` are the answer codes the evaluator can give (shown by
    ``--rubric-evaluators`` and in docs). ``configure``, when given, takes a case file's
    ``rubric:`` block and returns the evaluator that file uses; it raises
    :class:`RubricConfigError` for a block it cannot take. Without it, a ``rubric:``
    block is an error. ``summary``, when given, says how answers are shown in the rubric
    summary. ``answer_schema``, when given, is a self-contained JSON Schema (draft
    2020-12, plain JSON values) matching every answer the evaluator can give;
    ``pytest --rubric-schema`` applies it to each case's ``expected``, so editors
    flag an impossible answer. A schema cannot see a file's ``rubric:`` block, so
    for an evaluator with ``configure`` files with a block get it with every
    ``enum`` of strings widened to any string: write codes a block may change as
    an ``enum`` and fixed values as ``const``. Without it, answers are unconstrained.
    ``ledger``, when given, is what the evaluator does with a ledger's rows
    (:class:`OnLedger`: ``stream`` and ``review``); the runner reads it for any
    evaluator.
    """

    name: str
    description: str
    evaluate: Callable[[Mapping[str, JSON]], JSON]
    codes: tuple[str, ...] = ()
    explain: Callable[[Mapping[str, JSON]], Evidence] | None = None
    configure: Callable[[Mapping[str, JSON]], Evaluator] | None = None
    summary: Summary | None = None
    answer_schema: Mapping[str, JSON] | None = None
    ledger: OnLedger | None = None
