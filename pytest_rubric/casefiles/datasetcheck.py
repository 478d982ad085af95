"""What a case with ``dataset:`` or ``expected_subset:`` may give, and its dataset file
read with its block (for the loader, which resolves the file's path).

A case gives at most one of ``expected`` (the whole answer), ``expected_subset`` (the
keys the answer must hold) and ``dataset: {expected: PATH}`` (each row's own answer);
a dataset case reads each row's input from its file (no ``input``, ``input_file`` or
``ledger``), and must say what its rows' answers hold: ``--rubric-update`` never writes
into a dataset file. This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.dataset import read_dataset
from pytest_rubric.descriptions.positions import Places, Report, Written
from pytest_rubric.descriptions.traits import NO_FORMAT
from pytest_rubric.inputs.source import InputFile

#: Where a case's expected answer may be written: at most one of them.
EXPECTATIONS = ("expected", "expected_subset", "dataset.expected")


def dataset_keys(case: dict[str, JSON], places: Places, refuse: Report) -> None:
    """Refuse what a case may not give beside ``dataset`` or ``expected_subset``
    (``places``: where the case writes its keys)."""
    if case.get("expected_subset") == {}:
        refuse(
            places.value("expected_subset"),
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
            places.key(second) if second in case else places.value("dataset"),
            f"the case gives both '{given[0]}' and '{second}'; a case gives at most one of "
            "'expected', 'expected_subset' and 'dataset: {expected: PATH}': keep one of them",
        )
    if "dataset" not in case:
        return
    if "expected" in case and case["expected"] is None:
        refuse(
            places.key("expected"),
            "the dataset case's 'expected' is empty; write every row's whole expected answer "
            "under it, or the keys each must hold as 'expected_subset:' (a dataset's rows are "
            "never written by --rubric-update)",
        )
    for other in ("input", "input_file", "ledger"):
        if other in case:
            refuse(
                places.key(other),
                f"a dataset case reads each row's input from its file; remove '{other}'",
            )
    if not given:
        refuse(
            places.key("dataset"),
            "the dataset case says nothing its rows' answers must hold; add "
            "'expected_subset:' (e.g. '{coherent: true}'), 'expected:' (each row's whole "
            "answer), or 'expected: PATH' inside 'dataset:' (each row's own); "
            "--rubric-update never writes into a dataset file",
        )


def read_dataset_case(
    case: dict[str, JSON],
    written: Written,
    resolve: Callable[[str, str], tuple[InputFile, str | None]],
) -> InputFile | None:
    """The case's ``dataset:`` file (``resolve`` finds it, and says what is wrong with
    it) with its block read, or ``None`` after refusing each problem; ``written`` holds
    the loader's positions."""
    value_at = written.keys[id(case)]["dataset"][1]
    block = case["dataset"]
    source: InputFile | None = None
    if isinstance(block, dict) and "file" in block:
        path = block["file"]
        file_at = written.keys[id(block)]["file"][1]
        if not isinstance(path, str) or not path.strip():
            written.refuse(
                file_at,
                f"dataset 'file' must be a path, not {describe(path)}; write e.g. "
                "'file: logs/decisions.jsonl'",
            )
        else:
            source, problem = resolve(path, "dataset file")
            if problem is not None:
                written.refuse(file_at, problem)
                source = None
    traits = NO_FORMAT if source is None or source.format is None else source.format.traits
    dataset = read_dataset(block, value_at, written, traits=traits)
    if dataset is None or source is None:
        return None
    return replace(source, dataset=dataset)
