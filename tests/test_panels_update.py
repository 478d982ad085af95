"""``--rubric-update`` and a panel (issue 47 item 3): each pair's answer written under
its case's ``expected_pairs``, at its name, leaf by leaf with comments kept, the pairs of
one case in one write of the file, in panel order; refusals held back as for any case."""

from __future__ import annotations

import pytest

EXPORT = "id,judge,editor,lead\nc1,PASS,PASS,FAIL\nc2,FAIL,FAIL,FAIL\nc3,PASS,FAIL,PASS\n"
HEAD = """evaluator: agreement
cases:
  - id: week
    input_file: export.csv
    ledger:
      panel: [judge, editor, lead]
      labels: {PASS: true, FAIL: false}
      graders: [Judge, Editor, Lead]
"""
#: Judge vs Editor pinned right (its flow matrix and comment must stay as they are),
#: Judge vs Lead not pinned, Editor vs Lead pinned wrong in one leaf.
PARTLY = (
    HEAD
    + """    # the pairs the desk signed off
    expected_pairs:
      Judge vs Editor:  # signed off in March
        matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}
        agreement: 2
        total: 3
        disagreements: [c3]
      Editor vs Lead:
        matrix: {bothPass: 0, bothFail: 1, aOnly: 1, bOnly: 1}
        agreement: 2  # to check
        total: 3
        disagreements: [c1, c3]
  - id: other  # a case after the panel stays as it is
    input_file: export.csv
    ledger: {a: judge, b: editor, labels: {PASS: true, FAIL: false}}
    expected: {matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}, agreement: 2, total: 3, disagreements: [c3]}
"""
)
JUDGE_VS_LEAD = """      Judge vs Lead:
        matrix:
          bothPass: 1
          bothFail: 1
          aOnly: 1
          bOnly: 0
        agreement: 2
        total: 3
        disagreements: [c1]
"""
EDITOR_VS_LEAD = """      Editor vs Lead:
        matrix:
          bothPass: 0
          bothFail: 1
          aOnly: 1
          bOnly: 1
        agreement: 1
        total: 3
        disagreements: [c1, c3]
"""
DIST = pytest.mark.parametrize("dist", ["0", "2"], ids=["serial", "xdist"])


def project(pytester: pytest.Pytester, text: str, export: str = EXPORT) -> None:
    (pytester.path / "panel.rubric.yaml").write_text(text, encoding="utf-8")
    (pytester.path / "export.csv").write_text(export, encoding="utf-8")


def run(pytester: pytest.Pytester, dist: str, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(
        "-n", dist, "-p", "no:randomly", "-p", "no:cacheprovider", "--rubric-update-in-ci", *args
    )


def written(pytester: pytest.Pytester) -> str:
    return (pytester.path / "panel.rubric.yaml").read_text(encoding="utf-8")


@DIST
def test_new_fills_the_pairs_with_no_answer_in_panel_order_leaving_the_rest(
    pytester: pytest.Pytester, dist: str
) -> None:
    project(pytester, PARTLY)
    result = run(pytester, dist, "--rubric-update=new")
    result.assert_outcomes(passed=3, failed=1)  # Editor vs Lead differs: new leaves it
    result.stdout.fnmatch_lines(["1 expected answer written, 1 created, in 1 file"])
    start = PARTLY.index("      Editor vs Lead:")
    assert written(pytester) == PARTLY[:start] + JUDGE_VS_LEAD + PARTLY[start:]


@DIST
def test_all_rewrites_the_pinned_answers_that_differ_leaf_by_leaf_then_a_run_passes(
    pytester: pytest.Pytester, dist: str
) -> None:
    project(pytester, PARTLY)
    result = run(pytester, dist, "--rubric-update=all")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["2 expected answers written, 1 created, in 1 file"])
    start = PARTLY.index("      Editor vs Lead:")
    assert written(pytester) == (
        PARTLY[:start]
        + JUDGE_VS_LEAD
        + PARTLY[start:].replace("agreement: 2  # to check", "agreement: 1  # to check")
    )
    run(pytester, dist).assert_outcomes(passed=4)


@DIST
@pytest.mark.parametrize("left", ["", "    expected:\n"], ids=["none", "empty"])
def test_a_panel_with_no_expected_gets_every_pair_in_panel_order(
    pytester: pytest.Pytester, dist: str, left: str
) -> None:
    # An empty 'expected:' (which its error says --rubric-update fills) becomes expected_pairs.
    project(pytester, HEAD + left)
    result = run(pytester, dist, "--rubric-update=new")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["3 expected answers written, 3 created, in 1 file"])
    judge_vs_editor = JUDGE_VS_LEAD.replace("Lead", "Editor").replace("[c1]", "[c3]")
    assert written(pytester) == (
        HEAD + "    expected_pairs:\n" + judge_vs_editor + JUDGE_VS_LEAD + EDITOR_VS_LEAD
    )
    run(pytester, dist).assert_outcomes(passed=3)


def test_a_flow_expected_pairs_is_written_in_flow_in_panel_order(
    pytester: pytest.Pytester,
) -> None:
    pinned = "{matrix: {bothPass: 0, bothFail: 1, aOnly: 1, bOnly: 1}, agreement: 1, total: 3, disagreements: [c1, c3]}"
    project(pytester, HEAD + f"    expected_pairs: {{Editor vs Lead: {pinned}}}\n")
    run(pytester, "0", "--rubric-update=new").assert_outcomes(passed=3)
    (line,) = [line for line in written(pytester).splitlines() if "expected_pairs" in line]
    assert line.index("Judge vs Editor") < line.index("Judge vs Lead") < line.index("Editor vs")
    run(pytester, "0").assert_outcomes(passed=3)


@DIST
def test_a_pair_answering_a_refusal_is_held_back_unless_refusals_are_written(
    pytester: pytest.Pytester, dist: str
) -> None:
    export = EXPORT.replace("c2,FAIL,FAIL,FAIL", "c2,FAIL,,FAIL")  # the editor left c2
    project(pytester, HEAD, export)
    result = run(pytester, dist, "--rubric-update=new")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(
        [
            "panel.rubric.yaml:3: week[[]Judge vs Editor[]]: review-label: export.csv:3: *",
            "panel.rubric.yaml:3: week[[]Editor vs Lead[]]: review-label: export.csv:3: *",
            "2 held back: refusals *",
        ]
    )
    assert written(pytester) == HEAD + "    expected_pairs:\n" + JUDGE_VS_LEAD
    result = run(pytester, dist, "--rubric-update=new", "--rubric-update-refusals")
    result.assert_outcomes(passed=3)
    refusal = "        error: review-label\n"
    assert written(pytester) == (
        HEAD
        + "    expected_pairs:\n      Judge vs Editor:\n"
        + refusal
        + JUDGE_VS_LEAD
        + "      Editor vs Lead:\n"
        + refusal
    )


def test_a_panel_case_pinning_one_expected_for_every_pair_is_left_alone_and_says_so(
    pytester: pytest.Pytester,
) -> None:
    shared = "{matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}, agreement: 2, total: 3, disagreements: [c3]}"
    project(pytester, HEAD + f"    expected: {shared}\n")
    before = written(pytester)
    result = run(pytester, "0", "--rubric-update=all")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(
        [
            "2 pairs of a panel not written (panel.rubric.yaml::week[[]Editor vs Lead[]], "
            "panel.rubric.yaml::week[[]Judge vs Lead[]]): their case's 'expected' is every "
            "pair's*"
        ]
    )
    assert written(pytester) == before
