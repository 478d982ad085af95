"""Joining shard reports: the report one run of the whole suite would have written, or a
refusal saying why the shards do not make one.

Pure: reports in (already read, named as the user gave them), one document or one
:class:`MergeRefused` out. No pytest, no files; :mod:`pytest_rubric.cli` does the I/O.

A shard report says which rubric cases its run collected before any deselection
(``suite``: a digest and the sorted node IDs). Shards of one suite collect the same
cases and each reports a part of them; the merge checks that together they report
every collected case exactly once, then recounts the summary from the cases.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsondecode import StrictDecoder
from pytest_rubric.reports.jsonreport import FORMAT, VERSION, document
from pytest_rubric.reports.records import CaseRecord, SuiteRecord
from pytest_rubric.reports.suites import suite_digest
from pytest_rubric.running.outcome import OUTCOMES

#: How many node IDs a refusal names before "and N more".
SHOWN = 3
#: More shards than this are no run's: a report claiming them is refused before it is counted.
MAX_SPLITS = 10_000
#: pytest's exit status when a run collected nothing, as a shard with no cases does.
_NO_TESTS_COLLECTED = 5


class MergeRefused(Exception):
    """The reports do not make one report of the whole suite; the message is one line."""


@dataclass(frozen=True, slots=True)
class ShardReport:
    """One input: its name as given (for messages) and its checked content."""

    name: str
    data: Mapping[str, Any]

    @property
    def suite(self) -> SuiteRecord:
        return cast(SuiteRecord, self.data["suite"])

    @property
    def cases(self) -> list[CaseRecord]:
        return cast("list[CaseRecord]", self.data["cases"])


def _repeated(key: str) -> str:
    return f"it gives the key {escape_controls(json.dumps(key, ensure_ascii=False)[:60])} twice in one object"


def _constant(name: str) -> str:
    return f"it holds {name}, which JSON does not have"


def parse(name: str, content: bytes, version: str, *, same_tool: bool = True) -> ShardReport:
    """``content`` read as a report written by pytest-rubric ``version``, checked enough
    to merge; :class:`MergeRefused` when it is not one. Without ``same_tool`` (to compare
    runs) any pytest-rubric version's report of this format version is read."""
    shown = _shown(name)
    try:
        data = json.loads(
            content.decode("utf-8-sig"), cls=StrictDecoder, repeated=_repeated, constant=_constant
        )
    except UnicodeDecodeError:
        raise MergeRefused(f"{shown} is not a pytest-rubric report: it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise MergeRefused(
            f"{shown} is not a pytest-rubric report: not JSON "
            f"(line {exc.lineno}, column {exc.colno}: {exc.msg.lower()})"
        ) from None
    except RecursionError:
        raise MergeRefused(f"{shown} is not a pytest-rubric report: nested too deeply") from None
    except ValueError as exc:  # NaN or Infinity, which JSON does not have; an absurd integer
        raise MergeRefused(f"{shown} is not a pytest-rubric report: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MergeRefused(
            f'{shown} is not a pytest-rubric report (it has no "format": "{FORMAT}"); '
            "give the files that pytest --rubric-report=PATH wrote"
        )
    if data.get("version") != VERSION:
        remedy = (
            f"merges version {VERSION}: rerun that shard with pytest-rubric {version}"
            if same_tool
            else f"reads version {VERSION}: rerun it with pytest-rubric {version}, or compare "
            "with the pytest-rubric that wrote it"
        )
        raise MergeRefused(
            f"{shown} is a version {_value(json.dumps(data.get('version')))} report; this "
            "pytest-rubric "
            f"({version}) {remedy}"
        )
    if not isinstance(data.get("pytestRubric"), str):
        raise MergeRefused(
            f'{shown} is not a complete pytest-rubric report: "pytestRubric" is not a version'
        )
    if same_tool and data.get("pytestRubric") != version:
        raise MergeRefused(
            f"{shown} was written by pytest-rubric {_value(data.get('pytestRubric'))}, and this is "
            f"{version}: run every shard and the merge with one pytest-rubric version"
        )
    problem = _shape_problem(data)
    if problem is not None:
        raise MergeRefused(f"{shown} is not a complete pytest-rubric report: {problem}")
    return ShardReport(name, data)


