"""Panels (issue 47): each pair of a ``panel:`` answers exactly as a two-grader ledger of
the same rows under the same rules; ``overlap: both-judged`` as that ledger over the
cases both judged; every pair a pytest item of its own."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _runs import serial_and_spread
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pytest_rubric
from pytest_rubric.casefiles.cases import Case
from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.running.outcome import CaseOutcome
from pytest_rubric.running.panelcases import panel_cases
from pytest_rubric.running.runner import run_case

GRADERS = ("g0", "g1", "g2")
SHIPPED = Path(pytest_rubric.__file__).parent


def load(folder: Path, body: str) -> list[Case]:
    """The cases of a case file holding one case whose keys after ``id: x`` are ``body``,
    a panel's pairs each a case."""
    path = folder / "c.rubric.yaml"
    path.write_text(f"evaluator: agreement\ncases:\n  - id: x\n{body}", encoding="utf-8")
    (case,) = load_case_file(path, "c.rubric.yaml", root=folder).cases
    return list(panel_cases(case, "c.rubric.yaml", InputFiles(path, "c.rubric.yaml", folder)))


def run(case: Case, review_at: str = "") -> CaseOutcome:
    return run_case(
        case, AGREEMENT, path="c.rubric.yaml", source="", review_limit=1000, review_at=review_at
    )


def seen(outcome: CaseOutcome) -> dict[str, Any]:
    """What people and tools see of an outcome: the answer, the evidence, the review (a
    place in the case file aside: a panel's graders are written elsewhere than a and b)."""
    evidence = outcome.evidence
    return {
        "actual": outcome.actual,
        "facts": None if evidence is None else dict(evidence.facts),
        "problem": None if evidence is None else evidence.problem,
        "review": outcome.review,
        "problems": [re.sub(r"c\.rubric\.yaml:\d+:\d+", "HERE", p) for p in outcome.problems],
    }


# -- exports of any shape ---------------------------------------------------------------

LABEL = st.sampled_from(["PASS", "FAIL", None, "maybe"])
CASES = st.lists(
    st.tuples(
        st.sampled_from(["c1", "c2", "c3", "c4", "c5", " ", ""]), st.tuples(LABEL, LABEL, LABEL)
    ),
    min_size=1,
    max_size=8,
)


def judged(label: object) -> bool:
    return label is not None


def per_row_file(rows: list[tuple[str, tuple[Any, ...]]], suffix: str, keep: set[int]) -> str:
    """One row per case, a column per grader (a missing label: no key, an empty cell);
    ``keep``: the rows a reference's ``where: {keep: 'y'}`` keeps (the rest 'n')."""
    records = []
    for index, (case_id, labels) in enumerate(rows):
        record: dict[str, Any] = {"id": case_id}
        for grader, label in zip(GRADERS, labels, strict=True):
            if label is not None:
                record[grader] = label
        record["keep"] = "y" if index in keep else "n"
        records.append(record)
    if suffix == ".csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, ["id", *GRADERS, "keep"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        return out.getvalue()
    if suffix == ".json":
        return "[\n" + ",\n".join(json.dumps(record) for record in records) + "\n]\n"
    return "".join(json.dumps(record) + "\n" for record in records)


def per_judgement_file(
    rows: list[tuple[str, tuple[Any, ...]]], suffix: str, keep: set[int]
) -> tuple[str, list[tuple[str, str]]]:
    """One row per judgement (a grader's missing label: no judgement), and the (case,
    grader) of each judgement written, in order."""
    records, written = [], []
    for case_id, labels in rows:
        for grader, label in zip(GRADERS, labels, strict=True):
            if label is not None:
                records.append({"id": case_id, "who": grader, "verdict": label})
                written.append((case_id, grader))
    for index, record in enumerate(records):
        record["keep"] = "y" if index in keep else "n"
    if suffix == ".csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, ["id", "who", "verdict", "keep"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        return out.getvalue(), written
    return "".join(json.dumps(record) + "\n" for record in records), written


