"""The strict loader against the YAML test suite (``tests/yaml_test_suite``).

Every document of the suite is either read to the very value the specification
gives it, or refused with a reason; no document is read to another value, and no
document the suite calls invalid is taken. A valid document that case files do
not take is never called invalid YAML.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from typing import Any

import pytest
from yaml_test_suite.suite import documents, judge

from pytest_rubric.casefiles import yamlstrict
from pytest_rubric.core.compare import json_equal

SUITE = documents()


def strict_reader(text: str) -> list[Any] | str:
    """The strict loader as the suite's judge reads: its documents, or its refusal."""
    message = refusal(text)
    if message:
        return message
    loaded = yamlstrict.load(text)
    return [] if loaded.empty else [loaded.value]


def refusal(text: str) -> str:
    """Everything the strict loader refuses in ``text``, as ``line:col: message``."""
    try:
        loaded = yamlstrict.load(text)
    except yamlstrict.StrictYAMLError as exc:
        return str(exc)
    return "; ".join(f"{p.line}:{p.col}: {p.message}" for p in loaded.problems)


def outcome(document: dict[str, Any]) -> tuple[str, str]:
    return judge(document, strict_reader)


@pytest.mark.parametrize("document", SUITE, ids=[d["id"] for d in SUITE])
def test_every_document_is_read_exactly_or_refused_with_a_reason(document: dict[str, Any]) -> None:
    kind, detail = outcome(document)
    assert kind in ("equal", "refused"), detail
    if kind == "refused" and not document["fail"]:
        # Valid YAML 1.2 that case files do not take: said so, never "invalid YAML".
        assert "invalid YAML" not in detail, detail


def test_the_tally_over_the_whole_suite(capsys: pytest.CaptureFixture[str]) -> None:
    tally = Counter(outcome(document)[0] for document in SUITE)
    valid = sum(not document["fail"] for document in SUITE)
    with capsys.disabled():
        print(
            f"\nyaml-test-suite, {len(SUITE)} documents ({valid} valid): "
            f"{tally['equal']} equal, {tally['refused']} refused with a reason, "
            f"{tally['wrong']} wrong, {tally['accepted-invalid']} invalid accepted"
        )
    assert tally["wrong"] == tally["accepted-invalid"] == 0
    assert len(SUITE) == 402
    assert tally["equal"] >= 177  # what the loader reads today; it may only grow


# Each class of document that the parser read differently from YAML 1.2, as a case
# file would hold it: (what, text, the message).
CLASSES = [
    (
        "question-mark-starts-flow-text",
        "k: {?foo: bar}\n",
        "1:5: '?foo' in a flow collection is text in YAML 1.2 and an explicit key to older "
        "readers; quote it ('\"?foo\"') for the text, or write '? ' with a space for a key",
    ),
    (
        "question-mark-in-flow-list",
        "k: [a, ?x]\n",
        "1:8: '?x' in a flow collection is text in YAML 1.2 and an explicit key to older "
        "readers; quote it ('\"?x\"') for the text, or write '? ' with a space for a key",
    ),
    (
        "hash-touching-quote",
        'k: "value"# c\n',
        "1:11: '#' touches the text before it, so no comment starts here and YAML reads no "
        "value; put a space before '#' to start a comment, or quote the value that holds '#'",
    ),
    ("hash-touching-bracket", "k: [a, b]#c\n", "1:10: '#' touches the text before it*"),
    ("hash-touching-comma", "k: [a,#c\n  b]\n", "1:7: '#' touches the text before it*"),
    ("hash-touching-block-header", "k: >#c\n  text\n", "1:5: '#' touches the text before it*"),
    (
        "hash-touching-directive",
        "%YAML 1.1#x\n---\nk: v\n",
        "1:10: '#' touches the text before it*",
    ),
    (
        "quoted-scalar-under-indented",
        'k: "a\nb"\n',
        "2:1: this line goes on with the value begun on line 1 but is indented 0 of the "
        "1 space its block needs; indent it at least 1 space",
    ),
    (
        "flow-list-under-indented",
        "top:\n  k: [a,\n   b,\n  ]\n",
        "4:1: this line goes on with the value begun on line 2 but is indented 2 of the "
        "3 spaces its block needs; indent its closing bracket at least 3 spaces",
    ),
    (
        "tab-as-indentation-in-quoted",
        'k: "a\n\tb"\n',
        "2:1: this line goes on with the value begun on line 1, indented with a tab; indent "
        "it with spaces, at least 1 space",
    ),
    (
        "lone-dash-in-flow",
        "k: [-]\n",
        "1:5: a lone '-' in a flow collection is not text in YAML 1.2 (it can only start a "
        "block list item); quote it ('\"-\"') for the text",
    ),
    (
        "block-scalar-wide-blank-line",
        "k: >\n \n   \n # c\n",
        "3:2: this blank line holds 3 spaces, more than the 1 that start the block scalar's "
        "first line of text (line 4); remove the spaces past 1 from the blank lines above "
        "that line",
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"), [c[1:] for c in CLASSES], ids=[c[0] for c in CLASSES]
)
def test_what_the_parser_reads_otherwise_is_refused_at_its_place(text: str, expected: str) -> None:
    got = refusal(text)
    if expected.endswith("*"):
        assert got.startswith(expected[:-1]), got
    else:
        assert got == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("k: |\n  x\n   ", {"k": "x\n \n"}),  # a last line of spaces, no line break after it
        ("- |+\n   ", ["\n"]),
        ("k: [a?b, 'c?']\n", {"k": ["a?b", "c?"]}),
        ("k: {? a: b}\n", {"k": {"a": "b"}}),
        ('k: "a\n  b"\n', {"k": "a b"}),
        (
            "k: [a, b] # c\nurl: http://x/#y\nc: C#\n",
            {"k": ["a", "b"], "url": "http://x/#y", "c": "C#"},
        ),
        ("k: [-a, '-']\n", {"k": ["-a", "-"]}),
        ("k: >\n  \n  x\n", {"k": "\nx\n"}),
        # A comment line may start anywhere, in a flow collection too (an editor's
        # "comment out" puts '#' at the first column).
        (
            "cases: [\n  {id: a},\n# {id: b},\n  {id: c}\n  ]\n",
            {"cases": [{"id": "a"}, {"id": "c"}]},
        ),
    ],
)
def test_what_reads_the_same_in_yaml_1_2_still_loads(text: str, value: Any) -> None:
    loaded = yamlstrict.load(text)
    assert loaded.problems == ()
    assert json_equal(loaded.value, value), loaded.value


