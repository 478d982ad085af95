"""Evaluators as typed objects, and what they hand back: evidence and summary lines."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock


@dataclass(frozen=True, slots=True)
class Evidence:
    """What an answer rests on, for people reading a mismatch.

    ``facts`` are JSON-compatible values keyed by a short human label, in the
    order they should be read; ``problem`` is one sentence saying what made an
    input invalid, or ``None`` when the input was valid.
    """

    facts: dict[str, JSON] = field(default_factory=dict)
    problem: str | None = None


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


@dataclass(frozen=True, slots=True)
class Evaluator:
    """One rubric evaluator, as plugins hand it to pytest-rubric.

    The one way to write an evaluator: ``evaluate``, a pure function from a case's
    ``input`` mapping to a JSON-compatible answer, and, for evidence beside a mismatch
    and in reports, ``explain``, a pure function from the same input to
    :class:`Evidence`. Both are called for every case, so that a case ends the same
    whichever reports a run writes.

    ``codes`` are the answer codes the evaluator can give (shown by
    ``--rubric-evaluators`` and in docs). ``configure``, when given, takes a case file's
    ``rubric:`` block and returns the evaluator that file uses; it raises
    :class:`RubricConfigError` for a block it cannot take. Without it, a ``rubric:``
    block is an error. ``summary``, when given, says how answers are shown in the rubric
    summary. ``review``, when given, picks the rows a person should review
    (``agreement``: its disagreements) for ``--rubric-report`` and ``--rubric-html``: it
    takes the ledger (``{"rows": ...}``, rows possibly streamed from a file) and a
    function naming row N's place as ``file:line``, and yields one JSON mapping per row,
    in ledger order. It is called only when the answer rests on a valid input.
    ``answer_schema``, when given, is a self-contained JSON Schema (draft 2020-12,
    plain JSON values) matching every answer the evaluator can give;
    ``pytest --rubric-schema`` applies it to each case's ``expected``, so editors
    flag an impossible answer. A schema cannot see a file's ``rubric:`` block, so
    for an evaluator with ``configure`` files with a block get it with every
    ``enum`` of strings widened to any string: write codes a block may change as
    an ``enum`` and fixed values as ``const``. Without it, answers are unconstrained.

    Capabilities an evaluator may declare, each read by the runner for any evaluator:

    - ``stream``: answers for ledger rows read one at a time from an ``input_file``
      (``.jsonl``, ``.csv``) without holding them all: it takes the rows and a function
      naming row N's place, and returns the answer and its evidence. Without it, such
      rows are gathered into ``{"rows": [...]}`` for ``evaluate``.
    - ``tally_blocks``: answers for such rows handed over as blocks of label pairs
      (:mod:`pytest_rubric.core.labelblocks`), or ``None`` to have them streamed.
    - ``reads_input_only``: ``True`` when no function of the evaluator ever changes
      the input it is handed: one decoded copy of a case's input then serves them all.
      Without it, each call gets a fresh copy.

    ``judge``, an older form of ``evaluate`` and ``explain`` in one call returning
    ``(answer, evidence)``, is still honoured: when given, it is called instead of both.
    """

    name: str
    description: str
    evaluate: Callable[[Mapping[str, JSON]], JSON]
    codes: tuple[str, ...] = ()
    explain: Callable[[Mapping[str, JSON]], Evidence] | None = None
    configure: Callable[[Mapping[str, JSON]], Evaluator] | None = None
    stream: Callable[[Iterable[JSON], Callable[[int], str]], tuple[JSON, Evidence]] | None = None
    judge: Callable[[Mapping[str, JSON]], tuple[JSON, Evidence | None]] | None = None
    summary: Summary | None = None
    review: (
        Callable[[Mapping[str, JSON], Callable[[int], str]], Iterable[Mapping[str, JSON]]] | None
    ) = None
    answer_schema: Mapping[str, JSON] | None = None
    tally_blocks: Callable[[Iterable[LabelBlock | None]], tuple[JSON, Evidence] | None] | None = (
        None
    )
    reads_input_only: bool = False
