"""JSON values as pytest-rubric stores and sends them: the ``JSON`` type, and copies any
encoder and pytest-xdist's transport can carry.

- :func:`plain`: a copy that any JSON encoder and pytest-xdist's transport can carry:
  lone surrogates escaped, integers too long for ``str`` written as marked text,
  nesting bounded, cycles cut, anything else named by its type;
- :func:`clean_copy`, :func:`copied`, :func:`normalised`: copies of values already
  known to be JSON, for values kept while their maker may change them;
- :func:`is_plain`: whether a value is made of JSON's own types only.

Nothing here raises for any input: these run inside pytest's report hooks, where an
exception is an INTERNALERROR, and under pytest-xdist a silent pass.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any, TypeAlias, TypeVar, cast

from pytest_rubric.core.escapes import SURROGATES, escape_surrogates, is_encodable
from pytest_rubric.core.numbers import BIG_INTEGER, WHOLE_INT_BITS, decimal_digits

#: A JSON-compatible value, as evaluators take and answer them.
JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"

_T = TypeVar("_T")
#: JSON text of one value.
Encode: TypeAlias = Callable[[object], str]
_PLAIN_SCALARS = frozenset((bool, str, int, float))

#: Deeper values are cut (records) or refused (answers). Case files allow 100 levels.
MAX_DEPTH = 200


def _writable_int(value: int) -> int | str:
    """``value`` itself when JSON text can hold it here, else marked lossless text."""
    if value.bit_length() <= WHOLE_INT_BITS:
        return value
    try:
        str(value)
    except ValueError:
        return BIG_INTEGER.format(digits=decimal_digits(value), hex=hex(value))
    return value


def plain(value: object, *, depth: int = MAX_DEPTH, items: int | None = None) -> JSON:
    """``value`` as every JSON encoder and transport can carry it: ``value`` itself
    when it already is (JSON's own types, finite floats, integers ``str`` prints,
    text UTF-8 can encode, within ``depth``; shared, so never to be changed), else a copy.

    Strings lose nothing but lone surrogates (written as ``\\udXXX`` escapes);
    integers too long for ``str`` become marked text; tuples become lists and
    keys strings; a cycle becomes ``"(cycle)"``, anything nested deeper than
    ``depth`` ``"(nested too deeply)"``, and any other object ``"(a Foo)"``.
    With ``items``, each list and mapping keeps only its first ``items`` entries
    (enough for the start of the text of a huge answer). Never raises.
    """
    try:
        if items is None and _is_plain(value, depth, clean=True):  # the usual value: no copy
            return cast(JSON, value)
        return _plain(value, depth, set(), items)
    except Exception as exc:  # a hostile __eq__, __len__ or __iter__
        return f"(a {type(value).__name__} that could not be read: {type(exc).__name__})"


def _plain(value: object, depth: int, open_ids: set[int], items: int | None = None) -> JSON:
    if type(value) is str:
        return value if is_encodable(value) else escape_surrogates(value)
    if value is None or type(value) is bool:
        return value
    if type(value) is int:
        return _writable_int(value)
    if type(value) is float:
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, (Mapping, list, tuple)):
        if id(value) in open_ids:
            return "(cycle)"
        if depth <= 0:
            return "(nested too deeply)"
        open_ids.add(id(value))
        try:
            if isinstance(value, Mapping):
                pairs = value.items() if items is None else islice(value.items(), items)
                return {_key(key): _plain(item, depth - 1, open_ids, items) for key, item in pairs}
            entries = value if items is None else islice(value, items)
            return [_plain(item, depth - 1, open_ids, items) for item in entries]
        finally:
            open_ids.discard(id(value))
    if isinstance(value, str):
        return _plain(str.__str__(value), depth, open_ids, items)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return _plain(int(value), depth, open_ids, items)
    if isinstance(value, float):
        return _plain(float(value), depth, open_ids, items)
    return f"(a {type(value).__name__})"


def _key(key: object) -> str:
    if isinstance(key, str):
        return str.__str__(key) if is_encodable(key) else escape_surrogates(key)
    shown = _plain(key, 1, set())
    return shown if isinstance(shown, str) else json.dumps(shown)


def is_plain(value: object, *, clean: bool = False) -> bool:
    """Whether ``value`` is a JSON value made of JSON's own types only (no subclasses,
    no tuples), with finite floats and text keys, nested at most :data:`MAX_DEPTH`
    levels: then :func:`json_problem` finds nothing and :func:`normalised` gives it back.
    ``clean``: also text UTF-8 can encode and integers ``str`` prints whole, so that
    :func:`plain` gives it back too."""
    return _is_plain(value, MAX_DEPTH, clean)


def _is_plain(value: Any, depth: int, clean: bool = False) -> bool:
    """Whether ``value`` is made of JSON's own types only (no subclasses), with finite
    floats and text keys, nested within ``depth``: then :func:`_problem` finds nothing
    (a cycle nests without end, so it is never plain). Builds no ``where`` text.

    ``clean``: also every string and key one UTF-8 can encode, and every integer one
    ``str`` prints whole: then :func:`_plain` gives ``value`` back unchanged."""
    kind = type(value)
    if kind is str:
        return not clean or _is_clean_text(value)
    if kind is bool or value is None:
        return True
    if kind is int:
        return not clean or value.bit_length() <= WHOLE_INT_BITS
    if kind is float:
        return math.isfinite(value)
    if depth <= 0:
        return False
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or not _is_plain(item, depth - 1, clean):
                return False
            if clean and not _is_clean_text(key):
                return False
        return True
    if kind is list:
        kinds = set(map(type, value))
        if kinds == {str}:  # a list of IDs, say: one look at all its text at once
            return not clean or _is_clean_text("".join(value))
        if kinds <= _ATOMS:
            return True
        for item in value:  # noqa: SIM110 (a loop, not all() over a generator: it is hot)
            if not _is_plain(item, depth - 1, clean):
                return False
        return True
    return False


def clean_copy(value: object) -> JSON:
    """A fresh copy of ``value`` when it is plain and clean (as ``is_plain(value,
    clean=True)`` says), made in the same walk that checks it; else :class:`NotClean`.
    For values kept while the code that made them may change them again."""
    copy: JSON = _clean_copy(value, MAX_DEPTH)
    return copy


class NotClean(ValueError):
    """A value :func:`clean_copy` does not copy: :func:`plain` would change it."""


def _clean_copy(value: Any, depth: int) -> Any:
    kind = type(value)
    if kind is str:
        if value.isascii() or SURROGATES.search(value) is None:
            return value
        raise NotClean
    if kind is bool or value is None:
        return value
    if kind is int:
        if value.bit_length() <= WHOLE_INT_BITS:
            return value
        raise NotClean
    if kind is float:
        if math.isfinite(value):
            return value
        raise NotClean
    if depth <= 0:
        raise NotClean
    if kind is dict:
        copy = {}
        for key, item in value.items():
            if type(key) is not str or not (key.isascii() or _is_clean_text(key)):
                raise NotClean
            simple = type(item) is bool or (type(item) is str and item.isascii())
            copy[key] = item if simple else _clean_copy(item, depth - 1)
        return copy
    if kind is list:
        # A list of text (disagreement IDs), checked in C: every item a str, and together
        # ASCII or free of surrogates.
        if value and _all_text(value):
            return list(value)
        return [_clean_copy(item, depth - 1) for item in value]
    raise NotClean


def _all_text(items: list[Any]) -> bool:
    """Whether ``items`` are all exactly ``str``, and clean."""
    if type(items[0]) is not str or set(map(type, items)) != {str}:
        return False
    joined = "".join(items)
    return joined.isascii() or SURROGATES.search(joined) is None


#: Types that are plain and clean whatever their value.
_ATOMS = frozenset((bool, type(None)))


def _is_clean_text(text: str) -> bool:
    return text.isascii() or SURROGATES.search(text) is None


#: Compact JSON text of a value :func:`plain` gave back.
compact: Encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def copied(value: _T) -> _T:
    """A fresh copy of a JSON tree as a case file gives it (dicts, lists, scalars)."""
    copy: _T = _copied(value)
    return copy


_BRANCHES = (dict, list)


def _copied(value: Any) -> Any:
    # Scalars are placed as they are, not called for: most of a tree is its leaves.
    kind = type(value)
    if kind is dict:
        return {
            key: _copied(item) if type(item) in _BRANCHES else item for key, item in value.items()
        }
    if kind is list:
        return [_copied(item) if type(item) in _BRANCHES else item for item in value]
    return value


def normalised(value: object) -> JSON:
    """``value`` (which :func:`json_problem` accepts) with plain JSON types only:
    subclasses of ``str``, ``int``, ``float``, ``dict`` and ``list`` become those.
    A value that has none is given back as it is, not copied."""
    if value is None or type(value) in _PLAIN_SCALARS or _is_plain(value, MAX_DEPTH):
        return cast(JSON, value)
    return _normalised(value)


def _normalised(value: object) -> JSON:
    if value is None or type(value) in _PLAIN_SCALARS:
        return cast(JSON, value)
    if isinstance(value, dict):
        return {str.__str__(key): _normalised(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_normalised(item) for item in value]
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    return float(cast(float, value))
