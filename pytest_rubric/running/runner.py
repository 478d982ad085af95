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
from typing import TYPE_CHECKING, Any, cast

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.core.compare import differences, json_equal
from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.evaluator import Evaluator, Evidence, RowId, RowLabel
from pytest_rubric.core.jsoncheck import json_problem
from pytest_rubric.core.jsonvalues import JSON, NotClean, clean_copy, copied, normalised, plain
from pytest_rubric.core.nearest import misspelt_keys
from pytest_rubric.core.packed import pack
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.misfits import LedgerError
from pytest_rubric.running.outcome import CASE_ERROR, MATCHED, MISMATCHED, CaseOutcome, ReviewRecord

if TYPE_CHECKING:
    from pytest_rubric.inputs.joins import JoinedRows
    from pytest_rubric.inputs.reading import WholeInput
    from pytest_rubric.inputs.readnotes import ReadNotes
    from pytest_rubric.inputs.rows import FileRows

#: Frames from these folders (this package's, pytest's, pluggy's) are never shown in an
#: evaluator's traceback.
_HIDDEN_FOLDERS = (
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,
    f"{os.sep}_pytest{os.sep}",
    f"{os.sep}pluggy{os.sep}",
)
#: At most this many lines of an evaluator's traceback are kept.
MAX_TRACEBACK_LINES = 40


class _EvaluatorFailed(Exception):
    """An evaluator (or its explain/stream) raised or handed back something unusable."""


def run_case(
    case: Case,
    evaluator: Evaluator,
    *,
    path: str,
    source: str,
    review_limit: int | None = None,
    review_at: str = "",
) -> CaseOutcome:
    """Run ``case`` through ``evaluator`` and compare the answer with its ``expected``.

    ``path`` names the case file in messages; ``source`` says where the evaluator
    was registered. With a ``review_limit`` (0 too), an evaluator with ``review`` has
    the first that many rows to review of a valid input kept, and the rest counted;
    ``review_at`` names the file holding the rows (relative to rootdir), for their
    ``file:line``. The case's input as written is never handed out (the answer and the
    review each read a fresh copy), so a record takes it from the case after the run; the answer and the evidence's facts are copies made as
    they are checked, which nothing the evaluator does later can change.
    """
    name = evaluator.name
    if case.problems:
        problems = tuple(str(problem) for problem in case.problems)
        return CaseOutcome(case, path, name, CASE_ERROR, problems=problems)
    reviewed = (
        review_limit is not None
        and evaluator.ledger is not None
        and evaluator.ledger.review is not None
    )
    ask = _Asking(case, evaluator, source, path)
    try:
        answer, evidence = ask.answer()
        # A mapping's answer packed as the case's expected answer is: the same text matches.
        text = pack(answer) if type(answer) is dict and _may_be_written(case, answer) else None
        as_written = type(text) is str and text == case.packed_expected
        matched = as_written or _matches(case, answer)
        if evidence is None:
            evidence = ask.explanation()
        if ask.notes is not None:  # what reading an export found, in its own words
            evidence = ask.notes.applied_to(evidence)
            nowhere = ask.notes.group_nowhere
            if nowhere is not None and (evidence is None or evidence.problem is None):
                raise LedgerError(nowhere)  # a misspelt group_by: never one group of all
        review = None
        if reviewed and (evidence is None or evidence.problem is None):
            review = _review(ask, review_limit or 0, review_at)  # reviewed: a limit
    except LedgerError as exc:  # the case's ledger: block does not fit its export
        problem = escape_controls(str(exc), keep_newlines=True)
        return CaseOutcome(case, path, name, CASE_ERROR, problems=(problem,))
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
    hints: tuple[str, ...] = ()
    if not matched:
        hints = tuple(
            misspelt_keys(case.expected, answer, evaluator.answer_schema, f"{name}'s answers")
        )
    return CaseOutcome(
        case,
        path,
        name,
        MATCHED if matched else MISMATCHED,
        evaluated=True,
        actual=answer,
        evidence=evidence,
        review=review,
        clean=ask.call.clean,
        as_written=as_written,
        hints=hints,
    )


