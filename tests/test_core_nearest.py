"""``core.nearest``: the known name nearest to a misspelt one (``did you mean``), the key of a
mapping written for a missing one, and the hints for an expected answer's misspelt keys."""

from __future__ import annotations

import itertools

import pytest

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import CUTOFF, misspelt_keys, nearest, written_for


@pytest.mark.parametrize(
    ("name", "known", "meant"),
    [
        ("ID", ("id", "a", "b"), "id"),
        ("A", ("id", "a", "b"), "a"),
        ("Title", ("title", "source"), "title"),
        ("titel", ("title", "source"), "title"),
        ("id", ("id", "ID"), "id"),  # the name itself, when known
        ("note", ("id", "a", "b"), None),
    ],
    ids=["upper-id", "upper-a", "capitalised", "transposed", "itself", "unrelated"],
)
def test_the_nearest_name_counts_a_difference_of_case_as_nearest(
    name: str, known: tuple[str, ...], meant: str | None
) -> None:
    assert nearest(name, known) == meant


def test_the_key_written_for_a_missing_one_is_none_of_the_known_keys() -> None:
    assert written_for("a", ["id", "A", "b"], ("id", "a", "b")) == "A"
    assert written_for("a", ["id", "b", "note"], ("id", "a", "b")) is None
    assert written_for("a", [1, None, ("a",)], ("id", "a", "b")) is None


def test_a_name_close_enough_is_found_and_a_name_too_far_is_not() -> None:
    assert CUTOFF == 0.6
    assert nearest("abcde", ["abcxy"]) == "abcxy"  # difflib's ratio 0.6: just close enough
    assert nearest("abcd", ["abxy"]) is None  # 0.5
    assert nearest("zzz", ["expectedPass", "expectedReasons", "coherent"]) is None
    assert nearest("anything", []) is None


def test_the_nearest_of_several_is_the_most_alike() -> None:
    known = ["expectedPass", "expectedReasons", "coherent"]
    assert nearest("expectedReason", known) == "expectedReasons"
    assert nearest("expectedPas", known) == "expectedPass"
    assert nearest("coherant", known) == "coherent"


@pytest.mark.parametrize(
    ("name", "known", "meant"),
    [
        ("cat", ("bat", "hat"), "hat"),  # equally alike: the last in order, as difflib ranks
        ("Id", ("ID", "id"), "ID"),  # the same but for case, twice: the first in order
        ("ID", ("Id", "iD", "id"), "Id"),
    ],
)
def test_a_tie_is_broken_by_the_names_alone_never_by_the_order_given(
    name: str, known: tuple[str, ...], meant: str
) -> None:
    for order in itertools.permutations(known):
        assert nearest(name, order) == meant
        assert nearest(name, iter(order)) == meant  # any iterable, read once


def test_a_difference_of_case_beats_any_likeness_of_letters() -> None:
    assert nearest("TOTAL", ["totals", "total"]) == "total"  # alike neither, for difflib
    assert nearest("Totl", ["Total", "totl"]) == "totl"  # "Total" is alike, but less so
    assert nearest("Ümlaut", ["ümlaut"]) == "ümlaut"
    assert nearest("STRASSE", ["straße"]) == "straße"  # folded, ß is ss


@pytest.mark.parametrize("length", [60, 120, 199])
def test_a_slip_in_a_long_name_is_found_wherever_it_is(length: int) -> None:
    # From 200 characters difflib drops a sequence's common characters (its autojunk
    # heuristic) and a slip before the end is no longer found: keys are rarely that long.
    name = (("responses.users." + "second_grader_label.") * 10)[:length]
    for at in (0, length // 2, length - 2):
        slip = name[:at] + name[at + 1] + name[at] + name[at + 2 :]
        assert nearest(slip, [name, "responses", "users"]) == name


def test_the_key_written_for_a_missing_one_is_the_first_nearest_to_it() -> None:
    assert written_for("title", ["titel", "Title"], ("title", "source")) == "titel"
    assert written_for("title", ["Title", "titel"], ("title", "source")) == "Title"
    # A known key was written for itself, and a key nearer another known key for that one.
    assert written_for("title", ["source", "sourc"], ("title", "source")) is None


def test_an_expected_key_the_answer_lacks_is_hinted_with_the_key_meant() -> None:
    assert misspelt_keys(
        {"expectedReason": [], "coherent": True},
        {"expectedReasons": [], "coherent": True},
        None,
        "reason's answers",
    ) == ["'expectedReason' is not a key of reason's answers; did you mean 'expectedReasons'?"]


def test_the_schema_knows_keys_at_every_level_the_answer_lacks() -> None:
    schema: dict[str, JSON] = {
        "properties": {"matrix": {"properties": {"bothPass": {}, "aOnly": {}}}}
    }
    assert misspelt_keys(
        {"matrix": {"bothpass": 1, "aOnly": 0}, "total": 1},
        {"error": "review-label"},
        schema,
        "agreement's answers",
    ) == ["matrix.'bothpass' is not a key of agreement's answers; did you mean matrix.'bothPass'?"]
    # The answer's own keys are known as deep as it goes, with or without a schema.
    assert misspelt_keys(
        {"a": {"b": {"cc": 1}}}, {"a": {"b": {"c": 1}}}, None, "echo's answers"
    ) == ["a.b.'cc' is not a key of echo's answers; did you mean a.b.'c'?"]


def test_no_hint_where_nothing_is_misspelt_or_nothing_is_near() -> None:
    assert misspelt_keys({"total": 1}, {"total": 2}, None, "w") == []
    assert misspelt_keys({"zzz": 1}, {"total": 1}, None, "w") == []
    assert misspelt_keys([1, 2], {"total": 1}, None, "w") == []
    # A known key the expected answer also names was not misspelt as another.
    assert misspelt_keys({"totl": 1, "total": 1}, {"total": 1}, None, "w") == []


def test_a_hint_shows_control_characters_escaped() -> None:
    assert misspelt_keys({"tot\x1bal": 1}, {"total": 1}, None, "w") == [
        "'tot\\x1bal' is not a key of w; did you mean 'total'?"
    ]
