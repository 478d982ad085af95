"""The Markdown of a run and of a comparison (reports/markdown.py, mdchanges.py, mdledgers.py,
mdfit.py, mdtext.py), rendered by cmark-gfm, GitHub's own renderer: what it shows, how it
fits a size, and that data never becomes Markdown."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from hypothesis import given
from hypothesis import strategies as st

from pytest_rubric.reports.diff import Comparison
from pytest_rubric.reports.jsonreport import document
from pytest_rubric.reports.markdown import DEFAULT_LIMIT, run_markdown
from pytest_rubric.reports.mdchanges import diff_markdown
from pytest_rubric.reports.mdtext import code, marker_problem
from pytest_rubric.reports.sealing import sealed

MARKER = "<!-- pytest-rubric -->\n"


def html(markdown: str) -> str:
    """``markdown`` as GitHub renders it, raw HTML let through (GitHub's sanitiser keeps
    many tags, so none may come from data at all)."""
    rendered: str = cmarkgfm.github_flavored_markdown_to_html(
        markdown, options=Options.CMARK_OPT_UNSAFE
    )
    return rendered


class _Shape(HTMLParser):
    """The tags of a page with their attributes, the comments, and its text outside code."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple[tuple[str, str | None], ...]]] = []
        self.comments: list[str] = []
        self.outside: list[str] = []
        self.inside = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, tuple(attrs)))
        self.inside += tag == "code"

    def handle_endtag(self, tag: str) -> None:
        self.tags.append((f"/{tag}", ()))
        self.inside -= tag == "code"

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def handle_data(self, data: str) -> None:
        if not self.inside:
            self.outside.append(data)


def shape(markdown: str) -> _Shape:
    parser = _Shape()
    parser.feed(html(markdown))
    parser.close()
    return parser


def record(number: int, outcome: str = "matched", **fields: Any) -> dict[str, Any]:
    case = fields.pop("case", f"case-{number}")
    file = fields.pop("file", "rubrics/a.rubric.yaml")
    return {
        "nodeid": fields.pop("nodeid", f"{file}::{case}"),
        "case": case,
        "file": file,
        "line": number + 1,
        "index": number,
        "evaluator": fields.pop("evaluator", "reason"),
        "outcome": outcome,
        **fields,
    }


def ledger_record(number: int, ids: list[str], **fields: Any) -> dict[str, Any]:
    graders = fields.pop("graders", {"a": "judge", "b": "editor"})
    review: dict[str, Any] = {"rows": [], "more": 0, "graders": graders}
    if "groups" in fields:
        review["groupBy"] = fields.pop("group_by", "desk")
        review["groups"] = fields.pop("groups")
    answer = {
        "matrix": {"bothPass": 3, "bothFail": 1, "aOnly": len(ids), "bOnly": 0},
        "agreement": 4,
        "total": 4 + len(ids),
        "disagreements": ids,
    }
    return record(number, evaluator="agreement", actual=answer, review=review, **fields)


def report(records: list[Any]) -> dict[str, Any]:
    return document(records, 0, "test", suite=None, shard=None)


def group(label: object, ids: list[str]) -> dict[str, Any]:
    return {
        "label": label,
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": len(ids), "bOnly": 0},
        "agreement": 1,
        "total": 1 + len(ids),
        "disagreements": ids,
    }


def a_run() -> dict[str, Any]:
    return report(
        [
            record(0),
            record(1, "mismatched", differingKeys=["result", "reasons"]),
            record(2, "case-error", problems=["the input file is missing"]),
            record(3, "skipped", reason="re-labelling"),
            ledger_record(4, ["hl-2", "hl-7"], groups=[group("sport", ["hl-2", "hl-7"])]),
            record(5, dataset={"case": "judge", "row": "rows.jsonl:1"}, case="judge[r1]"),
            record(6, "mismatched", dataset={"case": "judge", "row": "rows.jsonl:2"}),
        ]
    )


# -- what a run's Markdown says -----------------------------------------------------------


def test_the_marker_is_first_then_the_verdict_then_the_counts() -> None:
    text = run_markdown(a_run(), marker_name="pytest-rubric")
    lines = text.splitlines()
    assert lines[0] == "<!-- pytest-rubric -->"
    assert lines[1] == (
        "**pytest-rubric failed**: 7 cases, 3 matched, 2 mismatched, 1 case error, 1 skipped"
    )
    assert "| `reason` | 6 | 2 | 2 | 1 | 1 |" in lines
    assert "| `agreement` | 1 | 1 | 0 | 0 | 0 |" in lines


