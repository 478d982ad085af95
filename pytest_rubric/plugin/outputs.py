"""The files a run writes at its end (``--rubric-report``, ``--rubric-html``,
``--rubric-markdown``) kept from replacing a file its cases read: such a case fails
saying so, and that output is not written (the run fails). Checked where cases are
collected; a pytest-xdist worker tells its controller, which writes the outputs."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.core.files import same_file

if TYPE_CHECKING:
    from pytest_rubric.casefiles.cases import Case

#: Each output option: its ``config.option`` name and how it is typed.
_OPTIONS = (
    ("rubric_report", "--rubric-report"),
    ("rubric_html", "--rubric-html"),
    ("rubric_markdown", "--rubric-markdown"),
)
_outputs_key = pytest.StashKey[tuple[tuple[str, str], ...]]()
_refused_key = pytest.StashKey[dict[str, str]]()
#: The key of the outputs a pytest-xdist worker refused, in its ``workeroutput``.
WORKER_REFUSED = "rubric_refused_outputs"


def outputs_of(config: pytest.Config) -> tuple[tuple[str, str], ...]:
    """The files this run writes at its end, each with its option."""
    if _outputs_key not in config.stash:
        base = config.invocation_params.dir
        config.stash[_outputs_key] = tuple(
            (str(base / value), option)
            for name, option in _OPTIONS
            if isinstance(value := getattr(config.option, name, None), str)
        )
    return config.stash[_outputs_key]


def refused_of(config: pytest.Config) -> dict[str, str]:
    """The outputs not to be written, by option, each with why."""
    if _refused_key not in config.stash:
        config.stash[_refused_key] = {}
    return config.stash[_refused_key]


def kept_from_inputs(
    config: pytest.Config, case: Case, display: str, outputs: Iterable[tuple[str, str]]
) -> Case:
    """``case``, failing when a file it reads is one of ``outputs`` (however spelt, as
    :func:`~pytest_rubric.core.files.same_file` compares them), which that output would
    replace at the run's end; that output is then refused for the run."""
    for path in _read_paths(case):
        for output, option in outputs:
            if same_file(str(path), output):
                return _refused(config, case, display, path, option)
    return case


def _refused(config: pytest.Config, case: Case, display: str, path: Path, option: str) -> Case:
    """``case`` failing because ``option`` would replace ``path``, which it reads."""
    shown = os.path.relpath(path, config.invocation_params.dir)
    why = (
        f"{shown} is read by this run's cases and is the file {option} writes at the run's "
        f"end, which would replace it; write {option} to another file"
    )
    refused_of(config)[option] = why
    problem = CaseFileError(display, case.line, case.place.col, why)
    return dataclasses.replace(case, problems=(*case.problems, problem))


def _read_paths(case: Case) -> Iterator[Path]:
    """The files ``case`` reads: its input file and a join's sides, its dataset's file."""
    source = case.input_file
    if source is not None:
        yield source.path
        for side in source.sides or ():
            yield side.path
    if case.dataset is not None:
        yield case.dataset.path
