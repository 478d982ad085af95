"""A judge's decision log read as a dataset case, each row a test, against its baselines.

    python benchmarks/bench_datasets.py [--rows 100000] [--repeats 3] [--only NAME ...]

The method is ``bench_cost.py``'s, and so are its children (``bench_cost.run``) and its
commands: every pytest run is a fresh ``python -m pytest -q`` process that loads pytest
and this plugin only (``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1``, ``-p rubric`` on the
plugin's side, ``-p no:rubric`` on an empty-test baseline's), so pytest-xdist,
pytest-split and Hypothesis load on neither side (``-p xdist`` is named where ``-n 2``
is wanted). The whole run is timed from outside, wall time (``time.perf_counter``)
and the child's own CPU time (user + system, from ``os.wait4``). Each measure runs its
two setups once untimed (the file cache warm, a rerun's caches made), then
``--repeats`` alternating pairs, and prints the median of the per-pair ratios
(log / baseline), the medians of each side and the goal's verdict.

The log, written untimed into a temporary folder: ``logs/decisions.jsonl``, ``--rows``
lines such as ``{"decision_id": "dec-2024-12-000031", "judge": "gpt-4o", "checks":
{"has_title": true, "has_source": true}, "verdict": "PASS", "reason_codes":
["all-required-met"], "rationale": "..."}``, about 70% of titles and of sources
present (a fixed seed), every decision coherent (both present: PASS and
``all-required-met``; else FAIL and the sorted missing codes), read by one case of
``evaluator: reason`` with ``dataset: {file, id: decision_id, input: {fields: {title:
checks.has_title, source: checks.has_source}, pass: verdict, reasons: reason_codes},
labels: {PASS: true, FAIL: false}}`` and ``expected_subset: {coherent: true}``, so
every row is an item named ``judge-2024-12[<decision_id>]`` that passes. Every run
of the log is checked to pass ``--rows`` items.

- ``cold``:   the log collected and run from nothing (``--cache-clear``, no
  ``__pycache__``) / the same ``--rows`` cases written in YAML, each
  ``{id: <decision_id>, input: {fields: ..., pass: ..., reasons: [...]},
  expected_subset: {coherent: true}}`` (flow mappings, one line each) in 100 case
  files as ``bench_run.py``'s corpus is split, also from nothing (wall; goal 1.0x);
- ``warm``:   the log run again, pytest's cache present / ``--rows`` empty test
  functions ``def test_N(): pass`` in 100 modules (``bench_cost.empty_tests_project``)
  under ``-p no:rubric``, rerun, ``__pycache__`` present (wall and CPU, from the same
  runs; goal 1.1x);
- ``memory``: memory kept per collected row at ``--rows`` rows, ``bench_cost.py``'s
  ``memory`` measure: ``--collect-only`` with its probe plugin, the growth of the
  resident set from session start to the end of collection (after ``gc.collect()``),
  per item, the log rerun / as many empty test functions in ``--rows // 100``
  modules as ``bench_cost.py`` lays them out (goal 2.5 KB a row, absolute);
- ``xdist``:  the log rerun once under ``-p xdist -n 2`` and once serially (xdist not
  loaded), each with ``--rubric-report``; the two reports' outcome per node ID must be
  identical and cover every row, or the script exits 1 after printing the table (the
  wall time of each run is shown, without a goal).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench_cost import OFF, OURS, PROBE, Run, empty_tests_project, installed, memory_per_item, run

CASE_ID = "judge-2024-12"
LOG_CASE_FILE = f"""\
evaluator: reason
rubric: {{required: [title, source]}}
cases:
  - id: {CASE_ID}
    dataset:
      file: logs/decisions.jsonl
      id: decision_id
      input:
        fields: {{title: checks.has_title, source: checks.has_source}}
        pass: verdict
        reasons: reason_codes
      labels: {{PASS: true, FAIL: false}}
    expected_subset: {{coherent: true}}
