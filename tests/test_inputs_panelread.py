"""A panel's export read once for all its pairs (``inputs/panelread.py``, issue 47 item
4): every pair answers, explains and reviews exactly as its own rows do, for one row per
case and one row per judgement, with ``where``, ``ids: as-text``, ``group_by`` and
``overlap: both-judged``; the export is read once for the whole panel; the columns are
held by the panel's own holder and let go once every pair that runs has taken them."""

from __future__ import annotations

import csv
import gc
import io
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from _runs import serial_and_spread
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs.formats.csvfile import Csv
from pytest_rubric.inputs.formats.jsonl import Jsonl
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.inputs.panelheld import PanelColumns, PanelReads
from pytest_rubric.running.outcome import CaseOutcome
from pytest_rubric.running.panelcases import not_run, panel_cases
from pytest_rubric.running.runner import run_case

GRADERS = ("g0", "g1", "g2")


def load(folder: Path, keys: str, reads: PanelReads | None = None) -> list[Case]:
    """The pairs of a case whose keys after ``id: x`` are ``keys``."""
    path = folder / "c.rubric.yaml"
    path.write_text(f"evaluator: agreement\ncases:\n  - id: x\n{keys}", encoding="utf-8")
    (case,) = load_case_file(path, "c.rubric.yaml", root=folder).cases
    files = InputFiles(path, "c.rubric.yaml", folder)
    return list(panel_cases(case, "c.rubric.yaml", files, reads))


def run(case: Case, limit: int | None = 1000) -> CaseOutcome:
    return run_case(case, AGREEMENT, path="c.rubric.yaml", source="", review_limit=limit)


def seen(outcome: CaseOutcome) -> dict[str, Any]:
    evidence = outcome.evidence
    return {
        "actual": outcome.actual,
        "facts": None if evidence is None else dict(evidence.facts),
        "problem": None if evidence is None else evidence.problem,
        "about": None if evidence is None else evidence.about,
        "review": outcome.review,
        "problems": list(outcome.problems),
    }


def own_rows(case: Case) -> Case:
    """The same pair, reading its own rows (no panel read once)."""
    assert case.input_file is not None
    return replace(case, input_file=replace(case.input_file, panel_read=None))


def keys(name: str, *, per_judgement: bool, where: bool, both: bool, group: bool) -> str:
    lines = [f"input_file: {name}", "ledger:", "  labels: {PASS: true, FAIL: false}"]
    if per_judgement:
        lines += ["  rows: per-judgement", "  grader: who", "  label: verdict"]
        lines.append("  panel: [g0, g1, g2]")
    else:
        lines.append("  panel: [g0, g1, g2]")
    if where:
        lines.append("  where: {keep: 'y'}")
    if both:
        lines.append("  overlap: both-judged")
    if group:
        lines.append("  group_by: desk")
    lines.append("  ids: as-text")
    lines.append("expected: {}")
    return "".join(f"    {line}\n" for line in lines)


def written(records: list[dict[str, Any]], suffix: str, fields: list[str]) -> str:
    if suffix == ".csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        return out.getvalue()
    return "".join(json.dumps(record) + "\n" for record in records)


