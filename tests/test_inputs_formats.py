"""Each format module by itself (no loader, no pytest run): its suffix and traits, its rows
with their places, its label blocks, how its places are worded; and the one table."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.dataset import Dataset
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.selection import Selection
from pytest_rubric.descriptions.traits import NO_FORMAT, FileTraits
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.findings import Findings
from pytest_rubric.inputs.formats.base import Format, InputFile
from pytest_rubric.inputs.formats.csvfile import CSV
from pytest_rubric.inputs.formats.gzipped import gzipped
from pytest_rubric.inputs.formats.jsondocument import JSON_DOCUMENT
from pytest_rubric.inputs.formats.jsonl import JSONL
from pytest_rubric.inputs.formats.parquetfile import PARQUET
from pytest_rubric.inputs.formats.registry import (
    FORMATS,
    INPUT_FORMATS,
    format_for,
    formats_text,
    traits_of,
)
from pytest_rubric.inputs.formats.tsvfile import TSV
from pytest_rubric.inputs.textfiles import GZIP, PLAIN

ROWS = [{"id": "x", "a": True, "b": False}, {"id": "y", "a": False, "b": False}]


def _file(path: Path, fmt: Format) -> InputFile:
    return InputFile(text=path.name, path=path, display=path.name, format=fmt)


def _read(fmt: Format, file: InputFile) -> list[tuple[object, int]]:
    """Each row with the place its cursor held as it was handed over."""
    cursor = Cursor()
    return [(row, cursor.position) for row in fmt.rows(file, "c.rubric.yaml", cursor)]


def test_the_table_lists_each_format_once_in_the_order_messages_name_them() -> None:
    assert list(INPUT_FORMATS) == [
        ".json",
        ".jsonl",
        ".csv",
        ".tsv",
        ".json.gz",
        ".jsonl.gz",
        ".csv.gz",
        ".tsv.gz",
        ".parquet",
        ".xlsx",
        ".eval",
    ]
    assert formats_text() == (
        ".json or .json.gz (the whole input), .jsonl, .csv, .tsv, .jsonl.gz, .csv.gz, "
        ".tsv.gz, .parquet, .xlsx or .eval (ledger rows)"
    )
    assert len({fmt.suffix for fmt in FORMATS}) == len(FORMATS)


@pytest.mark.parametrize(
    ("written", "suffix"),
    [
        ("week.json", ".json"),
        ("a/week.jsonl", ".jsonl"),
        ("week.csv.gz", ".csv.gz"),
        ("week.json.gz", ".json.gz"),
        ("week.parquet", ".parquet"),
        ("week.tsv", ".tsv"),
        ("week.tsv.gz", ".tsv.gz"),
        ("week.tab", None),
        ("run.eval", ".eval"),
        ("week.csv.bak", None),
    ],
)
def test_a_format_is_found_by_the_suffix_of_the_name_as_written(
    written: str, suffix: str | None
) -> None:
    found = format_for(written)
    assert (None if found is None else found.suffix) == suffix


def test_a_description_is_told_traits_not_suffixes() -> None:
    assert CSV.traits == FileTraits(".csv", text_cells=True)
    assert gzipped(CSV).traits == FileTraits(".csv.gz", text_cells=True)
    assert JSON_DOCUMENT.traits.records
    assert not JSONL.traits.records
    assert traits_of("rows.parquet") == FileTraits(".parquet")
    assert traits_of("rows.txt") is NO_FORMAT
    assert CSV.traits.rows_are == "records"
    assert JSONL.traits.rows_are == "lines"


def test_gzip_wraps_a_text_format_and_reads_its_rows_alike(tmp_path: Path) -> None:
    text = "id,a,b\nx,true,false\ny,false,false\n"
    (tmp_path / "l.csv").write_text(text)
    (tmp_path / "l.csv.gz").write_bytes(gzip.compress(text.encode()))
    plain = _read(CSV, _file(tmp_path / "l.csv", CSV))
    packed = gzipped(CSV)
    assert packed.opener is GZIP
    assert CSV.opener is PLAIN
    assert packed.holds == CSV.holds
    assert (
        _read(packed, _file(tmp_path / "l.csv.gz", packed))
        == plain
        == [
            (ROWS[0], 2),
            (ROWS[1], 3),
        ]
    )


def test_jsonl_rows_are_placed_at_their_lines_and_read_in_blocks(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    file = _file(path, JSONL)
    assert _read(JSONL, file) == [(ROWS[0], 1), (ROWS[1], 2)]
    findings = Findings()
    (block,) = JSONL.label_blocks(file, findings)
    assert isinstance(block, LabelBlock)
    assert list(block.ids) == ["x", "y"]
    assert (JSONL.place(file, 2), JSONL.row_label(2)) == (":2", "line 2")
    assert JSONL.lone_judgements(file) is None


def test_csv_cells_are_text_but_true_and_false(tmp_path: Path) -> None:
    path = tmp_path / "l.csv"
    path.write_text("id,a,b,note\nx,true,false,True\n")
    file = _file(path, CSV)
    assert _read(CSV, file) == [({"id": "x", "a": True, "b": False, "note": "True"}, 2)]
    assert list(CSV.label_blocks(file, Findings())) == [None]  # another header: rows say
    assert (CSV.place(file, 2), CSV.row_label(2)) == (":2", "line 2")


def test_tsv_is_csv_with_tabs_rows_blocks_and_places_alike(tmp_path: Path) -> None:
    assert TSV.traits == FileTraits(".tsv", text_cells=True)
    assert gzipped(TSV).traits == FileTraits(".tsv.gz", text_cells=True)
    assert (TSV.holds, TSV.opener) == (CSV.holds, PLAIN)
    path = tmp_path / "l.tsv"
    path.write_text('id\ta\tb\tnote\nx\ttrue\tfalse\t"a\tb, c"\n')
    file = _file(path, TSV)
    assert _read(TSV, file) == [({"id": "x", "a": True, "b": False, "note": "a\tb, c"}, 2)]
    assert (TSV.place(file, 2), TSV.row_label(2)) == (":2", "line 2")
    path.write_text("id\ta\tb\nx\ttrue\tfalse\ny\tfalse\tfalse\n")
    assert _read(TSV, file) == [(ROWS[0], 2), (ROWS[1], 3)]
    (block,) = TSV.label_blocks(file, Findings())
    assert isinstance(block, LabelBlock)
    assert (list(block.ids), block.pairs) == (["x", "y"], (0, 1, 1, 0))
    # An ID holding a comma is a TSV's plain cell, but not one the blocks read: rows say.
    path.write_text("id\ta\tb\nx,1\ttrue\tfalse\n")
    assert list(TSV.label_blocks(file, Findings())) == [None]
    assert _read(TSV, file) == [({"id": "x,1", "a": True, "b": False}, 2)]


def test_a_json_document_names_its_rows_by_their_index_in_its_list(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"results": ROWS}))
    records = KeyPath(("results",), (1, 1), "results")
    dataset = Dataset(
        id=KeyPath(("id",), (1, 1), "id"),
        input=KeyPath(("a",), (1, 1), "a"),
        selection=Selection(records=records),
        at=(1, 1),
    )
    file = InputFile(
        text="d.json", path=path, display="d.json", format=JSON_DOCUMENT, dataset=dataset
    )
    assert _read(JSON_DOCUMENT, file) == [(ROWS[0], 1), (ROWS[1], 2)]
    assert JSON_DOCUMENT.place(file, 2) == "#results[1]"
    assert JSON_DOCUMENT.row_label(2) == "item 1"
    assert list(JSON_DOCUMENT.label_blocks(file, Findings())) == [None]  # no fast path
    assert JSON_DOCUMENT.holds == "the whole input"


def test_parquet_rows_and_blocks(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    from pyarrow import parquet

    path = tmp_path / "l.parquet"
    parquet.write_table(pyarrow.Table.from_pylist(ROWS), path)
    file = _file(path, PARQUET)
    assert _read(PARQUET, file) == [(ROWS[0], 1), (ROWS[1], 2)]
    blocks = list(PARQUET.label_blocks(file, Findings()))
    assert [list(block.ids) for block in blocks if block is not None] == [["x", "y"]]
    assert (PARQUET.place(file, 3), PARQUET.row_label(3)) == ("#row 3", "row 3")


def test_the_table_imports_no_reader_until_a_file_is_read() -> None:
    probe = (
        "import sys\n"
        "import pytest_rubric.inputs.formats.registry\n"
        "loaded = [name for name in sys.modules if name.startswith(('pyarrow', "
        "'pytest_rubric.inputs.parquet', 'pytest_rubric.inputs.csvrows', "
        "'pytest_rubric.inputs.textblocks', 'pytest_rubric.inputs.jsondocs', 'gzip', "
        "'python_calamine', 'xml.etree'))]\n"
        "print(loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr


def test_loading_inline_cases_imports_no_format(tmp_path: Path) -> None:
    (tmp_path / "c.rubric.yaml").write_text(
        "evaluator: agreement\ncases:\n  - id: x\n    input: {rows: []}\n    expected: {}\n"
    )
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from pytest_rubric.casefiles.loader import load_case_file\n"
        f"load_case_file(Path({str(tmp_path / 'c.rubric.yaml')!r}), 'c.rubric.yaml')\n"
        "print(sorted(name for name in sys.modules if name.startswith("
        "'pytest_rubric.inputs.formats.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "['pytest_rubric.inputs.formats.base']", done.stderr
