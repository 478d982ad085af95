"""The document PyYAML's events describe, built strictly, with where each part is.

:class:`Builder` reads the event stream and builds plain JSON-like values: any
explicit tag, anchor, alias or merge key is a problem, never followed; a duplicate
key is a problem naming both lines; keys must be strings; scalars are typed by
:mod:`~pytest_rubric.casefiles.yamlscalars`; nesting is bounded, and building is
iterative, so depth never recurses. What spoils the whole text (a second document,
runaway nesting) raises :class:`StrictYAMLError`; the rest is collected as
:class:`Problem` with its position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from sys import intern
from typing import Any

from pytest_rubric.casefiles import yamlgaps
from pytest_rubric.casefiles.yamljson import Whole
from pytest_rubric.casefiles.yamlscalars import (
    BOOLS,
    NULLS,
    NUMBER_START,
    Refused,
    key_problem,
    number,
)
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.lines import BREAKS

#: Nesting deeper than this is refused (case files need about eight levels).
MAX_DEPTH = 100
TOO_DEEP = f"nesting deeper than {MAX_DEPTH} levels is refused; flatten this value"

Position = tuple[int, int]
"""A 1-based ``(line, column)``."""

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
    reading does not. ``flow``: the ids of containers written in flow style. ``json``: each
    case's ``input`` or ``expected`` read whole by the JSON decoder
    (:mod:`~pytest_rubric.casefiles.yamljson`), which holds it (one dropped as a duplicate
    too: its id is never another's); the parts of such a value have no positions of their
    own. The document must be kept alive while these are used, since they are keyed by
    object identity.
    """

    start: dict[int, Position] = field(default_factory=dict)
    end: dict[int, Position] = field(default_factory=dict)
    keys: dict[int, dict[str, tuple[Position, Position]]] = field(default_factory=dict)
    items: dict[int, list[Position]] = field(default_factory=dict)
    value_ends: dict[tuple[int, str | int], Position] = field(default_factory=dict)
    flow: set[int] = field(default_factory=set)
    json: dict[int, Whole] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in the document that was refused, with where and how to fix it."""

    line: int
    col: int
    message: str


@dataclass(frozen=True, slots=True)
class Document:
    """A loaded document: its value, where its parts are, what was refused in it, and
    whether the text held no document at all."""

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
        "whole",
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
        self.whole: Whole | None = None  # a value read whole, standing for this empty one


class Redo(Exception):
    """A value read whole stood where no case's ``input`` or ``expected`` is: the text is
    to be parsed again as written."""


class Builder:
    """Builds one document from PyYAML's events (:meth:`run`), with its spans and problems."""

    def __init__(self, ends: bool, text: str, wholes: dict[Position, Whole] | None = None) -> None:
        self.ends = ends  # whether to record Spans.value_ends
        self.text = text
        #: Values read whole, by where the empty collection standing for each starts.
        self.wholes = wholes or {}
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
        wholes = self.wholes
        stack = self._stack
        ends = self.ends
        value_ends = self.spans.value_ends
        nulls, bools, number_start = NULLS, BOOLS, NUMBER_START
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
                    raise StrictYAMLError(pos[0], pos[1], TOO_DEEP)
                container: Any = {} if kind is map_start else []
                frame = _Frame(container, kind is map_start, pos, bool(event.flow_style))
                if wholes and pos in wholes:
                    self._stand_in(frame, wholes.pop(pos))
                stack.append(frame)
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
                if wholes:
                    raise Redo  # a value read whole stood inside a scalar
                return

    def _stand_in(self, frame: _Frame, whole: Whole) -> None:
        """``frame``'s empty collection stands for ``whole``: as a case's ``input`` or
        ``expected`` (the only places :func:`~.yamljson.find` means), else :class:`Redo`."""
        stack = self._stack
        if not (
            len(stack) == 3
            and stack[0].is_map
            and stack[0].key == "cases"
            and not stack[1].is_map
            and stack[2].is_map
            and stack[2].key in ("input", "expected")
        ):
            raise Redo
        frame.container = whole.value
        frame.whole = whole

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
        if frame.whole is not None:
            spans.end[key] = frame.whole.end
            spans.flow.add(key)
            spans.json[key] = frame.whole
            self._add(frame.container, frame.start, frame.whole.end)
            return
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
        value = number(text)
        if type(value) is Refused:
            self.problem(pos, value.message)
            return _SKIP
        return value

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
                self.problem(pos, key_problem(value) + self._labels_hint(value))
            value = _SKIP
        else:
            # A few keys repeat in every case: one string each, not one per case.
            value = intern(value)
        frame.key = value
        frame.key_pos = pos

    def _labels_hint(self, value: Any) -> str:
        """For a number as a key of a ``ledger:`` block's ``labels`` mapping: the form
        that reads numbers (a quoted key is text, which a number never equals)."""
        stack = self._stack
        if type(value) not in (int, float) or len(stack) < 3:
            return ""
        if stack[-2].key != "labels" or stack[-3].key != "ledger":
            return ""
        return (
            " if the export writes it as text (a CSV cell); for the number, as JSON and "
            "Parquet hold it, write the labels as pairs: 'labels: [[1, true], [0, false]]'"
        )

    def _duplicate(self, frame: _Frame, key: str) -> None:
        seen = frame.keys[key]
        self.problem(
            frame.key_pos,
            f"duplicate key {key!r}: first given at line {seen[0][0]}, again at line "
            f"{frame.key_pos[0]}; keep one of them",
        )
