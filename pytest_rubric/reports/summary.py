"""The terminal summary: counts per evaluator, then each evaluator's own lines, briefly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import TypeAlias, TypedDict

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.reports.counts import counts, in_file_order
from pytest_rubric.reports.sealing import KeptRecord, unsealed
from pytest_rubric.running.outcome import OUTCOMES


class SummaryLine(TypedDict):
    """An evaluator's line about one answer, for the rubric summary."""

    title: str
    line: str


#: A case as the summary reads it: its record, and its evaluator's line about its answer.
Summarised: TypeAlias = tuple[KeptRecord, "SummaryLine | None"]

#: How many answer lines per title the summary shows.
MAX_LINES = 10
#: How many changes of a kind, and disagreement IDs a ledger, the lines since a baseline show.
MAX_BASELINE_LINES = 5
DEFAULT_REPORT = "rubric-report.json"
#: Outcomes shown only when they happened, after the three every run has.
_RARE = (("skipped", "skipped"), ("xfailed", "xfailed"), ("xpassed", "xpassed"))


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"


#: A report's outcome counts (its ``summary`` keys) in plain words, singular and plural.
COUNT_WORDS = {
    "matched": ("matched", "matched"),
    "mismatched": ("mismatched", "mismatched"),
    "caseErrors": ("case error", "case errors"),
    "skipped": ("skipped", "skipped"),
    "xfailed": ("xfailed", "xfailed"),
    "xpassed": ("xpassed", "xpassed"),
}


def count_words(summary: Mapping[str, int]) -> str:
    """A report summary's outcome counts that are not zero, in plain words:
    ``2 matched, 1 case error``."""
    return ", ".join(
        plural(summary[key], *words) for key, words in COUNT_WORDS.items() if summary.get(key)
    )


def count_line(name: str, row: dict[str, int]) -> str:
    line = (
        f"{escape_controls(name)}: {plural(row['cases'], 'case')}, {row['matched']} matched, "
        f"{row['mismatched']} mismatched, {plural(row['case-error'], 'case error')}"
    )
    return line + "".join(f", {row[key]} {word}" for key, word in _RARE if row[key])


def summary_lines(
    cases: Sequence[Summarised],
    report_path: str | None,
    *,
    brief: bool = False,
    since: Sequence[str] = (),
) -> list[str]:
    """The rubric summary of ``cases`` (each record with its summary line, if any), with
    the lines ``since`` on what changed since a baseline; ``brief`` (``-qq``) gives one
    line for the whole run."""
    records = [record for record, _line in cases]
    table = counts(records)
    if brief:
        total = {key: sum(row[key] for row in table.values()) for key in next(iter(table.values()))}
        return [count_line("rubric", total)]
    lines = [count_line(name, row) for name, row in table.items()]
    lines.extend(_dataset_lines(records))
    lines.extend(_panel_lines(records))
    lines.extend(_parked_lines(records))
    lines.extend(_answer_lines(cases))
    lines.extend(since)
    if report_path is not None:
        lines.append(f"full report: {escape_controls(report_path)}")
    else:
        lines.append(f"write the full report with: pytest --rubric-report={DEFAULT_REPORT}")
    return lines


def dataset_counts(records: Sequence[KeptRecord]) -> dict[tuple[str, str], dict[str, int]]:
    """Each dataset's rows counted by outcome, by its file and case ID, in file order."""
    by_dataset: dict[tuple[str, str], dict[str, int]] = {}
    for record in in_file_order(records):
        of = record.get("dataset")
        if of is not None:
            row = by_dataset.setdefault((record["file"], of["case"]), dict.fromkeys(OUTCOMES, 0))
            row[record["outcome"]] += 1
    return by_dataset


def _dataset_lines(records: Sequence[KeptRecord]) -> list[str]:
    """Each dataset's rows counted by outcome, a line each, in file order."""
    lines = []
    for (file, case), row in dataset_counts(records).items():
        shown = ", ".join(plural(row[key], *words) for key, words in ROW_WORDS if row[key])
        total = plural(sum(row.values()), "row")
        lines.append(escape_controls(f"  dataset {case} ({file}): {total}, {shown}"))
    return lines


def _panel_lines(records: Sequence[KeptRecord]) -> list[str]:
    """Each panel as one small table, in file order: a line a pair that ran, in panel
    order, with its agreement over its total (or its outcome, where it has none)."""
    panels: dict[tuple[str, str], dict[str, KeptRecord]] = {}
    order: dict[tuple[str, str], list[str]] = {}
    for record in in_file_order(records):
        of = record.get("panel")
        if of is not None:
            key = (record["file"], of["case"])
            panels.setdefault(key, {})[of["pair"]] = record
            order.setdefault(key, of["pairs"])
    lines = []
    for (file, case), pairs in panels.items():
        lines.append(escape_controls(f"  panel {case} ({file}): {plural(len(pairs), 'pair')}"))
        width = max(map(len, pairs))
        for name in order[file, case]:
            pair = pairs.get(name)
            if pair is None:
                continue
            of = pair["panel"]
            figure = f"{of['agreement']}/{of['total']}" if "total" in of else of.get("error", "-")
            mark = "" if pair["outcome"] == "matched" else f"  [{pair['outcome']}]"
            lines.append(escape_controls(f"    {name:<{width}}  {figure:>9}{mark}"))
    return lines


#: Outcomes, each with its words for a count of rows, singular and plural.
ROW_WORDS = tuple(zip(OUTCOMES, COUNT_WORDS.values(), strict=True))


def _parked_lines(records: Sequence[KeptRecord]) -> list[str]:
    """The skipped and xfailed cases, each with why (a run's summary says it; pytest's
    own says it only with ``-rs``/``-rx``)."""
    parked = in_file_order(
        [record for record in records if record["outcome"] in ("skipped", "xfailed", "xpassed")]
    )
    if not parked:
        return []
    lines = [f"skipped and xfailed cases ({len(parked)}):"]
    for record in parked[:MAX_LINES]:
        why = unsealed(record).get("reason") or ""  # a report's records are sealed
        lines.append(
            escape_controls(
                f"  {record['nodeid']} [{record['outcome']}]" + (f": {why}" if why else "")
            )
        )
    if len(parked) > MAX_LINES:
        lines.append(f"  and {len(parked) - MAX_LINES} more")
    return lines


def _answer_lines(cases: Sequence[Summarised]) -> list[str]:
    """Each evaluator's lines about its answers, grouped by title, in file order."""
    by_title: dict[str, list[tuple[KeptRecord, str]]] = {}
    lined = [(record, summary) for record, summary in cases if summary is not None]
    for record, summary in sorted(lined, key=lambda case: _file_order(case[0])):
        by_title.setdefault(summary["title"], []).append((record, summary["line"]))
    lines = []
    for title, entries in sorted(by_title.items()):
        lines.append(f"{title} ({len(entries)}):")
        for record, line in entries[:MAX_LINES]:
            mark = "" if record["outcome"] == "matched" else f" [{record['outcome']}]"
            lines.append(f"  {escape_controls(record['nodeid'])}{mark}")
            lines.append(f"    {line}")
        if len(entries) > MAX_LINES:
            lines.append(f"  and {len(entries) - MAX_LINES} more")
    return lines


#: As :func:`~pytest_rubric.reports.counts.in_file_order` sorts records.
_file_order = itemgetter("file", "index", "nodeid")
