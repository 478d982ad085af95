"""inspect_ai's ``.eval`` logs: read as the ``.json`` log ``inspect log convert --to json``
makes of them (the logs inspect wrote in docs/demos/tools/, and any log laid out as its
recorder lays one out: the same answer, evidence and review for any ledger, the same
dataset cases); and each way an archive is not a log we can read, refused in one line."""

from __future__ import annotations

import json
import random
import re
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
import zstandard
from _agreement import run_agreement
from _evallogs import (
    DEFLATED,
    STORED,
    ZSTD,
    converted,
    eval_entries,
    header,
    inspect_order,
    pooled,
    sample,
    write_eval,
)
from _inputs import input_file_at
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.descriptions.dataset import Dataset
from pytest_rubric.descriptions.keypaths import KeyPath
from pytest_rubric.descriptions.selection import Selection
from pytest_rubric.descriptions.traits import FileTraits
from pytest_rubric.evaluators.builtin import REASON
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.formats.base import Format, InputFile
from pytest_rubric.inputs.formats.evallog import INSPECT_LOG, MAX_ENTRY_BYTES
from pytest_rubric.inputs.formats.jsondocument import JSON_DOCUMENT
from pytest_rubric.inputs.formats.registry import format_for
from pytest_rubric.running.datasetcases import dataset_cases
from pytest_rubric.running.runner import run_case

TOOLS = Path(__file__).resolve().parent.parent / "docs" / "demos" / "tools"
SAMPLES = Selection(records=KeyPath(("samples",), (1, 1), "samples"))


def rows_of(fmt: Format, path: Path, selection: Selection = SAMPLES) -> list[tuple[str, str]]:
    """Each row as JSON text (its keys in order), with its place."""
    key = KeyPath(("id",), (1, 1), "id")
    dataset = Dataset(id=key, input=key, selection=selection)
    file = InputFile(text=path.name, path=path, display="log", format=fmt, dataset=dataset)
    cursor = Cursor()
    return [(json.dumps(row), file.place(cursor.position)) for row in fmt.rows(file, "", cursor)]


def read_eval(path: Path) -> list[Any]:
    """The rows of the ``.eval`` log at ``path``, as mappings."""
    return [json.loads(text) for text, _ in rows_of(INSPECT_LOG, path)]


def refusal(path: Path) -> str:
    """What reading the ``.eval`` log at ``path`` is refused with."""
    with pytest.raises(RubricInputError) as caught:
        read_eval(path)
    message = str(caught.value)
    assert "\n" not in message
    return message


# -- the logs inspect wrote ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["inspect-log", "inspect-epochs"])
def test_a_log_inspect_wrote_reads_as_the_json_log_it_converts_to(name: str) -> None:
    evaluated = rows_of(INSPECT_LOG, TOOLS / f"{name}.eval")
    as_json = rows_of(JSON_DOCUMENT, TOOLS / f"{name}.json")
    assert evaluated == as_json  # the same rows, keys in the same order, at the same places
    assert len(evaluated) == 8


def test_the_samples_come_in_inspects_order_not_the_archives() -> None:
    archive = zipfile.ZipFile(TOOLS / "inspect-epochs.eval")
    written = [info.filename for info in archive.infolist() if info.filename.startswith("samples")]
    assert written[:4] == [f"samples/{n}_epoch_1.json" for n in (1, 2, 10, 11)]
    rows = read_eval(TOOLS / "inspect-epochs.eval")
    # Text IDs (as a CSV dataset gives them) sort as text, epoch by epoch.
    assert [(row["id"], row["epoch"]) for row in rows] == [
        (i, epoch) for epoch in (1, 2) for i in ("1", "10", "11", "2")
    ]
    assert all("events_data" not in row for row in rows)


