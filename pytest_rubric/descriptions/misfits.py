"""A ``ledger:`` block that its export does not fit: a column its header lacks, a dotted
key path the export holds as one name. A problem of the case, named at the block's
``path:line:col``."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.nearest import nearest
from pytest_rubric.descriptions.keypaths import KeyPath, repeated_name
from pytest_rubric.descriptions.positions import Position


class LedgerError(RubricInputError):
    """A ``ledger:`` (or ``dataset:``) block the export does not fit (a column its header
    lacks): a problem of the case, its message starting with the block's
    ``path:line:col``; where made by :func:`misfit`, that place as ``at`` and the rest
    of the message as ``words``."""

    def __init__(self, message: str, at: Position | None = None, words: str = "") -> None:
        super().__init__(message)
        self.at = at
        self.words = words or message


def misfit(case_file: str, at: Position, words: str) -> LedgerError:
    """The :class:`LedgerError` of ``words`` about the key written at ``at`` in ``case_file``."""
    return LedgerError(f"{case_file}:{at[0]}:{at[1]}: {words}", at, words)


def header_problem(
    case_file: str,
    key: str,
    path: KeyPath,
    header: Sequence[str],
    lacking: str,
    block: str = "ledger",
) -> LedgerError:
    """The error for ``key`` of a ``ledger:`` (or ``dataset:``: ``block``) naming a column
    ``header`` lacks (``lacking`` names it: ``export.csv's header``): the header, and the
    nearest name in it."""
    column = path.column
    close = nearest(column, [name for name in header if isinstance(name, str) and name != column])
    hint = f"did you mean {escape_controls(repr(close))}?" if close else "name one of them"
    shown = ", ".join(escape_controls(str(name)) for name in header) or "no columns"
    return misfit(
        case_file,
        path.at,
        f"{block} '{key}' names the column "
        f"{escape_controls(repr(column))}, which {lacking} does not have (it has "
        f"{shown}); {hint}",
    )


def dotted_words(key: str, path: KeyPath, holder: str, block: str = "ledger") -> str:
    """``ledger 'a' is the key path 'x.y', ... but HOLDER 'x.y' as one name; write ...``:
    a dotted name is a key path, and the list form names a key that holds dots. Never
    the very name that was written."""
    return (
        f"{block} '{key}' is the key path {escape_controls(repr(path.written))}, each dot a "
        f"step into a value, but {holder} {escape_controls(repr(path.column))} as one name; "
        f"write it in the list form '{key}: [{escape_controls(path.column)}]'"
    )


def repeated_problem(
    case_file: str, key: str, path: KeyPath, columns: Sequence[int], lacking: str, block: str
) -> LedgerError:
    """The error for ``key`` naming a column that ``lacking`` names more than once (its
    ``columns``, counted from 1): no silent pick; how to name each instead."""
    column = path.column
    times = "twice" if len(columns) == 2 else f"{len(columns)} times"
    each = " or ".join(
        f"{escape_controls(repr(repeated_name(column, nth)))} (column {at})"
        for nth, at in enumerate(columns, 1)
    )
    return misfit(
        case_file,
        path.at,
        f"{block} '{key}' names the column {escape_controls(repr(column))}, which {lacking} "
        f"names {times}; say which one: {each}",
    )
