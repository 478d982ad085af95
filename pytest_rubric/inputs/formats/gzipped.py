"""gzip around a text format: the same format, its name ending in ``.gz``, its bytes
inflated as they are read."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from pytest_rubric.inputs.formats.csvfile import Csv
from pytest_rubric.inputs.formats.jsondocument import JsonDocument
from pytest_rubric.inputs.formats.jsonl import Jsonl

#: The text formats, which may be gzip'd.
_Text = TypeVar("_Text", Jsonl, Csv, JsonDocument)


def gzipped(text_format: _Text) -> _Text:
    """``text_format`` gzip'd."""
    return replace(text_format, suffix=f"{text_format.suffix}.gz", gzipped=True)
