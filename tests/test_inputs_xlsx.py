"""``.xlsx`` (inputs/formats/xlsxfile.py): a sheet's rows as the sheet holds them, the sheet
named by ``sheet:``, formulas by their saved values; held to the CSV it was saved from.
The sheets are written with openpyxl (the test extra); docs/demos/tools/ holds sheets as
LibreOffice and pandas save them."""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
from _agreement import answer, reviewed, run_agreement
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.descriptions.selection import Selection
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.formats.xlsxfile import XLSX
from pytest_rubric.running.outcome import CaseOutcome

openpyxl = pytest.importorskip("openpyxl")
pytest.importorskip("python_calamine")

DEMOS = Path(__file__).resolve().parent.parent / "docs" / "demos" / "tools"
LEDGER = "{id: id, a: a, b: b, ids: as-text}"


def sheet_bytes(folder: Path, rows: list[list[Any]], **sheets: list[list[Any]]) -> bytes:
    """A workbook whose first sheet holds ``rows`` (and each of ``sheets`` after it)."""
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    for name, more in sheets.items():
        sheet = book.create_sheet(name)
        for row in more:
            sheet.append(row)
    path = folder / "written.xlsx"
    book.save(path)
    return path.read_bytes()


def read(path: Path, selection: Selection | None = None) -> list[tuple[object, int]]:
    """Each row of the sheet with the place its cursor held as it was handed over."""
    file = InputFile(text=path.name, path=path, display=path.name, format=XLSX)
    if selection is not None:
        from pytest_rubric.descriptions.dataset import Dataset
        from pytest_rubric.descriptions.keypaths import KeyPath

        path_of = KeyPath(("id",), (1, 1), "id")
        file = dataclasses.replace(
            file, dataset=Dataset(id=path_of, input=path_of, selection=selection)
        )
    cursor = Cursor()
    return [(row, cursor.position) for row in XLSX.rows(file, "c.rubric.yaml", cursor)]


def failure(outcome: CaseOutcome) -> str:
    return " ".join(outcome.problems) or str(outcome.evidence and outcome.evidence.problem)


# -- cells as the sheet holds them -----------------------------------------------------------


def test_cells_read_as_the_sheet_holds_them(tmp_path: Path) -> None:
    path = tmp_path / "l.xlsx"
    path.write_bytes(
        sheet_bytes(
            tmp_path,
            [
                ["id", "a", "b", "score", "on", "at", "note", 2024],
                ["x", True, "false", 3, datetime.date(2024, 5, 1), datetime.time(13, 5), "ok", 1],
                ["y", False, True, 2.5, datetime.datetime(2024, 5, 2, 13, 30), None, "true", 0],
            ],
        )
    )
    assert read(path) == [
        (
            {
                "id": "x",
                "a": True,
                "b": False,  # a label column's text true and false, as in a CSV
                "score": 3,
                "on": "2024-05-01",
                "at": "13:05:00",
                "note": "ok",
                "2024": 1,
            },
            2,
        ),
        (
            {
                "id": "y",
                "a": False,
                "b": True,
                "score": 2.5,
                "on": "2024-05-02T13:30:00",
                "at": "",
                "note": "true",  # not a label column: text stays text
                "2024": 0,
            },
            3,
        ),
    ]
    assert (XLSX.place(InputFile(text="", path=path, display="", format=XLSX), 3)) == "#row 3"
    assert XLSX.row_label(3) == "row 3"
    assert list(
        XLSX.label_blocks(InputFile(text="", path=path, display="", format=XLSX), Findings())
    ) == [None]