CASE_ID = st.sampled_from(["c1", "c2", "c3", "c4", 5, "5", " "])
LABEL = st.sampled_from(["PASS", "PASS", "FAIL", "FAIL", None, "maybe"])
#: A review limit: none (no review), small, or more than any test's rows.
LIMIT = st.sampled_from([0, 1, 3, None, 1000])
JUDGEMENT = st.tuples(
    CASE_ID, st.sampled_from([*GRADERS, "zz"]), LABEL, st.sampled_from("yyn"), st.sampled_from("uv")
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    judgements=st.lists(JUDGEMENT, min_size=1, max_size=14),
    suffix=st.sampled_from([".jsonl", ".csv"]),
    where=st.booleans(),
    both=st.booleans(),
    group=st.booleans(),
    limits=st.tuples(LIMIT, LIMIT),
)
def test_per_judgement_pairs_answer_as_their_own_rows_in_any_order(
    tmp_path: Path,
    judgements: list[tuple[Any, str, Any, str, str]],
    suffix: str,
    where: bool,
    both: bool,
    group: bool,
    limits: tuple[int | None, int | None],
) -> None:
    records = []
    for case_id, who, label, keep, desk in judgements:
        record: dict[str, Any] = {"id": case_id if suffix == ".jsonl" else str(case_id)}
        record |= {"who": who, "keep": keep, "desk": desk}
        if label is not None:
            record["verdict"] = label
        records.append(record)
    name = f"e{suffix}"
    fields = ["id", "who", "verdict", "keep", "desk"]
    (tmp_path / name).write_text(written(records, suffix, fields), encoding="utf-8")
    reads = PanelReads(limits[0])  # the limit the pass keeps rows for; a run asks for its own
    made = load(
        tmp_path, keys(name, per_judgement=True, where=where, both=both, group=group), reads
    )
    for case in made:
        assert seen(run(case, limits[1])) == seen(run(own_rows(case), limits[1])), case.name


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    rows=st.lists(
        st.tuples(
            CASE_ID, st.tuples(LABEL, LABEL, LABEL), st.sampled_from("yyn"), st.sampled_from("uv")
        ),
        min_size=1,
        max_size=8,
    ),
    suffix=st.sampled_from([".jsonl", ".csv"]),
    where=st.booleans(),
    both=st.booleans(),
    group=st.booleans(),
    limits=st.tuples(LIMIT, LIMIT),
)
def test_per_case_pairs_answer_and_review_as_their_own_rows(
    tmp_path: Path,
    rows: list[tuple[Any, tuple[Any, ...], str, str]],
    suffix: str,
    where: bool,
    both: bool,
    group: bool,
    limits: tuple[int | None, int | None],
) -> None:
    records = []
    for case_id, labels, keep, desk in rows:
        record: dict[str, Any] = {"id": case_id if suffix == ".jsonl" else str(case_id)}
        for grader, label in zip(GRADERS, labels, strict=True):
            if label is not None:
                record[grader] = label
        records.append(record | {"keep": keep, "desk": desk})
    name = f"e{suffix}"
    fields = ["id", *GRADERS, "keep", "desk"]
    (tmp_path / name).write_text(written(records, suffix, fields), encoding="utf-8")
    reads = PanelReads(limits[0])  # the limit the pass keeps rows for; a run asks for its own
    made = load(
        tmp_path, keys(name, per_judgement=False, where=where, both=both, group=group), reads
    )
    for case in made:
        assert seen(run(case, limits[1])) == seen(run(own_rows(case), limits[1])), case.name


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    rows=st.lists(
        st.tuples(
            st.tuples(*[st.sampled_from(["PASS", "FAIL", "PASS", "FAIL", ""])] * 3),
            st.sampled_from("yyyn"),
            st.sampled_from(["u", "v", "a note"]),
        ),
        min_size=1,
        max_size=20,
    ),
    suffix=st.sampled_from([".jsonl", ".csv"]),
    where=st.booleans(),
    both=st.booleans(),
    group=st.booleans(),
    limits=st.tuples(LIMIT, LIMIT),
)
def test_per_case_pairs_of_valid_rows_review_as_their_own_rows(
    tmp_path: Path,
    rows: list[tuple[tuple[str, ...], str, str]],
    suffix: str,
    where: bool,
    both: bool,
    group: bool,
    limits: tuple[int | None, int | None],
) -> None:
    """Rows every pair's ledger takes (text IDs, plain labels, blank ones left out under
    ``overlap``): the reviews kept by the panel's one pass are its own read's."""
    records = []
    for number, (labels, keep, desk) in enumerate(rows):
        record: dict[str, Any] = {"id": f"c{number}", **dict(zip(GRADERS, labels, strict=True))}
        records.append(record | {"keep": keep, "desk": desk})
    name = f"e{suffix}"
    fields = ["id", *GRADERS, "keep", "desk"]
    (tmp_path / name).write_text(written(records, suffix, fields), encoding="utf-8")
    reads = PanelReads(limits[0])
    made = load(
        tmp_path, keys(name, per_judgement=False, where=where, both=both, group=group), reads
    )
    for case in made:
        assert seen(run(case, limits[1])) == seen(run(own_rows(case), limits[1])), case.name


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    cases=st.lists(
        st.lists(
            st.tuples(
                st.sampled_from([*GRADERS, "zz"]),
                st.sampled_from(["PASS", "FAIL"]),
                st.sampled_from("yyyn"),
                st.sampled_from(["u", "v", "a note"]),
            ),
            min_size=1,
            max_size=5,
            unique_by=lambda judgement: judgement[0],
        ),
        min_size=1,
        max_size=12,
    ),
    apart=st.booleans(),
    suffix=st.sampled_from([".jsonl", ".csv"]),
    where=st.booleans(),
    both=st.booleans(),
    group=st.booleans(),
    limits=st.tuples(LIMIT, LIMIT),
)
def test_per_judgement_pairs_of_valid_judgements_review_as_their_own_rows(
    tmp_path: Path,
    cases: list[list[tuple[str, str, str, str]]],
    apart: bool,
    suffix: str,
    where: bool,
    both: bool,
    group: bool,
    limits: tuple[int | None, int | None],
) -> None:
    """Each grader judges a case once at most, each case's judgements together (or, with
    ``apart``, the last case's first judgement first): the reviews kept by the panel's
    one pass are its own read's."""
    records = [  # grouped, every judgement of a case at its first's desk
        {"id": f"c{number}", "who": who, "verdict": verdict, "keep": keep, "desk": desk}
        for number, judgements in enumerate(cases)
        for who, verdict, keep, desk in (
            [(*one[:3], judgements[0][3]) for one in judgements] if group else judgements
        )
    ]
    if apart:
        records.insert(0, records.pop())
    name = f"e{suffix}"
    text = written(records, suffix, ["id", "who", "verdict", "keep", "desk"])
    (tmp_path / name).write_text(text, encoding="utf-8")
    reads = PanelReads(limits[0])
    made = load(
        tmp_path, keys(name, per_judgement=True, where=where, both=both, group=group), reads
    )
    for case in made:
        assert seen(run(case, limits[1])) == seen(run(own_rows(case), limits[1])), case.name