def merge(reports: Sequence[ShardReport], version: str) -> dict[str, Any]:
    """The report of the whole suite from its shards' reports, in any order;
    :class:`MergeRefused` when they collected different suites, report a case twice,
    or leave a collected case unreported."""
    if not reports:
        raise MergeRefused("give at least one report to merge")
    first = reports[0]
    for other in reports[1:]:
        if other.suite["digest"] != first.suite["digest"]:
            raise MergeRefused(_different_suites(first, other))
    seen: dict[str, str] = {}
    twice: list[tuple[str, str, str]] = []
    for report in reports:
        for case in report.cases:
            nodeid = case["nodeid"]
            if nodeid in seen:
                twice.append((nodeid, seen[nodeid], report.name))
            else:
                seen[nodeid] = report.name
    if twice:
        raise MergeRefused(_selected_differently(reports) or _duplicated(twice))
    collected = first.suite["nodeids"]
    strangers = sorted(seen.keys() - set(collected))
    if strangers:
        raise MergeRefused(
            f"{_shown(seen[strangers[0]])} reports cases its suite does not list "
            f"({_ids(strangers)}): it is not a report pytest-rubric wrote"
        )
    missing = [nodeid for nodeid in collected if nodeid not in seen]
    if missing:
        raise MergeRefused(_selected_differently(reports) or _incomplete(reports, missing))
    suite: SuiteRecord = {**first.suite, "selected": len(collected)}
    return document(
        (case for report in reports for case in report.cases),
        combined_exit_status(int(report.data["exitStatus"]) for report in reports),
        version,
        suite=suite,
        shard=None,
    )


def combined_exit_status(statuses: Iterable[int]) -> int:
    """The exit status of the whole run: the worst of the shards', where a shard that
    collected nothing (5) is no failure unless every shard did."""
    ran = [status for status in statuses if status != _NO_TESTS_COLLECTED]
    return max(ran) if ran else _NO_TESTS_COLLECTED


# -- the words of a refusal ------------------------------------------------------------


def _different_suites(first: ShardReport, other: ShardReport) -> str:
    mine, theirs = set(first.suite["nodeids"]), set(other.suite["nodeids"])
    only_first, only_other = sorted(mine - theirs), sorted(theirs - mine)
    differences = []
    if only_first:
        differences.append(f"only {_shown(first.name)} has {_ids(only_first)}")
    if only_other:
        differences.append(f"only {_shown(other.name)} has {_ids(only_other)}")
    return (
        f"{_shown(first.name)} and {_shown(other.name)} collected different suites "
        f"({len(mine)} and {len(theirs)} cases; {'; '.join(differences)}): run every shard "
        "of one suite with the same arguments apart from the shard options"
    )


def _selected_differently(reports: Sequence[ShardReport]) -> str | None:
    """Why shards that are each one group of one split (every group once) still report a
    case twice or miss one: they selected their cases with different arguments
    (``-k``, ``-m``, ``--deselect``, paths); ``None`` when the groups do not say so."""
    shards = [report.data["shard"] for report in reports]
    if len(reports) < 2 or any(shard is None for shard in shards):
        return None
    splits = {(shard["plugin"], shard["splits"]) for shard in shards}
    groups = sorted(shard["group"] for shard in shards)
    if (
        len(splits) != 1
        or groups != list(range(1, len(reports) + 1))
        or (groups[-1] != next(iter(splits))[1])
    ):
        return None
    total = len(reports[0].suite["nodeids"])
    counts = ", ".join(
        f"{_shown(report.name)} selected {report.suite['selected']}" for report in reports
    )
    return (
        f"the shards selected different cases from the suite of {total} they each collected "
        f"({counts}; groups 1 to {len(reports)} of {len(reports)}, as they should be): run "
        "every shard with the same arguments apart from its shard options (the same -k, -m, "
        "--deselect and paths)"
    )


def _duplicated(twice: list[tuple[str, str, str]]) -> str:
    shown = ", ".join(
        f"{_shown(nodeid)} (in {_shown(a)} and {_shown(b)})" for nodeid, a, b in twice[:SHOWN]
    )
    more = f", and {len(twice) - SHOWN} more" if len(twice) > SHOWN else ""
    cases = "case is" if len(twice) == 1 else "cases are"
    return (
        f"{len(twice)} {cases} reported by two inputs: {shown}{more}; give each shard's "
        "report once, and shard with disjoint groups"
    )


def _incomplete(reports: Sequence[ShardReport], missing: list[str]) -> str:
    names = ", ".join(_shown(report.name) for report in reports)
    total = len(reports[0].suite["nodeids"])
    hints = []
    shards = [report.data["shard"] for report in reports if report.data["shard"] is not None]
    if shards:
        splits = max(shard["splits"] for shard in shards)
        groups = sorted(set(range(1, splits + 1)) - {shard["group"] for shard in shards})
        if groups:
            listed = ", ".join(str(group) for group in groups)
            hints.append(f"no report from group {listed} of {splits}")
    for report in reports:
        selected, reported = report.suite["selected"], len(report.cases)
        if reported < selected:
            hints.append(
                f"{_shown(report.name)} reported {reported} of the {selected} cases it selected "
                f"(exit status {report.data['exitStatus']})"
            )
    hint = f" ({'; '.join(hints)})" if hints else ""
    return (
        f"the suite is incomplete: {len(missing)} of its {total} cases are in none of "
        f"{names}{hint}: {_ids(missing)}"
    )


def _ids(nodeids: Sequence[str]) -> str:
    shown = ", ".join(_shown(nodeid) for nodeid in nodeids[:SHOWN])
    return f"{shown}, and {len(nodeids) - SHOWN} more" if len(nodeids) > SHOWN else shown


