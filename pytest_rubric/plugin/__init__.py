"""The pytest layer, as a table of contents: options, the run's objects, collection.

The work is elsewhere: :mod:`pytest_rubric.plugin.items` (case files and cases as
pytest nodes), :mod:`pytest_rubric.plugin.results` (records, summary, report) and
:mod:`pytest_rubric.running.runner` (running one case, without pytest).

Until a case file is collected, a run pays for the options and a look at each
file's suffix only: the loader, YAML, the evaluators and their discovery are
imported where first needed (``tests/test_plugin.py`` checks that a run of plain
test modules imports none of them).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_rubric.casefiles.suffixes import is_case_file, near_miss_at
from pytest_rubric.plugin.options import (
    DEFAULT_REVIEW_ROWS,
    baseline_path,
    clashing_paths,
    html_path,
    markdown_limit,
    markdown_marker,
    markdown_path,
    report_path,
    review_rows,
    schema_path,
    update_mode,
)
from pytest_rubric.plugin.results import register, watch_cases
from pytest_rubric.plugin.state import PluginFeed, discovery_of, feed_key

if TYPE_CHECKING:
    from pytest_rubric.plugin.items import RubricFile
    from pytest_rubric.plugin.nearmiss import NearMissFile


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rubric", "rubric case files (pytest-rubric)")
    group.addoption(
        "--rubric-check",
        action="store_true",
        dest="rubric_check",
        default=False,
        help="load every case file (of the PATHS given, or the whole project) strictly and "
        "report each problem as path:line:col, without running a case; exit 1 on problems "
        "(for pre-commit and editors)",
    )
    group.addoption(
        "--rubric-evaluators",
        action="store_true",
        dest="rubric_evaluators",
        default=False,
        help="show the registered rubric evaluators and where each comes from, then exit",
    )
    group.addoption(
        "--rubric-report",
        action="store",
        dest="rubric_report",
        metavar="PATH",
        default=None,
        type=report_path,
        help="write a JSON report with a record per rubric case (input, expected, actual, "
        "evidence) to PATH",
    )
    group.addoption(
        "--rubric-html",
        action="store",
        dest="rubric_html",
        metavar="PATH",
        default=None,
        type=html_path,
        help="write a review page (one self-contained HTML file: agreement ledgers with their "
        "disagreement rows, mismatches and case errors) to PATH at the end of the run",
    )
    group.addoption(
        "--rubric-markdown",
        action="store",
        dest="rubric_markdown",
        metavar="PATH",
        default=None,
        type=markdown_path,
        help="write the run's results as Markdown (a PR comment, a CI job summary) to PATH: "
        "the verdict, counts per evaluator, mismatches, case errors, ledgers; added to what "
        "is there when PATH is $GITHUB_STEP_SUMMARY; never changes the run's outcome",
    )
    group.addoption(
        "--rubric-markdown-limit",
        action="store",
        dest="rubric_markdown_limit",
        metavar="CHARS",
        default=None,
        type=markdown_limit,
        help="cut --rubric-markdown's lists to fit in CHARS characters (default 65536, what "
        "a GitHub comment holds); the verdict and the counts are never cut",
    )
    group.addoption(
        "--rubric-markdown-marker",
        action="store",
        dest="rubric_markdown_marker",
        metavar="NAME",
        default=None,
        type=markdown_marker,
        help="start --rubric-markdown with <!-- NAME --> (default pytest-rubric), which a "
        "workflow finds to update one pull request comment",
    )
    group.addoption(
        "--rubric-baseline",
        action="store",
        dest="rubric_baseline",
        metavar="REPORT",
        default=None,
        type=baseline_path,
        help="compare this run with the report an earlier run wrote (--rubric-report): the "
        "rubric summary and the review page mark the cases whose outcome changed and, per "
        "agreement ledger, the disagreement IDs that entered and left; never changes the "
        "run's outcome",
    )
    group.addoption(
        "--rubric-review-rows",
        action="store",
        dest="rubric_review_rows",
        metavar="N",
        default=DEFAULT_REVIEW_ROWS,
        type=review_rows,
        help=f"keep at most N rows to review per ledger (its disagreements) in --rubric-report "
        f"and --rubric-html, counting the rest (default {DEFAULT_REVIEW_ROWS})",
    )
    group.addoption(
        "--rubric-schema",
        action="store",
        dest="rubric_schema",
        metavar="PATH",
        default=None,
        type=schema_path,
        help="write a JSON Schema of this project's case files (its evaluators and their "
        "answers, for editors) to PATH, then exit",
    )
    group.addoption(
        "--rubric-update",
        action="store",
        dest="rubric_update",
        metavar="new|all",
        default=None,
        type=update_mode,
        help="write each selected case's answer into its case file as its expected: 'new' "
        "fills cases without one, 'all' also rewrites mismatching ones (refused in CI)",
    )
    group.addoption(
        "--rubric-update-refusals",
        action="store_true",
        dest="rubric_update_refusals",
        default=False,
        help="let --rubric-update write answers that are refusals (the evidence names a "
        "problem with the input), which it holds back otherwise",
    )
    group.addoption(
        "--rubric-update-in-ci",
        action="store_true",
        dest="rubric_update_in_ci",
        default=False,
        help="let --rubric-update write case files even where CI variables are set",
    )


def pytest_cmdline_main(config: pytest.Config) -> int | pytest.ExitCode | None:
    if config.option.rubric_update_refusals and config.option.rubric_update is None:
        raise pytest.UsageError(
            "--rubric-update-refusals lets --rubric-update write answers that are refusals, "
            "and writes nothing on its own; add --rubric-update=new or --rubric-update=all"
        )
    if config.option.rubric_check:
        others = [
            name
            for name, given in (
                ("--rubric-evaluators", config.option.rubric_evaluators),
                ("--rubric-schema", config.option.rubric_schema is not None),
                ("--rubric-update", config.option.rubric_update is not None),
            )
            if given
        ]
        if others:
            raise pytest.UsageError(
                f"--rubric-check checks case files and runs nothing, so it takes no "
                f"{' or '.join(others)}: run {'them' if len(others) > 1 else 'it'} on its own"
            )
    if config.option.rubric_evaluators:
        # As pytest's own --fixtures does: a session that collects (so that
        # conftest files are loaded) and then shows, instead of running tests.
        from _pytest.main import wrap_session

        return wrap_session(config, _show_evaluators)
    if config.option.rubric_schema is not None:
        from _pytest.main import wrap_session

        return wrap_session(config, _write_schema)
    if config.option.rubric_check:
        from _pytest.main import wrap_session

        from pytest_rubric.plugin.check import prepare, run_check

        prepare(config)
        return wrap_session(config, run_check)
    return None


def _show_evaluators(config: pytest.Config, session: pytest.Session) -> int:
    from pytest_rubric.core.errors import RegistrationError
    from pytest_rubric.reports.failure import format_evaluators

    session.perform_collect()
    try:
        entries = discovery_of(config).entries()
    except RegistrationError as exc:
        raise pytest.UsageError(str(exc)) from None
    writer = config.get_terminal_writer()
    writer.line()
    writer.sep("-", f"rubric evaluators ({len(entries)})")
    writer.line(format_evaluators(entries))
    return 0


def _write_schema(config: pytest.Config, session: pytest.Session) -> int:
    from pytest_rubric.core.errors import RegistrationError, ReportWriteError
    from pytest_rubric.reports.jsonreport import write_atomically
    from pytest_rubric.reports.schema import AnswerSchemaError, describe, project_schema

    session.perform_collect()  # conftest evaluators are found as collection reaches them
    path = config.option.rubric_schema
    try:
        entries = discovery_of(config).entries()
        write_atomically(Path(path), project_schema(entries), what="the rubric schema")
    except (RegistrationError, AnswerSchemaError, ReportWriteError) as exc:
        raise pytest.UsageError(str(exc)) from None
    writer = config.get_terminal_writer()
    writer.line()
    writer.sep("-", "rubric schema")
    writer.line(describe(entries, path))
    return 0


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller's paths, checked once
        clash = clashing_paths(config.option)
        if clash is not None:
            raise pytest.UsageError(clash)
    if config.option.rubric_update is not None:
        from pytest_rubric.plugin.update import refuse_in_ci

        refuse_in_ci(config, os.environ)  # before anything runs, and before anything is written
    feed = PluginFeed(config)
    config.stash[feed_key] = feed
    # Plugins, entry points and the conftests loaded so far are known now: a broken
    # one stops the run before collection (conftests found later fail their case files).
    if feed.needed():
        problems = feed.discovery().problems()
        if problems:
            raise pytest.UsageError("\n".join(problems))
    run = register(config, baseline=_baseline(config))
    if config.option.rubric_update is not None:
        from pytest_rubric.plugin.update import register as register_update

        register_update(config, run.cases, is_worker=run.is_worker)


def _baseline(config: pytest.Config) -> Mapping[str, Any] | None:
    """``--rubric-baseline``'s report, read before any case runs (a usage error when it
    cannot be); ``None`` without one, and on a pytest-xdist worker, which only runs cases."""
    path: str | None = config.option.rubric_baseline
    if path is None or hasattr(config, "workerinput"):
        return None
    from pytest_rubric.plugin.options import BaselineError, read_baseline

    try:
        return read_baseline(path)
    except BaselineError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    # What a case's item holds for the items after it (a join panel's side files) is let
    # go once none of those runs next here.
    let_go = getattr(item, "let_go_before", None)
    if let_go is not None:
        let_go(nextitem)


def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> RubricFile | NearMissFile | None:
    if is_case_file(file_path):
        from pytest_rubric.plugin.items import RubricFile

        watch_cases(parent.config)
        return RubricFile.from_parent(parent, path=file_path)
    meant = near_miss_at(file_path)
    if meant is not None:
        from pytest_rubric.plugin.nearmiss import NearMissFile

        near: NearMissFile = NearMissFile.from_parent(parent, path=file_path)
        near.meant, near.warning = meant, RubricNameWarning
        return near
    return None


class RubricNameWarning(pytest.PytestWarning):
    """A file named one slip away from a case file's name, which is not collected
    (defined here, where ``-W`` and ``filterwarnings`` find it, imported once)."""
