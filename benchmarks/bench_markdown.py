"""What the Markdown costs, side by side in one run: a run that writes it against the same run
without it, and ``diff --markdown`` against ``diff --json``.

    python benchmarks/bench_markdown.py [--cases 10000] [--rows 1000000] [--repeats 5]

- ``run``: ``--cases`` cases in 100 case files (the corpus of ``bench_run.py``, a tenth
  of them mismatching), pytest with ``--rubric-report`` and ``--rubric-markdown`` against
  pytest with ``--rubric-report`` only (wall and CPU; target 1.05x): what writing the
  Markdown adds to a run that keeps full records. Also, for the record, ``--rubric-markdown``
  alone against a run with no output (which keeps brief records), untargeted.
- ``diff``: ``diff --markdown`` against ``diff --json`` of two reports of ``--cases``
  cases, 1% of them changed (the reports of ``bench_diff.py``; target 1.1x), and the same on
  two reports of one ``--rows``-row ledger, 3,000 rows flipped (target 1.1x).

Every pytest run loads pytest and this plugin only (``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1``,
``-p rubric``), serially, pytest's cache holding the loaded case files (each setup is run
once untimed first). Each pair runs in fresh processes, ``--repeats`` times, each side
first in every other pair; the median of the per-pair ratios is printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_diff import make_reports
from bench_run import write_corpus

PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "rubric", "-p", "no:randomly"]
DIFF = [sys.executable, "-m", "pytest_rubric", "diff"]


def timed(argv: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one process running ``argv`` in ``cwd``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env.pop("GITHUB_STEP_SUMMARY", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(
            f"{argv} failed ({done.returncode}):\n{done.stdout[-1500:]!r}{done.stderr[-1500:]!r}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def pair(
    label: str, ours: list[str], base: list[str], cwd: Path, repeats: int, target: float | None
) -> None:
    timed(ours, cwd), timed(base, cwd)  # caches as a rerun finds them
    walls, cpus = [], []
    for number in range(repeats):
        if number % 2:  # each side goes first in every other pair
            b, o = timed(base, cwd), timed(ours, cwd)
        else:
            o, b = timed(ours, cwd), timed(base, cwd)
        walls.append(o[0] / b[0])
        cpus.append(o[1] / b[1])
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    aim = f"   target <= {target}x" if target is not None else ""
    print(
        f"  {label:<62} {wall:5.3f}x wall, {cpu:5.3f}x CPU{aim}"
        f"   (wall ratios {', '.join(f'{r:.3f}' for r in walls)})"
    )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", choices=("run", "diff"), default=None)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        print(f"{options.repeats} alternating pairs each; medians of the per-pair ratios")
        if options.only in (None, "run"):
            corpus = work / "corpus"
            write_corpus(corpus, options.cases, 100, 0.1)
            report, markdown = (
                f"--rubric-report={work / 'r.json'}",
                f"--rubric-markdown={work / 's.md'}",
            )
            pair(
                f"{options.cases:,} cases: report + Markdown / report only",
                [*PYTEST, report, markdown],
                [*PYTEST, report],
                corpus,
                options.repeats,
                1.05,
            )
            pair(
                f"{options.cases:,} cases: Markdown only / no output (for the record)",
                [*PYTEST, markdown],
                PYTEST,
                corpus,
                options.repeats,
                None,
            )
            print(f"  Markdown written: {(work / 's.md').stat().st_size:,} bytes")
        if options.only in (None, "diff"):
            for label, cases, rows in (
                (f"diff of two reports of {options.cases:,} cases", options.cases, 10),
                (f"diff of two reports of a {options.rows:,}-row ledger", 0, options.rows),
            ):
                folder = work / f"diff-{cases}-{rows}"
                folder.mkdir()
                make_reports(folder, cases, rows)
                old, new = str(folder / "old.json"), str(folder / "new.json")
                pair(
                    f"{label}: --markdown / --json",
                    [*DIFF, "--markdown", old, new],
                    [*DIFF, "--json", old, new],
                    folder,
                    options.repeats,
                    1.1,
                )


if __name__ == "__main__":
    main()
