"""Text input files as the readers open them: UTF-8 (a BOM dropped), their bytes as they
are (:data:`PLAIN`) or inflated (:data:`GZIP`), as the format says; their errors worded
with the file's name and line, and read in blocks of whole lines."""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Protocol, TextIO

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.files import regular_size
from pytest_rubric.core.jsonvalues import JSON

if TYPE_CHECKING:
    from gzip import GzipFile

#: A ledger row (``.jsonl`` line, or ``.csv`` record with its quoted line breaks) longer
#: than this is refused before it is parsed: a row is an id and two labels, and parsing
#: a runaway row (a missing quote, a file of commas) would cost many times its size in memory.
MAX_ROW_CHARS = 1_000_000
#: A ledger file is read this many characters at a time.
BLOCK = 1 << 16


class Opener(Protocol):
    """How a text format's bytes are opened: :data:`PLAIN` or :data:`GZIP`. The readers
    call it, and word its :attr:`faults` with :func:`not_whole`."""

    @property
    def inflated(self) -> str:
        """What a size cap counts, after its number: ``" once inflated"``, or nothing."""

    @property
    def faults(self) -> tuple[type[Exception], ...]:
        """What reading raises for bytes that are not whole (none for plain bytes)."""

    def open_text(self, path: Path) -> TextIO:
        """``path`` as text for ``csv.reader`` (``newline=""``: line ends kept as written)."""

    def open_bytes(self, path: Path) -> io.BufferedIOBase:
        """``path``'s bytes, as its text is decoded from."""

    def read_text(self, path: Path, limit: int) -> str:
        """``path``'s text (line ends read as LF), read no further than ``limit + 1``
        characters."""


class Plain:
    """A text file's bytes as they are."""

    __slots__ = ()
    inflated: ClassVar[str] = ""
    faults: ClassVar[tuple[type[Exception], ...]] = ()

    def open_text(self, path: Path) -> TextIO:
        regular_size(path)
        return path.open(encoding="utf-8-sig", newline="")

    def open_bytes(self, path: Path) -> io.BufferedIOBase:
        regular_size(path)
        return path.open("rb")

    def read_text(self, path: Path, limit: int) -> str:
        if regular_size(path) <= limit:  # a character takes a byte at least
            return path.read_text(encoding="utf-8-sig")
        with path.open(encoding="utf-8-sig") as stream:
            return stream.read(limit + 1)


class Gzip:
    """A text file's bytes gzip'd, inflated as they are read (``gzip`` imported then)."""

    __slots__ = ()
    inflated: ClassVar[str] = " once inflated"

    @property
    def faults(self) -> tuple[type[Exception], ...]:
        import gzip
        import zlib

        return (gzip.BadGzipFile, EOFError, zlib.error)

    def open_text(self, path: Path) -> TextIO:
        return io.TextIOWrapper(self.open_bytes(path), encoding="utf-8-sig", newline="")

    def open_bytes(self, path: Path) -> GzipFile:
        import gzip

        if regular_size(path) == 0:  # gzip reads an empty file as empty text
            raise gzip.BadGzipFile("the file is empty")
        return gzip.open(path, "rb")

    def read_text(self, path: Path, limit: int) -> str:
        with io.TextIOWrapper(self.open_bytes(path), encoding="utf-8-sig") as stream:
            return stream.read(limit + 1)  # inflated a chunk at a time, up to the cap


PLAIN = Plain()
GZIP = Gzip()


def not_whole(display: str, exc: Exception) -> RubricInputError:
    """One of an opener's :attr:`~Opener.faults` (gzip's: the one opener that has any),
    worded."""
    return RubricInputError(
        f"{display}: not a whole gzip file ({exc}); write it with gzip, or name it without '.gz'"
    )


def unreadable(where: str, exc: BaseException) -> RubricInputError:
    """What went wrong in the reading machinery (a library's own error, memory running
    out) while reading an input at ``where``, as the input's problem: whatever reading
    raises is never the evaluator's."""
    if isinstance(exc, MemoryError):
        return RubricInputError(
            f"{where}: cannot be read: it needs more memory than there is; split it into "
            "smaller files, or give the run more memory"
        )
    try:
        why = f"{type(exc).__name__}: {exc}"
    except Exception:  # a message that cannot be shown: its type says enough
        why = type(exc).__name__
    if len(why) > 300:
        why = f"{why[:300]}…"
    return RubricInputError(
        f"{where}: cannot be read ({why}); check that the file is whole and as its "
        "format says, and write it again if it is not"
    )


def text_rows(
    path: Path,
    display: str,
    opener: Opener,
    read: Callable[[TextIO], Iterator[JSON]],
    where: Callable[[], str],
) -> Iterator[JSON]:
    """The rows ``read`` finds in the text of ``path`` as ``opener`` opens it, the file's
    own faults (not UTF-8, not whole gzip, unreadable) raised as
    :class:`RubricInputError` naming it; anything else reading raises too, naming the
    place ``where()`` gives."""
    try:
        with opener.open_text(path) as stream:
            yield from read(stream)
    except UnicodeDecodeError as exc:
        # The text reader decodes ahead in chunks, so its line count is not where the
        # bad byte is; find that line once, now that the file is known to be bad.
        line = first_bad_utf8_line(path, opener)
        raise RubricInputError(
            f"{display}:{line}: not UTF-8 ({exc.reason}); save the file as UTF-8"
        ) from None
    except opener.faults as exc:
        raise not_whole(display, exc) from None
    except OSError as exc:
        raise RubricInputError(f"{display}: cannot be read: {exc}") from None
    except RubricInputError:
        raise
    except Exception as exc:  # the reading machinery's own (memory, a library's error)
        raise unreadable(where(), exc) from None


def whole_lines(stream: TextIO) -> Iterator[str | None]:
    """The text of ``stream`` in blocks of whole lines, each ending with LF (an unended
    last line is given one); ``None``, and nothing after it, where a block holds a line
    longer than :data:`MAX_ROW_CHARS` could be (a reader one row at a time refuses it).
    Nothing is yielded for an empty stream."""
    rest = ""
    while True:
        block = stream.read(BLOCK)
        text = rest + block
        if len(text) > MAX_ROW_CHARS:
            yield None
            return
        if not block:
            if text:
                yield text if text.endswith("\n") else text + "\n"
            return
        cut = text.rfind("\n") + 1
        rest = text[cut:]
        if cut:
            yield text[:cut]


def too_long(display: str, line: int) -> str:
    return (
        f"{display}:{line}: this row is longer than {MAX_ROW_CHARS} characters, which no "
        "ledger row needs (an id and two labels); look for a missing closing quote or a "
        "runaway line and fix it"
    )


def first_bad_utf8_line(path: Path, opener: Opener) -> int | str:
    """The 1-based line holding the first byte that is not UTF-8 (``?`` if unreadable)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    skipped: tuple[type[Exception], ...] = (OSError, UnicodeDecodeError, *opener.faults)
    try:
        with opener.open_bytes(path) as stream:
            for number, line in enumerate(stream, start=1):
                try:
                    decoder.decode(line)
                except UnicodeDecodeError:
                    return number
            decoder.decode(b"", final=True)
    except skipped:
        pass
    return "?"
