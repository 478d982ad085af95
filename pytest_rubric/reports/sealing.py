"""Sealed records: a case's record as the run that gathers it keeps it until the report
is written, its head beside the text the report writes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeAlias, cast

from pytest_rubric.reports.records import (
    CaseRecord,
    DatasetRecord,
    PanelRecord,
    RecordHead,
    ledger_of,
)


class _Sealed(RecordHead):
    sealed: str


class SealedRecord(_Sealed, total=False):
    """A record's head, and the whole record as the report writes it (``sealed``); for a
    dataset's row, its ``dataset`` too (the summary counts rows by dataset); for a
    ledger's record (:func:`~pytest_rubric.reports.records.ledger_of`), ``ledger``, so
    that the Markdown counts ledgers without reading every record back; and for a
    panel's pair its ``panel`` (the summary tables the pairs)."""

    dataset: DatasetRecord
    ledger: bool
    panel: PanelRecord


#: A record as a run keeps it: whole, or sealed (when a report or page reads them).
KeptRecord: TypeAlias = CaseRecord | SealedRecord

#: A record's JSON text as the report writes it: json's encoder, its default separators.
encode_record: Callable[[object], str] = json.JSONEncoder(ensure_ascii=False).encode
#: The keys every record keeps beside its text once sealed.
_HEAD = ("nodeid", "case", "file", "line", "index", "evaluator", "outcome")


def sealed(record: CaseRecord, input_text: str | None = None) -> SealedRecord:
    """``record`` as the run keeps it until the report is written: its head, and the whole
    record as the text the report writes. The text is a snapshot nothing the evaluator
    does later can change, and the values it holds cost the garbage collector nothing
    from then on.

    ``input_text``: the case's ``input`` as its packed JSON text (spaced as the report
    writes JSON), for a record made without its ``input``; the text takes it where the
    key goes, after the head, exactly as encoding the record with it would write it."""
    head = cast(SealedRecord, {key: record[key] for key in _HEAD})  # type: ignore[literal-required]
    if input_text is None:
        text = encode_record(record)
    else:
        start = encode_record(head)[:-1]
        rest = {key: value for key, value in record.items() if key not in head}
        after = f", {encode_record(rest)[1:]}" if rest else "}"
        text = f'{start}, "input": {input_text}{after}'
    head["sealed"] = text
    if "dataset" in record:
        head["dataset"] = record["dataset"]
    if ledger_of(record) is not None:
        head["ledger"] = True
    if "panel" in record:
        head["panel"] = record["panel"]
    return head


def unsealed(record: KeptRecord) -> CaseRecord:
    """The whole ``record``, its text read back where it is sealed."""
    if "sealed" not in record:
        return record
    whole: CaseRecord = json.loads(cast(SealedRecord, record)["sealed"])
    return whole


def record_text(record: KeptRecord) -> str:
    """The text the report writes for ``record``."""
    if "sealed" in record:
        return cast(SealedRecord, record)["sealed"]
    return encode_record(record)