def test_empty_rows_and_columns_around_the_table_are_not_read(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["C3"], sheet["D3"], sheet["E3"] = "id", "a", "b"
    sheet["C4"], sheet["D4"], sheet["E4"] = "x", True, False
    sheet["H9"].number_format = "0.00"  # a formatted cell holding nothing
    sheet["C12"] = None
    book.save(tmp_path / "l.xlsx")
    assert read(tmp_path / "l.xlsx") == [({"id": "x", "a": True, "b": False}, 4)]


def test_a_named_sheet_is_read_and_a_missing_one_names_the_sheets(tmp_path: Path) -> None:
    (tmp_path / "l.xlsx").write_bytes(
        sheet_bytes(
            tmp_path,
            [["id", "a", "b"], ["first", True, True]],
            judge=[["id", "a", "b"], ["second", True, False]],
        )
    )
    assert read(tmp_path / "l.xlsx", Selection(sheet="judge"))[0][0] == {
        "id": "second",
        "a": True,
        "b": False,
    }
    outcome = run_agreement(
        tmp_path, {}, "    input_file: l.xlsx\n    ledger: {id: id, a: a, b: b, sheet: jugde}\n"
    )
    assert failure(outcome) == (
        "c.rubric.yaml:5:41: ledger 'sheet' names 'jugde', which l.xlsx does not have (its sheets: "
        "'Sheet', 'judge'); did you mean 'judge'?"
    )


def test_sheet_is_refused_on_a_file_that_has_no_sheets(tmp_path: Path) -> None:
    outcome = run_agreement(
        tmp_path,
        {"l.csv": "id,a,b\nx,true,true\n"},
        "    input_file: l.csv\n    ledger: {id: id, a: a, b: b, sheet: judge}\n",
    )
    assert failure(outcome).endswith(
        "c.rubric.yaml:5:41: ledger 'sheet' names a sheet of a spreadsheet (.xlsx), but this "
        "file is .csv, which has no sheets; remove 'sheet'"
    )


def test_a_sheet_name_must_be_text(tmp_path: Path) -> None:
    outcome = run_agreement(
        tmp_path,
        {"l.xlsx": sheet_bytes(tmp_path, [["id", "a", "b"]])},
        "    input_file: l.xlsx\n    ledger: {id: id, a: a, b: b, sheet: 2024}\n",
    )
    assert (
        "c.rubric.yaml:5:41: ledger 'sheet' is 2024 (a number); write the sheet's name as its tab"
        in failure(outcome)
    )


def test_a_join_reads_two_sheets_of_one_workbook_saved_by_pandas(tmp_path: Path) -> None:
    outcome = run_agreement(
        tmp_path,
        {"book.xlsx": (DEMOS / "xlsx-two-sheets.xlsx").read_bytes()},
        "    ledger:\n"
        "      a: {input_file: book.xlsx, sheet: judge, id: case, label: verdict}\n"
        "      b: {input_file: book.xlsx, sheet: desk, id: case, label: verdict}\n",
    )
    assert answer(outcome)["disagreements"] == ["hl-1602"]
    assert answer(outcome)["matrix"] == {"bothPass": 2, "bothFail": 0, "aOnly": 0, "bOnly": 1}


# -- formulas ------------------------------------------------------------------------------


def test_a_formula_reads_as_the_value_libreoffice_saved(tmp_path: Path) -> None:
    outcome = run_agreement(
        tmp_path,
        {"s.xlsx": (DEMOS / "xlsx-scores.xlsx").read_bytes()},
        "    input_file: s.xlsx\n    ledger: {id: task_id, a: judge_label, b: editor_label, "
        "labels: {PASS: true, FAIL: false}}\n",
    )
    assert answer(outcome)["disagreements"] == ["hl-1502"]


def test_a_formula_without_a_saved_value_is_refused_in_one_line(tmp_path: Path) -> None:
    outcome = run_agreement(
        tmp_path,
        {"s.xlsx": (DEMOS / "xlsx-uncached.xlsx").read_bytes()},
        "    input_file: s.xlsx\n    ledger: {id: task_id, a: judge_label, b: editor_label, "
        "labels: {PASS: true, FAIL: false}}\n",
    )
    assert failure(outcome) == (
        "the input is not usable: s.xlsx#row 2: the cell C2 holds a formula with no value "
        "saved (the tool that wrote the file does not compute formulas); open and save the "
        "file in a spreadsheet program, which saves each formula's value, or write the "
        "values themselves"
    )


def test_a_formula_whose_saved_value_is_empty_text_is_empty_text(tmp_path: Path) -> None:
    book = tmp_path / "book.xlsx"
    book.write_bytes(sheet_bytes(tmp_path, [["id", "a", "b", "note"], ["x", True, True, "n"]]))
    # Excel saves a formula that gives "" as t="str" with an empty value: a value all the same.
    with zipfile.ZipFile(book) as old:
        parts = {name: old.read(name) for name in old.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = re.sub(
        rb'<c r="D2"[^>]*>.*?</c>',
        b'<c r="D2" t="str"><f>""</f><v></v></c>',
        parts[sheet],
    )
    with zipfile.ZipFile(book, "w") as new:
        for name, data in parts.items():
            new.writestr(name, data)
    assert read(book) == [({"id": "x", "a": True, "b": True, "note": ""}, 2)]


# -- what is refused -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            [["id", "a", "b"], ["x", True, True], [], ["y", True, True]],
            "l.xlsx#row 3: the row is empty, and rows of the table follow it; delete it (empty "
            "rows after the table are not read)",
        ),
        (
            [["id", "a", "b"], ["x", True, True, None, "stray"]],
            "l.xlsx#row 2: a value in the sheet's column 5, past the header's last name ('b'); "
            "name the column in the header row, or clear the cell",
        ),
        (
            [["id", "a", "a"], ["x", True, True]],
            "l.xlsx#row 1: the header names the column 'a' twice; give each column its own name",
        ),
        (
            [["task", "a", "b"], ["x", True, True]],
            "l.xlsx#row 1: the header must name the columns id, a and b (found 'task, a, b'); "
            "write them in the sheet's first row, or say which columns hold them under "
            "'ledger:' (e.g. 'ledger: {id: task_id, a: judge_label, b: editor_label}')",
        ),
    ],
    ids=["empty-row-inside", "value-past-header", "name-twice", "no-id"],
)
def test_a_sheet_the_table_does_not_fit_is_refused_naming_its_row(
    tmp_path: Path, rows: list[list[Any]], message: str
) -> None:
    (tmp_path / "l.xlsx").write_bytes(sheet_bytes(tmp_path, rows))
    with pytest.raises(Exception, match=re.escape(message)):
        read(tmp_path / "l.xlsx")


