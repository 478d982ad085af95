"""``--rubric-markdown``: a run's results as Markdown for a pull request comment or a CI
job summary, built from the report document the run already made
(:func:`~pytest_rubric.reports.jsonreport.document`) and, with a baseline, its comparison.

In order: the marker comment, a one-line verdict, what changed since the baseline, the
cases counted per evaluator, then the lists, failures first: mismatches (with the keys
that differ), case errors, ledgers (failing ones first: matrix, agreement over total,
disagreement IDs, a grouped ledger's table of groups), datasets counted per dataset, and
skipped and xfailed cases. The verdict and the counts are written whole; every list is
cut to the size asked for (:mod:`pytest_rubric.reports.mdfit`). Every value from the
report is a code span (:mod:`pytest_rubric.reports.mdtext`).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any, cast

from pytest_rubric.reports.mdfit import (
    Entry,
    Listing,
    Part,
    fit,
    fixed,
    inline_list,
    more_items,
    more_rows,
)
from pytest_rubric.reports.mdledgers import ledger_entry, ledgers_of
from pytest_rubric.reports.mdtext import (
    code,
    marker,
    marker_problem,
    place,
    table_head,
    table_row,
)
from pytest_rubric.reports.sealing import unsealed
from pytest_rubric.reports.summary import COUNT_WORDS, ROW_WORDS, count_words, dataset_counts

#: What a GitHub pull request comment holds, in characters: the size unless told.
DEFAULT_LIMIT = 65_536
#: The smallest size asked for that leaves room for a list's first entries.
MIN_LIMIT = 2_000


def limit_argument(value: str) -> int:
    """An ``argparse`` ``type=`` for a Markdown limit (``--rubric-markdown-limit``,
    ``--limit``): a size in characters, large enough for the verdict, the counts and a
    list's first entries."""
    try:
        size = int(value)
    except ValueError:
        size = -1
    if size < MIN_LIMIT:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a size the Markdown fits in; give a number of characters, "
            f"{MIN_LIMIT:,} or more, e.g. {DEFAULT_LIMIT} (a GitHub comment's limit)"
        )
    return size


def marker_argument(value: str) -> str:
    """An ``argparse`` ``type=`` for the marker comment's name."""
    problem = marker_problem(value)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return value


#: The report's count keys, in the order the tables show them; those after the first
#: three only when a run has one.
_COUNTS = tuple(COUNT_WORDS)
_PARKED = ("skipped", "xfailed", "xpassed")


def run_markdown(
    report: Mapping[str, Any],
    *,
    since: Sequence[Part] = (),
    limit: int = DEFAULT_LIMIT,
    marker_name: str,
) -> str:
    """The Markdown of the run ``report`` describes (its records sealed or not), at most
    ``limit`` characters; ``since``: the section on what changed since a baseline
    (:func:`~pytest_rubric.reports.mdchanges.baseline_parts`), first after the verdict."""
    summary: Mapping[str, Any] = report.get("summary") or {}
    records: Sequence[Mapping[str, Any]] = report.get("cases") or ()
    parts: list[Part] = [marker(marker_name), _verdict(summary)]
    parts.extend(since)
    parts.append(_evaluator_table(summary))
    failing = [record for record in records if record["outcome"] in ("mismatched", "case-error")]
    mismatched = [record for record in failing if record["outcome"] == "mismatched"]
    errors = [record for record in failing if record["outcome"] == "case-error"]
    parts.append(_listing("Mismatches", mismatched, _mismatch))
    parts.append(_listing("Case errors", errors, _case_error))
    ledgers = ledgers_of(records)
    parts.append(
        Listing(
            f"\n### Ledgers ({len(ledgers):,})\n",
            len(ledgers),
            (ledger_entry(record) for record in ledgers),
            more_rows("more ledgers"),
        )
    )
    parts.append(_datasets(records))
    parked = [record for record in records if record["outcome"] in _PARKED]
    parts.append(_listing("Skipped and xfailed", parked, _parked))
    return fit(parts, limit)


def _verdict(summary: Mapping[str, Any]) -> str:
    cases = summary.get("cases", 0)
    if not cases:
        return "**pytest-rubric: no rubric case ran**\n"
    failed = summary.get("mismatched", 0) or summary.get("caseErrors", 0)
    word = "failed" if failed else "passed"
    noun = "case" if cases == 1 else "cases"
    return f"**pytest-rubric {word}**: {cases:,} {noun}, {count_words(summary)}\n"


def _evaluator_table(summary: Mapping[str, Any]) -> str:
    evaluators: Mapping[str, Mapping[str, int]] = summary.get("evaluators") or {}
    keys = [key for number, key in enumerate(_COUNTS) if number < 3 or summary.get(key)]
    text = "\n### Cases by evaluator\n\n" + table_head(
        ["evaluator", "cases", *(COUNT_WORDS[key][1] for key in keys)]
    )
    for name, row in evaluators.items():
        text += table_row(
            [code(name, cell=True), *(f"{row.get(k, 0):,}" for k in ("cases", *keys))]
        )
    return text


def _listing(title: str, records: Sequence[Mapping[str, Any]], line: Any) -> Listing:
    return Listing(
        f"\n### {title} ({len(records):,})\n\n",
        len(records),
        (line(unsealed(cast(Any, record))) for record in records),
        more_items(),
    )


def _where(record: Mapping[str, Any]) -> str:
    of = record.get("dataset")
    if isinstance(of, Mapping):  # a dataset's row: where the row is
        return code(str(of.get("row", "")))
    return place(record.get("file", ""), record.get("line"))


def _mismatch(record: Mapping[str, Any]) -> Entry:
    head = f"- {code(str(record.get('case', '')))} at {_where(record)}"
    found = record.get("differingKeys")
    keys = [key for key in found if isinstance(key, str)] if isinstance(found, list) else []

    def entry(room: int) -> str | None:
        if not keys:
            return fixed(head + "\n")(room)
        shown = inline_list((code(key) for key in keys), len(keys), room - len(head) - 14)
        return None if shown is None else f"{head}: differs in {shown}\n"

    return entry


def _case_error(record: Mapping[str, Any]) -> Entry:
    problems = record.get("problems")
    why = problems[0] if isinstance(problems, list) and problems else record.get("reason")
    text = f"- {code(str(record.get('case', '')))} at {_where(record)}"
    return fixed(text + (f": {code(why)}\n" if isinstance(why, str) and why else "\n"))


def _parked(record: Mapping[str, Any]) -> Entry:
    why = record.get("reason")
    text = f"- {code(str(record.get('case', '')))} at {_where(record)}, {record['outcome']}"
    return fixed(text + (f": {code(why)}\n" if isinstance(why, str) and why else "\n"))


def _datasets(records: Sequence[Mapping[str, Any]]) -> Listing:
    counted = dataset_counts(cast(Sequence[Any], records))
    keys = [
        key
        for number, (key, _words) in enumerate(ROW_WORDS)
        if number < 3 or any(row[key] for row in counted.values())
    ]
    words = dict(ROW_WORDS)
    heading = f"\n### Datasets ({len(counted):,})\n\n" + table_head(
        ["dataset", "file", "rows", *(words[key][1] for key in keys)]
    )
    rows = (
        fixed(
            table_row(
                [
                    code(case, cell=True),
                    code(file, cell=True),
                    f"{sum(row.values()):,}",
                    *(f"{row[key]:,}" for key in keys),
                ]
            )
        )
        for (file, case), row in counted.items()
    )
    return Listing(heading, len(counted), rows, more_rows("more datasets"))