def _shown(text: str) -> str:
    return escape_controls(text)


def _value(value: object) -> str:
    shown = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return escape_controls(shown if len(shown) <= 40 else f"{shown[:40]}…")


# -- is it a report? -------------------------------------------------------------------


def _shape_problem(data: Mapping[str, Any]) -> str | None:
    """What keeps ``data`` from being merged, or ``None``; a version-4 report as
    pytest-rubric writes it always passes."""
    if not _is_int(data.get("exitStatus")) or not 0 <= data["exitStatus"] <= _MAX_EXIT_STATUS:
        return f'"exitStatus" is not one of pytest\'s exit statuses (0 to {_MAX_EXIT_STATUS})'
    suite = data.get("suite")
    if suite is None:
        return (
            '"suite" is null: its run stopped before collection finished, so it cannot say '
            "which cases the suite has"
        )
    if not isinstance(suite, dict):
        return '"suite" is not an object'
    nodeids = suite.get("nodeids")
    if not isinstance(nodeids, list) or not all(isinstance(n, str) for n in nodeids):
        return '"suite.nodeids" is not a list of node IDs'
    selected = suite.get("selected")
    if (
        not _is_int(selected)
        or suite.get("collected") != len(nodeids)
        or not 0 <= selected <= len(nodeids)  # type: ignore[operator]
    ):
        return '"suite.collected" or "suite.selected" is not a count of its node IDs'
    if nodeids != sorted(set(nodeids)) or suite.get("digest") != suite_digest(nodeids):
        return '"suite.digest" does not match "suite.nodeids"'
    shard = data.get("shard")
    if shard is not None and not (
        isinstance(shard, dict)
        and _is_int(shard.get("group"))
        and _is_int(shard.get("splits"))
        and 1 <= shard["group"] <= shard["splits"]
    ):
        return '"shard" is neither null nor a group of splits'
    if shard is not None and shard["splits"] > MAX_SPLITS:
        return f'"shard.splits" is {shard["splits"]}, more shards than any run has (at most {MAX_SPLITS:,})'
    cases = data.get("cases")
    if not isinstance(cases, list):
        return '"cases" is not a list'
    summary = data.get("summary")
    if not (
        isinstance(summary, dict)
        and _is_int(summary.get("cases"))
        and summary["cases"] == len(cases)
    ):
        return '"summary.cases" is not the count of its "cases"'
    for number, case in enumerate(cases):
        if not (
            isinstance(case, dict)
            and all(isinstance(case.get(key), str) for key in _TEXT_KEYS)
            and all(_is_int(case.get(key)) for key in ("index", "line"))
            and all(key in case for key in _KEYS)
            and case.get("outcome") in OUTCOMES
        ):
            return f"cases[{number}] is not a case record"
        wrong = _wrong_key(case)
        if wrong is not None:
            return f"cases[{number}].{wrong}"
        if data["exitStatus"] == 0 and case["outcome"] in _FAILING:
            return (
                f'cases[{number}] is {case["outcome"]}, but "exitStatus" is 0 (a run that passed)'
            )
    return None


#: pytest's exit statuses go from 0 (OK) to 5 (no tests collected).
_MAX_EXIT_STATUS = 5
#: Outcomes that fail a run.
_FAILING = ("mismatched", "case-error")
#: The most rows to review a report can say it left out (more than any ledger has).
_MAX_MORE = 10**15


def _wrong_key(case: Mapping[str, Any]) -> str | None:
    """The key of a case record whose value is not of the type the report schema gives
    it (what the review page and the summary read), said as ``key is not ...``."""
    if case["line"] < 1 or case["index"] < 0:
        return "line or index is not a place in a case file (line from 1, index from 0)"
    if not _texts(case["differingKeys"]):
        return "differingKeys is not a list of text"
    if not _texts(case["problems"]):
        return "problems is not a list of text"
    evidence = case["evidence"]
    if evidence is not None and not (
        isinstance(evidence, dict)
        and isinstance(evidence.get("facts"), dict)
        and (evidence.get("problem") is None or isinstance(evidence.get("problem"), str))
    ):
        return "evidence is neither null nor {facts: {...}, problem: text or null}"
    duration = case["duration"]
    if isinstance(duration, bool) or not isinstance(duration, (int, float)) or duration < 0:
        return "duration is not a number of seconds"
    for key in ("reason", "inputFile"):
        if key in case and not isinstance(case[key], str):
            return f"{key} is not text"
    review = case.get("review")
    if review is not None and not (
        isinstance(review, dict)
        and isinstance(review.get("rows"), list)
        and all(isinstance(row, dict) for row in review["rows"])
        and _is_int(review.get("more"))
        and 0 <= review["more"] <= _MAX_MORE
    ):
        return "review is not {rows: [{...}, ...], more: a count}"
    return None


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


#: What every case record of a report has (the schema's required keys).
_TEXT_KEYS = ("nodeid", "case", "file", "evaluator")
_KEYS = ("expected", "differingKeys", "evidence", "problems", "duration")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