def test_a_file_that_is_not_a_workbook_is_refused(tmp_path: Path) -> None:
    outcome = run_agreement(tmp_path, {"l.xlsx": "id,a,b\n"}, "    input_file: l.xlsx\n")
    assert failure(outcome).startswith(
        "the input is not usable: l.xlsx: not a spreadsheet python-calamine can read ("
    )
    assert failure(outcome).endswith("); save it as .xlsx again")


def test_a_column_the_header_lacks_is_a_problem_of_the_description(tmp_path: Path) -> None:
    outcome = run_agreement(
        tmp_path,
        {"l.xlsx": sheet_bytes(tmp_path, [["task", "judge", "editor"], ["x", True, True]])},
        "    input_file: l.xlsx\n    ledger: {id: task, a: judge, b: editr}\n",
    )
    assert failure(outcome) == (
        "c.rubric.yaml:5:37: ledger 'b' names the column 'editr', which l.xlsx's header does "
        "not have (it has task, judge, editor); did you mean 'editor'?"
    )


def test_without_python_calamine_a_case_fails_naming_the_extra(tmp_path: Path) -> None:
    (tmp_path / "l.xlsx").write_bytes(sheet_bytes(tmp_path, [["id", "a", "b"]]))
    saved = sys.modules.get("python_calamine")
    sys.modules["python_calamine"] = None  # type: ignore[assignment]
    try:
        outcome = run_agreement(tmp_path, {}, "    input_file: l.xlsx\n")
    finally:
        if saved is not None:
            sys.modules["python_calamine"] = saved
    assert failure(outcome) == (
        "the input is not usable: l.xlsx: reading a .xlsx file needs python-calamine, which "
        "is not installed; install it with: pip install 'pytest-rubric[xlsx]'"
    )


# -- a sheet and the CSV it was saved from -----------------------------------------------------

