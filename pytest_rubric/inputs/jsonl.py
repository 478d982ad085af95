"""Ledger rows from a ``.jsonl`` file (also gzip'd): one JSON object a line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from typing import TextIO

from pytest_rubric.core.errors import RubricInputError
from pytest_rubric.core.jsondecode import TOO_DEEP, decode_row
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.inputs.cursor import Cursor
from pytest_rubric.inputs.textfiles import MAX_ROW_CHARS, too_long


def jsonl_rows(stream: TextIO, display: str, cursor: Cursor) -> Iterator[JSON]:
    """Each line of ``stream`` decoded, ``cursor.position`` set to its line first."""
    decode = decode_row
    # Each line read with a cap, so a runaway line is never held whole; a row is a line.
    lines = iter(partial(stream.readline, MAX_ROW_CHARS + 1), "")
    for number, text in enumerate(lines, start=1):
        cursor.position = number
        if len(text) > MAX_ROW_CHARS:
            raise RubricInputError(too_long(display, number))
        try:
            row = decode(text)
        except json.JSONDecodeError as exc:
            if not text.strip():
                raise RubricInputError(
                    f"{display}:{number}: a blank line; every line of a .jsonl "
                    "ledger is one JSON object: remove it"
                ) from None
            raise RubricInputError(
                f"{display}:{number}:{exc.colno}: invalid JSON: {exc.msg}; "
                "every line of a .jsonl ledger is one JSON object"
            ) from None
        except ValueError as exc:
            raise RubricInputError(f"{display}:{number}: {exc}") from None
        except RecursionError:
            raise RubricInputError(f"{display}:{number}: {TOO_DEEP}") from None
        yield row
