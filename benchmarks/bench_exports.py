"""Reading label exports (``ledger:`` blocks, Parquet) against a floor, side by side in one run.

    python benchmarks/bench_exports.py [--repeats 5] [--rows 1000000] [--only NAME ...]

Each measure writes its export and a case file (``evaluator: agreement``, one case
whose ``expected`` is the exact answer, computed while writing the data, but for its
disagreement IDs: none are listed, as in ``bench_cost.py``) into a temporary folder,
untimed. Then it runs each side once untimed (the file cache warm,
as a rerun finds it) and ``--repeats`` pairs, alternating plugin / floor, each run in a
fresh Python process, so that noise from other work on the machine hits both sides of
a pair alike. It prints the median of the per-pair ratios (plugin / floor), the target's verdict
on it, and, for reference only, the same ratio without the case file's load (``run``).

Only the work is timed, in CPU time (``time.process_time``) inside the child: from just
before the plugin's ``load_case_file`` to just after ``run_case`` returns, the case run
exactly as the plugin's items run it, without pytest; on the floor's side, the reading
and counting alone. Imports come first and are not counted on either side, so neither
the interpreter's start-up nor pytest's is in the figures (nor importing pyarrow). The
case file's load is part of the plugin's time, and shown apart as ``load``. The
plugin's child checks that the case mismatched in ``disagreements`` alone, with as
many as the data holds: a run that ends in any other way (a case error, another
difference) measures another path, so the benchmark stops with the child's problems
and exit status 1.

Peak memory is each child's peak resident set in MiB, the largest over its side's runs:
``VmHWM`` from ``/proc/self/status`` where there is one (Linux), else ``ru_maxrss``
(``resource.getrusage(RUSAGE_SELF)``). On Linux ``ru_maxrss`` is no use here: exec
carries the parent's peak into the child's figure, so every child would report at least
this script's own peak (a few hundred MiB after writing the data). Either figure
includes the interpreter and the imports, so it is not the work's alone, but both
sides' are measured alike.

- ``mapped-csv``: a ``--rows``-row CSV ``task_id,judge_label,editor_label`` with the
  words PASS/FAIL, read through ``ledger: {id: task_id, a: judge_label, b: editor_label,
  labels: {PASS: true, FAIL: false}}`` / ``csv.reader`` over the file and a count of the
  label pairs in a dict, as ``CSV_FLOOR`` in ``bench_cost.py`` (target 1.5x);
- ``mapped-tsv``: the same export saved with tabs (``export.tsv``), read through the
  same ``ledger:`` block / ``csv.reader(delimiter="\\t")`` and the same count (target
  1.5x);
- ``long-csv``: one row per judgement, ``example_id,annotator,answer``, two judgements
  (alice, bob) per case on adjacent lines, ``--rows`` cases (twice as many rows), read
  through ``ledger: {rows: per-judgement, ...}`` / the same ``csv.reader`` and count
  over all its rows (target 2.5x);
- ``parquet``: a ``--rows``-row Parquet file (columns ``id``, ``a``, ``b``; no
  ``ledger:`` block) / ``pyarrow.parquet.read_table`` of those columns and its
  ``num_rows`` (target 2x); skipped, saying so, when pyarrow is not importable.

Two more, run only when named with ``--only`` (no target: they show what a long export
holds in memory when its judgements are far apart, read one row at a time, beside the
same floor): ``long-by-grader``, every judgement of one grader's, then the other's,
with a text column; ``long-lone``, sorted by case but with one case judged once on its
first line (its row, and every row after it, is held to the end: a missing label);
``long-jsonl``, one line per judgement as Prodigy's ``db-out`` writes them, read one row
at a time / ``json.loads`` of each line and a count; ``quoted-tsv``, the ``mapped-tsv``
export with every text cell quoted and CRLF line ends, as Label Studio's TSV export
writes them, read one row at a time / the same ``csv.reader`` and count.

In every export the IDs increase row by row, about 70% of a's labels are true, and b
agrees with a about 80% of the time.
"""

from __future__ import annotations

import argparse
import csv
import functools
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

