"""Every ratio of the cost table, each against its baseline, side by side in one run.

    python benchmarks/bench_cost.py [--repeats 5] [--only NAME ...] [--autoload]
        [--trivial 200] [--cases 10000] [--rows 1000000] [--memory-cases 100000]

Every pytest run loads pytest and this plugin only (``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1``,
``-p rubric`` on the plugin's side of a pair): the development environment also holds
pytest-xdist, pytest-split and Hypothesis, whose plugins would add their own start-up
(Hypothesis's alone about 0.5 s of CPU) to both sides. ``--autoload`` runs pytest as
installed instead, every plugin loaded (``-p no:rubric`` on the baseline's side).

Each measure runs its two setups once untimed (so that caches are as a rerun finds
them), then in fresh processes, alternating, ``--repeats`` times, and prints the median of the per-pair ratios (plugin / baseline), so that
noise from other work on the machine hits both sides of a pair alike:

- ``unused``: ``--trivial`` plain test functions and no case file, plugin on /
  ``-p no:rubric`` (wall and CPU; target 1.02x);
- ``cases``:  ``--cases`` cases in 100 case files (the corpus of ``bench_run.py``) /
  as many ``def test_N(): pass`` in 100 modules under ``-p no:rubric`` (wall and CPU;
  target 1.0x), each run after the last, as people rerun pytest: pytest's cache holds
  the loaded case files, ``__pycache__`` the rewritten test modules;
- ``cold``:   the same, each run from nothing: ``--cache-clear`` for both, and the test
  modules' ``__pycache__`` removed before each baseline run (wall; target 1.10x);
- ``report``: the same cases with ``--rubric-report`` / without it (wall and CPU; target 1.10x);
- ``jsonl``:  one case whose ``input_file`` is a ``--rows``-row ``.jsonl`` ledger,
  a whole pytest run / ``json.loads`` per line and a count (CPU; target 1.3x);
- ``csv``:    the same ledger as ``.csv`` / ``csv.reader`` and a count (CPU; target 1.5x);
- ``memory``: memory kept per collected item at ``--memory-cases`` cases against as
  many empty test functions: the growth of the resident set from session start to
  the end of collection (after ``gc.collect()``), per item, read by a probe plugin
  (target 2.5 KB per case).
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from bench_ledger import PROBES, write_ledger
from bench_run import write_corpus

PYTEST = [sys.executable, "-m", "pytest", "-q"]
#: The plugin's side of a pair, and the baseline's where the plugin is installed but off;
#: see ``--autoload`` (``main`` sets them).
OURS = [*PYTEST, "-p", "rubric"]
OFF = [*PYTEST, "-p", "no:rubric"]
#: Set for every run unless ``--autoload``.
NO_AUTOLOAD = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
CSV_FLOOR = """
import csv, sys
counts = {}
with open(sys.argv[1], encoding="utf-8", newline="") as stream:
    reader = csv.reader(stream)
    next(reader)
    for case_id, a, b in reader:
        key = (a, b)
        counts[key] = counts.get(key, 0) + 1
print(sum(counts.values()))
"""
#: Loaded with ``-p rubric_probe``: writes items collected and the RSS growth (bytes)
#: from session start to the end of collection, after a full garbage collection.
PROBE = """
import gc
import os


def _rss():
    with open("/proc/self/statm") as stream:
        return int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


_START = []


def pytest_sessionstart(session):
    gc.collect()
    _START.append(_rss())


def pytest_collection_finish(session):
    gc.collect()
    with open(os.environ["RUBRIC_PROBE_OUT"], "w") as stream:
        stream.write(f"{len(session.items)} {_rss() - _START[0]}\\n")
