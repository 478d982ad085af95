"""The table that maps evaluator names to evaluators, each with where it came from."""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Mapping

from pytest_rubric.core.evaluator import Evaluator, OnLedger
from pytest_rubric.core.jsoncheck import json_problem
from pytest_rubric.core.jsonvalues import is_plain, normalised
from pytest_rubric.core.nearest import nearest


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
        for field in _FUNCTIONS:
            function = getattr(evaluator, field)
            if function is not None and not callable(function):
                return (
                    f"evaluator {show_object(name)} with {field}={show_object(function)}; "
                    f"{field} must be a function, or None"
                )
        ledger = evaluator.ledger
        if ledger is not None and not isinstance(ledger, OnLedger):
            return (
                f"evaluator {show_object(name)} with ledger={show_object(ledger)}; write "
                f"pytest_rubric.OnLedger(stream=..., review=...), or None"
            )
        for field in _LEDGER_FUNCTIONS if ledger is not None else ():
            function = getattr(ledger, field)
            if function is not None and not callable(function):
                return (
                    f"evaluator {show_object(name)} with ledger {field}={show_object(function)}; "
                    f"{field} must be a function, or None"
                )
        schema = evaluator.answer_schema
        if schema is not None and not isinstance(schema, Mapping):
            return (
                f"evaluator {show_object(name)} with answer_schema={show_object(schema)}; "
                f"answer_schema must be a JSON Schema as a dict, or None"
            )
        problem = None if schema is None else json_problem(schema, "answer_schema")
        if problem is None and schema is not None and not is_plain(normalised(schema), clean=True):
            problem = (
                "answer_schema holds text UTF-8 cannot write (a lone surrogate) or an integer "
                "too long to write"
            )
        if problem is not None:
            return (
                f"evaluator {show_object(name)} with an answer_schema that is not JSON: "
                f"{problem}; write it with dicts, lists, text, finite numbers, booleans and None"
            )
        return None

    def get(self, name: str) -> Evaluator | None:
        entry = self._by_name.get(name)
        return None if entry is None else entry[0]

    def names(self) -> list[str]:
        return sorted(self._by_name)

    def suggest(self, name: str) -> str | None:
        """The registered name nearest to a misspelt ``name``, if any is close."""
        return nearest(name, self.names())


#: The Evaluator's optional functions, and those of its ``ledger``.
_FUNCTIONS = ("explain", "configure")
_LEDGER_FUNCTIONS = ("stream", "review")

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
