"""Panels, drawn (issue 47): for any panel export, in every format, one row per case or
one per judgement, in any order of rows, each pair's answer, evidence and review are
those of a two-grader ledger of the same rows under the same rules; with ``overlap:
both-judged``, those of that ledger over the cases both judged; a panel of files answers
as the join of each pair's two files; and a run under ``-n 2`` records what a serial
run records."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import tempfile
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.running.panelcases import panel_cases
from pytest_rubric.running.runner import run_case

SUFFIXES = [".csv", ".csv.gz", ".jsonl", ".jsonl.gz", ".parquet", ".json"]
# None: the grader did not judge the case (no key, a null, an empty cell); "maybe" is
# outside the labels.
LABEL = st.sampled_from(["PASS", "FAIL", None, "maybe"])
CASE_ID = st.sampled_from(["c1", "c2", "c3", "c4", "c5", "c6", " ", ""])
Row = dict[str, Any]


def written(records: list[Row], columns: list[str], suffix: str) -> bytes:
    """``records`` as ``suffix`` holds them; a ``None`` is no key in JSON, an empty cell in
    CSV, a null in Parquet."""
    if suffix == ".parquet":
        schema = pa.schema([(name, pa.string()) for name in columns])
        table = pa.Table.from_pylist(records, schema=schema)
        out = io.BytesIO()
        pq.write_table(table, out)
        return out.getvalue()
    present = [{k: v for k, v in record.items() if v is not None} for record in records]
    if suffix.startswith(".csv"):
        text = io.StringIO()
        writer = csv.DictWriter(text, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(present)
        data = text.getvalue()
    elif suffix == ".json":
        data = "[\n" + ",\n".join(json.dumps(record) for record in present) + "\n]\n"
    else:
        data = "".join(json.dumps(record) + "\n" for record in present)
    encoded = data.encode("utf-8")
    return gzip.compress(encoded, mtime=0) if suffix.endswith(".gz") else encoded


def cases_of(folder: Path, body: str) -> list[Case]:
    """The cases of a case file whose one case has the keys ``body`` after ``id: x``: each
    pair its own case when ``body`` holds a panel."""
    path = folder / "c.rubric.yaml"
    path.write_text(f"evaluator: agreement\ncases:\n  - id: x\n{body}", encoding="utf-8")
    (case,) = load_case_file(path, "c.rubric.yaml", root=folder).cases
    return list(panel_cases(case, "c.rubric.yaml", InputFiles(path, "c.rubric.yaml", folder)))


def seen(case: Case, review_at: str | None) -> dict[str, Any]:
    """What people and tools see of a case's outcome (its case file's places aside: a
    panel's graders stand elsewhere than a and b); reviewed when ``review_at`` is given."""
    outcome = run_case(
        case,
        AGREEMENT,
        path="c.rubric.yaml",
        source="",
        review_limit=None if review_at is None else 1000,
        review_at=review_at or "",
    )
    evidence = outcome.evidence
    review: Any = json.loads(json.dumps(outcome.review))
    for row in [] if review is None else review["rows"]:
        # 'keep' is the column a reference's 'where' reads, so a Parquet reference (whose
        # rows carry only the columns read) has it as a field where the panel has none.
        row["fields"] = {k: v for k, v in row["fields"].items() if k.split(".")[-1] != "keep"}
    return {
        "outcome": outcome.outcome,
        "actual": outcome.actual,
        "facts": None if evidence is None else dict(evidence.facts),
        "problem": None if evidence is None else evidence.problem,
        "review": review,
        "problems": [re.sub(r"c\.rubric\.yaml:\d+:\d+", "HERE", p) for p in outcome.problems],
    }


def ledger_body(name: str, per_judgement: bool, graders: str, extra: str = "") -> str:
    """A case's keys reading ``name`` (the columns :func:`export` writes), its graders as
    the lines ``graders`` writes them, then the ledger keys ``extra``."""
    lines = [f"input_file: {name}", "ledger:", "  labels: {PASS: true, FAIL: false}"]
    if per_judgement:
        lines += ["  rows: per-judgement", "  grader: who", "  label: verdict"]
    lines += [f"  {line}" for line in (graders + "\n" + extra).splitlines() if line]
    lines.append("expected: {}")
    return "".join(f"    {line}\n" for line in lines)


