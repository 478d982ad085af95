"""JSON values as pytest-rubric checks, stores, sends and shows them.

One vocabulary for every place a value leaves an evaluator or a case file:

- :func:`json_problem`: whether an evaluator's answer is JSON at all (no tuples,
  sets, objects, non-string keys, NaN, cycles or runaway nesting);
- :func:`plain`: a copy that any JSON encoder and pytest-xdist's transport can
  carry: lone surrogates escaped, integers too long for ``str`` written as
  marked text, nesting bounded, cycles cut, anything else named by its type;
- :func:`show`: one value as a short line of JSON text for people, with
  control characters escaped (``true``, ``1`` and ``"true"`` look different);
- :func:`escape_controls`: text from data made safe for a terminal line.

Nothing here raises for any input: these run inside pytest's report hooks,
where an exception is an INTERNALERROR, and under pytest-xdist a silent pass.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any, TypeAlias, TypeVar, cast

#: A JSON-compatible value, as evaluators take and answer them.
JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"

_T = TypeVar("_T")
#: JSON text of one value.
Encode: TypeAlias = Callable[[object], str]
_PLAIN_SCALARS = frozenset((bool, str, int, float))

#: Deeper values are cut (records) or refused (answers). Case files allow 100 levels.
MAX_DEPTH = 200
#: How much of a value :func:`describe` shows inside a sentence.
DESCRIBE_LIMIT = 200
#: Text that marks an integer written as text because it has too many digits.
BIG_INTEGER = "(integer of {digits} digits) {hex}"

#: Invisible characters that reorder or hide text: direction marks and overrides,
#: isolates, the Arabic letter mark and the zero-width no-break space (BOM).
_INVISIBLE = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff"
_CONTROLS = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_INVISIBLE}\ud800-\udfff]")
_CONTROLS_BUT_NEWLINE = re.compile(
    f"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029{_INVISIBLE}\ud800-\udfff]"
)
_SURROGATES = re.compile("[\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}
_ABSENT = object()


def escape_controls(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with control characters, line and paragraph separators, bidi
    overrides and lone surrogates written as escapes (``\\n``, ``\\x1b``,
    ``\\u202e``), so data can never forge or recolour a terminal line."""
    text = str.__str__(text)  # a str subclass's own __str__ is never called
    pattern = _CONTROLS_BUT_NEWLINE if keep_newlines else _CONTROLS
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _escape_surrogates(text: str) -> str:
    return _SURROGATES.sub(_escape, text)


