"""One agreement case written beside its files, loaded and run as the plugin's items run it:
shared by the tests of the inputs room (joins, documents, selections)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.evaluators.builtin import AGREEMENT
from pytest_rubric.running.outcome import CaseOutcome
from pytest_rubric.running.runner import run_case


def agreement_case(folder: Path, files: dict[str, str | bytes], body: str) -> Case:
    """The one agreement case whose keys after ``id: x`` are ``body`` (indented four
    spaces, ``expected: {}`` added), loaded beside ``files``."""
    for name, content in files.items():
        target = folder / name
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8", newline="")
    path = folder / "c.rubric.yaml"
    path.write_text(
        f"evaluator: agreement\ncases:\n  - id: x\n{body}    expected: {{}}\n", encoding="utf-8"
    )
    (case,) = load_case_file(path, "c.rubric.yaml", root=folder).cases
    return case


def run_agreement(
    folder: Path, files: dict[str, str | bytes], body: str, review_at: str = ""
) -> CaseOutcome:
    """:func:`agreement_case` run, its rows for review kept."""
    case = agreement_case(folder, files, body)
    return run_case(
        case, AGREEMENT, path="c.rubric.yaml", source="", review_limit=1000, review_at=review_at
    )


def reviewed(outcome: CaseOutcome) -> list[dict[str, Any]]:
    """The rows ``outcome`` keeps for review, as mappings."""
    assert outcome.review is not None
    rows = outcome.review["rows"]
    assert all(isinstance(row, dict) for row in rows)
    return [dict(row) for row in rows if isinstance(row, dict)]


def answer(outcome: CaseOutcome) -> dict[str, Any]:
    """The mapping ``outcome``'s evaluator answered."""
    assert isinstance(outcome.actual, dict), outcome
    return outcome.actual