def export(
    rows: list[tuple[str, tuple[str | None, ...]]],
    per_judgement: bool,
    order: list[int],
    keep: Callable[[str, str], bool],
) -> tuple[list[Row], list[str]]:
    """The export's records and columns: one row per case (a column per grader, 'y' in
    the column ``keep``), or one per judgement in ``order`` (a permutation of at least
    as many numbers as judgements), 'y' in ``keep`` where ``keep(case, grader)``."""
    graders = [f"g{n}" for n in range(len(rows[0][1]))]
    if not per_judgement:
        records = [
            {"id": case_id, **dict(zip(graders, labels, strict=True)), "keep": "y"}
            for case_id, labels in rows
        ]
        return records, ["id", *graders, "keep"]
    judgements = [
        {"id": case_id, "who": grader, "verdict": label}
        for case_id, labels in rows
        for grader, label in zip(graders, labels, strict=True)
        if label is not None
    ]
    ordered = [judgements[n] for n in order if n < len(judgements)]
    for judgement in ordered:
        judgement["keep"] = "y" if keep(judgement["id"], judgement["who"]) else "n"
    return ordered, ["id", "who", "verdict", "keep"]


PANEL_CASES = st.lists(
    st.tuples(CASE_ID, st.tuples(LABEL, LABEL, LABEL)), min_size=1, max_size=7
) | st.lists(st.tuples(CASE_ID, st.tuples(LABEL, LABEL, LABEL, LABEL)), min_size=1, max_size=5)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    rows=PANEL_CASES,
    suffix=st.sampled_from(SUFFIXES),
    per_judgement=st.booleans(),
    both=st.booleans(),
    order=st.permutations(range(28)),
)
def test_each_pair_is_the_two_grader_ledger_of_its_rows_in_every_format(
    rows: list[tuple[str, tuple[str | None, ...]]],
    suffix: str,
    per_judgement: bool,
    both: bool,
    order: list[int],
) -> None:
    graders = [f"g{n}" for n in range(len(rows[0][1]))]
    name = f"e{suffix}"
    with tempfile.TemporaryDirectory() as panel_dir, tempfile.TemporaryDirectory() as ref_dir:
        folder, ref_folder = Path(panel_dir), Path(ref_dir)
        records, columns = export(rows, per_judgement, order, lambda case, who: True)
        (folder / name).write_bytes(written(records, columns, suffix))
        overlap = "overlap: both-judged" if both else ""
        made = cases_of(
            folder, ledger_body(name, per_judgement, f"panel: [{', '.join(graders)}]", overlap)
        )
        names = [f"x[{a} vs {b}]" for a, b in combinations(graders, 2)]
        assert [case.name for case in made] == names
        for case, (x, y) in zip(made, combinations(range(len(graders)), 2), strict=True):
            a, b = graders[x], graders[y]
            pair = f"a: {a}\nb: {b}\ngraders: {{a: {a}, b: {b}}}"
            kept, alone = records, None
            if both:
                # The reference keeps, through 'where', the rows of the cases both judged.
                found, alone = both_judged(rows, per_judgement, order, x, y)
                if found is None:
                    # The pair judged no case in common (an export without judgements
                    # too): a problem of its item.
                    got = seen(case, name)
                    assert got["actual"] is None, got
                    (problem,) = got["problems"]
                    # (With no judgement by either, the pairing's own words say so.)
                    assert (
                        "judged no case in common" in problem or "no judgement is by a" in problem
                    )
                    continue
                kept = found
            (ref_folder / name).write_bytes(written(kept, columns, suffix))
            where = "where: {keep: 'y'}" if both else ""
            reference = ledger_body(name, per_judgement, pair, where)
            (ref,) = cases_of(ref_folder, reference)
            for review_at in (None, name):
                got, want = seen(case, review_at), seen(ref, review_at)
                if alone is not None and want["facts"] is not None:
                    # What 'where' left out is what the pair judged alone, said so (unless
                    # an identity problem stopped the reading where it was found).
                    want["facts"].pop("left out", None)
                    if want["actual"] != {"error": "review-case-identity"}:
                        want["facts"]["judged alone"] = f"a {alone[0]}, b {alone[1]} (left out)"
                assert got == want, (a, b, review_at)


