"""What a panel costs (issue 47): a 1,000,000-case export judged by five graders, its ten
pairs each a pytest item, the export read once; against one two-grader ledger of the same
file, in the same run. And a join panel: five graders' files of 1,000,000 cases each, each
read once for the ten pairs, against one two-grader join of two of the same files.

    python benchmarks/bench_panel.py [--rows 1000000] [--repeats 3] [--report]
        [--only csv jsonl judgements judgements-where join-csv join-jsonl]

``csv`` and ``jsonl`` are one export with a column (a key) per grader, ``id,g1,...,g5``;
the baseline is one agreement case reading it as ``ledger: {a: g1, b: g2}``, the panel one
case reading it as ``ledger: {panel: [g1, g2, g3, g4, g5]}`` (ten items). ``judgements``
is a ``.jsonl`` export of one line per judgement (``rows: per-judgement``, five a case,
each case's together), read as ``{grader: grader, label: label, a: g1, b: g2}`` against
``panel: [g1, ..., g5]``; ``judgements-where`` adds a judgement ``where: {status:
submitted}`` leaves out for one case in ten, and one by a sixth grader, ``g6``, for one in
ten, read with ``where`` by both and ``overlap: both-judged`` by the panel. Each join
layout is five files ``g1.csv`` ... ``g5.csv`` (``id,verdict``, or ``.jsonl``), the
baseline ``ledger: {a: {input_file: g1.csv, ...}, b: {input_file: g2.csv, ...}}``, the
panel ``ledger: {panel: [{input_file: g1.csv, ...}, ...]}``. Each
measurement is a whole ``pytest`` run in a fresh process (``-p no:cacheprovider -n 0``),
the two alternating, with its wall time, CPU time and peak RSS (GNU time's); with
``--report`` both write ``--rubric-report`` (each pair, and the ledger, then keeps its
rows to review: the first 1,000 disagreements, the rest counted). It
prints, per layout, the median of each side and the panel's ratio over the ledger
(goal: at most 1.5x in time and in memory).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRADERS = ("g1", "g2", "g3", "g4", "g5")
#: GNU time, printing the peak RSS (KiB), user and system seconds of what it runs.
TIMED = ("/usr/bin/time", "-f", "%M %U %S")


def labels(rows: int) -> list[tuple[str, list[bool]]]:
    """Each case's ID and five labels: 60% pass for g1, each other grader agreeing with it
    90% of the time."""
    rng = random.Random(7)
    made = []
    for number in range(rows):
        first = rng.random() < 0.6
        others = [first if rng.random() < 0.9 else not first for _ in GRADERS[1:]]
        made.append((f"h{number:07d}", [first, *others]))
    return made


def write_judgements(path: Path, rows: int, where: bool) -> None:
    """One line per judgement, each case's five together; with ``where``, one case in ten
    also has a judgement left out (``status: discarded``), one in ten one by ``g6``."""
    rng = random.Random(11)
    spaced = {True: "true", False: "false"}
    with path.open("w", encoding="utf-8", newline="") as stream:
        for case_id, marks in labels(rows):
            status = ', "status": "submitted"' if where else ""
            lines = [
                f'{{"id": "{case_id}", "grader": "{grader}", "label": {spaced[mark]}{status}}}\n'
                for grader, mark in zip(GRADERS, marks, strict=True)
            ]
            if where and rng.random() < 0.1:
                lines.insert(
                    rng.randrange(6),
                    f'{{"id": "{case_id}", "grader": "{rng.choice(GRADERS)}", "label": true, '
                    '"status": "discarded"}\n',
                )
            if where and rng.random() < 0.1:
                lines.append(f'{{"id": "{case_id}", "grader": "g6", "label": false{status}}}\n')
            stream.writelines(lines)


def write(path: Path, rows: int) -> None:
    if path.name.startswith("judgements"):
        write_judgements(path, rows, where="where" in path.name)
        return
    with path.open("w", encoding="utf-8", newline="") as stream:
        if path.suffix == ".csv":
            stream.write("id," + ",".join(GRADERS) + "\n")
            for case_id, marks in labels(rows):
                stream.write(
                    case_id + "," + ",".join("PASS" if m else "FAIL" for m in marks) + "\n"
                )
        else:
            for case_id, marks in labels(rows):
                stream.write(
                    json.dumps({"id": case_id, **dict(zip(GRADERS, marks, strict=True))}) + "\n"
                )


def write_sides(folder: Path, suffix: str, rows: int) -> list[Path]:
    """Each grader's own file of the join layout (written once, shared)."""
    paths = [folder / f"{rows}-{grader}{suffix}" for grader in GRADERS]
    if paths[0].exists():
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    made = labels(rows)
    for index, path in enumerate(paths):
        with path.open("w", encoding="utf-8", newline="") as stream:
            if suffix == ".csv":
                stream.write("id,verdict\n")
                for case_id, marks in made:
                    stream.write(f"{case_id},{'PASS' if marks[index] else 'FAIL'}\n")
            else:
                for case_id, marks in made:
                    stream.write(json.dumps({"id": case_id, "verdict": marks[index]}) + "\n")
    return paths


