"""Time ``--rubric-update=all`` against a plain run of the same corpus.

    python benchmarks/bench_update.py [--cases 10000] [--files 100] [--repeats 5] [--wrong 0.3]

Writes the corpus of ``bench_run.py`` with a share of the expected answers wrong,
then alternates two runs so that machine noise hits both alike:

- ``plain``:  ``pytest`` on the corpus (the wrong cases fail);
- ``update``: ``pytest --rubric-update=all`` on a fresh copy of the same corpus
  (copied before the clock starts), which rewrites every wrong answer.

It prints the median wall time of each and their ratio against the target (1.5x),
and checks that a plain run after the update passes.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_run import write_corpus

TARGET = 1.5


def run_once(args: list[str], cwd: Path, expect: int) -> float:
    env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}  # no CI variable: updates allowed
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != expect:
        raise SystemExit(
            f"pytest {' '.join(args)} exited {done.returncode}:\n{done.stdout[-3000:]}"
        )
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--wrong", type=float, default=0.3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rubric-bench-update-") as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        write_corpus(corpus, options.cases, options.files, options.wrong)
        (corpus / "pytest.ini").write_text("[pytest]\n")
        times: dict[str, list[float]] = {"plain": [], "update": []}
        for repeat in range(options.repeats):
            copy = work / f"update-{repeat}"
            shutil.copytree(corpus, copy)
            times["plain"].append(run_once([str(corpus)], corpus, expect=1))
            times["update"].append(run_once(["--rubric-update=all", str(copy)], copy, expect=0))
            if repeat == 0:
                run_once([str(copy)], copy, expect=0)  # the updated corpus now passes
            shutil.rmtree(copy)
    median = {name: statistics.median(values) for name, values in times.items()}
    print(
        f"{options.cases} cases in {options.files} files, {options.wrong:.0%} wrong, "
        f"{options.repeats} alternating runs each"
    )
    for name, value in median.items():
        runs = ", ".join(f"{v:.2f}" for v in times[name])
        print(f"  {name:<7} median {value:6.2f} s   (runs: {runs})")
    ratio = median["update"] / median["plain"]
    verdict = "met" if ratio <= TARGET else "MISSED"
    print(f"  update / plain {ratio:5.2f}x   target <= {TARGET}x   {verdict}")


if __name__ == "__main__":
    main()
