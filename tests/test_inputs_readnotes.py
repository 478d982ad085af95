"""``inputs/readnotes.py``: what reading an export found, frozen (``ReadNotes``), and how
it is added to an evaluator's evidence (``applied_to``), called directly on hand-made
notes (no file, no loader, no pytest run)."""

from __future__ import annotations

from typing import cast

import pytest

from pytest_rubric.core.evaluator import Evidence, RowId, RowLabel
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.inputs.findings import Findings, LabelOutside, NumberId
from pytest_rubric.inputs.groups import MAX_GROUPS, GroupTally
from pytest_rubric.inputs.readnotes import ReadNotes

OUTSIDE = ReadNotes(
    vocabulary="PASS (true), FAIL (false)",
    outside=LabelOutside("l.csv:3", "b", "y", "maybe", 1),
    ignored=(("carol", 2),),
    whole=True,
)


@pytest.mark.parametrize(
    ("evidence", "problem"),
    [
        pytest.param(
            Evidence(problem="l.csv:3 rows[1].b (id 'y') is ...", about=RowLabel(1, "b")),
            OUTSIDE.problem(),
            id="about-that-label-replaced",
        ),
        pytest.param(
            Evidence(problem="l.csv:3 rows[1].a ...", about=RowLabel(1, "a")),
            f"l.csv:3 rows[1].a ...; and {OUTSIDE.problem()}",
            id="the-other-side-appended",
        ),
        pytest.param(
            Evidence(problem="l.csv:3 rows[1].b (id 'y') is ..."),
            f"l.csv:3 rows[1].b (id 'y') is ...; and {OUTSIDE.problem()}",
            id="no-structured-place-appended",
        ),
        pytest.param(
            Evidence(problem="l.csv:4 rows[2].id 'y' repeats rows[1].id"),
            f"l.csv:4 rows[2].id 'y' repeats rows[1].id; and {OUTSIDE.problem()}",
            id="never-over-an-identity-problem",
        ),
        pytest.param(Evidence(), None, id="a-valid-input-keeps-no-problem"),
    ],
)
def test_typed_notes_decide_whose_words_are_shown_without_reading_them(
    evidence: Evidence, problem: str | None
) -> None:
    got = OUTSIDE.applied_to(evidence)
    assert got is not None
    assert got.problem == problem
    assert got.facts == {"ignored judgements": "2 by graders other than a and b (carol 2)"}


def test_other_graders_are_counted_only_for_an_export_read_whole() -> None:
    partial = ReadNotes(vocabulary="", ignored=(("carol", 2),), whole=False)
    assert partial.applied_to(None) is None
    assert partial.facts() == {}


def test_a_label_outside_about_the_same_row_replaces_the_evaluator_s_words() -> None:
    notes = ReadNotes(
        vocabulary="PASS (true), FAIL (false)",
        outside=LabelOutside("l.jsonl:7", "a", "c4", "pass", 3),
    )
    evidence = Evidence(facts={"rows": 5}, problem="rows[3].a is 'pass'", about=RowLabel(3, "a"))
    assert notes.applied_to(evidence) == Evidence(
        facts={"rows": 5},
        problem=(
            "l.jsonl:7: the label of a (id 'c4') is \"pass\" (a string), which is not one of the "
            "ledger's labels: PASS (true), FAIL (false); labels are compared exactly (no case "
            "folding, no trimming): add it to 'labels' if the export means it, or fix the row"
        ),
        about=RowLabel(3, "a"),
    )


def test_a_label_outside_about_another_row_is_added_after_the_evaluator_s_words() -> None:
    notes = ReadNotes(
        vocabulary="yes (true), no (false)",
        outside=LabelOutside("l.csv:2", "b", 7, 1, 0, "write it as text"),
    )
    evidence = Evidence(problem="rows[1].b is missing", about=RowLabel(1, "b"))
    got = notes.applied_to(evidence)
    assert got == Evidence(
        problem=(
            "rows[1].b is missing; and l.csv:2: the label of b is 1 (a number), which is not one "
            "of the ledger's labels: yes (true), no (false); write it as text"
        ),
        about=RowLabel(1, "b"),
    )


def test_a_label_outside_a_row_not_yet_handed_over_is_never_about_a_row() -> None:
    notes = ReadNotes(vocabulary="", outside=LabelOutside("l.csv:2", "b", "c1", "x"))
    assert notes.label() is None
    evidence = Evidence(problem="rows[0].b is 'x'", about=RowLabel(0, "b"))
    got = notes.applied_to(evidence)
    assert got is not None
    assert got.problem == f"rows[0].b is 'x'; and {notes.problem()}"


GO = "under 'b:' (c.rubric.yaml:6:31)"
INT_ID = ReadNotes(vocabulary="", number_id=NumberId(2, "l.jsonl:4", 12345678901234567890, GO))


@pytest.mark.parametrize(
    ("value", "words"),
    [
        pytest.param(
            12345678901234567890,
            "12345678901234567890 (a number), and an ID is text; read the export's integer "
            f"IDs as their decimal text with 'ids: as-text' {GO}",
            id="an-integer-told-ids-as-text-in-its-own-block",
        ),
        pytest.param(
            1.0,
            "1.0 (a number), and an ID is text; write the IDs as text in the export itself: "
            f"'ids: as-text', {GO}, reads integers only, never 1.0",
            id="a-float-told-to-fix-the-export-never-to-quote-it",
        ),
    ],
)
def test_a_number_id_about_that_row_is_worded_for_an_export(value: float, words: str) -> None:
    notes = ReadNotes(vocabulary="", number_id=NumberId(2, "l.jsonl:4", value, GO))
    evidence = Evidence(facts={"rows": 3}, problem="rows[2].id is 1.2e19, not text", about=RowId(2))
    assert notes.applied_to(evidence) == Evidence(
        facts={"rows": 3}, problem=f"l.jsonl:4 rows[2].id is {words}", about=RowId(2)
    )


