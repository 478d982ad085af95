"""``agreement``: two graders' Boolean labels per case, as a 2x2 matrix.

Identity is checked before labels, as the reference does: every row needs a
unique, non-blank text ID before any label counts. Disagreements are kept by ID,
in row order, for separate review; nothing is resolved, and no chance-corrected
statistic is computed or implied.

Rows are tallied in one pass over any iterable, so a ledger streamed from a file
needs memory for its distinct IDs only, never for the parsed ledger; rows that offer
themselves as label blocks (:class:`~pytest_rubric.core.labelblocks.LabelBlockSource`)
are tallied a block at a time where the blocks can answer (:func:`stream_agreement`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain, islice
from operator import lt
from typing import Final

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.evaluator import RowId, RowLabel
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import (
    JS_WHITESPACE_CHARS,
    MATRIX_CELLS,
    LabelBlock,
    LabelBlockSource,
)
from pytest_rubric.core.nearest import nearest, written_for
from pytest_rubric.core.numbers import int_text
from pytest_rubric.core.reviews import picks_disagreements
from pytest_rubric.evaluators._common import Evidence, describe, is_bool, not_boolean

IDENTITY_ERROR = "review-case-identity"
LABEL_ERROR = "review-label"

#: JavaScript's whitespace (``String.prototype.trim``), as a set.
JS_WHITESPACE = frozenset(JS_WHITESPACE_CHARS)

_ABSENT: Final = object()


def evaluate_agreement(ledger: Mapping[str, object]) -> dict[str, JSON]:
    """Tabulate two graders' Boolean labels per case ID.

    ``ledger`` is ``{"rows": [{"id": str, "a": bool, "b": bool}, ...]}``. Returns
    ``{"error": "review-case-identity"}`` when a row is not a mapping, an ID is not
    a string, is blank, or repeats; then ``{"error": "review-label"}`` when a label
    is missing or not a real boolean; otherwise the matrix (``bothPass``,
    ``bothFail``, ``aOnly``, ``bOnly``), ``agreement`` (``bothPass + bothFail``),
    ``total`` and the ``disagreements`` IDs in row order.

    Raises :class:`RubricInputError` when ``ledger`` is not a mapping with a
    ``rows`` list.
    """
    return tally_rows(_rows(ledger))[0]


def explain_agreement(ledger: Mapping[str, object]) -> Evidence:
    """The evidence behind :func:`evaluate_agreement`'s answer for ``ledger``."""
    return tally_rows(_rows(ledger))[1]


def tally_rows(
    rows: Iterable[object], where: Callable[[int], str] | None = None
) -> tuple[dict[str, JSON], Evidence]:
    """:func:`evaluate_agreement`'s answer, and its evidence, in one pass over ``rows``.

    ``where(index)`` names a row in problem messages (``rows[N]`` by default; a
    ledger file names its path and line). Once an identity problem is found the
    answer is settled and the rest is not read; after a label problem, later rows
    are still checked for identity, which the reference checks first.

    IDs are kept in a set; where a repeated ID was first seen is looked up only
    when one repeats, by reading ``rows`` again up to it (a ledger file is read
    again from its start), or, for rows that can be read only once, from the
    index of every ID kept as they pass.
    """
    name = where or _row_name
    iterator = iter(rows)
    index_of: dict[str, int] | None = {} if iterator is rows else None
    seen: set[str] = set()
    remember = seen.add
    blank_start = JS_WHITESPACE
    identity: str | None = None
    label: str | None = None
    about: RowLabel | RowId | None = None
    both_pass = both_fail = a_only = b_only = 0
    disagreements: list[JSON] = []
    keep = disagreements.append
    for index, row in enumerate(iterator):
        if type(row) is not dict and not isinstance(row, Mapping):
            identity = f"{name(index)} is {describe(row)}, not a mapping with id, a and b"
            break
        case_id = row.get("id", _ABSENT)
        if type(case_id) is not str:
            identity = _id_problem(name(index), case_id, row)
            if case_id is not _ABSENT:
                about = RowId(index)
            break
        # Blank only if every character is JavaScript whitespace: the first one decides
        # unless it is whitespace itself.
        if not case_id or (case_id[0] in blank_start and not case_id.strip(JS_WHITESPACE_CHARS)):
            identity = f"{name(index)}.id is {describe(case_id)}, which is blank"
            break
        if case_id in seen:
            here = name(index)  # before reading again, which moves a ledger file's line
            first = index_of[case_id] if index_of is not None else _first_index(rows, case_id)
            identity = f"{here}.id {case_id!r} repeats {_row_name(first)}.id"
            break
        remember(case_id)
        if index_of is not None:
            index_of[case_id] = index
        if label is not None:
            continue
        a = row.get("a", _ABSENT)
        b = row.get("b", _ABSENT)
        if a is True:
            if b is True:
                both_pass += 1
                continue
            if b is False:
                a_only += 1
                keep(case_id)
                continue
        elif a is False:
            if b is False:
                both_fail += 1
                continue
            if b is True:
                b_only += 1
                keep(case_id)
                continue
        label = _label_problem(name(index), case_id, a, b, row)
        about = RowLabel(index, "a" if type(a) is not bool else "b")
    if identity is not None:
        named = about if isinstance(about, RowId) else None  # not a label seen before
        return {"error": IDENTITY_ERROR}, Evidence(problem=identity, about=named)
    if label is not None:
        return {"error": LABEL_ERROR}, Evidence(problem=label, about=about)
    return _tallied(both_pass, both_fail, a_only, b_only, disagreements)


