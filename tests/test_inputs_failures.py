"""Whatever goes wrong while an input file is read is the input's problem ("the input is
not usable: ..." naming the file, and the row where known), never the evaluator's, even
when it surfaces inside an evaluator's ``stream``; a whole ``.json`` input is bounded as
ledger rows are."""

from __future__ import annotations

import datetime
import gzip
import os
import zlib
from pathlib import Path
from typing import Any

import pytest

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.core.evaluator import Evaluator, OnLedger
from pytest_rubric.core.jsondecode import decode_row
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs import jsonl, wholejson
from pytest_rubric.running import runner
from pytest_rubric.running.outcome import CaseOutcome
from pytest_rubric.running.runner import run_case

try:
    import pyarrow
    import pyarrow.parquet
except ImportError:  # the Parquet tests skip
    pyarrow = None

needs_pyarrow = pytest.mark.skipif(pyarrow is None, reason="pyarrow (pytest-rubric[parquet])")

BUILT_IN = "pytest-rubric (built-in)"


def run_file(
    folder: Path,
    name: str,
    content: bytes,
    ledger: str | None = None,
    evaluator: Evaluator = AGREEMENT,
) -> CaseOutcome:
    """The outcome of one case reading ``name`` (``content``), its rows kept for review."""
    (folder / name).write_bytes(content)
    block = "" if ledger is None else f"    ledger: {ledger}\n"
    (folder / "c.rubric.yaml").write_text(
        f"evaluator: agreement\ncases:\n  - id: x\n    input_file: {name}\n{block}"
        "    expected: {}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(folder / "c.rubric.yaml", "c.rubric.yaml", root=folder).cases
    return run_case(
        case, evaluator, path="c.rubric.yaml", source=BUILT_IN, review_limit=10, review_at=name
    )


def the_inputs_problem(outcome: CaseOutcome) -> str:
    assert outcome.outcome == "case-error"
    (problem,) = outcome.problems
    assert problem.startswith("the input is not usable: "), problem
    assert "evaluator" not in problem
    return problem


def parquet(folder: Path, columns: dict[str, Any], **options: Any) -> bytes:
    assert pyarrow is not None
    target = folder / "made.parquet"
    pyarrow.parquet.write_table(pyarrow.table(columns), target, **options)
    return target.read_bytes()


# -- Parquet: what pyarrow raises is the file's -------------------------------------------------


@needs_pyarrow
@pytest.mark.parametrize("ledger", [None, "{id: id, a: a, b: b}"], ids=["plain", "described"])
def test_a_parquet_column_name_that_is_not_utf8_is_the_inputs_problem(
    tmp_path: Path, ledger: str | None
) -> None:
    columns = {"id": ["x"], "a": [True], "b": [True], "zzqq": [1]}
    # The name as the footer holds it, made not UTF-8 (of the same length: still Thrift).
    data = parquet(tmp_path, columns, store_schema=False).replace(b"zzqq", b"z\xff\xfeq")
    problem = the_inputs_problem(run_file(tmp_path, "n.parquet", data, ledger))
    assert problem.startswith("the input is not usable: n.parquet, from #row 1 on: cannot be read")
    assert "UnicodeDecodeError" in problem


@needs_pyarrow
def test_a_parquet_value_python_cannot_hold_is_the_inputs_problem(tmp_path: Path) -> None:
    assert pyarrow is not None
    micros = int((datetime.datetime(1, 1, 1) - datetime.datetime(1970, 1, 1)).total_seconds() * 1e6)
    year_zero = pyarrow.array([0, micros - 86_400 * 366 * 10**6], pyarrow.timestamp("us"))
    task = pyarrow.StructArray.from_arrays(
        [pyarrow.array(["x", "y"]), year_zero], names=["id", "when"]
    )
    data = parquet(tmp_path, {"task": task, "a": [True, True], "b": [True, False]})
    problem = the_inputs_problem(run_file(tmp_path, "t.parquet", data, "{id: task.id, a: a, b: b}"))
    assert problem.startswith("the input is not usable: t.parquet, from #row 1 on: cannot be read")
    assert "OverflowError" in problem


@needs_pyarrow
def test_a_parquet_struct_with_two_fields_of_one_name_is_the_inputs_problem(
    tmp_path: Path,
) -> None:
    assert pyarrow is not None
    task = pyarrow.StructArray.from_arrays(
        [pyarrow.array(["x"]), pyarrow.array(["n"]), pyarrow.array(["m"])],
        names=["id", "note", "note"],
    )
    data = parquet(tmp_path, {"task": task, "a": [True], "b": [True]})
    problem = the_inputs_problem(run_file(tmp_path, "d.parquet", data, "{id: task.id, a: a, b: b}"))
    assert "d.parquet, from #row 1 on: cannot be read (ValueError: " in problem
    assert "duplicate field names" in problem


# -- text ledgers: the reading machinery's own failures -----------------------------------------


def test_memory_running_out_while_a_jsonl_ledger_is_read_is_the_inputs_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = decode_row

    def decode(text: str) -> object:
        if '"r2"' in text:
            raise MemoryError
        return real(text)

    monkeypatch.setattr(jsonl, "decode_row", decode)
    lines = [f'{{"id": "r{n}", "a": true, "b": "x"}}\n' for n in range(1, 4)]  # not plain
    outcome = run_file(tmp_path, "m.jsonl", "".join(lines).encode())
    assert the_inputs_problem(outcome) == (
        "the input is not usable: m.jsonl:2: cannot be read: it needs more memory than "
        "there is; split it into smaller files, or give the run more memory"
    )


def test_a_third_party_evaluators_own_exception_in_stream_stays_its_own(
    tmp_path: Path,
) -> None:
    def stream(rows: Any, where: Any) -> Any:
        for _ in rows:
            raise KeyError("its own")
        return {}, None

    evaluator = Evaluator(
        name="agreement",
        description="a third party's",
        evaluate=lambda data: {},
        ledger=OnLedger(stream=stream),
    )
    outcome = run_file(tmp_path, "l.jsonl", b'{"id": "x", "a": true, "b": true}\n', None, evaluator)
    assert outcome.outcome == "case-error"
    (problem,) = outcome.problems
    assert problem.startswith(f"evaluator 'agreement' ({BUILT_IN}) raised in stream:")
    assert "KeyError: 'its own'" in problem


# -- a whole .json input: bounded, and its failures the input's ---------------------------------


def gzip_bomb(inflated: int, members: int) -> bytes:
    """A ``.json.gz`` whose JSON object inflates to about ``inflated`` bytes: ``members``
    gzip members of spaces each (gzip reads members one after another), the object's
    braces around them."""
    blank = gzip.compress(b" " * (inflated // members), compresslevel=9)
    return gzip.compress(b'{"rows": []') + blank * members + gzip.compress(b"}")


def test_a_json_gz_that_inflates_past_the_cap_is_refused_reading_no_further(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wholejson, "MAX_JSON_CHARS", 1 << 20, raising=False)
    bomb = gzip_bomb(64 << 20, 4)
    assert len(bomb) < 1 << 20
    problem = the_inputs_problem(run_file(tmp_path, "big.json.gz", bomb))
    assert problem == (
        "the input is not usable: big.json.gz: longer than 1,048,576 characters once "
        "inflated, more than a whole .json input may hold (it is decoded whole, in memory); "
        "write its rows as a .jsonl ledger, one JSON object a line, which is read a row at "
        "a time"
    )
    # Under the cap it is read as before.
    monkeypatch.setattr(wholejson, "MAX_JSON_CHARS", 128 << 20)
    assert run_file(tmp_path, "big.json.gz", bomb).actual == {
        "matrix": {"bothPass": 0, "bothFail": 0, "aOnly": 0, "bOnly": 0},
        "agreement": 0,
        "total": 0,
        "disagreements": [],
    }


def test_a_json_gz_bomb_of_two_gib_stops_at_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wholejson, "MAX_JSON_CHARS", 1 << 20, raising=False)
    bomb = gzip_bomb(2 << 30, 512)  # 4 MiB a member, each compressed to about 4 KB
    assert len(bomb) < 4 << 20
    problem = the_inputs_problem(run_file(tmp_path, "bomb.json.gz", bomb))
    assert "bomb.json.gz: longer than 1,048,576 characters once inflated" in problem


def test_a_plain_json_longer_than_the_cap_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wholejson, "MAX_JSON_CHARS", 100, raising=False)
    text = b'{"rows": [], "pad": "' + b"x" * 200 + b'"}'
    problem = the_inputs_problem(run_file(tmp_path, "big.json", text))
    assert "big.json: longer than 100 characters, more than a whole .json input" in problem


@pytest.mark.parametrize("error", [MemoryError, zlib.error, RecursionError, TypeError])
def test_anything_decoding_a_whole_json_input_raises_is_the_inputs_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: type[BaseException]
) -> None:
    class Failing:
        def decode(self, text: str) -> object:
            raise error("made to fail")

        def raw_decode(self, text: str, at: int) -> object:
            raise error("made to fail")

    monkeypatch.setattr(wholejson, "DECODER", Failing())
    problem = the_inputs_problem(run_file(tmp_path, "w.json", b'{"rows": []}'))
    assert problem.startswith("the input is not usable: w.json")


