"""Running one case: input in, evaluator's answer and evidence out, compared strictly.

This is the whole life of a case apart from pytest: :func:`run_case` never
raises for anything a case file, an input file or an evaluator can do (only
``KeyboardInterrupt`` passes through). An evaluator that raises, answers
something that is not JSON, or explains with something that is not
:class:`Evidence` makes its case a case error that says so, naming the
evaluator and where it was registered, with a traceback of the evaluator's own
frames only. This module does not import pytest.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from pytest_rubric.compare import json_equal
from pytest_rubric.errors import RubricInputError
from pytest_rubric.evaluators.agreement import judge_agreement, review_rows
from pytest_rubric.jsonvalues import (
    JSON,
    compact,
    compact_finite,
    describe,
    escape_controls,
    is_encodable,
    is_plain,
    json_problem,
    normalised,
    plain,
    plain_text,
)
from pytest_rubric.ledgers import RowReader, read_json, read_json_with_row_lines
from pytest_rubric.loader import Case, pack
from pytest_rubric.outcome import CASE_ERROR, MATCHED, MISMATCHED, CaseOutcome
from pytest_rubric.registry import Evaluator, Evidence

#: Frames from these folders are never shown in an evaluator's traceback.
_HIDDEN_FOLDERS = (
    os.path.dirname(os.path.abspath(__file__)) + os.sep,
    f"{os.sep}_pytest{os.sep}",
    f"{os.sep}pluggy{os.sep}",
)
#: At most this many lines of an evaluator's traceback are kept.
MAX_TRACEBACK_LINES = 40


#: The ``agreement`` evaluator's judge and review, which never change their input
#: (tests/test_agreement.py checks): its review pass reads the copy its judge read rather
#: than decode another. Known by identity (an evaluator's functions may be unhashable).
_OWN_JUDGE, _OWN_REVIEW = judge_agreement, review_rows


class _EvaluatorFailed(Exception):
    """An evaluator (or its explain/stream) raised or handed back something unusable."""


def run_case(
    case: Case,
    evaluator: Evaluator,
    *,
    path: str,
    source: str,
    review_limit: int = 0,
    review_at: str = "",
) -> CaseOutcome:
    """Run ``case`` through ``evaluator`` and compare the answer with its ``expected``.

    ``path`` names the case file in messages; ``source`` says where the evaluator
    was registered. With a ``review_limit``, an evaluator with ``review`` has the
    first that many rows to review of a valid input kept, and the rest counted;
    ``review_at`` names the file holding the rows (relative to rootdir), for their
    ``file:line``. The case's input as written is never handed out (each read of it
    is a fresh copy), so a record takes it from the case after the run.
    """
    name = evaluator.name
    if case.problems:
        problems = tuple(str(problem) for problem in case.problems)
        return CaseOutcome(case, path, name, CASE_ERROR, problems=problems)
    reviewed = review_limit > 0 and evaluator.review is not None
    # Our own functions never change their input: they may read one copy of it.
    shared = (
        case.input
        if reviewed
        and case.input_file is None
        and evaluator.judge is _OWN_JUDGE
        and evaluator.review is _OWN_REVIEW
        else None
    )
    try:
        answer, evidence = _answer(case, evaluator, source, shared)
    except RubricInputError as exc:
        problem = f"the input is not usable: {escape_controls(str(exc), keep_newlines=True)}"
        return CaseOutcome(case, path, name, CASE_ERROR, problems=(problem,))
    except _EvaluatorFailed as exc:
        return CaseOutcome(case, path, name, CASE_ERROR, problems=(str(exc),))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # what an evaluator handed back broke while being read
        problem = (
            f"evaluator {name!r} ({source or 'registered by a plugin'}) handed back something "
            f"that could not be read:\n{evaluator_traceback(exc)}"
        )
        return CaseOutcome(case, path, name, CASE_ERROR, problems=(problem,))
    review = None
    valid = evidence is None or evidence.problem is None
    if reviewed and valid:
        try:
            review = _review(case, evaluator, source, review_limit, review_at, shared)
        except RubricInputError as exc:
            problem = f"the input is not usable: {escape_controls(str(exc), keep_newlines=True)}"
            return CaseOutcome(case, path, name, CASE_ERROR, problems=(problem,))
        except _EvaluatorFailed as exc:
            return CaseOutcome(case, path, name, CASE_ERROR, problems=(str(exc),))
    # A mapping's answer as the case's expected answer is packed: compared as text, and
    # kept as the text of the answer a report writes.
    text = pack(answer) if type(answer) is dict else None
    return CaseOutcome(
        case,
        path,
        name,
        MATCHED if _matches(case, answer, text if type(text) is str else None) else MISMATCHED,
        evaluated=True,
        actual=answer,
        actual_text=text if type(text) is str else None,
        evidence=evidence,
        review=review,
    )


def _matches(case: Case, answer: JSON, text: str | None) -> bool:
    """Whether ``answer`` (plain JSON) equals the case's ``expected`` strictly; ``text``
    is the answer packed as :func:`~pytest_rubric.loader.pack` packs, if it packs as text.

    The same compact JSON text is the same value (``true`` and ``1``, ``1`` and ``1.0``
    are written differently), so an answer written as its expected answer is packed
    matches without decoding it. Otherwise Python's ``==``, in C, refuses at once what
    differs anyway: it takes ``true`` for ``1``, but plain JSON values (no NaN, no
    tuples) equal as JSON are equal to it too. What it finds equal (keys in another
    order, ``2`` against ``2.0``, or ``true`` against ``1``) :func:`json_equal` decides."""
    if text is not None and text == case.packed_expected:
        return True
    expected = case.expected
    try:
        if expected != answer:
            return False
    except RecursionError:  # nested deeper than C's comparison goes
        pass
    return json_equal(expected, answer)


def _review(
    case: Case,
    evaluator: Evaluator,
    source: str,
    limit: int,
    at: str,
    shared: Mapping[str, JSON] | None = None,
) -> str:
    """The first ``limit`` rows ``evaluator.review`` picks, and the count of the rest:
    a :class:`~pytest_rubric.outcome.ReviewRecord` as compact JSON text.

    A second pass over the rows, taken only when a report asks for them; a ledger
    file is streamed again, never held whole. ``shared`` is the case's input as the
    judge read it, when both are our own functions (see :data:`_OWN_JUDGE`).
    """
    review = evaluator.review
    assert review is not None
    call = _Caller(evaluator, source)
    # Rows our own review yields from an input of the case file itself are fresh
    # mappings of plain values, text keys and bounded nesting: written as they come.
    own = review is _OWN_REVIEW and case.input_file is None and type(case.packed_input) is str
    if case.input_file is None:
        ledger: Mapping[str, JSON] = case.input if shared is None else shared  # a fresh copy

        lines: Sequence[int] = case.row_lines

        def where(index: int) -> str:
            return f"{at}:{lines[index] if index < len(lines) else case.line}"
    elif case.input_format == ".json":
        ledger, lines = read_json_with_row_lines(case.input_file, case.input_file_display)

        def where(index: int) -> str:
            return f"{at}:{lines[index]}" if index < len(lines) else at
    else:
        reader = RowReader(case.input_file, case.input_file_display, fmt=case.input_format)
        # The rows streamed: an iterable of JSON rows where the list would be.
        ledger = cast(Mapping[str, JSON], {"rows": reader})

        def where(index: int) -> str:
            return f"{at}:{reader.line}"

    # Each row as its compact JSON text, made as it is yielded: an evaluator may yield
    # one dict again, changed, and the text is what the report writes anyway.
    rows: list[str] = []
    more = 0

    def pick() -> None:
        nonlocal more
        for row in review(ledger, where):
            if len(rows) >= limit:
                more += 1
                continue
            text = _own_text(row) if own else plain_text(row)  # the usual row
            if text is None:
                shown = normalised(row) if json_problem(row) is None else None
                if not isinstance(shown, dict):
                    raise _EvaluatorFailed(
                        f"{call.who}: review yielded {_what(row)}; yield JSON mappings"
                    )
                text = compact(plain(shown))
            rows.append(text)

    call("review", pick)
    return f'{{"rows":[{",".join(rows)}],"more":{more}}}'


def _own_text(row: object) -> str | None:
    """A row our own review yielded, as :func:`plain_text` writes it, not checked first:
    ``None`` where the encoder refuses it or its text holds a lone surrogate."""
    try:
        text = compact_finite(row)
    except (ValueError, TypeError, RecursionError):
        return None
    return text if is_encodable(text) else None


def _answer(
    case: Case, evaluator: Evaluator, source: str, shared: Mapping[str, JSON] | None = None
) -> tuple[JSON, Evidence | None]:
    """The evaluator's answer (plain JSON) and its evidence, checked; ``shared`` is the
    case's input to hand it, when the review pass reads that copy too."""
    call = _Caller(evaluator, source)
    if case.input_file is None:
        # A fresh copy each time: an evaluator that mutates its input must not change
        # the case for explain, for a rerun, or for the record of what the file says.
        data: Mapping[str, JSON] = case.input if shared is None else shared
    elif case.input_format == ".json":
        data = read_json(case.input_file, case.input_file_display)
    else:
        reader = RowReader(case.input_file, case.input_file_display, fmt=case.input_format)
        if evaluator.stream is not None:
            pair = call("stream", evaluator.stream, reader, reader.where)
            answer, evidence = call.pair("stream", pair)
            return call.checked(answer, evidence)
        data = {"rows": list(reader)}
    if evaluator.judge is not None:
        answer, evidence = call.pair("judge", call("judge", evaluator.judge, data))
    else:
        answer = call("evaluate", evaluator.evaluate, data)
        explain = evaluator.explain
        if explain is not None and case.input_file is None:
            data = case.input
        evidence = None if explain is None else call("explain", explain, data)
    return call.checked(answer, evidence)


