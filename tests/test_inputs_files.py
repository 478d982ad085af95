"""``input_file:``: ledgers in .jsonl and .csv, whole inputs in .json, read beside the case file."""

from __future__ import annotations

import csv
import io
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from _inputs import input_file_at
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_rubric import RubricInputError, evaluate_agreement
from pytest_rubric.evaluators import agreement
from pytest_rubric.evaluators.agreement import tally_rows
from pytest_rubric.inputs import textfiles
from pytest_rubric.inputs.rows import FileRows
from pytest_rubric.inputs.wholejson import read_json


def file_rows(path: Path, display: str | None = None) -> FileRows:
    """A ledger file's rows, read as its name says."""
    return FileRows(input_file_at(path, display))


MATRIX_3 = (
    "{matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}, agreement: 2, total: 3, "
    "disagreements: [hl-2]}"
)


def case_file(input_file: str, expected: str = MATRIX_3, evaluator: str = "agreement") -> str:
    return (
        f"evaluator: {evaluator}\ncases:\n  - id: from-file\n    input_file: {input_file}\n"
        f"    expected: {expected}\n"
    )


def jsonl(*rows: Any) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)


ROWS = [
    {"id": "hl-1", "a": True, "b": True},
    {"id": "hl-2", "a": True, "b": False},
    {"id": "hl-3", "a": False, "b": False},
]


def test_a_jsonl_ledger_is_evaluated_like_inline_rows(pytester: pytest.Pytester) -> None:
    (pytester.path / "ledgers").mkdir()
    (pytester.path / "ledgers/week.jsonl").write_text(jsonl(*ROWS))
    pytester.makefile(".rubric.yaml", c=case_file("ledgers/week.jsonl"))
    pytester.runpytest("-v").assert_outcomes(passed=1)


def test_a_csv_ledger_has_booleans_only_in_true_and_false_cells(pytester: pytest.Pytester) -> None:
    (pytester.path / "week.csv").write_text(
        "id,a,b\nhl-1,true,true\nhl-2,true,false\nhl-3,false,false\n"
    )
    (pytester.path / "odd.csv").write_text('b,id,a\ntrue,"hl, 1",true\nTRUE,hl-2,true\n')
    (pytester.path / "empty-cell.csv").write_text("id,a,b\nhl-1,true,\n")
    pytester.makefile(".rubric.yaml", c=case_file("week.csv"))
    pytester.makefile(".rubric.yaml", odd=case_file("odd.csv", "{error: review-label}"))
    pytester.makefile(".rubric.yaml", empty=case_file("empty-cell.csv", "{error: review-label}"))
    result = pytester.runpytest()
    result.assert_outcomes(passed=3)


def test_a_json_file_gives_the_whole_input(pytester: pytest.Pytester) -> None:
    record = {
        "fields": {"title": False, "source": True},
        "pass": False,
        "reasons": ["all-required-met"],
    }
    (pytester.path / "record.json").write_text(json.dumps(record))
    expected = "{expectedPass: false, expectedReasons: [missing-title], coherent: false}"
    pytester.makefile(".rubric.yaml", c=case_file("record.json", expected, evaluator="reason"))
    pytester.runpytest().assert_outcomes(passed=1)


def test_a_csv_cell_in_other_casing_gets_a_fix_that_says_nothing_of_quotes(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "week.csv").write_text("id,a,b\nhl-1,true,TRUE\n")
    pytester.makefile(".rubric.yaml", c=case_file("week.csv"))
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "  invalid input: week.csv:2 rows[[]0].b (id 'hl-1') is \"TRUE\" (a string), not a "
            "boolean; write true: only true and false, in lowercase and with nothing around "
            "them, are booleans (unquoted in YAML and JSON)"
        ]
    )
    result.stdout.no_fnmatch_line("*without quotes*")


