"""Where one pass over an input file is: what a row's place is named from."""

from __future__ import annotations


class Cursor:
    """One pass's place in a file: ``position``, the line (Parquet: the row) last read,
    set by the format's reader as it reads (0 at no row: before the first, or past a
    document's list of rows); ``row_line``, the line of the row last
    handed over where that is not the position (a case paired from its judgements is
    named by its first). Each pass has its own: reading again never moves another's."""

    __slots__ = ("position", "row_line")

    def __init__(self) -> None:
        self.position = 0
        self.row_line: int | None = None

    @property
    def line(self) -> int:
        """The line (Parquet: the row number) of the row last handed over."""
        return self.position if self.row_line is None else self.row_line
