"""Time ``--rubric-update=all`` against a plain run of the same corpus, and across layouts.

    python benchmarks/bench_update.py [--cases 10000] [--files 100] [--repeats 5] [--wrong 0.3]
    python benchmarks/bench_update.py --layouts [--cases 2000] [--repeats 3]

Writes the corpus of ``bench_run.py`` with a share of the expected answers wrong,
then alternates two runs so that machine noise hits both alike:

- ``plain``:  ``pytest`` on the corpus (the wrong cases fail);
- ``update``: ``pytest --rubric-update=all`` on a fresh copy of the same corpus
  (copied before the clock starts), which rewrites every wrong answer.

It prints the median wall time of each and their ratio against the target (1.5x),
and checks that a plain run after the update passes. The corpus holds cases whose
answers are refusals (an invalid input's ``invalid-reason-input``, on purpose), so
both modes write them with ``--rubric-update-refusals``.

With ``--layouts``, the same ``reason`` cases (a share wrong) are written three ways and
updated with ``--rubric-update=all``, alternating: over 40 block-list files, as one
block-list file, as one pretty-printed JSON file (a flow list), and as one JSON file
on a single line. An update must cost
the same per case whatever the file's size and style: it prints each layout's median
and its ratio to the 40 files (target: at most 1.25x).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_run import reason_case, spoil, write_corpus

TARGET = 1.5
LAYOUT_TARGET = 1.25


def run_once(args: list[str], cwd: Path, expect: int) -> float:
    env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}  # no CI variable: updates allowed
    if "PYTHONPATH" in os.environ:  # to time another checkout of the package
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
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


def write_layout(root: Path, layout: str, cases: int, wrong: float, seed: int = 7) -> None:
    """``cases`` reason cases, a share ``wrong``, as 40 block files, one, or one JSON
    file (pretty-printed, or on one line)."""
    rng, spoil_rng = random.Random(seed), random.Random(seed + 1)
    made = []
    for n in range(cases):
        case = reason_case(rng, n)
        if spoil_rng.random() < wrong:
            case["expected"] = spoil(case["expected"])
        made.append(case)
    root.mkdir(parents=True)
    (root / "pytest.ini").write_text("[pytest]\n")
    if layout in ("json", "one line"):
        document = {"evaluator": "reason", "cases": made}
        indent = 2 if layout == "json" else None
        (root / "all.rubric.yaml").write_text(json.dumps(document, indent=indent) + "\n")
        return
    files = 40 if layout == "40 files" else 1
    per_file = -(-cases // files)
    for index in range(files):
        lines = ["evaluator: reason", "cases:"]
        for case in made[index * per_file : (index + 1) * per_file]:
            lines.append(f"  - id: {case['id']}")
            lines.append(f"    input: {json.dumps(case['input'])}")
            lines.append(f"    expected: {json.dumps(case['expected'])}")
        (root / f"part_{index:02d}.rubric.yaml").write_text("\n".join(lines) + "\n")


def layouts(options: argparse.Namespace) -> None:
    names = ("40 files", "one file", "json", "one line")
    times: dict[str, list[float]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="rubric-bench-layouts-") as tmp:
        for repeat in range(options.repeats):
            for name in names:
                copy = Path(tmp) / f"{name.replace(' ', '-')}-{repeat}"
                write_layout(copy, name, options.cases, options.wrong)
                times[name].append(
                    run_once(["--rubric-update=all", "--rubric-update-refusals"], copy, expect=0)
                )
                if repeat == 0:
                    run_once([], copy, expect=0)  # the updated corpus now passes
                shutil.rmtree(copy)
    median = {name: statistics.median(values) for name, values in times.items()}
    print(
        f"{options.cases} reason cases, {options.wrong:.0%} wrong, --rubric-update=all, "
        f"{options.repeats} alternating runs each"
    )
    for name in names:
        ratio = median[name] / median["40 files"]
        verdict = (
            ""
            if name == "40 files"
            else (
                f"   target <= {LAYOUT_TARGET}x   {'met' if ratio <= LAYOUT_TARGET else 'MISSED'}"
            )
        )
        print(f"  {name:<9} median {median[name]:6.2f} s   {ratio:5.2f}x the 40 files{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=None)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--wrong", type=float, default=0.3)
    parser.add_argument("--layouts", action="store_true")
    options = parser.parse_args()
    if options.layouts:
        options.cases = options.cases or 2000
        layouts(options)
        return
    options.cases = options.cases or 10_000
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
            times["update"].append(
                run_once(
                    ["--rubric-update=all", "--rubric-update-refusals", str(copy)], copy, expect=0
                )
            )
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
