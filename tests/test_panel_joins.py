"""Join panels (issue 47): a panel whose graders are the files of a join, one side each.
Each pair answers exactly as the two-grader join of the same two files (its evidence,
review and problems too), ``overlap: both-judged`` as that join over the cases both
judged; and each side file is read once for every pair of the panel."""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest
from _runs import serial_and_spread
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_panels import load, pairs, run, seen

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.inputs.panelheld import PanelReads
from pytest_rubric.running.outcome import CaseOutcome
from pytest_rubric.running.panelcases import panel_cases
from pytest_rubric.running.runner import run_case

SIDES = 3
PAIR_KEYS = tuple(f"keep{x}{y}" for x, y in pairs())
LABEL = st.sampled_from(["PASS", "FAIL", None, "maybe"])
ROWS = st.lists(
    st.tuples(st.sampled_from(["c1", "c2", "c3", "c4", " ", ""]), LABEL), min_size=1, max_size=6
)


def judged(label: object) -> bool:
    return label is not None


def side_text(rows: list[tuple[str, Any]], suffix: str, keeps: dict[str, set[int]]) -> bytes:
    """A side's file: a row a case (a missing label: no key, an empty cell), and a column
    for each pair saying whether that pair's reference keeps the row ('y') or not."""
    records = []
    for index, (case_id, label) in enumerate(rows):
        record: dict[str, Any] = {"id": case_id}
        if label is not None:
            record["verdict"] = label
        for key in PAIR_KEYS if keeps else ():  # else plain lines: ID and label only
            record[key] = "y" if index in keeps.get(key, set()) else "n"
        records.append(record)
    if suffix == ".csv":
        out = io.StringIO()
        names = ["id", "verdict", *(PAIR_KEYS if keeps else ())]
        writer = csv.DictWriter(out, names, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        return out.getvalue().encode()
    text = "".join(json.dumps(record) + "\n" for record in records).encode()
    return gzip.compress(text) if suffix.endswith(".gz") else text


def both_kept(a: list[tuple[str, Any]], b: list[tuple[str, Any]]) -> tuple[set[int], set[int]]:
    """The rows of side a and of side b that a join keeps under ``overlap: both-judged``:
    a's first row of an ID joined with b's first row of it, both labels there."""
    first_b: dict[str, int] = {}
    for index, (case_id, _) in enumerate(b):
        first_b.setdefault(case_id, index)
    seen_a: set[str] = set()
    kept_a, kept_b = set(), set()
    for index, (case_id, label) in enumerate(a):
        if case_id in seen_a:
            continue
        seen_a.add(case_id)
        other = first_b.get(case_id)
        if other is not None and judged(label) and judged(b[other][1]):
            kept_a.add(index)
            kept_b.add(other)
    return kept_a, kept_b


def alone_of(a: list[tuple[str, Any]], b: list[tuple[str, Any]]) -> tuple[int, int]:
    """How many rows of the joined ledger only a, and only b, judged: a's rows (each with
    b's first row of its ID, where it is a's first row of it), then b's other rows."""
    first_b: dict[str, int] = {}
    for index, (case_id, _) in enumerate(b):
        first_b.setdefault(case_id, index)
    seen_a: set[str] = set()
    joined: set[int] = set()
    alone = [0, 0]
    for case_id, label in a:
        other = None if case_id in seen_a else first_b.get(case_id)
        seen_a.add(case_id)
        if other is not None:
            joined.add(other)
        by_b = other is not None and judged(b[other][1])
        if not (judged(label) and by_b):
            alone[0] += judged(label)
            alone[1] += by_b
    alone[1] += sum(judged(label) for index, (_, label) in enumerate(b) if index not in joined)
    return alone[0], alone[1]


SIDE = "{input_file: %s, id: id, label: verdict%s}"
FACTS_OF_SIDES = ("IDs", "on one side only", "left out", "judged alone")


def panel_body(names: list[str], both: bool) -> str:
    lines = "".join(f"        - {SIDE % (name, '')}\n" for name in names)
    overlap = "      overlap: both-judged\n" if both else ""
    return (
        f"    ledger:\n      labels: {{PASS: true, FAIL: false}}\n{overlap}      panel:\n"
        f"{lines}    expected: {{}}\n"
    )


def join_body(a: str, b: str, where: str) -> str:
    kept = f", where: {{{where}: 'y'}}" if where else ""
    return (
        "    ledger:\n      labels: {PASS: true, FAIL: false}\n"
        f"      a: {SIDE % (a, kept)}\n      b: {SIDE % (b, kept)}\n"
        f"      graders: {{a: {a}, b: {b}}}\n    expected: {{}}\n"
    )


def load_kept(folder: Path, body: str, limit: int | None) -> list[Case]:
    """:func:`load`, in a run that keeps ``limit`` rows to review a pair (``None``: none)."""
    path = folder / "c.rubric.yaml"
    path.write_text(f"evaluator: agreement\ncases:\n  - id: x\n{body}", encoding="utf-8")
    (case,) = load_case_file(path, "c.rubric.yaml", root=folder).cases
    files = InputFiles(path, "c.rubric.yaml", folder)
    return list(panel_cases(case, "c.rubric.yaml", files, PanelReads(limit)))


def run_kept(case: Case, limit: int | None) -> CaseOutcome:
    """:func:`run`, keeping ``limit`` rows to review (``None``: no review)."""
    return run_case(case, AGREEMENT, path="c.rubric.yaml", source="", review_limit=limit)


def sides_of(draw: Any) -> list[list[tuple[str, Any]]]:
    """Three sides: any rows each, or (half the time) one set of IDs in each side's own
    order, which the columns read once hold."""
    if draw(st.booleans()):
        return [draw(ROWS) for _ in range(SIDES)]
    ids = draw(st.lists(st.sampled_from(["c1", "c2", "c3", "c4", "c5"]), unique=True, min_size=1))
    made = []
    for _ in range(SIDES):
        order = draw(st.permutations(ids))
        made.append([(case_id, draw(LABEL)) for case_id in order])
    return made


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    data=st.data(),
    suffix=st.sampled_from([".csv", ".jsonl", ".jsonl.gz"]),
    both=st.booleans(),
    limit=st.sampled_from([0, 1, 3, None]),
)
def test_each_pair_of_a_join_panel_answers_as_the_join_of_its_two_files(
    tmp_path: Path, data: Any, suffix: str, both: bool, limit: int | None
) -> None:
    sides = sides_of(data.draw)
    names = [f"s{index}{suffix}" for index in range(SIDES)]
    keeps: list[dict[str, set[int]]] = [{} for _ in range(SIDES)]
    for (x, y), key in zip(pairs(), PAIR_KEYS, strict=True):
        if both:  # the references keep the rows both judged
            keeps[x][key], keeps[y][key] = both_kept(sides[x], sides[y])
    for name, rows, keep in zip(names, sides, keeps, strict=True):
        (tmp_path / name).write_bytes(side_text(rows, suffix, keep))
    made = load_kept(tmp_path, panel_body(names, both), limit)
    got = [seen(run_kept(case, limit)) for case in made]  # every pair first: read once
    for answer, (x, y), key in zip(got, pairs(), PAIR_KEYS, strict=True):
        where = key if both else ""
        if both and not keeps[x][key]:
            assert answer["actual"] is None, answer
            (problem,) = answer["problems"]
            assert "judged no case in common" in problem
            continue
        (ref,) = load(tmp_path, join_body(names[x], names[y], where))
        want = seen(run_kept(ref, limit))
        if both:
            got_facts, want_facts = answer["facts"] or {}, want["facts"] or {}
            alone = got_facts.get("judged alone")
            for facts in (got_facts, want_facts):
                for fact in FACTS_OF_SIDES:
                    facts.pop(fact, None)
            if answer["problem"] is None:  # a ledger read whole says what each judged alone
                assert alone == "a {}, b {} (left out)".format(*alone_of(sides[x], sides[y]))
        assert answer == want, (x, y)


