"""``inputs/pairing.py``: one row per judgement paired into one ledger row per case, called
directly on hand-made judgement streams (no file, no loader, no pytest run)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any
from unittest import mock

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.misfits import LedgerError
from pytest_rubric.inputs import pairing
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import Findings, LabelOutside
from pytest_rubric.inputs.groups import GroupTally
from pytest_rubric.inputs.pairing import PairingPlaces, paired_judgements


def key(name: str) -> KeyPath:
    return KeyPath((name,), (3, 5), name)


#: One row per judgement: ``id``, ``who`` (alice is a, bob is b), ``verdict`` in words.
LEDGER = Ledger(
    id=key("id"),
    a=key("a"),
    b=key("b"),
    labels=(("PASS", True), ("FAIL", False)),
    per_judgement=True,
    grader=key("who"),
    label=key("verdict"),
    a_name="alice",
    b_name="bob",
)


def j(case_id: object, who: object, verdict: object = "PASS", **fields: object) -> dict[str, Any]:
    """A judgement as an export holds it."""
    return {"id": case_id, "who": who, "verdict": verdict, **fields}


class Paired:
    """The rows paired from ``judgements``, the first read at line 2 and so on: each with
    the line it is named by and the line the reading had reached when it was handed over."""

    def __init__(
        self,
        judgements: list[object],
        ledger: Ledger = LEDGER,
        find_lone: Callable[[], frozenset[str] | None] | None = None,
    ) -> None:
        self.findings = Findings()
        if ledger.group_by is not None:
            self.findings.groups = GroupTally(ledger.group_by)
        cursor = Cursor()

        def read() -> Iterator[object]:
            for line, judgement in enumerate(judgements, start=2):
                cursor.position = line
                yield judgement

        places = PairingPlaces(cursor, lambda: f"l.jsonl:{cursor.position}")
        paired = paired_judgements(read(), ledger, self.findings, places, find_lone, "case.yaml")
        self.handed = [(row, cursor.line, cursor.position) for row in paired]

    @property
    def rows(self) -> list[object]:
        return [row for row, _, _ in self.handed]

    @property
    def lines(self) -> list[int]:
        return [line for _, line, _ in self.handed]


def test_a_case_judged_by_both_is_one_row_with_both_labels_and_their_fields() -> None:
    got = Paired(
        [
            j("c1", "bob", "FAIL", text="the headline", why="too long"),
            j("c1", "alice", "PASS", text="the headline", why="fine"),
        ]
    )
    # a's label and fields first, whoever judged first; a field both hold alike once.
    assert got.rows == [
        {
            "id": "c1",
            "a": True,
            "b": False,
            "text": "the headline",
            "a.why": "fine",
            "b.why": "too long",
        }
    ]
    assert got.lines == [2]  # named by its first judgement
    assert got.findings.judged == (1, 1)
    assert got.findings.names == ("alice", "bob")


def test_a_judgement_arriving_late_keeps_the_order_of_first_judgements() -> None:
    got = Paired(
        [
            j("c1", "alice"),  # line 2: c1 waits for bob
            j("c2", "alice"),  # 3
            j("c2", "bob"),  # 4: c2 is complete, but c1 came first
            j("c3", "alice"),  # 5
            j("c1", "bob", "FAIL"),  # 6: c1, then c2, go
            j("c3", "bob"),  # 7
        ]
    )
    assert got.rows == [
        {"id": "c1", "a": True, "b": False},
        {"id": "c2", "a": True, "b": True},
        {"id": "c3", "a": True, "b": True},
    ]
    assert got.lines == [2, 3, 5]
    assert [reached for _, _, reached in got.handed] == [6, 6, 7]


def test_a_lone_judgement_is_a_row_with_one_label_held_to_the_end() -> None:
    got = Paired([j("lone", "bob", "FAIL", note="x"), j("c1", "alice"), j("c1", "bob")])
    assert got.rows == [{"id": "lone", "b": False, "note": "x"}, {"id": "c1", "a": True, "b": True}]
    assert got.lines == [2, 3]
    assert [reached for _, _, reached in got.handed] == [4, 4]  # both wait for the end


def test_a_judgement_without_its_label_key_is_a_missing_label() -> None:
    got = Paired([{"id": "c1", "who": "alice"}, j("c1", "bob")])
    assert got.rows == [{"id": "c1", "b": True}]
    assert got.findings.outside is None


def test_a_case_judged_again_after_both_is_a_second_row_with_its_id() -> None:
    got = Paired([j("c1", "alice"), j("c1", "bob"), j("c1", "alice", "FAIL", note="again")])
    # The repeat is a row of its own (no review fields): the identity rule refuses it.
    assert got.rows == [{"id": "c1", "a": True, "b": True}, {"id": "c1", "a": False}]
    assert got.lines == [2, 4]


def test_a_grader_judging_a_case_twice_lets_the_waiting_case_go_first() -> None:
    got = Paired([j("c1", "alice"), j("c1", "alice", "FAIL"), j("c1", "bob")])
    assert got.rows == [{"id": "c1", "a": True}, {"id": "c1", "a": False}, {"id": "c1", "b": True}]
    assert got.lines == [2, 3, 4]


def test_an_id_that_is_not_text_is_a_row_at_once_and_the_first_integer_is_noted() -> None:
    got = Paired([j("c1", "alice"), j(7, "bob"), j(8, "alice"), j("c1", "bob")])
    assert got.rows == [
        {"id": "c1", "a": True},
        {"id": 7, "b": True},
        {"id": 8, "a": True},
        {"id": "c1", "b": True},
    ]
    assert got.findings.number_id == (
        1,
        "l.jsonl:3",
        7,
        "under 'ledger:' (case.yaml:3:5)",
    )


def test_a_value_that_is_not_a_mapping_is_handed_over_as_it_is() -> None:
    got = Paired([j("c1", "alice"), ["not", "a", "judgement"], j("c1", "bob")])
    assert got.rows == [{"id": "c1", "a": True}, ["not", "a", "judgement"], {"id": "c1", "b": True}]
    assert got.lines == [2, 3, 4]


def test_graders_other_than_a_and_b_are_left_out_and_counted() -> None:
    got = Paired(
        [
            j("c1", "carol"),
            j("c1", "alice"),
            j("c1", 7),
            j("c1", "carol"),
            {"id": "c1", "verdict": "PASS"},  # no grader
            j("c1", True),  # a Boolean is never a grader's name
            j("c1", "bob"),
        ]
    )
    assert got.rows == [{"id": "c1", "a": True, "b": True}]
    assert dict(got.findings.ignored) == {"'carol'": 2, "7": 1, "(no grader)": 1, "true": 1}
    assert got.findings.graders == {"'carol'": "carol", "7": 7, "true": True}
    assert got.findings.ungraded == ("l.jsonl:6", {"id": "c1", "verdict": "PASS"})
    assert got.findings.judged == (1, 1)


def test_a_grader_is_matched_under_strict_json_equality() -> None:
    numbered = replace(LEDGER, a_name=7, b_name=12)
    got = Paired([j("c1", 7), j("c1", "12"), j("c1", 12.0)], numbered)
    assert got.rows == [{"id": "c1", "a": True, "b": True}]  # 12.0 is the number 12
    assert dict(got.findings.ignored) == {"'12'": 1}


def test_only_other_graders_is_the_case_s_problem_once_every_judgement_is_read() -> None:
    stream: list[object] = [j("c1", "carol"), "text", j("c1", "dave"), j("c2", "carol")]
    rows: list[object] = []
    places = PairingPlaces(Cursor(), lambda: "l.jsonl")
    with pytest.raises(LedgerError) as raised:
        rows.extend(paired_judgements(iter(stream), LEDGER, Findings(), places, None, "case.yaml"))
    assert rows == ["text"]
    assert str(raised.value) == (
        "case.yaml:3:5: no judgement is by a ('alice') or b ('bob'), so the ledger would be "
        "empty; graders are compared exactly as the export holds them, and the graders found "
        "are 'carol' (2 judgements), 'dave' (1 judgement); name two of them"
    )


def test_the_first_label_outside_the_vocabulary_is_noted_with_its_row() -> None:
    got = Paired(
        [
            j("c0", "alice"),
            j("c0", "bob"),
            j("c1", "alice"),
            j("c1", "bob", "maybe"),  # line 5, held in row 1
            j("c2", "alice", "pass"),  # a second one: not noted
            j("c2", "bob"),
        ]
    )
    assert got.rows[1] == {"id": "c1", "a": True, "b": "maybe"}
    assert got.rows[2] == {"id": "c2", "a": "pass", "b": True}
    assert got.findings.outside == LabelOutside("l.jsonl:5", "b", "c1", "maybe", 1, None)


def test_a_number_outside_a_vocabulary_of_words_is_null_and_named_with_advice() -> None:
    got = Paired([j("c1", "alice", 1), j("c1", "bob")])
    assert got.rows == [{"id": "c1", "a": None, "b": True}]
    outside = got.findings.outside
    assert outside is not None
    assert (outside.value, outside.index) == (1, 0)
    assert outside.hint is not None
    assert "write the labels as pairs" in outside.hint


def test_without_labels_a_word_for_a_boolean_is_kept_and_noted() -> None:
    got = Paired([j("c1", "alice", True), j("c1", "bob", "yes")], replace(LEDGER, labels=None))
    assert got.rows == [{"id": "c1", "a": True, "b": "yes"}]
    assert got.findings.outside == LabelOutside(
        "l.jsonl:3",
        "b",
        "c1",
        "yes",
        0,
        "read the export's words as they are with 'labels: {'yes': true, 'no': false}' in its "
        "ledger: block",
    )


def test_each_row_is_grouped_by_its_first_judgement() -> None:
    grouped = replace(LEDGER, group_by=key("desk"))
    got = Paired(
        [
            j("c1", "alice", desk="sports"),
            j("c2", "alice", desk="politics"),
            j("c1", "bob", desk="politics"),
            j("c2", "bob", "FAIL", desk="politics"),
        ],
        grouped,
    )
    tally = got.findings.groups
    assert tally is not None
    found = tally.groups()
    assert found is not None
    assert [(group["label"], group["total"], group["agreement"]) for group in found] == [
        ("sports", 1, 1),
        ("politics", 1, 0),
    ]


@pytest.mark.parametrize("after", [1, 2, 4096])
def test_cases_the_whole_export_judges_once_wait_for_nothing_once_asked(after: int) -> None:
    stream: list[object] = [j("lone", "bob"), j("c1", "alice"), j("c2", "alice")]
    stream += [j("c1", "bob"), j("c2", "bob")]
    asked: list[int] = []

    def find_lone() -> frozenset[str]:
        asked.append(1)
        return frozenset({"lone"})

    with mock.patch.object(pairing, "LONE_AFTER", after):
        got = Paired(stream, find_lone=find_lone)
    assert got.rows == Paired(stream).rows  # the same rows either way
    assert got.lines == [2, 3, 4]
    reached = [reached for _, _, reached in got.handed]
    if after == 1:  # asked when two cases wait: the lone case goes at once
        assert asked == [1]
        assert reached == [3, 5, 6]
    elif after == 2:  # asked when three wait
        assert asked == [1]
        assert reached == [4, 5, 6]
    else:  # never asked: the lone case holds every row to the end
        assert asked == []
        assert reached == [6, 6, 6]


#: Judgements as (case ID, grader, verdict): IDs that are text or not, a grader who is
#: neither a nor b, repeats.
STREAMS = st.lists(
    st.tuples(
        st.sampled_from(["c1", "c2", "c3", 7]),
        st.sampled_from(["alice", "bob", "carol"]),
        st.sampled_from(["PASS", "FAIL"]),
    ),
    max_size=12,
)


@given(STREAMS, st.integers(min_value=0, max_value=3))
def test_every_judgement_by_a_or_b_is_in_one_row_whenever_lone_cases_are_asked_for(
    stream: list[tuple[object, str, str]], after: int
) -> None:
    assume(not stream or any(who != "carol" for _, who, _ in stream))  # else: the problem
    judgements: list[object] = [j(case_id, who, verdict) for case_id, who, verdict in stream]
    plain = Paired(judgements)
    rows = [row for row in plain.rows if isinstance(row, dict)]
    labels = [(row["id"], side, row[side]) for row in rows for side in "ab" if side in row]
    read = [
        (case_id, "a" if who == "alice" else "b", verdict == "PASS")
        for case_id, who, verdict in stream
        if who != "carol"
    ]
    assert sorted(labels, key=repr) == sorted(read, key=repr)
    judged = Counter(case_id for case_id, who, _ in stream if who != "carol")
    lone = frozenset(c for c, n in judged.items() if n == 1 and type(c) is str)
    with mock.patch.object(pairing, "LONE_AFTER", after):
        asked = Paired(judgements, find_lone=lambda: lone)
    assert (asked.rows, asked.lines) == (plain.rows, plain.lines)
