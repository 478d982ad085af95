"""Reading joins, JSON documents and judgements nested in lists against a floor, side by side.

    python benchmarks/bench_inputs.py [--repeats 5] [--rows 1000000] [--doc-mb 200] [--only NAME ...]

The method is ``bench_exports.py``'s, and so are its children and helpers: each measure
writes its files and a one-case case file (``evaluator: agreement``, whose ``expected``
is the exact answer, computed while writing the data, but for its disagreement IDs: none
are listed) into a temporary folder, untimed. Each side runs once untimed (the file cache
warm), then ``--repeats`` alternating pairs, plugin / floor, each in a fresh Python
process. Only the work is timed, in CPU time (``time.process_time``) inside the child:
the plugin's ``load_case_file`` and ``run_case``, run as the plugin's items run them;
the floor's reading and counting. The plugin's child checks that the case mismatched in
``disagreements`` alone, with as many as the data holds, so a run down another path
stops the benchmark (exit status 1). Printed: the median of the per-pair ratios
(plugin / floor), the goal's verdict, and each side's peak resident set (``VmHWM``), the
largest over its runs, interpreter and imports included.

- ``join``: two ``--rows``-row files, one per grader, joined by case ID:
  ``judge.jsonl`` (``{"id": "c0000001", "verdict": true, "model": ..., "explanation": ...}``)
  and ``desk.csv`` (``headline_id,verdict``, the words PASS/FAIL) in another order
  (shuffled with a fixed seed), read through ``ledger: {a: {input_file: judge.jsonl, id:
  id, label: verdict}, b: {input_file: desk.csv, id: headline_id, label: verdict,
  labels: {PASS: true, FAIL: false}}}`` / ``csv.reader`` over the desk file into a dict
  (ID -> label), ``json.loads`` of each judge line, and a count of the agreeing pairs
  (goal 2x);
- ``document``: one JSON document of about ``--doc-mb`` MB (10^6 bytes), shaped as an
  inspect_ai log: ``version``, ``status``, ``eval``, ``plan``, ``results``, ``stats``,
  then ``samples``, each sample a few hundred bytes to about 1.5 KB (an ID, input text,
  target, output, ``scores: {judge: {value, explanation}, desk: {value}}``), read
  through ``ledger: {records: samples, id: id, a: scores.judge.value, b:
  scores.desk.value, labels: {C: true, I: false}}`` / ``json.load`` of the whole file
  and a count of the samples' label pairs. Its CPU ratio has no goal; its bar is
  memory: the plugin's peak at most 4x the file's size. ``--rows`` does not size it;
- ``nested``: a ``--rows``-task JSONL export as Label Studio writes one, each task's
  two annotations (``completed_by`` 10 and 12, in either order) in a list, the verdict
  at ``result.0.value.choices.0``, read through ``ledger: {rows: per-judgement, id: id,
  grader: annotations.completed_by, label: annotations.result.0.value.choices.0, a: 10,
  b: 12, labels: {PASS: true, FAIL: false}}`` / ``json.loads`` of each line and a count
  of each annotation's grader and verdict (goal 2.5x).

In every measure about 70% of a's labels are true and b agrees with a about 80% of the
time.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench_exports import OURS_CHILD, Answer, Run, child, run_pairs

#: The floor for a join: the desk's CSV into a dict (ID -> label), then each judge line
#: decoded and looked up, and a count of the agreeing pairs.
JOIN_FLOOR_CHILD = """
import csv, json, sys, time

start = time.process_time()
with open(sys.argv[2], encoding="utf-8", newline="") as stream:
    reader = csv.reader(stream)
    next(reader)
    desk = {cells[0]: cells[1] == "PASS" for cells in reader}
agreeing = rows = 0
with open(sys.argv[1], encoding="utf-8") as stream:
    for line in stream:
        row = json.loads(line)
        rows += 1
        if desk.get(row["id"]) == row["verdict"]:
            agreeing += 1
end = time.process_time()
peak = peak_kib()
print(json.dumps({"cpu": end - start, "rows": rows, "agreeing": agreeing, "peak_kib": peak}))
"""
#: The floor for a document: ``json.load`` of the whole file and a count of the samples'
#: label pairs.
DOCUMENT_FLOOR_CHILD = """
import json, sys, time