def _may_be_written(case: Case, answer: dict[str, JSON]) -> bool:
    """Whether ``answer``'s packed text could be the case's expected answer as packed: not
    when one of its values alone is longer (a text, or a list, each item of which takes two
    characters at least with its comma), which saves packing a large answer (a ledger's
    disagreements) only to find it differs."""
    packed = case.packed_expected
    if type(packed) is not str:
        return True
    room = len(packed)
    for value in answer.values():
        if isinstance(value, list) and 2 * len(value) > room:
            return False
        if isinstance(value, str) and len(value) > room:
            return False
    return True


def _matches(case: Case, answer: JSON) -> bool:
    """Whether ``answer`` (plain JSON) equals the case's ``expected`` strictly, when its
    packed JSON text is not the expected answer's as packed (the same text is the same
    value: ``true`` and ``1``, ``1`` and ``1.0`` are written differently).

    Python's ``==`` refuses at once what differs anyway: it takes ``true`` for ``1``,
    but plain JSON values (no NaN, no tuples) equal as JSON are equal to it too. What it
    finds equal (keys in another order, ``2`` against ``2.0``, or ``true`` against
    ``1``) :func:`json_equal` decides."""
    expected = case.expected
    if case.subset:  # expected_subset: the keys it names, each whole
        return not differences(expected, answer, subset=True)
    try:
        if expected != answer:
            return False
    except RecursionError:  # nested deeper than the comparison goes
        pass
    return json_equal(expected, answer)


class _Asking:
    """One case's questions to its evaluator: its answer, its evidence, its rows to
    review. The answer and the review each read the case's input afresh: a fresh copy of
    an inline input, the input file opened again
    (:func:`~pytest_rubric.inputs.reading.open_input`); ``explain`` reads what
    ``evaluate`` was handed."""

    def __init__(self, case: Case, evaluator: Evaluator, source: str, path: str = "") -> None:
        self.case = case
        self.path = path
        #: What reading the case's export found (:class:`~pytest_rubric.inputs.readnotes.ReadNotes`).
        self.notes: ReadNotes | None = None
        self.evaluator = evaluator
        self.call = _Caller(evaluator, source)
        #: The input ``evaluate`` was handed, which ``explain`` reads too; ``None`` until
        #: then, and after an answer given another way (with its evidence, if any).
        self._evaluated: Mapping[str, JSON] | None = None

    def _opened(self) -> WholeInput | FileRows | JoinedRows:
        """The case's input file, opened anew. Its readers are imported here, when a case
        reads one: a run of inline inputs never loads them."""
        from pytest_rubric.inputs.reading import open_input

        assert self.case.input_file is not None
        return open_input(self.case.input_file, self.path)

    def answer(self) -> tuple[JSON, Evidence | None]:
        """The evaluator's answer (plain JSON), and its evidence where the way it answers
        gives it at once (``stream``)."""
        evaluator, call = self.evaluator, self.call
        data: Mapping[str, JSON]
        if self.case.input_file is None:
            data = self.case.input  # a fresh copy: an evaluator may change it
        else:
            from pytest_rubric.inputs.reading import WholeInput

            opened = self._opened()
            if isinstance(opened, WholeInput):
                data = opened.mapping()
            else:
                stream = None if evaluator.ledger is None else evaluator.ledger.stream
                if stream is not None:
                    pair = call("stream", stream, opened, opened.where)
                    self.notes = opened.notes()
                    return call.checked(*call.pair("stream", pair), "stream")
                try:
                    data = {"rows": list(opened)}
                except MemoryError as exc:  # the rows, read whole for ``evaluate``, do not fit
                    from pytest_rubric.inputs.textfiles import unreadable

                    raise unreadable(opened.display, exc) from None
                self.notes = opened.notes()
        self._evaluated = data
        return call.checked(call("evaluate", evaluator.evaluate, data), None)

    def explanation(self) -> Evidence | None:
        """The evidence ``explain`` gives, if the evaluator has one, for the input as
        :meth:`answer` read it: the copy ``evaluate`` was handed (both are pure functions
        of the input, which neither changes; one decoded copy serves them)."""
        explain, data = self.evaluator.explain, self._evaluated
        if explain is None or data is None:
            return None
        return self.call.evidence(self.call("explain", explain, data))

    def held_review(self, limit: int) -> tuple[list[JSON], list[str], list[str] | None, int] | None:
        """A panel's pair's first ``limit`` disagreements as its panel's one pass kept
        them (a join panel's, as its sides' columns did): ledger rows, their places and
        groups, the count of the rest; ``None`` where it did not keep them
        (:func:`~pytest_rubric.inputs.panelreview.held_review`,
        :func:`~pytest_rubric.inputs.paneljoins.held_join_review`)."""
        source = self.case.input_file
        if source is not None and source.panel_sides is not None:  # a join panel's pair
            from pytest_rubric.inputs.paneljoins import held_join_review

            return held_join_review(source, limit)
        if source is None or source.panel_read is None:
            return None
        from pytest_rubric.inputs.panelreview import held_review

        return held_review(source, limit)

    def rows_for_review(
        self,
    ) -> tuple[Mapping[str, JSON], Callable[[int], str], Callable[[int], str | None] | None]:
        """The ledger again, for ``review``, how to name row N's place (``where`` gives
        the line in the case file or in the input file), and, for a ledger with
        ``group_by``, the label of row N's group."""
        case = self.case
        if case.input_file is None:
            lines: Sequence[int] = case.place.row_lines
            fallback = case.line
            return (
                case.input,
                lambda index: f":{lines[index] if index < len(lines) else fallback}",
                None,
            )
        from pytest_rubric.inputs.reading import WholeInput

        opened = self._opened()
        if isinstance(opened, WholeInput):
            ledger, found = opened.with_row_lines()
            return ledger, lambda index: f":{found[index]}" if index < len(found) else "", None
        # The rows streamed, never held whole: an iterable of JSON rows where the list
        # would be.
        rows = opened
        grouped = opened.file.ledger is not None and opened.file.ledger.group_by is not None
        return (
            cast(Mapping[str, JSON], {"rows": rows}),
            rows.place_of,
            rows.group if grouped else None,
        )


