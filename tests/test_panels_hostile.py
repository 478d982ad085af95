"""Panels used carelessly or with hostile exports: each pair still answers exactly as the
two-grader ledger of the same rows, and bad input is a problem of its item."""

from __future__ import annotations

import json
from typing import Any

import pytest

PANEL = """evaluator: agreement
cases:
  - id: x
    input_file: export.csv
    ledger:
      id: id
      panel: [g0, g1, g2]
      graders: [g0, g1, g2]
      labels: {PASS: true, FAIL: false}
    expected_subset: {total: 3}
"""
EXPORT = "id,g0,g1,g2\nc1,PASS,PASS,PASS\nc2,FAIL,PASS,FAIL\nc3,PASS,FAIL,PASS\n"

REWRITE_AFTER_FIRST = """
import os
import pathlib

DONE = []


def pytest_runtest_teardown(item, nextitem):
    if DONE:
        return
    DONE.append(item.nodeid)
    path = pathlib.Path("export.csv")
    status = path.stat()
    text = path.read_text().replace("PASS", "----").replace("FAIL", "PASS").replace("----", "FAIL")
    with open(path, "r+") as written:  # in place: same inode, same size
        written.write(text)
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
"""


def actuals(pytester: pytest.Pytester, report: str) -> dict[str, Any]:
    data = json.loads((pytester.path / report).read_text(encoding="utf-8"))
    return {record["nodeid"]: record["actual"] for record in data["cases"]}


def test_an_export_rewritten_in_place_with_its_size_and_time_kept_is_read_again(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", c=PANEL)
    (pytester.path / "export.csv").write_text(EXPORT, encoding="utf-8")
    pytester.makeconftest(REWRITE_AFTER_FIRST)
    pytester.runpytest("-p", "no:randomly", "-n", "0", "--rubric-report=during.json")
    (pytester.path / "conftest.py").unlink()
    pytester.runpytest("-p", "no:randomly", "-n", "0", "--rubric-report=after.json")
    during, after = actuals(pytester, "during.json"), actuals(pytester, "after.json")
    assert len(after) == 3
    first = "c.rubric.yaml::x[g0 vs g1]"
    assert during[first] != after[first]  # the first pair ran before the rewrite
    assert {k: v for k, v in during.items() if k != first} == {
        k: v for k, v in after.items() if k != first
    }


@pytest.mark.parametrize(
    ("ledger", "place", "named"),
    [
        (  # one file twice in a join: each side shown as its file
            "    ledger:\n      panel:\n"
            "        - {input_file: e.csv, id: id, label: g0}\n"
            "        - {input_file: e.csv, id: id, label: g1}\n"
            "        - {input_file: e.csv, id: id, label: g2}\n",
            "6:9",
            "'panel[0]' with 'panel[1]' and 'panel[0]' with 'panel[2]' would both be named "
            "'e.csv vs e.csv'",
        ),
        (  # names holding ' vs '
            "    input_file: e.csv\n    ledger:\n      id: id\n      panel: [g0, g1, g2, g3]\n"
            "      graders: [a, b vs c, a vs b, c]\n",
            "8:16",
            "'panel[0]' with 'panel[1]' and 'panel[2]' with 'panel[3]' would both be named "
            "'a vs b vs c'",
        ),
        (  # a number and its text, two graders of one row per judgement shown alike
            "    input_file: j.jsonl\n    ledger:\n      rows: per-judgement\n      id: id\n"
            "      grader: who\n      label: v\n      panel: [1, '1', z]\n",
            "10:14",
            "'panel[0]' with 'panel[2]' and 'panel[1]' with 'panel[2]' would both be named "
            "'1 vs z'",
        ),
    ],
)
def test_two_pairs_of_one_name_are_refused_where_the_names_are_written(
    pytester: pytest.Pytester, ledger: str, place: str, named: str
) -> None:
    (pytester.path / "e.csv").write_text(
        "id,g0,g1,g2,g3\nc1,PASS,PASS,PASS,FAIL\nc2,FAIL,PASS,FAIL,FAIL\n", encoding="utf-8"
    )
    (pytester.path / "j.jsonl").write_text('{"id": "c1", "who": 1, "v": "PASS"}\n')
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: x\n"
        + ledger
        + "      labels: {PASS: true, FAIL: false}\n    expected_subset: {total: 2}\n",
    )
    result = pytester.runpytest("-p", "no:randomly", "-n", "0")
    result.assert_outcomes(failed=1)
    assert (
        f"c.rubric.yaml:{place}: the pairs {named}; each pair needs a name" in result.stdout.str()
    )


def test_both_judged_over_an_empty_export_of_judgements_is_a_problem_never_an_empty_ledger(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "judged.jsonl").write_text("", encoding="utf-8")
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: x\n    input_file: judged.jsonl\n"
        "    ledger:\n      rows: per-judgement\n      id: id\n      grader: who\n"
        "      label: verdict\n      panel: [ana, ben, cleo]\n      overlap: both-judged\n"
        "    expected_subset: {total: 0}\n",
    )
    result = pytester.runpytest("-p", "no:randomly", "-n", "0", "--rubric-report=r.json")
    result.assert_outcomes(failed=3)
    data = json.loads((pytester.path / "r.json").read_text(encoding="utf-8"))
    assert [record["outcome"] for record in data["cases"]] == ["case-error"] * 3
    result.stdout.fnmatch_lines(
        ["*c.rubric.yaml:10:14: with 'overlap: both-judged', ana and ben judged no case in common*"]
    )
