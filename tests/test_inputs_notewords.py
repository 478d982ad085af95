"""``inputs/notewords.py``: what reading found, in words: where a ``grader`` key path
stops in a judgement, and the case's problem when no judgement is by a or b, called
directly (no file, no loader, no pytest run)."""

from __future__ import annotations

import pytest

from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.notewords import nearest_grader, no_judgement_error, path_break

EACH = "name the key that holds each judgement's grader"


@pytest.mark.parametrize(
    ("parts", "judgement", "words"),
    [
        pytest.param(
            ("annotations", "who"),
            {"annotations": [{"who": 1}]},
            "holds a list of 1 item at 'annotations', which a key path indexes by number, "
            "not by 'who'",
            id="a-list-named-by-a-key",
        ),
        pytest.param(
            ("annotations", "0", "who"),
            {"annotations": []},
            "holds a list of 0 items at 'annotations', which has no item 0; name the item "
            "(from 0) or the key that holds each judgement's grader",
            id="a-list-too-short",
        ),
        pytest.param(
            ("meta", "who"),
            {"meta": "x"},
            f"holds \"x\" (a string) at 'meta', not a mapping; {EACH}",
            id="not-a-mapping",
        ),
        pytest.param(
            ("verdict", "responses", "user"),
            {"verdict": {"responses.user": 1}},
            "holds 'responses.user' as one key under 'verdict'; a dotted name is a key path, "
            "each dot a step into a value: write the key that holds dots in the list form "
            "('grader: [verdict, responses.user]')",
            id="a-dotted-key",
        ),
        pytest.param(
            ("grader",),
            {"graders": 1, "id": 2},
            "has no key 'grader' (it has 'graders', 'id'); did you mean 'graders'?",
            id="a-near-key",
        ),
        pytest.param(("zzz",), {"id": 2}, f"has no key 'zzz' (it has 'id'); {EACH}", id="no-key"),
    ],
)
def test_where_a_grader_path_stops_is_said_with_what_to_write(
    parts: tuple[str, ...], judgement: dict[str, object], words: str
) -> None:
    assert path_break(parts, judgement, "l.jsonl:2") == f"l.jsonl:2 {words}"


def key(name: str) -> KeyPath:
    return KeyPath((name,), (4, 9), name)


LEDGER = Ledger(
    id=key("id"),
    a=key("a"),
    b=key("b"),
    per_judgement=True,
    grader=key("who"),
    label=key("verdict"),
    a_name="alice",
    b_name=12,
)


def test_no_judgement_by_a_or_b_names_the_graders_found_and_the_nearest() -> None:
    findings = Findings()
    findings.ignored.update({"'Alice'": 3, "'12'": 2})
    findings.graders = {"'Alice'": "Alice", "'12'": "12"}
    assert str(no_judgement_error(LEDGER, findings, "case.yaml")) == (
        "case.yaml:4:9: no judgement is by a ('alice') or b (12), so the ledger would be "
        "empty; graders are compared exactly as the export holds them, and the graders found "
        "are 'Alice' (3 judgements), '12' (2 judgements); did you mean a: 'Alice' and b: '12' "
        "(text there: write it quoted, '12')?"
    )


def test_no_judgement_with_a_grader_at_all_says_where_the_path_stops() -> None:
    findings = Findings()
    findings.ignored.update({"(no grader)": 2})
    findings.ungraded = ("l.jsonl:2", {"id": "c1", "graders": "alice"})
    assert str(no_judgement_error(LEDGER, findings, "case.yaml")) == (
        "case.yaml:4:9: ledger 'grader' is 'who', which finds no grader in any of the 2 "
        "judgements, so the ledger would be empty: l.jsonl:2 has no key 'who' (it has 'id', "
        f"'graders'); {EACH}"
    )


@pytest.mark.parametrize(
    ("name", "found", "meant"),
    [
        pytest.param("7", {"7": 7}, "7 (a number there: write it unquoted, 7)", id="a-number"),
        pytest.param("alice", {"'data-alice'": "data-alice"}, "'data-alice'", id="a-name-in-it"),
        pytest.param("bobb", {"'bob'": "bob"}, "'bob'", id="the-nearest"),
        pytest.param("zed", {"'bob'": "bob"}, None, id="none-near"),
    ],
)
def test_the_grader_meant_is_suggested(
    name: object, found: dict[str, object], meant: str | None
) -> None:
    assert nearest_grader(name, found) == meant
