"""A file named one slip away from a case file's name: not collected, and said so.

It is a collector of its own, holding no item, whose collection warns (or, under
``--rubric-check``, fails): pytest then names that file, and a warnings filter that
makes warnings errors fails that file's collection only, as pytest's own collection
warnings do.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable

import pytest

from pytest_rubric.core.escapes import escape_controls


class NearMissError(Exception):
    """A near miss under ``--rubric-check``, or where a filter makes its warning an error:
    a problem of the file, at ``path:1:1``."""


class NearMissFile(pytest.File):
    """A file named like a case file but for one slip; ``meant`` is the name meant."""

    meant: str = ""
    #: The warning's class, kept where ``-W`` finds it (:mod:`pytest_rubric.plugin`).
    warning: type[Warning] = UserWarning

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        message = (
            f"{escape_controls(self.path.name)} is not collected: case files are named "
            f"*.rubric.yaml or *.rubric.yml; rename it to {escape_controls(self.meant)} to "
            "collect its cases"
        )
        if self.config.option.rubric_check:
            raise NearMissError(f"{escape_controls(self.nodeid)}:1:1: {message}")
        try:
            # At the file's first line, as pytest names it in its warnings summary.
            warnings.warn_explicit(self.warning(message), None, os.fspath(self.path), 1)
        except self.warning:
            # A filter made the warning an error: this file's collection error, in one
            # line (pytest carries on collecting the rest), with the way to keep the name.
            raise NearMissError(
                f"{escape_controls(self.nodeid)}:1:1: {self.warning.__name__}: {message}; or, "
                f"if it holds no cases, keep its name and filter the warning: "
                f"filterwarnings = ignore::{self.warning.__module__}.{self.warning.__name__}"
            ) from None
        return []

    def repr_failure(  # type: ignore[override]  # as pytest's own Collector does
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> str:
        if isinstance(excinfo.value, NearMissError):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))
