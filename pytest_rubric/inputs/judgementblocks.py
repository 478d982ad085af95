"""Label blocks (:mod:`pytest_rubric.core.labelblocks`) of a one-row-per-judgement export
read as JSON: ``.jsonl`` lines or a JSON document's records.

The rows are decoded and split into judgements exactly as the rows path reads them
(:mod:`~pytest_rubric.inputs.judgements`: Label Studio's ``annotations``, Argilla's
parallel lists), and each judgement's ID, grader and label are read by the same key
paths; only the pairing and the tally are done a block of judgements at a time, by
:class:`~pytest_rubric.inputs.blocks.JudgementCounts`. ``None``, and nothing after it,
wherever the rows path could say something the blocks cannot: a row or judgement that is
not a mapping, an ID that is not text, a grader that is missing or neither text nor a
number (a Boolean), a label of a or b that is missing or not what the vocabulary holds,
any row the reader refuses. The rows are then read one at a time, which decides every
input exactly.

This module does not import pytest.
"""

from __future__ import annotations

from collections.abc import Iterator

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.descriptions.keypaths import getter
from pytest_rubric.descriptions.ledger import Ledger
from pytest_rubric.descriptions.selection import Conditions
from pytest_rubric.inputs.blocks import JudgementCounts
from pytest_rubric.inputs.findings import Findings, grader_shown
from pytest_rubric.inputs.judgements import judgements_of

#: Judgements tallied a block.
CHUNK = 4096
#: The graders a block takes: text, or a whole number (Label Studio's user IDs).
_GRADERS = frozenset((str, int))


def judgement_blocks(
    rows: Iterator[JSON], ledger: Ledger, findings: Findings
) -> Iterator[LabelBlock | None]:
    """The judgements of ``rows`` (read as ``ledger`` says, one row per judgement, with
    no ``where`` and no ``ids``) as label blocks; ``findings`` take the other graders'
    judgements, and that the export was read whole, once the last block is handed over."""
    counts = _counts(ledger)
    if counts is None:
        yield None
        return
    try:
        for block in _blocks(rows, ledger, counts):
            yield block
            if block is None:
                return
    except RubricInputError:  # the rows path says what is wrong, if it comes to it
        yield None
        return
    last = counts.last_block()  # None while a case waits: judged once
    if last is not None:  # the blocks answer: their notes stand
        findings.ignored.update({grader_shown(name): n for name, n in counts.ignored.items()})
        findings.whole = True
    yield last


def _counts(ledger: Ledger) -> JudgementCounts | None:
    """The tally of the ledger's judgements, if its graders and vocabulary are ones a
    block can match exactly: names of text or whole numbers, labels of text or, without
    a vocabulary, literal Booleans."""
    a, b = ledger.a_name, ledger.b_name
    if type(a) not in _GRADERS or type(b) not in _GRADERS:
        return None
    if ledger.labels is None:
        return JudgementCounts(a, b, {True: 1, False: 0}, bool)
    if not all(type(word) is str for word, _ in ledger.labels):
        return None
    return JudgementCounts(a, b, {word: int(meaning) for word, meaning in ledger.labels}, str)


def _blocks(
    rows: Iterator[JSON], ledger: Ledger, counts: JudgementCounts
) -> Iterator[LabelBlock | None]:
    assert ledger.grader is not None
    assert ledger.label is not None
    get_id, get_grader, get_label = getter(ledger.id), getter(ledger.grader), getter(ledger.label)
    judgements = judgements_of(rows, ledger.grader, ledger.label, Conditions(()), _nowhere)
    ids: list[object] = []
    graders: list[object] = []
    labels: list[object] = []
    done = 0  # judgements handed to the tally before this block
    for judgement in judgements:
        if type(judgement) is not dict:
            yield None
            return
        ids.append(get_id(judgement))
        graders.append(get_grader(judgement))
        labels.append(get_label(judgement))
        if len(ids) == CHUNK:
            yield _block(counts, ids, graders, labels, done)
            done += CHUNK
            ids, graders, labels = [], [], []
    yield _block(counts, ids, graders, labels, done)


def _block(
    counts: JudgementCounts,
    ids: list[object],
    graders: list[object],
    labels: list[object],
    done: int,
) -> LabelBlock | None:
    """The block of these judgements, ordered by their place among all judgements (two
    judgements of one row share its line, and a row may judge several cases)."""
    if set(map(type, ids)) - {str} or set(map(type, graders)) - _GRADERS:
        return None
    places = range(done, done + len(ids))
    return counts.judgements(ids, graders, labels, places)  # type: ignore[arg-type]


def _nowhere() -> str:
    return "the export"  # never worded: a row that needs words is read one at a time
