"""A table kept as columns and data (pandas' ``to_json(orient="split")``) against ``json.load``
of the file, side by side.

    python benchmarks/bench_tables.py [--repeats 5] [--rows 1000000] [--no-index]

The method is ``bench_exports.py``'s, and so are its children and helpers: the table is
written once into a temporary folder (untimed), ``{"columns": ["id", "judge", "desk",
"section"], "index": [...], "data": [["c0000001", true, "PASS", "local"], ...]}`` as pandas
writes it (compact; ``--no-index`` as ``index=False`` and MLflow write it), about 70% of the
judge's labels true and the desk agreeing about 80% of the time. Each side runs once untimed
(the file cache warm), then ``--repeats`` alternating pairs, each in a fresh Python process,
timed in CPU seconds inside the child. Three measures, each against the same floor,
``json.load`` of the file:

- ``rows``: the table read, its rows as the ``.json`` format hands them over (each a
  mapping from the column names), counted (goal 1.5x);
- ``ledger``: those rows mapped into ledger rows as the case's ``ledger: {id: id, a:
  judge, b: desk, labels: ...}`` says (``FileRows``), counted; no goal (the mapping is
  every format's);
- ``case``: the whole case, loaded and run as the plugin's items run it (the ``agreement``
  evaluator's answer, checked to mismatch in its disagreements alone); no goal.

Printed: the median of the per-pair ratios (ours / floor) and each side's peak resident set.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from bench_exports import OURS_CHILD, Answer, Run, child, run_pairs, write_case_file

#: The floor: ``json.load`` of the whole file.
FLOOR_CHILD = """
import json, sys, time

start = time.process_time()
with open(sys.argv[1], encoding="utf-8") as stream:
    table = json.load(stream)
rows = len(table["data"])
end = time.process_time()
print(json.dumps({"cpu": end - start, "rows": rows, "peak_kib": peak_kib()}))
"""
#: Ours, reading: the rows the ``.json`` format hands over (argv[2] ``rows``), or the
#: ledger rows the case's ``ledger:`` block maps them into (``ledger``).
READ_CHILD = """
import json, sys, time
from pathlib import Path

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.reading import open_input

path = Path(sys.argv[1])
(case,) = load_case_file(path, path.name, root=path.parent).cases
file = case.input_file
start = time.process_time()
if sys.argv[2] == "rows":
    rows = sum(1 for _ in file.reader.rows(file, path.name, Cursor()))
else:
    rows = sum(1 for _ in open_input(file, path.name))
end = time.process_time()
print(json.dumps({"cpu": end - start, "rows": rows, "peak_kib": peak_kib()}))
"""
LEDGER = "{id: id, a: judge, b: desk, labels: [[PASS, true], [FAIL, false], [true, true], [false, false]]}"


@dataclass
class Measure:
    name: str
    ours: functools.partial[Run]
    floor: functools.partial[Run]
    target: float


def write_table(folder: Path, rows: int, index: bool) -> Path:
    """The table and its one-case file; the case file's path."""
    answer = Answer()
    rng = random.Random(45)
    data = []
    for n in range(rows):
        judge = rng.random() < 0.7
        desk = judge if rng.random() < 0.8 else not judge
        case_id = f"c{n:07d}"
        data.append([case_id, judge, "PASS" if desk else "FAIL", rng.choice(("local", "sport"))])
        answer.add(case_id, judge, desk)
    table: dict[str, object] = {"columns": ["id", "judge", "desk", "section"]}
    if index:
        table["index"] = list(range(rows))
    table["data"] = data
    path = folder / "table.json"
    path.write_text(json.dumps(table, separators=(",", ":")), encoding="utf-8")
    return write_case_file(folder, "table.json", LEDGER, answer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--no-index", action="store_true")
    options = parser.parse_args()
    started = time.perf_counter()

    def prepare(name: str, folder: Path) -> Measure:
        case_file = write_table(folder, options.rows, not options.no_index)
        size = (folder / "table.json").stat().st_size / 1e6
        print(f"{name}: table.json {size:.0f} MB, {options.rows} rows", flush=True)
        if name == "case":
            ours = functools.partial(child, OURS_CHILD, [str(case_file)], folder)
        else:
            ours = functools.partial(child, READ_CHILD, [str(case_file), name], folder)
        target = 1.5 if name == "rows" else float("inf")
        floor = functools.partial(child, FLOOR_CHILD, [str(folder / "table.json")], folder)
        return Measure(name, ours, floor, target)

    results = run_pairs(["rows", "ledger", "case"], prepare, options.repeats)
    print(
        f"\n{options.repeats} alternating pairs each, fresh processes; CPU seconds of the work "
        "only; medians of the per-pair ratios ours / floor (json.load of the file)"
    )
    for measure, pairs in results:
        ratio = statistics.median(ours.cpu / floor.cpu for ours, floor in pairs)
        ours_cpu = statistics.median(ours.cpu for ours, _ in pairs)
        floor_cpu = statistics.median(floor.cpu for _, floor in pairs)
        peak = f"{max(o.peak_mib for o, _ in pairs):.0f} / {max(f.peak_mib for _, f in pairs):.0f}"
        goal = "none" if measure.target == float("inf") else f"<= {measure.target}x"
        verdict = "-" if goal == "none" else "PASS" if ratio <= measure.target else "OVER"
        print(
            f"  {measure.name:<6} {ours_cpu:6.2f} s / {floor_cpu:5.2f} s {ratio:5.2f}x "
            f"(goal {goal}: {verdict}); peak MiB ours / floor {peak}"
        )
    print(f"\ntook {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
