"""``inputs/ledgermaps.py``: what a label means (``label_meaning``, the one reading that
mapped rows, paired judgements and joins share), and rows mapped as a ``ledger:`` block
says, called directly (no file, no loader, no pytest run)."""

from __future__ import annotations

import pytest

from pytest_rubric.descriptions.keypaths import ABSENT, KeyPath
from pytest_rubric.descriptions.labels import Labels
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.findings import Findings, LabelOutside
from pytest_rubric.inputs.ledgermaps import Outside, label_meaning, mapped_rows

WORDS: Labels = (("PASS", True), ("FAIL", False))
NUMBERS: Labels = ((1, True), (0, False))
NUMBER_HINT = (
    "the export holds the number 1, and the words of a 'labels' mapping are text: write the "
    "labels as pairs of values as the export holds them, e.g. "
    "'labels: [[1, true], [0, false], [PASS, true], [FAIL, false]]'"
)
BOOLEAN_HINT = (
    "the export holds true (a boolean), and the words of a 'labels' mapping are text: write "
    "the labels as pairs of values as the export holds them, "
    "'labels: [[true, true], [false, false], [PASS, true], [FAIL, false]]'"
)
NULL_HINT = (
    "the export holds null, and the words of a 'labels' mapping are text: if null is a label, "
    "write the labels as pairs of values as the export holds them, e.g. "
    "'labels: [[null, false], [PASS, true], [FAIL, false]]'; else fix the row"
)
YES_HINT = (
    "read the export's words as they are with 'labels: {'yes': true, 'no': false}' in its "
    "ledger: block"
)


@pytest.mark.parametrize(
    ("labels", "value", "meant"),
    [
        pytest.param(WORDS, "PASS", (True, None), id="a-word-of-the-vocabulary"),
        pytest.param(WORDS, "FAIL", (False, None), id="its-other-word"),
        pytest.param(WORDS, ABSENT, (ABSENT, None), id="a-missing-label-stays-missing"),
        pytest.param(WORDS, "pass", ("pass", Outside("pass", None)), id="no-case-folding"),
        pytest.param(WORDS, "PASS ", ("PASS ", Outside("PASS ", None)), id="no-trimming"),
        pytest.param(WORDS, 1, (None, Outside(1, NUMBER_HINT)), id="a-number-is-null-with-advice"),
        pytest.param(
            WORDS, True, (None, Outside(True, BOOLEAN_HINT)), id="a-boolean-is-null-with-pairs"
        ),
        pytest.param(WORDS, None, (None, Outside(None, NULL_HINT)), id="null-outside-with-pairs"),
        pytest.param(NUMBERS, True, (None, Outside(True, None)), id="pairs-can-hold-a-boolean"),
        pytest.param(WORDS, [1], ([1], Outside([1], None)), id="a-list-is-kept"),
        pytest.param(WORDS, {"k": 1}, ({"k": 1}, Outside({"k": 1}, None)), id="a-mapping-is-kept"),
        pytest.param(NUMBERS, 0, (False, None), id="a-number-of-the-vocabulary"),
        pytest.param(NUMBERS, True, (None, Outside(True, None)), id="true-is-not-1"),
        pytest.param(NUMBERS, "1", ("1", Outside("1", None)), id="text-is-not-a-number"),
        pytest.param(None, True, (True, None), id="plain-a-boolean"),
        pytest.param(None, ABSENT, (ABSENT, None), id="plain-a-missing-label"),
        pytest.param(None, "yes", ("yes", Outside("yes", YES_HINT)), id="plain-a-word-for-true"),
        pytest.param(None, "maybe", ("maybe", None), id="plain-any-other-value-is-kept"),
        pytest.param(None, None, (None, None), id="plain-null-is-kept"),
    ],
)
def test_a_label_means_a_boolean_of_the_vocabulary_or_says_why_not(
    labels: Labels, value: object, meant: tuple[object, Outside | None]
) -> None:
    assert label_meaning(labels)(value) == meant


def key(name: str) -> KeyPath:
    return KeyPath((name,), (1, 1), name)


def test_mapped_rows_note_the_first_label_outside_with_its_row() -> None:
    ledger = Ledger(id=key("task"), a=key("judge"), b=key("desk"), labels=WORDS)
    rows = [
        {"task": "t1", "judge": "PASS", "desk": "FAIL", "text": "x"},
        "not a row",
        {"task": "t2", "judge": "pass", "desk": 1},
    ]
    findings = Findings()
    got = list(mapped_rows(iter(rows), ledger, findings, lambda: "l.csv:9"))
    assert got == [
        {"id": "t1", "a": True, "b": False, "text": "x"},
        "not a row",
        {"id": "t2", "a": "pass", "b": None},
    ]
    assert findings.outside == LabelOutside("l.csv:9", "a", "t2", "pass", 2, None)
