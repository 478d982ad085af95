"""Hooks through which plugins give pytest-rubric their evaluators.

Implement them, marked with :data:`pytest_rubric.hookimpl`, in a ``conftest.py``,
in a pytest plugin, or in a module registered under the ``pytest_rubric``
entry-point group of an installed package.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain
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
        # One search of the names joined, in C, rather than a call for each name.
        return "\0rubric_" in "\0" + "\0".join(_names(plugin))
    except Exception:  # a plugin object whose dir() raises is none of ours
        return False


def _names(plugin: object) -> Iterable[str]:
    """The names ``dir(plugin)`` lists, unsorted and perhaps repeated: read from the
    namespaces it reads where ``plugin`` does not say otherwise (a module without a
    ``__dir__``; an object whose class keeps ``object.__dir__``), else ``dir``'s."""
    if isinstance(plugin, ModuleType):
        return dir(plugin) if "__dir__" in vars(plugin) else vars(plugin)
    kind = type(plugin)
    if kind.__dir__ is not object.__dir__:
        return dir(plugin)
    try:
        own = vars(plugin)  # as ``object.__dir__`` reads it: none without a ``__dict__``
    except TypeError:
        own = {}
    return chain(own, *map(vars, kind.__mro__))


@hookspec
def rubric_evaluators() -> Sequence[Evaluator]:
    """Return the evaluators this plugin provides.

    Every implementation is called (this is not a ``firstresult`` hook) and the
    evaluators of all of them are registered together; two evaluators with one
    name are an error naming both sources. An implementation in a
    ``conftest.py`` applies to the case files in and below its directory.
    """
