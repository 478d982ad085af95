"""What a case with ``dataset:`` or ``expected_subset:`` may give, and its dataset file
read with its block (for the loader, which resolves the file's path).

A case gives at most one of ``expected`` (the whole answer), ``expected_subset`` (the
keys the answer must hold) and ``dataset: {expected: PATH}`` (each row's own answer);
a dataset case reads each row's input from its file (no ``input``, ``input_file`` or
``ledger``), and must say what its rows' answers hold: ``--rubric-update`` never writes
into a dataset file. This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe
from pytest_rubric.inputs.datasetspec import read_dataset
from pytest_rubric.inputs.labels import Position, Report
from pytest_rubric.inputs.source import InputFile
from pytest_rubric.inputs.traits import NO_FORMAT

#: Where a case's expected answer may be written: at most one of them.
EXPECTATIONS = ("expected", "expected_subset", "dataset.expected")
Places = Mapping[str, tuple[Position, Position]]


def dataset_keys(case: dict[str, JSON], places: Places, refuse: Report) -> None:
    """Refuse what a case may not give beside ``dataset`` or ``expected_subset``."""
    if case.get("expected_subset") == {}:
        refuse(
            places["expected_subset"][1],
            "'expected_subset' is empty and pins nothing; name the keys the answer must "
            "hold, e.g. 'expected_subset: {coherent: true}'",
        )
    given = [key for key in EXPECTATIONS[:2] if key in case]
    block = case.get("dataset")
    if isinstance(block, dict) and "expected" in block:
        given.append(EXPECTATIONS[2])
    if len(given) > 1:
        second = given[1]
        refuse(
            places[second][0] if second in places else places["dataset"][1],
            f"the case gives both '{given[0]}' and '{second}'; a case gives at most one of "
            "'expected', 'expected_subset' and 'dataset: {expected: PATH}': keep one of them",
        )
    if "dataset" not in case:
        return
    if "expected" in case and case["expected"] is None:
        refuse(
            places["expected"][0],
            "the dataset case's 'expected' is empty; write every row's whole expected answer "
            "under it, or the keys each must hold as 'expected_subset:' (a dataset's rows are "
            "never written by --rubric-update)",
        )
    for other in ("input", "input_file", "ledger"):
        if other in case:
            refuse(
                places[other][0],
                f"a dataset case reads each row's input from its file; remove '{other}'",
            )
    if not given:
        refuse(
            places["dataset"][0],
            "the dataset case says nothing its rows' answers must hold; add "
            "'expected_subset:' (e.g. '{coherent: true}'), 'expected:' (each row's whole "
            "answer), or 'expected: PATH' inside 'dataset:' (each row's own); "
            "--rubric-update never writes into a dataset file",
        )


def read_dataset_case(
    case: dict[str, JSON],
    keys: Mapping[int, Places],
    items: Mapping[int, Sequence[Position]],
    resolve: Callable[[str, str], tuple[InputFile, str | None]],
    refuse: Report,
) -> InputFile | None:
    """The case's ``dataset:`` file (``resolve`` finds it, and says what is wrong with
    it) with its block read, or ``None`` after refusing each problem; ``keys`` and
    ``items`` are the loader's positions."""
    value_at = keys[id(case)]["dataset"][1]
    block = case["dataset"]
    source: InputFile | None = None
    if isinstance(block, dict) and "file" in block:
        written = block["file"]
        file_at = keys[id(block)]["file"][1]
        if not isinstance(written, str) or not written.strip():
            refuse(
                file_at,
                f"dataset 'file' must be a path, not {describe(written)}; write e.g. "
                "'file: logs/decisions.jsonl'",
            )
        else:
            source, problem = resolve(written, "dataset file")
            if problem is not None:
                refuse(file_at, problem)
                source = None
    traits = NO_FORMAT if source is None or source.format is None else source.format.traits
    dataset = read_dataset(block, value_at, keys, items, refuse, traits=traits)
    if dataset is None or source is None:
        return None
    return replace(source, dataset=dataset)
