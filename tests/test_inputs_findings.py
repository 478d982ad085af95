"""``inputs/findings.py``: what one pass notes as it reads, called directly."""

from __future__ import annotations

from pytest_rubric.inputs.findings import Findings, LabelOutside, NumberId, grader_shown


def test_the_first_label_outside_is_kept_and_learns_its_row_once() -> None:
    findings = Findings()
    findings.label_outside("l.csv:3", "b", "c1", "maybe", None, "a hint")
    findings.label_outside("l.csv:4", "a", "c2", "nope", None)  # a later one: not kept
    findings.handed_over(2)
    findings.handed_over(5)  # its row is handed over once
    assert findings.outside == LabelOutside("l.csv:3", "b", "c1", "maybe", 2, "a hint")


def test_the_first_number_id_is_noted_with_its_place_worded_once() -> None:
    findings = Findings()
    worded: list[int] = []

    def where() -> str:
        worded.append(1)
        return "l.jsonl:7"

    findings.note_id(0, "c1", where, "under 'a:'")
    findings.note_id(1, True, where, "under 'a:'")  # a Boolean is no number
    findings.note_id(2, 1.5, where, "under 'b:'")
    findings.note_id(3, 13, where, "under 'a:'")
    assert findings.number_id == NumberId(2, "l.jsonl:7", 1.5, "under 'b:'")
    assert worded == [1]


def test_a_grader_is_shown_as_data() -> None:
    assert [grader_shown(name) for name in ("editor ", "a\u200b", 7, None)] == [
        "'editor '",
        "'a\\u200b'",
        "7",
        "null",
    ]
