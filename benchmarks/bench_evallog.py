"""An inspect_ai ``.eval`` log against the ``.json`` log it converts to, side by side in one run.

    python benchmarks/bench_evallog.py [--repeats 3] [--samples 100000] [--big-mb 16] [--turns 9] [--only time|memory]

The method is ``bench_exports.py``'s, and so are its children: the two logs and a one-case
case file for each (``evaluator: agreement``, ``expected`` the exact answer but for its
disagreement IDs, none listed) are written into a temporary folder, untimed; each side
runs once untimed (the file cache warm), then ``--repeats`` alternating pairs, ``.eval``
/ ``.json``, each in a fresh Python process, timed in CPU seconds from the case file's
load to ``run_case``'s return. The child checks that the case mismatched in
``disagreements`` alone, with as many as the data holds.

The logs: ``--samples`` samples shaped as inspect's (``tests/_evallogs.py``: messages,
model events, scores, metadata; about 1.5 KB of compact JSON each, 2.8 KB as the
converted log writes them, indented), IDs 1 to N, one epoch. ``log.eval`` is laid out as
inspect's recorder lays one out (zstd entries, the samples in the shuffled order they
finished, pooled; checked against a log inspect wrote in
``tests/test_inputs_evallog.py``), ``log.json`` is what ``inspect log convert --to
json`` writes of it (indented, the samples in order, whole). Both are read through
``ledger: {records: samples, id: id, ids: as-text, a: scores.judge.value, b:
metadata.desk, labels: {C: true, I: false}}``. Goal: the ``.eval`` log read in at most
1.5x the ``.json`` log's time.

Memory, in a child of its own for each log (``tracemalloc``'s peak over the case's load
and run, allocations of Python's own only, slower, so never timed): the ``.eval`` log as
above with one sample of about ``--big-mb`` MB more, the largest; the same log without it;
and the largest sample's own size, decoded (``tracemalloc`` over ``json.loads`` of its
text). Goal: the ``.eval`` log's peak at most twice the largest sample plus a constant,
the constant being the peak of the log without it: ``(peak - peak without) / largest``
at most 2x. The ``.json`` log's peak is shown beside it; both hold every ID (a ledger's
identity rule), and the ``.eval`` log its archive's directory too.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_exports import OURS_CHILD, Answer, child, run_pairs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from _evallogs import eval_entries, header, sample, write_eval

#: The case's peak of traced memory (argv: the case file), and the largest sample's
#: decoded size (argv: a file holding its text), in bytes.
MEMORY_CHILD = """
import json, sys, tracemalloc
from pathlib import Path

from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.running.runner import run_case

path = Path(sys.argv[1])
if path.suffix == ".txt":
    text = path.read_text(encoding="utf-8")
    tracemalloc.start()
    value = json.loads(text)
    size = tracemalloc.get_traced_memory()[0]
else:
    tracemalloc.start()
    case_file = load_case_file(path, path.name, root=path.parent)
    outcome = run_case(case_file.cases[0], AGREEMENT, path=path.name, source="built in")
    size = tracemalloc.get_traced_memory()[1]
    assert outcome.evaluated, outcome.problems
print(json.dumps({"cpu": size, "peak_kib": peak_kib()}))
"""
LEDGER = (
    "{records: samples, id: id, ids: as-text, a: scores.judge.value, b: metadata.desk, "
    "labels: {C: true, I: false}}"
)


class Log:
    """``count`` samples, IDs 1 to ``count``: about 70% judged correct, the desk agreeing
    about 80% of the time; sample 1 holding ``big_mb`` MB more, if any. Each sample is
    made when asked for, the same each time."""

    def __init__(self, count: int, big_mb: int, turns: int) -> None:
        rng = random.Random(7)
        self.labels = []
        for _ in range(count):
            judge = rng.random() < 0.7
            self.labels.append((judge, judge if rng.random() < 0.8 else not judge))
        self.big_mb = big_mb
        self.turns = turns

    def sample(self, n: int) -> dict[str, Any]:
        judge, desk = self.labels[n - 1]
        metadata: dict[str, Any] = {"desk": "C" if desk else "I"}
        if n == 1 and self.big_mb:
            metadata["transcript"] = [f"line {k} " + "x" * 90 for k in range(self.big_mb * 10_000)]
        return sample(n, 1, "C" if judge else "I", metadata, turns=self.turns)


def write_logs(folder: Path, log: Log, name: str, *, converted: bool = True) -> Path:
    """``NAME.eval`` and (if ``converted``) ``NAME.json`` in ``folder``, a case file for
    each (``NAME-eval``, ``NAME-json``), and the largest sample's text
    (``NAME-largest.txt``)."""
    count = len(log.labels)
    finished = list(range(1, count + 1))
    random.Random(1).shuffle(finished)  # the order the samples finished in
    head = header([])
    head["eval"]["dataset"]["sample_ids"] = list(range(1, count + 1))
    write_eval(folder / f"{name}.eval", eval_entries(head, (log.sample(n) for n in finished)))
    answer = Answer()
    for n in range(1, count + 1):
        judge, desk = log.labels[n - 1]
        answer.add(str(n), judge, desk)  # C and I: true and false
    if converted:
        with (folder / f"{name}.json").open("w", encoding="utf-8") as out:
            out.write(json.dumps(head, indent=2)[:-2] + ',\n  "samples": [\n')
            for n in range(1, count + 1):
                out.write((",\n" if n > 1 else "") + json.dumps(log.sample(n), indent=2))
            out.write('\n  ],\n  "reductions": []\n}\n')
    expected = json.dumps(answer.expected())
    for suffix in ("eval", "json") if converted else ("eval",):
        case = folder / f"{name}-{suffix}.rubric.yaml"
        case.write_text(
            f"evaluator: agreement\ncases:\n  - id: log\n    input_file: {name}.{suffix}\n"
            f"    ledger: {LEDGER}\n    expected: {expected}\n",
            encoding="utf-8",
        )
        case.with_suffix(".count").write_text(str(len(answer.disagreements)))
    largest = folder / f"{name}-largest.txt"
    largest.write_text(
        json.dumps(max((log.sample(1), log.sample(2)), key=lambda s: len(json.dumps(s))))
    )
    return largest


class Sides:
    """The two logs' runs: ``.eval`` as ours, ``.json`` as the floor."""

    def __init__(self, folder: Path, count: int, turns: int) -> None:
        started = time.perf_counter()
        write_logs(folder, Log(count, 0, turns), "log")
        print(
            f"logs of {count} samples written in {time.perf_counter() - started:.1f} s", flush=True
        )
        self.ours = functools.partial(
            child, OURS_CHILD, [str(folder / "log-eval.rubric.yaml")], folder
        )
        self.floor = functools.partial(
            child, OURS_CHILD, [str(folder / "log-json.rubric.yaml")], folder
        )


