"""A loaded case file as data: the file (:class:`CaseFile`), its cases (:class:`Case`)
and where each case is written (:class:`Place`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pytest_rubric.casefiles.marks import NO_MARKS, Marks
from pytest_rubric.casefiles.yamlstrict import Position
from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.packed import Packed, pack, unpack
from pytest_rubric.descriptions.panel import PairOf
from pytest_rubric.inputs.source import InputFile


@dataclass(frozen=True, slots=True, kw_only=True)
class Place:
    """Where a case is written in its file: for messages, for the rows it keeps for
    review, and for ``--rubric-update``'s edits."""

    #: The 1-based line and column where the case starts.
    line: int
    col: int
    #: The line it starts on and the line the next case starts on (0 after the last
    #: case; in a flow list, the same line when the next case starts on the line this
    #: one ends on).
    lines: tuple[int, int] | None = None
    #: In a flow list, where its text ends (the line and column just past its closing
    #: brace); ``None`` in a block list.
    end: tuple[int, int] | None = None
    #: The line each item of an inline ``input.rows`` list starts on (a ledger's row
    #: is named by its own line when kept for review); empty without such a list.
    row_lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RowOf:
    """Where a case made from a dataset's row comes from: the dataset case's ID, the row's
    place (``logs/decisions.jsonl:31``, ``log.parquet#row 4``), and whether its expected
    answer is the row's own (``dataset: {expected: PATH}``) rather than the case's."""

    dataset: str
    place: str
    own_expected: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """One case of a case file.

    ``name`` is the case ID, or ``cases.N`` when the case has no usable ID (see
    :func:`pytest_rubric.casefiles.validate.fallback_names`); ``index`` its place in
    the file's list. When ``problems`` is not empty the case cannot be evaluated and its item fails with
    those messages. A case gives its input inline (``input``) or as a file
    (``input_file``); a dataset case (``dataset``) gives a file of rows, each of which is
    collected as a case of its own (``row`` says whose and where).

    ``input`` and ``expected`` are kept packed as JSON text
    (:mod:`pytest_rubric.core.packed`); each read of them decodes a fresh copy.
    """

    name: str
    index: int
    place: Place
    packed_input: Packed = "{}"
    packed_expected: Packed = "{}"
    #: ``input_file:`` resolved (the input is then read from it), with its ``ledger:``.
    input_file: InputFile | None = None
    #: ``skip``, ``xfail`` and ``marks``: the case's own over the file's.
    marks: Marks = NO_MARKS
    problems: tuple[CaseFileError, ...] = ()
    #: The problem "the case has no 'expected'" (also in ``problems``) when the case has
    #: none: ``--rubric-update=new`` fills it when it is the case's only problem.
    missing_expected: CaseFileError | None = None
    #: ``expected`` holds only some keys of the answer (``expected_subset``).
    subset: bool = False
    #: ``dataset:``: the file of rows, with its block (``InputFile.dataset``).
    dataset: InputFile | None = None
    #: A case made from a dataset's row: whose, and where.
    row: RowOf | None = None
    #: ``expected_pairs``: ``expected`` holds each pair's answer by the pair's name.
    pairs: bool = False
    #: A case made from a panel's pair: whose, and which.
    pair: PairOf | None = None

    @property
    def line(self) -> int:
        """The 1-based line the case starts on."""
        return self.place.line

    @property
    def input(self) -> dict[str, JSON]:
        """The case's ``input`` mapping (empty when it gives none, or an input file)."""
        return unpack(self.packed_input)

    @property
    def expected(self) -> dict[str, JSON]:
        """The case's ``expected`` mapping (empty when it gives none)."""
        return unpack(self.packed_expected)

    def with_expected(self, expected: Mapping[str, JSON]) -> Case:
        """This case with ``expected`` as its expected answer."""
        return replace(self, packed_expected=pack(expected))


@dataclass(frozen=True, slots=True)
class CaseFile:
    """A validated case file.

    ``rubric`` is the file's ``rubric:`` block for the evaluator, if any;
    ``rubric_at`` maps each path inside it (keys and list indexes, ``()`` for the
    block itself) to where it is written, so problems in it can be located.
    ``display`` is how messages name the file (relative to where pytest ran).
    """

    display: str
    evaluator: str
    evaluator_at: Position
    description: str | None
    cases: tuple[Case, ...]
    rubric: Mapping[str, JSON] | None = None
    rubric_at: Mapping[tuple[str | int, ...], Position] = field(default_factory=dict)
    #: The file's own ``skip``, ``xfail`` and ``marks`` (each case's ``marks`` include them).
    marks: Marks = NO_MARKS
    #: SHA-256 of the bytes read, so that a later write can tell whether the file changed.
    digest: str = ""

    def locate(self, where: tuple[str | int, ...]) -> Position:
        """Where the part ``where`` of the rubric block is written (or its nearest parent)."""
        while where not in self.rubric_at and where:
            where = where[:-1]
        return self.rubric_at.get(where, self.evaluator_at)
