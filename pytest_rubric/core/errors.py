"""Exception types shared by the evaluators, the loader and the plugin."""

from __future__ import annotations


class RubricInputError(ValueError):
    """An evaluator was handed something that is not an input it can answer at all.

    Answers such as ``{"status": "invalid-reason-input"}`` are for inputs that have
    the right outer shape but bad evidence; this error is for inputs that are not
    the evaluator's kind of record (for ``agreement``: not a mapping with a
    ``rows`` list).
    """


class CaseFileError(Exception):
    """A problem in a case file, located at ``path:line:col`` (1-based)."""

    def __init__(self, path: str, line: int, col: int, message: str) -> None:
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path = path
        self.line = line
        self.col = col
        self.message = message


class RegistrationError(Exception):
    """Evaluators cannot be registered as the plugins ask.

    The message names each plugin at fault and says what to write instead, one
    problem per line.
    """


class ReportWriteError(Exception):
    """``--rubric-report`` could not be written; the message is one line for people."""


class RubricConfigError(ValueError):
    """A case file's ``rubric:`` block configures an evaluator in a way it cannot take.

    ``where`` is the path inside the block (keys and list indexes) of the part
    that is wrong, so the message can be shown at its line and column.
    """

    def __init__(self, message: str, where: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.where = where
