"""Hooks through which plugins give pytest-rubric their evaluators.

Implement them, marked with :data:`pytest_rubric.hookimpl`, in a ``conftest.py``,
in a pytest plugin, or in a module registered under the ``pytest_rubric``
entry-point group of an installed package.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from pytest_rubric.core.evaluator import Evaluator

PROJECT = "pytest_rubric"
#: The entry-point group under which installed packages register hook modules.
ENTRY_POINT_GROUP = "pytest_rubric"
hookspec = pluggy.HookspecMarker(PROJECT)
#: Marks a function as an implementation of a pytest-rubric hook.
hookimpl = pluggy.HookimplMarker(PROJECT)


def implements_a_hook(plugin: object) -> bool:
    """Whether ``plugin`` has a name like a pytest-rubric hook's. Never raises.

    Looks at names only: touching arbitrary attributes of pytest's plugin objects
    can have side effects.
    """
    try:
        # A module's names are its namespace's, unless it defines ``__dir__``: read so,
        # without the sorted list ``dir()`` makes of every one of pytest's modules.
        plain = isinstance(plugin, ModuleType) and "__dir__" not in vars(plugin)
        names = vars(plugin) if plain else dir(plugin)
        return any(name.startswith("rubric_") for name in names)
    except Exception:  # a plugin object whose dir() raises is none of ours
        return False


@hookspec
def rubric_evaluators() -> Sequence[Evaluator]:
    """Return the evaluators this plugin provides.

    Every implementation is called (this is not a ``firstresult`` hook) and the
    evaluators of all of them are registered together; two evaluators with one
    name are an error naming both sources. An implementation in a
    ``conftest.py`` applies to the case files in and below its directory.
    """