def stream_agreement(
    rows: Iterable[object], where: Callable[[int], str]
) -> tuple[dict[str, JSON], Evidence]:
    """:func:`tally_rows`, a block at a time where ``rows`` offer label blocks and the
    blocks answer (:func:`tally_blocks`), else a row at a time: the same answer and
    evidence either way."""
    if isinstance(rows, LabelBlockSource):
        pair = tally_blocks(rows.label_blocks())
        if pair is not None:
            return pair
    return tally_rows(rows, where)


def tally_blocks(blocks: Iterable[LabelBlock | None]) -> tuple[dict[str, JSON], Evidence] | None:
    """:func:`tally_rows`'s answer for rows handed over in blocks of IDs and counted
    label pairs (see :mod:`pytest_rubric.core.labelblocks`), put together a block at
    a time; or ``None`` as soon as a block is ``None`` or holds an ID that is empty,
    starts with whitespace (it may be blank) or repeats: then the rows are read again
    one at a time, which finds what is wrong exactly as the reference does. A valid
    ledger is answered alike either way.

    IDs in strictly increasing order (as ledgers are usually written) are all distinct,
    which one comparison of neighbours shows; a set is built only from the first block
    out of order on, and from the IDs before it, kept till then. A source that proves
    its IDs distinct (``LabelBlock.distinct``) is taken at its word.
    """
    both = neither = a_only = b_only = 0
    disagreements: list[JSON] = []
    seen: set[str] | None = None
    kept: list[Sequence[str]] = []  # the IDs so far, while they increase
    last: str | None = None
    proven: bool | None = None  # whether the source proves the IDs distinct (all or none)
    for block in blocks:
        if block is None:
            return None
        if proven is None:
            proven = block.distinct
        elif proven is not block.distinct:
            return None  # a source proves every block distinct, or none
        ids = block.ids
        if ids and not block.checked and _BLANK_START.search("\n" + "\n".join(ids)):
            return None  # an empty ID, or one starting with whitespace (or LF inside one)
        if ids and not proven:
            if seen is None:
                if (last is None or last < ids[0]) and (
                    block.increasing or all(map(lt, ids, islice(ids, 1, None)))
                ):
                    kept.append(ids)
                    last = ids[-1]
                else:
                    seen = set(chain.from_iterable(kept))
                    kept = []
            if seen is not None:
                before = len(seen)
                seen.update(ids)
                if len(seen) != before + len(ids):
                    return None
        pairs = block.pairs
        both, neither = both + pairs[0], neither + pairs[1]
        a_only, b_only = a_only + pairs[2], b_only + pairs[3]
        disagreements.extend(block.differing)
    return _tallied(both, neither, a_only, b_only, disagreements)


#: Where an ID joined after LF starts with JavaScript whitespace (LF included: then it
#: is empty), or the last is empty.
_BLANK_START = re.compile(f"\n(?:[{re.escape(JS_WHITESPACE_CHARS)}]|\\Z)")


def _tallied(
    both_pass: int, both_fail: int, a_only: int, b_only: int, disagreements: list[JSON]
) -> tuple[dict[str, JSON], Evidence]:
    """The answer and evidence of a valid ledger with these counts and disagreements."""
    matrix: dict[str, JSON] = dict(
        zip(MATRIX_CELLS.values(), (both_pass, both_fail, a_only, b_only), strict=True)
    )
    agreement = both_pass + both_fail
    total = agreement + a_only + b_only
    answer: dict[str, JSON] = {
        "matrix": matrix,
        "agreement": agreement,
        "total": total,
        "disagreements": disagreements,
    }
    evidence = Evidence(
        facts={
            "matrix": dict(matrix),
            "agreement": f"{agreement}/{total}",
            "disagreements": list(disagreements),
        }
    )
    return answer, evidence


