"""What ``--rubric-report`` costs, and what a case costs, counted in CPU instructions.

    python benchmarks/bench_instructions.py [--measure report|cases|markdown] [--cases 10000] [--files 100]

Timings on a shared machine drift by half between minutes; a count of the
instructions a whole pytest run executes does not: Valgrind's ``callgrind`` tool
counts them (``valgrind`` must be installed; it runs each process about 50 times
slower, so the 10,000 cases of ``bench_cost.py``'s ``report`` measure take minutes).
The corpus and the runs are those of that measure: ``--cases`` cases in ``--files``
case files, pytest and this plugin only, run once untimed so that pytest's cache holds
the loaded case files, then counted with ``--rubric-report`` and without it, side by
side (in parallel: the counts do not depend on what else runs). Prints the ratio.
``--measure cases`` counts the ``cases`` measure instead: the cases against as many
``def test_N(): pass`` in 100 modules under ``-p no:rubric`` (target 1.0x); ``--measure
cold`` the same from nothing (``--cache-clear`` for both, the test modules'
``__pycache__`` removed: pytest rewrites and compiles them again; target 1.10x);
``--measure unused`` 200 plain test functions and no case file, the plugin on /
``-p no:rubric`` (target 1.02x). ``--measure markdown`` counts a run with
``--rubric-report`` and ``--rubric-markdown`` against the run with ``--rubric-report``
only, a tenth of the cases mismatching (target 1.05x). ``--autoload`` runs pytest as
installed, every installed plugin loaded by pytest (the plugin too, unless ``-p no:rubric``):
as a user with the plugin installed runs it. Without it, ``-p rubric`` has pytest look the
name up through every installed distribution's entry points, which the ``-p no:rubric``
side never does, so the count then charges that look to the plugin.
A count is not a time (a cache miss costs more than an addition), but a change that
counts fewer instructions for the same work is cheaper, and its ratio reproduces.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_cost import empty_tests_project, installed
from bench_run import write_corpus

ENV = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
PYTEST = [sys.executable, "-m", "pytest", "-q"]
OURS = [*PYTEST, "-p", "rubric"]
OFF = [*PYTEST, "-p", "no:rubric"]
_TOTAL = re.compile(r"Collected : (\d+)")


def start(args: list[str], corpus: Path, out: Path) -> subprocess.Popen[str]:
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args]
    return subprocess.Popen(
        [*command, str(corpus)],
        cwd=corpus,
        env={**ENV, "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def counted(child: subprocess.Popen[str], exits: tuple[int, ...] = (0,)) -> int:
    output, _ = child.communicate()
    found = _TOTAL.search(output)
    if child.returncode not in exits or found is None:
        raise SystemExit(f"a counted run failed (exit {child.returncode}):\n{output[-3000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--measure", choices=("report", "cases", "cold", "unused", "markdown"), default="report"
    )
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument(
        "--autoload", action="store_true", help="load every installed pytest plugin, as pytest does"
    )
    options = parser.parse_args()
    if options.autoload:
        OURS[:] = PYTEST  # the plugin loads itself
        del ENV["PYTEST_DISABLE_PLUGIN_AUTOLOAD"]
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    with tempfile.TemporaryDirectory(prefix="rubric-instructions-") as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        spoiled = 0.1 if options.measure == "markdown" else 0.0
        write_corpus(corpus, options.cases, options.files, spoiled)
        (corpus / "pytest.ini").write_text("[pytest]\n")
        if options.measure == "report":
            ours = ([*OURS, f"--rubric-report={work / 'report.json'}"], corpus)
            base = (OURS, corpus)
            label = "--rubric-report on / off"
            target = 1.10
        elif options.measure == "markdown":
            report = f"--rubric-report={work / 'report.json'}"
            ours = ([*OURS, report, f"--rubric-markdown={work / 'summary.md'}"], corpus)
            base = ([*OURS, report], corpus)
            label = "--rubric-markdown on / off (with --rubric-report)"
            target = 1.05
        elif options.measure == "cases":
            empty = empty_tests_project(work / "empty", options.cases, 100)
            ours, base = (OURS, corpus), (OFF, empty)
            label = "cases / empty test functions"
            target = 1.0
        elif options.measure == "unused":
            plain = empty_tests_project(work / "plain", 200, 1)
            ours, base = (OURS, plain), (OFF, plain)
            label = "plain tests, plugin unused / -p no:rubric"
            target = 1.02
        else:
            empty = empty_tests_project(work / "empty", options.cases, 100)
            ours, base = ([*OURS, "--cache-clear"], corpus), ([*OFF, "--cache-clear"], empty)
            label = "cases / empty test functions, from nothing"
            target = 1.10
        for command, folder in (ours, base):  # caches made, as a rerun finds them
            subprocess.run([*command, str(folder)], cwd=folder, env=ENV, capture_output=True)
        if options.measure == "cold":  # --cache-clear drops pytest's; these are Python's
            for folder in empty.rglob("__pycache__"):
                shutil.rmtree(folder)
        counted_ours = start(ours[0], ours[1], work / "ours.out")
        counted_base = start(base[0], base[1], work / "base.out")
        exits = (0, 1) if spoiled else (0,)  # mismatching cases fail the run
        with_plugin, without = counted(counted_ours, exits), counted(counted_base, exits)
    ratio = with_plugin / without
    unused = options.measure == "unused"
    count, unit = (200, "test") if unused else (options.cases, "case")
    print(
        f"{count:,} {unit}s: {label}, instructions of the whole run: {ratio:.4f}x "
        f"({with_plugin:,} / {without:,}; {(with_plugin - without) / count:,.0f} more "
        f"a {unit})   target <= {target}x   {'met' if ratio <= target else 'MISSED'}"
    )
    loaded = "every installed plugin loaded" if options.autoload else "pytest and this plugin only"
    print(f"the plugin: {installed()}; {loaded}")


if __name__ == "__main__":
    main()