def body(
    name: str, per_judgement: bool, graders: str, *, both: bool = False, where: bool = False
) -> str:
    """A case's keys reading ``name``, its graders as ``graders`` writes them."""
    lines = [f"input_file: {name}", "ledger:", "  labels: {PASS: true, FAIL: false}"]
    if per_judgement:
        lines += ["  rows: per-judgement", "  grader: who", "  label: verdict"]
    lines.append(f"  {graders}")
    if both:
        lines.append("  overlap: both-judged")
    if where:
        lines.append("  where: {keep: 'y'}")
    lines.append("expected: {}")
    return "".join(f"    {line}\n" for line in lines)


def pairs() -> list[tuple[int, int]]:
    return [(0, 1), (0, 2), (1, 2)]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    rows=CASES,
    suffix=st.sampled_from([".jsonl", ".csv", ".json"]),
    per_judgement=st.booleans(),
    both=st.booleans(),
    order=st.randoms(use_true_random=False),
)
def test_each_pair_answers_as_a_two_grader_ledger_of_its_rows(
    tmp_path: Path,
    rows: list[tuple[str, tuple[Any, ...]]],
    suffix: str,
    per_judgement: bool,
    both: bool,
    order: Any,
) -> None:
    order.shuffle(rows)
    assume(any(label is not None for _, labels in rows for label in labels))  # an export
    if per_judgement and suffix == ".json":
        suffix = ".jsonl"
    name = f"e{suffix}"
    if per_judgement:
        text, _ = per_judgement_file(rows, suffix, set(range(10**4)))
    else:
        text = per_row_file(rows, suffix, set(range(len(rows))))
    (tmp_path / name).write_text(text, encoding="utf-8", newline="")
    made = load(tmp_path, body(name, per_judgement, "panel: [g0, g1, g2]", both=both))
    assert [case.name for case in made] == ["x[g0 vs g1]", "x[g0 vs g2]", "x[g1 vs g2]"]
    for case, (x, y) in zip(made, pairs(), strict=True):
        a, b = GRADERS[x], GRADERS[y]
        got = seen(run(case))
        if both:
            # The reference reads the same file (rows at the same places) through 'where',
            # keeping the cases both judged.
            if per_judgement:
                by = {
                    g: {
                        c
                        for c, labels in rows
                        for gg, lab in zip(GRADERS, labels, strict=True)
                        if gg == g and judged(lab)
                    }
                    for g in (a, b)
                }
                common = by[a] & by[b]
                text, written = per_judgement_file(rows, suffix, set())
                keep = {i for i, (c, g) in enumerate(written) if g not in (a, b) or c in common}
                text, _ = per_judgement_file(rows, suffix, keep)
                alone = (len(by[a] - common), len(by[b] - common))
            else:
                keep = {
                    i
                    for i, (_, labels) in enumerate(rows)
                    if judged(labels[x]) and judged(labels[y])
                }
                text = per_row_file(rows, suffix, keep)
                alone = (
                    sum(1 for _, labels in rows if judged(labels[x]) and not judged(labels[y])),
                    sum(1 for _, labels in rows if judged(labels[y]) and not judged(labels[x])),
                )
            ref_name = f"r{suffix}"
            (tmp_path / ref_name).write_text(text, encoding="utf-8", newline="")
            if not keep or (per_judgement and not common):
                assert got["actual"] is None, got
                (problem,) = got["problems"]
                # Neither of the pair judged anything: the pairing's own words say so.
                assert "judged no case in common" in problem or "no judgement is by a" in problem
                continue
            where = True
        else:
            ref_name, where, alone = name, False, None
        graders = f"a: {a}\n      b: {b}\n      graders: {{a: {a}, b: {b}}}"
        (ref,) = load(tmp_path, body(ref_name, per_judgement, graders, where=where))
        want = seen(run(ref))
        if want["review"] is not None and got["review"] is not None:
            for row in want["review"]["rows"]:
                row["where"] = row["where"].replace(ref_name, name)
        if want["problem"] is not None:
            want["problem"] = want["problem"].replace(ref_name, name)
        if both and want["facts"] is not None:
            want["facts"].pop("left out", None)
            assert alone is not None
            if want["problem"] is None or got["facts"].get("judged alone"):
                want["facts"]["judged alone"] = f"a {alone[0]}, b {alone[1]} (left out)"
        assert got == want, (a, b)


