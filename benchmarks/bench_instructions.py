"""What ``--rubric-report`` costs, counted in CPU instructions rather than timed.

    python benchmarks/bench_instructions.py [--cases 10000] [--files 100]

Timings on a shared machine drift by half between minutes; a count of the
instructions a whole pytest run executes does not: Valgrind's ``callgrind`` tool
counts them (``valgrind`` must be installed; it runs each process about 50 times
slower, so the 10,000 cases of ``bench_cost.py``'s ``report`` measure take minutes).
The corpus and the runs are those of that measure: ``--cases`` cases in ``--files``
case files, pytest and this plugin only, run once untimed so that pytest's cache holds
the loaded case files, then counted with ``--rubric-report`` and without it, side by
side (in parallel: the counts do not depend on what else runs). Prints the ratio.
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

from bench_run import write_corpus

ENV = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "rubric"]
_TOTAL = re.compile(r"Collected : (\d+)")


def start(args: list[str], corpus: Path, out: Path) -> subprocess.Popen[str]:
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *PYTEST, *args]
    return subprocess.Popen(
        [*command, str(corpus)],
        cwd=corpus,
        env={**ENV, "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def counted(child: subprocess.Popen[str]) -> int:
    output, _ = child.communicate()
    found = _TOTAL.search(output)
    if child.returncode != 0 or found is None:
        raise SystemExit(f"a counted run failed (exit {child.returncode}):\n{output[-3000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=100)
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    with tempfile.TemporaryDirectory(prefix="rubric-instructions-") as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        write_corpus(corpus, options.cases, options.files, 0.0)
        (corpus / "pytest.ini").write_text("[pytest]\n")
        report = work / "report.json"
        subprocess.run([*PYTEST, str(corpus)], cwd=corpus, env=ENV, capture_output=True, check=True)
        on = start([f"--rubric-report={report}"], corpus, work / "on.out")
        off = start([], corpus, work / "off.out")
        with_report, without = counted(on), counted(off)
    print(
        f"{options.cases:,} cases: --rubric-report on / off, instructions of the whole run: "
        f"{with_report / without:.4f}x ({with_report:,} / {without:,}; "
        f"{(with_report - without) / options.cases:,.0f} more a case)   target <= 1.05x   "
        f"{'met' if with_report / without <= 1.05 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