def _first_index(rows: Iterable[object], case_id: str) -> int:
    """Where ``case_id`` is first given in ``rows``, read again from the start. Every
    row before the repeat passed the identity checks, so each is a mapping with a text id."""
    for index, row in enumerate(rows):
        if isinstance(row, Mapping) and row.get("id") == case_id:
            return index
    raise RubricInputError(f"the rows changed while being read: {case_id!r} is gone")


@picks_disagreements
def review_rows(
    ledger: Mapping[str, object], where: Callable[[int], str]
) -> Iterator[dict[str, JSON]]:
    """The disagreement rows of a valid ledger, in row order, for people to review.

    Each is ``{"id", "a", "b", "side", "where", "fields"}``: ``side`` is ``aOnly``
    or ``bOnly``, ``where`` the row's ``file:line`` as ``where(index)`` names it, and
    ``fields`` whatever else the row carries (a headline, a URL, a grader note).
    Rows are read one at a time, so a streamed ledger is never held whole.
    """
    rows = ledger.get("rows") if type(ledger) is dict or isinstance(ledger, Mapping) else None
    if type(rows) is not list and (
        not isinstance(rows, Iterable) or isinstance(rows, (str, bytes, Mapping))
    ):
        return
    for index, row in enumerate(rows):
        if type(row) is not dict and not isinstance(row, Mapping):
            continue
        a, b = row.get("a"), row.get("b")
        if a is b or type(a) is not bool or type(b) is not bool:  # agreed, or not labels
            continue
        fields = (
            {}
            if len(row) == 3 and "id" in row
            else {key: value for key, value in row.items() if key not in ("id", "a", "b")}
        )
        yield {
            "id": row.get("id"),
            "a": a,
            "b": b,
            "side": _A_ONLY if a else _B_ONLY,
            "where": where(index),
            "fields": fields,
        }


#: A disagreement row's side: the cell it is counted in.
_A_ONLY, _B_ONLY = MATRIX_CELLS[True, False], MATRIX_CELLS[False, True]


def _row_name(index: int) -> str:
    return f"rows[{index}]"


#: The keys of a ledger row.
ROW_KEYS = ("id", "a", "b")


def _written_for(key: str, row: Mapping[object, object]) -> str:
    """`` (the row has 'ID'; did you mean id?)`` when a key of ``row`` that is none of
    :data:`ROW_KEYS` is nearest to the missing ``key``."""
    meant = written_for(key, row, ROW_KEYS)
    if meant is None:
        return ""
    return f" (the row has {escape_controls(repr(meant))}; did you mean {key}?)"


def _id_problem(row: str, case_id: object, values: Mapping[object, object]) -> str:
    if case_id is _ABSENT:
        return f"{row} has no id{_written_for('id', values)}; every row needs a non-blank text id"
    message = f"{row}.id is {describe(case_id)}, not a string"
    if isinstance(case_id, float) or (isinstance(case_id, int) and not is_bool(case_id)):
        # A number too long to print whole (int_text shortens it) is not quoted back.
        text = repr(case_id) if isinstance(case_id, float) else int_text(case_id)
        message += (
            f"; quote it: id: '{text}'"
            if text.isascii() and " " not in text
            else ("; quote it, as text")
        )
    return message


def _label_problem(
    row: str, case_id: str, a: object, b: object, values: Mapping[object, object]
) -> str:
    """Called when ``a`` or ``b`` is not a boolean: name the first that is not."""
    grader, value = ("a", a) if type(a) is not bool else ("b", b)
    if value is _ABSENT:
        return (
            f"{row} (id {case_id!r}) has no label {grader}{_written_for(grader, values)}; "
            f"a missing label is an evidence gap, not a guess"
        )
    return not_boolean(f"{row}.{grader} (id {case_id!r})", value)


def _rows(ledger: object) -> list[object]:
    if not isinstance(ledger, Mapping):
        raise RubricInputError(
            f"an agreement ledger must be a mapping with a 'rows' list, not {describe(ledger)}"
        )
    if "rows" not in ledger:
        meant = [
            name
            for name in ledger
            if isinstance(name, str) and name != "rows" and nearest(name, ("rows",)) == "rows"
        ]
        written = (
            f" (the input has {escape_controls(repr(meant[0]))}; did you mean rows?)"
            if meant
            else ""
        )
        raise RubricInputError(
            "an agreement ledger needs a 'rows' list of {id, a, b} mappings; 'rows' is "
            f"missing{written}"
        )
    rows = ledger["rows"]
    if not isinstance(rows, list):
        raise RubricInputError(
            f"an agreement ledger's 'rows' must be a list of {{id, a, b}} mappings, "
            f"not {describe(rows)}"
        )
    return rows