def test_every_list_of_the_run_is_rendered_with_its_entries() -> None:
    text = run_markdown(a_run(), marker_name="nightly")
    assert text.startswith("<!-- nightly -->\n")
    assert "- `case-1` at `rubrics/a.rubric.yaml:2`: differs in `result`, `reasons`\n" in text
    assert "- `case-2` at `rubrics/a.rubric.yaml:3`: `the input file is missing`\n" in text
    assert "- `case-6` at `rows.jsonl:2`\n" in text  # a dataset's row: where the row is
    assert "- `case-3` at `rubrics/a.rubric.yaml:4`, skipped: `re-labelling`\n" in text
    assert "Agreement 4/6. Disagreements (2): `hl-2`, `hl-7`\n" in text
    assert '| `"sport"` | 1 | 0 | 2 | 0 | 1/3 | 2 |' in text
    assert "| `judge` | `rubrics/a.rubric.yaml` | 2 | 1 | 1 | 0 |" in text
    rendered = html(text)
    for heading in ("Mismatches (2)", "Case errors (1)", "Ledgers (1)", "Datasets (1)"):
        assert f"<h3>{heading}</h3>" in rendered
    assert rendered.count("<table>") == 4  # the counts, the matrix, its groups, the datasets


def test_a_run_that_passed_and_one_that_ran_nothing_say_so() -> None:
    passed = run_markdown(report([record(0), record(1, "xfailed")]), marker_name="m")
    assert passed.splitlines()[1] == "**pytest-rubric passed**: 2 cases, 1 matched, 1 xfailed"
    nothing = run_markdown(report([]), marker_name="m")
    assert nothing.splitlines()[1] == "**pytest-rubric: no rubric case ran**"


def test_sealed_records_give_the_document_their_whole_records_give() -> None:
    records = a_run()["cases"]
    whole = run_markdown(report(records), marker_name="m")
    assert run_markdown(report([sealed(one) for one in records]), marker_name="m") == whole


def test_a_failing_ledger_comes_before_a_matched_one() -> None:
    records = [ledger_record(0, ["x"]), ledger_record(1, ["y"], outcome="mismatched")]
    records[1]["outcome"] = "mismatched"
    text = run_markdown(report(records), marker_name="m")
    assert text.index("**`case-1`**") < text.index("**`case-0`**")


# -- the size ---------------------------------------------------------------------------


def test_a_hundred_thousand_mismatches_fit_the_limit_counted_to_the_last() -> None:
    records = [record(n, "mismatched", differingKeys=["result"]) for n in range(100_000)]
    records.append(record(100_000, "skipped", reason="later"))
    text = run_markdown(report(records), marker_name="pytest-rubric")
    assert len(text) <= DEFAULT_LIMIT
    assert text.startswith(MARKER)
    shown = text.count(": differs in `result`")
    assert f"- and {100_000 - shown:,} more\n" in text
    # failures first: the skipped case's list after them is only counted
    assert "### Skipped and xfailed (1)\n\n- and 1 more\n" in text
    found = shape(text)
    assert sum(tag == "li" for tag, _ in found.tags) == shown + 2


def test_a_million_row_ledgers_disagreements_fit_the_limit() -> None:
    ids = [f"row-{n}" for n in range(1_000_000)]
    text = run_markdown(report([ledger_record(0, ids)]), marker_name="m", limit=10_000)
    assert len(text) <= 10_000
    shown = len(re.findall(r"`row-\d+`", text))
    assert shown > 100
    assert text.rstrip().endswith(f", and {1_000_000 - shown:,} more")


@pytest.mark.parametrize("limit", [2_000, 3_000, 5_000, 20_000])
def test_every_limit_holds_and_the_verdict_and_counts_are_whole(limit: int) -> None:
    groups = [group(f"g{n}", [f"id-{n}"]) for n in range(500)]
    records = [
        *(record(n, "mismatched", differingKeys=[f"k{m}" for m in range(50)]) for n in range(300)),
        *(ledger_record(300 + n, [f"id-{m}" for m in range(400)], groups=groups) for n in range(5)),
    ]
    whole = run_markdown(report(records), marker_name="m", limit=10**9)
    text = run_markdown(report(records), marker_name="m", limit=limit)
    assert len(text) <= limit
    head = whole[: whole.index("### Mismatches")]
    assert text.startswith(head)
    assert shape(text).tags[: len(shape(head).tags)] == shape(head).tags


def test_a_ledger_too_large_for_the_room_left_is_counted_not_cut_through() -> None:
    groups = [group(f"g{n}", []) for n in range(5_000)]
    records = [ledger_record(n, ["x"], groups=groups) for n in range(3)]
    text = run_markdown(report(records), marker_name="m", limit=4_000)
    assert len(text) <= 4_000
    assert "more groups" in text  # the first ledger's table, cut
    assert text.endswith("\nand 2 more ledgers\n")


# -- the comparison -----------------------------------------------------------------------