def test_a_join_panel_with_both_judged_keeps_the_cases_both_files_judged(
    tmp_path: Path,
) -> None:
    files = {
        "a": "id,verdict\nc1,PASS\nc2,FAIL\nc3,PASS\nc4,PASS\n",
        "b": "id,verdict\nc1,PASS\nc2,PASS\nc3,\nc5,FAIL\n",
        "c": "id,verdict\nc6,PASS\n",
    }
    for name, text in files.items():
        (tmp_path / f"{name}.csv").write_text(text, encoding="utf-8")
    made = load(tmp_path, panel_body([f"{name}.csv" for name in "abc"], both=True))
    ab, ac, bc = (run(case) for case in made)
    assert ab.actual == {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 1},
        "agreement": 1,
        "total": 2,
        "disagreements": ["c2"],
    }
    assert ab.evidence is not None
    # a judged c3 (b's cell is empty) and c4 (b has no row of it) alone, b judged c5.
    assert ab.evidence.facts["judged alone"] == "a 2, b 1 (left out)"
    assert ab.review is not None
    assert [row["where"] for row in ab.review["rows"]] == ["a.csv:3"]  # type: ignore[index, call-overload]
    for outcome, counts in ((ac, "a.csv judged 4 alone, c.csv 1"), (bc, "b.csv judged 3 alone")):
        assert outcome.actual is None
        (problem,) = outcome.problems
        assert "with 'overlap: both-judged'" in problem
        assert counts in problem, problem
        assert "judged no case in common" in problem


