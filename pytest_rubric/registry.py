"""Evaluators as typed objects, what they hand back, and the table that maps names to them."""

from __future__ import annotations

import difflib
import reprlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from pytest_rubric.jsonvalues import JSON


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

    ``evaluate`` is a pure function from a case's ``input`` mapping to a
    JSON-compatible answer; ``explain``, when given, returns the
    :class:`Evidence` shown beside a mismatch. ``codes`` are the answer codes the
    evaluator can give (shown by ``--rubric-evaluators`` and in docs).
    ``configure``, when given, takes a case file's ``rubric:`` block and returns
    the evaluator that file uses; it raises :class:`RubricConfigError` for a
    block it cannot take. Without it, a ``rubric:`` block is an error.
    ``stream``, when given, answers for ledger rows read one at a time from an
    ``input_file`` (``.jsonl``, ``.csv``) without holding them all: it takes the
    rows and a function naming row N's place, and returns the answer and its
    evidence. Without it, such rows are gathered into ``{"rows": [...]}``.
    ``judge``, when given, returns the answer and its evidence in one call, and
    is used instead of ``evaluate`` and ``explain`` when a case runs.
    ``summary``, when given, says how answers are shown in the rubric summary.
    ``review``, when given, picks the rows a person should review (``agreement``:
    its disagreements) for ``--rubric-report`` and ``--rubric-html``: it takes the
    ledger (``{"rows": ...}``, rows possibly streamed from a file) and a function
    naming row N's place as ``file:line``, and yields one JSON mapping per row, in
    ledger order. It is called only when the answer rests on a valid input.
    ``answer_schema``, when given, is a self-contained JSON Schema (draft 2020-12,
    plain JSON values) matching every answer the evaluator can give;
    ``pytest --rubric-schema`` applies it to each case's ``expected``, so editors
    flag an impossible answer. A schema cannot see a file's ``rubric:`` block, so
    for an evaluator with ``configure`` files with a block get it with every
    ``enum`` of strings widened to any string: write codes a block may change as
    an ``enum`` and fixed values as ``const``. Without it, answers are unconstrained.
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


class Registry:
    """Evaluators by name, each remembered with where it came from."""

    def __init__(self, entries: Iterable[tuple[Evaluator, str]] = ()) -> None:
        self._by_name: dict[str, tuple[Evaluator, str]] = {}
        for evaluator, source in entries:
            self.add(evaluator, source)

    def add(self, evaluator: Evaluator, source: str) -> None:
        """Register ``evaluator`` from ``source``; a second one with its name is an error."""
        problem = self.problem_with(evaluator)
        if problem is not None:
            raise TypeError(f"{source}: rubric_evaluators returned {problem}")
        known = self._by_name.get(evaluator.name)
        if known is not None and known[0] is not evaluator:
            raise ValueError(
                f"two evaluators are named {evaluator.name!r}: one from {known[1]} and "
                f"one from {source}; rename one of them"
            )
        self._by_name[evaluator.name] = (evaluator, source)

    def source(self, name: str) -> str:
        """Where the evaluator ``name`` was registered, as people should read it."""
        entry = self._by_name.get(name)
        return "" if entry is None else entry[1]

    @staticmethod
    def problem_with(evaluator: object) -> str | None:
        """What makes ``evaluator`` unusable, said with what to write instead; None if nothing.

        Plugins hand over anything at all, so this looks only at types and never
        calls into the object.
        """
        if not isinstance(evaluator, Evaluator):
            return (
                f"{show_object(evaluator)}, which is not an Evaluator; return "
                f"pytest_rubric.Evaluator(name=..., description=..., evaluate=...) objects"
            )
        name = evaluator.name
        if not isinstance(name, str) or not name.strip():
            return (
                f"an Evaluator named {show_object(name)}; its name must be non-blank text, "
                f"the name case files write after 'evaluator:'"
            )
        if not isinstance(evaluator.description, str):
            return (
                f"evaluator {show_object(name)} with description {show_object(evaluator.description)}; "
                f"the description must be text (one line for --rubric-evaluators)"
            )
        if not callable(evaluator.evaluate):
            return (
                f"evaluator {show_object(name)} with evaluate={show_object(evaluator.evaluate)}; "
                f"evaluate must be a function from a case's input to its answer"
            )
        if evaluator.answer_schema is not None and not isinstance(evaluator.answer_schema, Mapping):
            return (
                f"evaluator {show_object(name)} with answer_schema="
                f"{show_object(evaluator.answer_schema)}; answer_schema must be a JSON Schema "
                f"as a dict, or None"
            )
        return None

    def get(self, name: str) -> Evaluator | None:
        entry = self._by_name.get(name)
        return None if entry is None else entry[0]

    def names(self) -> list[str]:
        return sorted(self._by_name)

    def suggest(self, name: str) -> str | None:
        """The registered name nearest to a misspelt ``name``, if any is close."""
        close = difflib.get_close_matches(name, self.names(), n=1)
        return close[0] if close else None


_short = reprlib.Repr()
_short.maxstring = 60
_short.maxother = 60


def show_object(value: object) -> str:
    """``value`` for an error message: a short repr with its type, control characters escaped.

    Plugin objects can have any ``__repr__``, including one that raises or prints
    terminal escapes.
    """
    kind = type(value).__name__
    try:
        text = _short.repr(value)
    except Exception:
        return f"<{kind} object>"
    text = "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text
    )
    if value is None or isinstance(value, (str, bool)):
        return text
    return f"{text} ({kind})"
