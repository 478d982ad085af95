"""A ``ledger:`` block's label vocabulary: ``labels:`` read from the block, and what a
label value means under it (exactly: no case folding, no trimming, ``true`` is not ``1``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe, show
from pytest_rubric.core.slips import boolean_slip
from pytest_rubric.descriptions.positions import Block, Position, Written
from pytest_rubric.descriptions.traits import FileTraits

#: A vocabulary: each label value with the Boolean it means; ``None``: only real booleans.
Labels = tuple[tuple[JSON, bool], ...] | None


def read_labels(block: Block, traits: FileTraits) -> Labels:
    """The vocabulary ``labels:`` of ``block`` gives (``None`` where it gives none, or after
    refusing it); where ``traits.text_cells`` every cell of the file is text, and so must
    each label be."""
    if "labels" not in block.value:
        return None
    pairs = _label_pairs(block.value["labels"], block.places.value("labels"), block.written)
    if pairs is None:
        return None
    refuse = block.refuse
    seen: dict[tuple[str, JSON], tuple[bool, Position]] = {}
    for label, meaning, where in pairs:
        if traits.text_cells and not isinstance(label, str):
            refuse(
                where,
                f"label {show(label)} is not text, but every cell of a .csv ledger is text; "
                f"write it quoted ('{show(label)}')",
            )
            return None
        key = _label_key(label)
        if key in seen:
            before, first = seen[key]
            if before != meaning:
                refuse(
                    where,
                    f"label {escape_controls(show(label))} means both true (line "
                    f"{first[0] if before else where[0]}) and false (line "
                    f"{where[0] if before else first[0]}); give each label one meaning",
                )
            else:
                refuse(where, f"label {escape_controls(show(label))} is given twice; keep one")
            return None
        seen[key] = (meaning, where)
    meanings = {meaning for _, meaning, _ in pairs}
    for needed in (True, False):
        if needed not in meanings:
            word = "true" if needed else "false"
            refuse(
                block.places.value("labels"),
                f"'labels' gives no label for {word}; name the export's words for both "
                "Booleans, e.g. 'labels: {PASS: true, FAIL: false}'",
            )
            return None
    return tuple((label, meaning) for label, meaning, _ in pairs)


def _label_pairs(
    value: JSON, at: Position, written: Written
) -> list[tuple[JSON, bool, Position]] | None:
    """Each label ``labels:`` (written at ``at``) gives, with its meaning and place, or
    ``None`` after refusing the first that is not a label."""
    pairs: list[tuple[JSON, bool, Position]] = []
    if isinstance(value, dict):
        places = written.places(value, at)
        for word, meaning in value.items():
            if type(meaning) is not bool:
                written.refuse(
                    places.value(word),
                    f"label {escape_controls(repr(word))} means {describe(meaning)}; each word "
                    "of 'labels' means true or false, e.g. 'labels: {PASS: true, FAIL: false}'",
                )
                return None
            pairs.append((word, meaning, places.key(word)))
    elif isinstance(value, list):
        for index, pair in enumerate(value):
            item_at = written.item(value, index, at)
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or type(pair[1]) is not bool
                or isinstance(pair[0], (dict, list))
            ):
                written.refuse(
                    item_at,
                    f"labels item {index + 1} is {describe(pair)}; each item is a pair of a "
                    "label as the export holds it and the Boolean it means, e.g. "
                    "'labels: [[1, true], [0, false]]'",
                )
                return None
            pairs.append((pair[0], pair[1], item_at))
    else:
        written.refuse(
            at,
            f"'labels' must be a mapping of words or a list of pairs, not {describe(value)}; "
            "write e.g. 'labels: {PASS: true, FAIL: false}' or 'labels: [[1, true], [0, false]]'",
        )
        return None
    return pairs


def _label_key(value: JSON) -> tuple[str, JSON]:
    """A label as a key that tells JSON values apart as JSON does: ``true`` is not ``1``,
    ``1`` is ``1.0``, ``'1'`` is neither."""
    if type(value) is bool:
        return ("boolean", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if value is None:
        return ("null", None)
    return ("text", value)


def label_lookup(labels: Labels) -> Callable[[object], bool | None]:
    """What a label value means under the vocabulary ``labels``: ``True``, ``False``, or
    ``None`` for a value outside it (a missing label too). Exact: no case folding, no
    trimming, ``true`` is not ``1``."""
    if labels is None:
        return lambda value: value if type(value) is bool else None
    words: dict[str, bool] = {}
    others: dict[tuple[str, JSON], bool] = {}
    for label, meaning in labels:
        if type(label) is str:
            words[label] = meaning
        else:
            others[_label_key(label)] = meaning
    if not others:
        get = words.get

        def text_only(value: object) -> bool | None:
            return get(value) if type(value) is str else None

        return text_only

    def typed(value: object) -> bool | None:
        if type(value) is str:
            return words.get(value)
        if value is None or type(value) in (bool, int, float):
            return others.get(_label_key(value))  # type: ignore[arg-type]
        return None

    return typed


#: The other word of each pair of Boolean words, in lowercase.
_PARTNERS = {"yes": "no", "y": "n", "on": "off", "true": "false"}
_PARTNERS.update({other: word for word, other in list(_PARTNERS.items())})


def outside_hint(labels: Labels, value: object) -> str | None:
    """What to write for a label ``value`` outside the vocabulary when adding it to a
    mapping of ``labels``, or rewriting the export, is the wrong advice: a value no
    mapping's key can be (a Boolean, a number, null) against labels that are all text
    (the pairs form reads it), or, with no ``labels`` at all, a word the export writes for
    a Boolean (``yes``, ``TRUE``, the number ``1``), which a ``labels:`` block reads as it
    is. ``None`` for anything else."""
    if labels is None:
        return _vocabulary_hint(value)
    if isinstance(value, (str, dict, list)) or any(type(label) is not str for label, _ in labels):
        return None  # a mapping's word, or labels written as pairs: add it, or fix the row
    if type(value) is bool:
        return (
            f"the export holds {show(value)} (a boolean), and the words of a 'labels' mapping "
            "are text: write the labels as pairs of values as the export holds them, "
            f"'labels: {_pairs(('[true, true]', '[false, false]'), labels)}'"
        )
    if value is None:
        return (
            "the export holds null, and the words of a 'labels' mapping are text: if null is "
            "a label, write the labels as pairs of values as the export holds them, e.g. "
            f"'labels: {_pairs(('[null, false]',), labels)}'; else fix the row"
        )
    if all(_number(str(label)) is not None for label, _ in labels):
        example = (
            "["
            + ", ".join(
                f"[{_number(str(label))}, {'true' if meaning else 'false'}]"
                for label, meaning in labels
            )
            + "]"
        )
    else:
        example = _pairs(("[1, true]", "[0, false]"), labels)
    return (
        f"the export holds the number {show(value)}, and the words of a 'labels' mapping are "
        "text: write the labels as pairs of values as the export holds them, e.g. "
        f"'labels: {example}'"
    )


def _vocabulary_hint(value: object) -> str | None:
    """With no ``labels``: the ``labels:`` block that reads a word the export writes for
    a Boolean (``yes``, ``TRUE``, the number ``1``) as it is, or ``None``."""
    slip = boolean_slip(value)
    if slip is None:
        return None
    meant = slip[0]
    if type(value) in (int, float):
        return (
            "read the export's numbers with 'labels: [[1, true], [0, false]]' in its ledger: block"
        )
    assert isinstance(value, str)
    word = value.strip()
    other = _PARTNERS.get(word.lower(), "")
    if word.isupper():
        other = other.upper()
    elif word[:1].isupper():
        other = other.capitalize()
    yes, no = (value, other) if meant else (other, value)
    return (
        "read the export's words as they are with "
        f"'labels: {{{_quoted(yes)}: true, {_quoted(no)}: false}}' in its ledger: block"
    )


def _pairs(added: tuple[str, ...], labels: tuple[tuple[JSON, bool], ...]) -> str:
    """The pairs form of ``labels`` (words), after the pairs ``added``, as YAML."""
    words = (
        f"[{_plain(str(label))}, {'true' if meaning else 'false'}]" for label, meaning in labels
    )
    return f"[{', '.join((*added, *words))}]"


#: Words YAML readers (1.1 or 1.2) take as something other than text when unquoted.
_NOT_TEXT = frozenset(("true", "false", "null", "yes", "no", "on", "off", "y", "n"))


def _plain(word: str) -> str:
    """``word`` as YAML text: as it is where every YAML reader reads it as that text
    (``PASS``), else quoted (``'1'``, ``'yes'``, ``'a, b'``)."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", word) and word.lower() not in _NOT_TEXT:
        return word
    return _quoted(word)