def memory(count: int, big_mb: int, turns: int) -> dict[str, float]:
    """Traced peaks, in MiB: each log with its largest sample, the ``.eval`` log without
    it, and that sample decoded."""
    found: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="rubric-evallog-memory-") as tmp:
        folder = Path(tmp)
        largest = write_logs(folder, Log(count, big_mb, turns), "big")
        write_logs(folder, Log(count, 0, turns), "plain", converted=False)
        runs = {
            "eval": folder / "big-eval.rubric.yaml",
            "json": folder / "big-json.rubric.yaml",
            "eval without it": folder / "plain-eval.rubric.yaml",
            "largest sample": largest,
        }
        for label, path in runs.items():
            found[label] = child(MEMORY_CHILD, [str(path)], folder).cpu / 2**20
        found["largest text"] = largest.stat().st_size / 2**20
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--big-mb", type=int, default=16)
    parser.add_argument("--turns", type=int, default=9, help="model calls a sample (9: 6 KB)")
    parser.add_argument("--only", choices=["time", "memory"])
    options = parser.parse_args()
    if options.only != "memory":
        timed(options)
    if options.only != "time":
        measured(options)


def timed(options: argparse.Namespace) -> None:
    ((_, pairs),) = run_pairs(
        ["evallog"],
        lambda _, folder: Sides(folder, options.samples, options.turns),
        options.repeats,
    )
    ratio = statistics.median(ours.cpu / floor.cpu for ours, floor in pairs)
    ours_cpu = statistics.median(ours.cpu for ours, _ in pairs)
    floor_cpu = statistics.median(floor.cpu for _, floor in pairs)
    peaks = [max(ours.peak_mib for ours, _ in pairs), max(floor.peak_mib for _, floor in pairs)]
    print(
        f"\n{options.repeats} alternating pairs, fresh processes, CPU seconds of the case's load and run"
    )
    verdict = "PASS" if ratio <= 1.5 else "OVER"
    print(
        f"  eval-vs-json  {ratio:.2f}x  (.eval {ours_cpu:.2f} s, .json {floor_cpu:.2f} s; goal <= 1.5x: "
        f"{verdict}; peak RSS {peaks[0]:.0f} / {peaks[1]:.0f} MiB)"
    )
    print("  each pair: " + ", ".join(f"{ours.cpu / floor.cpu:.2f}" for ours, floor in pairs))


def measured(options: argparse.Namespace) -> None:
    found = memory(options.samples, options.big_mb, options.turns)
    over = (found["eval"] - found["eval without it"]) / found["largest sample"]
    verdict = "PASS" if over <= 2 else "OVER"
    print(
        f"  eval-memory   {over:.2f}x  ((peak {found['eval']:.1f} - peak without it "
        f"{found['eval without it']:.1f} MiB) / largest sample {found['largest sample']:.1f} MiB "
        f"decoded ({found['largest text']:.1f} MiB of text); goal <= 2x: {verdict})"
    )
    print(
        f"  json-memory   {found['json'] / found['eval']:.2f}x  (the .json log's traced peak, "
        f"{found['json']:.1f} MiB, over the .eval log's)"
    )


if __name__ == "__main__":
    main()