start = time.process_time()
with open(sys.argv[1], encoding="utf-8") as stream:
    log = json.load(stream)
counts = {}
for sample in log["samples"]:
    scores = sample["scores"]
    key = (scores["judge"]["value"], scores["desk"]["value"])
    counts[key] = counts.get(key, 0) + 1
end = time.process_time()
peak = peak_kib()
print(json.dumps({"cpu": end - start, "rows": sum(counts.values()), "peak_kib": peak}))
"""
#: The floor for tasks with judgements in lists: ``json.loads`` of each line and a count
#: of each annotation's grader and verdict.
NESTED_FLOOR_CHILD = """
import json, sys, time

start = time.process_time()
counts = {}
with open(sys.argv[1], encoding="utf-8") as stream:
    for line in stream:
        task = json.loads(line)
        for annotation in task["annotations"]:
            key = (annotation["completed_by"], annotation["result"][0]["value"]["choices"][0])
            counts[key] = counts.get(key, 0) + 1
end = time.process_time()
peak = peak_kib()
print(json.dumps({"cpu": end - start, "rows": sum(counts.values()), "peak_kib": peak}))
"""

WORDS = {True: "PASS", False: "FAIL"}
#: Filler the texts are cut from (inputs, outputs, explanations).
LOREM = (
    "The committee said on Tuesday that the new rules would take effect next spring, "
    "after a review of the costs and a public consultation that drew more than four "
    "thousand responses from residents, businesses and local councils across the region. "
)


@dataclass
class Measure:
    name: str
    ours: Callable[[], Run]
    floor: Callable[[], Run]
    target: float  # the CPU ratio's goal (inf: none)
    size: int = 0  # the file's size in bytes, where the bar is on memory (document)


def labels(rows: int, seed: int) -> list[tuple[bool, bool]]:
    """``rows`` label pairs: about 70% of a's true, b agreeing with a about 80% of the time."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(rows):
        a = rng.random() < 0.7
        pairs.append((a, a if rng.random() < 0.8 else not a))
    return pairs


