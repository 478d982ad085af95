"""What ``group_by`` costs: a 1,000,000-row ledger run with it, against the same ledger
without it, in the same run.

    python benchmarks/bench_groups.py [--rows 1000000] [--repeats 3] [--only NAME ...]

Each layout is a ledger file with a group column (ten categories) and one agreement
case reading it under ``ledger:``; each measurement is a whole ``pytest`` run in a fresh
process (``-p no:cacheprovider -n 0``), the two alternating, and reports its wall time,
CPU time and peak RSS. Layouts:

- ``csv``:       ``id,category,judge,desk`` rows, ``group_by: category``;
- ``jsonl``:     ``{"id", "meta": {"category"}, "judge", "desk"}`` rows, ``group_by:
  meta.category`` (a key path);
- ``judgements``: one row per judgement (CSV ``item,category,annotator,verdict``, two
  graders, each case's two judgements on adjacent lines), ``group_by: category``: tallied
  a block at a time either way, the groups counted in the blocks.
- ``report``:    the ``csv`` layout with ``--rubric-report`` (the review pass too).

It prints, per layout, the median wall and CPU time of each side, and the ratio grouped
over plain (goal: at most 1.3x on a 1,000,000-row ledger), with the range of the pairs.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = [f"desk-{n}" for n in range(10)]


def cases(rows: int, rng: random.Random) -> Iterator[tuple[str, str, bool, bool]]:
    """Each case's ID, category and two labels: 60% pass for a, b agreeing 90% of the time."""
    for number in range(rows):
        a = rng.random() < 0.6
        yield f"h{number:07d}", rng.choice(CATEGORIES), a, a if rng.random() < 0.9 else not a


def write_csv(path: Path, rows: int, rng: random.Random) -> None:
    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["id", "category", "judge", "desk"])
        for case_id, category, a, b in cases(rows, rng):
            writer.writerow([case_id, category, str(a).lower(), str(b).lower()])


def write_jsonl(path: Path, rows: int, rng: random.Random) -> None:
    with path.open("w", encoding="utf-8") as stream:
        for case_id, category, a, b in cases(rows, rng):
            row = {"id": case_id, "meta": {"category": category}, "judge": a, "desk": b}
            stream.write(json.dumps(row) + "\n")


def write_judgements(path: Path, rows: int, rng: random.Random) -> None:
    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["item", "category", "annotator", "verdict"])
        for case_id, category, a, b in cases(rows, rng):
            writer.writerow([case_id, category, "judge", "PASS" if a else "FAIL"])
            writer.writerow([case_id, category, "editor", "PASS" if b else "FAIL"])


LAYOUTS = {
    "csv": (
        "ledger.csv",
        write_csv,
        "{id: id, a: judge, b: desk",
        "group_by: category",
    ),
    "jsonl": (
        "ledger.jsonl",
        write_jsonl,
        "{id: id, a: judge, b: desk",
        "group_by: meta.category",
    ),
    "judgements": (
        "judgements.csv",
        write_judgements,
        "{id: item, rows: per-judgement, grader: annotator, label: verdict, a: judge, "
        "b: editor, labels: {PASS: true, FAIL: false}",
        "group_by: category",
    ),
}


def project(folder: Path, layout: str, rows: int, grouped: bool) -> Path:
    """A project of one agreement case over the layout's ledger (written once, shared)."""
    name, write, ledger, group = LAYOUTS[layout]
    data = folder / "data" / f"{rows}-{name}"
    if not data.exists():
        data.parent.mkdir(parents=True, exist_ok=True)
        write(data, rows, random.Random(7))
    place = folder / f"{layout}-{'grouped' if grouped else 'plain'}"
    place.mkdir(exist_ok=True)
    link = place / name
    if not link.exists():
        os.link(data, link)  # a hard link: a symlink out of the project is refused
    block = f"{ledger}, {group}}}" if grouped else f"{ledger}}}"
    (place / "ledger.rubric.yaml").write_text(
        f"evaluator: agreement\ncases:\n  - id: whole\n    input_file: {name}\n"
        f"    ledger: {block}\n    expected_subset: {{total: {rows}}}\n",
        encoding="utf-8",
    )
    return place


def run(place: Path, extra: list[str]) -> tuple[float, float, int]:
    """Wall and CPU seconds of one pytest run in ``place``, and its peak RSS (KiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", *extra],
        cwd=place,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", str(ROOT))},
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or "1 passed" not in done.stdout:  # every row counted
        raise SystemExit(f"pytest exited {done.returncode} in {place}:\n{done.stdout[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=[*LAYOUTS, "report"], default=None)
    args = parser.parse_args()
    chosen = args.only or [*LAYOUTS, "report"]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        print(f"{args.rows:,} rows, {args.repeats} alternating pairs per layout")
        print(f"{'layout':<12}{'plain s':>10}{'grouped s':>11}{'ratio':>8}{'range':>15}{'CPU':>8}")
        for name in chosen:
            layout = "csv" if name == "report" else name
            extra = ["--rubric-report=report.json"] if name == "report" else []
            plain = project(folder, layout, args.rows, grouped=False)
            grouped = project(folder, layout, args.rows, grouped=True)
            run(plain, extra)  # warm the page cache with the file
            walls: list[tuple[float, float]] = []
            cpus: list[tuple[float, float]] = []
            for _ in range(args.repeats):
                p_wall, p_cpu, _ = run(plain, extra)
                g_wall, g_cpu, _ = run(grouped, extra)
                walls.append((p_wall, g_wall))
                cpus.append((p_cpu, g_cpu))
            ratios = [g / p for p, g in walls]
            p_med = statistics.median(p for p, _ in walls)
            g_med = statistics.median(g for _, g in walls)
            cpu_ratio = statistics.median(g for _, g in cpus) / statistics.median(
                p for p, _ in cpus
            )
            print(
                f"{name:<12}{p_med:>10.2f}{g_med:>11.2f}{g_med / p_med:>7.2f}x"
                f"{f'{min(ratios):.2f}-{max(ratios):.2f}x':>15}{cpu_ratio:>7.2f}x"
            )


if __name__ == "__main__":
    main()