#: Each child's peak resident set, in KiB, prepended to its code. ``ru_maxrss`` alone
#: would not do on Linux: exec carries the parent's peak over into the child's (the
#: kernel sets it from the old address space's high-water mark), so every child would
#: report at least this script's own peak; ``VmHWM`` is the child's address space's own.
PEAK = """
import resource


def peak_kib():
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
"""
#: The plugin's side: argv is the case file, then ``parquet`` when the export is one.
OURS_CHILD = """
import json, sys, time
from pathlib import Path

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.running.runner import run_case

if sys.argv[2:] == ["parquet"]:  # imported by the floor's side before its clock starts too
    import pyarrow, pyarrow.compute, pyarrow.parquet
    import pytest_rubric.inputs.parquet

path = Path(sys.argv[1])
start = time.process_time()
case_file = load_case_file(path, path.name, root=path.parent)
loaded = time.process_time()
(case,) = case_file.cases
outcome = run_case(case, AGREEMENT, path=path.name, source="built in")
end = time.process_time()
count = path.with_suffix(".count")
wanted = int(count.read_text()) if count.exists() else None  # the disagreements there are
found = outcome.actual.get("disagreements") if isinstance(outcome.actual, dict) else None
if wanted is None:
    if outcome.outcome != "matched":
        print(f"the case was {outcome.outcome}, not matched:", outcome.problems, file=sys.stderr)
        sys.exit(1)
elif (
    outcome.outcome != "mismatched"
    or outcome.differing_keys() != ["disagreements"]
    or not isinstance(found, list)
    or len(found) != wanted
):
    print(f"the case was {outcome.outcome}, not the mismatch in disagreements alone:", file=sys.stderr)
    for problem in outcome.problems:
        print(problem, file=sys.stderr)
    if outcome.evaluated:
        print("differing keys:", outcome.differing_keys(), file=sys.stderr)
    sys.exit(1)
peak = peak_kib()
print(json.dumps({"cpu": end - start, "load": loaded - start, "peak_kib": peak}))
"""
#: The floor for a CSV export: ``csv.reader`` and a count of each row's two last cells.
CSV_FLOOR_CHILD = """
import csv, json, sys, time

start = time.process_time()
counts = {}
with open(sys.argv[1], encoding="utf-8", newline="") as stream:
    reader = csv.reader(stream)
    next(reader)
    for cells in reader:
        key = (cells[1], cells[2])
        counts[key] = counts.get(key, 0) + 1
rows = sum(counts.values())
end = time.process_time()
peak = peak_kib()
print(json.dumps({"cpu": end - start, "rows": rows, "peak_kib": peak}))
"""
#: The floor for a TSV export: the same, its cells split by tabs.
TSV_FLOOR_CHILD = CSV_FLOOR_CHILD.replace(
    "csv.reader(stream)", 'csv.reader(stream, delimiter="\\t")'
)
#: The floor for a Parquet export: the three columns read into a table.
#: The floor for a JSONL export: ``json.loads`` of each line and a count of its label.
JSONL_FLOOR_CHILD = """
import json, sys, time

start = time.process_time()
counts = {}
with open(sys.argv[1], encoding="utf-8") as stream:
    for line in stream:
        row = json.loads(line)
        key = (row.get("_annotator_id"), row.get("answer"))
        counts[key] = counts.get(key, 0) + 1
end = time.process_time()
peak = peak_kib()
print(json.dumps({"cpu": end - start, "rows": sum(counts.values()), "peak_kib": peak}))
"""
PARQUET_FLOOR_CHILD = """
import json, sys, time
import pyarrow, pyarrow.compute, pyarrow.parquet

start = time.process_time()
table = pyarrow.parquet.read_table(sys.argv[1], columns=["id", "a", "b"])
rows = table.num_rows
end = time.process_time()
peak = peak_kib()
print(json.dumps({"cpu": end - start, "rows": rows, "peak_kib": peak}))
"""


@dataclass
class Run:
    cpu: float  # the child's own CPU seconds for the work
    load: float  # of which loading the case file (the plugin's side only)
    peak_mib: float


@dataclass
class Measure:
    name: str
    ours: Callable[[], Run]
    floor: Callable[[], Run]
    target: float


class _Sides(Protocol):
    """A measure's two sides, each run in a fresh child."""

    @property
    def ours(self) -> Callable[[], Run]: ...

    @property
    def floor(self) -> Callable[[], Run]: ...


_Measured = TypeVar("_Measured", bound=_Sides)


