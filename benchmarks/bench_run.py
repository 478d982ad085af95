"""Time pytest-rubric against two baselines on a generated corpus, side by side.

    python benchmarks/bench_run.py [--cases 10000] [--files 100] [--repeats 5]

Writes a corpus of case files (half ``reason``, half ``agreement``) and times,
alternating runs of each setup so that machine noise hits all of them alike:

- ``plugin``:   ``pytest`` with pytest-rubric on the corpus;
- ``minimal``:  the least a plugin can do: a conftest that parses each file with
  libyaml (``yaml.CSafeLoader``), makes bare items and compares with ``==``;
- ``by-hand``:  what a user writes without the plugin: a test module that loads
  every file with ``yaml.safe_load`` and parametrizes one test over the cases;
- ``plugin-30%``: pytest-rubric on the same corpus with 30% of the expected
  answers wrong, so 30% of the cases are reported as mismatches.

It prints the median wall time of each and the three ratios with their targets.
The baselines use the same evaluator functions, so only the harness is compared.
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
from typing import Any

from pytest_rubric import evaluate_agreement, evaluate_reason

MINIMAL_CONFTEST = """
import os
from pathlib import Path

import pytest
import yaml

from pytest_rubric import evaluate_agreement, evaluate_reason

EVALUATORS = {"reason": evaluate_reason, "agreement": evaluate_agreement}


def pytest_collect_file(file_path, parent):
    if file_path.name.endswith(".rubric.yaml"):
        return CaseFile.from_parent(parent, path=file_path)


class CaseFile(pytest.File):
    def collect(self):
        with open(self.path, "rb") as stream:
            doc = yaml.load(stream, Loader=yaml.CSafeLoader)
        evaluate = EVALUATORS[doc["evaluator"]]
        for case in doc["cases"]:
            yield CaseItem.from_parent(self, name=case["id"], evaluate=evaluate, case=case)


class CaseItem(pytest.Item):
    def __init__(self, *, evaluate, case, **kwargs):
        super().__init__(**kwargs)
        self.evaluate = evaluate
        self.case = case

    def runtest(self):
        actual = self.evaluate(self.case["input"])
        if actual != self.case["expected"]:
            raise AssertionError(f"{actual!r} != {self.case['expected']!r}")

    def repr_failure(self, excinfo):
        return str(excinfo.value)
"""

BY_HAND_TEST = """
import os
from pathlib import Path

import pytest
import yaml

from pytest_rubric import evaluate_agreement, evaluate_reason

EVALUATORS = {"reason": evaluate_reason, "agreement": evaluate_agreement}
CASES = []
for path in sorted(Path(os.environ["RUBRIC_CORPUS"]).glob("*.rubric.yaml")):
    doc = yaml.safe_load(path.read_text())
    for case in doc["cases"]:
        CASES.append(pytest.param(doc["evaluator"], case, id=f"{path.name}::{case['id']}"))


@pytest.mark.parametrize(("evaluator", "case"), CASES)
def test_case(evaluator, case):
    assert EVALUATORS[evaluator](case["input"]) == case["expected"]
