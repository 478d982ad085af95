"""A comparison of two runs (:func:`pytest_rubric.reports.diff.compare`) as Markdown:
``pytest-rubric diff --markdown``, and the "since the baseline" section of a run's
Markdown. The same sections as the text ``diff`` prints, in its order (failures
first), each a list :func:`~pytest_rubric.reports.mdfit.fit` may cut.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pytest_rubric.core.labelblocks import MATRIX_CELLS
from pytest_rubric.reports.diff import CaseChange, Comparison, LedgerChange, Moved
from pytest_rubric.reports.difftext import SECTIONS, counted_text, suite_notes
from pytest_rubric.reports.mdfit import Entry, Listing, Part, fit, fixed, inline_list, more_items
from pytest_rubric.reports.mdtext import code, marker, place


def diff_markdown(comparison: Comparison, *, limit: int, marker_name: str) -> str:
    """What ``pytest-rubric diff --markdown`` prints: the verdict line, then every change
    that fits in ``limit`` characters."""
    old, new = code(comparison["old"]["report"]), code(comparison["new"]["report"])
    counted = counted_text(comparison, "no case ran in both reports") or "nothing changed"
    parts: list[Part] = [
        marker(marker_name),
        f"**pytest-rubric diff: {counted}** ({old} → {new})\n",
        *_suites(comparison),
        *change_parts(comparison),
    ]
    return fit(parts, limit)


def baseline_parts(comparison: Comparison, baseline: str) -> list[Part]:
    """The run's section on what changed since the report ``baseline``."""
    counted = counted_text(comparison, "no case ran both in the baseline and in this run")
    heading = f"\n### Since the baseline {code(baseline)}\n\n"
    words = f"{counted[:1].upper()}{counted[1:]}." if counted else "Nothing changed."
    return [heading + words + "\n", *_suites(comparison), *change_parts(comparison)]


def change_parts(comparison: Comparison) -> list[Part]:
    """A list a kind of change, then the ledgers that changed."""
    parts: list[Part] = []
    for change, heading in SECTIONS:
        entries = [entry for entry in comparison["cases"] if entry["change"] == change]
        parts.append(
            Listing(
                f"\n**{heading[:1].upper()}{heading[1:]} ({len(entries):,})**\n\n",
                len(entries),
                (fixed(_case_line(entry)) for entry in entries),
                more_items(),
            )
        )
    ledgers = comparison["ledgers"]
    parts.append(
        Listing(
            f"\n**Ledgers changed ({len(ledgers):,})**\n\n",
            len(ledgers),
            (_ledger_entry(ledger) for ledger in ledgers),
            more_items(),
        )
    )
    return parts


def _suites(comparison: Comparison) -> list[str]:
    return [f"\n{note[:1].upper()}{note[1:]}.\n" for note in suite_notes(comparison, code)]


def _case_line(entry: CaseChange) -> str:
    name = code(entry["case"])
    dataset = entry.get("dataset")
    where = place(entry["file"], entry["line"]) if dataset is None else code(dataset["row"])
    change = entry["change"]
    if change == "outcome":
        what = f"{entry['before']} → {entry['after']}"
    elif change == "only-new":
        what = str(entry["after"])
    elif change == "only-old":
        what = str(entry["before"])
    else:
        what = f"{entry['after']} both times"
    return f"- {name} at {where}: {what}\n"


def _ledger_entry(ledger: LedgerChange) -> Entry:
    """A ledger's line: agreement and changed cells before and after, then as many IDs
    that entered and left as fit."""
    before, after = ledger["before"], ledger["after"]
    cells = [
        f"{key} {before['matrix'][key]} → {after['matrix'][key]}"
        for key in MATRIX_CELLS.values()
        if before["matrix"][key] != after["matrix"][key]
    ]
    head = (
        f"- {code(ledger['case'])} at {place(ledger['file'], ledger['line'])}: agreement "
        f"{before['agreement']}/{before['total']} → {after['agreement']}/{after['total']}"
        + (f"; {', '.join(cells)}" if cells else "")
    )
    if not cells and not ledger["entered"] and not ledger["left"]:
        head += "; the same disagreements in another order"
    entered, left = ledger["entered"], ledger["left"]

    def entry(room: int) -> str | None:
        left_at_least = len(f"; left and {len(left):,} more") if left else 0
        text = head
        if entered:
            ids = inline_list(_ids(entered), len(entered), room - len(text) - left_at_least - 11)
            if ids is None:
                return None
            text += f"; entered {ids}"
        if left:
            ids = inline_list(_ids(left), len(left), room - len(text) - 9)
            if ids is None:
                return None
            text += f"; left {ids}"
        text += "\n"
        return text if len(text) <= room else None

    return entry


def _ids(moved: Sequence[Moved]) -> Iterator[str]:
    for one in moved:
        where = one["where"]
        yield code(one["id"]) + (f" ({code(where)})" if where else "")
