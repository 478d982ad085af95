"""How a text input file's bytes are opened (``inputs/textfiles.py``'s two openers), by
themselves: the same text from a file as written (``PLAIN``) and gzip'd (``GZIP``), and
what each says of a file it cannot read whole."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from pytest_rubric.inputs.textfiles import GZIP, PLAIN, Opener, first_bad_utf8_line, not_whole

#: A BOM, a CRLF line end and an LF one.
WRITTEN = "\ufeffid,a,b\r\nx,true,false\n".encode()


def _files(tmp_path: Path, data: bytes) -> list[tuple[Opener, Path]]:
    """``data`` as written and gzip'd, each with the opener that reads it."""
    plain = tmp_path / "l.csv"
    plain.write_bytes(data)
    packed = tmp_path / "l.csv.gz"
    packed.write_bytes(gzip.compress(data))
    return [(PLAIN, plain), (GZIP, packed)]


def test_each_opener_gives_the_text_and_bytes_as_written(tmp_path: Path) -> None:
    for opener, path in _files(tmp_path, WRITTEN):
        with opener.open_text(path) as stream:  # the BOM dropped, line ends as written
            assert stream.read() == "id,a,b\r\nx,true,false\n"
        with opener.open_bytes(path) as binary:
            assert binary.read() == WRITTEN
        assert opener.read_text(path, 100) == "id,a,b\nx,true,false\n"  # line ends as LF
        assert opener.read_text(path, 5) == "id,a,b"  # read no further than the cap + 1


def test_a_bad_byte_is_found_on_its_line_through_either_opener(tmp_path: Path) -> None:
    for opener, path in _files(tmp_path, b"id,a,b\nx,tr\xffue,false\n"):
        assert first_bad_utf8_line(path, opener) == 2


def test_only_gzip_counts_inflated_text_and_has_faults_of_its_own(tmp_path: Path) -> None:
    assert (PLAIN.inflated, GZIP.inflated) == ("", " once inflated")
    assert PLAIN.faults == ()
    garbled = tmp_path / "garbled.csv.gz"
    garbled.write_bytes(b"id,a,b\n")
    assert PLAIN.read_text(garbled, 100) == "id,a,b\n"  # bytes as they are, whatever the name
    truncated = tmp_path / "truncated.csv.gz"
    truncated.write_bytes(gzip.compress(WRITTEN)[:-6])
    empty = tmp_path / "empty.csv.gz"
    empty.write_bytes(b"")
    for path in (garbled, truncated):
        with pytest.raises(GZIP.faults):
            GZIP.read_text(path, 100)
    with pytest.raises(GZIP.faults) as raised:  # gzip itself would read it as empty text
        GZIP.open_text(empty)
    assert str(not_whole("empty.csv.gz", raised.value)) == (
        "empty.csv.gz: not a whole gzip file (the file is empty); write it with gzip, "
        "or name it without '.gz'"
    )