def is_encodable(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (it has no lone surrogate)."""
    return text.isascii() or _SURROGATES.search(text) is None


#: An integer of at most this many bits has at most 4214 decimal digits, under
#: CPython's default limit of 4300 for ``str(int)``, and is printed whole.
_WHOLE_INT_BITS = 14_000
#: Past this many bits (about 1.2 million digits) even counting the digits exactly
#: costs noticeable time; the count is then estimated from the bit length.
_COUNTED_INT_BITS = 4_000_000
_LOG10_2 = 0.30102999566398120


def decimal_digits(value: int) -> int:
    """How many decimal digits ``abs(value)`` has (estimated past about 1.2 million
    digits), without ``str``, which refuses integers past CPython's 4300-digit limit."""
    magnitude = abs(value)
    digits = int(magnitude.bit_length() * _LOG10_2) + 1  # exact, or one too many
    if (
        magnitude.bit_length() <= _COUNTED_INT_BITS
        and digits > 1
        and magnitude < 10 ** (digits - 1)
    ):
        digits -= 1
    return digits


def int_text(value: int) -> str:
    """``value`` in decimal, or ``1234…5678 (an integer of 5000 digits)`` when it is too
    long to print whole. Never raises and never changes Python's int/str limit."""
    if value.bit_length() <= _WHOLE_INT_BITS:
        try:
            return str(value)
        except ValueError:  # the user lowered sys.set_int_max_str_digits below 4214
            pass
    sign = "-" if value < 0 else ""
    magnitude = -value if value < 0 else value
    tail = f"{magnitude % 10_000:04d}"
    digits = decimal_digits(magnitude)
    if magnitude.bit_length() > _COUNTED_INT_BITS:
        return f"{sign}…{tail} (an integer of about {digits} digits)"
    # Dividing by a power of ten close to the value leaves a tiny quotient: cheap.
    head = magnitude // 10 ** (digits - 4)
    return f"{sign}{head}…{tail} (an integer of {digits} digits)"


def _writable_int(value: int) -> int | str:
    """``value`` itself when JSON text can hold it here, else marked lossless text."""
    if value.bit_length() <= _WHOLE_INT_BITS:
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
        return value if is_encodable(value) else _escape_surrogates(value)
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
        return str.__str__(key) if is_encodable(key) else _escape_surrogates(key)
    shown = _plain(key, 1, set())
    return shown if isinstance(shown, str) else json.dumps(shown)


def json_problem(value: object, where: str = "the answer") -> str | None:
    """What makes ``value`` something other than a JSON value, or ``None``.

    JSON values are ``None``, booleans, integers, finite floats, strings, lists
    and mappings with string keys, nested at most :data:`MAX_DEPTH` levels and
    without cycles. Subclasses of those types count as those types.
    """
    try:
        if _is_plain(value, MAX_DEPTH):  # the usual answer: say nothing, cheaply
            return None
        return _problem(value, where, MAX_DEPTH, set(), where)
    except Exception as exc:
        return f"{where} could not be read: {type(exc).__name__}"


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
        return not clean or value.bit_length() <= _WHOLE_INT_BITS
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
    return cast(JSON, _clean_copy(value, MAX_DEPTH))


class NotClean(ValueError):
    """A value :func:`clean_copy` does not copy: :func:`plain` would change it."""


def _clean_copy(value: Any, depth: int) -> Any:
    kind = type(value)
    if kind is str:
        if value.isascii() or _SURROGATES.search(value) is None:
            return value
        raise NotClean
    if kind is bool or value is None:
        return value
    if kind is int:
        if value.bit_length() <= _WHOLE_INT_BITS:
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
    return joined.isascii() or _SURROGATES.search(joined) is None


#: Types that are plain and clean whatever their value.
_ATOMS = frozenset((bool, type(None)))


def _is_clean_text(text: str) -> bool:
    return text.isascii() or _SURROGATES.search(text) is None


#: Compact JSON text of a value :func:`plain` gave back.
compact: Encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _problem(value: object, where: str, depth: int, open_ids: set[int], root: str) -> str | None:
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{where} is {value!r}, which JSON cannot hold"
    if isinstance(value, (dict, list)):
        if id(value) in open_ids:
            return f"{where} contains itself (a cycle)"
        if depth <= 0:
            return f"{root} nests deeper than {MAX_DEPTH} levels"
        open_ids.add(id(value))
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    return (
                        f"{where} has the key {show(key)} ({type(key).__name__}); keys are strings"
                    )
                found = _problem(item, f"{where}.{escape_controls(key)}", depth - 1, open_ids, root)
                if found is not None:
                    return found
        else:
            for index, item in enumerate(value):
                found = _problem(item, f"{where}[{index}]", depth - 1, open_ids, root)
                if found is not None:
                    return found
        open_ids.discard(id(value))
        return None
    return (
        f"{where} is a {type(value).__name__}, not a JSON value "
        "(null, boolean, number, string, list or mapping with string keys)"
    )


def copied(value: _T) -> _T:
    """A fresh copy of a JSON tree as a case file gives it (dicts, lists, scalars)."""
    kind = type(value)
    if kind is dict:
        return cast(_T, {key: copied(item) for key, item in cast(dict[str, object], value).items()})
    if kind is list:
        return cast(_T, [copied(item) for item in cast(list[object], value)])
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


def show(value: object, *, limit: int = 2000) -> str:
    """One value as JSON text for a message: control characters escaped, long
    integers abbreviated, at most ``limit`` characters. Never raises.

    Only the start of a huge list or mapping is read: every entry takes at least
    three characters with its ", ", so the first ``limit // 3 + 1`` entries of each
    already reach past the cut, and the text shown is the same as from the whole."""
    try:
        text = _json_text(plain(value, items=limit // 3 + 1))
    except Exception:
        text = f"(a {type(value).__name__})"
    text = escape_controls(text)
    if len(text) > limit:
        text = f"{text[: limit - 1]}…"
    return text


def _json_text(value: JSON) -> str:
    if type(value) is int:
        return int_text(value)
    if isinstance(value, str) and value.startswith("(integer of ") and "0x" in value:
        return int_text(int(value.rpartition(" ")[2], 16))  # a marked long integer
    if isinstance(value, dict):
        inner = ", ".join(f"{_json_text(key)}: {_json_text(item)}" for key, item in value.items())
        return f"{{{inner}}}"
    if isinstance(value, list):
        return f"[{', '.join(_json_text(item) for item in value)}]"
    return json.dumps(value, ensure_ascii=False)


def describe(value: object) -> str:
    """A value in a sentence, as JSON with its kind: ``"true" (a string)``, ``3 (a
    number)``, ``empty (null)``; the one way messages name a value that is wrong.

    Never raises: an integer too long for ``str()`` (CPython refuses past 4300
    digits) is shown abbreviated, control characters escaped, and a long value
    cut at :data:`DESCRIBE_LIMIT` characters.
    """
    if value is None:
        return "empty (null)"
    if type(value) is int and value.bit_length() > 14_000:
        return int_text(value)
    return f"{show(value, limit=DESCRIBE_LIMIT)} ({kind_of(value)})"


#: The words YAML 1.1 readers (PyYAML's own loaders among them) take as booleans, and
#: which are text in YAML 1.2, JSON and CSV alike: the boolean each was meant as.
YAML_11_BOOLEANS = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "on", "On", "ON"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "off", "Off", "OFF"), False),
}


