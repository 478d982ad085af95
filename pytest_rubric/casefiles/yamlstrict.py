"""Strict YAML: one document of plain JSON-like data, with the position of every part.

PyYAML's loaders follow YAML 1.1 (``yes`` is ``True``), keep the last of two
duplicate keys, expand aliases and build Python objects from tags. Case files must
mean exactly what they say, so this module reads PyYAML's *event stream* (the
libyaml parser where available) and builds values itself:

- YAML 1.2 core-schema scalars: only ``true``/``false`` (any of three casings)
  are booleans, ``null``/``~``/empty is null, and everything that is not a
  YAML 1.2 number stays a string (``yes``, ``on``, ``2024-01-02``, ``1:30``);
- any explicit tag, anchor, alias or merge key is a problem, never followed;
- a duplicate key is a problem naming both lines; keys must be strings;
- nesting is bounded, and building is iterative, so depth never recurses.

Problems that spoil the whole text (bad syntax, a second document, runaway
nesting) raise :class:`StrictYAMLError`.

Problems that do not stop the parse are collected with their positions, so the
caller can decide which part of the document each one spoils. PyYAML's global
state (resolvers, constructors) is never touched.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from sys import intern
from typing import Any

import yaml

from pytest_rubric.casefiles import yamlgaps
from pytest_rubric.core.jsonvalues import JSON, int_text
from pytest_rubric.core.lines import BREAKS, line_col
from pytest_rubric.core.numbers import MAX_NUMBER_CHARS, decimal_int

#: Nesting deeper than this is refused (case files need about eight levels).
MAX_DEPTH = 100
PARSER: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The parser whose events are read: libyaml's when PyYAML was built with it."""

Position = tuple[int, int]
"""A 1-based ``(line, column)``."""

_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NUMBER_START = frozenset("0123456789+-.")
_INT = re.compile(r"[-+]?[0-9]+\Z")
_OCT = re.compile(r"0o[0-7]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_NON_FINITE = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z")
_TOO_DEEP = f"nesting deeper than {MAX_DEPTH} levels is refused; flatten this value"
#: Line breaks as YAML counts them, so positions computed here agree with the parsers' own.
#: Decimal digits handed to ``int()`` at once: below 640, the lowest limit Python lets
#: anyone set with ``sys.set_int_max_str_digits``, so no setting makes it refuse.
_SKIP = object()  # stands in for a value that was refused
_BLOCK_STYLES = frozenset({"|", ">"})