#: Cell text a CSV and a sheet both keep as it is (no line breaks: a CSV line is a sheet's row;
#: no text of spaces alone, which openpyxl writes without xml:space="preserve", so that it
#: reads back empty; LibreOffice's sheets keep it).
TEXT = st.text(st.sampled_from("ab Z-,\"'é✓."), min_size=0, max_size=5).filter(
    lambda text: not text.startswith("=") and (text == "" or bool(text.strip()))
)
INTEGER = st.integers(-50, 10**12).map(str)
LABEL = st.sampled_from(["true", "false", "true", "false", "PASS", ""])


def typed(cell: str) -> object:
    """A CSV cell as a spreadsheet types it when it opens the CSV (LibreOffice's
    "detect special numbers"): ``true`` and ``false`` Booleans, an integer's decimal
    text a number, any other text text."""
    if cell in ("true", "false"):
        return cell == "true"
    if re.fullmatch(r"-?(0|[1-9][0-9]*)", cell):
        return int(cell)
    return cell


def as_csv(rows: list[list[str]]) -> str:
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def seen(outcome: CaseOutcome, name: str, cells: Any = None) -> str:
    """The answer, evidence and review of ``outcome`` as JSON text, places written as a
    CSV's (``:N``: a sheet's row N is the CSV's line N), each review field's value as
    ``cells`` reads it, if given."""
    evidence = outcome.evidence
    review: Any = outcome.review
    if review is not None and cells is not None:
        review = dict(review)
        review["rows"] = [
            {**row, "fields": {key: cells(value) for key, value in row["fields"].items()}}
            if "fields" in row
            else row
            for row in reviewed(outcome)
        ]
    text = json.dumps(
        {
            "actual": outcome.actual,
            "facts": None if evidence is None else evidence.facts,
            "problem": None if evidence is None else evidence.problem,
            "problems": outcome.problems,
            "review": review,
        },
        sort_keys=True,
    )
    return text.replace(f"{name}.xlsx#row ", f"{name}.csv:").replace(f"{name}.xlsx", f"{name}.csv")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(
        st.tuples(st.one_of(TEXT, INTEGER), LABEL, LABEL, st.one_of(TEXT, INTEGER)),
        max_size=8,
    ),
    spreadsheet_types=st.booleans(),
    described=st.booleans(),
)
def test_a_sheet_answers_as_the_csv_it_was_saved_from(
    rows: list[tuple[str, str, str, str]], spreadsheet_types: bool, described: bool
) -> None:
    header = ["id", "a", "b", "note"]
    if not described:  # a plain ledger's IDs are text: a number is an identity problem
        rows = [(f"#{case_id}", a, b, note) for case_id, a, b, note in rows]
    # A row of empty cells is a sheet's own case: none is stored after the last row with a
    # value, and one before it is refused as a gap in the table (both tested above), where the
    # CSV has a row with a blank id.
    rows = [row for row in rows if any(cell != "" for cell in row)]
    table = [header, *(list(row) for row in rows)]
    # Saved as a spreadsheet saves it: each cell typed as it opened the CSV, or kept as text.
    cells = [header] + [
        [(typed(cell) if spreadsheet_types else cell) if cell != "" else None for cell in row]
        for row in table[1:]
    ]
    body = f"    ledger: {LEDGER}\n" if described else ""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        from_csv = run_agreement(
            folder, {"l.csv": as_csv(table)}, f"    input_file: l.csv\n{body}", "l.csv"
        )
        from_sheet = run_agreement(
            folder,
            {"l.xlsx": sheet_bytes(folder, cells)},
            f"    input_file: l.xlsx\n{body}",
            "l.xlsx",
        )
    # The review's fields are the cells as the sheet holds them: a number where the CSV has
    # its text, where the spreadsheet typed it so.
    expected = seen(from_csv, "l", typed if spreadsheet_types else None)
    assert seen(from_sheet, "l") == expected


