"""Reading a spreadsheet (``.xlsx``) against python-calamine's own iteration of its rows, side by
side in one run; and the two readers that were candidates, beside each other.

    python benchmarks/bench_xlsx.py [--rows 100000] [--repeats 5] [--candidates [--sheet PATH]]

Two sheets are written once each, untimed, with openpyxl's write-only mode (the test extra),
``--rows`` rows under a header: ``plain``, ``id,a,b`` (text IDs, Boolean labels), and ``wide``,
``id,a,b,score,note`` (a number and a text besides). For each sheet and measure,
each side runs once untimed (the file cache warm) and ``--repeats`` pairs, alternating plugin /
floor, each in a fresh Python process, so that noise from other work on the machine hits both
sides of a pair alike. Only the work is timed, in CPU time (``time.process_time``, every thread
counted), imports first and not counted:

- ``rows``: the format's rows (``XLSX.rows``, every row as the mapping a ledger reads) / the
  floor, ``CalamineWorkbook.from_path(...).get_sheet_by_index(0).iter_rows()`` run through
  (target 1.3x);
- ``ledger``: the whole case, an agreement ledger of the sheet loaded and run as the plugin's
  items run it (no target: what a case costs beside the same floor).

It prints the median of the per-pair ratios and each side's peak memory (VmHWM, the largest
over its runs; interpreter and imports included on both sides alike).

``--candidates`` also times the two readers that were weighed for the extra, each iterating
every row of the same sheet in a fresh process: python-calamine, and openpyxl in read-only
mode (``load_workbook(read_only=True, data_only=True)``, ``iter_rows(values_only=True)``),
with each one's peak memory over its import alone; ``--sheet PATH`` runs them on a sheet of
your own instead (one a spreadsheet program saved: its text in a shared-strings table).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_exports import PEAK

#: The floor: python-calamine's own iteration of the sheet's rows.
FLOOR_CHILD = """
import json, sys, time
import python_calamine

start = time.process_time()
rows = 0
for row in python_calamine.CalamineWorkbook.from_path(sys.argv[1]).get_sheet_by_index(0).iter_rows():
    rows += 1
end = time.process_time()
print(json.dumps({"cpu": end - start, "rows": rows, "peak_kib": peak_kib()}))
"""
#: The format's rows, as a ledger's pass reads them.
ROWS_CHILD = """
import json, sys, time
from pathlib import Path
import python_calamine
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.formats.xlsxfile import XLSX

path = Path(sys.argv[1])
file = InputFile(text=path.name, path=path, display=path.name, format=XLSX)
start = time.process_time()
rows = 0
for row in XLSX.rows(file, "bench.rubric.yaml", Cursor()):
    rows += 1
end = time.process_time()
print(json.dumps({"cpu": end - start, "rows": rows + 1, "peak_kib": peak_kib()}))
"""
#: The whole case: the case file loaded and its agreement ledger run.
LEDGER_CHILD = """
import json, sys, time
from pathlib import Path
import python_calamine
from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.inputs.formats import xlsxfile
from pytest_rubric.running.runner import run_case

path = Path(sys.argv[1])
start = time.process_time()
(case,) = load_case_file(path, path.name, root=path.parent).cases
outcome = run_case(case, AGREEMENT, path=path.name, source="built in")
end = time.process_time()
if outcome.outcome != "matched":
    sys.exit(f"the case was {outcome.outcome}: {outcome.problems}")
print(json.dumps({"cpu": end - start, "rows": outcome.actual["total"] + 1, "peak_kib": peak_kib()}))
"""
OPENPYXL_CHILD = """
import json, sys, time
import openpyxl

