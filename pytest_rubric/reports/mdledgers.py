"""A ledger's record as Markdown: its matrix as a table, its agreement over its total, as
many disagreement IDs as fit and, for a grouped ledger, its table of groups (what the
review page's group filter lists), as many groups as fit.

Read from the record the report holds (:func:`~pytest_rubric.reports.records.ledger_of`),
the groups as the page reads them (:func:`~pytest_rubric.reports.pagegroups.ledger_groups`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

from pytest_rubric.core.labelblocks import MATRIX_CELLS
from pytest_rubric.core.shown import show
from pytest_rubric.reports.diff import FAILING
from pytest_rubric.reports.mdfit import Entry, inline_list
from pytest_rubric.reports.mdtext import code, place, table_head, table_row
from pytest_rubric.reports.pagedata import grader_names
from pytest_rubric.reports.pagegroups import ledger_groups
from pytest_rubric.reports.records import Ledger, ledger_of
from pytest_rubric.reports.sealing import unsealed

_CELLS = tuple(MATRIX_CELLS.values())


def ledger_entry(kept: Mapping[str, Any]) -> Entry:
    """The ledger of ``kept`` (a record :func:`ledgers_of` found) as a block of its own,
    its lists fitted to the room given."""
    record = unsealed(cast(Any, kept))
    answer, review = ledger_of(record) or Ledger({}, {})
    names = grader_names(review.get("graders"))
    matrix = answer.get("matrix")
    cells = matrix if isinstance(matrix, Mapping) else {}
    mark = "" if record.get("outcome") == "matched" else f", {record.get('outcome')}"
    a, b = code(names["a"], cell=True), code(names["b"], cell=True)
    head = (
        f"\n**{code(str(record.get('case', '')))}** at "
        f"{place(record.get('file', ''), record.get('line'))}{mark}\n\n"
        + table_head(["", f"{b} pass", f"{b} fail"])
        + "".join(
            table_row(
                [
                    f"{a} {word}",
                    *(_number(cells.get(MATRIX_CELLS[side, other])) for other in (True, False)),
                ]
            )
            for side, word in ((True, "pass"), (False, "fail"))
        )
        + f"\nAgreement {_number(answer.get('agreement'), cell=False)}/"
        f"{_number(answer.get('total'), cell=False)}."
    )
    found = answer.get("disagreements")
    ids: Sequence[object] = found if isinstance(found, list) else ()
    grouped = ledger_groups(review)
    path = review.get("groupBy")

    def entry(room: int) -> str | None:
        text = head
        groups_head = ""
        if grouped:
            columns = [code(str(path), cell=True), *_CELLS, "agreement", "disagreements"]
            groups_head = "\n" + table_head(columns)
        if ids:
            words = f" Disagreements ({len(ids):,}): "
            shown = inline_list(
                (code(one) if isinstance(one, str) else code(show(one)) for one in ids),
                len(ids),
                room - len(text) - len(words) - 1 - len(groups_head) - len(_more_groups(grouped)),
            )
            if shown is None:
                return None
            text += f"{words}{shown}\n"
        else:
            text += " No disagreements.\n"
        if grouped:
            text += groups_head
            rows = _group_rows(grouped["groups"])
            total = len(grouped["groups"])
            shown_rows = 0
            for row in rows:
                if len(text) + len(row) + len(_more_groups(grouped, total - shown_rows - 1)) > room:
                    break
                text += row
                shown_rows += 1
            if shown_rows < total:
                text += _more_groups(grouped, total - shown_rows)
        return text if len(text) <= room else None

    return entry


def ledgers_of(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The ledgers' records (failing ones first, each in file order): a run's sealed
    record says beside its text whether it is a ledger's, and is read back only when its
    entry is written."""
    found = [
        record
        for record in records
        if (record.get("ledger") is True if "sealed" in record else ledger_of(record) is not None)
    ]
    found.sort(key=lambda record: record["outcome"] not in FAILING)
    return found


def _group_rows(groups: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    for group in groups:
        matrix = group["matrix"]
        yield table_row(
            [
                code(show(group.get("label")), cell=True),
                *(_number(matrix.get(key)) for key in _CELLS),
                f"{_number(group.get('agreement'))}/{_number(group.get('total'))}",
                _number(group.get("disagreements")),
            ]
        )


def _more_groups(grouped: Mapping[str, Any], left: int | None = None) -> str:
    """The paragraph after a groups table cut short (its longest, unless ``left`` given)."""
    if not grouped:
        return ""
    count = len(grouped["groups"]) if left is None else left
    return f"\nand {count:,} more groups\n" if count else ""


def _number(value: object, *, cell: bool = True) -> str:
    """A count as the report holds it: a number, or what else it is, shown as data."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return code(show(value), cell=cell)
