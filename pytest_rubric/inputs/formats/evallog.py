"""``.eval``: an inspect_ai log as inspect writes it by default, a zip archive of JSON
entries, read here entry by entry with :mod:`zipfile` (imported when such a file is read).

Its rows are its samples (``samples/ID_epoch_N.json``), each as ``inspect log convert
--to json`` writes it in the converted log's ``samples``: in inspect's order (by epoch,
then ID, an integer ID as its text padded to 20 digits), an entry written twice read as
its last copy, model events' pooled inputs and calls put back in place (``events_data``
resolved, then dropped). So a description written for the converted ``.json`` log
(``records: samples``) reads the ``.eval`` file unchanged, and names its rows alike,
``file#samples[N]``. The header (``header.json``, ``_journal/start.json`` in a log
still being written) types each ID its entry's name gives; a sample whose own ID or
epoch differs is refused, as the order would be a guess.

Current inspect versions compress entries with zstd (method 93), inflated through
Python 3.14's ``compression.zstd`` or the ``zstandard`` package (the extra
``pytest-rubric[eval]``). An entry is inflated whole, bounded: one whose directory says
it inflates past :data:`MAX_ENTRY_BYTES`, or that inflates to other than its directory
says, is refused, as is a damaged or foreign archive, in one line.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from json import JSONDecodeError
from operator import attrgetter
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.files import regular_size
from pytest_rubric.core.jsondecode import TOO_DEEP, decode_row
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.labelblocks import LabelBlock
from pytest_rubric.core.shown import describe, kind_of
from pytest_rubric.descriptions.traits import FileTraits
from pytest_rubric.inputs.formats.base import InputFile
from pytest_rubric.inputs.textfiles import PLAIN, Opener, unreadable

if TYPE_CHECKING:
    from zipfile import ZipFile, ZipInfo

    from pytest_rubric.inputs.cursor import Cursor
    from pytest_rubric.inputs.findings import Findings

#: The most bytes one entry may inflate to: a sample this large is read from the
#: converted ``.json`` log instead, never inflated into memory whole.
MAX_ENTRY_BYTES = 256 << 20
#: The zip method number of zstd, which :mod:`zipfile` reads only from Python 3.14 on.
ZSTD = 93
#: What to install to read zstd entries before Python 3.14.
EXTRA = "pip install 'pytest-rubric[eval]'"
#: Where the rows are, as the converted log names them.
SAMPLES = "samples"
#: The header of a finished log, then that of a log still being written.
HEADERS = ("header.json", "_journal/start.json")
_SAMPLE_NAME = re.compile(r"samples/(.*)_epoch_(0|[1-9][0-9]{0,8})\.json", re.DOTALL)
_INTEGER = re.compile(r"0|-?[1-9][0-9]{0,99}")
_LOCAL_HEADER = b"PK\x03\x04"
_CONVERT = "convert it with 'inspect log convert --to json' and read the .json log"


@dataclass(frozen=True, slots=True)
class InspectLog:
    """inspect_ai's ``.eval`` log."""

    suffix: str = ".eval"
    opener: Opener = PLAIN  # its bytes as they are: zipfile opens them
    holds = "ledger rows"

    @property
    def traits(self) -> FileTraits:
        return FileTraits(self.suffix, records=True)

    def rows(self, file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
        try:
            yield from _samples(file, case_file, cursor)
        except RubricInputError:
            raise
        except OSError as exc:
            raise RubricInputError(f"{file.display}: cannot be read: {exc}") from None
        except Exception as exc:  # zipfile's own (a damaged directory, an odd method)
            raise unreadable(file.reading_at(cursor.position), exc) from None

    def label_blocks(self, file: InputFile, findings: Findings) -> Iterator[LabelBlock | None]:
        ledger = file.ledger
        if ledger is None or not ledger.per_judgement or ledger.group_by is not None:
            return iter((None,))
        from pytest_rubric.inputs.cursor import Cursor
        from pytest_rubric.inputs.judgementblocks import judgement_blocks

        return judgement_blocks(self.rows(file, "", Cursor()), ledger, findings)

    def lone_judgements(self, file: InputFile) -> frozenset[str] | None:
        return None

    def place(self, file: InputFile, number: int | str) -> str:
        """``#samples[N]`` (N from 0), as the converted log's rows are named."""
        records = file.selection.records
        index = number - 1 if isinstance(number, int) else number
        return f"#{SAMPLES if records is None else records.written}[{index}]"

    def row_label(self, number: int) -> str:
        return f"item {number - 1}"


INSPECT_LOG = InspectLog()


class _Entry(NamedTuple):
    """A sample's entry, with the ID and epoch its name (typed by the header) gives, and
    where inspect's ``sort_samples`` puts it (``order``)."""

    info: ZipInfo
    id: str | int
    epoch: int
    order: tuple[int, str]


class _Where(NamedTuple):
    """An entry as messages name it: the row's place (``number`` in ``file``; the file's
    own name for 0), then the entry's name; worded only when a message needs it."""

    file: InputFile
    number: int
    entry: str

    def refused(self, words: str, at: str = "") -> RubricInputError:
        """``words`` about the entry (at ``:LINE:COL``, ``at``), as one line."""
        head = self.file.place(self.number) if self.number else self.file.display
        return RubricInputError(f"{head} ({escape_controls(self.entry)}{at}): {words}")

    def damaged(self, why: str) -> RubricInputError:
        return self.refused(
            f"the archive is damaged ({why}); write the log again, or copy it whole"
        )


def _samples(file: InputFile, case_file: str, cursor: Cursor) -> Iterator[JSON]:
    """The samples as rows, ``cursor.position`` set to each one's number (from 1) first."""
    import zipfile

    _check_records(file, case_file)
    regular_size(file.path)  # a FIFO put here since collection: refused, never waited on
    with file.path.open("rb", buffering=0) as handle:  # each read is an entry's, at once
        try:
            opened = zipfile.ZipFile(handle)
        except zipfile.BadZipFile as exc:
            raise RubricInputError(
                f"{file.display}: not a zip archive ({exc}); an .eval log is the zip archive "
                "inspect writes: write it again, or name a .json log '.json'"
            ) from None
        with opened:
            archive = _Archive(opened, handle)
            entries = _entries(archive, file)
            for number, entry in enumerate(entries, start=1):
                cursor.position = number
                where = _Where(file, number, entry.info.filename)
                sample = _decoded(archive.inflated(entry.info, where), where)
                yield _as_converted(_checked(sample, entry, where), where)


def _check_records(file: InputFile, case_file: str) -> None:
    """``records:`` may name the samples, as it does in the converted log, and nothing else."""
    records = file.selection.records
    if records is None or records.parts == (SAMPLES,):
        return
    from pytest_rubric.descriptions.misfits import misfit

    words = (
        f"'records' {escape_controls(repr(records.written))} names a list of an inspect log "
        f"that is not its samples; an .eval log's rows are its samples: write 'records: "
        f"samples' or leave it out (for another list, {_CONVERT})"
    )
    if case_file:
        raise misfit(case_file, records.at, words)
    raise RubricInputError(f"{file.display}: {words}")


def _entries(archive: _Archive, file: InputFile) -> list[_Entry]:
    """The sample entries, in inspect's order; the last of two entries of one name."""
    as_text = _text_ids(archive, file)
    named = {
        info.filename: info
        for info in archive.zip.infolist()
        if info.filename.startswith(f"{SAMPLES}/") and info.filename.endswith(".json")
    }
    entries = []
    for name, info in named.items():
        match = _SAMPLE_NAME.fullmatch(name)
        if match is None:
            raise RubricInputError(
                f"{file.display}: the entry {escape_controls(repr(name))} is not named as "
                f"inspect names a sample (samples/ID_epoch_N.json); {_CONVERT}"
            )
        text = match[1]
        as_int = _INTEGER.fullmatch(text) is not None and text not in as_text
        sample_id = int(text) if as_int else text
        epoch = int(match[2])
        key = sample_id if isinstance(sample_id, str) else str(sample_id).zfill(20)
        entries.append(_Entry(info, sample_id, epoch, (epoch, key)))
    entries.sort(key=attrgetter("order"))
    return entries


def _text_ids(archive: _Archive, file: InputFile) -> frozenset[str]:
    """The IDs the header lists (``eval.dataset.sample_ids``) that are text written as an
    integer is (``"10"``): an entry's name read as an integer is any other's."""
    for name in HEADERS:
        try:
            info = archive.zip.getinfo(name)
        except KeyError:
            continue
        where = _Where(file, 0, name)
        ids = _decoded(archive.inflated(info, where), where)
        for key in ("eval", "dataset", "sample_ids"):
            ids = ids.get(key) if isinstance(ids, dict) else None
        listed = ids if isinstance(ids, list) else []
        return frozenset(
            sample_id
            for sample_id in listed
            if isinstance(sample_id, str) and _INTEGER.fullmatch(sample_id)
        )
    raise RubricInputError(
        f"{file.display}: a zip archive, but not an inspect log (it has no header.json, nor "
        "_journal/start.json); name an .eval log inspect wrote"
    )


#: zstd bytes inflated to at most a number of bytes (a reader's ``read`` gives as many
#: as asked while there are more).
_Inflate = Callable[[bytes, int], bytes]


class _Archive:
    """An open ``.eval`` archive: its directory, as :mod:`zipfile` read it, and its file;
    the zstd decoder found for its first zstd entry, kept for the others."""

    __slots__ = ("decoder", "handle", "zip")

    def __init__(self, zip: ZipFile, handle: BinaryIO) -> None:
        self.zip = zip
        self.handle = handle
        self.decoder: tuple[_Inflate, tuple[type[Exception], ...]] | None = None

    def inflated(self, info: ZipInfo, where: _Where) -> bytes:
        """The entry's bytes, inflated no further than its directory says, nor than
        :data:`MAX_ENTRY_BYTES`."""
        size = info.file_size
        if max(size, info.compress_size) > MAX_ENTRY_BYTES:
            raise where.refused(
                f"the archive says this entry takes {max(size, info.compress_size)} bytes, "
                f"more than an entry may ({MAX_ENTRY_BYTES}); {_CONVERT}"
            )
        if info.compress_type == ZSTD:
            data = self._zstd_inflated(info, where)
        else:
            data = self._opened(info, where)
        if len(data) > size:
            raise where.damaged(f"it inflates to more than the {size} bytes the archive says")
        if len(data) < size:
            raise where.damaged(f"it inflates to {len(data)} bytes, where the archive says {size}")
        return data

    def _opened(self, info: ZipInfo, where: _Where) -> bytes:
        """An entry of a method :mod:`zipfile` reads (stored, deflated...), up to one byte
        more than its directory says (zipfile checks its CRC)."""
        import zipfile

        try:
            with self.zip.open(info) as stream:
                return stream.read(info.file_size + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
            raise where.damaged(str(exc)) from None
        except (NotImplementedError, RuntimeError) as exc:  # a method or encryption zipfile lacks
            raise where.refused(f"cannot be read ({exc}); {_CONVERT}") from None

    def _zstd_inflated(self, info: ZipInfo, where: _Where) -> bytes:
        """A zstd entry's bytes, up to one more than its directory says, its CRC checked
        where it has that many: its raw bytes are found through its local header, as the
        zip format lays them out."""
        if info.flag_bits & 1:
            raise where.refused(f"the entry is encrypted; {_CONVERT}")
        # Read at once: the local header, its name and extra field (of lengths it alone
        # says, most often the directory's name and no extra), and the bytes.
        handle = self.handle
        handle.seek(info.header_offset)
        block = handle.read(30 + len(info.orig_filename.encode()) + info.compress_size + 64)
        if len(block) < 30 or block[:4] != _LOCAL_HEADER:
            raise where.damaged("no entry where the archive's directory says")
        name_length, extra_length = struct.unpack_from("<HH", block, 26)
        start = 30 + name_length + extra_length
        raw = block[start : start + info.compress_size]
        if len(raw) < info.compress_size:
            handle.seek(info.header_offset + start)
            raw = handle.read(info.compress_size)
        if len(raw) < info.compress_size:
            raise where.damaged("the archive ends inside this entry")
        inflate, faults = self.decoder or self._zstd_decoder(where)
        try:
            data = inflate(raw, info.file_size + 1)
        except faults as exc:
            raise where.damaged(f"zstd: {exc}") from None
        if len(data) == info.file_size and zlib.crc32(data) != info.CRC:
            raise where.damaged("its CRC-32 is not the one the archive says")
        return data

    def _zstd_decoder(self, where: _Where) -> tuple[_Inflate, tuple[type[Exception], ...]]:
        """How zstd bytes are inflated, no further than a limit, and what that raises for
        bytes that are not whole zstd: Python 3.14's ``compression.zstd``, else the
        ``zstandard`` package."""
        import importlib
        import io

        try:
            zstd = importlib.import_module("compression.zstd")
        except ImportError:
            pass
        else:

            def read(raw: bytes, limit: int) -> bytes:
                with zstd.ZstdFile(io.BytesIO(raw)) as stream:
                    return stream.read(limit)  # type: ignore[no-any-return]

            self.decoder = read, (zstd.ZstdError, EOFError)
            return self.decoder
        try:
            import zstandard
        except ImportError:
            raise where.refused(
                "compressed with zstd, which needs Python 3.14 or the zstandard package, not "
                f"installed here; {EXTRA}"
            ) from None
        context = zstandard.ZstdDecompressor()

        def inflate(raw: bytes, limit: int) -> bytes:
            data = context.decompress(raw, max_output_size=limit)  # its first frame, at once
            if len(data) < limit - 1:  # fewer bytes than the directory says: more frames?
                with context.stream_reader(io.BytesIO(raw), read_across_frames=True) as stream:
                    data = stream.read(limit)
            return data

        self.decoder = inflate, (zstandard.ZstdError, EOFError)
        return self.decoder


def _decoded(data: bytes, where: _Where) -> JSON:
    """An entry's JSON, decoded as strictly as any input."""
    try:
        return decode_row(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise where.refused(f"not UTF-8 ({exc.reason}); write it again") from None
    except JSONDecodeError as exc:
        raise where.refused(f"invalid JSON: {exc.msg}", f":{exc.lineno}:{exc.colno}") from None
    except ValueError as exc:  # the decoder's own: a duplicate key, NaN...
        raise where.refused(str(exc)) from None
    except RecursionError:
        raise where.refused(TOO_DEEP) from None


def _checked(sample: JSON, entry: _Entry, where: _Where) -> dict[str, JSON]:
    """``sample``, a mapping holding the ID and epoch its entry's name gives (strictly:
    ``"7"`` is not ``7``); else the order it was read in would be a guess."""
    if not isinstance(sample, dict):
        raise where.refused(f"holds {kind_of(sample)}, not a sample; {_CONVERT}")
    sample_id, epoch = sample.get("id"), sample.get("epoch")
    if (
        type(sample_id) is not type(entry.id)
        or sample_id != entry.id
        or type(epoch) is not int
        or epoch != entry.epoch
    ):
        raise where.refused(
            f"holds the sample of ID {describe(sample_id)} and epoch {describe(epoch)}, "
            f"where its name and the log's header give ID {describe(entry.id)}, epoch "
            f"{entry.epoch}; inspect orders samples by what they hold: {_CONVERT}"
        )
    return sample


def _as_converted(sample: dict[str, JSON], where: _Where) -> dict[str, JSON]:
    """``sample`` as inspect reads it back (``resolve_sample_events_data``): each model
    event's ``input_refs`` and its call's ``call_refs`` expanded from the pools in
    ``events_data`` (ranges ``[start, end)``, sliced as Python slices), and
    ``events_data`` dropped."""
    pools = sample.pop("events_data", None)
    events = sample.get("events")
    if not isinstance(pools, dict) or not isinstance(events, list):
        return sample
    messages: Any = pools.get("messages")
    calls: Any = pools.get("calls")
    try:
        for event in events:
            if not isinstance(event, dict) or event.get("event") != "model":
                continue
            refs: Any = event.get("input_refs")
            if messages and refs is not None:
                event["input"] = [item for start, end in refs for item in messages[start:end]]
                del event["input_refs"]
            call: Any = event.get("call")
            if calls and isinstance(call, dict) and call.get("call_refs"):
                request = dict(call.get("request") or {})  # a new key goes last, as in inspect
                refs = call.pop("call_refs")
                request[call.pop("call_key", None) or "messages"] = [
                    item for start, end in refs for item in calls[start:end]
                ]
                call["request"] = request
    except (TypeError, ValueError, KeyError) as exc:
        raise where.refused(
            f"its events_data pools are not as inspect writes them ({exc}); {_CONVERT}"
        ) from None
    return sample