def _review(ask: _Asking, limit: int, at: str) -> ReviewRecord:
    """The first ``limit`` rows ``review`` picks, each a plain copy of the mapping it
    yielded, and the count of the rest. A second pass over the rows, taken only when a
    report asks for them; a ledger file is streamed again, never held whole (a panel's
    pair reviews the rows its panel's one pass kept for it, where it kept them)."""
    on_ledger = ask.evaluator.ledger
    assert on_ledger is not None
    assert on_ledger.review is not None
    review = on_ledger.review
    held = ask.held_review(limit) if on_ledger.review_picks_disagreements else None
    if held is None:
        ledger, line_of, group_of = ask.rows_for_review()
        if ask.notes is None or ask.notes.groups is None:  # no breakdown (or past its limit)
            group_of = None
    else:  # a panel's pair: its rows kept by the panel's one pass, and the rest counted
        ledger, line_of = {"rows": held[0]}, held[1].__getitem__
        labels, notes = held[2], ask.notes
        shown = labels is not None and notes is not None and notes.groups is not None
        group_of = labels.__getitem__ if labels is not None and shown else None

    # The row a review row is about: the one the review asked ``where`` of for it (the
    # last, if several); a review row that names none has no group.
    named: list[int] = []

    def where(index: int) -> str:
        named[:] = (index,)
        return f"{at}{line_of(index)}"

    rows: list[JSON] = []
    more = 0 if held is None else held[3]

    def pick() -> None:
        nonlocal more
        for row in review(ledger, where):
            if len(rows) >= limit:
                more += 1
                continue
            kept = _review_row(ask.call, row)
            label = None if group_of is None or not named else group_of(named[0])
            named.clear()
            if label is not None and type(kept) is dict:
                kept["group"] = plain(label)
            rows.append(kept)

    ask.call("review", pick)
    record: ReviewRecord = {"rows": rows, "more": more}
    source = ask.case.input_file
    graders = None if source is None or source.ledger is None else source.ledger.graders
    if graders is not None:
        record["graders"] = {"a": graders[0], "b": graders[1]}
    notes = ask.notes
    if notes is not None and notes.group_by is not None and notes.groups is not None:
        record["groupBy"] = str(plain(notes.group_by))
        record["groups"] = list(notes.groups)
    return record


