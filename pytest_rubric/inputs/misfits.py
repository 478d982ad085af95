"""A ``ledger:`` block that its export does not fit: a column its header lacks, a dotted
key path the export holds as one name. A problem of the case, named at the block's
``path:line:col``."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.jsonvalues import escape_controls
from pytest_rubric.core.nearest import nearest
from pytest_rubric.inputs.keypaths import KeyPath


class LedgerError(RubricInputError):
    """A ``ledger:`` block the export does not fit (a column its header lacks): a problem
    of the case, its message starting with the block's ``path:line:col``."""


def header_problem(
    case_file: str, key: str, path: KeyPath, header: Sequence[str], display: str, what: str
) -> LedgerError:
    """The error for ledger ``key`` naming a column ``header`` lacks: the header, and the
    nearest name in it."""
    column = path.column
    close = nearest(column, [name for name in header if isinstance(name, str) and name != column])
    hint = f"did you mean {escape_controls(repr(close))}?" if close else "name one of them"
    shown = ", ".join(escape_controls(str(name)) for name in header) or "no columns"
    return LedgerError(
        f"{case_file}:{path.at[0]}:{path.at[1]}: ledger '{key}' names the column "
        f"{escape_controls(repr(column))}, which {display}'s {what} does not have (it has "
        f"{shown}); {hint}"
    )


def dotted_name(case_file: str, key: str, path: KeyPath, holder: str) -> str:
    """Why a dotted key path that ``holder`` (a schema) has as one name leads nowhere,
    and the list form that names it, at the block's ``path:line:col``."""
    return f"{case_file}:{path.at[0]}:{path.at[1]}: {dotted_words(key, path, holder + ' holds')}"


def dotted_words(key: str, path: KeyPath, holder: str) -> str:
    """``ledger 'a' is the key path 'x.y', ... but HOLDER 'x.y' as one name; write ...``:
    a dotted name is a key path, and the list form names a key that holds dots. Never
    the very name that was written."""
    return (
        f"ledger '{key}' is the key path {escape_controls(repr(path.written))}, each dot a "
        f"step into a value, but {holder} {escape_controls(repr(path.column))} as one name; "
        f"write it in the list form '{key}: [{escape_controls(path.column)}]'"
    )