def test_a_label_problem_in_a_ledger_file_names_the_file_and_line(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "week.jsonl").write_text(
        jsonl(*ROWS[:2], {"id": "hl-3", "a": "true", "b": False})
    )
    pytester.makefile(".rubric.yaml", c=case_file("week.jsonl"))
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "  invalid input: week.jsonl:3 rows[2].a (id 'hl-3') is \"true\" (a string), not a boolean; "
            "write true without quotes"
        ]
    )


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            "bad.jsonl",
            jsonl(*ROWS[:1]) + '{"id": "hl-2", "a": tru}\n',
            "bad.jsonl:2:*: invalid JSON: Expecting value; every line of a .jsonl ledger is one JSON object",
        ),
        (
            "blank.jsonl",
            jsonl(*ROWS[:1]) + "\n" + jsonl(*ROWS[1:2]),
            "blank.jsonl:2: a blank line; *",
        ),
        (
            "dup.jsonl",
            '{"id": "A", "a": true, "a": false, "b": true}\n',
            "dup.jsonl:1: duplicate key 'a'; keep one of them",
        ),
        (
            "nan.jsonl",
            '{"id": "A", "a": NaN, "b": true}\n',
            "nan.jsonl:1: NaN is not JSON; write a number or a string",
        ),
        (
            "header.csv",
            "case,a,b\nA,true,true\n",
            "header.csv:1: the header must name the columns id, a and b (found 'case,a,b'); "
            "write 'id,a,b' on the first line, or say which columns hold them under 'ledger:' "
            "(e.g. 'ledger: {id: task_id, a: judge_label, b: editor_label}')",
        ),
        (
            "short.csv",
            "id,a,b\nA,true,true\nB,true\n",
            "short.csv:3: 2 cells where the header has 3 (id,a,b); quote a cell that holds a comma",
        ),
        (
            "trailing-blank.csv",
            "id,a,b\nA,true,true\n\n",
            "trailing-blank.csv:3: the line is empty; every line of a .csv ledger after its "
            "header is one row (id,a,b): delete it",
        ),
        (
            "spaces.csv",
            "id,a,b\nA,true,true\n   \nB,true,false\n",
            "spaces.csv:3: the line is empty; *",
        ),
        (
            "list.json",
            "[1, 2]",
            "list.json: the file must hold one JSON object (the evaluator's input), not list",
        ),
        # The column and wording of a JSON syntax error are CPython's and change between versions
        # (3.12: 2:14 "Expecting property name..."; 3.13: 2:13 "Illegal trailing comma...").
        ("broken.json", '{"rows": [\n  {"id": "A",}\n]}', "broken.json:2:*: invalid JSON: *"),
    ],
)
def test_a_malformed_input_file_fails_its_case_naming_file_and_line(
    pytester: pytest.Pytester, name: str, content: str, message: str
) -> None:
    (pytester.path / name).write_text(content)
    pytester.makefile(".rubric.yaml", c=case_file(name))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "c.rubric.yaml:3: 'from-file' cannot be evaluated",
            f"  the input is not usable: {message}",
        ],
        consecutive=True,
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "../outside.jsonl",
            "input_file '../outside.jsonl' leads outside the repository (*); keep ledgers inside it *",
        ),
        (
            "/etc/ledger.jsonl",
            "input_file '/etc/ledger.jsonl' is an absolute path; write it relative to the case file",
        ),
        (
            "missing.jsonl",
            "input_file 'missing.jsonl' does not exist (repo/missing.jsonl); check the path",
        ),
        (
            "ledger.txt",
            "input_file 'ledger.txt' must end in .json or .json.gz (the whole input), .jsonl, "
            ".csv, .tsv, .jsonl.gz, .csv.gz, .tsv.gz, .parquet, .xlsx or .eval (ledger rows)",
        ),
    ],
)
def test_an_input_file_that_cannot_be_used_is_a_case_error(
    pytester: pytest.Pytester, value: str, message: str
) -> None:
    (pytester.path / "outside.jsonl").write_text(jsonl(*ROWS))
    repo = pytester.path / "repo"
    repo.mkdir()
    (repo / "pytest.ini").write_text("[pytest]\n")
    (repo / "ledger.txt").write_text("id,a,b\n")
    (repo / "c.rubric.yaml").write_text(case_file(value))
    result = pytester.runpytest("repo")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"  repo/c.rubric.yaml:4:17: {message}"])


def test_input_and_input_file_together_are_refused(pytester: pytest.Pytester) -> None:
    (pytester.path / "w.jsonl").write_text(jsonl(*ROWS))
    pytester.makefile(
        ".rubric.yaml",
        c="evaluator: agreement\ncases:\n  - id: both\n    input: {rows: []}\n    input_file: w.jsonl\n"
        "    expected: {}\n",
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        ["  c.rubric.yaml:5:5: the case has both 'input' and 'input_file'; keep one of them"]
    )