# -- read once ------------------------------------------------------------------------------

#: Three graders and one other on three cases, each case's judgements together.
JUDGEMENTS = [
    ("c1", "g0", "PASS", "y"),
    ("c1", "g1", "PASS", "y"),
    ("c1", "zz", "FAIL", "y"),
    ("c1", "g2", "FAIL", "y"),
    ("c2", "g2", "FAIL", "y"),
    ("c2", "g0", "FAIL", "y"),
    ("c2", "g1", "PASS", "y"),
    ("c3", "g0", "PASS", "y"),
    ("c3", "g1", "PASS", "y"),
    ("c3", "g2", "PASS", "y"),
]


def judgement_file(folder: Path, suffix: str, *, apart: bool = False, where: bool = False) -> str:
    """The judgements as an export: with ``apart`` c3's first judgement comes before
    c2's; with ``where`` a second judgement of c3 by g2 that 'where' leaves out."""
    rows = list(JUDGEMENTS)
    if apart:
        rows.insert(4, rows.pop(7))
    if where:
        rows.insert(9, ("c3", "g2", "FAIL", "n"))
    records = [{"id": c, "who": w, "verdict": v, "keep": k, "desk": "u"} for c, w, v, k in rows]
    name = f"e{suffix}"
    text = written(records, suffix, ["id", "who", "verdict", "keep", "desk"])
    (folder / name).write_text(text, encoding="utf-8")
    return name


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each pass over a ``.csv`` or ``.jsonl`` file's rows, by the format's name."""
    counted: list[str] = []
    for kind in (Csv, Jsonl):
        rows = kind.rows

        def count(self: Any, *args: Any, rows: Any = rows) -> Any:
            counted.append(type(self).__name__)
            return rows(self, *args)

        monkeypatch.setattr(kind, "rows", count)
        monkeypatch.setattr(kind, "label_blocks", lambda self, file, findings: iter((None,)))
    return counted


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
@pytest.mark.parametrize(
    ("where", "both", "group", "apart"),
    [
        (False, False, False, False),
        (True, False, False, False),
        (True, True, False, False),
        (True, False, True, False),
        (True, True, False, True),
    ],
    ids=["plain", "where", "where-both-judged", "where-group_by", "apart-both-judged"],
)
def test_a_per_judgement_panel_reads_its_export_once_for_every_pair(
    tmp_path: Path,
    passes: list[str],
    suffix: str,
    where: bool,
    both: bool,
    group: bool,
    apart: bool,
) -> None:
    name = judgement_file(tmp_path, suffix, apart=apart, where=where)
    made = load(tmp_path, keys(name, per_judgement=True, where=where, both=both, group=group))
    got = [seen(run_case(case, AGREEMENT, path="c.rubric.yaml", source="")) for case in made]
    assert len(passes) == 1, passes  # read once for the three pairs
    assert [one["actual"]["agreement"] for one in got] == [2, 2, 1]
    passes.clear()
    want = [seen(run_case(own_rows(c), AGREEMENT, path="c.rubric.yaml", source="")) for c in made]
    assert got == want
    assert got[0]["facts"]["ignored judgements"] == (
        "4 by graders other than a and b ('g2' 3, 'zz' 1)"
    )


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_per_case_panel_with_where_and_both_judged_reads_its_export_once(
    tmp_path: Path, passes: list[str], suffix: str
) -> None:
    records = [
        {"id": "c1", "g0": "PASS", "g1": "PASS", "g2": "FAIL", "keep": "y", "desk": "u"},
        {"id": "c2", "g0": "FAIL", "g1": "PASS", "g2": "", "keep": "y", "desk": "v"},
        {"id": "c3", "g0": "maybe", "g1": "PASS", "g2": "PASS", "keep": "n", "desk": "u"},
    ]
    fields = ["id", *GRADERS, "keep", "desk"]
    (tmp_path / f"e{suffix}").write_text(written(records, suffix, fields), encoding="utf-8")
    made = load(
        tmp_path, keys(f"e{suffix}", per_judgement=False, where=True, both=True, group=True)
    )
    got = [seen(run_case(case, AGREEMENT, path="c.rubric.yaml", source="")) for case in made]
    assert len(passes) == 1, passes
    assert [one["actual"]["total"] for one in got] == [2, 1, 1]
    assert got[1]["facts"]["judged alone"] == "a 1, b 0 (left out)"
    passes.clear()
    assert got == [
        seen(run_case(own_rows(c), AGREEMENT, path="c.rubric.yaml", source="")) for c in made
    ]


PER_CASE = [
    {"id": "c1", "g0": "PASS", "g1": "FAIL", "g2": "FAIL", "keep": "y", "desk": "u"},
    {"id": "c2", "g0": "FAIL", "g1": "PASS", "g2": "", "keep": "y", "desk": "v"},
    {"id": "c3", "g0": "PASS", "g1": "PASS", "g2": "FAIL", "keep": "n", "desk": "u"},
    {"id": "c4", "g0": "PASS", "g1": "FAIL", "g2": "PASS", "keep": "y", "desk": "w"},
]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
@pytest.mark.parametrize("limit", [0, 1, 3])
@pytest.mark.parametrize("group", [False, True], ids=["", "group_by"])
def test_a_per_case_panel_reviewed_reads_its_export_once_for_every_pair(
    tmp_path: Path, passes: list[str], suffix: str, limit: int, group: bool
) -> None:
    fields = ["id", *GRADERS, "keep", "desk"]
    (tmp_path / f"e{suffix}").write_text(written(PER_CASE, suffix, fields), encoding="utf-8")
    made = load(
        tmp_path,
        keys(f"e{suffix}", per_judgement=False, where=True, both=True, group=group),
        PanelReads(limit),
    )
    got = [seen(run(case, limit)) for case in made]
    assert len(passes) == 1, passes  # the answers and the reviews of the three pairs
    reviews = [one["review"] for one in got]
    assert [len(review["rows"]) + review["more"] for review in reviews] == [3, 1, 1]
    assert (
        reviews[0]["rows"][:1]
        == [
            {
                "id": "c1",
                "a": True,
                "b": False,
                "side": "aOnly",
                "where": ":2" if suffix == ".csv" else ":1",  # after the header
                "fields": {"g2": "FAIL", "keep": "y"} | ({} if group else {"desk": "u"}),
            }
            | ({"group": "u"} if group else {})
        ][:limit]
    )
    passes.clear()
    assert got == [seen(run(own_rows(case), limit)) for case in made]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
@pytest.mark.parametrize("limit", [0, 1, 3])
@pytest.mark.parametrize(("where", "both"), [(False, False), (True, True)])
def test_a_per_judgement_panel_reviewed_reads_its_export_once_for_every_pair(
    tmp_path: Path, passes: list[str], suffix: str, limit: int, where: bool, both: bool
) -> None:
    name = judgement_file(tmp_path, suffix, where=where)
    made = load(
        tmp_path,
        keys(name, per_judgement=True, where=where, both=both, group=False),
        PanelReads(limit),
    )
    got = [seen(run(case, limit)) for case in made]
    assert len(passes) == 1, passes  # the answers and the reviews of the three pairs
    reviews = [one["review"] for one in got]
    assert [len(review["rows"]) + review["more"] for review in reviews] == [1, 1, 2]
    assert (
        reviews[2]["rows"][:1]
        == [
            {
                "id": "c1",
                "a": True,
                "b": False,
                "side": "aOnly",
                "where": ":3" if suffix == ".csv" else ":2",  # g1's, the first of the pair's
                "fields": {"keep": "y", "desk": "u"},
            }
        ][:limit]
    )
    passes.clear()
    assert got == [seen(run(own_rows(case), limit)) for case in made]


def test_what_a_panel_keeps_to_review_is_its_pairs_first_rows_never_the_file(
    tmp_path: Path,
) -> None:
    records = [
        {"id": f"c{n}", "g0": "PASS", "g1": "FAIL" if n % 3 else "PASS", "g2": "PASS"}
        for n in range(5000)
    ]
    (tmp_path / "e.jsonl").write_text(written(records, ".jsonl", []), encoding="utf-8")
    reads = PanelReads(2)
    made = load(
        tmp_path, keys("e.jsonl", per_judgement=False, where=False, both=False, group=False), reads
    )
    run(made[0], 2)
    gc.collect()
    (columns,) = [one for one in gc.get_objects() if type(one) is PanelColumns]
    assert columns.review is not None
    kept = {id(row) for rows in columns.review.values() for ((row, _),) in rows}
    assert len(kept) == 2  # g1's first two disagreements, for both of its pairs; g0-g2 none
    assert [len(rows) for rows in columns.review.values()] == [2, 0, 2]
    reviews = [run(case, 2).review for case in made[1:]]
    assert [review["more"] for review in reviews if review is not None] == [0, 3331]


def test_a_pair_whose_rows_hold_something_wrong_reads_them_and_says_where(
    tmp_path: Path, passes: list[str]
) -> None:
    rows = [*JUDGEMENTS, ("c2", "g1", "FAIL", "y")]  # g1 judged c2 twice
    records = [{"id": c, "who": w, "verdict": v, "keep": k} for c, w, v, k in rows]
    (tmp_path / "e.jsonl").write_text(written(records, ".jsonl", []), encoding="utf-8")
    made = load(tmp_path, keys("e.jsonl", per_judgement=True, where=False, both=False, group=False))
    got = [run_case(case, AGREEMENT, path="c.rubric.yaml", source="") for case in made]
    answer: Any = got[1].actual
    assert answer["agreement"] == 2  # g0 vs g2: read once
    assert got[0].actual == got[2].actual == {"error": "review-case-identity"}
    assert got[0].evidence is not None
    assert got[0].evidence.problem is not None
    assert re.search(r"e\.jsonl:11 rows\[3\]\.id 'c2' repeats rows\[1\]", got[0].evidence.problem)
    assert len(passes) == 1 + 2 * 2  # once, then each pair with g1: its rows, and the repeat's


# -- who holds the columns ------------------------------------------------------------------


def held_columns() -> int:
    return sum(type(one) is PanelColumns for one in gc.get_objects())


def test_the_columns_go_once_every_pair_that_runs_has_taken_them(tmp_path: Path) -> None:
    name = judgement_file(tmp_path, ".jsonl")
    reads = PanelReads()
    made = load(
        tmp_path, keys(name, per_judgement=True, where=False, both=False, group=False), reads
    )
    not_run(made[2])  # deselected
    gc.collect()
    before = held_columns()
    run_case(made[0], AGREEMENT, path="c.rubric.yaml", source="")
    gc.collect()
    assert held_columns() == before + 1  # held for the second pair
    run_case(made[1], AGREEMENT, path="c.rubric.yaml", source="")
    gc.collect()
    assert held_columns() == before  # the third never runs: nothing waits


def test_one_panel_is_held_at_a_time_and_a_changed_file_is_read_again(
    tmp_path: Path, passes: list[str]
) -> None:
    reads = PanelReads()
    name = judgement_file(tmp_path, ".jsonl")
    first = load(
        tmp_path, keys(name, per_judgement=True, where=False, both=False, group=False), reads
    )
    second = load(
        tmp_path, keys(name, per_judgement=True, where=True, both=False, group=False), reads
    )
    run_case(first[0], AGREEMENT, path="c.rubric.yaml", source="")
    run_case(second[0], AGREEMENT, path="c.rubric.yaml", source="")  # the first's let go
    assert len(passes) == 2
    run_case(first[1], AGREEMENT, path="c.rubric.yaml", source="")  # read again
    assert len(passes) == 3
    with (tmp_path / name).open("a", encoding="utf-8") as export:
        for grader in GRADERS:
            export.write(json.dumps({"id": "c9", "who": grader, "verdict": "PASS"}) + "\n")
    answer = run_case(first[2], AGREEMENT, path="c.rubric.yaml", source="").actual
    assert len(passes) == 4  # the file changed since: read anew
    assert answer == {
        "matrix": {"bothPass": 2, "bothFail": 0, "aOnly": 2, "bOnly": 0},
        "agreement": 2,
        "total": 4,
        "disagreements": ["c1", "c2"],
    }


# -- in a run -------------------------------------------------------------------------------

PER_JUDGEMENT_PANEL = """evaluator: agreement
cases:
  - id: week
    input_file: e.jsonl
    ledger:
      rows: per-judgement
      grader: who
      label: verdict
      labels: {PASS: true, FAIL: false}
      panel: [g0, g1, g2]
      where: {keep: 'y'}
      overlap: both-judged
    expected_subset: {total: 3}