def test_the_writer_here_lays_an_archive_out_as_inspects_recorder(tmp_path: Path) -> None:
    real = zipfile.ZipFile(TOOLS / "inspect-log.eval")
    infos = real.infolist()
    inflate = zstandard.ZstdDecompressor()
    entries = [
        (info.filename, inflate.decompressobj().decompress(_raw(real, info))) for info in infos
    ]
    write_eval(tmp_path / "again.eval", entries)
    again = zipfile.ZipFile(tmp_path / "again.eval").infolist()
    fields = ("filename", "compress_type", "file_size", "CRC", "external_attr", "flag_bits")
    assert [[getattr(info, f) for f in fields] for info in again] == [
        [getattr(info, f) for f in fields] for info in infos
    ]
    assert read_eval(tmp_path / "again.eval") == read_eval(TOOLS / "inspect-log.eval")
    # The recorder's order of entries, a journal summary after every two samples here.
    made = [name for name, _ in eval_entries(header([]), _headlines(), every=2)]
    assert made == [info.filename for info in infos]
    # And a sample as inspect pools it: read back whole, as the converted log holds it.
    first = json.loads(entries[1][1])
    assert "events_data" in first
    assert (
        read_eval(TOOLS / "inspect-log.eval")[0]
        == json.loads((TOOLS / "inspect-log.json").read_text(encoding="utf-8"))["samples"][0]
    )


def _headlines() -> list[dict[str, Any]]:
    return [sample(n, 1, "C", {}) for n in range(1, 9)]