# -- pair items as pytest sees them ---------------------------------------------------------

EXPORT = "id,judge,editor,lead\nc1,PASS,PASS,FAIL\nc2,FAIL,FAIL,FAIL\nc3,PASS,FAIL,PASS\n"
PANEL = """evaluator: agreement
cases:
  - id: week
    input_file: export.csv
    ledger:
      panel: [judge, editor, lead]
      labels: {PASS: true, FAIL: false}
      graders: [Judge, Editor, Lead]
%s"""
PINNED = """    expected_pairs:
      Judge vs Editor: {matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}, agreement: 2, total: 3, disagreements: [c3]}
      Judge vs Lead: {matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}, agreement: 2, total: 3, disagreements: [c1]}
      Editor vs Lead: {matrix: {bothPass: 0, bothFail: 1, aOnly: 1, bOnly: 0}, agreement: 1, total: 3, disagreements: [c1, c3]}
"""


def panel_project(pytester: pytest.Pytester, expectation: str = PINNED) -> None:
    pytester.makefile(".rubric.yaml", panel=PANEL % expectation)
    (pytester.path / "export.csv").write_text(EXPORT, encoding="utf-8")


def test_each_pair_is_an_item_in_panel_order(pytester: pytest.Pytester) -> None:
    panel_project(pytester)
    result = pytester.runpytest("--collect-only", "-q", "-p", "no:randomly")  # its order
    result.stdout.fnmatch_lines(
        [
            "panel.rubric.yaml::week[[]Judge vs Editor[]]",
            "panel.rubric.yaml::week[[]Judge vs Lead[]]",
            "panel.rubric.yaml::week[[]Editor vs Lead[]]",
        ]
    )
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=2, failed=1)


def test_pairs_are_selected_and_rerun_as_any_case(pytester: pytest.Pytester) -> None:
    panel_project(pytester)
    pytester.runpytest("-k", "Lead and not Editor").assert_outcomes(passed=1)
    pytester.runpytest("panel.rubric.yaml::week[Editor vs Lead]").assert_outcomes(failed=1)
    pytester.runpytest(
        "--deselect", "panel.rubric.yaml::week[Editor vs Lead]", "-p", "no:randomly"
    ).assert_outcomes(passed=2, deselected=1)
    pytester.runpytest()
    last = pytester.runpytest("--lf", "-v", "-p", "no:randomly")
    last.assert_outcomes(failed=1)
    last.stdout.fnmatch_lines(["*::week[[]Editor vs Lead[]] FAILED*"])


def test_serial_and_two_workers_record_the_same(pytester: pytest.Pytester) -> None:
    panel_project(pytester)
    serial, spread = serial_and_spread(pytester)
    assert serial == spread
    assert len(serial) == 3


def test_expected_subset_holds_for_every_pair(pytester: pytest.Pytester) -> None:
    panel_project(pytester, "    expected_subset: {total: 3}\n")
    pytester.runpytest().assert_outcomes(passed=3)


def test_rubric_check_names_a_pair_the_panel_lacks_and_a_wrong_answer(
    pytester: pytest.Pytester,
) -> None:
    wrong = PINNED.replace("Judge vs Lead", "Judge vs Led").replace(
        "total: 3, disagreements: [c1, c3]", "total: '3', disagreements: [c1, c3]"
    )
    panel_project(pytester, wrong)
    result = pytester.runpytest("--rubric-check")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "*panel.rubric.yaml:11:*'expected_pairs' names 'Judge vs Led', which is no pair of the panel; did you mean 'Judge vs Lead'?*",
        ]
    )
    panel_project(
        pytester,
        PINNED.replace("total: 3, disagreements: [c1, c3]", "total: '3', disagreements: [c1, c3]"),
    )
    result = pytester.runpytest("--rubric-check")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        ["panel.rubric.yaml:12:*case 'week': expected_pairs.Editor vs Lead.total is*"]
    )