def test_the_report_names_the_input_file_instead_of_copying_the_ledger(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "week.jsonl").write_text(jsonl(*ROWS))
    pytester.makefile(".rubric.yaml", c=case_file("week.jsonl"))
    pytester.runpytest("--rubric-report=r.json").assert_outcomes(passed=1)
    (record,) = json.loads((pytester.path / "r.json").read_text())["cases"]
    assert record["inputFile"] == "week.jsonl"
    assert "input" not in record
    assert record["actual"]["disagreements"] == ["hl-2"]


def test_an_identity_problem_after_a_label_problem_still_wins_when_streaming(
    tmp_path: Path,
) -> None:
    path = tmp_path / "l.jsonl"
    path.write_text(
        jsonl(
            {"id": "A", "a": "yes", "b": True},
            {"id": "B", "a": True, "b": True},
            {"id": "A", "a": True, "b": True},
        )
    )
    reader = file_rows(path, "l.jsonl")
    answer, evidence = tally_rows(reader, reader.where)
    assert answer == {"error": "review-case-identity"}
    assert evidence.problem == "l.jsonl:3 rows[2].id 'A' repeats rows[0].id"


def test_reading_stops_at_the_first_identity_problem(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    path.write_text(
        jsonl({"id": "A", "a": True, "b": True}, {"id": " ", "a": True, "b": True}) + "not json\n"
    )
    reader = file_rows(path, "l.jsonl")
    assert tally_rows(reader, reader.where)[0] == {"error": "review-case-identity"}


def test_read_json_refuses_duplicate_keys(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"rows": [], "rows": [1]}')
    with pytest.raises(
        RubricInputError, match=r"^x\.json: duplicate key 'rows'; keep one of them$"
    ):
        read_json(path, "x.json")


ledger_rows = st.lists(
    st.fixed_dictionaries(
        {
            "id": st.sampled_from(["A", "B", "C", "D", " ", "\u3000", "e"]),
            # Strings other than "true"/"false", which a CSV cell would make booleans.
            "a": st.booleans() | st.sampled_from(["", "TRUE", "yes"]),
            "b": st.booleans() | st.sampled_from(["False", "x"]),
        }
    ),
    max_size=8,
)


@given(rows=ledger_rows)
def test_streamed_jsonl_and_csv_ledgers_answer_exactly_as_inline_rows(
    rows: list[dict[str, Any]],
) -> None:
    expected = evaluate_agreement({"rows": rows})
    lines = "".join(json.dumps(row) + "\n" for row in rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["id", "a", "b"])
    for row in rows:
        writer.writerow(
            [row["id"], *(str(row[k]).lower() if type(row[k]) is bool else row[k] for k in "ab")]
        )
    with tempfile.TemporaryDirectory() as folder:
        for suffix, content in ((".jsonl", lines), (".csv", buffer.getvalue())):
            path = Path(folder) / f"ledger{suffix}"
            path.write_text(content)
            reader = file_rows(path, path.name)
            assert tally_rows(reader, reader.where)[0] == expected


@pytest.mark.parametrize("kind", ["list", "one-shot", "jsonl", "csv"])
def test_a_repeated_id_names_where_it_was_first_given_however_rows_arrive(
    tmp_path: Path, kind: str
) -> None:
    rows = [{"id": f"r{n}", "a": n % 2 == 0, "b": True} for n in range(5)]
    rows.append({"id": "r2", "a": True, "b": True})
    where = None
    if kind == "list":
        given: Any = rows
    elif kind == "one-shot":
        given = iter(rows)
    elif kind == "jsonl":
        path = tmp_path / "l.jsonl"
        path.write_text(jsonl(*rows))
        given = file_rows(path, "l.jsonl")
        where = given.where
    else:
        path = tmp_path / "l.csv"
        body = "".join(f"{r['id']},{str(r['a']).lower()},true\n" for r in rows)
        path.write_text("id,a,b\n" + body)
        given = file_rows(path, "l.csv")
        where = given.where
    answer, evidence = tally_rows(given, where)
    assert answer == {"error": "review-case-identity"}
    place = {"jsonl": "l.jsonl:6 ", "csv": "l.csv:7 "}.get(kind, "")
    assert evidence.problem == f"{place}rows[5].id 'r2' repeats rows[2].id"


ROW_TEXT = st.one_of(
    # JSON's whitespace and others around an object, NaN and Infinity too.
    st.from_regex(r'\A[ \t\r\x0b\xa0{}\[\]":,a-c0-9.eE+NIfinty-]{0,24}\n?\Z'),
    st.dictionaries(st.sampled_from(["id", "a", "b", "x:y", "{"]), st.integers() | st.booleans())
    .map(json.dumps)
    .map(lambda text: text.replace('"b"', '"a"', 1)),
)


def assert_decoded_alike(text: str) -> None:
    """``decode_row`` gives what the checking decoder gives for ``text``: the same value, or
    the same error."""
    from pytest_rubric.core.jsondecode import DECODER as _DECODER
    from pytest_rubric.core.jsondecode import decode_row as _decode_row

    def outcome(decode: Any) -> object:
        try:
            return ("value", decode(text))
        except (ValueError, RecursionError) as exc:
            return ("error", type(exc), str(exc))

    assert outcome(_decode_row) == outcome(_DECODER.decode)


@given(ROW_TEXT)
def test_a_jsonl_row_decodes_as_the_checking_decoder_decodes_it(text: str) -> None:
    assert_decoded_alike(text)


_KEY_TEXTS = ['"a"', '"b"', '"x:y"', '"\\u003a"', '":"', '"{"']
_SCALAR_TEXTS = st.sampled_from(
    ["1", "-2", "1.5", "true", "null", '"v:w"', '"\\u003a"', '"{}"', '""']
)
_NESTED = st.recursive(
    _SCALAR_TEXTS,
    lambda inner: (
        st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]")
        | st.lists(st.tuples(st.sampled_from(_KEY_TEXTS), inner), max_size=4).map(
            lambda pairs: "{" + ", ".join(f"{key}: {value}" for key, value in pairs) + "}"
        )
    ),
    max_leaves=12,
)
NESTED_ROWS = st.lists(st.tuples(st.sampled_from(_KEY_TEXTS), _NESTED), max_size=4).map(
    lambda pairs: "{" + ", ".join(f"{key}: {value}" for key, value in pairs) + "}\n"
)