"""
#: Whether the run ends with a panel's columns held (a conftest's own count).
HELD_AT_THE_END = """
import gc

from pytest_rubric.inputs.panelheld import PanelColumns


def pytest_sessionfinish(session):
    gc.collect()
    held = sum(type(one) is PanelColumns for one in gc.get_objects())
    print(f"columns held at the end: {held}")
"""


def test_a_deselected_pair_leaves_nothing_held(pytester: pytest.Pytester) -> None:
    judgement_file(pytester.path, ".jsonl", where=True)
    pytester.makefile(".rubric.yaml", panel=PER_JUDGEMENT_PANEL)
    pytester.makeconftest(HELD_AT_THE_END)
    run = pytester.runpytest_subprocess("-p", "no:randomly", "-n", "0", "-s", "-k", "not g2]")
    run.assert_outcomes(passed=1, deselected=2)
    run.stdout.fnmatch_lines(["*columns held at the end: 0"])
    run = pytester.runpytest_subprocess("-p", "no:randomly", "-n", "0", "-s")
    run.assert_outcomes(passed=3)
    run.stdout.fnmatch_lines(["*columns held at the end: 0"])


def test_a_per_judgement_panel_records_the_same_serially_and_on_two_workers(
    pytester: pytest.Pytester,
) -> None:
    judgement_file(pytester.path, ".jsonl", apart=True, where=True)
    pytester.makefile(".rubric.yaml", panel=PER_JUDGEMENT_PANEL)
    serial, spread = serial_and_spread(pytester)
    assert serial == spread
    assert [one["outcome"] for one in serial.values()] == ["matched"] * 3


#: Each pass over a ``.jsonl`` file's rows in the run, counted (a conftest's own).
PASSES_AT_THE_END = """
from pytest_rubric.inputs.formats.jsonl import Jsonl