def join_project(folder: Path, suffix: str, rows: int, panel: bool) -> tuple[Path, int]:
    """A project of one case joining the layout's files, and how many items it runs."""
    sides = write_sides(folder / "data", suffix, rows)
    place = folder / f"join-{suffix[1:]}-{'panel' if panel else 'ledger'}"
    place.mkdir(exist_ok=True)
    for path in sides:
        if not (place / path.name).exists():
            os.link(path, place / path.name)
    words = "labels: {PASS: true, FAIL: false}, " if suffix == ".csv" else ""
    spec = "{input_file: %s, id: id, label: verdict}"
    if panel:
        graders = f"panel: [{', '.join(spec % path.name for path in sides)}]"
    else:
        graders = f"a: {spec % sides[0].name}, b: {spec % sides[1].name}"
    (place / "export.rubric.yaml").write_text(
        f"evaluator: agreement\ncases:\n  - id: whole\n    ledger: {{{words}{graders}}}\n"
        f"    expected_subset: {{total: {rows}}}\n",
        encoding="utf-8",
    )
    return place, 10 if panel else 1


def project(folder: Path, layout: str, rows: int, panel: bool) -> tuple[Path, int]:
    """A project of one case over the layout's export (written once, shared), and how many
    items it runs."""
    suffix = ".csv" if layout == "csv" else ".jsonl"
    name = layout if layout.startswith("judgements") else "export"
    data = folder / "data" / f"{name}-{rows}{suffix}"
    if not data.exists():
        data.parent.mkdir(parents=True, exist_ok=True)
        write(data, rows)
    place = folder / f"{layout}-{'panel' if panel else 'ledger'}"
    place.mkdir(exist_ok=True)
    link = place / data.name
    if not link.exists():
        os.link(data, link)  # a hard link: a symlink out of the project is refused
    words = "labels: {PASS: true, FAIL: false}, " if suffix == ".csv" else ""
    graders = f"panel: [{', '.join(GRADERS)}]" if panel else "a: g1, b: g2"
    if layout.startswith("judgements"):
        words = "rows: per-judgement, grader: grader, label: label, "
        if layout == "judgements-where":
            words += "where: {status: submitted}, "
            graders += ", overlap: both-judged" if panel else ""
    (place / "export.rubric.yaml").write_text(
        f"evaluator: agreement\ncases:\n  - id: whole\n    input_file: {data.name}\n"
        f"    ledger: {{{words}{graders}}}\n    expected_subset: {{total: {rows}}}\n",
        encoding="utf-8",
    )
    return place, 10 if panel else 1


def run(place: Path, items: int, report: bool) -> tuple[float, float, int]:
    """Wall and CPU seconds of one pytest run in ``place`` (writing a report where
    ``report`` says so), and its peak RSS (KiB), as GNU time measures the process."""
    start = time.perf_counter()
    reporting = ["--rubric-report=report.json"] if report else []
    done = subprocess.run(
        [
            *TIMED,
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            *reporting,
        ],
        cwd=place,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", str(ROOT))},
        check=False,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0 or f"{items} passed" not in done.stdout:  # every case counted
        raise SystemExit(f"pytest exited {done.returncode} in {place}:\n{done.stdout[-2000:]}")
    rss, user, system = done.stderr.split()[-3:]
    return wall, float(user) + float(system), int(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    layouts = ["csv", "jsonl", "judgements", "judgements-where", "join-csv", "join-jsonl"]
    parser.add_argument("--only", nargs="+", choices=layouts, default=layouts)
    parser.add_argument(
        "--report", action="store_true", help="both sides write --rubric-report (rows reviewed)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        report = args.report
        print(
            f"{args.rows:,} cases, 5 graders (10 pairs), {args.repeats} alternating pairs"
            + (", each writing --rubric-report" if report else "")
        )
        for layout in args.only:
            if layout.startswith("join-"):
                suffix = "." + layout.rpartition("-")[2]
                ledger = join_project(folder, suffix, args.rows, False)
                panel = join_project(folder, suffix, args.rows, True)
            else:
                ledger = project(folder, layout, args.rows, panel=False)
                panel = project(folder, layout, args.rows, panel=True)
            run(*ledger, report)  # warm the page cache with the file
            runs: list[tuple[tuple[float, float, int], tuple[float, float, int]]] = []
            for _ in range(args.repeats):
                runs.append((run(*ledger, report), run(*panel, report)))
            for index, (measure, unit) in enumerate(
                (("wall", "s"), ("CPU", "s"), ("peak RSS", "MiB"))
            ):
                scale = 1024 if unit == "MiB" else 1
                one = statistics.median(pair[0][index] for pair in runs) / scale
                many = statistics.median(pair[1][index] for pair in runs) / scale
                best = min(pair[1][index] / pair[0][index] for pair in runs)
                print(
                    f"{layout} {measure:<9} ledger {one:8.2f} {unit:<3} panel {many:8.2f} "
                    f"{unit:<3} {many / one:.2f}x (best {best:.2f}x)"
                )


if __name__ == "__main__":
    main()
