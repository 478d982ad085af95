"""Case files as pytest collectors, and cases as pytest items: a case's run made into one
value, and its report's payload built from that value once.

The path of a case from its run to its record: :func:`pytest_rubric.running.runner.run_case`
gives its outcome; in an update run :func:`pytest_rubric.editing.decisions.decide` decides
what becomes of its answer (a :class:`~pytest_rubric.running.caserun.CaseRun`, made
in every run; ``editing/`` is imported only in an update run); the item keeps that one
frozen value until pytest reports the run, when :meth:`RubricItem.payload` builds the
record with :func:`pytest_rubric.reports.caserecords.full_record` (or ``brief_record``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from _pytest._code.code import TerminalRepr

from pytest_rubric.casefiles.cases import Case
from pytest_rubric.casefiles.loader import load_case_file
from pytest_rubric.core.errors import CaseFileError, RegistrationError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.evaluator import Evaluator
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.plugin.collecting import configured_evaluator, pytest_marks
from pytest_rubric.plugin.failures import (
    RubricCaseError,
    RubricMismatch,
    RubricStrictXPass,
    failure_of,
)
from pytest_rubric.plugin.outputs import kept_from_inputs, outputs_of
from pytest_rubric.plugin.paths import display_path, root_path
from pytest_rubric.plugin.payloads import Payload, ended_by, payload_of, summary_line
from pytest_rubric.plugin.quiet import REPORT_DOMAIN
from pytest_rubric.plugin.state import (
    case_cache_of,
    discovery_of,
    panel_reads_of,
    review_limit,
    update_reads_of,
)
from pytest_rubric.reports.caserecords import RecordOf
from pytest_rubric.running.caserun import CaseRun
from pytest_rubric.running.datasetcases import dataset_cases
from pytest_rubric.running.outcome import MATCHED
from pytest_rubric.running.panelcases import panel_cases
from pytest_rubric.running.runner import run_case

if TYPE_CHECKING:
    from _pytest._code.code import TracebackStyle

    from pytest_rubric.inputs.panelheld import PanelReads


class RubricFile(pytest.File):
    """A ``*.rubric.yaml`` file: one item per case."""

    def collect(self) -> Iterator[RubricItem]:
        # Messages name the file as typed, with any control character in its name escaped.
        display = escape_controls(display_path(self.config, self.path))
        case_cache = case_cache_of(self.config)
        if case_cache is None:
            case_file = load_case_file(self.path, display, root=self.config.rootpath)
        else:
            case_file = case_cache.load(self.path, display, self.config.rootpath)
        registry = discovery_of(self.config).registry_for(self.path)
        evaluator = configured_evaluator(registry, case_file, display)
        source = registry.source(case_file.evaluator)
        shared = {
            "evaluator": evaluator,
            "source": source,
            "display": display,
            "digest": case_file.digest,
            "file": root_path(self.config, self.path),  # one string, shared by the file's cases
            "junit": bool(getattr(self.config.option, "xmlpath", None)),
            "configured": case_file.rubric is not None,
        }
        cases = case_file.cases
        outputs = outputs_of(self.config)
        if outputs:  # a case reading a file this run writes at its end fails, unexpanded
            cases = tuple(
                c
                if c.input_file is None and c.dataset is None
                else kept_from_inputs(self.config, c, display, outputs)
                for c in cases
            )
        if any(map(_many, cases)):
            files = InputFiles(self.path, display, self.config.rootpath)
            reads = panel_reads_of(self.config)
            cases = _each_case(cases, display, files, reads)  # type: ignore[assignment]
        for case in cases:
            if outputs and case.pair is not None:  # a join panel's pair: its own sides
                case = kept_from_inputs(self.config, case, display, outputs)
            decorators, problems = pytest_marks(case, display)
            if problems:
                case = dataclasses.replace(case, problems=(*case.problems, *problems))
            if case.row is None and case.pair is None:
                item = RubricItem.from_parent(self, name=case.name, case=case, **shared)
            else:
                # A dataset's row is named <case>[<row id>] (a panel's pair <case>[<x> vs
                # <y>]), which pytest 9 reads back (--lf, node IDs given as arguments) as the
                # case with the row as its parameter: its node ID is given as that text, so
                # that pytest's own reading is the same.
                nodeid = f"{self.nodeid}::{case.name}"
                item = RubricItem.from_parent(
                    self, name=case.name, nodeid=nodeid, case=case, **shared
                )
                if case.input_file is not None and case.input_file.panel_sides is not None:
                    manager = self.config.pluginmanager
                    if manager.get_plugin(_HELD_SIDES) is None:
                        manager.register(HeldSidesLetGo(), _HELD_SIDES)
            for decorator in decorators:
                item.add_marker(decorator)
            yield item

    def repr_failure(  # type: ignore[override]  # as pytest's own Collector does
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, (CaseFileError, RegistrationError)):
            return escape_controls(str(excinfo.value), keep_newlines=True)
        return super().repr_failure(excinfo)


def _many(case: Case) -> bool:
    """Whether a case is collected as many: a dataset's rows, a panel's pairs."""
    source = case.input_file
    return case.dataset is not None or (
        source is not None and source.ledger is not None and source.ledger.panel is not None
    )


def _each_case(
    cases: tuple[Case, ...], display: str, files: InputFiles, reads: PanelReads
) -> Iterator[Case]:
    """The cases of a case file, a dataset case's rows and a panel's pairs each a case of
    its own (a panel's export read once for its pairs, held by the run's ``reads``)."""
    for case in cases:
        if case.dataset is not None:
            yield from dataset_cases(case, display)
        else:
            yield from panel_cases(case, display, files, reads)


class RubricItem(pytest.Item):
    """One case: run it, and fail with its mismatch or its problems."""

    def __init__(
        self,
        *,
        case: Case,
        evaluator: Evaluator,
        source: str,
        display: str,
        digest: str = "",
        file: str | None = None,
        junit: bool = True,
        configured: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.case = case
        #: The case file's path for machine-readable output (relative to rootdir, ``/``).
        self.file = root_path(self.config, self.path) if file is None else file
        #: SHA-256 of the case file's bytes as collected (``--rubric-update`` checks it).
        self.digest = digest
        self.evaluator = evaluator
        self.source = source
        self.display = display
        #: Whether its case file has a ``rubric:`` block that configured its evaluator.
        self.configured = configured
        #: What became of its run, from when it ran until pytest reports it (each run of
        #: it, under pytest-rerunfailures too, makes a new one).
        self.run: CaseRun | None = None
        xfail = case.marks.xfail
        #: The reason of its strict ``xfail:`` mark, under which a match fails, if any.
        self.strict_xfail = (
            None
            if xfail is None or not xfail.strict or self.config.option.runxfail
            else xfail.reason
        )
        # ``-k agreement`` selects the agreement cases, whatever their path says.
        self.extra_keyword_matches.add(evaluator.name)
        if junit:
            # Shown as <property> elements by --junitxml, so CI dashboards see them.
            self.user_properties.extend(
                (
                    ("rubric_case", case.name),
                    ("rubric_evaluator", evaluator.name),
                    ("rubric_location", f"{display}:{case.place.line}"),
                )
            )

    def runtest(self) -> None:
        self.run = self._run()
        # Raised here, not where the outcome is a local: the frame pytest keeps with the
        # failure (``sys.last_value``, to the session's end) holds no outcome.
        failure = failure_of(self.run.result, strict_xfail=self.strict_xfail)
        if failure is not None:
            raise failure

    def _run(self) -> CaseRun:
        """Runs the case: its outcome, and in an update run what becomes of its answer."""
        case, mode = self.case, self.config.option.rubric_update
        if mode is not None and self.get_closest_marker("xfail") is not None:
            mode = None  # an expected failure's answer (ours or another plugin's) is never written
        filled = False
        if mode is not None:
            # What becomes of an answer, decided only in an update run: a run that writes
            # none never imports editing/.
            from pytest_rubric.editing.decisions import fillable

            filled = fillable(case, mode)
            if filled:  # no 'expected' is its only problem: run it to write the answer
                case = dataclasses.replace(case, problems=()).with_expected({})
        outcome = run_case(
            case,
            self.evaluator,
            path=self.display,
            source=self.source,
            review_limit=review_limit(self.config),
            review_at=_review_at(self.config, case, self.file),
        )
        if mode is None:  # a run that writes no answer: the outcome is all there is
            return CaseRun(outcome)
        from pytest_rubric.editing.decisions import decide

        run = decide(
            case,
            outcome,
            mode,
            filled=filled,
            path=self.path,
            digest=self.digest,
            root=self.config.rootpath,
            files=update_reads_of(self.config),
            refusals=bool(self.config.option.rubric_update_refusals),
        )
        if run.held is not None and filled:  # it still has no expected
            run = dataclasses.replace(run, result=dataclasses.replace(run.result, case=self.case))
        return run

    def payload(self, report: pytest.TestReport, *, full: bool) -> Payload:
        """The payload a phase report of this case carries: its call's, or a setup's or
        teardown's that did not pass (a passing one decides nothing and carries none).
        The call's report takes the run's value: from then on it lives in the payload,
        not on the item (which pytest keeps to the session's end)."""
        run = None
        if report.when == "call":
            run, self.run = self.run, None
        outcome = None if run is None else run.result
        matched = outcome is not None and outcome.outcome == MATCHED
        case = self.case
        write = None if run is None else run.write
        payload = payload_of(
            self.record_of(),
            outcome,
            full=full,
            ended=ended_by(
                report,
                case.marks,
                ran=outcome is not None,
                matched=matched,
                strict_xpass=matched and self.strict_xfail is not None,
            ),
            update=None
            if write is None or run is None
            else {"before": run.before, "after": write["after"]},
        )
        record = payload["record"]
        if outcome is not None and outcome.evaluated:
            # A brief record of a plain match that writes nothing: its answer is read no more.
            kept = full or not matched or write is not None or self.strict_xfail is not None
            payload["summary"] = summary_line(self.evaluator, case, outcome.actual, kept=kept)
        if run is not None:
            if run.unwritten:
                payload["unwritten"] = True
            if run.kept is not None:
                payload["kept"] = run.kept
            if run.held is not None:
                payload["held"] = {
                    "case": case.name,
                    "at": f"{self.display}:{case.line}",
                    "words": run.held.words(),
                }
            if write is not None and record["outcome"] == MATCHED:
                # Written by the run that gathers the payloads, at its end (never by a worker).
                payload["write"] = write
        return payload

    def record_of(self) -> RecordOf:
        """Whose record this case's is, as a report names it."""
        input_file = self.case.input_file
        return RecordOf(
            self.case,
            self.nodeid,
            self.file,
            "" if input_file is None else root_path(self.config, input_file.path),
            self.evaluator.name,
        )

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str | TerminalRepr:
        brief = self.config.getoption("tbstyle", "auto") == "line"
        error = excinfo.value
        if isinstance(error, (RubricMismatch, RubricCaseError, RubricStrictXPass)):
            return error.failure.repr(brief=brief)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        case = self.case
        return self.path, case.place.line - 1, f"{REPORT_DOMAIN}{case.name}"

    def let_go_before(self, nextitem: pytest.Item | None) -> None:
        """Lets go of the side files its join panel's pairs hold (read once for them
        all) unless ``nextitem``, the next item this process runs, is a pair of the same
        panel: pairs left out by ``-k`` or ``--deselect``, or run by another pytest-xdist
        worker, never take theirs."""
        source, pair = self.case.input_file, self.case.pair
        if source is None or source.panel_sides is None or pair is None:
            return
        if isinstance(nextitem, RubricItem) and nextitem.path == self.path:
            following = nextitem.case.pair
            if following is not None and following.panel == pair.panel:
                return
        source.panel_sides[0].let_go()


_HELD_SIDES = "rubric-held-sides"


class HeldSidesLetGo:
    """Registered once a join panel's pair is collected (no other run pays a hook for
    each test): what a pair's item holds for the pairs after it (its panel's side files,
    read once for them all) is let go once none of those runs next in this process."""

    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> None:
        if isinstance(item, RubricItem):
            try:
                item.let_go_before(nextitem)
            except Exception as exc:  # held a while longer: said, never the case's outcome
                item.warn(pytest.PytestWarning(f"rubric: side files not let go: {exc!r}"))


def _review_at(config: pytest.Config, case: Case, file: str) -> str:
    """What names the file of a row to review, before its place: the input file's path
    from rootdir; nothing for a join, whose rows name their own files; the case file's
    for rows written in it."""
    source = case.input_file
    if source is None:
        return file
    return "" if source.sides is not None else root_path(config, source.path)