def run_pairs(
    names: Iterable[str], prepare_one: Callable[[str, Path], _Measured], repeats: int
) -> list[tuple[_Measured, list[tuple[Run, Run]]]]:
    """Each named measure prepared in a temporary folder, each side run once untimed (the
    file cache warm, as a rerun finds it), then ``repeats`` alternating pairs; its data is
    dropped before the next one's is written."""
    results: list[tuple[_Measured, list[tuple[Run, Run]]]] = []
    for name in names:
        with tempfile.TemporaryDirectory(prefix=f"rubric-{name}-") as tmp:
            measure = prepare_one(name, Path(tmp))
            measure.ours()
            measure.floor()
            pairs = [(measure.ours(), measure.floor()) for _ in range(repeats)]
        results.append((measure, pairs))
        print(f"{name}: {repeats} pairs run", flush=True)
    return results


class Answer:
    """The agreement evaluator's exact answer, tallied while the export is written."""

    def __init__(self) -> None:
        self.cells = {"bothPass": 0, "bothFail": 0, "aOnly": 0, "bOnly": 0}
        self.disagreements: list[str] = []

    def add(self, case_id: str, a: bool, b: bool) -> None:
        self.cells["bothPass" if a and b else "aOnly" if a else "bOnly" if b else "bothFail"] += 1
        if a != b:
            self.disagreements.append(case_id)

    def expected(self) -> dict[str, Any]:
        cells = self.cells
        return {
            "matrix": cells,
            "agreement": cells["bothPass"] + cells["bothFail"],
            "total": sum(cells.values()),
            # None listed: the case mismatches in them alone, after reading every row (as
            # bench_cost.py's ledgers do), so the case file's load is not a 200,000-ID list.
            "disagreements": [],
        }


def labels(rows: int, seed: int) -> list[tuple[str, bool, bool]]:
    """``rows`` cases in increasing ID order: about 70% of a's labels true, b agreeing
    with a about 80% of the time."""
    rng = random.Random(seed)
    cases = []
    for n in range(1, rows + 1):
        a = rng.random() < 0.7
        b = a if rng.random() < 0.8 else not a
        cases.append((f"task-{n:07d}", a, b))
    return cases


def write_case_file(
    folder: Path,
    input_file: str,
    ledger: str | None,
    answer: Answer,
    expected: dict[str, Any] | None = None,
) -> Path:
    """The one-case file; ``expected`` as one line of JSON (a YAML flow mapping)."""
    path = folder / "export.rubric.yaml"
    block = f"    ledger: {ledger}\n" if ledger is not None else ""
    path.write_text(
        "evaluator: agreement\ncases:\n  - id: export\n"
        f"    input_file: {input_file}\n{block}"
        f"    expected: {json.dumps(expected or answer.expected(), separators=(',', ':'))}\n",
        encoding="utf-8",
    )
    if expected is None:  # the case mismatches in its disagreements alone: this many
        path.with_suffix(".count").write_text(str(len(answer.disagreements)))
    return path


def mapped_csv(
    folder: Path, rows: int, name: str = "export.csv", **dialect: Any
) -> tuple[Path, Path]:
    """The export ``name``, written by ``csv.writer`` in ``dialect`` (LF line ends unless
    told otherwise)."""
    answer = Answer()
    word = {True: "PASS", False: "FAIL"}
    with (folder / name).open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, **{"lineterminator": "\n", **dialect})
        writer.writerow(["task_id", "judge_label", "editor_label"])
        for case_id, a, b in labels(rows, seed=28):
            writer.writerow([case_id, word[a], word[b]])
            answer.add(case_id, a, b)
    ledger = "{id: task_id, a: judge_label, b: editor_label, labels: {PASS: true, FAIL: false}}"
    return write_case_file(folder, name, ledger, answer), folder / name


def long_csv(folder: Path, rows: int) -> tuple[Path, Path]:
    answer = Answer()
    word = {True: "accept", False: "reject"}
    with (folder / "export.csv").open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["example_id", "annotator", "answer"])
        for index, (case_id, a, b) in enumerate(labels(rows, seed=29)):
            judgements = [("alice", a), ("bob", b)]
            if index % 2:  # bob first for every other case
                judgements.reverse()
            for grader, label in judgements:
                writer.writerow([case_id, grader, word[label]])
            answer.add(case_id, a, b)
    ledger = (
        "{rows: per-judgement, id: example_id, grader: annotator, label: answer, "
        "a: alice, b: bob, labels: {accept: true, reject: false}}"
    )
    return write_case_file(folder, "export.csv", ledger, answer), folder / "export.csv"


