"""``--rubric-check [PATHS]``: every case file loaded strictly, every problem reported as
``path:line:col``, no case run (for pre-commit and editors).

It collects as a run does, so conftest and entry-point evaluators are known: an
unknown evaluator name is caught, and each expected answer is checked against its
evaluator's answer schema (:mod:`pytest_rubric.core.schemacheck`). Only case files
are collected: no test module is imported. Exit 1 on problems, 0 when clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_rubric.casefiles.suffixes import is_case_file


class CaseCheck:
    """Collects case files only, and keeps what is wrong with them."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.files: set[str] = set()

    @pytest.hookimpl(tryfirst=True)
    def pytest_ignore_collect(self, collection_path: Path) -> bool | None:
        if collection_path.is_dir() or is_case_file(collection_path):
            return None
        return True  # a check reads case files only: no test module is imported

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        path = report.nodeid.partition("::")[0]
        if is_case_file(Path(path)):
            self.files.add(path)
            if report.failed:
                self.problems.append(str(report.longrepr).strip())


def prepare(config: pytest.Config) -> None:
    """Before the session: a check runs in one process (pytest-xdist's workers would
    only start to do nothing)."""
    if getattr(config.option, "dist", None) is not None:
        config.option.dist = "no"
    if getattr(config.option, "numprocesses", None) is not None:
        config.option.numprocesses = None


def _place(problem: str) -> tuple[str, int, int]:
    """Where a problem is (``path:line:col: ...``), to list them in file order."""
    path, line, col = [*problem.split(":", 3), "", "", ""][:3]
    return path, int(line) if line.isdigit() else 0, int(col) if col.isdigit() else 0


def run_check(config: pytest.Config, session: pytest.Session) -> int:
    from pytest_rubric.core.jsonvalues import escape_controls
    from pytest_rubric.core.schemacheck import answer_problems
    from pytest_rubric.plugin.items import RubricItem

    check = CaseCheck()
    config.pluginmanager.register(check, "rubric-check")
    session.perform_collect()
    cases = [item for item in session.items if isinstance(item, RubricItem)]
    for item in cases:
        case = item.case
        if case.problems:
            check.problems.extend(str(problem) for problem in case.problems)
            continue
        schema = item.evaluator.answer_schema
        if schema is None:
            continue
        at = f"{item.display}:{case.line}:{case.col}"
        for problem in answer_problems(case.expected, schema, f"{item.evaluator.name}'s answers"):
            check.problems.append(f"{at}: case {case.name!r}: {problem}")
    writer = config.get_terminal_writer()
    check.problems.sort(key=_place)
    for problem in check.problems:
        writer.line(escape_controls(problem, keep_newlines=True))
    files = len(check.files)
    counts = f"{files} case file{'' if files == 1 else 's'}, {len(cases)} case" + (
        "" if len(cases) == 1 else "s"
    )
    if check.problems:
        many = len(check.problems)
        writer.line(f"rubric check: {counts}: {many} problem{'' if many == 1 else 's'}", red=True)
        return 1
    writer.line(f"rubric check: {counts}: no problems", green=True)
    return 0
