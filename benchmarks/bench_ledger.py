"""Time and measure the memory of a streamed 1,000,000-row JSONL ledger against the floor.

    python benchmarks/bench_ledger.py [--rows 1000000] [--repeats 5]

Each measurement runs in a fresh Python process, alternating, and reports its wall
time and peak RSS (``ru_maxrss``):

- ``floor``:      decode every line with ``json.loads`` and count the label pairs;
- ``stream``:     pytest-rubric's path for ``input_file: ledger.jsonl``: its row
  reader and the agreement tally, all checks included;
- ``pytest``:     a whole ``pytest`` run of one case with that ``input_file``;
- ``reported``:   the same run with ``--rubric-report`` and ``--rubric-html``: the
  ledger is read a second time for its disagreement rows to review (at most 1,000
  kept, the rest counted), so this shows what that second pass costs;
- ``load-all``:   for memory only: ``json.loads`` every line into a list first, as an
  evaluator that needs the parsed ledger in memory would.

It prints the medians, the ratio stream/floor (target: within 2x), reported/pytest
(the review pass) and the peak RSS of each, which shows memory following the
distinct IDs rather than the parsed rows.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

PROBES = {
    "floor": """
        import json, sys
        counts = {}
        with open(sys.argv[1], encoding="utf-8") as stream:
            for line in stream:
                row = json.loads(line)
                key = (row["a"], row["b"])
                counts[key] = counts.get(key, 0) + 1
        print(sum(counts.values()))
    """,
    "stream": """
        import sys
        from pytest_rubric.evaluators.builtin import AGREEMENT
        from pathlib import Path
        from pytest_rubric.inputs.inputpaths import InputFiles
        from pytest_rubric.inputs.reading import open_input
        path = Path(sys.argv[1])
        # Resolved as the loader resolves a case file's input_file: beside it.
        file, _ = InputFiles(path.parent / "c.rubric.yaml", "c.rubric.yaml", None).resolve(path.name)
        rows = open_input(file)
        # As the runner hands it over: agreement's stream tallies label blocks where the
        # rows offer them and they answer, else row by row.
        answer, _ = AGREEMENT.ledger.stream(rows, rows.where)
        print(answer["total"])
    """,
    "load-all": """
        import json, sys
        with open(sys.argv[1], encoding="utf-8") as stream:
            rows = [json.loads(line) for line in stream]
        print(len(rows))
    """,
}
RSS = """
import resource
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def write_ledger(path: Path, rows: int, seed: int = 11) -> dict[str, int]:
    rng = random.Random(seed)
    cells = {"bothPass": 0, "bothFail": 0, "aOnly": 0, "bOnly": 0}
    with path.open("w", encoding="utf-8") as stream:
        for n in range(rows):
            a, b = rng.random() < 0.7, rng.random() < 0.7
            cells["bothPass" if a and b else "aOnly" if a else "bOnly" if b else "bothFail"] += 1
            stream.write(json.dumps({"id": f"case-{n:07d}", "a": a, "b": b}) + "\n")
    return cells


def measure(args: list[str], cwd: Path) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one child process."""
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return elapsed, int(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rubric-ledger-") as tmp:
        work = Path(tmp)
        ledger = work / "ledger.jsonl"
        cells = write_ledger(ledger, options.rows)
        agreement = cells["bothPass"] + cells["bothFail"]
        (work / "pytest.ini").write_text("[pytest]\n")
        (work / "ledger.rubric.yaml").write_text(
            "evaluator: agreement\ncases:\n  - id: million\n    input_file: ledger.jsonl\n"
            "    expected: {matrix: "
            + json.dumps(cells)
            + f", agreement: {agreement}, total: {options.rows}, disagreements: []}}\n"
        )
        runs: dict[str, list[tuple[float, int]]] = {
            name: [] for name in (*PROBES, "pytest", "reported")
        }
        for _ in range(options.repeats):
            for name, probe in PROBES.items():
                code = textwrap.dedent(probe) + RSS
                runs[name].append(measure([sys.executable, "-c", code, str(ledger)], work))
            # The ledger's disagreements are not all listed in expected, so this case
            # mismatches; the run still evaluates every row and reports the mismatch.
            pytest_code = (
                "import sys, pytest\n"
                "code = pytest.main(['-q', '-p', 'no:cacheprovider', '--tb=no', *sys.argv[1:]])\n"
                "assert code in (0, 1), code\n" + RSS
            )
            runs["pytest"].append(measure([sys.executable, "-c", pytest_code, str(work)], work))
            report = ["--rubric-report=report.json", "--rubric-html=review.html"]
            runs["reported"].append(
                measure([sys.executable, "-c", pytest_code, str(work), *report], work)
            )
    print(f"{options.rows:,} rows, {options.repeats} alternating runs each")
    median = {}
    for name, values in runs.items():
        median[name] = statistics.median(t for t, _ in values)
        rss = max(r for _, r in values) / 1024
        shown = ", ".join(f"{t:.2f}" for t, _ in values)
        print(
            f"  {name:<9} median {median[name]:6.2f} s   peak RSS {rss:7.1f} MiB   (runs: {shown})"
        )
    ratio = median["stream"] / median["floor"]
    print(
        f"  stream / floor  {ratio:.2f}x   target <= 2.0x   {'met' if ratio <= 2.0 else 'MISSED'}"
    )
    print(
        f"  pytest / floor  {median['pytest'] / median['floor']:.2f}x   (whole pytest run, for reference)"
    )
    print(
        f"  reported / pytest  {median['reported'] / median['pytest']:.2f}x   "
        "(the second pass for review rows, with the report and page written)"
    )


if __name__ == "__main__":
    main()
