"""gzip around a text format: the same format, its name ending in ``.gz``, its bytes
inflated as they are read."""

from __future__ import annotations

from dataclasses import Field, replace
from typing import Any, ClassVar, Protocol, TypeVar


class _Text(Protocol):
    """A text format: a frozen dataclass with a suffix, which its reading may inflate."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def suffix(self) -> str: ...

    @property
    def gzipped(self) -> bool: ...


_Format = TypeVar("_Format", bound=_Text)


def gzipped(text_format: _Format) -> _Format:
    """``text_format`` gzip'd."""
    return replace(text_format, suffix=f"{text_format.suffix}.gz", gzipped=True)