def test_a_pair_expected_pairs_leaves_out_fails_for_want_of_an_answer(
    pytester: pytest.Pytester,
) -> None:
    lines = PINNED.splitlines(keepends=True)
    panel_project(pytester, "".join(lines[:3]))
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*'expected_pairs' has no answer for the pair 'Editor vs Lead'*"])


def test_the_block_refuses_what_a_panel_cannot_be(tmp_path: Path) -> None:
    (tmp_path / "e.csv").write_text(EXPORT, encoding="utf-8")
    for ledger, words in (
        ("panel: [judge]", "'panel' must be a list of two graders or more"),
        ("panel: [judge, judge]", "'panel[0]' and 'panel[1]' name the same column"),
        ("panel: [judge, editor]\n      a: judge", "'panel' names every grader, so 'a'"),
        ("panel: [judge, editor]\n      overlap: some", "ledger 'overlap' is \"some\""),
        ("a: judge\n      b: editor\n      overlap: both-judged", "this ledger has no 'panel'"),
        ("panel: [judge, editor]\n      graders: [J]", "'graders' is a list of 2 names"),
    ):
        (tmp_path / "c.rubric.yaml").write_text(
            f"evaluator: agreement\ncases:\n  - id: x\n    input_file: e.csv\n"
            f"    ledger:\n      {ledger}\n    expected: {{}}\n",
            encoding="utf-8",
        )
        (case,) = load_case_file(tmp_path / "c.rubric.yaml", "c.rubric.yaml", root=tmp_path).cases
        assert any(words in str(problem) for problem in case.problems), (ledger, case.problems)


def test_a_join_panel_answers_as_the_join_of_each_pair(tmp_path: Path) -> None:
    for name, labels in (("a", "PASS,FAIL,PASS"), ("b", "PASS,PASS,FAIL"), ("c", "FAIL,FAIL,PASS")):
        rows = "".join(f"c{n},{label}\n" for n, label in enumerate(labels.split(",")))
        (tmp_path / f"{name}.csv").write_text("id,verdict\n" + rows, encoding="utf-8")
    side = "{input_file: %s.csv, id: id, label: verdict}"
    made = load(
        tmp_path,
        "    ledger:\n      labels: {PASS: true, FAIL: false}\n      panel:\n"
        + "".join(f"        - {side % name}\n" for name in "abc")
        + "    expected: {}\n",
    )
    assert [case.name for case in made] == [
        "x[a.csv vs b.csv]",
        "x[a.csv vs c.csv]",
        "x[b.csv vs c.csv]",
    ]
    for case, (x, y) in zip(made, pairs(), strict=True):
        a, b = "abc"[x], "abc"[y]
        (ref,) = load(
            tmp_path,
            "    ledger:\n      labels: {PASS: true, FAIL: false}\n"
            f"      a: {side % a}\n      b: {side % b}\n"
            f"      graders: {{a: {a}.csv, b: {b}.csv}}\n    expected: {{}}\n",
        )
        assert seen(run(case)) == seen(run(ref))


def test_the_export_is_read_once_for_every_pair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_rubric.inputs.formats.csvfile import Csv

    (tmp_path / "export.csv").write_text(EXPORT, encoding="utf-8")
    made = load(
        tmp_path,
        "    input_file: export.csv\n    ledger:\n      panel: [judge, editor, lead]\n"
        "      labels: {PASS: true, FAIL: false}\n    expected: {}\n",
    )
    reads: list[str] = []
    rows = Csv.rows

    def counted(self: Csv, *args: Any) -> Any:
        reads.append("rows")
        return rows(self, *args)

    monkeypatch.setattr(Csv, "rows", counted)
    answers: list[Any] = [
        run_case(case, AGREEMENT, path="c.rubric.yaml", source="").actual for case in made
    ]
    assert reads == ["rows"]
    assert [answer["agreement"] for answer in answers] == [2, 2, 1]
    # A pair whose labels are not all plain reads its own rows, which say what is wrong.
    (tmp_path / "export.csv").write_text(EXPORT + "c4,PASS,PASS,\n", encoding="utf-8")
    made = load(
        tmp_path,
        "    input_file: export.csv\n    ledger:\n      panel: [judge, editor, lead]\n"
        "      labels: {PASS: true, FAIL: false}\n    expected: {}\n",
    )
    reads.clear()
    answers = [run_case(case, AGREEMENT, path="c.rubric.yaml", source="").actual for case in made]
    assert answers[0]["total"] == 4
    assert answers[1] == answers[2] == {"error": "review-label"}
    assert len(reads) == 3  # once for all, then once for each pair that is not plain