def test_rows_read_whole_for_evaluate_that_do_not_fit_in_memory_are_the_inputs_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_room(rows: Any) -> list[Any]:
        raise MemoryError

    monkeypatch.setattr(runner, "list", no_room, raising=False)  # the runner's own list()
    evaluator = Evaluator(name="agreement", description="evaluate only", evaluate=lambda data: {})
    outcome = run_file(tmp_path, "l.jsonl", b'{"id": "x", "a": true, "b": true}\n', None, evaluator)
    assert the_inputs_problem(outcome).startswith(
        "the input is not usable: l.jsonl: cannot be read: it needs more memory than there is"
    )


# -- a FIFO put where the export was, after the case file was collected ----------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize(
    ("name", "ledger"),
    [
        ("e.jsonl", None),
        ("e.csv", "{id: id, a: a, b: b, labels: {PASS: true, FAIL: false}}"),
        ("e.json", None),
        ("e.jsonl.gz", None),
        pytest.param("e.parquet", None, marks=needs_pyarrow),
        ("e.xlsx", "{id: id, a: a, b: b}"),
        ("e.eval", "{records: samples, id: id, a: a, b: b}"),
    ],
)
def test_a_fifo_swapped_in_for_the_export_after_collection_is_refused_never_waited_on(
    tmp_path: Path, name: str, ledger: str | None
) -> None:
    (tmp_path / name).write_bytes(b"")
    block = "" if ledger is None else f"    ledger: {ledger}\n"
    (tmp_path / "c.rubric.yaml").write_text(
        f"evaluator: agreement\ncases:\n  - id: x\n    input_file: {name}\n{block}"
        "    expected: {}\n",
        encoding="utf-8",
    )
    (case,) = load_case_file(tmp_path / "c.rubric.yaml", "c.rubric.yaml", root=tmp_path).cases
    (tmp_path / name).unlink()
    os.mkfifo(tmp_path / name)  # no writer: opening it to read would wait for ever
    outcome = run_case(
        case, AGREEMENT, path="c.rubric.yaml", source=BUILT_IN, review_limit=10, review_at=name
    )
    assert "is no longer a regular file" in the_inputs_problem(outcome)