def side_file(suffix: str, marks: list[str]) -> str:
    """A side of cases c0, c1... with these labels, as a CSV or as JSON Lines."""
    if suffix == ".csv":
        return "id,verdict\n" + "".join(f"c{n},{mark}\n" for n, mark in enumerate(marks))
    return "".join(json.dumps({"id": f"c{n}", "verdict": m}) + "\n" for n, m in enumerate(marks))


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_each_side_file_is_read_once_for_every_pair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    from pytest_rubric.inputs.textfiles import Plain

    labels = ("PASS,FAIL,PASS", "PASS,PASS,FAIL", "FAIL,FAIL,PASS", "PASS,FAIL,FAIL")
    names = [f"s{index}{suffix}" for index in range(len(labels))]
    for name, marks in zip(names, labels, strict=True):
        (tmp_path / name).write_text(side_file(suffix, marks.split(",")), encoding="utf-8")
    made = load(tmp_path, panel_body(names, both=False))
    reads: list[str] = []  # each opening of a file, by name: its rows or its lines read
    open_text = Plain.open_text

    def counted(self: Plain, path: Path) -> Any:
        reads.append(path.name)
        return open_text(self, path)

    monkeypatch.setattr(Plain, "open_text", counted)

    def answers(cases: list[Case]) -> list[Any]:
        return [run_case(case, AGREEMENT, path="c.rubric.yaml", source="").actual for case in cases]

    got = answers(made)
    assert sorted(reads) == names  # 4 files for 6 pairs, each once (its lines, plain)
    assert [answer["agreement"] for answer in got] == [1, 2, 2, 0, 2, 1]
    # A side changed between pairs is read again, and answers as it now is (a new file
    # put in its place, as editors save one).
    reads.clear()
    made = load(tmp_path, panel_body(names, both=False))
    first = answers(made[:1])
    changed = tmp_path / "new"
    changed.write_text(side_file(suffix, ["PASS", "FAIL", "PASS"]), encoding="utf-8")
    changed.replace(tmp_path / names[1])
    rest = answers(made[1:])
    assert first[0]["agreement"] == 1
    assert [answer["agreement"] for answer in rest] == [2, 2, 2, 2, 1]
    assert sorted(reads) == sorted([*names, names[1]])


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_each_side_file_is_read_once_for_every_pair_and_its_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    from pytest_rubric.inputs.textfiles import Plain

    labels = ("PASS,FAIL,PASS", "PASS,PASS,FAIL", "FAIL,FAIL,PASS")
    names = [f"s{index}{suffix}" for index in range(len(labels))]
    for name, marks in zip(names, labels, strict=True):
        (tmp_path / name).write_text(side_file(suffix, marks.split(",")), encoding="utf-8")
    made = load_kept(tmp_path, panel_body(names, both=False), 1)
    reads: list[str] = []  # each opening of a file, by name
    open_text = Plain.open_text

    def counted(self: Plain, path: Path) -> Any:
        reads.append(path.name)
        return open_text(self, path)

    monkeypatch.setattr(Plain, "open_text", counted)
    got = [run_kept(case, 1).review for case in made]
    assert sorted(reads) == names  # 3 files for 3 pairs and their reviews, each once
    first = 2 if suffix == ".csv" else 1  # row c0's line
    assert [(review["rows"], review["more"]) for review in got] == [  # type: ignore[index]
        (
            [
                {
                    "id": "c1",
                    "a": False,
                    "b": True,
                    "side": "bOnly",
                    "where": f"s0{suffix}:{first + 1}",
                    "fields": {},
                }
            ],
            1,
        ),
        (
            [
                {
                    "id": "c0",
                    "a": True,
                    "b": False,
                    "side": "aOnly",
                    "where": f"s0{suffix}:{first}",
                    "fields": {},
                }
            ],
            0,
        ),
        (
            [
                {
                    "id": "c0",
                    "a": True,
                    "b": False,
                    "side": "aOnly",
                    "where": f"s1{suffix}:{first}",
                    "fields": {},
                }
            ],
            2,
        ),
    ]


