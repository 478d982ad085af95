"""A strictly loaded document checked as a case file: every key, ID, mark and input.

A problem with the file as a whole raises :class:`CaseFileError`; a problem confined
to one case is kept on that case (``Case.problems``) so that only its item fails and
the other cases still run.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_rubric.casefiles.cases import Case, CaseFile, Place
from pytest_rubric.casefiles.datasetcheck import dataset_keys, read_dataset_case
from pytest_rubric.casefiles.marks import KEYS as MARK_KEYS
from pytest_rubric.casefiles.marks import Marks, read_marks
from pytest_rubric.casefiles.yamlstrict import Document, Position, Problem, Spans
from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import nearest
from pytest_rubric.core.numbers import int_text
from pytest_rubric.core.packed import Packed, pack
from pytest_rubric.core.shown import describe
from pytest_rubric.descriptions.ledger import Ledger, joins_files, read_ledger
from pytest_rubric.descriptions.pairexpect import pair_expectations
from pytest_rubric.descriptions.positions import Places, Report, Written
from pytest_rubric.descriptions.traits import NO_FORMAT, FormatLookup
from pytest_rubric.inputs.inputpaths import InputFiles
from pytest_rubric.inputs.source import InputFile, joined_sides

FILE_KEYS = ("evaluator", "description", "rubric", *MARK_KEYS, "cases")
CASE_KEYS: tuple[str, ...] = ("id", "note", "input", "input_file", "ledger", "dataset")
CASE_KEYS += ("expected", "expected_subset", "expected_pairs", *MARK_KEYS)
#: Characters that would break a pytest node ID or a terminal line.
_FORBIDDEN_ID_PARTS = ("::", "[", "]", *"\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


class Validator:
    """Checks one strictly loaded document as a case file and builds it."""

    def __init__(self, path: str, document: Document, files: InputFiles | None = None) -> None:
        self.path = path
        self.document = document
        self.spans: Spans = document.spans
        self.files = files or InputFiles(Path("x"), path, None)

    def error(self, pos: Position, message: str) -> CaseFileError:
        return CaseFileError(self.path, pos[0], pos[1], message)

    def _report(self, problems: list[CaseFileError]) -> Report:
        """A report of problems (at a place, in words) into ``problems``."""
        return lambda at, message: problems.append(self.error(at, message))

    def _written(self, problems: list[CaseFileError]) -> Written:
        """The document's positions, its blocks' problems going into ``problems``."""
        return Written(self.spans.keys, self.spans.items, self._report(problems))

    def case_file(self) -> CaseFile:
        document = self.document
        top = document.value
        if document.empty or (top is None and not document.problems):
            raise self.error(
                (1, 1), "the file is empty; a case file needs 'evaluator:' and 'cases:'"
            )
        cases_node = top.get("cases") if isinstance(top, dict) else None
        case_problems, file_problems = self._split_problems(cases_node)
        if file_problems:
            first = file_problems[0]
            raise self.error((first.line, first.col), first.message)
        if not isinstance(top, dict):
            raise self.error(
                (1, 1),
                f"a case file must be a mapping with 'evaluator:' and 'cases:', not {describe(top)}; "
                "start the file with 'evaluator: <name>' and 'cases:'",
            )
        keys = self.spans.keys[id(top)]
        for key, (key_at, _) in keys.items():
            if key not in FILE_KEYS:
                raise self.error(key_at, _unknown_key(key, FILE_KEYS, "a top-level key"))
        evaluator = top.get("evaluator")
        if "evaluator" not in top:
            raise self.error(
                self.spans.start[id(top)],
                "'evaluator:' is missing; name the evaluator, e.g. 'evaluator: reason'",
            )
        evaluator_at = keys["evaluator"][1]
        if not isinstance(evaluator, str) or not evaluator.strip():
            raise self.error(
                evaluator_at,
                f"'evaluator' must be an evaluator's name, not {describe(evaluator)}; "
                "write e.g. 'evaluator: reason'",
            )
        description = top.get("description")
        if description is not None and not isinstance(description, str):
            raise self.error(
                keys["description"][1],
                f"'description' must be text, not {describe(description)}; quote it or remove it",
            )
        if "cases" not in top:
            raise self.error(
                self.spans.start[id(top)],
                "'cases:' is missing; add 'cases:' with a list of cases (it may be empty: 'cases: []')",
            )
        if not isinstance(cases_node, list):
            raise self.error(
                keys["cases"][1],
                f"'cases' must be a list of cases, not {describe(cases_node)}; "
                "write each case as an item starting with '- id: ...'",
            )
        rubric = top.get("rubric")
        rubric_at: dict[tuple[str | int, ...], Position] = {}
        if "rubric" in top:
            if not isinstance(rubric, dict):
                raise self.error(
                    keys["rubric"][1],
                    f"'rubric' must be a mapping that configures the evaluator, not {describe(rubric)}; "
                    "write e.g. 'rubric: {required: [title, source, author]}'",
                )
            self._positions(rubric, (), keys["rubric"][1], rubric_at)
        file_marks, mark_problems = read_marks(top, self.spans, self.error)
        if mark_problems:
            raise mark_problems[0]
        cases = self._cases(cases_node, case_problems, file_marks)
        return CaseFile(
            self.path,
            evaluator,
            evaluator_at,
            description,
            cases,
            rubric if isinstance(rubric, dict) else None,  # absent: checked above
            rubric_at,
            file_marks,
        )

    def _positions(
        self,
        value: JSON,
        where: tuple[str | int, ...],
        at: Position,
        out: dict[tuple[str | int, ...], Position],
    ) -> None:
        """Record where each part of a (small) block is written."""
        out[where] = at
        if isinstance(value, dict):
            for key, (_, value_at) in self.spans.keys[id(value)].items():
                self._positions(value[key], (*where, key), value_at, out)
        elif isinstance(value, list):
            for index, item_at in enumerate(self.spans.items[id(value)]):
                self._positions(value[index], (*where, index), item_at, out)

    def _split_problems(self, cases_node: JSON) -> tuple[dict[int, list[Problem]], list[Problem]]:
        """Assign each YAML problem to the case it lies in; the rest spoil the file."""
        by_case: dict[int, list[Problem]] = {}
        rest: list[Problem] = []
        if not self.document.problems:
            return by_case, rest
        items = self.spans.items.get(id(cases_node), []) if isinstance(cases_node, list) else []
        for problem in self.document.problems:
            index = _containing_case(cases_node, items, self.spans, (problem.line, problem.col))
            if index is None:
                rest.append(problem)
            else:
                by_case.setdefault(index, []).append(problem)
        return by_case, rest

    def _cases(
        self, cases: list[JSON], yaml_problems: dict[int, list[Problem]], file_marks: Marks
    ) -> tuple[Case, ...]:
        positions = self.spans.items[id(cases)]
        block_list = id(cases) not in self.spans.flow
        seen: dict[str, int] = {}
        out = []
        for index, raw in enumerate(cases):
            at = positions[index]
            problems = [
                self.error((p.line, p.col), p.message) for p in yaml_problems.get(index, ())
            ]
            if not isinstance(raw, dict):
                problems.append(
                    self.error(
                        at,
                        f"a case must be a mapping with id, input and expected, not {describe(raw)}; "
                        "write '- id: ...' with 'input:' and 'expected:' beneath it",
                    )
                )
                out.append(
                    Case(
                        name="",
                        index=index,
                        place=Place(line=at[0], col=at[1]),
                        problems=tuple(problems),
                        marks=file_marks,
                    )
                )
                continue
            name, id_problem = self._case_id(raw, index, at, seen)
            if id_problem is not None:
                problems.append(id_problem)
            marks = file_marks
            missing_expected = None
            # A refused YAML value would only echo below as a wrong type; any other problem
            # hides none: every problem of the case is listed (--rubric-check lists them all).
            readable = index not in yaml_problems
            if readable:
                problems.extend(self._case_keys(raw, at))
                if "dataset" in raw or "expected_subset" in raw or "expected_pairs" in raw:
                    pass  # no answer to fill: the case's keys say what is wrong, if anything
                elif "expected" not in raw:
                    missing_expected = self.error(
                        at,
                        "the case has no 'expected'; add 'expected:' with the exact expected "
                        "answer as a mapping, or run 'pytest --rubric-update=new' to write the "
                        "evaluator's answer there",
                    )
                    problems.append(missing_expected)
                elif raw["expected"] is None:  # 'expected:' left empty is not an answer yet
                    missing_expected = self.error(
                        self.spans.keys[id(raw)]["expected"][0],
                        "the case's 'expected' is empty; write the exact expected answer "
                        "under it as a mapping, or run 'pytest --rubric-update=new' to write "
                        "the evaluator's answer there",
                    )
                    problems.append(missing_expected)
                case_marks, mark_problems = read_marks(raw, self.spans, self.error)
                problems.extend(mark_problems)
                marks = case_marks.under(file_marks)
            case_input = raw.get("input")
            expected = raw.get("expected")
            input_file: InputFile | None = None
            written_file = raw.get("input_file")
            if readable and isinstance(written_file, str) and written_file.strip():
                input_file, file_problem = self.files.resolve(written_file)
                if file_problem is not None:
                    problems.append(
                        self.error(self.spans.keys[id(raw)]["input_file"][1], file_problem)
                    )
            if readable and "ledger" in raw:
                ledger = self._ledger(raw, input_file, problems)
                if ledger is not None and ledger.join is not None:
                    input_file = self._joined(ledger, problems)
                elif input_file is not None and ledger is not None:
                    input_file = replace(input_file, ledger=ledger)
            pairs = "expected_pairs" in raw
            if readable and pairs:
                read = None if input_file is None else input_file.ledger
                expected = pair_expectations(raw, read, self.spans.keys, self._report(problems))
            dataset = None
            if readable and "dataset" in raw:
                dataset = read_dataset_case(raw, self._written(problems), self.files.resolve)
            subset = "expected_subset" in raw
            if subset:
                expected = raw.get("expected_subset")
            out.append(
                Case(
                    name=name,
                    index=index,
                    place=Place(
                        line=at[0],
                        col=at[1],
                        lines=self._case_lines(cases, index),
                        end=None if block_list else self.spans.end.get(id(raw)),
                        row_lines=self._row_lines(case_input),
                    ),
                    packed_input=self._packed(case_input),
                    packed_expected=self._packed(expected),
                    input_file=input_file,
                    marks=marks,
                    problems=tuple(problems),
                    missing_expected=missing_expected,
                    subset=subset,
                    dataset=dataset,
                    pairs=pairs,
                )
            )
        return fallback_names(out)

    def _ledger(
        self, raw: dict[str, JSON], input_file: InputFile | None, problems: list[CaseFileError]
    ) -> Ledger | None:
        """The case's ``ledger:`` block read, its problems added to ``problems``."""
        key_at, value_at = self.spans.keys[id(raw)]["ledger"]
        block = raw["ledger"]
        join = joins_files(block)
        if join == ("input_file" in raw):  # one file named twice, or none
            problems.append(
                self.error(
                    self.spans.keys[id(raw)]["input_file"][0] if join else key_at,
                    "the ledger joins two files, each side naming its own 'input_file'; "
                    "remove the case's 'input_file'"
                    if join
                    else "'ledger' says how to read an input file, but the case has no "
                    "'input_file'; add 'input_file: exports/NAME.csv', or describe each "
                    "grader's own file under 'a:' and 'b:' (a join), or remove 'ledger'",
                )
            )
            return None
        from pytest_rubric.inputs.formats.registry import traits_of  # a file is named

        fmt = None if input_file is None else input_file.format
        formats = FormatLookup(NO_FORMAT if fmt is None else fmt.traits, traits_of)
        return read_ledger(raw["ledger"], value_at, self._written(problems), formats=formats)

    def _joined(self, ledger: Ledger, problems: list[CaseFileError]) -> InputFile | None:
        """A join's input file: side a's, with the join's ledger and both sides' files."""
        assert ledger.join is not None
        sides = ledger.join if ledger.panel is None else ledger.panel.sides
        found = [self.files.resolve(side.input_file) for side in sides]
        problems.extend(
            self.error(s.file_at, p) for s, (_, p) in zip(sides, found, strict=True) if p
        )
        (a, _), (b, _) = found[:2]
        return None if any(p for _, p in found) else joined_sides(replace(a, ledger=ledger), (a, b))

    def _case_lines(self, cases: list[Any], index: int) -> tuple[int, int]:
        """The line case ``index`` starts on and the line the next one starts on (0 after
        the last)."""
        positions = self.spans.items[id(cases)]
        after = positions[index + 1][0] if index + 1 < len(positions) else 0
        return positions[index][0], after

    def _row_lines(self, case_input: object) -> tuple[int, ...]:
        rows = case_input.get("rows") if isinstance(case_input, dict) else None
        if not isinstance(rows, list):
            return ()
        read_whole = self.spans.json.get(id(case_input))
        if read_whole is not None:  # one line of JSON: every row on it
            return (read_whole.end[0],) * len(rows)
        return tuple(line for line, _ in self.spans.items.get(id(rows), ()))

    def _packed(self, value: object) -> Packed:
        """A case's mapping packed: read whole as JSON, its text is already as packed."""
        if not isinstance(value, dict):
            return pack({})
        read_whole = self.spans.json.get(id(value))
        return pack(value) if read_whole is None else read_whole.text

    def _case_id(
        self, case: dict[str, JSON], index: int, at: Position, seen: dict[str, int]
    ) -> tuple[str, CaseFileError | None]:
        fallback = ""  # named by fallback_names once every usable ID is known
        if "id" not in case:
            return fallback, self.error(at, "the case has no 'id'; add 'id: <a unique name>'")
        id_at = self.spans.keys[id(case)]["id"][1]
        case_id = case["id"]
        if not isinstance(case_id, str):
            quoted = "'<a unique name>'"
            if isinstance(case_id, (int, float)) and not isinstance(case_id, bool):
                shown = int_text(case_id) if isinstance(case_id, int) else str(case_id)
                if shown.isascii() and " " not in shown:  # not an abbreviated huge integer
                    quoted = f"'{shown}'"
            return fallback, self.error(
                id_at, f"a case id must be text, not {describe(case_id)}; write id: {quoted}"
            )
        if not case_id.strip():
            return fallback, self.error(id_at, "a case id must not be blank; name the case")
        if case_id != case_id.strip():
            return fallback, self.error(
                id_at,
                f"case id {case_id!r} has leading or trailing whitespace; write {case_id.strip()!r}",
            )
        for part in _FORBIDDEN_ID_PARTS:
            if part in case_id:
                return fallback, self.error(
                    id_at,
                    f"case id {case_id!r} contains {part!r}, which would break its pytest node ID; "
                    "use letters, digits, '-', '_' or '.'",
                )
        if escape_controls(case_id) != case_id:
            return fallback, self.error(
                id_at,
                f"case id {escape_controls(case_id)!r} contains a control or direction-changing "
                "character, which would reach terminals and reports raw; "
                "use letters, digits, '-', '_' or '.'",
            )
        if case_id in seen:
            return fallback, self.error(
                id_at,
                f"case id {case_id!r} is already used by the case at line {seen[case_id]}; "
                "give each case a unique id",
            )
        seen[case_id] = at[0]
        return case_id, None

    def _case_keys(self, case: dict[str, JSON], at: Position) -> list[CaseFileError]:
        problems = []
        keys = self.spans.keys[id(case)]
        for key, (key_at, _) in keys.items():
            if key not in CASE_KEYS:
                problems.append(self.error(key_at, _unknown_key(key, CASE_KEYS, "a case key")))
        note = case.get("note")
        if note is not None and not isinstance(note, str):
            problems.append(
                self.error(
                    keys["note"][1],
                    f"'note' must be text, not {describe(note)}; quote it or remove it",
                )
            )
        if "input" in case and "input_file" in case:
            problems.append(
                self.error(
                    keys["input_file"][0],
                    "the case has both 'input' and 'input_file'; keep one of them",
                )
            )
        if "input_file" in case:
            value = case["input_file"]
            if not isinstance(value, str) or not value.strip():
                problems.append(
                    self.error(
                        keys["input_file"][1],
                        f"'input_file' must be a path, not {describe(value)}; "
                        "write e.g. 'input_file: ledgers/week-47.jsonl'",
                    )
                )
        dataset_keys(case, Places(case, at, self.spans.keys), self._report(problems))
        for key, what in (
            ("input", "the evaluator's input"),
            ("expected", "the exact expected answer"),
            ("expected_subset", "the keys the answer must hold, each with its exact value"),
        ):
            if key == "input" and ("input_file" in case or "ledger" in case or "dataset" in case):
                continue  # a ledger with no input_file joins its own: its own problem if not
            if key == "expected" and (case.get(key) is None or "expected_subset" in case):
                continue  # its own problem, which --rubric-update=new can fix (see _cases)
            if key not in case:
                if key == "expected_subset":
                    continue
                problems.append(
                    self.error(
                        at, f"the case has no '{key}'; add '{key}:' with {what} as a mapping"
                    )
                )
            elif not isinstance(case[key], dict):
                problems.append(
                    self.error(
                        keys[key][1],
                        f"'{key}' must be a mapping ({what}), not {describe(case[key])}; "
                        f"write '{key}:' followed by indented keys, or {{...}}",
                    )
                )
        return problems