imported = peak_kib()
start = time.process_time()
book = openpyxl.load_workbook(sys.argv[1], read_only=True, data_only=True)
rows = sum(1 for _ in book.worksheets[0].iter_rows(values_only=True))
book.close()
end = time.process_time()
print(json.dumps({"cpu": end - start, "rows": rows, "peak_kib": peak_kib(), "imported": imported}))
"""
CALAMINE_CHILD = FLOOR_CHILD.replace(
    "start = time.process_time()", "imported = peak_kib()\nstart = time.process_time()"
).replace('"peak_kib": peak_kib()}', '"peak_kib": peak_kib(), "imported": imported}')


def write_sheet(folder: Path, rows: int, wide: bool = True) -> tuple[Path, dict[str, object]]:
    """The sheet and its case file (expecting the exact answer, disagreements and all)."""
    import openpyxl  # type: ignore[import-untyped]

    rng = random.Random(43)
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("ratings")
    sheet.append(["id", "a", "b", "score", "note"][: 5 if wide else 3])
    matrix = {"bothPass": 0, "bothFail": 0, "aOnly": 0, "bOnly": 0}
    disagreements = []
    for n in range(rows):
        a = rng.random() < 0.7
        b = a if rng.random() < 0.8 else not a
        case_id = f"case-{n:07d}"
        cell = "bothPass" if a and b else "bothFail" if not (a or b) else "aOnly" if a else "bOnly"
        matrix[cell] += 1
        if a != b:
            disagreements.append(case_id)
        sheet.append([case_id, a, b, rng.randint(1, 5), f"note {n % 97}"][: 5 if wide else 3])
    path = folder / "ratings.xlsx"
    book.save(path)
    answer = {
        "matrix": matrix,
        "agreement": matrix["bothPass"] + matrix["bothFail"],
        "total": rows,
        "disagreements": disagreements,
    }
    (folder / "ratings.rubric.yaml").write_text(
        "evaluator: agreement\ncases:\n  - id: ratings\n    input_file: ratings.xlsx\n"
        f"    expected: {json.dumps(answer)}\n",
        encoding="utf-8",
    )
    return path, answer


def child(code: str, *args: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", PEAK + code, *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"a child failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


def side_by_side(name: str, ours: list[str], floor: list[str], repeats: int, target: str) -> None:
    child(*ours)
    child(*floor)  # warm, untimed
    ratios: list[float] = []
    peaks: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        mine, base = child(*ours), child(*floor)
        if mine["rows"] != base["rows"]:
            sys.exit(f"{name}: {mine['rows']} rows against the floor's {base['rows']}")
        ratios.append(mine["cpu"] / base["cpu"])
        peaks[0].append(mine["peak_kib"] / 1024)
        peaks[1].append(base["peak_kib"] / 1024)
    ratio = statistics.median(ratios)
    print(
        f"{name:<13} {ratio:.2f}x (target {target}; pairs {', '.join(f'{r:.2f}' for r in ratios)})"
        f"; peak {max(peaks[0]):.0f} MiB against {max(peaks[1]):.0f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--candidates", action="store_true")
    parser.add_argument("--sheet", type=Path, help="the candidates' sheet (default: the wide one)")
    options = parser.parse_args()
    for kind in ("plain", "wide"):
        with tempfile.TemporaryDirectory() as name:
            path, _ = write_sheet(Path(name), options.rows, kind == "wide")
            sheet = str(path)
            case = str(Path(name) / "ratings.rubric.yaml")
            size = path.stat().st_size / 2**20
            print(f"{kind}: {options.rows:,} rows, {size:.1f} MiB; median of pairs")
            repeats = options.repeats
            side_by_side(f"{kind} rows", [ROWS_CHILD, sheet], [FLOOR_CHILD, sheet], repeats, "1.3x")
            side_by_side(f"{kind} ledger", [LEDGER_CHILD, case], [FLOOR_CHILD, sheet], repeats, "-")
    if options.candidates:
        with tempfile.TemporaryDirectory() as name:
            sheet = str(options.sheet or write_sheet(Path(name), options.rows)[0])
            for reader, code in (("calamine", CALAMINE_CHILD), ("openpyxl", OPENPYXL_CHILD)):
                runs = [child(code, sheet) for _ in range(options.repeats)]
                best = min(run["cpu"] for run in runs)
                grown = max(run["peak_kib"] - run["imported"] for run in runs) / 1024
                print(
                    f"candidate {reader:<9} best {best:.2f} s CPU; {grown:.0f} MiB over its import"
                )


if __name__ == "__main__":
    main()