SEEN_HELD = """
import json
import pathlib

import pytest

SEEN = []


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    held = item.case.input_file.panel_sides[0]
    SEEN.append([item.case.pair.pair, sorted(held.sides)])


def pytest_sessionfinish(session):
    pathlib.Path("seen.json").write_text(json.dumps(SEEN))
"""


def join_panel_project(pytester: pytest.Pytester) -> None:
    labels = ("PASS,FAIL,PASS", "PASS,PASS,FAIL", "FAIL,FAIL,PASS", "PASS,FAIL,FAIL")
    for index, marks in enumerate(labels):
        rows = "".join(f"c{n},{mark}\n" for n, mark in enumerate(marks.split(",")))
        (pytester.path / f"s{index}.csv").write_text("id,verdict\n" + rows, encoding="utf-8")
    body = panel_body([f"s{index}.csv" for index in range(len(labels))], both=False)
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: x\n"
        + body.replace("expected: {}", "expected_subset: {total: 3}"),
    )


def test_the_sides_are_let_go_once_no_pair_of_the_panel_runs_next(
    pytester: pytest.Pytester,
) -> None:
    join_panel_project(pytester)
    pytester.makeconftest(SEEN_HELD)
    pytester.runpytest("-p", "no:randomly", "-n", "0").assert_outcomes(passed=6)
    seen_held = json.loads((pytester.path / "seen.json").read_text(encoding="utf-8"))
    # Each side is held while a pair still to run needs it, then let go.
    assert seen_held == [
        ["s0.csv vs s1.csv", [0, 1]],
        ["s0.csv vs s2.csv", [0, 1, 2]],
        ["s0.csv vs s3.csv", [1, 2, 3]],
        ["s1.csv vs s2.csv", [1, 2, 3]],
        ["s1.csv vs s3.csv", [2, 3]],
        ["s2.csv vs s3.csv", []],
    ]
    # A pair left out never takes its sides: they go once the last pair run here is done.
    pytester.runpytest(
        "-p", "no:randomly", "-n", "0", "--deselect", "c.rubric.yaml::x[s2.csv vs s3.csv]"
    ).assert_outcomes(passed=5, deselected=1)
    seen_held = json.loads((pytester.path / "seen.json").read_text(encoding="utf-8"))
    assert seen_held[-1] == ["s1.csv vs s3.csv", []]


def test_a_join_panel_records_the_same_serial_and_on_two_workers(
    pytester: pytest.Pytester,
) -> None:
    join_panel_project(pytester)
    serial, spread = serial_and_spread(pytester)
    assert serial == spread
    assert len(serial) == 6


def test_both_judged_keeps_a_row_whose_id_is_not_text_for_the_evaluator_to_name(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.jsonl").write_text('{"id": 7, "verdict": true}\n', encoding="utf-8")
    (tmp_path / "b.jsonl").write_text('{"id": 7, "verdict": true}\n', encoding="utf-8")
    (tmp_path / "c.jsonl").write_text('{"id": "7", "verdict": true}\n', encoding="utf-8")
    body = panel_body(["a.jsonl", "b.jsonl", "c.jsonl"], both=True).replace(
        "labels: {PASS: true, FAIL: false}", "graders: [ana, ben, cleo]"
    )
    for case in load(tmp_path, body):
        got = seen(run(case))
        assert got["actual"] == {"error": "review-case-identity"}, got
        assert "ids: as-text" in got["problem"], got


def test_only_a_run_with_a_join_panel_pays_the_hook_that_lets_sides_go(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "def pytest_sessionfinish(session):\n"
        "    held = session.config.pluginmanager.get_plugin('rubric-held-sides')\n"
        "    print('\\nheld-sides hook:', held is not None)\n"
    )
    pytester.makefile(".rubric.yaml", plain=PLAIN_CASES)
    pytester.runpytest("-s", "-p", "no:xdist").stdout.fnmatch_lines(["held-sides hook: False"])
    join_panel_project(pytester)
    pytester.runpytest("-s", "-p", "no:xdist").stdout.fnmatch_lines(["held-sides hook: True"])


PLAIN_CASES = """\
evaluator: agreement
cases:
  - id: inline
    input: {rows: [{id: c1, a: true, b: true}]}
    expected_subset: {total: 1}
"""