def test_one_row_per_judgement_where_a_number_and_groups_by_a_date(tmp_path: Path) -> None:
    may_1, may_2 = datetime.date(2024, 5, 1), datetime.date(2024, 5, 2)
    rows: list[list[Any]] = [
        ["task", "rater", "verdict", "round", "on"],
        ["t1", "judge", True, 2, may_1],
        ["t1", "desk", True, 2, may_1],
        ["t2", "judge", True, 2, may_2],
        ["t2", "desk", False, 2, may_2],
        ["t2", "desk", True, 1, may_2],  # an earlier round, left out
    ]
    outcome = run_agreement(
        tmp_path,
        {"j.xlsx": sheet_bytes(tmp_path, rows)},
        "    input_file: j.xlsx\n"
        "    ledger: {rows: per-judgement, id: task, grader: rater, label: verdict, a: judge,\n"
        "             b: desk, where: {round: 2}, group_by: 'on'}\n",
        "j.xlsx",
    )
    assert answer(outcome)["disagreements"] == ["t2"]
    assert [row["group"] for row in reviewed(outcome)] == ["2024-05-02"]
    assert [row["where"] for row in reviewed(outcome)] == ["j.xlsx#row 4"]


@pytest.mark.parametrize("batch", [1, 2, 3, 4096])
def test_rows_read_in_batches_of_any_size_read_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    from pytest_rubric.inputs.formats import xlsxfile

    monkeypatch.setattr(xlsxfile, "BATCH_ROWS", batch)
    path = tmp_path / "l.xlsx"
    path.write_bytes(
        sheet_bytes(
            tmp_path,
            [
                ["id", "a", "b", "n"],
                ["x", "true", True, 1.5],
                ["y", False, "no", 2],
                ["z", True, "false", datetime.date(2024, 5, 1)],
                [],
                [],
            ],
        )
    )
    assert read(path) == [
        ({"id": "x", "a": True, "b": True, "n": 1.5}, 2),
        ({"id": "y", "a": False, "b": "no", "n": 2}, 3),
        ({"id": "z", "a": True, "b": False, "n": "2024-05-01"}, 4),
    ]
    book = openpyxl.load_workbook(path)
    book.active["A8"] = "w"  # a row after the empty ones: the first of them is refused
    book.save(path)
    with pytest.raises(Exception, match=re.escape("l.xlsx#row 5: the row is empty")):
        read(path)


EMPTY = (
    "    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 0, "
    "total: 0, disagreements: []}\n"
)


def test_rubric_check_knows_sheet_and_refuses_it_where_there_are_no_sheets(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "l.xlsx").write_bytes(sheet_bytes(pytester.path, [["id", "a", "b"]]))
    (pytester.path / "l.csv").write_text("id,a,b\n")
    pytester.makefile(
        ".rubric.yaml",
        sheets="evaluator: agreement\ncases:\n"
        f"  - id: sheet\n    input_file: l.xlsx\n    ledger: {{sheet: judge}}\n{EMPTY}"
        f"  - id: no-sheets\n    input_file: l.csv\n    ledger: {{sheet: judge}}\n{EMPTY}",
    )
    result = pytester.runpytest("--rubric-check", "-p", "no:cacheprovider")
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "sheets.rubric.yaml:9:21: ledger 'sheet' names a sheet of a spreadsheet (.xlsx), but "
            "this file is .csv, which has no sheets; remove 'sheet'",
            "rubric check: 1 case file, 2 cases: 1 problem",
        ]
    )


def test_a_formula_with_no_value_saved_is_found_in_a_cell_without_a_reference(
    tmp_path: Path,
) -> None:
    book = tmp_path / "book.xlsx"
    book.write_bytes(sheet_bytes(tmp_path, [["id", "a", "b", "n"], ["x", True, True, "v"]]))
    with zipfile.ZipFile(book) as old:
        parts = {name: old.read(name) for name in old.namelist()}
    sheet = "xl/worksheets/sheet1.xml"  # a cell's reference may be left out: its place says
    parts[sheet] = re.sub(rb'<c r="D2"[^>]*>.*?</c>', b"<c><f>1+1</f></c>", parts[sheet])
    with zipfile.ZipFile(book, "w") as new:
        for name, data in parts.items():
            new.writestr(name, data)
    with pytest.raises(Exception, match=re.escape("book.xlsx: a cell holds a formula with no")):
        read(book)