"""
JUDGES = ("gpt-4o", "claude-3-5-sonnet", "gemini-1.5-pro")
RATIONALES = {
    (True, True): "The headline names the piece and the claim cites its report; nothing missing.",
    (True, False): "The headline is present but no source is cited for the central claim.",
    (False, True): "The claim is sourced, but the record has no title to check against.",
    (False, False): "Neither a title nor a source is given, so the record cannot be checked.",
}


@dataclass
class Decision:
    """One row of the log, as both sides hold it."""

    id: str
    title: bool
    source: bool

    @property
    def passed(self) -> bool:
        return self.title and self.source

    @property
    def reasons(self) -> list[str]:
        if self.passed:
            return ["all-required-met"]
        missing = [f"missing-{name}" for name in ("title", "source") if not getattr(self, name)]
        return sorted(missing)


def decisions(rows: int, seed: int = 7) -> list[Decision]:
    rng = random.Random(seed)
    return [
        Decision(f"dec-2024-12-{n:06d}", rng.random() < 0.7, rng.random() < 0.7)
        for n in range(1, rows + 1)
    ]


def log_project(root: Path, rows: list[Decision]) -> Path:
    """The decision log and the one case file reading it as a dataset."""
    (root / "logs").mkdir(parents=True)
    with (root / "logs" / "decisions.jsonl").open("w", encoding="utf-8") as stream:
        for n, row in enumerate(rows):
            record = {
                "decision_id": row.id,
                "judge": JUDGES[n % len(JUDGES)],
                "checks": {"has_title": row.title, "has_source": row.source},
                "verdict": "PASS" if row.passed else "FAIL",
                "reason_codes": row.reasons,
                "rationale": RATIONALES[(row.title, row.source)],
            }
            stream.write(json.dumps(record) + "\n")
    (root / "decisions.rubric.yaml").write_text(LOG_CASE_FILE)
    (root / "pytest.ini").write_text("[pytest]\n")
    return root


def yaml_project(root: Path, rows: list[Decision], files: int = 100) -> Path:
    """The same cases written in YAML, split into ``files`` case files as bench_run's corpus."""
    root.mkdir(parents=True)
    per_file = -(-len(rows) // files)
    for index in range(files):
        chunk = rows[index * per_file : (index + 1) * per_file]
        lines = ["evaluator: reason", "rubric: {required: [title, source]}", "cases:"]
        for row in chunk:
            fields = f"{{title: {str(row.title).lower()}, source: {str(row.source).lower()}}}"
            record = (
                f"{{fields: {fields}, pass: {str(row.passed).lower()}, "
                f"reasons: [{', '.join(row.reasons)}]}}"
            )
            lines += [
                f"  - id: {row.id}",
                f"    input: {record}",
                "    expected_subset: {coherent: true}",
            ]
        (root / f"corpus_{index:03d}.rubric.yaml").write_text("\n".join(lines) + "\n")
    (root / "pytest.ini").write_text("[pytest]\n")
    return root


def passing(done: Run, rows: int) -> Run:
    """Stop the benchmark unless the run passed exactly ``rows`` items and nothing else."""
    last = done.output.strip().splitlines()[-1] if done.output.strip() else ""
    if not re.fullmatch(rf"=*\s*{rows} passed in [0-9.]+s( \([0-9:]+\))?\s*=*", last):
        raise SystemExit(f"expected {rows} passed, got {last!r}:\n{done.output[-3000:]}")
    return done


def cold(project: Path, args: list[str], rows: int) -> Callable[[], Run]:
    def thunk() -> Run:
        for folder in project.rglob("__pycache__"):
            shutil.rmtree(folder)
        return passing(run([*args, "--cache-clear", str(project)], project), rows)

    return thunk


def warm(project: Path, args: list[str], rows: int) -> Callable[[], Run]:
    return lambda: passing(run([*args, str(project)], project), rows)


@dataclass
class Pair:
    name: str
    label: str
    ours: Callable[[], Run]
    base: Callable[[], Run]
    goal: float
    unit: str  # "s" (timed) or "KB" (memory, whose goal is absolute)
    views: tuple[str, ...] = ("wall",)


@dataclass
class Attempt:
    """A run that may fail: its wall time, or why it failed (the command and its output)."""

    wall: float
    failure: str | None = None


def attempt(args: list[str], cwd: Path) -> Attempt:
    try:
        return Attempt(run(args, cwd).wall)
    except SystemExit as error:  # bench_cost.run stops on a non-zero status
        return Attempt(float("nan"), str(error))


def outcomes(report: Path) -> dict[str, str]:
    """Each record's outcome by node ID; none if no report was written."""
    if not report.exists():
        return {}
    data = json.loads(report.read_text(encoding="utf-8"))
    return {record["nodeid"]: record["outcome"] for record in data["cases"]}


NAMES = ("cold", "warm", "memory", "xdist")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=NAMES)
    options = parser.parse_args()
    wanted = set(options.only or NAMES)
    rows: int = options.rows
    same = True
    with tempfile.TemporaryDirectory(prefix="rubric-datasets-") as tmp:
        work = Path(tmp)
        log = decisions(rows)
        pairs: list[Pair] = []
        if "cold" in wanted:
            log_cold = log_project(work / "log-cold", log)
            yaml_cold = yaml_project(work / "yaml-cold", log)
            pairs.append(
                Pair(
                    "cold",
                    f"cold: log / {rows:,} cases in 100 YAML files, no cache",
                    cold(log_cold, OURS, rows),
                    cold(yaml_cold, OURS, rows),
                    1.0,
                    "s",
                )
            )
        if wanted & {"warm", "memory", "xdist"}:
            log_warm = log_project(work / "log-warm", log)
        if "warm" in wanted:
            empty = empty_tests_project(work / "empty", rows, 100)
            pairs.append(
                Pair(
                    "warm",
                    f"warm: log / {rows:,} empty test functions in 100 modules, rerun",
                    warm(log_warm, OURS, rows),
                    warm(empty, OFF, rows),
                    1.1,
                    "s",
                    ("wall", "CPU"),
                )
            )
        if "memory" in wanted:
            probe = work / "probe"
            probe.mkdir()
            (probe / "rubric_probe.py").write_text(PROBE)
            empty_big = empty_tests_project(work / "empty-big", rows, max(rows // 100, 1))
            pairs.append(
                Pair(
                    "memory",
                    f"memory: kept per item, {rows:,} rows / empty test functions",
                    lambda: memory_per_item(
                        [*OURS, str(log_warm)], log_warm, probe, work / "probe-ours.txt"
                    ),
                    lambda: memory_per_item(
                        [*OFF, str(empty_big)], empty_big, probe, work / "probe-base.txt"
                    ),
                    2.5,
                    "KB",
                )
            )
        for pair in pairs:  # untimed: the file cache warm, a rerun's caches made
            pair.ours()
            pair.base()
        runs: dict[str, list[tuple[Run, Run]]] = {pair.name: [] for pair in pairs}
        for _ in range(options.repeats):
            for pair in pairs:
                runs[pair.name].append((pair.ours(), pair.base()))
        xdist: tuple[Attempt, Attempt, dict[str, str], dict[str, str]] | None = None
        if "xdist" in wanted:
            parallel_report = work / "report-n2.json"
            serial_report = work / "report-serial.json"
            # One untimed serial run first if no other measure has run the warm log yet.
            if not wanted & {"warm", "memory"}:
                passing(run([*OURS, str(log_warm)], log_warm), rows)
            parallel = attempt(
                [
                    *OURS,
                    "-p",
                    "xdist",
                    "-n",
                    "2",
                    f"--rubric-report={parallel_report}",
                    str(log_warm),
                ],
                log_warm,
            )
            serial = attempt([*OURS, f"--rubric-report={serial_report}", str(log_warm)], log_warm)
            xdist = (parallel, serial, outcomes(parallel_report), outcomes(serial_report))

    print(
        f"{rows:,} rows; {options.repeats} alternating pairs each, every pytest run a fresh "
        f"process; medians of the per-pair ratios; pytest and this plugin only; "
        f"the plugin {installed()}"
    )
    print(f"  {'measure':<70} {'ours':>9} {'baseline':>9} {'ratio':>6}  {'goal':<10} verdict")
    for pair in pairs:
        pairs_run = runs[pair.name]
        for view in pair.views:
            value: Callable[[Run], float] = (
                (lambda r: r.cpu) if view == "CPU" else (lambda r: r.wall)
            )
            ratios = [value(ours) / value(base) for ours, base in pairs_run]
            ratio = statistics.median(ratios)
            ours_med = statistics.median(value(ours) for ours, _ in pairs_run)
            base_med = statistics.median(value(base) for _, base in pairs_run)
            shown = ", ".join(f"{r:.2f}" for r in ratios)
            if pair.unit == "KB":
                ours_text, base_text = f"{ours_med / 1000:.2f} KB", f"{base_med / 1000:.2f} KB"
                ok = ours_med / 1000 <= pair.goal
                goal = f"<= {pair.goal} KB"
                label = pair.label
            else:
                ours_text, base_text = f"{ours_med:.2f} s", f"{base_med:.2f} s"
                ok = ratio <= pair.goal
                goal = f"<= {pair.goal}x"
                label = f"{pair.label} ({view})"
            print(
                f"  {label:<70} {ours_text:>9} {base_text:>9} {ratio:5.2f}x  {goal:<10} "
                f"{'met' if ok else 'MISSED':<6} (ratios {shown})"
            )
    if xdist is not None:
        parallel, serial, by_parallel, by_serial = xdist
        same = (
            by_parallel == by_serial
            and len(by_serial) == rows
            and parallel.failure is None
            and serial.failure is None
        )
        label = "xdist: log under -n 2 / serially, --rubric-report (wall, one run each)"
        print(
            f"  {label:<70} {parallel.wall:7.2f} s {serial.wall:7.2f} s "
            f"{parallel.wall / serial.wall:5.2f}x  {'-':<10} -"
        )
        counts = {o: list(by_parallel.values()).count(o) for o in sorted(set(by_parallel.values()))}
        print(
            f"  same outcomes under -n 2: {'yes' if same else 'no'} "
            f"({len(by_parallel):,} records under -n 2, {len(by_serial):,} serially; "
            f"under -n 2: {', '.join(f'{n:,} {o}' for o, n in counts.items()) or 'none'})"
        )
        for name, done in (("-n 2", parallel), ("serially", serial)):
            if done.failure is not None:
                print(f"    the run {name} failed: {done.failure[-2000:]}")
        if not same:
            differing = sorted(
                nodeid
                for nodeid in by_parallel.keys() | by_serial.keys()
                if by_parallel.get(nodeid) != by_serial.get(nodeid)
            )
            for nodeid in differing[:10]:
                print(
                    f"    {nodeid}: -n 2 {by_parallel.get(nodeid, '(absent)')}, "
                    f"serially {by_serial.get(nodeid, '(absent)')}"
                )
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