def _raw(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """An entry's bytes as stored, found through its local header."""
    assert archive.fp is not None
    archive.fp.seek(info.header_offset)
    local = archive.fp.read(30)
    name_length, extra_length = struct.unpack("<HH", local[26:30])
    archive.fp.seek(info.header_offset + 30 + name_length + extra_length)
    return archive.fp.read(info.compress_size)


# -- any log: the same rows, answers, evidence and review as its converted log -------------------

IDS = st.lists(
    st.one_of(st.integers(-3, 30), st.sampled_from(["1", "2", "10", "11", "07", "a", "x y", ""])),
    min_size=1,
    max_size=6,
    unique_by=str,  # 7 and "7" would be one entry
)
SCORES = st.sampled_from(["C", "I", "C", "I", "P", None, True])


@st.composite
def logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Samples as the converted log holds them: each ID once an epoch, some epochs missing."""
    ids = draw(IDS)
    epochs = draw(st.integers(1, 2))
    samples = []
    for epoch in range(1, epochs + 1):
        for sample_id in ids:
            if epoch > 1 and draw(st.booleans()):
                continue
            metadata = {
                "desk": draw(st.sampled_from(["C", "I", "C", "maybe"])),
                "group": draw(st.sampled_from(["g1", "g2"])),
                "has_title": draw(st.booleans()),
                "codes": draw(st.lists(st.sampled_from(["missing-title", "x"]), max_size=2)),
            }
            turns = draw(st.integers(0, 2))
            samples.append(sample(sample_id, epoch, draw(SCORES), metadata, turns=turns))
    return samples


LOG_SIDE = "{input_file: log.FORMAT, records: samples, id: id, ids: as-text, label: scores.judge.value, labels: {C: true, I: false}, where: {epoch: 1}}"
DESK_SIDE = (
    "{input_file: desk.csv, id: sample_id, label: verdict, labels: {PASS: true, FAIL: false}}"
)
LEDGERS = [
    "ledger: {records: samples, id: id, ids: as-text, a: scores.judge.value, b: metadata.desk, labels: {C: true, I: false}}",
    "ledger: {records: samples, id: id, ids: as-text, a: scores.judge.value, b: metadata.desk, labels: {C: true, I: false}, where: {epoch: 1}, group_by: metadata.group}",
    "ledger: {rows: per-judgement, records: samples, id: id, ids: as-text, grader: epoch, label: scores.judge.value, a: 1, b: 2, labels: {C: true, I: false}}",
    f"ledger: {{a: {LOG_SIDE}, b: {DESK_SIDE}}}",
    f"ledger: {{a: {DESK_SIDE}, b: {LOG_SIDE}}}",
]


def _write_both(folder: Path, samples: list[dict[str, Any]], seed: int, method: int) -> None:
    """``log.eval`` (its samples finished in a shuffled order, one perhaps written twice)
    and ``log.json``, the log converted; and ``desk.csv``, a desk's verdicts."""
    rng = random.Random(seed)
    finished = list(samples)
    rng.shuffle(finished)
    if finished and rng.random() < 0.3:  # a sample logged again: its last copy counts
        again = rng.randrange(len(finished))
        finished.insert(rng.randrange(again + 1), dict(finished[again], target="first copy"))
    head = header(samples)
    write_eval(folder / "log.eval", eval_entries(head, finished, every=3), method)
    (folder / "log.json").write_text(converted(head, samples), encoding="utf-8")
    ids = list(dict.fromkeys(str(whole["id"]) for whole in samples))
    rng.shuffle(ids)
    lines = ["sample_id,verdict", *(f"{json.dumps(i)},{rng.choice(['PASS', 'FAIL'])}" for i in ids)]
    (folder / "desk.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _seen(outcome: Any) -> str:
    """What a run gives people, the log's name as the ``.json`` log's."""
    shown = (outcome.outcome, outcome.actual, outcome.evidence, outcome.problems, outcome.review)
    return repr(shown).replace("log.eval", "log.json")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    samples=logs(),
    ledger=st.sampled_from(LEDGERS),
    method=st.sampled_from([ZSTD, ZSTD, DEFLATED, STORED]),
    seed=st.integers(0, 2**16),
)
def test_an_eval_log_answers_as_its_converted_json_log_for_any_ledger(
    samples: list[dict[str, Any]], ledger: str, method: int, seed: int
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write_both(folder, samples, seed, method)
        seen = []
        for suffix in ("eval", "json"):
            text = ledger.replace("FORMAT", suffix)
            own = "" if "input_file" in text else f"    input_file: log.{suffix}\n"
            outcome = run_agreement(folder, {}, f"{own}    {text}\n")
            seen.append(_seen(outcome))
        assert seen[0] == seen[1]
        assert (
            read_eval(folder / "log.eval")
            == json.loads((folder / "log.json").read_text(encoding="utf-8"))["samples"]
        )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(samples=logs(), seed=st.integers(0, 2**16))
def test_an_eval_log_as_a_dataset_gives_the_cases_of_its_converted_log(
    samples: list[dict[str, Any]], seed: int
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write_both(folder, samples, seed, ZSTD)
        seen = []
        for suffix in ("eval", "json"):
            (folder / "c.rubric.yaml").write_text(
                "evaluator: reason\ncases:\n  - id: log\n    dataset:\n"
                f"      file: log.{suffix}\n      records: samples\n      id: id\n"
                "      ids: as-text\n      where: {epoch: 1}\n"
                "      input:\n        fields: {title: metadata.has_title}\n"
                "        pass: scores.judge.value\n        reasons: metadata.codes\n"
                "      labels: {C: true, I: false}\n    expected_subset: {coherent: true}\n",
                encoding="utf-8",
            )
            loaded = load_case_file(folder / "c.rubric.yaml", "c.rubric.yaml", root=folder)
            cases = [row for case in loaded.cases for row in dataset_cases(case, "c.rubric.yaml")]
            ran = [run_case(case, REASON, path="c.rubric.yaml", source="") for case in cases]
            shown = [(o.case.name, o.outcome, o.actual, o.problems, o.case.problems) for o in ran]
            seen.append(repr(shown).replace("log.eval", "log.json"))
        assert seen[0] == seen[1]


def test_records_may_be_left_out_or_name_the_samples_and_nothing_else(tmp_path: Path) -> None:
    samples = [sample(n, 1, "C", {"desk": "I"}) for n in (3, 1, 2)]
    write_eval(tmp_path / "log.eval", eval_entries(header(samples), samples))
    plain = "ledger: {id: id, ids: as-text, a: scores.judge.value, b: metadata.desk, labels: {C: true, I: false}"
    left_out = run_agreement(tmp_path, {}, f"    input_file: log.eval\n    {plain}}}\n")
    named = run_agreement(
        tmp_path, {}, f"    input_file: log.eval\n    {plain}, records: samples}}\n"
    )
    assert (
        left_out.actual
        == named.actual
        == {
            "matrix": {"bothPass": 0, "bothFail": 0, "aOnly": 3, "bOnly": 0},
            "agreement": 0,
            "total": 3,
            "disagreements": ["1", "2", "3"],
        }
    )
    other = run_agreement(
        tmp_path, {}, f"    input_file: log.eval\n    {plain}, records: reductions}}\n"
    )
    (problem,) = other.problems
    assert re.fullmatch(
        r"c\.rubric\.yaml:\d+:\d+: 'records' 'reductions' names a list of an inspect log that "
        r"is not its samples; an \.eval log's rows are its samples: write 'records: samples' "
        r"or leave it out \(for another list, convert it with 'inspect log convert --to json' "
        r"and read the \.json log\)",
        problem,
    ), problem


def test_the_format_is_found_by_its_suffix_and_names_rows_as_the_json_log(tmp_path: Path) -> None:
    assert format_for("logs/run.eval") is INSPECT_LOG
    assert INSPECT_LOG.traits == FileTraits(".eval", records=True)
    assert INSPECT_LOG.holds == "ledger rows"
    samples = [sample(n, 1, "C", {}) for n in (1, 2)]
    write_eval(tmp_path / "run.eval", eval_entries(header(samples), samples))
    file = input_file_at(tmp_path / "run.eval")
    assert (INSPECT_LOG.place(file, 2), INSPECT_LOG.row_label(2)) == ("#samples[1]", "item 1")
    assert INSPECT_LOG.lone_judgements(file) is None
    assert [place for _, place in rows_of(INSPECT_LOG, tmp_path / "run.eval", Selection())] == [
        "log#samples[0]",
        "log#samples[1]",
    ]


# -- what is not a log we can read: one line each --------------------------------------------------


def _log(
    folder: Path,
    samples: list[dict[str, Any]] | None = None,
    entries: dict[str, bytes] | None = None,
) -> Path:
    """An ``.eval`` log of ``samples`` (two by default), ``entries`` replacing or adding
    entries by name."""
    samples = [sample(n, 1, "C", {}) for n in (1, 2)] if samples is None else samples
    made = dict(eval_entries(header(samples), samples))
    made.update(entries or {})
    path = folder / "log.eval"
    write_eval(path, made.items())
    return path


def test_a_file_that_is_no_zip_archive_is_refused(tmp_path: Path) -> None:
    (tmp_path / "log.eval").write_text('{"samples": []}', encoding="utf-8")
    assert refusal(tmp_path / "log.eval") == (
        "log: not a zip archive (File is not a zip file); an .eval log is the zip archive "
        "inspect writes: write it again, or name a .json log '.json'"
    )


def test_a_zip_archive_that_is_no_inspect_log_is_refused(tmp_path: Path) -> None:
    write_eval(tmp_path / "log.eval", [("word/document.xml", b"<w/>")], DEFLATED)
    assert refusal(tmp_path / "log.eval") == (
        "log: a zip archive, but not an inspect log (it has no header.json, nor "
        "_journal/start.json); name an .eval log inspect wrote"
    )


def test_a_log_still_being_written_is_read_from_its_journal(tmp_path: Path) -> None:
    samples = [sample(n, 1, "C", {}) for n in (2, 1)]
    entries = [(n, d) for n, d in eval_entries(header(samples), samples) if "summar" not in n]
    write_eval(tmp_path / "log.eval", [(n, d) for n, d in entries if n != "header.json"])
    assert [row["id"] for row in read_eval(tmp_path / "log.eval")] == [1, 2]


def test_a_cut_archive_is_refused(tmp_path: Path) -> None:
    path = _log(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert refusal(path).startswith("log: not a zip archive (")


@pytest.mark.parametrize("method", [ZSTD, DEFLATED])
def test_an_entry_whose_bytes_are_damaged_is_refused_at_its_row(
    tmp_path: Path, method: int
) -> None:
    path = tmp_path / "log.eval"
    samples = [sample(n, 1, "C", {}) for n in (1, 2)]
    write_eval(path, eval_entries(header(samples), samples), method)
    info = zipfile.ZipFile(path).getinfo("samples/2_epoch_1.json")
    data = bytearray(path.read_bytes())
    at = info.header_offset + 30 + len(info.filename) + info.compress_size // 2
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    message = refusal(path)
    assert message.startswith(
        "log#samples[1] (samples/2_epoch_1.json): the archive is damaged ("
    ), message
    assert message.endswith("); write the log again, or copy it whole")


def _central_sizes(path: Path, name: str, compressed: int, size: int) -> None:
    """The archive's directory made to say ``name`` takes ``compressed`` bytes, inflated
    to ``size``."""
    data = bytearray(path.read_bytes())
    archive = zipfile.ZipFile(path)
    start = data.index(b"PK\x01\x02" + struct.pack("<H", 0x0314), archive.start_dir)
    while True:
        name_length = struct.unpack("<H", data[start + 28 : start + 30])[0]
        if data[start + 46 : start + 46 + name_length] == name.encode():
            break
        start += 46 + name_length
    data[start + 20 : start + 28] = struct.pack("<LL", compressed, size)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("method", [ZSTD, DEFLATED])
def test_an_entry_that_inflates_past_what_the_archive_says_is_refused(
    tmp_path: Path, method: int
) -> None:
    # A zip bomb's way: a few bytes that inflate far past what the directory claims.
    bomb = json.dumps(sample(2, 1, "C", {"pad": "x" * 5_000_000})).encode()
    samples = [sample(1, 1, "C", {})]
    path = tmp_path / "log.eval"
    made = dict(eval_entries(header(samples), samples))
    made["samples/2_epoch_1.json"] = bomb
    write_eval(path, made.items(), method)
    info = zipfile.ZipFile(path).getinfo("samples/2_epoch_1.json")
    assert info.compress_size < 100_000
    _central_sizes(path, info.filename, info.compress_size, 4096)
    message = refusal(path)
    assert message.startswith(
        "log#samples[1] (samples/2_epoch_1.json): the archive is damaged ("
    ), message


def test_an_entry_the_archive_says_is_larger_than_any_sample_may_be_is_refused_unread(
    tmp_path: Path,
) -> None:
    path = _log(tmp_path)
    info = zipfile.ZipFile(path).getinfo("samples/2_epoch_1.json")
    _central_sizes(path, info.filename, info.compress_size, MAX_ENTRY_BYTES + 1)
    assert refusal(path) == (
        f"log#samples[1] (samples/2_epoch_1.json): the archive says this entry takes "
        f"{MAX_ENTRY_BYTES + 1} bytes, more than an entry may ({MAX_ENTRY_BYTES}); convert "
        "it with 'inspect log convert --to json' and read the .json log"
    )


def test_an_entry_that_inflates_to_less_than_the_archive_says_is_refused(tmp_path: Path) -> None:
    path = _log(tmp_path)
    info = zipfile.ZipFile(path).getinfo("samples/1_epoch_1.json")
    _central_sizes(path, info.filename, info.compress_size, info.file_size + 10)
    assert refusal(path) == (
        f"log#samples[0] (samples/1_epoch_1.json): the archive is damaged (it inflates to "
        f"{info.file_size} bytes, where the archive says {info.file_size + 10}); write the "
        "log again, or copy it whole"
    )


def test_a_sample_that_is_not_json_is_refused_at_its_line_and_column(tmp_path: Path) -> None:
    path = _log(tmp_path, entries={"samples/2_epoch_1.json": b'{"id": 2,\n "epoch": 1,, "x": 1}'})
    assert refusal(path) == (
        "log#samples[1] (samples/2_epoch_1.json:2:13): invalid JSON: Expecting property name "
        "enclosed in double quotes"
    )
    path = _log(tmp_path, entries={"samples/2_epoch_1.json": b'{"id": 2, "epoch": 1, "v": NaN}'})
    assert refusal(path) == (
        "log#samples[1] (samples/2_epoch_1.json): NaN is not JSON; write a number or a string"
    )
    path = _log(tmp_path, entries={"samples/2_epoch_1.json": b'{"id": 2, "epoch": 1, "v": "\xff"}'})
    assert refusal(path).startswith("log#samples[1] (samples/2_epoch_1.json): not UTF-8 (")


def test_a_sample_whose_id_is_not_its_entrys_is_refused_as_its_order_would_be_a_guess(
    tmp_path: Path,
) -> None:
    # The header lists no IDs: the name "10" reads as the integer its text is, but the
    # sample holds the text "10", which inspect would sort before "2".
    samples = [sample("10", 1, "C", {}), sample("2", 1, "C", {})]
    head = header(samples)
    head["eval"]["dataset"]["sample_ids"] = None
    write_eval(tmp_path / "log.eval", eval_entries(head, samples))
    assert refusal(tmp_path / "log.eval") == (
        'log#samples[0] (samples/2_epoch_1.json): holds the sample of ID "2" (a string) and '
        "epoch 1 (a number), where its name and the log's header give ID 2 (a number), epoch "
        "1; inspect orders samples by what they hold: convert it with 'inspect log convert "
        "--to json' and read the .json log"
    )


def test_a_sample_entry_named_otherwise_than_inspect_names_them_is_refused(tmp_path: Path) -> None:
    path = _log(tmp_path, entries={"samples/extra.json": b"{}"})
    assert refusal(path) == (
        "log: the entry 'samples/extra.json' is not named as inspect names a sample "
        "(samples/ID_epoch_N.json); convert it with 'inspect log convert --to json' and read "
        "the .json log"
    )


def test_a_log_without_samples_has_no_rows(tmp_path: Path) -> None:
    assert read_eval(_log(tmp_path, samples=[])) == []


def test_without_a_zstd_decoder_the_refusal_says_what_to_install(tmp_path: Path) -> None:
    path = _log(tmp_path)
    code = (
        "import sys; sys.modules['zstandard'] = None; sys.modules['compression.zstd'] = None\n"
        "from pathlib import Path\n"
        "from pytest_rubric.core.errors import RubricInputError\n"
        "from pytest_rubric.inputs.cursor import Cursor\n"
        "from pytest_rubric.inputs.formats.base import InputFile\n"
        "from pytest_rubric.inputs.formats.evallog import INSPECT_LOG\n"
        f"path = Path({str(path)!r})\n"
        "file = InputFile(text='log.eval', path=path, display='log.eval', format=INSPECT_LOG)\n"
        "try:\n    list(INSPECT_LOG.rows(file, '', Cursor()))\n"
        "except RubricInputError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == (
        "log.eval (header.json): compressed with zstd, which needs Python 3.14 or the "
        "zstandard package, not installed here; pip install 'pytest-rubric[eval]'\n"
    )


def test_a_log_converts_to_its_json_log_in_inspects_order(tmp_path: Path) -> None:
    """The helpers' own check: pooled and back, sorted as inspect sorts."""
    samples = [sample(i, e, "C", {}, turns=2) for e in (2, 1) for i in (10, 2, "b", "a")]
    write_eval(tmp_path / "log.eval", eval_entries(header(samples), samples))
    rows = read_eval(tmp_path / "log.eval")
    assert rows == sorted(samples, key=inspect_order)
    assert [(row["epoch"], row["id"]) for row in rows[:4]] == [(1, 2), (1, 10), (1, "a"), (1, "b")]
    assert pooled(samples[0])["events"][1]["input"] == []
