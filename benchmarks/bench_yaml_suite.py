"""The YAML test suite's 402 documents through the strict loader and, side by side, PyYAML.

    python benchmarks/bench_yaml_suite.py [--show wrong|accepted-invalid|refused]

For each reader it prints how many documents it reads to the specification's value
(equal), refuses (for the strict loader: each with a message naming where and what
to write), reads to another value (wrong), and how many documents that the suite
calls invalid it accepts. The strict loader is counted with libyaml's parser (the one
it uses whenever PyYAML has it) and with PyYAML's own; PyYAML's loaders are counted as
``yaml.load`` reads (YAML 1.1, so ``yes`` is ``True``). Not a timing: a count, the same
on every machine. ``--show`` lists the documents of one kind for the first reader.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from pytest_rubric.casefiles import yamlstrict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from yaml_test_suite.suite import KINDS, Reader, documents, judge


def strict(parser: type[Any]) -> Reader:
    """The strict loader with ``parser``: the document it read, or its refusal."""

    def read(text: str) -> list[Any] | str:
        try:
            loaded = yamlstrict.load(text, parser)
        except yamlstrict.StrictYAMLError as exc:
            return str(exc)
        if loaded.problems:
            return loaded.problems[0].message
        return [] if loaded.empty else [loaded.value]

    return read


def pyyaml(loader: type[Any]) -> Reader:
    def read(text: str) -> list[Any] | str:
        try:
            return list(yaml.load_all(text, Loader=loader))
        except Exception as exc:
            return str(exc)

    return read


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", choices=KINDS)
    args = parser.parse_args()
    suite = documents()
    readers: list[tuple[str, Reader]] = []
    if hasattr(yaml, "CSafeLoader"):
        readers.append(("pytest-rubric strict loader (libyaml)", strict(yaml.CSafeLoader)))
    readers.append(("pytest-rubric strict loader (PyYAML's parser)", strict(yaml.SafeLoader)))
    if hasattr(yaml, "CSafeLoader"):
        readers.append(("PyYAML yaml.load, CSafeLoader", pyyaml(yaml.CSafeLoader)))
    readers.append(("PyYAML yaml.load, SafeLoader", pyyaml(yaml.SafeLoader)))
    valid = sum(not d["fail"] for d in suite)
    print(f"yaml-test-suite: {len(suite)} documents, {valid} valid, {len(suite) - valid} invalid")
    print(f"{'reader':48} {'equal':>6} {'refused':>8} {'wrong':>6} {'invalid accepted':>17}")
    for number, (name, read) in enumerate(readers):
        kinds = {d["id"]: judge(d, read)[0] for d in suite}
        tally = Counter(kinds.values())
        print(
            f"{name:48} {tally['equal']:6} {tally['refused']:8} {tally['wrong']:6} "
            f"{tally['accepted-invalid']:17}"
        )
        if args.show and number == 0:
            print("  " + " ".join(sorted(i for i, k in kinds.items() if k == args.show)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