def _review_row(call: _Caller, row: object) -> JSON:
    """A row ``review`` yielded, as a copy of plain JSON: an evaluator may yield one
    mapping again, changed, and the rows kept must not change with it."""
    if type(row) is dict:
        try:
            return clean_copy(row)
        except NotClean:
            pass
    shown = normalised(row) if json_problem(row) is None else None
    if not isinstance(shown, dict):
        raise _EvaluatorFailed(f"{call.who}: review yielded {_what(row)}; yield JSON mappings")
    return plain(shown)


class _Caller:
    """Calls one evaluator's functions and words what goes wrong with them."""

    def __init__(self, evaluator: Evaluator, source: str) -> None:
        self.evaluator = evaluator
        self.source = source
        #: Whether every answer and evidence checked so far is as :func:`plain` keeps it.
        self.clean = True

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

    def checked(
        self, answer: object, evidence: object, what: str = "explain"
    ) -> tuple[JSON, Evidence | None]:
        """The answer and evidence as fresh copies of plain JSON types, or
        :class:`_EvaluatorFailed`. Copies: what an evaluator handed back is its own, and
        it may change it while it is asked for more (``explain``, ``review``). Subclasses
        are turned into their base types first, then checked again: a ``float``
        subclass may turn into NaN, an ``int`` subclass may refuse."""
        plain_answer, problem = self._copy(answer, "the answer")
        if problem is not None:
            raise _EvaluatorFailed(f"{self.who} answered something that is not JSON: {problem}")
        return plain_answer, None if evidence is None else self.evidence(evidence, what)

    def _copy(self, value: object, where: str) -> tuple[Any, str | None]:
        """A fresh copy of ``value`` as plain JSON types, or what makes it no JSON value.
        Clears :attr:`clean` where :func:`plain` would still change the copy."""
        try:
            return clean_copy(value), None  # the usual value: checked and copied in one walk
        except NotClean:
            self.clean = False
        problem = json_problem(value, where)
        if problem is not None:
            return None, problem
        made = normalised(value)  # subclasses turned into their bases, then checked again
        problem = json_problem(made, where)
        return (None, problem) if problem is not None else (copied(made), None)

    def evidence(self, evidence: object, what: str = "explain") -> Evidence:
        """``evidence`` as :class:`Evidence` of fresh plain JSON facts, or
        :class:`_EvaluatorFailed`; ``what`` is the function that gave it."""
        if not isinstance(evidence, Evidence):
            raise _EvaluatorFailed(
                f"{self.who}: {what} returned {_what(evidence)}; "
                "return pytest_rubric.Evidence(facts={...}, problem=...) or None"
            )
        if not isinstance(evidence.facts, dict):
            raise _EvaluatorFailed(
                f"{self.who}: Evidence.facts is {_what(evidence.facts)}; give a dict of "
                "label -> JSON value"
            )
        facts, problem = self._copy(evidence.facts, "Evidence.facts")
        if problem is not None or not isinstance(facts, dict):
            raise _EvaluatorFailed(f"{self.who}: {problem}")
        return Evidence(facts=facts, problem=self._problem(evidence), about=self._about(evidence))

    def _about(self, evidence: Evidence) -> RowLabel | RowId | None:
        about = evidence.about
        if about is None:
            return None
        if isinstance(about, RowId) and type(about.row) is int:
            return RowId(about.row)
        if (
            isinstance(about, tuple)
            and len(about) == 2
            and type(about[0]) is int
            and about[1] in ("a", "b")
        ):
            return RowLabel(about[0], str(about[1]))
        raise _EvaluatorFailed(
            f"{self.who}: Evidence.about is {_what(about)}; give "
            "RowLabel(index, 'a' or 'b') or RowId(index) (pytest_rubric.core.evaluator) naming "
            "the row label or ID the problem is about, or None"
        )

    def _problem(self, evidence: Evidence) -> str | None:
        if evidence.problem is not None and not isinstance(evidence.problem, str):
            raise _EvaluatorFailed(
                f"{self.who}: Evidence.problem is {_what(evidence.problem)}; give one sentence "
                "of text, or None for a valid input"
            )
        return None if evidence.problem is None else str.__str__(evidence.problem)


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