def fallback_names(cases: list[Case]) -> tuple[Case, ...]:
    """Name each case without a usable ID ``cases.N`` (N its index in ``cases:``).

    The name must survive as a pytest node ID on every supported pytest: pytest 9
    reads ``name[...]`` as parameters, so ``cases[1]`` would not rerun with
    ``--lf``; ``::`` splits node IDs. A dot is safe for ``--lf``, ``--deselect``
    and ``-k``. A real ID may look the same, so one that does wins and the
    fallback grows a ``_`` until it is unique within the file.
    """
    taken = {case.name for case in cases if case.name}
    named = []
    for case in cases:
        if not case.name:
            name = f"cases.{case.index}"
            while name in taken:
                name += "_"
            taken.add(name)
            case = replace(case, name=name)
        named.append(case)
    return tuple(named)


def _containing_case(
    cases: JSON, items: Sequence[Position], spans: Spans, at: Position
) -> int | None:
    """The index of the case whose text contains ``at``, if any."""
    if not isinstance(cases, list) or not items:
        return None
    end = spans.end.get(id(cases))
    if end is None or at < items[0] or at >= end:
        return None
    # Cases are in document order: the last one starting at or before ``at``.
    return bisect.bisect_right(items, at) - 1


def _unknown_key(key: str, known: Sequence[str], what: str) -> str:
    close = nearest(key, known)
    hint = f"did you mean '{close}'?" if close else f"use one of: {', '.join(known)}"
    return f"'{key}' is not {what}; {hint}"