def _number(text: str) -> int | float | None:
    """``text`` as the JSON number it writes, if it is one."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if type(value) in (int, float) else None


def _quoted(word: str) -> str:
    """``word`` as a single-quoted YAML scalar (read as text whatever it says)."""
    return escape_controls("'" + word.replace("'", "''") + "'")


def read_graders(block: Block) -> tuple[str, str] | None:
    """The names people read for a and b (``graders:``), or ``None`` where the block gives
    none, or after refusing them."""
    if "graders" not in block.value:
        return None
    value, at, refuse = block.value["graders"], block.places.value("graders"), block.refuse
    if not isinstance(value, dict):
        refuse(
            at,
            f"'graders' must be a mapping, not {describe(value)}; write e.g. "
            "'graders: {a: judge, b: editor}'",
        )
        return None
    places = block.written.places(value, at)
    for key in value:
        if key not in ("a", "b"):
            refuse(
                places.key(key),
                f"'graders' names a and b only, not {escape_controls(repr(key))}; write "
                "'graders: {a: NAME, b: NAME}' (a and b stay a and b in the answer)",
            )
            return None
    names = []
    for key in ("a", "b"):
        name = value.get(key)
        if not isinstance(name, str) or not name.strip() or escape_controls(name) != name:
            refuse(
                places.value(key),
                f"'graders' needs a name for {key} as text people read"
                + ("" if key not in value else f", not {describe(name)}")
                + "; write e.g. 'graders: {a: judge, b: editor}'",
            )
            return None
        names.append(name)
    if names[0] == names[1]:
        refuse(at, f"'graders' gives a and b one name {names[0]!r}; name each")
        return None
    return names[0], names[1]