passes = []
rows = Jsonl.rows


def counted(self, *args):
    passes.append(1)
    return rows(self, *args)


Jsonl.rows = counted


def pytest_sessionfinish(session):
    print(f"passes over the export: {len(passes)}")
"""


@pytest.mark.parametrize("per_judgement", [False, True], ids=["per-case", "per-judgement"])
def test_a_run_with_a_report_reads_a_panels_export_once(
    pytester: pytest.Pytester, per_judgement: bool
) -> None:
    if per_judgement:
        judgement_file(pytester.path, ".jsonl", where=True)
        pytester.makefile(".rubric.yaml", panel=PER_JUDGEMENT_PANEL)
    else:
        rows = [
            ("c1", "PASS", "FAIL", "FAIL"),
            ("c2", "FAIL", "PASS", "PASS"),
            ("c3", "PASS", "PASS", "FAIL"),
        ]
        records = [
            {"id": c, "g0": x, "g1": y, "g2": z, "keep": "y", "desk": "u"} for c, x, y, z in rows
        ]
        (pytester.path / "e.jsonl").write_text(written(records, ".jsonl", []), encoding="utf-8")
        block = keys("e.jsonl", per_judgement=False, where=True, both=True, group=False)
        body = block.replace("expected: {}", "expected_subset: {total: 3}")
        pytester.makefile(".rubric.yaml", panel=f"evaluator: agreement\ncases:\n  - id: x\n{body}")
    pytester.makeconftest(PASSES_AT_THE_END)
    run = pytester.runpytest_subprocess(
        "-p", "no:randomly", "-n", "0", "-s", "--rubric-report=r.json", "--rubric-review-rows=1"
    )
    run.assert_outcomes(passed=3)
    run.stdout.fnmatch_lines(["*passes over the export: 1"])
    report = json.loads((pytester.path / "r.json").read_text(encoding="utf-8"))
    assert [len(one["review"]["rows"]) for one in report["cases"]] == [1, 1, 1]


@pytest.mark.parametrize("apart", [False, True], ids=["together", "apart"])
def test_a_panel_of_more_rows_than_a_block_answers_as_its_rows(
    tmp_path: Path, passes: list[str], apart: bool
) -> None:
    cases = [f"c{number:05d}" for number in range(70_000)]  # more than one block
    judgements = [(case_id, grader) for case_id in cases for grader in GRADERS]
    if apart:  # each grader's judgements in a run of its own, the last in reverse
        judgements = [(c, g) for g in GRADERS for c in (cases[::-1] if g == "g2" else cases)]
    records = [
        {"id": c, "who": g, "verdict": "PASS" if sum(map(ord, c + g)) % 7 else "FAIL"}
        for c, g in judgements
    ]
    (tmp_path / "e.jsonl").write_text(written(records, ".jsonl", []), encoding="utf-8")
    made = load(tmp_path, keys("e.jsonl", per_judgement=True, where=False, both=False, group=False))
    got = [seen(run_case(case, AGREEMENT, path="c.rubric.yaml", source="")) for case in made]
    assert len(passes) == 1
    assert [one["actual"]["total"] for one in got] == [70_000] * 3
    want = [seen(run_case(own_rows(c), AGREEMENT, path="c.rubric.yaml", source="")) for c in made]
    assert got == want