@settings(max_examples=100, deadline=None)
@given(NESTED_ROWS)
def test_a_nested_jsonl_row_decodes_as_the_checking_decoder_decodes_it(text: str) -> None:
    # Keys repeated at any depth (":" written plainly and as an escape among them), colons
    # and braces inside strings: whatever the fast path takes, the checking decoder gives.
    assert_decoded_alike(text)


CSV_CELL = st.text(st.sampled_from(["r", '"', ",", "\r", "\n", " ", "é"]), min_size=1, max_size=6)


@given(
    rows=st.lists(st.tuples(CSV_CELL, st.sampled_from(["true", "false", "x"])), max_size=12),
    ending=st.sampled_from(["\n", "\r\n", "\r"]),
    quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]),
    block=st.sampled_from([1, 2, 3, 7, 16, 1 << 16]),
)
def test_a_csv_ledger_read_in_blocks_gives_the_rows_and_lines_csv_reader_gives(
    rows: list[tuple[str, str]], ending: str, quoting: int, block: int
) -> None:
    # Quoted cells with line breaks, CR, LF and CRLF endings, split anywhere between
    # blocks; a CR left unquoted breaks a row, as it does for csv.reader. Each row is
    # placed at the line it starts on: the one after the line the row before it ends on.
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator=ending, quoting=quoting)  # type: ignore[arg-type]
    writer.writerows([("id", "a", "b"), *((i, a, "true") for i, a in rows)])
    booleans = {"true": True, "false": False}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "l.csv"
        path.write_text(text.getvalue(), encoding="utf-8", newline="")
        expected: list[object] = []
        with path.open(encoding="utf-8", newline="") as stream:
            reference = csv.reader(stream, strict=True)
            next(reference)
            ended = reference.line_num
            for cells in reference:
                start, ended = ended + 1, reference.line_num
                if len(cells) != 3 and not "".join(cells).strip():
                    expected.append(
                        f"l.csv:{start}: the line is empty; every line of a .csv "
                        "ledger after its header is one row (id,a,b): delete it"
                    )
                    break
                if len(cells) != 3:
                    expected.append(f"l.csv:{start}: {len(cells)} cells")
                    break
                i, a, b = cells
                expected.append(
                    (
                        {"id": i, "a": booleans.get(a, a), "b": booleans.get(b, b)},
                        start,
                    )
                )
        reader = file_rows(path, "l.csv")
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("pytest_rubric.inputs.textfiles.BLOCK", block)
            for _ in range(2):  # read twice, as a repeated ID's first place is looked up
                got: list[object] = []
                try:
                    for index, row in enumerate(reader):
                        got.append((row, reader.handed.line(index)))
                except RubricInputError as exc:
                    got.append(str(exc).partition(" where")[0])
                assert got == expected