def text(rng: random.Random, low: int, high: int) -> str:
    start = rng.randrange(len(LOREM))
    size = rng.randrange(low, high)
    return ((LOREM * (size // len(LOREM) + 2))[start : start + size]).strip()


def write_case_file(folder: Path, lines: str, answer: Answer) -> Path:
    """The one-case file: ``lines`` (indented under the case) then ``expected`` as one
    line of JSON; the number of disagreements the case must find beside it."""
    path = folder / "inputs.rubric.yaml"
    path.write_text(
        f"evaluator: agreement\ncases:\n  - id: inputs\n{lines}"
        f"    expected: {json.dumps(answer.expected(), separators=(',', ':'))}\n",
        encoding="utf-8",
    )
    path.with_suffix(".count").write_text(str(len(answer.disagreements)))
    return path


def join(folder: Path, rows: int, _doc_mb: int) -> tuple[Path, list[str], int]:
    answer = Answer()
    rng = random.Random(35)
    pairs = labels(rows, seed=35)
    ids = [f"c{n:07d}" for n in range(1, rows + 1)]
    with (folder / "judge.jsonl").open("w", encoding="utf-8") as stream:
        for case_id, (a, b) in zip(ids, pairs, strict=True):
            line = {
                "id": case_id,
                "verdict": a,
                "model": "judge-v2",
                "explanation": "The headline states the claim the article supports."
                if a
                else "The headline overstates what the article says.",
            }
            stream.write(json.dumps(line) + "\n")
            answer.add(case_id, a, b)
    order = list(range(rows))
    rng.shuffle(order)
    with (folder / "desk.csv").open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["headline_id", "verdict"])
        for index in order:
            writer.writerow([ids[index], WORDS[pairs[index][1]]])
    lines = (
        "    ledger:\n"
        "      a: {input_file: judge.jsonl, id: id, label: verdict}\n"
        "      b: {input_file: desk.csv, id: headline_id, label: verdict, "
        "labels: {PASS: true, FAIL: false}}\n"
    )
    return write_case_file(folder, lines, answer), ["judge.jsonl", "desk.csv"], 0


def document(folder: Path, _rows: int, doc_mb: int) -> tuple[Path, list[str], int]:
    """An inspect_ai-like log of about ``doc_mb`` MB: as many samples as fit."""
    answer = Answer()
    rng = random.Random(36)
    letter = {True: "C", False: "I"}
    head = {
        "version": 2,
        "status": "success",
        "eval": {
            "run_id": "bench-35",
            "created": "2026-05-09T07:35:25+00:00",
            "task": "headline_claims",
            "task_version": 0,
            "dataset": {"name": "headlines", "samples": 0, "shuffled": False},
            "model": "openai/gpt-4o-mini",
            "config": {"epochs": 1, "limit": None},
            "packages": {"inspect_ai": "0.3.90"},
        },
        "plan": {
            "name": "plan",
            "steps": [{"solver": "generate", "params": {}}],
            "config": {"temperature": 0.0},
        },
        "results": {
            "total_samples": 0,
            "completed_samples": 0,
            "scores": [{"name": "judge", "scorer": "model_graded_qa", "metrics": {}}],
        },
        "stats": {
            "started_at": "2026-05-09T07:35:25+00:00",
            "completed_at": "2026-05-09T09:12:01+00:00",
            "model_usage": {"openai/gpt-4o-mini": {"input_tokens": 1, "output_tokens": 1}},
        },
    }
    limit = doc_mb * 1_000_000
    path = folder / "log.json"
    with path.open("w", encoding="utf-8") as stream:
        written = stream.write(json.dumps(head, indent=2)[:-2] + ',\n  "samples": [\n')
        n = 0
        pair_rng = random.Random(37)
        while written < limit:
            n += 1
            a = pair_rng.random() < 0.7
            b = a if pair_rng.random() < 0.8 else not a
            case_id = f"s{n:07d}"
            sample = {
                "id": case_id,
                "epoch": 1,
                "input": text(rng, 100, 900),
                "target": "C",
                "output": {
                    "model": "gpt-4o-mini",
                    "choices": [
                        {
                            "message": {"role": "assistant", "content": text(rng, 20, 300)},
                            "stop_reason": "stop",
                        }
                    ],
                    "usage": {"input_tokens": 312, "output_tokens": 58},
                },
                "scores": {
                    "judge": {"value": letter[a], "explanation": text(rng, 20, 200)},
                    "desk": {"value": letter[b]},
                },
                "metadata": {},
            }
            written += stream.write(("    " if n == 1 else ",\n    ") + json.dumps(sample))
            answer.add(case_id, a, b)
        stream.write("\n  ]\n}\n")
    lines = (
        "    input_file: log.json\n"
        "    ledger: {records: samples, id: id, a: scores.judge.value, "
        "b: scores.desk.value, labels: {C: true, I: false}}\n"
    )
    return write_case_file(folder, lines, answer), ["log.json"], path.stat().st_size


def nested(folder: Path, rows: int, _doc_mb: int) -> tuple[Path, list[str], int]:
    answer = Answer()
    with (folder / "tasks.jsonl").open("w", encoding="utf-8") as stream:
        for n, (a, b) in enumerate(labels(rows, seed=38), start=1):
            case_id = f"t{n:07d}"
            annotations = [
                {
                    "id": 2 * n - 1 + index,
                    "completed_by": grader,
                    "result": [
                        {
                            "value": {"choices": [WORDS[label]]},
                            "from_name": "verdict",
                            "to_name": "text",
                            "type": "choices",
                        }
                    ],
                    "was_cancelled": False,
                }
                for index, (grader, label) in enumerate(((10, a), (12, b)))
            ]
            if n % 2 == 0:  # grader 12 first for every other task
                annotations.reverse()
            task = {
                "id": case_id,
                "data": {"text": f"The headline of {case_id}"},
                "annotations": annotations,
            }
            stream.write(json.dumps(task) + "\n")
            answer.add(case_id, a, b)
    lines = (
        "    input_file: tasks.jsonl\n"
        "    ledger: {rows: per-judgement, id: id, grader: annotations.completed_by, "
        "label: annotations.result.0.value.choices.0, a: 10, b: 12, "
        "labels: {PASS: true, FAIL: false}}\n"
    )
    return write_case_file(folder, lines, answer), ["tasks.jsonl"], 0


NAMES = ("join", "document", "nested")
Writer = Callable[[Path, int, int], tuple[Path, list[str], int]]
#: Each measure: what writes its data, its floor, its CPU ratio's goal.
SETUPS: dict[str, tuple[Writer, str, float]] = {
    "join": (join, JOIN_FLOOR_CHILD, 2.0),
    "document": (document, DOCUMENT_FLOOR_CHILD, float("inf")),
    "nested": (nested, NESTED_FLOOR_CHILD, 2.5),
}
#: The document's bar: the plugin's peak resident set at most this many times its size.
MEMORY_BAR = 4


def prepare(name: str, folder: Path, rows: int, doc_mb: int) -> Measure:
    """Write the measure's files and case file into ``folder`` (untimed)."""
    write, floor_code, target = SETUPS[name]
    started = time.perf_counter()
    case_file, inputs, size = write(folder, rows, doc_mb)
    sizes = ", ".join(f"{item} {(folder / item).stat().st_size / 1e6:.0f} MB" for item in inputs)
    print(f"{name}: data written in {time.perf_counter() - started:.1f} s ({sizes})", flush=True)
    return Measure(
        name,
        functools.partial(child, OURS_CHILD, [str(case_file)], folder),
        functools.partial(child, floor_code, [str(folder / item) for item in inputs], folder),
        target,
        size,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--doc-mb", type=int, default=200, help="the document's size, in MB")
    parser.add_argument("--only", nargs="*", choices=NAMES)
    options = parser.parse_args()
    started = time.perf_counter()
    results = run_pairs(
        [name for name in NAMES if name in (options.only or NAMES)],
        lambda name, folder: prepare(name, folder, options.rows, options.doc_mb),
        options.repeats,
    )
    print(
        f"\n{options.repeats} alternating pairs each, fresh processes; CPU seconds of the work "
        "only (imports not counted); medians of the per-pair ratios ours / floor; "
        "(load): of ours, loading the case file"
    )
    header = (
        f"  {'measure':<9} {'ours s':>7} {'(load)':>7} {'floor s':>8} {'ratio':>6} "
        f"{'goal':>7} {'verdict':>7}   {'peak MiB ours / floor':>21}"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))
    for measure, pairs in results:
        ratio = statistics.median(ours.cpu / floor.cpu for ours, floor in pairs)
        ours_cpu = statistics.median(ours.cpu for ours, _ in pairs)
        load = statistics.median(ours.load for ours, _ in pairs)
        floor_cpu = statistics.median(floor.cpu for _, floor in pairs)
        peak_ours = max(ours.peak_mib for ours, _ in pairs)
        peak_floor = max(floor.peak_mib for _, floor in pairs)
        verdict = "PASS" if ratio <= measure.target else "OVER"
        bound = f"<= {measure.target}x"
        if measure.target == float("inf"):
            verdict, bound = "-", "none"
        print(
            f"  {measure.name:<9} {ours_cpu:7.2f} {load:7.2f} {floor_cpu:8.2f} {ratio:5.2f}x "
            f"{bound:>7} {verdict:>7}   {f'{peak_ours:.0f} / {peak_floor:.0f}':>21}"
        )
        if measure.size:
            size_mib = measure.size / 2**20
            times = peak_ours * 2**20 / measure.size
            print(
                f"  {'':<9} file {size_mib:.0f} MiB; peak ours {times:.2f}x its size "
                f"(bar <= {MEMORY_BAR}x: {'PASS' if times <= MEMORY_BAR else 'OVER'}), "
                f"floor {peak_floor * 2**20 / measure.size:.2f}x"
            )
    print()
    for measure, pairs in results:
        shown = ", ".join(f"{ours.cpu / floor.cpu:.2f}" for ours, floor in pairs)
        print(f"  {measure.name:<9} per-pair ratios {shown}")
    print(f"\ntook {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
