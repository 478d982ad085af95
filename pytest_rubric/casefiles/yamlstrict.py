"""Strict YAML: one document of plain JSON-like data, with the position of every part.

PyYAML's loaders follow YAML 1.1 (``yes`` is ``True``), keep the last of two
duplicate keys, expand aliases and build Python objects from tags. Case files must
mean exactly what they say, so :func:`load` reads PyYAML's *event stream* (the
libyaml parser where available) and builds values itself
(:mod:`~pytest_rubric.casefiles.yamlevents`, scalars typed as YAML 1.2's core schema
by :mod:`~pytest_rubric.casefiles.yamlscalars`), then audits what the parsers let
through (:mod:`~pytest_rubric.casefiles.yamlgaps`). This module is the entry: it
decodes the text, runs the parser, and turns PyYAML's errors into
:class:`StrictYAMLError` with the same position from either parser.

Problems that spoil the whole text (bad syntax, a second document, runaway
nesting) raise :class:`StrictYAMLError`. Problems that do not stop the parse are
collected with their positions, so the caller can decide which part of the document
each one spoils. PyYAML's global state (resolvers, constructors) is never touched.
"""

from __future__ import annotations

from typing import Any

import yaml

from pytest_rubric.casefiles import yamlgaps, yamljson
from pytest_rubric.casefiles.yamlevents import MAX_DEPTH as MAX_DEPTH
from pytest_rubric.casefiles.yamlevents import TOO_DEEP, Builder, Redo
from pytest_rubric.casefiles.yamlevents import Document as Document
from pytest_rubric.casefiles.yamlevents import Position as Position
from pytest_rubric.casefiles.yamlevents import Problem as Problem
from pytest_rubric.casefiles.yamlevents import Spans as Spans
from pytest_rubric.casefiles.yamlevents import StrictYAMLError as StrictYAMLError
from pytest_rubric.core.lines import line_col

PARSER: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The parser whose events are read: libyaml's when PyYAML was built with it."""


def decode(data: bytes) -> str:
    """UTF-8 text (a leading BOM is dropped), or :class:`StrictYAMLError` where it is not."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8-sig", "replace")
        line, col = line_col(prefix, len(prefix))
        raise StrictYAMLError(
            line,
            col,
            f"byte 0x{data[exc.start]:02x} is not UTF-8; save the file as UTF-8",
        ) from None


def load(
    text: str, parser: type[Any] = PARSER, *, ends: bool = True, json_values: bool = False
) -> Document:
    """Build the single document in ``text`` strictly.

    ``ends``: whether to record where each value's text ends
    (:attr:`Spans.value_ends`, which editing needs and reading does not). ``json_values``:
    whether a case's ``input`` or ``expected`` written as one line of JSON is read by the
    JSON decoder (:mod:`~pytest_rubric.casefiles.yamljson`), the same value for less work,
    without the positions of its parts (which reading a case file does not need).

    Raises :class:`StrictYAMLError` for what spoils the whole text (bad syntax,
    more than one document); collects everything else as :class:`Problem`.
    """
    text = yamlgaps.trailing_blank_line(text)
    if "\x85" in text or "\u2028" in text or "\u2029" in text:
        odd = yamlgaps.other_break(text)
        if odd is not None:
            raise StrictYAMLError(odd[0][0], odd[0][1], odd[1])
    if json_values:
        # A case's value lies inside the document, its list of cases and the case.
        parsed, wholes = yamljson.find(text, MAX_DEPTH - 3)
        if wholes:
            try:
                return _built(Builder(ends, text, wholes), parsed, text, parser)
            except (StrictYAMLError, Redo):
                pass  # parsed again as written: its own words for what is wrong, if anything
    return _built(Builder(ends, text), text, text, parser)


def _built(builder: Builder, parsed: str, text: str, parser: type[Any]) -> Document:
    """The document ``builder`` builds from the events of ``parsed`` (``text``, or it with
    values read whole standing in as empty collections)."""
    loader = None
    try:
        loader = parser(parsed)
        builder.run(loader)
    except Exception as exc:
        kind = _yaml_error_kind(exc)
        if kind is None:
            raise
        raise _strict_error(exc, kind, text, parser) from None
    finally:
        if loader is not None:
            loader.dispose()
    if yamlgaps.needs_audit(text):
        for pos, message in yamlgaps.audit(text, parser):
            builder.problem(pos, message)
    return Document(builder.value, builder.spans, tuple(builder.problems), builder.empty)


def _yaml_error_kind(exc: Exception) -> str | None:
    """``marked``, ``reader`` or ``other`` for PyYAML's errors; ``None`` for the rest.

    Told by class name, as events are (see :mod:`~pytest_rubric.casefiles.yamlevents`): a PyYAML imported
    anew raises the libyaml extension's first classes.
    """
    names = {cls.__name__ for cls in type(exc).__mro__ if cls.__module__.startswith("yaml.")}
    if "MarkedYAMLError" in names:
        return "marked"
    if "ReaderError" in names:
        return "reader"
    return "other" if "YAMLError" in names else None


def _strict_error(exc: Any, kind: str, text: str, parser: type[Any]) -> StrictYAMLError:
    if kind == "marked":
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        what = exc.problem or exc.context or "cannot be parsed"
        if not _is_libyaml(parser) and what.startswith(_AFTER_BACKSLASH):
            # PyYAML points just past the '\\' or '%' that starts a bad escape; libyaml
            # points at it. Both parsers give the same position, the escape's start.
            col = max(col - 1, 1)
        if "maximum nesting depth" in what:  # libyaml's own limit, met while scanning ahead
            return StrictYAMLError(line, col, TOO_DEEP)
        return StrictYAMLError(line, col, yamlgaps.refusal(text, line, col, what))
    if kind == "reader":
        index = exc.position
        if _is_libyaml(parser):
            # libyaml reads the text as UTF-8 and reports a byte offset into it.
            index = len(text.encode("utf-8")[:index].decode("utf-8", "ignore"))
        line, col = line_col(text, index)
        return StrictYAMLError(
            line,
            col,
            f"character U+{exc.character:04X} is not allowed in YAML; remove it or write it "
            f"as an escape (\\u{exc.character:04x}) inside double quotes",
        )
    return StrictYAMLError(1, 1, f"invalid YAML: {exc}")


_AFTER_BACKSLASH = ("found unknown escape character", "expected URI escape sequence")


def _is_libyaml(parser: type[Any]) -> bool:
    # PyYAML's own parsers read through its Python Reader; libyaml's do not.
    return not issubclass(parser, yaml.reader.Reader)
