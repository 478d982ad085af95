"""Collection cost per case at 10,000 and at 100,000 cases: does it stay linear?

    python benchmarks/bench_scaling.py [--small 10000] [--large 100000] [--repeats 3]

Writes two corpora with 100 cases per file (the generator of ``bench_run.py``) and
an empty project, then times ``pytest --collect-only -q`` on each, alternating.
The per-case cost is (median time - median empty-run time) / cases; the script
prints both and their ratio (target: within 20%, i.e. a ratio of 0.8 to 1.2).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_run import write_corpus

PER_FILE = 100


def collect(folder: Path, expected: int) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    wanted = 5 if expected == 0 else 0  # pytest exits 5 when nothing is collected
    if done.returncode != wanted or (expected and f"{expected} tests collected" not in done.stdout):
        raise SystemExit(
            f"collect-only in {folder} exited {done.returncode}:\n{done.stdout[-2000:]}"
        )
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    sizes = {"empty": 0, "small": options.small, "large": options.large}
    with tempfile.TemporaryDirectory(prefix="rubric-scaling-") as tmp:
        folders = {}
        for name, cases in sizes.items():
            folder = Path(tmp) / name
            if cases:
                write_corpus(folder, cases, cases // PER_FILE, 0.0)
            else:
                folder.mkdir()
            (folder / "pytest.ini").write_text("[pytest]\n")
            folders[name] = folder
        times: dict[str, list[float]] = {name: [] for name in sizes}
        for _ in range(options.repeats):
            for name, cases in sizes.items():
                times[name].append(collect(folders[name], cases))
    median = {name: statistics.median(values) for name, values in times.items()}
    per_case = {}
    for name, cases in sizes.items():
        runs = ", ".join(f"{v:.2f}" for v in times[name])
        line = f"  {name:<6} {cases:>7,} cases  median {median[name]:6.2f} s  (runs: {runs})"
        if cases:
            per_case[name] = (median[name] - median["empty"]) / cases
            line += f"   {per_case[name] * 1e6:6.1f} us per case"
        print(line)
    ratio = per_case["large"] / per_case["small"]
    ok = 0.8 <= ratio <= 1.2
    print(
        f"  per-case cost large/small  {ratio:.2f}x   target 0.8-1.2x   {'met' if ok else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
