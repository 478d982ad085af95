"""pytest-rubric: grading-fixture case files as pytest items.

The evaluators are plain functions and can be used without pytest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_rubric.core.errors import CaseFileError, RubricConfigError, RubricInputError
    from pytest_rubric.core.evaluator import Evaluator, OnLedger, Summary
    from pytest_rubric.evaluators import Evidence, evaluate_agreement, evaluate_reason
    from pytest_rubric.hookspecs import hookimpl

    __version__: str

__all__ = [
    "CaseFileError",
    "Evaluator",
    "Evidence",
    "OnLedger",
    "RubricConfigError",
    "RubricInputError",
    "Summary",
    "evaluate_agreement",
    "evaluate_reason",
    "hookimpl",
]

# pytest imports this package for its plugin in every run, most of which collect no
# case file: the public names are imported when first used (PEP 562).
_HOMES = {
    "CaseFileError": "pytest_rubric.core.errors",
    "Evaluator": "pytest_rubric.core.evaluator",
    "Evidence": "pytest_rubric.evaluators",
    "OnLedger": "pytest_rubric.core.evaluator",
    "RubricConfigError": "pytest_rubric.core.errors",
    "RubricInputError": "pytest_rubric.core.errors",
    "Summary": "pytest_rubric.core.evaluator",
    "evaluate_agreement": "pytest_rubric.evaluators",
    "evaluate_reason": "pytest_rubric.evaluators",
    "hookimpl": "pytest_rubric.hookspecs",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from pytest_rubric.core.version import version

        found = globals()["__version__"] = version()
        return found
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Not kept here: pytester's in-process runs drop modules imported during a run, and
    # a class kept from a dropped module would no longer be the one the plugin checks for.
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "__version__"})