# Valid YAML 1.2 that case files do not take: each said so, with what to write instead.
UNSUPPORTED = [
    ("tab-indents", "k:\n \tv: 1\n", "2:2: a tab indents this line: case files take no tabs*"),
    ("tab-between", "- a:\t b\n- -\tc\n", "2:4: a tab is here: case files take no tabs*"),
    (
        "directive",
        "%FOO bar\n---\nk: v\n",
        "1:5: a line that starts with '%' is a directive (%FOO)*",
    ),
    (
        "yaml-version",
        "%YAML 1.3\n---\nk: v\n",
        "1:1: case files are read as YAML 1.2, and '%YAML 1.3'*",
    ),
    (
        "document-end",
        "k: v\n...\nx: 1\n",
        "*the document end marker '...' (line 2) is not supported in case files*",
    ),
    ("empty-key", "k: v\n: w\n", "2:1: a ':' at the start of a line (an empty key*"),
    ("colon-text-in-flow", "k: [:x]\n", "1:5: a ':' with no key before it*"),
    ("empty-flow-value", "k: {a:, b: 1}\n", "*a key with no value in a flow collection*"),
    (
        "key-spanning-lines",
        "k: {multi\n  line: v}\n",
        "2:7: a key that spans lines is not supported*",
    ),
    ("odd-anchor", "k: &a: v\n", "*anchor &a: is refused: case files do not share values*"),
    ("block-on-marker", "--- >\nline1\n", "2:1: a value begun on the '---' line (line 1)*"),
    ("question-value", "k: {id: ?b}\n", "1:9: '?b' in a flow collection is text in YAML 1.2*"),
]


@pytest.mark.parametrize(
    ("text", "expected"), [c[1:] for c in UNSUPPORTED], ids=[c[0] for c in UNSUPPORTED]
)
def test_valid_yaml_that_case_files_do_not_take_is_never_called_invalid(
    text: str, expected: str
) -> None:
    got = refusal(text)
    assert "invalid YAML" not in got
    assert "not supported in case files" in got or "case files" in got
    assert fnmatch.fnmatchcase(got, expected), got


def test_a_touching_comment_in_a_case_file_is_that_cases_problem(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        c="""\
evaluator: reason
cases:
  - id: good
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
  - id: touching
    description: "a note"# not a comment
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
""",
    )
    result = pytester.runpytest("-p", "no:randomly", "-p", "no:xdist")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*c.rubric.yaml:7:26: '#' touches the text before it*"])