def boolean_slip(value: object) -> tuple[bool, str] | None:
    """The boolean ``value`` most likely meant, and how to write it, when ``value``
    is a classic slip for one; ``None`` for anything else. The one place both
    invalid-input messages and mismatch hints find these slips, worded so that the fix
    is right whichever format the value came from (YAML, JSON, a CSV cell):

    - the text ``true``/``false`` itself, which only quotes make text: remove them;
    - another casing or spacing of it (``TRUE``, ``" false "``), as a CSV cell or a
      quoted value: only the lowercase word is a boolean;
    - a YAML 1.1 boolean (``yes``, ``no``, ``on``, ``off``, ``y``, ``n``), which is text
      here;
    - the number ``1`` or ``0``.
    """
    if isinstance(value, str):
        word = value.strip().lower()
        if value in ("true", "false"):
            return value == "true", f"write {value} without quotes"
        if word in ("true", "false"):
            return word == "true", (
                f"write {word}: only true and false, in lowercase and with nothing around "
                "them, are booleans (unquoted in YAML and JSON)"
            )
        meant = YAML_11_BOOLEANS.get(value.strip())
        if meant is not None:
            written = "true" if meant else "false"
            return meant, (
                f"YAML 1.1 readers take {value.strip()} as a boolean, but here it is text: "
                f"write {written}"
            )
    elif isinstance(value, (int, float)) and type(value) is not bool and value in (0, 1):
        meant = value == 1
        return meant, f"write {'true' if meant else 'false'}, not {show(value)}"
    return None


def kind_of(value: object) -> str:
    """A value's kind in words: ``null``, ``a boolean``, ``a number``, ``a string``, ``a list``,
    ``a mapping``, or the name of its Python type."""
    if value is None:
        return "null"
    if type(value) is bool:
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__
