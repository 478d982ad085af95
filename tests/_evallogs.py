"""inspect_ai logs made without inspect, for the tests and benchmarks of ``.eval`` logs.

A sample is made whole, as the converted ``.json`` log holds it (:func:`sample`); the
``.eval`` archive holds it pooled as inspect's recorder writes it (:func:`pooled`: each
model event's input and its call's messages moved into ``events_data``, referred to by
ranges). :func:`write_eval` lays the archive out as the recorder does (checked against a
log inspect wrote in ``tests/test_inputs_evallog.py``): ``_journal/start.json``, the
samples in the order they finished with a journal summary after every few, then
``summaries.json``, ``reductions.json`` and ``header.json``, each entry compressed with
zstd (zip method 93) unless told otherwise; the zip written here byte by byte, as
:mod:`zipfile` writes zstd only from Python 3.14 on. :func:`converted` is the ``.json``
log ``inspect log convert --to json`` writes of it: the samples in inspect's order.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

#: The zip methods written here: stored, deflated, zstd (as inspect writes).
STORED, DEFLATED, ZSTD = 0, 8, 93
#: A fixed time for every entry, as DOS time and date (2026-12-04 21:53:14).
DATED = ((21 << 11) | (53 << 5) | 7, ((2026 - 1980) << 9) | (12 << 5) | 4)


def sample(
    sample_id: str | int, epoch: int, score: Any, metadata: dict[str, Any], *, turns: int = 1
) -> dict[str, Any]:
    """A sample as the converted log holds it, shaped as inspect's: ``score`` the value of
    its scorer ``judge`` (left out where ``None``), ``turns`` model events each sent the
    conversation so far."""
    messages: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = [
        {"uuid": f"u{sample_id}-{epoch}", "event": "span_begin", "id": "s", "name": "init"}
    ]
    for turn in range(turns):
        messages.append({"id": f"m{turn}", "content": f"ask {sample_id} {turn}", "role": "user"})
        sent = [dict(message) for message in messages]
        events.append(
            {
                "uuid": f"e{turn}",
                "event": "model",
                "model": "mockllm/model",
                "input": sent,
                "tools": [],
                "tool_choice": "none",
                "config": {},
                "output": {"model": "mockllm/model", "choices": [], "completion": f"reply {turn}"},
                "call": {
                    "request": {"model": "model", "messages": [dict(m) for m in sent]},
                    "response": {"content": f"reply {turn}"},
                },
            }
        )
        messages.append({"id": f"r{turn}", "content": f"reply {turn}", "role": "assistant"})
    whole: dict[str, Any] = {
        "id": sample_id,
        "epoch": epoch,
        "input": f"ask {sample_id}",
        "target": "yes",
        "messages": messages,
        "output": {"model": "mockllm/model", "completion": f"reply {turns - 1}"},
        "scores": {} if score is None else {"judge": {"value": score, "answer": "reply"}},
        "metadata": metadata,
        "store": {},
        "events": events,
        "model_usage": {"mockllm/model": {"input_tokens": 5, "output_tokens": 1}},
        "uuid": f"s{sample_id}-{epoch}",
        "attachments": {},
    }
    return whole


def pooled(whole: dict[str, Any]) -> dict[str, Any]:
    """``whole`` as an ``.eval`` archive holds it: each model event's ``input`` emptied
    and referred to (``input_refs``) in the pool ``events_data.messages``, its call's
    messages in ``events_data.calls`` (``call_refs``, ``call_key``), each message pooled
    once; ``events_data`` after ``attachments``, as inspect writes it."""
    messages: list[Any] = []
    calls: list[Any] = []
    placed: tuple[dict[str, int], dict[str, int]] = ({}, {})
    events = []
    for event in whole["events"]:
        if event["event"] != "model":
            events.append(event)
            continue
        held: dict[str, Any] = {}
        for key, value in event.items():
            if key == "input":
                held["input"], held["input_refs"] = [], _refs(value, messages, placed[0])
            elif key == "call":
                request = {k: v for k, v in value["request"].items() if k != "messages"}
                held["call"] = {
                    "request": request,
                    "response": value["response"],
                    "call_refs": _refs(value["request"]["messages"], calls, placed[1]),
                    "call_key": "messages",
                }
            else:
                held[key] = value
        events.append(held)
    kept = {key: value for key, value in whole.items() if key != "events"}
    kept["events"] = events
    kept["events_data"] = {"messages": messages, "calls": calls}
    return {key: kept[key] for key in [*whole, "events_data"]}


def _refs(items: list[Any], pool: list[Any], places: dict[str, int]) -> list[list[int]]:
    """``items`` as ranges of ``pool``, each item added where it is not there yet
    (``places``: where each item, as JSON text, is in the pool)."""
    refs: list[list[int]] = []
    for item in items:
        at = places.setdefault(json.dumps(item, sort_keys=True), len(pool))
        if at == len(pool):
            pool.append(item)
        if refs and refs[-1][1] == at:
            refs[-1][1] = at + 1
        else:
            refs.append([at, at + 1])
    return refs


def inspect_order(whole: dict[str, Any]) -> tuple[int, str]:
    """Where inspect's ``sort_samples`` puts a sample."""
    sample_id = whole["id"]
    return whole["epoch"], sample_id if isinstance(sample_id, str) else str(sample_id).zfill(20)