def long_csv_layout(folder: Path, rows: int, *, lone: bool) -> tuple[Path, Path]:
    """One row per judgement with a text column, read one row at a time: sorted by
    grader (every judgement of alice's, then bob's), or by case with one case judged by
    alice alone on the first line (``lone``: a missing label, found at the end)."""
    answer = Answer()
    word = {True: "accept", False: "reject"}
    cases = labels(rows, seed=31)
    with (folder / "export.csv").open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["example_id", "annotator", "answer", "text"])
        if lone:
            writer.writerow(["task-0000000", "alice", "accept", "the example judged once"])
            for case_id, a, b in cases:
                for grader, label in (("alice", a), ("bob", b)):
                    writer.writerow([case_id, grader, word[label], f"the text of {case_id}"])
        else:
            for grader, at in (("alice", 1), ("bob", 2)):
                for case in cases:
                    label = case[1] if at == 1 else case[2]
                    writer.writerow([case[0], grader, word[label], f"the text of {case[0]}"])
        for case_id, a, b in cases:
            answer.add(case_id, a, b)
    ledger = (
        "{rows: per-judgement, id: example_id, grader: annotator, label: answer, "
        "a: alice, b: bob, labels: {accept: true, reject: false}}"
    )
    expected = {"error": "review-label"} if lone else None
    path = write_case_file(folder, "export.csv", ledger, answer, expected)
    return path, folder / "export.csv"


def long_jsonl(folder: Path, rows: int) -> tuple[Path, Path]:
    """One line per judgement as Prodigy's ``db-out`` writes them (the example's text and
    hashes beside the answer), each case's two judgements adjacent."""
    answer = Answer()
    word = {True: "accept", False: "reject"}
    with (folder / "export.jsonl").open("w", encoding="utf-8") as stream:
        for index, (case_id, a, b) in enumerate(labels(rows, seed=32)):
            for grader, label in (("alice", a), ("bob", b)):
                line = {
                    "text": f"The headline of {case_id}",
                    "_input_hash": index,
                    "_task_hash": -index,
                    "answer": word[label],
                    "_annotator_id": grader,
                    "example_id": case_id,
                }
                stream.write(json.dumps(line) + "\n")
            answer.add(case_id, a, b)
    ledger = (
        "{rows: per-judgement, id: example_id, grader: _annotator_id, label: answer, "
        "a: alice, b: bob, labels: {accept: true, reject: false}}"
    )
    return write_case_file(folder, "export.jsonl", ledger, answer), folder / "export.jsonl"


def parquet(folder: Path, rows: int) -> tuple[Path, Path]:
    import pyarrow
    import pyarrow.parquet

    answer = Answer()
    cases = labels(rows, seed=30)
    for case_id, a, b in cases:
        answer.add(case_id, a, b)
    table: Any = pyarrow.table(
        {
            "id": pyarrow.array([case_id for case_id, _, _ in cases], pyarrow.string()),
            "a": pyarrow.array([a for _, a, _ in cases], pyarrow.bool_()),
            "b": pyarrow.array([b for _, _, b in cases], pyarrow.bool_()),
        }
    )
    pyarrow.parquet.write_table(table, folder / "export.parquet")
    return write_case_file(folder, "export.parquet", None, answer), folder / "export.parquet"


#: Set by ``--arrow-threads``: the size of Arrow's thread pool in every child (both sides).
THREADS: dict[str, str] = {}