class _OneAtATime:
    """A ledger reader's rows without its label blocks: the tally reads them one at a time."""

    def __init__(self, reader: FileRows) -> None:
        self.reader = reader

    def __iter__(self) -> Iterator[Any]:
        return iter(self.reader)


def _tallied(reader: Any, where: Any) -> str:
    """A tally's answer and evidence as strict JSON text (``true`` is not ``1``), or its error,
    as agreement's stream takes them: in blocks where the rows offer them and the blocks
    tally answers, else row by row."""
    try:
        answer, evidence = agreement.stream_agreement(reader, where)
    except RubricInputError as exc:
        return f"error: {exc}"
    return json.dumps([answer, evidence.facts, evidence.problem])


_ledger_ids = st.sampled_from(["A", "B", "C", "é", " ", "\u3000x", "", "a,b", 'q"t', "t\\u"])
_ledger_labels = st.sampled_from([True, False, "true", "false", "TRUE", "", 1, 0, None])


@st.composite
def _ledger_texts(draw: st.DrawFn) -> tuple[str, str]:
    """A ledger as a tool might write it: often plain (read in label blocks), else with
    quotes, escapes, other key orders or spacing, CR line ends, stray lines (read row by
    row). Valid ledgers are often in ID order (checked by comparing neighbours), and
    sometimes repeat an ID after that order has held for a while."""
    suffix = draw(st.sampled_from([".jsonl", ".csv"]))
    if draw(st.booleans()):  # a valid ledger: unique IDs, Boolean labels
        ids = draw(st.lists(st.text(alphabet='AbC-é," x', min_size=1), unique=True, max_size=12))
        if draw(st.booleans()):
            ids.sort()
        if draw(st.booleans()) and ids:  # then one repeated, where the order may break
            ids.insert(draw(st.integers(1, len(ids))), draw(st.sampled_from(ids)))
        rows = [(case_id, draw(st.booleans()), draw(st.booleans())) for case_id in ids]
    else:
        rows = draw(st.lists(st.tuples(_ledger_ids, _ledger_labels, _ledger_labels), max_size=12))
    messy = draw(st.booleans())

    def maybe() -> bool:
        return messy and draw(st.booleans())

    end = draw(st.sampled_from(["\n", "\r\n", "\r"])) if messy else "\n"
    if suffix == ".csv":
        header = (
            draw(st.sampled_from(["id,a,b", "a,b,id", "id,a", "ID,a,b"])) if messy else "id,a,b"
        )
        lines = [header]
        for case_id, a, b in rows:
            cells = [str(v).lower() if type(v) is bool else str(v) for v in (case_id, a, b)]
            quoted = maybe()
            lines.append(
                ",".join(
                    '"' + c.replace('"', '""') + '"' if quoted or "," in c or '"' in c else c
                    for c in cells
                )
            )
    else:
        lines = []
        for case_id, a, b in rows:
            row = {"id": case_id, "a": a, "b": b}
            if maybe():
                row = dict(reversed(row.items()))
            spaced = maybe()
            separators = (
                (" ,\t", " : ") if spaced else draw(st.sampled_from([(", ", ": "), (",", ":")]))
            )
            lines.append(json.dumps(row, separators=separators, ensure_ascii=maybe()))
        if maybe():
            lines.append(draw(st.sampled_from(["", "  ", "[1]", '{"id": "Z", "a": true}'])))
    text = end.join(lines) + draw(st.sampled_from([end, ""]))
    return suffix, ("\ufeff" if maybe() else "") + text


@given(ledger=_ledger_texts(), block=st.sampled_from([1, 7, 40, 1 << 16]))
def test_a_ledger_tallied_in_blocks_answers_exactly_as_row_by_row(
    ledger: tuple[str, str], block: int
) -> None:
    suffix, text = ledger
    with tempfile.TemporaryDirectory() as folder, mock.patch.object(textfiles, "BLOCK", block):
        path = Path(folder) / f"ledger{suffix}"
        path.write_bytes(text.encode("utf-8"))
        fast = file_rows(path, path.name)
        slow = file_rows(path, path.name)
        assert _tallied(fast, fast.where) == _tallied(_OneAtATime(slow), slow.where)