@dataclass(slots=True)
class Spans:
    """Where the parts of a loaded document are, keyed by ``id()`` of each container.

    ``start``/``end``: where a mapping or list begins and ends. ``keys``: for a
    mapping, each key's position and its value's position. ``items``: for a
    list, each item's position. ``value_ends``: where the text of each value
    ends, by ``(id of its container, its key or index)``: just past a scalar
    (and its closing quote), a flow collection's closing bracket, or the last
    value inside a block collection (so never past a trailing comment or blank
    line); recorded only when loaded with ``ends``, as editing needs them and
    reading does not. ``flow``: the ids of containers written in flow style. The document
    must be kept alive while these are used, since they are keyed by object identity.
    """

    start: dict[int, Position] = field(default_factory=dict)
    end: dict[int, Position] = field(default_factory=dict)
    keys: dict[int, dict[str, tuple[Position, Position]]] = field(default_factory=dict)
    items: dict[int, list[Position]] = field(default_factory=dict)
    value_ends: dict[tuple[int, str | int], Position] = field(default_factory=dict)
    flow: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in the document that was refused, with where and how to fix it."""

    line: int
    col: int
    message: str


@dataclass(frozen=True, slots=True)
class Document:
    value: JSON
    spans: Spans
    problems: tuple[Problem, ...]
    empty: bool


class StrictYAMLError(Exception):
    """The text cannot be read as one YAML document at all."""

    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(f"{line}:{col}: {message}")
        self.line = line
        self.col = col
        self.message = message


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


def load(text: str, parser: type[Any] = PARSER, *, ends: bool = True) -> Document:
    """Build the single document in ``text`` strictly.

    ``ends``: whether to record where each value's text ends
    (:attr:`Spans.value_ends`, which editing needs and reading does not).

    Raises :class:`StrictYAMLError` for what spoils the whole text (bad syntax,
    more than one document); collects everything else as :class:`Problem`.
    """
    text = yamlgaps.trailing_blank_line(text)
    if "\x85" in text or "\u2028" in text or "\u2029" in text:
        odd = yamlgaps.other_break(text)
        if odd is not None:
            raise StrictYAMLError(odd[0][0], odd[0][1], odd[1])
    builder = _Builder(ends, text)
    loader = None
    try:
        loader = parser(text)
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

    Told by class name, as events are (see :data:`_EVENT_KINDS`): a PyYAML imported
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
            return StrictYAMLError(line, col, _TOO_DEEP)
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


# Events are told apart by class name, each class's kind remembered by the class itself.
# pytester's in-process runs drop modules imported during a run from sys.modules; a
# PyYAML imported anew then has new Python event classes while the libyaml extension,
# which cannot be loaded twice, keeps emitting its first ones.
_SCALAR, _ALIAS, _MAPPING_START, _SEQUENCE_START = 1, 2, 3, 4
_MAPPING_END, _SEQUENCE_END, _DOCUMENT_START, _STREAM_END, _OTHER = 5, 6, 7, 8, 0
_KIND_BY_NAME = {
    "ScalarEvent": _SCALAR,
    "AliasEvent": _ALIAS,
    "MappingStartEvent": _MAPPING_START,
    "SequenceStartEvent": _SEQUENCE_START,
    "MappingEndEvent": _MAPPING_END,
    "SequenceEndEvent": _SEQUENCE_END,
    "DocumentStartEvent": _DOCUMENT_START,
    "StreamEndEvent": _STREAM_END,
}
_EVENT_KINDS: dict[type, int] = {}


def _event_kind(cls: type) -> int:
    kind = _KIND_BY_NAME.get(cls.__name__, _OTHER) if cls.__module__ == "yaml.events" else _OTHER
    _EVENT_KINDS[cls] = kind
    return kind


class _Frame:
    __slots__ = (
        "container",
        "flow",
        "is_map",
        "items",
        "key",
        "key_pos",
        "keys",
        "last_end",
        "start",
    )

    def __init__(self, container: Any, is_map: bool, start: Position, flow: bool) -> None:
        self.container = container
        self.is_map = is_map
        self.flow = flow
        self.last_end: Position = start  # where the last value inside ends
        self.key: Any = None  # pending key of a mapping, None when a key is awaited
        self.key_pos: Position = start
        self.start = start
        self.keys: dict[str, tuple[Position, Position]] = {}
        self.items: list[Position] = []


class _Builder:
    def __init__(self, ends: bool, text: str) -> None:
        self.ends = ends  # whether to record Spans.value_ends
        self.text = text
        self._lines: list[str] | None = None
        self.value: Any = None
        self.spans = Spans()
        self.problems: list[Problem] = []
        self.empty = True
        self._stack: list[_Frame] = []

    def problem(self, pos: Position, message: str) -> None:
        self.problems.append(Problem(pos[0], pos[1], message))

    def run(self, loader: Any) -> None:
        # The hot loop of every collection: scalars (most events) are built and placed
        # here inline; containers and the rare events go through the methods below.
        get_event = loader.get_event
        kinds = _EVENT_KINDS
        stack = self._stack
        ends = self.ends
        value_ends = self.spans.value_ends
        nulls, bools, number_start = _NULLS, _BOOLS, _NUMBER_START
        skip = _SKIP
        scalar, alias = _SCALAR, _ALIAS
        map_start, seq_start = _MAPPING_START, _SEQUENCE_START
        map_end, seq_end = _MAPPING_END, _SEQUENCE_END
        doc_start, stream_end = _DOCUMENT_START, _STREAM_END
        documents = 0
        end_pos: Position = (0, 0)
        while True:
            event = get_event()
            kind = kinds.get(type(event))
            if kind is None:
                kind = _event_kind(type(event))
            if kind is scalar:
                mark = event.start_mark
                pos = (mark.line + 1, mark.column + 1)
                value: Any = event.value
                if event.tag is None:
                    if event.anchor is not None:
                        self._refuse_decorations(event, pos)
                    if event.implicit[0]:  # plain: resolved as YAML 1.2's core schema
                        if value in nulls:
                            value = None
                        elif value in bools:
                            value = bools[value]
                        elif value[0] in number_start:
                            value = self._number(value, pos)
                        elif value == "<<":
                            value = self._merge_key(value, pos)
                    elif event.end_mark.line != mark.line:
                        self._scalar_lines(event)
                else:
                    self._refuse_decorations(event, pos)
                if ends:
                    end = event.end_mark
                    end_pos = (end.line + 1, end.column + 1)
                if not stack:
                    self.value = None if value is skip else value
                    continue
                frame = stack[-1]
                if frame.is_map:
                    key = frame.key
                    if key is None:  # this value is a key
                        self._take_key(frame, value, pos)
                        continue
                    frame.key = None
                    if ends:
                        frame.last_end = end_pos
                    if key is skip:
                        continue
                    keys = frame.keys
                    if key in keys:
                        self._duplicate(frame, key)
                        continue
                    frame.container[key] = None if value is skip else value
                    keys[key] = (frame.key_pos, pos)
                    if ends:
                        value_ends[id(frame.container), key] = end_pos
                else:
                    if ends:
                        frame.last_end = end_pos
                        value_ends[id(frame.container), len(frame.items)] = end_pos
                    frame.container.append(None if value is skip else value)
                    frame.items.append(pos)
            elif kind is map_start or kind is seq_start:
                mark = event.start_mark
                pos = (mark.line + 1, mark.column + 1)
                if event.anchor is not None or event.tag is not None:
                    self._refuse_decorations(event, pos)
                if len(stack) >= MAX_DEPTH:
                    # libyaml stops at its own depth limit anyway; stopping here, at
                    # once, gives both parsers the same answer.
                    raise StrictYAMLError(pos[0], pos[1], _TOO_DEEP)
                container: Any = {} if kind is map_start else []
                stack.append(_Frame(container, kind is map_start, pos, bool(event.flow_style)))
            elif kind is map_end or kind is seq_end:
                self._close(stack.pop(), event)
            elif kind is alias:
                mark = event.start_mark
                pos = (mark.line + 1, mark.column + 1)
                self.problem(
                    pos,
                    f"alias *{event.anchor} is refused: case files do not share values; "
                    f"write the value out in full",
                )
                end = event.end_mark
                self._add(_SKIP, pos, (end.line + 1, end.column + 1))
            elif kind is doc_start:
                documents += 1
                if documents > 1:
                    mark = event.start_mark
                    raise StrictYAMLError(
                        mark.line + 1,
                        mark.column + 1,
                        "a second YAML document starts here; a case file holds exactly "
                        "one document: remove this '---' or move these cases to another file",
                    )
                self.empty = False
            elif kind is stream_end:
                return

    def _spans_lines(self, frame: _Frame, first: int, last: int, *, flow: bool) -> None:
        """Check a quoted scalar or (``flow``) a flow collection on lines ``first`` to
        ``last`` in the block collection of ``frame``: its lines must be indented more
        than the block (in a flow collection, a comment line may start anywhere)."""
        if self._lines is None:
            self._lines = BREAKS.split(self.text)
        found = yamlgaps.continuation_problem(self._lines, first, last, frame.start[1], flow=flow)
        if found is not None:
            self.problem(found[0], found[1])

    def _scalar_lines(self, event: Any) -> None:
        """Check the lines of a quoted or block scalar that spans lines (the parsers
        check a plain one's indentation themselves)."""
        stack = self._stack
        if event.style not in _BLOCK_STYLES:
            if stack and not stack[-1].flow:
                lines = event.start_mark.line + 1, event.end_mark.line + 1
                self._spans_lines(stack[-1], *lines, flow=False)
            return
        # A block scalar's blank first lines, against its first line of text.
        if self._lines is None:
            self._lines = BREAKS.split(self.text)
        block = stack[-1].start[1] - 1 if stack else -1
        found = yamlgaps.block_scalar_problem(
            self._lines, event.start_mark.line + 1, event.start_mark.column + 1, block
        )
        if found is not None:
            self.problem(found[0], found[1])

    def _close(self, frame: _Frame, event: Any) -> None:
        """Record where the container of ``frame`` is, and place it in its parent."""
        spans = self.spans
        key = id(frame.container)
        spans.start[key] = frame.start
        end = event.end_mark
        end_pos = (end.line + 1, end.column + 1)
        if (
            frame.flow
            and self._stack
            and not self._stack[-1].flow
            and end.line + 1 != frame.start[0]
        ):
            self._spans_lines(self._stack[-1], frame.start[0], end.line + 1, flow=True)
        spans.end[key] = end_pos
        if frame.is_map:
            spans.keys[key] = frame.keys
        else:
            spans.items[key] = frame.items
        if frame.flow:
            spans.flow.add(key)
        else:
            end_pos = frame.last_end
        self._add(frame.container, frame.start, end_pos)

    def _refuse_decorations(self, event: Any, pos: Position) -> None:
        if event.anchor is not None:
            self.problem(
                pos,
                f"anchor &{event.anchor} is refused: case files do not share values; "
                f"remove '&{event.anchor}' and write each value out in full",
            )
        if event.tag is not None:
            self.problem(
                pos,
                f"tag {event.tag} is refused: case files hold plain data only; "
                f"remove the tag and write the value as plain YAML",
            )

    def _merge_key(self, text: str, pos: Position) -> Any:
        """``<<`` as a key of a mapping is YAML 1.1's merge key: refused."""
        if self._stack and self._stack[-1].is_map and self._stack[-1].key is None:
            self.problem(
                pos,
                "merge key '<<' is refused: case files do not share values; "
                "write the merged keys out in full",
            )
            return _SKIP
        return text

    def _number(self, text: str, pos: Position) -> Any:
        if text == "-":  # only a flow collection lets the parser read a lone '-' as text
            self.problem(
                pos,
                "a lone '-' in a flow collection is not text in YAML 1.2 (it can only start "
                "a block list item); quote it ('\"-\"') for the text",
            )
            return _SKIP
        if len(text) > MAX_NUMBER_CHARS and (
            _INT.match(text) or _OCT.match(text) or _HEX.match(text) or _FLOAT.match(text)
        ):
            self.problem(
                pos,
                f"a number written with {len(text)} characters is longer than case files "
                f"take ({MAX_NUMBER_CHARS}); shorten it, or quote it if you mean the text",
            )
            return _SKIP
        if _INT.match(text):
            return decimal_int(text)
        if _OCT.match(text):
            return int(text[2:], 8)
        if _HEX.match(text):
            return int(text[2:], 16)
        if _FLOAT.match(text):
            number = float(text)
            if math.isfinite(number):
                return number
        elif not _NON_FINITE.match(text):
            return text
        self.problem(
            pos,
            f"{text} is not a finite number, and JSON has no such value; "
            f"quote it ('{text}') if you mean the text",
        )
        return _SKIP

    def _add(self, value: Any, pos: Position, end: Position) -> None:
        """Place ``value`` (a container or a refused alias), written from ``pos`` to
        ``end``, in the container being built; scalars are placed inline in :meth:`run`."""
        if not self._stack:
            self.value = None if value is _SKIP else value
            return
        frame = self._stack[-1]
        if frame.is_map and frame.key is None:  # this value is a key
            self._take_key(frame, value, pos)
            return
        if not frame.is_map:
            if self.ends:
                frame.last_end = end
                self.spans.value_ends[id(frame.container), len(frame.items)] = end
            frame.container.append(None if value is _SKIP else value)
            frame.items.append(pos)
            return
        key = frame.key
        frame.key = None
        if self.ends:
            frame.last_end = end
        if key is _SKIP:
            return
        if key in frame.keys:
            self._duplicate(frame, key)
            return
        frame.container[key] = None if value is _SKIP else value
        frame.keys[key] = (frame.key_pos, pos)
        if self.ends:
            self.spans.value_ends[id(frame.container), key] = end

    def _take_key(self, frame: _Frame, value: Any, pos: Position) -> None:
        if type(value) is not str:
            if value is not _SKIP:
                self.problem(pos, _key_problem(value))
            value = _SKIP
        else:
            # A few keys repeat in every case: one string each, not one per case.
            value = intern(value)
        frame.key = value
        frame.key_pos = pos

    def _duplicate(self, frame: _Frame, key: str) -> None:
        seen = frame.keys[key]
        self.problem(
            frame.key_pos,
            f"duplicate key {key!r}: first given at line {seen[0][0]}, again at line "
            f"{frame.key_pos[0]}; keep one of them",
        )


def _key_problem(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return "a mapping key must be a string, not a mapping or list; use a plain text key"
    if type(value) is int and value.bit_length() > _LONG_KEY_BITS:
        # Far too long to echo, and str() would refuse it past 4300 digits.
        return f"mapping key {int_text(value)} is not a string; quote it to use it as a key"
    text = "null" if value is None else str(value).lower() if type(value) is bool else str(value)
    return f"mapping key {text} is not a string; quote it ('{text}') to use it as a key"


_LONG_KEY_BITS = 1_000  # about 300 digits
