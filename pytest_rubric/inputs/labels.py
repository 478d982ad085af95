"""A ``ledger:`` block's label vocabulary: ``labels:`` read from the block, and what a
label value means under it (exactly: no case folding, no trimming, ``true`` is not ``1``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import nearest
from pytest_rubric.core.shown import describe, show
from pytest_rubric.core.slips import boolean_slip
from pytest_rubric.inputs.traits import FileTraits

Position = tuple[int, int]
#: ``problem(position, message)``: report a problem of the block.
Report = Callable[[Position, str], None]


class Places:
    """Where a case-file block's keys and their values are written (the loader's
    ``Spans.keys`` for the block); a key the block lacks is placed where the block starts."""

    __slots__ = ("_at", "_places")

    def __init__(
        self,
        block: object,
        at: Position,
        keys: Mapping[int, Mapping[str, tuple[Position, Position]]],
    ) -> None:
        self._places = keys.get(id(block), {})
        self._at = at

    def key(self, name: str) -> Position:
        """Where the key ``name`` is written."""
        return self._places.get(name, (self._at, self._at))[0]

    def value(self, name: str) -> Position:
        """Where the value of the key ``name`` is written."""
        return self._places.get(name, (self._at, self._at))[1]


def refuse_unknown_keys(
    block: Mapping[str, object],
    known: Sequence[str],
    what: str,
    key_at: Callable[[str], Position],
    refuse: Report,
) -> None:
    """Refuse each key of ``block`` not among ``known`` (``what`` names such a key in the
    message: ``a ledger key``), at its place, with the nearest known key or the list."""
    for key in block:
        if key not in known:
            close = nearest(key, known)
            hint = f"did you mean '{close}'?" if close else f"use one of: {', '.join(known)}"
            refuse(key_at(key), f"'{escape_controls(key)}' is not {what}; {hint}")


def read_labels(
    block: dict[str, JSON],
    at: Position,
    keys: Mapping[int, Mapping[str, tuple[Position, Position]]],
    items: Mapping[int, Sequence[Position]],
    refuse: Report,
    traits: FileTraits,
) -> tuple[tuple[JSON, bool], ...] | None:
    if "labels" not in block:
        return None
    value = block["labels"]
    pairs: list[tuple[JSON, bool, Position]] = []
    if isinstance(value, dict):
        places = keys.get(id(value), {})
        for word, meaning in value.items():
            word_at, meaning_at = places.get(word, (at, at))
            if type(meaning) is not bool:
                refuse(
                    meaning_at,
                    f"label {escape_controls(repr(word))} means {describe(meaning)}; each word "
                    "of 'labels' means true or false, e.g. 'labels: {PASS: true, FAIL: false}'",
                )
                return None
            pairs.append((word, meaning, word_at))
    elif isinstance(value, list):
        positions = items.get(id(value), ())
        for index, pair in enumerate(value):
            item_at = positions[index] if index < len(positions) else at
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or type(pair[1]) is not bool
                or isinstance(pair[0], (dict, list))
            ):
                refuse(
                    item_at,
                    f"labels item {index + 1} is {describe(pair)}; each item is a pair of a "
                    "label as the export holds it and the Boolean it means, e.g. "
                    "'labels: [[1, true], [0, false]]'",
                )
                return None
            pairs.append((pair[0], pair[1], item_at))
    else:
        refuse(
            at,
            f"'labels' must be a mapping of words or a list of pairs, not {describe(value)}; "
            "write e.g. 'labels: {PASS: true, FAIL: false}' or 'labels: [[1, true], [0, false]]'",
        )
        return None
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
                at,
                f"'labels' gives no label for {word}; name the export's words for both "
                "Booleans, e.g. 'labels: {PASS: true, FAIL: false}'",
            )
            return None
    return tuple((label, meaning) for label, meaning, _ in pairs)


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


#: A vocabulary: each label value with the Boolean it means; ``None``: only real booleans.
Labels = tuple[tuple[JSON, bool], ...] | None


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
    mapping of ``labels``, or rewriting the export, is the wrong advice: a number
    against labels that are text (a mapping's keys are text: the pairs form reads
    numbers), or, with no ``labels`` at all, a word the export writes for a Boolean
    (``yes``, ``TRUE``, the number ``1``), which a ``labels:`` block reads as it is.
    ``None`` for anything else."""
    numeric = type(value) in (int, float)
    if labels is None:
        slip = boolean_slip(value)
        if slip is None:
            return None
        meant = slip[0]
        if numeric:
            return "read the export's numbers with 'labels: [[1, true], [0, false]]' in its ledger: block"
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
    if not numeric or any(type(label) is not str for label, _ in labels):
        return None
    pairs = []
    for label, meaning in labels:
        number = _number(str(label))
        pairs.append(f"[{label if number is None else number}, {'true' if meaning else 'false'}]")
    example = (
        f"[{', '.join(pairs)}]"
        if all(_number(str(label)) is not None for label, _ in labels)
        else "[[1, true], [0, false]]"
    )
    return (
        f"the export holds the number {show(value)}, and the words of a 'labels' mapping are "
        "text: write the labels as pairs of values as the export holds them, e.g. "
        f"'labels: {example}'"
    )


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


def read_graders(
    block: dict[str, JSON],
    key_at: Callable[[str], Position],
    value_at: Callable[[str], Position],
    keys: Mapping[int, Mapping[str, tuple[Position, Position]]],
    refuse: Report,
) -> tuple[str, str] | None:
    if "graders" not in block:
        return None
    value = block["graders"]
    if not isinstance(value, dict):
        refuse(
            value_at("graders"),
            f"'graders' must be a mapping, not {describe(value)}; write e.g. "
            "'graders: {a: judge, b: editor}'",
        )
        return None
    places = keys.get(id(value), {})
    for key in value:
        if key not in ("a", "b"):
            refuse(
                places.get(key, (value_at("graders"),))[0],
                f"'graders' names a and b only, not {escape_controls(repr(key))}; write "
                "'graders: {a: NAME, b: NAME}' (a and b stay a and b in the answer)",
            )
            return None
    names = []
    for key in ("a", "b"):
        name = value.get(key)
        if not isinstance(name, str) or not name.strip() or escape_controls(name) != name:
            where = places[key][1] if key in places else value_at("graders")
            refuse(
                where,
                f"'graders' needs a name for {key} as text people read"
                + ("" if key not in value else f", not {describe(name)}")
                + "; write e.g. 'graders: {a: judge, b: editor}'",
            )
            return None
        names.append(name)
    if names[0] == names[1]:
        refuse(value_at("graders"), f"'graders' gives a and b one name {names[0]!r}; name each")
        return None
    return names[0], names[1]
