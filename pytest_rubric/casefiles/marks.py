"""``skip:``, ``xfail:`` and ``marks:`` in case files: read strictly, combined file over case.

A file-level value applies to every case in the file; a case's own ``skip`` or
``xfail`` wins over the file's, and ``marks`` add up. Nothing here is evaluated:
marks are plain names, reasons are text. This module does not import pytest.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pytest_rubric.casefiles.yamlstrict import Position, Spans
from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.nearest import nearest
from pytest_rubric.core.shown import describe

KEYS = ("skip", "xfail", "marks")
XFAIL_KEYS = ("reason", "strict")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: pytest's own marks that take arguments or decide outcomes: the keys above say those.
_RESERVED = {
    "skip": "write 'skip: <reason>' instead",
    "skipif": "conditions are not evaluated in case files; write 'skip: <reason>'",
    "xfail": "write 'xfail: <reason>' instead",
    "parametrize": "a case file's cases are its parameters",
    "usefixtures": "cases use no fixtures",
    "filterwarnings": "it needs arguments; configure it in pytest's ini file",
}


@dataclass(frozen=True, slots=True)
class XFail:
    """A case expected to mismatch. ``strict``: a match fails the run (the default)."""

    reason: str
    strict: bool = True


@dataclass(frozen=True, slots=True)
class Marks:
    """What a file or a case says about how pytest treats it.

    ``names`` are plain pytest marker names with where each is written.
    """

    skip: str | None = None
    xfail: XFail | None = None
    names: tuple[tuple[str, Position], ...] = ()

    def under(self, outer: Marks) -> Marks:
        """These marks (a case's) combined with the file's: the case's skip and xfail win."""
        names = {name: at for name, at in outer.names}
        for name, at in self.names:
            names.setdefault(name, at)
        return Marks(
            skip=self.skip if self.skip is not None else outer.skip,
            xfail=self.xfail if self.xfail is not None else outer.xfail,
            names=tuple(names.items()),
        )


NO_MARKS = Marks()

Error = Callable[[Position, str], CaseFileError]


def read_marks(
    mapping: Mapping[str, object], spans: Spans, error: Error
) -> tuple[Marks, list[CaseFileError]]:
    """The ``skip``/``xfail``/``marks`` keys of ``mapping`` (a file or a case), checked."""
    keys = spans.keys[id(mapping)]
    problems: list[CaseFileError] = []
    skip = xfail = None
    names: list[tuple[str, Position]] = []
    if "skip" in mapping:
        skip = _reason(mapping["skip"], keys["skip"][1], "skip", problems, error)
    if "xfail" in mapping:
        xfail = _xfail(mapping["xfail"], keys["xfail"][1], spans, problems, error)
    if "marks" in mapping:
        names = _names(mapping["marks"], keys["marks"][1], spans, problems, error)
    return Marks(skip, xfail, tuple(names)), problems


def _reason(
    value: object, at: Position, key: str, problems: list[CaseFileError], error: Error
) -> str | None:
    if isinstance(value, str) and value.strip():
        return value
    problems.append(
        error(
            at,
            f"'{key}' needs a reason: non-blank text, not {describe(value)}; "
            f"write e.g. '{key}: waiting for the rubric change in issue 42'",
        )
    )
    return None


def _xfail(
    value: object, at: Position, spans: Spans, problems: list[CaseFileError], error: Error
) -> XFail | None:
    if not isinstance(value, dict):
        reason = _reason(value, at, "xfail", problems, error)
        return None if reason is None else XFail(reason)
    keys = spans.keys[id(value)]
    found = len(problems)
    for key, (key_at, _) in keys.items():
        if key not in XFAIL_KEYS:
            close = nearest(key, XFAIL_KEYS)
            hint = f"did you mean '{close}'?" if close else "use reason and strict"
            problems.append(error(key_at, f"'{escape_controls(key)}' is not an xfail key; {hint}"))
    if "reason" not in value:
        problems.append(
            error(at, "'xfail' needs a 'reason'; write 'xfail: {reason: <text>, strict: false}'")
        )
        reason = None
    else:
        reason = _reason(value["reason"], keys["reason"][1], "xfail", problems, error)
    strict = value.get("strict", True)
    if type(strict) is not bool:
        problems.append(
            error(
                keys["strict"][1],
                f"'strict' must be true or false, not {describe(strict)}; "
                "write 'strict: false' to let a matching case pass as XPASS",
            )
        )
    if len(problems) > found or reason is None:
        return None
    return XFail(reason, strict)


def _names(
    value: object, at: Position, spans: Spans, problems: list[CaseFileError], error: Error
) -> list[tuple[str, Position]]:
    if not isinstance(value, list):
        problems.append(
            error(
                at,
                f"'marks' must be a list of marker names, not {describe(value)}; write e.g. 'marks: [slow]'",
            )
        )
        return []
    names = []
    for name, name_at in zip(value, spans.items[id(value)], strict=True):
        if not isinstance(name, str) or not _NAME.match(name):
            problems.append(
                error(
                    name_at,
                    f"a mark is a plain marker name (letters, digits, '_'), not {describe(name)}; "
                    "marks take no arguments in case files",
                )
            )
        elif name in _RESERVED:
            problems.append(error(name_at, f"'{name}' cannot be a mark here: {_RESERVED[name]}"))
        elif name.startswith("_"):
            problems.append(
                error(
                    name_at,
                    f"{describe(name)} cannot be a mark: pytest takes no marker name that "
                    "starts with '_'; rename it (e.g. 'private')",
                )
            )
        else:
            names.append((name, name_at))
    return names
