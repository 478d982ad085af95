"""The read-back of ``--rubric-update``: edited text read again with the strict loader,
and held to what it must be before anything is written (:class:`UpdateRefused` else)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from pytest_rubric.casefiles.yamlstrict import Document, StrictYAMLError, decode, load
from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.editing.writes import Write

BOM = b"\xef\xbb\xbf"


class UpdateRefused(Exception):
    """The file cannot be edited safely; the message says why, and nothing is written."""


#: What to do when an edit the tool worked out does not read back as it should.
BY_HAND = "write this case's expected by hand"


def read_current(text: str, shift: int = 0) -> Document:
    """``text``, a case file (or a part of it) as it is now, read strictly."""
    try:
        return load(text)
    except StrictYAMLError as exc:
        raise UpdateRefused(
            f"it no longer reads as YAML ({where(exc, shift)}); fix it, then run again"
        ) from None


def read_alone(text: str) -> Document | None:
    """``text`` (a case's lines behind ``cases:``) read, or ``None`` when it does not read
    out of its context (an indented file, say)."""
    try:
        return load(text)
    except StrictYAMLError:
        return None


def read_back(text: str, shift: int = 0, cols: int = 0) -> Document:
    """``text``, a case file (or a part of it) with answers written, read strictly."""
    try:
        return load(text)
    except StrictYAMLError as exc:
        at = where(exc, shift, cols)
        raise UpdateRefused(
            f"with the answers written the file would not read as YAML ({at}); {BY_HAND}"
        ) from None


def identical(left: object, right: object) -> bool:
    """Equal and of the same types throughout (``1`` is not ``1.0`` here)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        other = cast(dict[object, object], right)
        return list(left) == list(other) and all(identical(left[k], other[k]) for k in left)
    if isinstance(left, list):
        items = cast(list[object], right)
        return len(left) == len(items) and all(
            identical(a, b) for a, b in zip(left, items, strict=True)
        )
    return bool(left == right)


def check_rewritten(
    before: JSON,
    problems: Sequence[object],
    text: str,
    writes: Sequence[Write],
    shift: int,
    cols: int = 0,
) -> None:
    """Read ``text`` back strictly: only the written cases' ``expected`` may differ."""
    document = read_back(text, shift, cols)
    after = document.value
    if len(document.problems) != len(problems) or not isinstance(after, dict):
        raise UpdateRefused(f"with the answer written the file would read differently; {BY_HAND}")
    old_cases = before.get("cases") if isinstance(before, dict) else None
    new_cases = after.get("cases")
    if not isinstance(before, dict) or not isinstance(old_cases, list):
        raise UpdateRefused("it no longer has a list of cases; fix it, then run again")
    if not isinstance(new_cases, list) or len(new_cases) != len(old_cases):
        raise UpdateRefused(
            f"with the answer written the file would not have the same cases; {BY_HAND}"
        )
    if not identical(
        {k: v for k, v in before.items() if k != "cases"},
        {k: v for k, v in after.items() if k != "cases"},
    ):
        raise UpdateRefused(f"with the answer written the file's own keys would change; {BY_HAND}")
    written = {write.index: write for write in writes}
    for index, (old, new) in enumerate(zip(old_cases, new_cases, strict=True)):
        write = written.get(index)
        if write is None:
            if not identical(old, new):
                raise UpdateRefused(
                    f"the edit would change another case (#{index + 1}), which is not "
                    f"written; {BY_HAND}"
                )
            continue
        if not isinstance(old, dict) or not isinstance(new, dict):
            raise UpdateRefused(f"case {write.name!r} would no longer be a mapping; {BY_HAND}")
        # A panel's empty 'expected:' becomes its 'expected_pairs:'.
        gone = ("expected", write.key) if old.get("expected", 0) is None else (write.key,)
        rest_old = {k: v for k, v in old.items() if k not in gone}
        rest_new = {k: v for k, v in new.items() if k not in gone}
        if not identical(rest_old, rest_new) or not json_equal(
            new.get(write.key), written_value(old, write)
        ):
            raise UpdateRefused(
                f"case {write.name!r} would not read back with its answer as its expected; "
                f"{BY_HAND}"
            )


def written_value(old: dict[str, JSON], write: Write) -> JSON:
    """What ``write`` leaves under its key of the case ``old``: its answer as ``expected``,
    or a panel's pairs pinned before with the pairs it writes put in."""
    if write.key == "expected":
        return dict(write.after)
    pinned = old.get(write.key)
    return {**(pinned if isinstance(pinned, dict) else {}), **write.after}


def text_of(data: bytes) -> str:
    """A case file's text (its BOM dropped), or :class:`UpdateRefused` if it is no
    longer UTF-8."""
    try:
        return decode(data)
    except StrictYAMLError as exc:
        raise UpdateRefused(
            f"it is no longer UTF-8 ({where(exc)}); fix it, then run again"
        ) from None


def encoded(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise UpdateRefused(f"an answer holds text that UTF-8 cannot encode; {BY_HAND}") from None


def where(exc: StrictYAMLError, shift: int = 0, cols: int = 0) -> str:
    col = exc.col + cols if exc.line == 2 else exc.col
    return f"line {exc.line + shift}, column {col}: {exc.message}"