def both_judged(
    rows: list[tuple[str, tuple[str | None, ...]]],
    per_judgement: bool,
    order: list[int],
    x: int,
    y: int,
) -> tuple[list[Row] | None, tuple[int, int]]:
    """The same export with 'y' in ``keep`` where a row is kept over the cases graders
    ``x`` and ``y`` both judged (``None`` where they judged none in common), and how
    many cases each judged alone."""
    a, b = f"g{x}", f"g{y}"
    if per_judgement:
        by = {
            grader: {case for case, labels in rows if labels[n] is not None}
            for grader, n in ((a, x), (b, y))
        }
        common = by[a] & by[b]
        records, _ = export(
            rows, True, order, lambda case, who: who not in (a, b) or case in common
        )
        alone = (len(by[a] - common), len(by[b] - common))
        return (records if common else None), alone
    records, _ = export(rows, False, order, lambda case, who: True)
    for record, (_, labels) in zip(records, rows, strict=True):
        record["keep"] = "y" if labels[x] is not None and labels[y] is not None else "n"
    alone = (
        sum(1 for _, labels in rows if labels[x] is not None and labels[y] is None),
        sum(1 for _, labels in rows if labels[y] is not None and labels[x] is None),
    )
    return (records if any(r["keep"] == "y" for r in records) else None), alone


# -- a panel of files: each pair the join of its two files --------------------------------

SIDE_ROWS = st.lists(st.tuples(CASE_ID, LABEL), min_size=0, max_size=6)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(sides=st.lists(st.tuples(SIDE_ROWS, st.sampled_from(SUFFIXES)), min_size=3, max_size=4))
def test_each_pair_of_a_panel_of_files_is_the_join_of_its_two_files(
    sides: list[tuple[list[tuple[str, str | None]], str]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        names = []
        for n, (side_rows, suffix) in enumerate(sides):
            name = f"g{n}{suffix}"
            records = [{"id": case_id, "verdict": label} for case_id, label in side_rows]
            (folder / name).write_bytes(written(records, ["id", "verdict"], suffix))
            names.append(name)
        side = "{input_file: %s, id: id, label: verdict}"
        panel = "".join(f"        - {side % name}\n" for name in names)
        made = cases_of(
            folder,
            f"    ledger:\n      labels: {{PASS: true, FAIL: false}}\n      panel:\n{panel}"
            "    expected: {}\n",
        )
        assert [case.name for case in made] == [f"x[{a} vs {b}]" for a, b in combinations(names, 2)]
        for case, (a, b) in zip(made, combinations(names, 2), strict=True):
            (ref,) = cases_of(
                folder,
                "    ledger:\n      labels: {PASS: true, FAIL: false}\n"
                f"      a: {side % a}\n      b: {side % b}\n"
                f"      graders: {{a: {a}, b: {b}}}\n    expected: {{}}\n",
            )
            for review_at in (None, a):
                assert seen(case, review_at) == seen(ref, review_at), (a, b, review_at)


# -- serial and two workers ---------------------------------------------------------------


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    rows=st.lists(st.tuples(CASE_ID, st.tuples(LABEL, LABEL, LABEL)), min_size=1, max_size=6),
    suffix=st.sampled_from(SUFFIXES),
)
def test_a_drawn_panel_records_the_same_serially_and_under_two_workers(
    pytester: pytest.Pytester, rows: list[tuple[str, tuple[str | None, ...]]], suffix: str
) -> None:
    per_case, columns = export(rows, False, [], lambda case, who: True)
    per_judgement, judgement_columns = export(rows, True, [], lambda case, who: True)
    (pytester.path / f"rows{suffix}").write_bytes(written(per_case, columns, suffix))
    (pytester.path / f"judged{suffix}").write_bytes(
        written(per_judgement, judgement_columns, suffix)
    )
    pytester.makefile(
        ".rubric.yaml",
        panel=(
            "evaluator: agreement\ncases:\n"
            f"  - id: per-case\n{ledger_body(f'rows{suffix}', False, 'panel: [g0, g1, g2]')}"
            f"  - id: per-judgement\n"
            + ledger_body(f"judged{suffix}", True, "panel: [g0, g1, g2]", "overlap: both-judged")
        ),
    )

    def records(*args: str) -> dict[str, Any]:
        pytester.runpytest(*args, "--rubric-report=report.json")
        data = json.loads((pytester.path / "report.json").read_text(encoding="utf-8"))
        keep = ("outcome", "actual", "evidence", "review", "panel")
        return {r["nodeid"]: {k: r.get(k) for k in keep} for r in data["cases"]}

    serial = records("-p", "no:xdist")
    assert len(serial) == 6
    assert records("-n", "2") == serial