def test_the_summary_tables_a_panel_and_the_report_links_its_pairs(
    pytester: pytest.Pytester,
) -> None:
    panel_project(pytester)
    result = pytester.runpytest("-p", "no:randomly", "--rubric-report=report.json")
    result.stdout.fnmatch_lines(
        [
            "  panel week (panel.rubric.yaml): 3 pairs",
            "    Judge vs Editor        2/3",
            "    Judge vs Lead          2/3",
            "    Editor vs Lead         1/3  [[]mismatched[]]",
        ]
    )
    data = json.loads((pytester.path / "report.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SHIPPED.joinpath("report.schema.json").read_text()))
    pairs = ["Judge vs Editor", "Judge vs Lead", "Editor vs Lead"]
    linked = {record["panel"]["pair"]: record["panel"] for record in data["cases"]}
    assert linked == {
        pair: {
            "case": "week",
            "pair": pair,
            "pairs": pairs,
            "graders": ["Judge", "Editor", "Lead"],
            "agreement": agreed,
            "total": 3,
        }
        for pair, agreed in zip(pairs, (2, 2, 1), strict=True)
    }


def test_a_panel_case_file_is_valid_under_the_shipped_schema() -> None:
    import yaml

    schema = json.loads(SHIPPED.joinpath("case-file.schema.json").read_text(encoding="utf-8"))
    for expectation in (PINNED, "    expected_subset: {total: 3}\n"):
        jsonschema.validate(yaml.safe_load(PANEL % expectation), schema)
    both = yaml.safe_load(PANEL % PINNED)
    both["cases"][0]["expected"] = {}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(both, schema)


def test_the_review_page_grids_a_panel_each_cell_leading_to_its_pair(
    pytester: pytest.Pytester,
) -> None:
    from pytest_rubric.reports.htmlpage import review_page
    from pytest_rubric.reports.pagedata import page_data

    panel_project(pytester)
    pytester.runpytest("--rubric-report=report.json", "--rubric-html=review.html")
    report = json.loads((pytester.path / "report.json").read_text(encoding="utf-8"))
    (panel,) = page_data(report)["panels"]
    assert panel["graders"] == ["Judge", "Editor", "Lead"]
    ledgers = page_data(report)["ledgers"]
    for name, agreed in (("Judge vs Editor", 2), ("Judge vs Lead", 2), ("Editor vs Lead", 1)):
        pair = panel["pairs"][name]
        assert (pair["agreement"], pair["total"]) == (agreed, 3)
        assert ledgers[pair["ledger"]]["case"] == f"week[{name}]"  # the cell leads to its rows
    assert "function panelSection" in review_page(report)
    assert "panelSection" in (pytester.path / "review.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "text"),
    [("e.csv", "id,g0,g1,g2\n"), ("e.jsonl", ""), ("e.json", "[]")],
    ids=["csv-header-only", "jsonl-empty", "json-empty-list"],
)
def test_a_both_judged_pair_of_an_export_without_rows_is_a_problem_never_an_empty_ledger(
    tmp_path: Path, name: str, text: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    body = (
        f"    input_file: {name}\n    ledger:\n      id: id\n      panel: [g0, g1, g2]\n"
        "      overlap: both-judged\n    expected_subset: {total: 0}\n"
    )
    pairs = load(tmp_path, body)
    assert len(pairs) == 3
    for pair in pairs:
        outcome = run(pair)
        assert outcome.actual is None
        (problem,) = outcome.problems
        assert "judged no case in common (g0 judged 0 alone" in problem or (
            "judged no case in common (g1 judged 0 alone" in problem
        )
