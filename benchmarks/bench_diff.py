"""Time and measure the memory of ``pytest-rubric diff`` on two reports of 10,000 cases and
a 1,000,000-row agreement ledger each, against reading the two files.

    python benchmarks/bench_diff.py [--cases 10000] [--rows 1000000] [--repeats 5]

The reports are real: a generated project (``--cases`` reason cases in files of 1,000,
and one agreement case whose ``input_file`` is a JSONL ledger of ``--rows`` rows, a tenth
of them disagreements) is run by pytest with ``--rubric-report``; then 1% of the cases'
expected answers are changed and 3,000 of the ledger's rows flipped (1,500 disagreements
enter, 1,500 leave), and it is run again. The review keeps the default 1,000 rows.

Each measurement runs in a fresh Python process, alternating, and reports its wall time
and peak RSS (``ru_maxrss`` of that process):

- ``read``:       ``json.load`` of both reports, both held: the floor any comparison pays;
- ``diff-json``:  ``python -m pytest_rubric diff --json OLD NEW``;
- ``diff-text``:  ``python -m pytest_rubric diff OLD NEW``.

It prints the medians, and each one's ratio to ``read`` (time and memory).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILE_CASES = 1000
#: A tenth of the ledger's rows disagree; this many rows are flipped between the runs.
FLIPPED = 3000
#: The floor: both reports read and held, as any comparison holds them.
READ = (
    "import json, sys\nkept = [json.load(open(name, encoding='utf-8')) for name in sys.argv[1:]]\n"
)


def reason_file(start: int, count: int, changed: set[int]) -> str:
    lines = ["evaluator: reason", "cases:"]
    for n in range(start, start + count):
        coherent = "false" if n in changed else "true"
        lines.append(
            f"  - {{id: case-{n:05d}, input: {{fields: {{title: true, source: true}}, "
            f"pass: true, reasons: [all-required-met]}}, expected: {{expectedPass: true, "
            f"expectedReasons: [all-required-met], coherent: {coherent}}}}}"
        )
    return "\n".join(lines) + "\n"


def ledger_rows(rows: int, flipped: set[int]) -> tuple[str, dict[str, object]]:
    """The JSONL ledger (every tenth row a disagreement, the ``flipped`` rows swapped
    between agreeing and disagreeing) and its agreement answer."""
    out: list[str] = []
    matrix = {"bothPass": 0, "bothFail": 0, "aOnly": 0, "bOnly": 0}
    ids: list[str] = []
    for n in range(rows):
        disagree = (n % 10 == 0) != (n in flipped)
        a = n % 3 != 0
        b = (not a) if disagree else a
        key = ("bothPass" if a else "bothFail") if a == b else ("aOnly" if a else "bOnly")
        matrix[key] += 1
        if disagree:
            ids.append(f"row-{n:07d}")
        out.append(f'{{"id": "row-{n:07d}", "a": {json.dumps(a)}, "b": {json.dumps(b)}}}')
    answer = {
        "matrix": matrix,
        "agreement": matrix["bothPass"] + matrix["bothFail"],
        "total": rows,
        "disagreements": ids,
    }
    return "\n".join(out) + "\n", answer


def write_project(
    folder: Path, cases: int, rows: int, changed: set[int], flipped: set[int]
) -> None:
    for start in range(0, cases, FILE_CASES):
        count = min(FILE_CASES, cases - start)
        text = reason_file(start, count, changed)
        (folder / f"cases_{start // FILE_CASES:03d}.rubric.yaml").write_text(text)
    text, _answer = ledger_rows(rows, flipped)
    (folder / "big.jsonl").write_text(text)
    (folder / "ledger.rubric.yaml").write_text(
        "evaluator: agreement\ncases:\n  - id: big\n    input_file: big.jsonl\n"
        f"    expected_subset: {{total: {rows}}}\n"
    )


def run_report(folder: Path, out: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            f"--rubric-report={out}",
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1) or not out.exists():
        sys.exit(f"the run that writes {out.name} failed:\n{done.stdout[-2000:]}{done.stderr}")


def make_reports(folder: Path, cases: int, rows: int) -> None:
    """``old.json`` and ``new.json`` in ``folder``, from two runs of a generated project."""
    shuffled = random.Random(37)
    project = folder / "project"
    project.mkdir()
    write_project(project, cases, rows, set(), set())
    run_report(project, folder / "old.json")
    changed = set(shuffled.sample(range(cases), cases // 100))
    # Half the flipped rows disagreed (they leave), half agreed (they enter).
    half = min(FLIPPED, rows // 10) // 2
    flipped = set(shuffled.sample(range(0, rows, 10), half))
    flipped |= set(shuffled.sample([n for n in range(rows) if n % 10], half))
    write_project(project, cases, rows, changed, flipped)
    run_report(project, folder / "new.json")


def measure(argv: list[str]) -> tuple[float, float]:
    """Seconds and peak RSS (MB) of one process running ``argv``."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        sys.exit(f"{argv} failed: {process.stderr.read().decode() if process.stderr else ''}")
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--make", metavar="FOLDER", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.make:
        make_reports(Path(options.make), options.cases, options.rows)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        old, new = folder / "old.json", folder / "new.json"
        started = time.perf_counter()
        # Made in another process: a child's peak RSS starts from its parent's size at fork.
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--make",
                tmp,
                "--cases",
                str(options.cases),
                "--rows",
                str(options.rows),
            ],
            check=True,
        )
        made = time.perf_counter() - started
        sizes = ", ".join(f"{path.name} {path.stat().st_size / 1e6:.1f} MB" for path in (old, new))
        print(f"reports made by two pytest runs in {made:.1f}s: {sizes}")
        probes = {
            "read": [sys.executable, "-c", READ, str(old), str(new)],
            "diff-json": [
                sys.executable,
                "-m",
                "pytest_rubric",
                "diff",
                "--json",
                str(old),
                str(new),
            ],
            "diff-text": [sys.executable, "-m", "pytest_rubric", "diff", str(old), str(new)],
        }
        said = subprocess.run(probes["diff-text"], capture_output=True, text=True, check=False)
        summary = said.stdout.splitlines()[0]
        print(f"diff says: {summary}")
        times: dict[str, list[float]] = {name: [] for name in probes}
        peaks: dict[str, list[float]] = {name: [] for name in probes}
        for _ in range(options.repeats):
            for name, argv in probes.items():
                seconds, peak = measure(argv)
                times[name].append(seconds)
                peaks[name].append(peak)
    floor_time = statistics.median(times["read"])
    floor_peak = statistics.median(peaks["read"])
    print(
        f"\n{options.cases:,} cases and a {options.rows:,}-row ledger per report, "
        f"median of {options.repeats}"
    )
    print(f"{'probe':<10} {'seconds':>8} {'x read':>7} {'peak MB':>8} {'x read':>7}")
    for name in probes:
        seconds, peak = statistics.median(times[name]), statistics.median(peaks[name])
        print(
            f"{name:<10} {seconds:>8.3f} {seconds / floor_time:>7.2f} "
            f"{peak:>8.1f} {peak / floor_peak:>7.2f}"
        )


if __name__ == "__main__":
    main()
