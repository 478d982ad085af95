"""Finding evaluators: pytest-rubric's own plugin manager, fed from pytest's.

Hooks are named ``rubric_*`` and marked with :data:`pytest_rubric.hookimpl`, so
they live on a pluggy manager of their own. Every plugin pytest registers
(conftest modules included, as collection reaches them) is offered to it, as
are modules under the ``pytest_rubric`` entry-point group.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pluggy

from pytest_rubric import builtin, hookspecs
from pytest_rubric.registry import Evaluator, Registry

ENTRY_POINT_GROUP = "pytest_rubric"
BUILTIN_NAME = "rubric-builtin"


class RegistrationError(Exception):
    """Evaluators cannot be registered as the plugins ask (two with one name, say)."""


class EvaluatorDiscovery:
    """Holds the plugin manager and builds the registry seen from a path."""

    def __init__(self, root: Path) -> None:
        self.root = root  # conftest paths are shown relative to it
        self.manager = pluggy.PluginManager(hookspecs.PROJECT)
        self.manager.add_hookspecs(hookspecs)
        self.manager.register(builtin, BUILTIN_NAME)
        self.manager.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
        self._conftest_dirs: dict[int, Path] = {}
        self._registries: dict[tuple[int, ...], Registry] = {}

    def offer(self, plugin: object) -> None:
        """Register ``plugin`` if it implements any ``rubric_*`` hook."""
        # Look at names only: touching arbitrary attributes of pytest's plugin
        # objects can have side effects.
        if not any(name.startswith("rubric_") for name in dir(plugin)):
            return
        if self.manager.is_registered(plugin):
            return
        self.manager.register(plugin)
        origin = getattr(plugin, "__file__", None)
        if origin and os.path.basename(origin) == "conftest.py":
            self._conftest_dirs[id(plugin)] = Path(origin).resolve().parent

    def registry_for(self, path: Path) -> Registry:
        """The evaluators visible from the case file at ``path``."""
        resolved = path.resolve()
        impls = [
            impl
            for impl in self.manager.hook.rubric_evaluators.get_hookimpls()
            if _applies(self._conftest_dirs.get(id(impl.plugin)), resolved)
        ]
        key = tuple(id(impl.plugin) for impl in impls)
        registry = self._registries.get(key)
        if registry is None:
            registry = Registry()
            for impl in impls:
                source = self.source(impl.plugin)
                provided = cast("Sequence[Evaluator] | None", impl.function()) or ()
                for evaluator in provided:
                    try:
                        registry.add(evaluator, source)
                    except (TypeError, ValueError) as exc:
                        raise RegistrationError(str(exc)) from None
            self._registries[key] = registry
        return registry

    def entries(self) -> list[tuple[Evaluator, str]]:
        """Every registered evaluator with its source, whatever directory it applies to."""
        found: list[tuple[Evaluator, str]] = []
        for impl in self.manager.hook.rubric_evaluators.get_hookimpls():
            provided = cast("Sequence[Evaluator] | None", impl.function()) or ()
            found.extend((evaluator, self.source(impl.plugin)) for evaluator in provided)
        return sorted(found, key=lambda entry: (entry[0].name, entry[1]))

    def source(self, plugin: Any) -> str:
        """Where a plugin comes from, as people should read it."""
        if plugin is builtin:
            return "pytest-rubric (built-in)"
        for loaded, dist in self.manager.list_plugin_distinfo():
            if loaded is plugin:
                return f"{dist.project_name} {dist.version} (entry point {ENTRY_POINT_GROUP})"
        conftest = self._conftest_dirs.get(id(plugin))
        if conftest is not None:
            try:
                return os.path.relpath(conftest / "conftest.py", self.root)
            except ValueError:  # another drive on Windows
                return str(conftest / "conftest.py")
        name = getattr(plugin, "__name__", None)
        return f"plugin {name}" if name else repr(plugin)


def _applies(conftest_dir: Path | None, path: Path) -> bool:
    return conftest_dir is None or path.is_relative_to(conftest_dir)