"""


@dataclass
class Run:
    wall: float
    cpu: float
    output: str


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None, ok: int = 0) -> Run:
    """One child process: its wall time, its own CPU time (user + system) and its output."""
    environment = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", **NO_AUTOLOAD, **(env or {})}
    # A PYTHONPATH given to this script (say, another checkout to compare) reaches every run.
    inherited = os.environ.get("PYTHONPATH")
    if inherited:
        environment["PYTHONPATH"] = os.pathsep.join(
            part for part in (environment.get("PYTHONPATH"), inherited) if part
        )
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        child = subprocess.Popen(args, cwd=cwd, env=environment, stdout=out, stderr=out)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if child.returncode != ok:
        raise SystemExit(f"{' '.join(args)} exited {child.returncode}:\n{text[-3000:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, text)


@dataclass
class Pair:
    """One measure: the plugin's setup and its baseline's, each a thunk giving a Run."""

    name: str
    label: str
    ours: Callable[[], Run]
    base: Callable[[], Run]
    target: float
    cpu: bool = False  # judge by CPU time rather than wall time


def trivial_project(root: Path, tests: int) -> Path:
    root.mkdir(parents=True)
    per_module = 50
    for start in range(0, tests, per_module):
        body = "".join(
            f"def test_{n}():\n    pass\n\n\n" for n in range(start, min(start + per_module, tests))
        )
        (root / f"test_plain_{start:05d}.py").write_text(body)
    (root / "pytest.ini").write_text("[pytest]\n")
    return root


def empty_tests_project(root: Path, tests: int, modules: int) -> Path:
    root.mkdir(parents=True)
    per_module = tests // modules
    for index in range(modules):
        body = "".join(f"def test_{n}():\n    pass\n\n\n" for n in range(per_module))
        (root / f"test_empty_{index:04d}.py").write_text(body)
    (root / "pytest.ini").write_text("[pytest]\n")
    return root


def case_project(root: Path, cases: int, files: int) -> Path:
    write_corpus(root, cases, files, 0.0)
    (root / "pytest.ini").write_text("[pytest]\n")
    return root


def ledger_project(root: Path, rows: int, fmt: str) -> Path:
    """One case whose input_file holds ``rows`` rows; its expected answer is exact."""
    root.mkdir(parents=True)
    jsonl = root / "ledger.jsonl"
    cells = write_ledger(jsonl, rows)
    if fmt == ".csv":
        with (
            jsonl.open(encoding="utf-8") as source,
            (root / "ledger.csv").open("w", encoding="utf-8", newline="") as target,
        ):
            writer = csv.writer(target, lineterminator="\n")
            writer.writerow(["id", "a", "b"])
            for line in source:
                row = json.loads(line)
                writer.writerow([row["id"], str(row["a"]).lower(), str(row["b"]).lower()])
        jsonl.unlink()
    # The disagreements are not listed, so the case mismatches after reading every row,
    # and pytest exits 1; the report of a mismatch is part of what is timed.
    expected = {
        "matrix": cells,
        "agreement": cells["bothPass"] + cells["bothFail"],
        "total": rows,
        "disagreements": [],
    }
    (root / "ledger.rubric.yaml").write_text(
        f"evaluator: agreement\ncases:\n  - id: ledger\n    input_file: ledger{fmt}\n"
        f"    expected: {json.dumps(expected)}\n"
    )
    (root / "pytest.ini").write_text("[pytest]\n")
    return root


def memory_per_item(command: list[str], cwd: Path, probe: Path, out: Path) -> Run:
    env = {"PYTHONPATH": str(probe), "RUBRIC_PROBE_OUT": str(out)}
    done = run([*command, "--collect-only", "-p", "rubric_probe"], cwd, env)
    items, grown = (int(part) for part in out.read_text().split())
    # The "time" of this Run is the memory per item in bytes, so ratios come out alike.
    return Run(grown / items, grown / items, done.output)


def measures(work: Path, options: argparse.Namespace) -> list[Pair]:
    pairs: list[Pair] = []
    wanted = set(options.only or NAMES)
    if "unused" in wanted:
        plain = trivial_project(work / "trivial", options.trivial)
        for cpu in (False, True):
            pairs.append(
                Pair(
                    "unused",
                    f"{options.trivial} plain tests: plugin on / -p no:rubric "
                    f"({'CPU' if cpu else 'wall'})",
                    lambda: run([*OURS, str(plain)], plain),
                    lambda: run([*OFF, str(plain)], plain),
                    1.02,
                    cpu=cpu,
                )
            )
    if wanted & {"cases", "report"}:
        corpus = case_project(work / "corpus", options.cases, 100)
    if "cases" in wanted:
        empty = empty_tests_project(work / "empty", options.cases, 100)
        for cpu in (False, True):
            pairs.append(
                Pair(
                    "cases",
                    f"{options.cases:,} cases / empty test functions ({'CPU' if cpu else 'wall'})",
                    lambda: run([*OURS, str(corpus)], corpus),
                    lambda: run([*OFF, str(empty)], empty),
                    1.0,
                    cpu=cpu,
                )
            )
    if "cold" in wanted:
        # Projects of their own: clearing their caches must not touch the other measures'.
        corpus_cold = case_project(work / "corpus-cold", options.cases, 100)
        empty_cold = empty_tests_project(work / "empty-cold", options.cases, 100)

        def cold_baseline() -> Run:
            for folder in empty_cold.rglob("__pycache__"):
                shutil.rmtree(folder)
            return run([*OFF, "--cache-clear", str(empty_cold)], empty_cold)

        pairs.append(
            Pair(
                "cold",
                f"{options.cases:,} cases / empty test functions, no cache (wall)",
                lambda: run([*OURS, "--cache-clear", str(corpus_cold)], corpus_cold),
                cold_baseline,
                # Issue 43's figure (1.18x before it, docs/performance.md).
                1.10,
            )
        )
    if "report" in wanted:
        report = work / "report.json"
        for cpu in (False, True):
            pairs.append(
                Pair(
                    "report",
                    f"{options.cases:,} cases: --rubric-report on / off "
                    f"({'CPU' if cpu else 'wall'})",
                    lambda: run([*OURS, f"--rubric-report={report}", str(corpus)], corpus),
                    lambda: run([*OURS, str(corpus)], corpus),
                    1.10,
                    cpu=cpu,
                )
            )
    for fmt, floor, target in ((".jsonl", PROBES["floor"], 1.3), (".csv", CSV_FLOOR, 1.5)):
        name = fmt[1:]
        if name not in wanted:
            continue
        project = ledger_project(work / name, options.rows, fmt)
        ledger = project / f"ledger{fmt}"
        code = textwrap.dedent(floor)
        pairs.append(
            Pair(
                name,
                f"{options.rows:,}-row {fmt} ledger: pytest / floor (CPU)",
                functools.partial(run, [*OURS, "--tb=no", str(project)], project, ok=1),
                functools.partial(run, [sys.executable, "-c", code, str(ledger)], project),
                target,
                cpu=True,
            )
        )
    if "memory" in wanted:
        probe = work / "probe"
        probe.mkdir()
        (probe / "rubric_probe.py").write_text(PROBE)
        big = case_project(work / "big", options.memory_cases, options.memory_cases // 100)
        empty_big = empty_tests_project(
            work / "empty-big", options.memory_cases, options.memory_cases // 100
        )
        pairs.append(
            Pair(
                "memory",
                f"bytes kept per item, {options.memory_cases:,} cases / empty test functions",
                lambda: memory_per_item([*OURS, str(big)], big, probe, work / "probe-ours.txt"),
                lambda: memory_per_item(
                    [*OFF, str(empty_big)], empty_big, probe, work / "probe-base.txt"
                ),
                2560 / 2200,  # the target is absolute: 2.5 KB a case (see the printout)
            )
        )
    return pairs


NAMES = ("unused", "cases", "cold", "report", "jsonl", "csv", "memory")
#: Measures shown both by wall time and by CPU time, from the same runs (the report's
#: wall time includes its fsync, which a busy disk can stretch).
SHARED = ("unused", "cases", "report")


def installed() -> str:
    """How this Python has the plugin: an editable install (``pip install -e``) imports it
    through an import hook of its own, which the ``unused`` measure counts too; a regular
    install (``pip install .``, a wheel) is how users have it."""
    try:
        text = metadata.distribution("pytest-rubric").read_text("direct_url.json") or "{}"
        editable = bool(json.loads(text).get("dir_info", {}).get("editable"))
    except (metadata.PackageNotFoundError, ValueError, AttributeError):
        return "not installed in this Python"
    if editable:
        return "installed editable (its import hook is counted; a regular install measures less)"
    return "installed as users install it (no editable import hook)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", nargs="*", choices=NAMES)
    parser.add_argument("--trivial", type=int, default=200)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--memory-cases", type=int, default=100_000)
    parser.add_argument(
        "--autoload", action="store_true", help="load every installed pytest plugin, as pytest does"
    )
    options = parser.parse_args()
    if options.autoload:
        OURS[:] = PYTEST  # the plugin loads itself
        NO_AUTOLOAD.clear()
    with tempfile.TemporaryDirectory(prefix="rubric-cost-") as tmp:
        pairs = measures(Path(tmp), options)
        for pair in pairs:  # caches made, as a rerun finds them
            pair.ours()
            pair.base()
        # Runs that serve two measures (wall and CPU of one pair of runs) are shared.
        runs: dict[tuple[str, bool], list[tuple[Run, Run]]] = {}
        for _ in range(options.repeats):
            for pair in pairs:
                if pair.name in SHARED and pair.cpu:
                    continue  # the CPU view of the wall pair's runs
                ours = pair.ours()
                base = pair.base()
                runs.setdefault((pair.name, pair.cpu), []).append((ours, base))
    print(
        f"{options.repeats} alternating pairs each; medians of the per-pair ratios; "
        + ("every installed plugin loaded" if options.autoload else "pytest and this plugin only")
        + f"; the plugin {installed()}"
    )
    for pair in pairs:
        pairs_run = runs[(pair.name, False if pair.name in SHARED else pair.cpu)]
        value: Callable[[Run], float] = (lambda r: r.cpu) if pair.cpu else (lambda r: r.wall)
        ratios = [value(ours) / value(base) for ours, base in pairs_run]
        ratio = statistics.median(ratios)
        if pair.name == "memory":
            ours_kb = statistics.median(ours.wall for ours, _ in pairs_run) / 1000
            base_kb = statistics.median(base.wall for _, base in pairs_run) / 1000
            ok = ours_kb <= 2.5
            print(
                f"  {pair.label:<58} {ours_kb:5.2f} KB vs {base_kb:5.2f} KB ({ratio:4.2f}x)"
                f"   target <= 2.5 KB   {'met' if ok else 'MISSED'}"
            )
            continue
        shown = ", ".join(f"{r:.2f}" for r in ratios)
        ours_med = statistics.median(value(ours) for ours, _ in pairs_run)
        base_med = statistics.median(value(base) for _, base in pairs_run)
        ok = ratio <= pair.target
        print(
            f"  {pair.label:<58} {ratio:5.2f}x   target <= {pair.target}x   "
            f"{'met' if ok else 'MISSED':<6} (medians {ours_med:.2f} s / {base_med:.2f} s; "
            f"ratios {shown})"
        )


if __name__ == "__main__":
    main()
