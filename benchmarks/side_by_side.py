"""One benchmark script run in two checkouts, alternating, in one session: this one and an
earlier commit's, each with its own editable venv.

    python benchmarks/side_by_side.py --base COMMIT [--rounds 3] [--tree DIR] -- SCRIPT [ARGS...]

e.g. ``python benchmarks/side_by_side.py --base 352231d -- bench_cost.py --only cold --repeats 3``.

The earlier commit is checked out with ``git worktree add`` (in ``--tree``, by default a folder
named after the commit beside this checkout) and gets a venv of its own (``pip install -e
'.[test]'``) the first time; later calls reuse both. Each round runs ``SCRIPT ARGS`` once in
the earlier checkout with its venv, then once here with this interpreter, so that noise from
other work on the machine hits both alike. Every script prints each of its measures on a line
holding a ratio (``1.23x``); this prints those lines of every round from both sides, then, per
measure, the median ratio of each side. The ratios are each script's own (plugin against its
baseline); comparing the two sides' medians says whether a change moved a figure.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
#: A measure's line: its label, then its first ratio.
RATIO = re.compile(r"^\s*(?P<label>\S.*?)\s+(?P<ratio>\d+(?:\.\d+)?)x\b")


def checkout(base: str, tree: Path) -> Path:
    """The earlier commit's checkout with its venv, made the first time; its interpreter."""
    python = tree / ".venv" / "bin" / "python"
    if not tree.exists():
        subprocess.run(
            ["git", "-C", str(HERE), "worktree", "add", "--detach", str(tree), base], check=True
        )
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(tree / ".venv")], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "-e", ".[test]"], cwd=tree, check=True
        )
    return python


def run(python: Path, tree: Path, script: list[str]) -> list[tuple[str, float, str]]:
    """The measures ``script`` prints when run in ``tree`` with ``python``."""
    done = subprocess.run(
        [str(python), str(tree / "benchmarks" / script[0]), *script[1:]],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"{script[0]} failed in {tree} (exit {done.returncode}):\n{done.stderr[-2000:]}")
    found = []
    for line in done.stdout.splitlines():
        match = RATIO.match(line)
        if match is not None:
            found.append((match["label"], float(match["ratio"]), line.strip()))
        elif "target" in line:  # a measure worded otherwise (memory a case): shown as it is
            found.append(("", 0.0, line.strip()))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the earlier commit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tree", type=Path, help="where the earlier commit is checked out")
    parser.add_argument("script", nargs=argparse.REMAINDER, help="SCRIPT [ARGS...] after --")
    options = parser.parse_args()
    script = options.script[1:] if options.script[:1] == ["--"] else options.script
    if not script:
        parser.error("name a script of benchmarks/ after --")
    base = subprocess.run(
        ["git", "-C", str(HERE), "rev-parse", "--short", options.base],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    head = subprocess.run(
        ["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tree = options.tree or HERE.parent / f"rubric-{base}"
    sides = {
        base: (checkout(options.base, tree), tree),
        f"{head} (here)": (Path(sys.executable), HERE),
    }
    ratios: dict[str, dict[str, list[float]]] = {}
    for round_number in range(1, options.rounds + 1):
        for name, (python, where) in sides.items():
            for label, ratio, line in run(python, where, script):
                print(f"round {round_number} {name:>14}: {line}", flush=True)
                if label:
                    ratios.setdefault(label, {}).setdefault(name, []).append(ratio)
    print(f"\n{' '.join(script)}: median of {options.rounds} rounds, each side's own ratio")
    for label, by_side in ratios.items():
        shown = "   ".join(
            f"{name}: {statistics.median(values):.3f}x" for name, values in by_side.items()
        )
        print(f"  {label[:60]:<60} {shown}")


if __name__ == "__main__":
    main()