class _Caller:
    """Calls one evaluator's functions and words what goes wrong with them."""

    def __init__(self, evaluator: Evaluator, source: str) -> None:
        self.evaluator = evaluator
        self.source = source

    @property
    def who(self) -> str:
        """The evaluator, as a problem with it names it (worded only then)."""
        source = self.source or "registered by a plugin"
        return f"evaluator {self.evaluator.name!r} ({source})"

    def __call__(self, what: str, function: Callable[..., Any], *args: Any) -> Any:
        try:
            return function(*args)
        except (RubricInputError, _EvaluatorFailed, KeyboardInterrupt):
            raise
        except BaseException as exc:  # SystemExit and pytest's outcomes too: one case fails
            raise _EvaluatorFailed(
                f"{self.who} raised in {what}:\n{evaluator_traceback(exc)}"
            ) from None

    def pair(self, what: str, value: object) -> tuple[object, object]:
        if isinstance(value, tuple) and len(value) == 2:
            return value[0], value[1]
        raise _EvaluatorFailed(
            f"{self.who}: {what} returned {_what(value)}; return a pair (answer, Evidence)"
        )

    def checked(self, answer: object, evidence: object) -> tuple[JSON, Evidence | None]:
        """The answer and evidence as plain JSON types, or :class:`_EvaluatorFailed`.
        Subclasses are turned into their base types first, then checked again: a
        ``float`` subclass may turn into NaN, an ``int`` subclass may refuse."""
        plain_answer = cast(JSON, answer)
        if not is_plain(answer):  # the usual answer is: one walk over it, no copy
            problem = json_problem(answer)
            if problem is None:
                plain_answer = normalised(answer)
                problem = json_problem(plain_answer)
            if problem is not None:
                raise _EvaluatorFailed(f"{self.who} answered something that is not JSON: {problem}")
        return plain_answer, None if evidence is None else self._check_evidence(evidence)

    def _check_evidence(self, evidence: object) -> Evidence:
        if not isinstance(evidence, Evidence):
            raise _EvaluatorFailed(
                f"{self.who}: explain returned {_what(evidence)}; "
                "return pytest_rubric.Evidence(facts={...}, problem=...) or None"
            )
        if not isinstance(evidence.facts, dict):
            raise _EvaluatorFailed(
                f"{self.who}: Evidence.facts is {_what(evidence.facts)}; give a dict of "
                "label -> JSON value"
            )
        plain_facts = is_plain(evidence.facts)
        problem = None if plain_facts else json_problem(evidence.facts, "Evidence.facts")
        if problem is not None:
            raise _EvaluatorFailed(f"{self.who}: {problem}")
        if evidence.problem is not None and not isinstance(evidence.problem, str):
            raise _EvaluatorFailed(
                f"{self.who}: Evidence.problem is {_what(evidence.problem)}; give one sentence "
                "of text, or None for a valid input"
            )
        facts = evidence.facts if plain_facts else normalised(evidence.facts)
        if facts is not evidence.facts:  # subclasses were turned into their bases
            problem = json_problem(facts, "Evidence.facts")
        if problem is not None or not isinstance(facts, dict):
            raise _EvaluatorFailed(f"{self.who}: {problem}")
        text = None if evidence.problem is None else str.__str__(evidence.problem)
        return Evidence(facts=facts, problem=text)