def comparison(cases: list[dict[str, Any]], ledgers: list[dict[str, Any]]) -> Comparison:
    side = {
        "report": "old.json",
        "pytestRubric": "1",
        "cases": 3,
        "digest": "d",
        "collected": 3,
        "collectedOnly": 0,
    }
    kinds = [case["change"] for case in cases]
    return {
        "format": "pytest-rubric-diff",
        "version": 1,
        "old": side,  # type: ignore[typeddict-item]
        "new": {**side, "report": "new.json"},  # type: ignore[typeddict-item]
        "sameSuite": True,
        "changed": bool(cases or ledgers),
        "summary": {
            "onlyOld": kinds.count("only-old"),
            "onlyNew": kinds.count("only-new"),
            "outcomeChanged": kinds.count("outcome"),
            "answerChanged": kinds.count("answer"),
            "ledgersChanged": len(ledgers),
            "notCompared": 0,
            "compared": 3,
        },
        "cases": cases,  # type: ignore[typeddict-item]
        "ledgers": ledgers,  # type: ignore[typeddict-item]
    }


def change(name: str, kind: str = "outcome") -> dict[str, Any]:
    before, after = {"outcome": ("matched", "mismatched"), "only-new": (None, "matched")}.get(
        kind, ("matched", "matched")
    )
    return {
        "nodeid": f"f::{name}",
        "case": name,
        "file": "f.rubric.yaml",
        "line": 3,
        "change": kind,
        "before": before,
        "after": after,
    }


def ledger_change(name: str, entered: list[str], left: list[str]) -> dict[str, Any]:
    state = {
        "matrix": {"bothPass": 1, "bothFail": 1, "aOnly": 0, "bOnly": 0},
        "agreement": 2,
        "total": 2,
    }
    moved = {
        "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0},
        "agreement": 1,
        "total": 2,
    }
    return {
        "nodeid": f"f::{name}",
        "case": name,
        "file": "f.rubric.yaml",
        "line": 9,
        "before": state,
        "after": moved,
        "entered": [{"id": one, "where": f"l.jsonl:{n}"} for n, one in enumerate(entered)],
        "left": [{"id": one, "where": None} for one in left],
    }


def test_diff_markdown_says_the_counts_then_each_change() -> None:
    text = diff_markdown(
        comparison(
            [change("w49"), change("w50", "only-new")], [ledger_change("w49", ["a"], ["b"])]
        ),
        limit=DEFAULT_LIMIT,
        marker_name="pytest-rubric",
    )
    assert text.splitlines()[:2] == [
        "<!-- pytest-rubric -->",
        "**pytest-rubric diff: 1 case changed outcome, 1 only in new, 1 ledger changed** "
        "(`old.json` → `new.json`)",
    ]
    assert "- `w49` at `f.rubric.yaml:3`: matched → mismatched\n" in text
    assert "- `w50` at `f.rubric.yaml:3`: matched\n" in text
    assert (
        "- `w49` at `f.rubric.yaml:9`: agreement 2/2 → 1/2; bothFail 1 → 0, aOnly 0 → 1; "
        "entered `a` (`l.jsonl:0`); left `b`\n"
    ) in text


def test_diff_markdown_of_a_million_ids_and_100000_cases_holds_the_limit() -> None:
    ids = [f"id-{n}" for n in range(1_000_000)]
    cases = [change(f"c{n}") for n in range(100_000)]
    text = diff_markdown(
        comparison(cases, [ledger_change("big", ids, ids)]), limit=DEFAULT_LIMIT, marker_name="m"
    )
    assert len(text) <= DEFAULT_LIMIT
    shown = text.count(": matched → mismatched")
    assert f"- and {100_000 - shown:,} more\n" in text
    assert "**Ledgers changed (1)**\n\n- and 1 more\n" in text
    small = diff_markdown(
        comparison([], [ledger_change("big", ids, ids)]), limit=5_000, marker_name="m"
    )
    assert len(small) <= 5_000
    assert re.search(
        r"; entered `id-0` .*, and [\d,]+ more; left `id-0`, .*, and [\d,]+ more\n", small
    )


# -- data never becomes Markdown ----------------------------------------------------------

HOSTILE = [
    "[click](https://evil.example)",
    "![x](https://evil.example/x.png)",
    "<img src=x onerror=alert(1)>",
    "<details><summary>s</summary>",
    "@team",
    "@org/team",
    "#123",
    "GH-12",
    "a" * 40,
    "0123456789abcdef0123456789abcdef01234567",
    "www.evil.example",
    "https://evil.example",
    "x@y.example",
    "|",
    "\\|",
    "`",
    "``",
    "```",
    "~~~",
    "\n# heading\n",
    "\n- item",
    "\n---\n",
    "\n|a|b|\n|-|-|\n",
    "*em*",
    "**strong**",
    "_u_",
    "~~s~~",
    "<!--",
    "-->",
    "&lt;b&gt;",
    "&#60;b&#62;",
    "\\",
    "\r",
    "\t",
    " ",
    "\x1b[31m",
    "\x00",
    "\u202e",
    "\u2028",
    "\ud800",
    "\udfff",
    ":+1:",
    "[^1]",
    "[ ]",
    "> quote",
    "    indented",
    "a",
    "",
]
hostile = st.lists(st.sampled_from(HOSTILE), max_size=6).map("".join)


