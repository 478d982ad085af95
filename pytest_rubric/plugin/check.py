"""``--rubric-check [PATHS]``: every case file loaded strictly, every problem reported as
``path:line:col``, no case run (for pre-commit and editors).

It collects as a run does, so conftest and entry-point evaluators are known: an
unknown evaluator name is caught, and each expected answer is checked against its
evaluator's answer schema (:mod:`pytest_rubric.core.schemacheck`). Only case files
are collected: no test module is imported. Exit 1 on problems, 0 when clean.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest

from pytest_rubric.casefiles.suffixes import is_case_file, near_miss_at


class CaseCheck:
    """Collects case files only, and keeps what is wrong with them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[str] = []
        self.files: set[str] = set()
        #: Every item collected, before any plugin deselects some (pytest-split, a shard).
        self.items: list[pytest.Item] = []

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_collection_modifyitems(
        self, items: list[pytest.Item]
    ) -> Generator[None, None, None]:
        self.items = list(items)
        return (yield)

    @pytest.hookimpl(tryfirst=True)
    def pytest_ignore_collect(self, collection_path: Path) -> bool | None:
        if collection_path.is_dir() or is_case_file(collection_path):
            return None
        if near_miss_at(collection_path) is not None:
            return None  # its collection says it is not collected: a problem here
        return True  # a check reads case files only: no test module is imported

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        path = report.nodeid.partition("::")[0]
        if report.nodeid != path or not (self.root / path).is_file():
            return  # a directory named like a case file is none
        named = is_case_file(Path(path))
        if named:
            self.files.add(path)
        if report.failed and (named or near_miss_at(self.root / path) is not None):
            self.problems.append(str(report.longrepr).strip())


def prepare(config: pytest.Config) -> None:
    """Before the session: a check runs in one process (pytest-xdist's workers would
    only start to do nothing), checks every case (``-k``, ``-m`` and ``-x`` are for runs),
    and of the paths given it reads directories and case files only (pytest collects a file given by name whatever the hooks say, so a test
    module named there would be imported)."""
    # Every case of the files given is checked: no -k, -m, --deselect, --lf or --sw
    # narrows it, no -x stops it.
    config.option.keyword = ""
    config.option.markexpr = ""
    config.option.maxfail = 0
    config.option.deselect = []
    for name in ("lf", "stepwise", "stepwise_skip", "stepwise_reset"):
        if getattr(config.option, name, None):  # absent with -p no:cacheprovider
            setattr(config.option, name, False)
    if getattr(config.option, "dist", None) is not None:
        config.option.dist = "no"
    if getattr(config.option, "numprocesses", None) is not None:
        config.option.numprocesses = None
    given = list(config.args)
    kept = [arg for arg in given if _checked(config, arg)]
    config.args[:] = kept
    if given and not kept:
        config.stash[_nothing_key] = len(given)


_nothing_key = pytest.StashKey[int]()


def _checked(config: pytest.Config, arg: str) -> bool:
    path = Path(config.invocation_params.dir, arg.partition("::")[0])
    if not path.is_file():
        return True  # a directory, or a path pytest will say is not found
    return is_case_file(path) or near_miss_at(path) is not None


def _place(problem: str) -> tuple[str, int, int]:
    """Where a problem is (``path:line:col: ...``), to list them in file order."""
    path, line, col = [*problem.split(":", 3), "", "", ""][:3]
    return path, int(line) if line.isdigit() else 0, int(col) if col.isdigit() else 0


def run_check(config: pytest.Config, session: pytest.Session) -> int:
    from pytest_rubric.core.escapes import escape_controls
    from pytest_rubric.core.schemacheck import answer_problems, subset_problems
    from pytest_rubric.plugin.checkanswers import AnswerPlaces, placed
    from pytest_rubric.plugin.items import RubricItem
    from pytest_rubric.reports.schema import widened

    writer = config.get_terminal_writer()
    skipped = config.stash.get(_nothing_key, 0)
    if skipped:
        writer.line(f"rubric check: no case file among the {skipped} paths given: nothing to check")
        return 0
    check = CaseCheck(config.rootpath)
    config.pluginmanager.register(check, "rubric-check")
    session.perform_collect()
    cases = [item for item in check.items or session.items if isinstance(item, RubricItem)]
    places: dict[Path, AnswerPlaces] = {}
    checked: set[tuple[Path, int]] = set()  # dataset cases whose rows share the case's answer
    for item in cases:
        case = item.case
        if case.problems:
            check.problems.extend(str(problem) for problem in case.problems)
            continue
        row, pair = case.row, case.pair
        if (row is not None and not row.own_expected) or (pair is not None and not pair.pinned):
            if (item.path, case.index) in checked:
                continue  # its rows (a panel's pairs) hold one expectation, checked once
            checked.add((item.path, case.index))
        schema = item.evaluator.answer_schema
        if schema is None:
            continue
        if item.configured:
            # As --rubric-schema has it: a rubric block may change the codes, so every
            # enum of strings is widened to any string (see Evaluator.answer_schema).
            wide = widened(dict(schema))
            if not isinstance(wide, dict):
                continue
            schema = wide
        whose = f"{item.evaluator.name}'s answers"
        problems = (
            subset_problems(case.expected, schema, whose)
            if case.subset
            else answer_problems(case.expected, schema, whose)
        )
        if not problems:
            continue
        if row is not None and row.own_expected:  # written in the dataset file, at its row
            check.problems.extend(f"{row.place}: case {case.name!r}: {words}" for words in problems)
            continue
        if item.path not in places:
            places[item.path] = AnswerPlaces(item.path)
        key = "expected_subset" if case.subset else "expected"
        name = case.name if row is None else row.dataset
        expected = case.expected
        if pair is not None:
            name = pair.panel
            if pair.pinned:  # written under expected_pairs, at the pair's name
                key, expected = "expected_pairs", {pair.pair: expected}
                problems = [
                    words.replace("expected", f"expected_pairs.{pair.pair}", 1)
                    for words in problems
                ]
        for at, words in placed(problems, expected, places[item.path], case.index, key):
            line, col = at or (case.line, case.place.col)
            check.problems.append(f"{item.display}:{line}:{col}: case {name!r}: {words}")
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
