"""A comparison of two runs (:func:`pytest_rubric.reports.diff.compare`) in words: what
``pytest-rubric diff`` prints, and the rubric summary's lines since a baseline.

Shortest first: one line of counts, then the changes, failures first: outcomes that
changed, cases in one report only, answers that changed, then each ledger's matrix,
agreement and the disagreement IDs that entered and left. A dataset's rows are shown
under their dataset. Everything from the reports is escaped for the terminal, and IDs
are quoted as JSON quotes them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.labelblocks import MATRIX_CELLS
from pytest_rubric.reports.diff import CaseChange, Comparison, LedgerChange, Moved

#: Sections of case changes, in the order shown: the change, its heading.
SECTIONS = (
    ("outcome", "outcome changed"),
    ("only-new", "only in new"),
    ("only-old", "only in old"),
    ("answer", "answer changed, same outcome"),
)


def diff_lines(comparison: Comparison, prog: str = "pytest-rubric") -> list[str]:
    """What ``pytest-rubric diff`` prints: every change."""
    old, new = _shown_name(comparison["old"]["report"]), _shown_name(comparison["new"]["report"])
    counted = counted_text(comparison, "no case ran in both reports")
    lines = [f"{prog} diff: {counted or 'nothing changed'} ({old} -> {new})"]
    lines.extend(suite_notes(comparison))
    lines.extend(change_lines(comparison))
    return lines


def baseline_lines(comparison: Comparison, baseline: str, *, limit: int) -> list[str]:
    """The rubric summary's section on what changed since the report ``baseline``:
    at most ``limit`` lines a section, and as many IDs a ledger."""
    counted = counted_text(comparison, "no case ran both in the baseline and in this run")
    if not counted:
        lines = [f"nothing changed since baseline {_shown_name(baseline)}"]
        return lines + [f"  {line}" for line in suite_notes(comparison)]
    lines = [f"since baseline {_shown_name(baseline)}: {counted}"]
    lines.extend(f"  {line}" for line in suite_notes(comparison))
    lines.extend(f"  {line}" for line in change_lines(comparison, limit=limit))
    return lines


def counted_text(comparison: Comparison, none_in_both: str) -> str:
    """The counts, and ``nothing compared: <none_in_both>`` after them when no case was
    in both reports: a comparison of nothing must never read as "nothing changed"."""
    counted = counts_text(comparison)
    if comparison["summary"]["compared"]:
        return counted
    return f"{counted}; " * bool(counted) + f"nothing compared: {none_in_both}"


def counts_text(comparison: Comparison) -> str:
    """The changes counted in words (``2 cases changed outcome, 1 only in new``); ``""``
    when nothing changed."""
    summary = comparison["summary"]
    parts = [
        (summary["outcomeChanged"], "case changed outcome", "cases changed outcome"),
        (summary["onlyNew"], "only in new", "only in new"),
        (summary["onlyOld"], "only in old", "only in old"),
        (summary["answerChanged"], "answer changed", "answers changed"),
        (summary["ledgersChanged"], "ledger changed", "ledgers changed"),
    ]
    return ", ".join(
        f"{count} {one if count == 1 else many}" for count, one, many in parts if count
    )


#: How many IDs entered and left each ledger's line names when every change is listed
#: (``--json`` lists them all).
IDS_SHOWN = 20


def change_lines(comparison: Comparison, *, limit: int | None = None) -> list[str]:
    """A section a kind of change, then the ledgers; each at most ``limit`` entries long
    (``None``: all of them)."""
    lines: list[str] = []
    for change, heading in SECTIONS:
        entries = [entry for entry in comparison["cases"] if entry["change"] == change]
        if entries:
            lines.append(f"{heading} ({len(entries)}):")
            lines.extend(_case_lines(entries[:limit] if limit is not None else entries))
            lines.extend(_more(len(entries), limit))
    ledgers = comparison["ledgers"]
    if ledgers:
        lines.append(f"ledgers changed ({len(ledgers)}):")
        shown = ledgers[:limit] if limit is not None else ledgers
        ids = limit if limit is not None else IDS_SHOWN
        lines.extend(f"  {ledger_line(ledger, limit=ids)}" for ledger in shown)
        lines.extend(_more(len(ledgers), limit))
    return lines


def ledger_line(ledger: LedgerChange, *, limit: int | None = None) -> str:
    """``nodeid: agreement 6/8 -> 5/8; bothPass 4 -> 3, bOnly 1 -> 2; entered "hl-9"
    (ledgers/w49.jsonl:9); left "hl-2"``, with at most ``limit`` IDs each way."""
    before, after = ledger["before"], ledger["after"]
    parts = [
        f"agreement {before['agreement']}/{before['total']} -> "
        f"{after['agreement']}/{after['total']}"
    ]
    cells = [
        f"{key} {before['matrix'][key]} -> {after['matrix'][key]}"
        for key in MATRIX_CELLS.values()
        if before["matrix"][key] != after["matrix"][key]
    ]
    if cells:
        parts.append(", ".join(cells))
    for word, moved in (("entered", ledger["entered"]), ("left", ledger["left"])):
        if moved:
            parts.append(f"{word} {_ids(moved, limit)}")
    if not ledger["entered"] and not ledger["left"] and not cells:
        parts.append("the same disagreements in another order")  # all else is equal
    return f"{escape_controls(ledger['nodeid'])}: {'; '.join(parts)}"


def _case_lines(entries: Sequence[CaseChange]) -> list[str]:
    """One line a case; a dataset's rows under a line naming their dataset, where its
    first row comes."""
    groups: dict[tuple[str, str] | int, list[CaseChange]] = {}
    for number, entry in enumerate(entries):
        dataset = entry.get("dataset")
        key = (entry["file"], dataset["case"]) if dataset is not None else number
        groups.setdefault(key, []).append(entry)
    lines = []
    for key, members in groups.items():
        if isinstance(key, tuple):
            file, case = key
            rows = f"{len(members)} row{'' if len(members) == 1 else 's'}"
            lines.append(escape_controls(f"  dataset {case} ({file}), {rows}:"))
            lines.extend(f"    {_case_line(entry)}" for entry in members)
        else:
            lines.extend(f"  {_case_line(entry)}" for entry in members)
    return lines


def _case_line(entry: CaseChange) -> str:
    nodeid = escape_controls(entry["nodeid"])
    change = entry["change"]
    if change == "outcome":
        return f"{nodeid}: {entry['before']} -> {entry['after']}"
    if change == "only-new":
        return f"{nodeid} ({entry['after']})"
    if change == "only-old":
        return f"{nodeid} ({entry['before']})"
    return f"{nodeid} ({entry['after']} both times)"


def _ids(moved: Sequence[Moved], limit: int | None) -> str:
    shown = moved[:limit] if limit is not None else moved
    text = ", ".join(
        _quoted(one["id"]) + (f" ({escape_controls(one['where'])})" if one["where"] else "")
        for one in shown
    )
    return text + (f", and {len(moved) - len(shown)} more" if len(moved) > len(shown) else "")


def suite_notes(comparison: Comparison, name: Callable[[str], str] | None = None) -> list[str]:
    """How the suites differ, where the sections of changes do not say it: runs that
    share no case (another rootdir, another project), and cases of one suite only that
    the run collecting them did not run; then the cases neither compared. ``name`` shows
    a report's name (as the terminal shows it, unless given)."""
    show = _shown_name if name is None else name
    lines = []
    old, new = comparison["old"], comparison["new"]
    summary = comparison["summary"]
    shared = old["collected"] - old["collectedOnly"]
    if shared == 0 and old["collected"] and new["collected"]:
        lines.append(
            f"the runs collected no case in common ({_cases(old['collected'])} in "
            f"{show(old['report'])}, {_cases(new['collected'])} in {show(new['report'])}): "
            "node IDs are relative to each run's rootdir; were both run from the same one?"
        )
    else:
        unlisted = (
            (old["collectedOnly"] - summary["onlyOld"], old["report"]),
            (new["collectedOnly"] - summary["onlyNew"], new["report"]),
        )
        parts = [f"{_cases(count)} in {show(report)}" for count, report in unlisted if count > 0]
        if parts:
            lines.append(
                "cases of one suite only, not run by the run that collected them: "
                + ", ".join(parts)
            )
    skipped = summary["notCompared"]
    if skipped:
        lines.append(
            f"{_cases(skipped)} not compared: collected by both runs, selected by one only "
            "(-k, -m, --deselect, a shard)"
        )
    return lines


def _more(count: int, limit: int | None) -> list[str]:
    return [f"  and {count - limit} more"] if limit is not None and count > limit else []


def _cases(count: int) -> str:
    return f"{count} case{'' if count == 1 else 's'}"


def _quoted(text: str) -> str:
    return escape_controls(json.dumps(text, ensure_ascii=False))


def _shown_name(text: str) -> str:
    return escape_controls(text)
