"""Inputs kept in files beside a case file: ``input_file: PATH``.

- ``.json``: the whole input mapping;
- ``.jsonl``: ledger rows, one JSON object per line, read as a stream;
- ``.csv``: ledger rows with the header ``id,a,b``; only the cells ``true`` and
  ``false`` are booleans, every other cell (an empty one too) stays text.

Readers raise :class:`RubricInputError` naming ``path:line`` for a file that is
not what it claims to be. This module does not import pytest.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_rubric.errors import RubricInputError

SUFFIXES = (".json", ".jsonl", ".csv")
CSV_HEADER = ("id", "a", "b")
_CSV_BOOLEANS = {"true": True, "false": False}


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON; write a number or a string")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r}; keep one of them")
            seen.add(key)
    return mapping


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant)


def read_json(path: Path, display: str) -> Any:
    """The whole input mapping from a ``.json`` file."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise RubricInputError(f"{display}: cannot be read: {exc}") from None
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise RubricInputError(
            f"{display}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}"
        ) from None
    except ValueError as exc:
        raise RubricInputError(f"{display}: {exc}") from None
    if not isinstance(value, dict):
        raise RubricInputError(
            f"{display}: the file must hold one JSON object (the evaluator's input), "
            f"not {type(value).__name__}"
        )
    return value


class RowReader:
    """Ledger rows from a ``.jsonl`` or ``.csv`` file, one at a time.

    ``line`` is the line the most recent row came from, so a problem found in a
    row can be reported at its place.
    """

    def __init__(self, path: Path, display: str, fmt: str = "") -> None:
        self.path = path
        self.format = fmt or path.suffix
        self.display = display
        self.line = 0

    def where(self, index: int) -> str:
        return f"{self.display}:{self.line} rows[{index}]"

    def __iter__(self) -> Iterator[Any]:
        try:
            with self.path.open(encoding="utf-8-sig", newline="") as stream:
                if self.format == ".csv":
                    yield from self._csv(stream)
                else:
                    yield from self._jsonl(stream)
        except UnicodeDecodeError as exc:
            raise RubricInputError(
                f"{self.display}:{self.line + 1}: not UTF-8 ({exc.reason}); save the file as UTF-8"
            ) from None
        except OSError as exc:
            raise RubricInputError(f"{self.display}: cannot be read: {exc}") from None

    def _jsonl(self, stream: Any) -> Iterator[Any]:
        decode = _DECODER.decode
        for self.line, text in enumerate(stream, start=1):
            try:
                yield decode(text)
            except json.JSONDecodeError as exc:
                if not text.strip():
                    raise RubricInputError(
                        f"{self.display}:{self.line}: a blank line; every line of a .jsonl "
                        "ledger is one JSON object: remove it"
                    ) from None
                raise RubricInputError(
                    f"{self.display}:{self.line}:{exc.colno}: invalid JSON: {exc.msg}; "
                    "every line of a .jsonl ledger is one JSON object"
                ) from None
            except ValueError as exc:
                raise RubricInputError(f"{self.display}:{self.line}: {exc}") from None

    def _csv(self, stream: Any) -> Iterator[Any]:
        reader = csv.reader(stream, strict=True)
        try:
            header = next(reader, None)
            if header is None or sorted(header) != sorted(CSV_HEADER):
                raise RubricInputError(
                    f"{self.display}:1: the header must name the columns id, a and b "
                    f"(found {','.join(header or [])!r}); write 'id,a,b' on the first line"
                )
            columns = [header.index(name) for name in CSV_HEADER]
            for cells in reader:
                self.line = reader.line_num
                if len(cells) != len(CSV_HEADER):
                    raise RubricInputError(
                        f"{self.display}:{self.line}: {len(cells)} cells where the header has 3 "
                        "(id,a,b); quote a cell that holds a comma"
                    )
                case_id, a, b = (cells[column] for column in columns)
                yield {
                    "id": case_id,
                    "a": _CSV_BOOLEANS.get(a, a),
                    "b": _CSV_BOOLEANS.get(b, b),
                }
        except csv.Error as exc:
            raise RubricInputError(
                f"{self.display}:{reader.line_num}: invalid CSV: {exc}"
            ) from None