def child(code: str, args: list[str], cwd: Path) -> Run:
    """One fresh Python process running ``code``: what it measured of itself."""
    environment = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", **THREADS}
    # A PYTHONPATH given to this script (say, another checkout to compare) reaches every run.
    if os.environ.get("PYTHONPATH"):
        environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
    done = subprocess.run(
        [sys.executable, "-c", PEAK + textwrap.dedent(code), *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        print(
            f"error: a benchmark child exited {done.returncode} in {cwd}:\n"
            f"{done.stdout[-3000:]}{done.stderr[-3000:]}",
            file=sys.stderr,
        )
        raise SystemExit(1)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return Run(float(result["cpu"]), float(result.get("load", 0.0)), result["peak_kib"] / 1024)


def has_pyarrow() -> bool:
    try:
        return importlib.util.find_spec("pyarrow") is not None
    except (ImportError, ValueError):
        return False


NAMES = ("mapped-csv", "mapped-tsv", "long-csv", "parquet")
#: Run only when named with --only: a long export in other layouts and formats.
LAYOUTS = ("long-by-grader", "long-lone", "long-jsonl", "quoted-tsv")
#: Each measure: what writes its data, its floor, what the plugin's child is told, its target.
SETUPS: dict[str, tuple[Callable[[Path, int], tuple[Path, Path]], str, list[str], float]] = {
    "mapped-csv": (mapped_csv, CSV_FLOOR_CHILD, [], 1.5),
    "mapped-tsv": (
        functools.partial(mapped_csv, name="export.tsv", delimiter="\t"),
        TSV_FLOOR_CHILD,
        [],
        1.5,
    ),
    "long-csv": (long_csv, CSV_FLOOR_CHILD, [], 2.5),
    "parquet": (parquet, PARQUET_FLOOR_CHILD, ["parquet"], 2.0),
    "long-by-grader": (
        functools.partial(long_csv_layout, lone=False),
        CSV_FLOOR_CHILD,
        [],
        float("inf"),
    ),
    "long-lone": (functools.partial(long_csv_layout, lone=True), CSV_FLOOR_CHILD, [], float("inf")),
    "long-jsonl": (long_jsonl, JSONL_FLOOR_CHILD, [], float("inf")),
    "quoted-tsv": (
        functools.partial(
            mapped_csv,
            name="export.tsv",
            delimiter="\t",
            quoting=csv.QUOTE_NONNUMERIC,
            lineterminator="\r\n",
        ),
        TSV_FLOOR_CHILD,
        [],
        float("inf"),
    ),
}


def prepare(name: str, folder: Path, rows: int) -> Measure:
    """Write the measure's export and case file into ``folder`` (untimed)."""
    write, floor_code, extra, target = SETUPS[name]
    started = time.perf_counter()
    case_file, export = write(folder, rows)
    print(f"{name}: data written in {time.perf_counter() - started:.1f} s", flush=True)
    return Measure(
        name,
        functools.partial(child, OURS_CHILD, [str(case_file), *extra], folder),
        functools.partial(child, floor_code, [str(export)], folder),
        target,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--only", nargs="*", choices=NAMES + LAYOUTS)
    parser.add_argument(
        "--arrow-threads",
        type=int,
        help="Arrow's thread pool size in both sides' children (OMP_NUM_THREADS); its "
        "threads' CPU counts in process_time, and on a small machine their scheduling "
        "swings the Parquet figures",
    )
    options = parser.parse_args()
    if options.arrow_threads:
        THREADS["OMP_NUM_THREADS"] = str(options.arrow_threads)
    started = time.perf_counter()
    names = []
    for name in [name for name in NAMES + LAYOUTS if name in (options.only or NAMES)]:
        if name == "parquet" and not has_pyarrow():
            print("parquet: skipped, pyarrow is not importable (pip install pyarrow)")
            continue
        names.append(name)
    results = run_pairs(
        names, lambda name, folder: prepare(name, folder, options.rows), options.repeats
    )
    print(
        f"\n{options.repeats} alternating pairs each, fresh processes; CPU seconds of the work "
        "only (imports not counted); medians of the per-pair ratios ours / floor; "
        "(load): of ours, loading the case file; (run): the ratio without it, for reference"
    )
    header = (
        f"  {'measure':<11} {'ours s':>7} {'(load)':>7} {'floor s':>8} {'ratio':>6} "
        f"{'target':>7} {'verdict':>7} {'(run)':>6}   {'peak MiB ours / floor':>21}"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))
    for measure, pairs in results:
        ratios = [ours.cpu / floor.cpu for ours, floor in pairs]
        ratio = statistics.median(ratios)
        ours_cpu = statistics.median(ours.cpu for ours, _ in pairs)
        load = statistics.median(ours.load for ours, _ in pairs)
        floor_cpu = statistics.median(floor.cpu for _, floor in pairs)
        peaks = (
            f"{max(ours.peak_mib for ours, _ in pairs):.0f} / "
            f"{max(floor.peak_mib for _, floor in pairs):.0f}"
        )
        run_only = statistics.median((ours.cpu - ours.load) / floor.cpu for ours, floor in pairs)
        verdict = "PASS" if ratio <= measure.target else "OVER"
        bound = f"<= {measure.target}x"
        if measure.target == float("inf"):
            verdict, bound = "-", "none"
        print(
            f"  {measure.name:<11} {ours_cpu:7.2f} {load:7.2f} {floor_cpu:8.2f} {ratio:5.2f}x "
            f"{bound:>7} {verdict:>7} {run_only:5.2f}x   {peaks:>21}"
        )
    print()
    for measure, pairs in results:
        shown = ", ".join(f"{ours.cpu / floor.cpu:.2f}" for ours, floor in pairs)
        print(f"  {measure.name:<11} per-pair ratios {shown}")
    print(f"\ntook {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
