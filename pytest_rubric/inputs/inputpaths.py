"""Where a case file's ``input_file:`` paths lead, and whether they may: beside the case
file, inside the repository, to a regular file of a format the inputs room reads."""

from __future__ import annotations

import errno
import os
from pathlib import Path, PureWindowsPath

from pytest_rubric.inputs.formats.base import Format, InputFile


class InputFiles:
    """Where the ``input_file`` paths of the case file at ``path`` lead, and whether they may."""

    def __init__(self, path: Path, display: str, root: Path | None) -> None:
        self.folder = path.parent
        self.display_folder = os.path.dirname(display)
        self.root = root.resolve() if root is not None else None

    def resolve(self, value: str, named: str = "input_file") -> tuple[InputFile, str | None]:
        """The input file ``value`` names (resolved, named for messages, its format), and
        a problem with it (or ``None``); ``named`` is how messages name the key."""
        # The formats, imported when a case names a file: a run of inline cases loads none.
        from pytest_rubric.inputs.formats.registry import format_for, formats_text

        input_format = format_for(value)
        if "\0" in value:
            # No file system path can hold a NUL; os functions raise ValueError on it.
            return _file(
                value,
                Path(self.folder),
                value.replace("\0", "\\0"),
                input_format,
                f"{named} {value!r} contains a NUL character, which no path can hold; remove it",
            )
        display = os.path.normpath(os.path.join(self.display_folder, value))
        if os.path.isabs(value) or PureWindowsPath(value).is_absolute():
            return _file(
                value,
                Path(value),
                value,
                input_format,
                (f"{named} {value!r} is an absolute path; write it relative to the case file"),
            )
        try:
            # Python 3.13's resolve() no longer raises for a symlink loop: ask stat, which does.
            os.stat(self.folder / value)
            path = (self.folder / value).resolve()
            exists = path.is_file()
            other = not exists and path.exists()  # a directory, a FIFO, a device
        except FileNotFoundError:
            path, exists, other = (self.folder / value).resolve(), False, False
        except (OSError, RuntimeError, ValueError) as exc:
            # A symlink loop is RuntimeError before Python 3.13 and OSError (ELOOP) after.
            loop = isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP
            why = "it is a symlink loop" if loop else getattr(exc, "strerror", None) or str(exc)
            return _file(
                value,
                self.folder / value,
                display,
                input_format,
                f"{named} {value!r} cannot be followed: {why}; point it at a real file",
            )
        if self.root is not None and not path.is_relative_to(self.root):
            return _file(
                value,
                path,
                display,
                input_format,
                (
                    f"{named} {value!r} leads outside the repository ({self.root}); "
                    "keep ledgers inside it and write the path relative to the case file"
                ),
            )
        if input_format is None:
            problem = f"{named} {value!r} must end in {formats_text()}"
            return _file(value, path, display, input_format, problem)
        if other:
            return _file(
                value,
                path,
                display,
                input_format,
                f"{named} {value!r} is not a regular file ({display} is a directory, a FIFO "
                "or a device); name the ledger file itself",
            )
        if not exists:
            return _file(
                value,
                path,
                display,
                input_format,
                f"{named} {value!r} does not exist ({display}); check the path",
            )
        return _file(value, path, display, input_format, None)


def _file(
    value: str, path: Path, display: str, input_format: Format | None, problem: str | None
) -> tuple[InputFile, str | None]:
    return InputFile(text=value, path=path, display=display, format=input_format), problem
