"""The seam of the fast ledger tally: ledger rows that can also be handed over as blocks
of label pairs.

A ledger file of plain rows (one ID and two literal booleans a line) can be tallied a
block at a time by C code (``str.count``, ``str.split``, set operations) instead of a
row at a time in Python. Two sides meet here, and only here:

- the rows an input hands to an evaluator's ``stream`` may also be a
  :class:`LabelBlockSource` (a ledger file's rows:
  :class:`pytest_rubric.inputs.rows.FileRows`): the input *offers* the blocks;
- a stream that can tally blocks takes them when offered (the built-in ``agreement``:
  :func:`pytest_rubric.evaluators.agreement.stream_agreement`), and reads the rows one
  at a time otherwise.

Either side may give up at any block (``None``): the rows are then read one at a time,
which decides every input exactly as the plain path does, since the blocks path answers
only for ledgers it can prove plain (``tests/test_input_files.py`` holds the two paths
to the same answer, evidence or error). Reading the blocks never changes what the rows
yield.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple, Protocol, runtime_checkable

#: Whitespace as JavaScript's ``String.prototype.trim`` strips it: WhiteSpace and
#: LineTerminator (ECMA-262), i.e. TAB, VT, FF, SP, NBSP, ZWNBSP (U+FEFF), the Unicode
#: ``Zs`` category, LF, CR, LS and PS: an ID of these alone is blank. Python's
#: ``str.isspace`` differs both ways: it counts U+001C..U+001F and U+0085, and not U+FEFF.
JS_WHITESPACE_CHARS = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


#: The cells of an agreement matrix, by label pair (a, b), in the order of a block's
#: ``pairs``: both true, both false, only a true, only b true. The one place they are
#: named: answers, schemas, reports and the review page take them from here.
MATRIX_CELLS: dict[tuple[bool, bool], str] = {
    (True, True): "bothPass",
    (False, False): "bothFail",
    (True, False): "aOnly",
    (False, True): "bOnly",
}


class LabelBlock(NamedTuple):
    """Ledger rows, each a text ID and two Boolean labels.

    ``ids`` holds every row's ID in row order; ``pairs`` how many rows are labelled
    (true, true), (false, false), (true, false) and (false, true); ``differing`` the IDs
    of the rows whose two labels differ, in row order. Nothing is checked of the IDs:
    they may be empty, blank or repeated, which the tally decides, unless the source says
    it proved something of them:

    - ``checked``: none is empty or starts with JavaScript whitespace;
    - ``increasing``: they strictly increase (a Parquet file's IDs, checked in Arrow and
      read as Python text only when iterated);
    - ``distinct``: none repeats an ID of this block or of any block before, and the
      rows' order is known only to the source: ``ids`` may come in any order, and the
      rows' ``differing`` IDs in a later block than their IDs (a one-row-per-judgement
      export knows a case's place at its first judgement, its labels at its second).
    """

    ids: Sequence[str]
    pairs: tuple[int, int, int, int]
    differing: list[str]
    checked: bool = False
    increasing: bool = False
    distinct: bool = False


@runtime_checkable
class LabelBlockSource(Protocol):
    """Ledger rows that can also be read as :class:`LabelBlock` blocks."""

    def label_blocks(self) -> Iterator[LabelBlock | None]:
        """The rows a block at a time, read afresh on each call; ``None``, and nothing
        after it, where a block holds anything but plain rows."""
        ...