@pytest.mark.parametrize(
    "about",
    [RowId(1), RowLabel(2, "a"), None, cast(RowId, (2,))],
    ids=["another-row-s-id", "that-row-s-label", "no-place", "a-bare-tuple-is-no-row-id"],
)
def test_an_integer_id_leaves_any_other_problem_alone(about: RowId | RowLabel | None) -> None:
    evidence = Evidence(problem="something else", about=about)
    assert INT_ID.applied_to(evidence) is evidence


GROUPS: tuple[dict[str, JSON], ...] = (
    {
        "label": "sports",
        "value": "sports",
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": 1,
        "total": 2,
        "disagreements": ["c2"],
    },
)


def test_groups_are_facts_beside_a_valid_answer_only() -> None:
    notes = ReadNotes(vocabulary="", whole=True, group_by="meta.desk", groups=GROUPS)
    sports: JSON = {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": "1/2",
        "disagreements": ["c2"],
    }
    assert notes.applied_to(Evidence(facts={"rows": 2})) == Evidence(
        facts={"rows": 2, "by meta.desk": {"sports": sports}}
    )
    invalid = Evidence(problem="rows[1].id repeats rows[0].id", about=RowId(1))
    assert notes.applied_to(invalid) is invalid
    assert notes.applied_to(None) is None


def test_too_many_groups_are_said_so_once_the_export_is_read_whole() -> None:
    many = ReadNotes(vocabulary="", whole=True, group_by="id")
    got = many.applied_to(Evidence())
    assert got is not None
    assert got.facts == {
        "by id": f"not broken down: the rows fall into more than {MAX_GROUPS:,} groups "
        "(a group_by is for a handful of values: desks, weeks, rubric versions)"
    }
    partial = ReadNotes(vocabulary="", whole=False, group_by="id")
    assert partial.applied_to(Evidence()) == Evidence()


def test_facts_name_what_the_reading_left_out_and_found() -> None:
    notes = ReadNotes(
        vocabulary="",
        whole=True,
        dotted="ledger 'label' is 'verdict.responses', which the rows hold as one key",
        left_out=(("status is 'draft'", 2), ("user is 3", 1)),
        judged=(4, 4),
        sides=(("judge.jsonl", 5), ("desk.csv", 4)),
        one_side=("'c9' (judge.jsonl:10, a only)",),
        ignored=tuple((f"'g{n}'", 7 - n) for n in range(7)),
    )
    assert notes.applied_to(None) == Evidence(
        facts={
            "key path": "ledger 'label' is 'verdict.responses', which the rows hold as one key",
            "left out": "3 judgements by 'where' (status is 'draft': 2; user is 3: 1)",
            "IDs": "a 5 (judge.jsonl), b 4 (desk.csv)",
            "on one side only": "'c9' (judge.jsonl:10, a only)",
            "ignored judgements": "28 by graders other than a and b ('g0' 7, 'g1' 6, 'g2' 5, "
            "'g3' 4, 'g4' 3, and 2 more graders)",
        }
    )


def test_left_out_rows_of_a_one_row_per_case_export_are_rows() -> None:
    notes = ReadNotes(vocabulary="", whole=True, left_out=(("lang is 'en'", 1),))
    assert notes.facts() == {"left out": "1 row by 'where' (lang is 'en': 1)"}


def test_a_grader_who_judged_nothing_is_named_with_the_nearest_found() -> None:
    notes = ReadNotes(
        vocabulary="",
        whole=True,
        judged=(0, 3),
        names=("alice", "bob"),
        ignored=(("'prodigy-alice'", 3),),
        graders=(("'prodigy-alice'", "prodigy-alice"),),
    )
    assert notes.facts()["judged nothing"] == (
        "a ('alice'): no judgement is by that grader; did you mean 'prodigy-alice'?"
    )


def test_notes_of_findings_are_a_frozen_copy() -> None:
    findings = Findings()
    findings.ignored.update({"'carol'": 1, "'dave'": 2})
    findings.left_out = {"lang is 'en'": 1}
    findings.one_side = ["'c1' (a.csv:2, a only)"]
    findings.groups = GroupTally(KeyPath(("desk",), (1, 1), "desk"))
    findings.groups.add({"id": "c1", "a": True, "b": True}, findings.groups.read({"desk": "x"}))
    findings.group_nowhere = "case.yaml:1:1: no row holds 'desk'"
    unread = ReadNotes.of(findings, "PASS (true)")
    assert unread.groups is None  # groups only of an export read whole
    findings.whole = True
    notes = ReadNotes.of(findings, "PASS (true)")
    findings.one_side.append("'c2' (a.csv:3, a only)")
    assert notes == ReadNotes(
        vocabulary="PASS (true)",
        ignored=(("'dave'", 2), ("'carol'", 1)),
        whole=True,
        left_out=(("lang is 'en'", 1),),
        one_side=("'c1' (a.csv:2, a only)",),
        group_by="desk",
        groups=tuple(findings.groups.groups() or ()),
        group_nowhere="case.yaml:1:1: no row holds 'desk'",
    )