def _what(value: object) -> str:
    """A value handed back by an evaluator, in words: short JSON text for plain
    values, its type for anything else (a ``repr`` could raise or run code)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return describe(value)
    return f"a {type(value).__name__}"


def evaluator_traceback(exc: BaseException) -> str:
    """The exception with the evaluator's own frames: none of pytest's, pluggy's or ours."""
    try:
        frames = [
            frame
            for frame in traceback.extract_tb(exc.__traceback__)
            if not any(folder in frame.filename for folder in _HIDDEN_FOLDERS)
        ]
        lines = "".join(traceback.format_list(frames)).splitlines()
        if len(lines) > MAX_TRACEBACK_LINES:
            cut = len(lines) - MAX_TRACEBACK_LINES
            lines = [
                *lines[:20],
                f"  ... {cut} more lines ...",
                *lines[-(MAX_TRACEBACK_LINES - 20) :],
            ]
        try:
            message = "".join(traceback.format_exception_only(type(exc), exc)).rstrip()
        except Exception:
            message = f"{type(exc).__name__}: (its message could not be shown)"
        if len(message) > 2000:
            message = f"{message[:2000]}…"
        text = "\n".join(
            ["Traceback (the evaluator's frames):", *lines, message] if lines else [message]
        )
    except Exception:
        text = f"{type(exc).__name__}: (its traceback could not be shown)"
    return "\n".join(f"  {line}" for line in escape_controls(text, keep_newlines=True).splitlines())
