"""gzip around a text format: the same format, its name ending in ``.gz``, its bytes
opened by :data:`~pytest_rubric.inputs.textfiles.GZIP` (inflated as they are read)."""

from __future__ import annotations

from dataclasses import Field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from pytest_rubric.inputs.textfiles import GZIP

if TYPE_CHECKING:
    from pytest_rubric.inputs.textfiles import Opener


class _Text(Protocol):
    """A text format: a frozen dataclass with a suffix and how its bytes are opened."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def suffix(self) -> str: ...

    @property
    def opener(self) -> Opener: ...


_Format = TypeVar("_Format", bound=_Text)


def gzipped(text_format: _Format) -> _Format:
    """``text_format`` gzip'd."""
    return replace(text_format, suffix=f"{text_format.suffix}.gz", opener=GZIP)