def _hostile_run(text: list[str]) -> dict[str, Any]:
    """A run whose every value from data is one of ``text`` (in turn)."""
    it = iter(text)

    def nxt() -> str:
        return next(it)

    records = [
        record(
            0,
            "mismatched",
            case=nxt(),
            file=nxt(),
            evaluator=nxt(),
            differingKeys=[nxt(), nxt()],
        ),
        record(1, "case-error", case=nxt(), problems=[nxt()]),
        record(2, "skipped", case=nxt(), reason=nxt()),
        record(3, dataset={"case": nxt(), "row": nxt()}, case=nxt()),
        ledger_record(
            4,
            [nxt(), nxt()],
            case=nxt(),
            graders={"a": nxt(), "b": nxt()},
            group_by=nxt(),
            groups=[group(nxt(), []), group(nxt(), [])],
        ),
    ]
    return report(records)


_VALUES = 21


def _benign(values: list[str]) -> list[str]:
    return [f"v{n}" if value else "" for n, value in enumerate(values)]


def _same_shape(hostile_text: str, benign_text: str) -> None:
    found, expected = shape(hostile_text), shape(benign_text)
    assert found.tags == expected.tags
    assert found.comments == expected.comments
    # the same text outside code, in any order (evaluators are listed sorted by name)
    assert sorted(found.outside) == sorted(expected.outside)
    assert not any(
        tag in ("a", "img", "h1", "h2", "pre", "hr", "blockquote") for tag, _ in found.tags
    )


@given(st.lists(hostile, min_size=_VALUES, max_size=_VALUES))
def test_hostile_values_in_a_run_render_as_text_in_code_only(values: list[str]) -> None:
    hostile_text = run_markdown(_hostile_run(values), marker_name="m", limit=10**9)
    benign_text = run_markdown(_hostile_run(_benign(values)), marker_name="m", limit=10**9)
    _same_shape(hostile_text, benign_text)
    hostile_text.encode("utf-8")  # lone surrogates are escapes


@given(st.lists(hostile, min_size=12, max_size=12))
def test_hostile_values_in_a_comparison_render_as_text_in_code_only(values: list[str]) -> None:
    def made(text: list[str]) -> str:
        cases = [
            {**change("x"), "case": text[0], "file": text[1]},
            {
                **change("y", "only-new"),
                "case": text[2],
                "dataset": {"case": text[3], "row": text[4]},
            },
        ]
        ledger = {**ledger_change(text[5], [text[6]], [text[7]]), "file": text[8]}
        ledger["entered"][0]["where"] = text[9] or None
        found = comparison(cases, [ledger])
        found["old"]["report"], found["new"]["report"] = text[10], text[11]
        return diff_markdown(found, limit=10**9, marker_name="m")

    _same_shape(made(values), made(_benign(values)))


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("a|b", "a|b"),
        ("`x`", "`x`"),
        (" padded ", " padded "),
        ("line\nbreak", "line\\nbreak"),
        ("\x1b[31m", "\\x1b[31m"),
        ("\ud800", "\\ud800"),
        ("\u202e", "\\u202e"),
        ("back\\slash", "back\\slash"),
        ("  ", "  "),
    ],
)
def test_a_value_reads_back_as_the_terminal_shows_it(value: str, shown: str) -> None:
    rendered = html(f"| h |\n|---|\n| {code(value, cell=True)} |\n\n{code(value)}\n")
    texts = re.findall(r"<code>(.*?)</code>", rendered, re.S)
    unescaped = [
        text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
        for text in texts
    ]
    assert unescaped == [shown, shown]


def test_an_empty_value_and_a_long_one_are_shown_as_such() -> None:
    assert code("") == "*(empty)*"
    assert code("x" * 1000) == f"`{'x' * 199}…`"


@pytest.mark.parametrize("name", ["pytest-rubric", "nightly", "a", "eval.v2:main/x"])
def test_a_marker_name_is_letters_digits_and_a_few_marks(name: str) -> None:
    assert marker_problem(name) is None


@pytest.mark.parametrize("name", ["", "a--b", "a>b", "-x", "x" * 101, "a b", "é"])
def test_a_marker_name_that_could_end_the_comment_is_refused(name: str) -> None:
    assert marker_problem(name) is not None
