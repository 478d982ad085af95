"""``agreement``: two graders' Boolean labels per case, as a 2x2 matrix.

Identity is checked before labels, as the reference does: every row needs a
unique, non-blank text ID before any label is looked at. Disagreements are kept
by ID, in row order, for separate review; nothing is resolved, and no
chance-corrected statistic is computed or implied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rubric.errors import RubricInputError
from pytest_rubric.evaluators._common import Evidence, describe, is_bool, not_boolean

IDENTITY_ERROR = "review-case-identity"
LABEL_ERROR = "review-label"

#: Whitespace as JavaScript's ``String.prototype.trim`` strips it: WhiteSpace and
#: LineTerminator (ECMA-262), i.e. TAB, VT, FF, SP, NBSP, ZWNBSP (U+FEFF), the
#: Unicode ``Zs`` category, LF, CR, LS and PS. Python's ``str.isspace`` differs
#: both ways: it counts U+001C..U+001F and U+0085, and not U+FEFF.
JS_WHITESPACE = frozenset(
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def evaluate_agreement(ledger: Mapping[str, Any]) -> dict[str, Any]:
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
    rows = _rows(ledger)
    if _identity_problem(rows) is not None:
        return {"error": IDENTITY_ERROR}
    if _label_problem(rows) is not None:
        return {"error": LABEL_ERROR}
    both_pass = both_fail = a_only = b_only = 0
    disagreements: list[str] = []
    for row in rows:
        a, b = row["a"], row["b"]
        if a and b:
            both_pass += 1
        elif a:
            a_only += 1
            disagreements.append(row["id"])
        elif b:
            b_only += 1
            disagreements.append(row["id"])
        else:
            both_fail += 1
    return {
        "matrix": {"bothPass": both_pass, "bothFail": both_fail, "aOnly": a_only, "bOnly": b_only},
        "agreement": both_pass + both_fail,
        "total": len(rows),
        "disagreements": disagreements,
    }


def explain_agreement(ledger: Mapping[str, Any]) -> Evidence:
    """The evidence behind :func:`evaluate_agreement`'s answer for ``ledger``."""
    rows = _rows(ledger)
    problem = _identity_problem(rows) or _label_problem(rows)
    if problem is not None:
        return Evidence(problem=problem)
    answer = evaluate_agreement(ledger)
    return Evidence(
        facts={
            "matrix": answer["matrix"],
            "agreement": f"{answer['agreement']}/{answer['total']}",
            "disagreements": answer["disagreements"],
        }
    )


def js_blank(text: str) -> bool:
    """True when ``text.trim()`` would be empty in JavaScript."""
    return all(char in JS_WHITESPACE for char in text)


def _rows(ledger: object) -> list[Any]:
    if not isinstance(ledger, Mapping):
        raise RubricInputError(
            f"an agreement ledger must be a mapping with a 'rows' list, not {describe(ledger)}"
        )
    if "rows" not in ledger:
        raise RubricInputError(
            "an agreement ledger needs a 'rows' list of {id, a, b} mappings; 'rows' is missing"
        )
    rows = ledger["rows"]
    if not isinstance(rows, list):
        raise RubricInputError(
            f"an agreement ledger's 'rows' must be a list of {{id, a, b}} mappings, "
            f"not {describe(rows)}"
        )
    return rows


def _identity_problem(rows: list[Any]) -> str | None:
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        if not isinstance(row, Mapping):
            return f"rows[{index}] is {describe(row)}, not a mapping with id, a and b"
        if "id" not in row:
            return f"rows[{index}] has no id; every row needs a non-blank text id"
        case_id = row["id"]
        if not isinstance(case_id, str):
            message = f"rows[{index}].id is {describe(case_id)}, not a string"
            if isinstance(case_id, (int, float)) and not is_bool(case_id):
                message += f"; quote it: id: '{case_id}'"
            return message
        if js_blank(case_id):
            return f"rows[{index}].id is {describe(case_id)}, which is blank"
        if case_id in seen:
            return f"rows[{index}].id {case_id!r} repeats rows[{seen[case_id]}].id"
        seen[case_id] = index
    return None


def _label_problem(rows: list[Any]) -> str | None:
    for index, row in enumerate(rows):
        for grader in ("a", "b"):
            if grader not in row:
                return (
                    f"rows[{index}] (id {row['id']!r}) has no label {grader}; "
                    f"a missing label is an evidence gap, not a guess"
                )
            if not is_bool(row[grader]):
                return not_boolean(f"rows[{index}].{grader} (id {row['id']!r})", row[grader])
    return None