"""


def reason_case(rng: random.Random, n: int) -> dict[str, Any]:
    fields = {"title": rng.random() < 0.7, "source": rng.random() < 0.7}
    reasons = rng.sample(["missing-title", "missing-source", "all-required-met"], rng.randint(0, 2))
    record = {"fields": fields, "pass": rng.random() < 0.5, "reasons": reasons}
    if rng.random() < 0.05:
        record["reasons"] = ["looks-good"]
    return {"id": f"reason-{n}", "input": record, "expected": evaluate_reason(record)}


def agreement_case(rng: random.Random, n: int) -> dict[str, Any]:
    rows = [
        {"id": f"item-{n}-{k}", "a": rng.random() < 0.6, "b": rng.random() < 0.6}
        for k in range(rng.randint(2, 8))
    ]
    if rng.random() < 0.05:
        rows[-1]["b"] = "pass"
    ledger = {"rows": rows}
    return {"id": f"ledger-{n}", "input": ledger, "expected": evaluate_agreement(ledger)}


def spoil(expected: dict[str, Any]) -> dict[str, Any]:
    """A wrong expected answer of the same shape."""
    wrong: dict[str, Any] = json.loads(json.dumps(expected))
    if "coherent" in wrong:
        wrong["coherent"] = not wrong["coherent"]
    elif "total" in wrong:
        wrong["total"] += 1
    else:
        wrong = {"status": "ok"}
    return wrong


def write_corpus(root: Path, cases: int, files: int, mismatch: float, seed: int = 7) -> None:
    """``cases`` cases in ``files`` files; the first half of the files ``reason``."""
    rng = random.Random(seed)
    spoil_rng = random.Random(seed + 1)
    root.mkdir(parents=True)
    per_file = cases // files
    for index in range(files):
        evaluator = "reason" if index < files // 2 else "agreement"
        make = reason_case if evaluator == "reason" else agreement_case
        lines = [f"evaluator: {evaluator}", "cases:"]
        for n in range(per_file):
            case = make(rng, index * per_file + n)
            if spoil_rng.random() < mismatch:
                case["expected"] = spoil(case["expected"])
            lines.append(f"  - id: {case['id']}")
            lines.append(f"    input: {json.dumps(case['input'])}")
            lines.append(f"    expected: {json.dumps(case['expected'])}")
        (root / f"corpus_{index:03d}.rubric.yaml").write_text("\n".join(lines) + "\n")


def setups(work: Path, cases: int, files: int) -> dict[str, tuple[list[str], Path, Path]]:
    corpus = work / "corpus"
    spoiled = work / "spoiled"
    write_corpus(corpus, cases, files, 0.0)
    write_corpus(spoiled, cases, files, 0.3)
    minimal = work / "minimal"
    minimal.mkdir()
    (minimal / "minimal_rubric.py").write_text(textwrap.dedent(MINIMAL_CONFTEST))
    by_hand = work / "by_hand"
    by_hand.mkdir()
    (by_hand / "test_cases.py").write_text(textwrap.dedent(BY_HAND_TEST))
    for folder in (corpus, spoiled, minimal, by_hand):
        (folder / "pytest.ini").write_text("[pytest]\n")
    common = ["-q", "-p", "no:cacheprovider"]
    return {
        "plugin": ([*common, str(corpus)], corpus, corpus),
        "minimal": (
            [*common, "-p", "no:rubric", "-p", "minimal_rubric", str(corpus)],
            minimal,
            corpus,
        ),
        "by-hand": ([*common, "-p", "no:rubric", str(by_hand)], by_hand, corpus),
        "plugin-30%": ([*common, str(spoiled)], spoiled, spoiled),
    }


def run_once(args: list[str], cwd: Path, corpus: Path, expect_failures: bool) -> float:
    env = {
        "RUBRIC_CORPUS": str(corpus),
        "PYTHONPATH": str(cwd),  # for the minimal baseline's plugin module
        "PATH": "/usr/bin:/bin",
        "PYTHONHASHSEED": "0",
    }
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != (1 if expect_failures else 0):
        raise SystemExit(
            f"pytest {' '.join(args)} exited {done.returncode}:\n{done.stdout[-3000:]}"
        )
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rubric-bench-") as tmp:
        plan = setups(Path(tmp), options.cases, options.files)
        times: dict[str, list[float]] = {name: [] for name in plan}
        for _ in range(options.repeats):
            for name, (args, cwd, corpus) in plan.items():
                times[name].append(run_once(args, cwd, corpus, name == "plugin-30%"))
    median = {name: statistics.median(values) for name, values in times.items()}
    print(
        f"{options.cases} cases in {options.files} files, {options.repeats} alternating runs each"
    )
    for name, value in median.items():
        runs = ", ".join(f"{v:.2f}" for v in times[name])
        print(f"  {name:<11} median {value:6.2f} s   (runs: {runs})")
    checks = [
        ("plugin / minimal", median["plugin"] / median["minimal"], "<=", 1.25),
        ("plugin / by-hand", median["plugin"] / median["by-hand"], "<", 0.6),
        ("plugin-30% / plugin", median["plugin-30%"] / median["plugin"], "<=", 1.5),
    ]
    for label, ratio, op, target in checks:
        ok = ratio <= target if op == "<=" else ratio < target
        print(f"  {label:<20} {ratio:5.2f}x   target {op} {target}x   {'met' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()