@pytest.mark.parametrize(
    ("suffix", "text", "in_blocks"),
    [
        (".jsonl", '{"id": "A", "a": true, "b": false}\n{"id": "B", "a": false, "b": false}', True),
        (".jsonl", '{"id":"A","a":true,"b":false}\n{"id":"B","a":false,"b":false}\n', True),
        (".csv", "id,a,b\nA,true,false\nB,false,false\n", True),
        (".jsonl", '{"id": "A", "a": true, "b": false, "note": "x"}\n', False),
        (".jsonl", '{"a": true, "id": "A", "b": false}\n', False),
        (".jsonl", '{"id": "A", "a": 1, "b": false}\n', False),
        (".jsonl", '{"id": "A", "a": true, "b": false}\r\n', False),
        (".csv", 'id,a,b\n"A",true,false\n', False),
        (".csv", "a,b,id\ntrue,false,A\n", False),
        (".csv", "id,a,b\nA,true,false\nA,false,false\n", False),
        (".csv", "id,a,b\nA,yes,false\n", False),
        (".csv", "id,a,b\n A,true,false\n", False),
        (".csv", "id,a,b\nA,true,false,\n", False),
        (".csv", "id,a,b\nA,B,true,false\n", False),
        (".csv", "id,a,b\nA,true\n", False),
        (".csv", "id,a,b\n", True),
        (".csv", "id,a,b\nB,true,true\nA,false,false\nC,true,false", True),
        (".csv", "id,a,b\nA,true,true\nB,false,false\nA,true,false\n", False),
        (
            ".jsonl",
            '{"id": "A, b", "a": false, "b": true}\n{"id": "é\u3000", "a": true, "b": true}',
            True,
        ),
        (".jsonl", '{"id": "A", "a": true, "b": false}\n{"id":"B","a":false,"b":false}\n', False),
        (".jsonl", '{"id" : "A", "a": true, "b": false}\n', False),
        (".jsonl", '{"id": "A", "a": true, "b": false} \n', False),
        (".jsonl", '{"id": "A", "a": true, "b": false}\n\n', False),
        (".jsonl", '{"id": ", "a": true, "b": true}\n{"id": "x"y", "a": true, "b": true}\n', False),
        (".jsonl", '{"id": "A\\u0042", "a": true, "b": false}\n', False),
        (".jsonl", '{"id": "A\tB", "a": true, "b": false}\n', False),
        (".jsonl", '{"id": "A\x7f", "a": true, "b": false}\n', True),
        (".jsonl", '{"id": "", "a": true, "b": false}\n', False),
        (".jsonl", '{"id": "A", "a": true, "b": false}{"id": "B", "a": true, "b": false}\n', False),
    ],
)
def test_only_plain_rows_are_tallied_in_blocks(
    tmp_path: Path, suffix: str, text: str, in_blocks: bool
) -> None:
    path = tmp_path / f"ledger{suffix}"
    path.write_text(text, newline="")
    reader = file_rows(path, path.name)
    assert (agreement.tally_blocks(reader.label_blocks()) is not None) is in_blocks
    assert _tallied(reader, reader.where) == _tallied(_OneAtATime(reader), reader.where)


@pytest.mark.parametrize("limit", [None, 4, 6, 9])
def test_a_csv_cell_past_csv_field_size_limit_is_refused_as_row_by_row(
    tmp_path: Path, limit: int | None
) -> None:
    """``csv.reader`` refuses a cell longer than ``csv.field_size_limit()`` (131,072 by
    default, and global: a user may change it), so the ledger read in blocks must too."""
    default = csv.field_size_limit()
    effective = default if limit is None else limit
    for length in (effective, effective + 1):
        path = tmp_path / f"l{length}.csv"
        path.write_text(f"id,a,b\nA,true,false\n{'x' * length},false,false\n", newline="")
        reader = file_rows(path, path.name)
        try:
            if limit is not None:
                csv.field_size_limit(limit)
            got = _tallied(reader, reader.where)
            assert got == _tallied(_OneAtATime(reader), reader.where)
        finally:
            csv.field_size_limit(default)
        refused = length > effective or effective < len("false")
        assert ("field larger than field limit" in got) is refused, got[:200]