def header(samples: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A finished log's header, listing the samples' IDs as inspect does."""
    ids = list(dict.fromkeys(whole["id"] for whole in samples))
    return {
        "version": 2,
        "status": "success",
        "eval": {
            "created": "2026-12-04T21:53:14+00:00",
            "task": "headline_check",
            "dataset": {"name": "headlines", "samples": len(ids), "sample_ids": ids},
            "model": "mockllm/model",
            "config": {"epochs": 1},
        },
        "plan": {"name": "plan", "steps": []},
        "results": {"total_samples": len(samples)},
    }


def converted(head: dict[str, Any], samples: Iterable[dict[str, Any]]) -> str:
    """The ``.json`` log ``inspect log convert --to json`` writes: the header's keys, then
    the samples whole in inspect's order."""
    log = dict(head)
    log["samples"] = sorted(samples, key=inspect_order)
    log["reductions"] = []
    return json.dumps(log, indent=2)


def eval_entries(
    head: dict[str, Any], samples: Iterable[dict[str, Any]], every: int = 10
) -> Iterable[tuple[str, bytes]]:
    """The entries of the ``.eval`` archive, in the recorder's order: ``samples`` in the
    order given (as they finished), pooled, compact JSON as inspect writes it."""
    start = {key: head[key] for key in ("version", "eval", "plan")}
    yield "_journal/start.json", _compact(start)
    flushed = 0
    for count, whole in enumerate(samples, start=1):
        yield f"samples/{whole['id']}_epoch_{whole['epoch']}.json", _compact(pooled(whole))
        if count % every == 0:
            flushed += 1
            yield f"_journal/summaries/{flushed}.json", _compact([{"id": whole["id"]}])
    yield "summaries.json", b"[]"
    yield "reductions.json", b"[]"
    yield "header.json", _compact(head)


def _compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def write_eval(path: Path, entries: Iterable[tuple[str, bytes]], method: int = ZSTD) -> None:
    """A zip archive of ``entries`` at ``path``, each compressed by ``method``, with a
    zip64 end record where it holds more than 65,535 entries, as :mod:`zipfile` writes."""
    compress = _compressor(method)
    central = []
    with path.open("wb") as out:
        for name, data in entries:
            raw = compress(data)
            encoded = name.encode()
            flags = 0 if name.isascii() else 0x800
            crc = zlib.crc32(data)
            offset = out.tell()
            sizes = (crc, len(raw), len(data), len(encoded))
            out.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, flags, method, *DATED, *sizes, 0))
            out.write(encoded)
            out.write(raw)
            # Extra field, comment, disk, internal attributes, then a plain file's mode.
            tail = (0, 0, 0, 0, 0o600 << 16, offset)
            head = (b"PK\x01\x02", 0x0314, 20, flags, method, *DATED)
            central.append(struct.pack("<4s6H3L5H2L", *head, *sizes, *tail) + encoded)
        start = out.tell()
        out.write(b"".join(central))
        size, count = out.tell() - start, len(central)
        if count > 0xFFFF:
            end64 = out.tell()
            out.write(
                struct.pack(
                    "<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, size, start
                )
            )
            out.write(struct.pack("<4sLQL", b"PK\x06\x07", 0, end64, 1))
        shown = min(count, 0xFFFF)
        out.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, shown, shown, size, start, 0))


def _compressor(method: int) -> Any:
    if method == ZSTD:
        import zstandard

        return zstandard.ZstdCompressor().compress
    if method == DEFLATED:
        return lambda data: _deflated(data)
    return bytes


def _deflated(data: bytes) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()
