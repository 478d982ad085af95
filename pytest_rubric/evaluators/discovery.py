"""Finding evaluators: pytest-rubric's own plugin manager, fed from pytest's.

Hooks are named ``rubric_*`` and marked with :data:`pytest_rubric.hookimpl`, so
they live on a pluggy manager of their own. Every plugin pytest registers
(conftest modules included, as collection reaches them) is offered to it, as
are modules under the ``pytest_rubric`` entry-point group.

Each plugin's hook is called once, when it is offered, and what it returns is
checked there. Nothing here raises on a plugin's behalf: whatever is wrong is
kept as a problem naming the plugin, and surfaces where it matters (see
:meth:`EvaluatorDiscovery.problems`, :meth:`EvaluatorDiscovery.registry_for`).

A conftest's evaluators apply to the case files in and below its directory,
as pytest applies a conftest's hooks. A conftest is known by its file, not by
its module name: pytest's import modes give sibling conftests one module name,
and a symlinked directory can load one file twice as two modules.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pluggy

# Not 'from pytest_rubric import builtin': that form takes the package's attribute as it
# is, which names a module pytester's in-process runs may have dropped since.
import pytest_rubric.evaluators.builtin as builtin
from pytest_rubric import hookspecs
from pytest_rubric.core.errors import RegistrationError
from pytest_rubric.core.evaluator import Evaluator
from pytest_rubric.core.paths import relative
from pytest_rubric.core.registry import Registry, show_object

ENTRY_POINT_GROUP = hookspecs.ENTRY_POINT_GROUP
BUILTIN_SOURCE = "pytest-rubric (built-in)"
HOOK = "rubric_evaluators"
_EXAMPLE = "return [Evaluator(name=..., description=..., evaluate=...)]"

# Frames from these directories are ours or pluggy's; a plugin's error shows only its own.
_HIDDEN_FRAMES = tuple(
    os.path.dirname(os.path.abspath(module.__file__ or "")) + os.sep for module in (builtin, pluggy)
)


@dataclass(frozen=True, slots=True)
class _Provider:
    """One plugin's contribution: its evaluators, or what is wrong with it."""

    source: str  # where the plugin comes from, as people read it
    scopes: frozenset[Path]  # a conftest's directories; empty for a plugin that applies everywhere
    evaluators: tuple[Evaluator, ...] = ()
    problems: tuple[str, ...] = ()

    def applies_to(self, paths: Iterable[Path]) -> bool:
        if not self.scopes:
            return True
        return any(path.is_relative_to(scope) for path in paths for scope in self.scopes)


class EvaluatorDiscovery:
    """Takes the evaluators of every plugin offered, and builds the registry seen from a path."""

    def __init__(self, root: Path) -> None:
        self.root = root  # conftest paths are shown relative to it
        self.manager = pluggy.PluginManager(hookspecs.PROJECT)
        self.manager.add_hookspecs(hookspecs)
        self._providers: list[_Provider] = []
        self._conftests: dict[Path, int] = {}  # a conftest file (resolved): its provider
        self._registries: dict[tuple[int, ...], Registry] = {}
        self._add(builtin, BUILTIN_SOURCE, frozenset())
        self._load_entry_points()

    def offer(self, plugin: object) -> None:
        """Take ``plugin``'s evaluators if it implements a ``rubric_*`` hook. Never raises."""
        if not hookspecs.implements_a_hook(plugin):
            return
        try:
            if self.manager.is_registered(plugin):
                return
            origin = getattr(plugin, "__file__", None)
        except Exception:  # a plugin object whose dir() or attributes raise is none of ours
            return
        if not isinstance(origin, str) or os.path.basename(origin) != "conftest.py":
            self._add(plugin, _plugin_source(plugin), frozenset())
            return
        loaded = Path(os.path.abspath(origin))
        real = _resolved(loaded)
        scopes = frozenset({loaded.parent, real.parent})
        known = self._conftests.get(real)
        if known is not None:
            # One file reached by another path (a symlinked directory): the same
            # evaluators, seen from both places, registered once.
            provider = self._providers[known]
            self._providers[known] = dataclasses.replace(provider, scopes=provider.scopes | scopes)
            self._registries.clear()
            return
        self._conftests[real] = len(self._providers)
        self._add(plugin, relative(real, self.root), scopes)

    def problems(self) -> list[str]:
        """Everything wrong with the plugins offered so far, one message per problem."""
        return [problem for provider in self._providers for problem in provider.problems]

    def registry_for(self, path: Path) -> Registry:
        """The evaluators visible from the case file at ``path``.

        Raises :class:`RegistrationError` when a plugin that applies there is
        broken, or two of its evaluators share a name.
        """
        paths = {Path(os.path.abspath(path)), _resolved(path)}
        chosen = [
            index for index, provider in enumerate(self._providers) if provider.applies_to(paths)
        ]
        problems = [problem for index in chosen for problem in self._providers[index].problems]
        if problems:
            raise RegistrationError("\n".join(problems))
        key = tuple(chosen)
        registry = self._registries.get(key)
        if registry is None:
            registry = Registry()
            for index in chosen:
                provider = self._providers[index]
                for evaluator in provider.evaluators:
                    try:
                        registry.add(evaluator, provider.source)
                    except (TypeError, ValueError) as exc:
                        raise RegistrationError(str(exc)) from None
            self._registries[key] = registry
        return registry

    def entries(self) -> list[tuple[Evaluator, str]]:
        """Every registered evaluator with its source, whatever directory it applies to.

        Raises :class:`RegistrationError` if any plugin offered is broken.
        """
        problems = self.problems()
        if problems:
            raise RegistrationError("\n".join(problems))
        found = [
            (evaluator, provider.source)
            for provider in self._providers
            for evaluator in provider.evaluators
        ]
        return sorted(found, key=lambda entry: (entry[0].name, entry[1]))

    def _load_entry_points(self) -> None:
        """Modules under the entry-point group; one that cannot be loaded is a problem, not a crash."""
        seen: set[str] = set()
        for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
            if entry.name in seen:  # one distribution found twice on sys.path
                continue
            seen.add(entry.name)
            dist = getattr(entry, "dist", None)
            package = f"{dist.name} {dist.version}" if dist is not None else "a package"
            source = f"{package} (entry point {ENTRY_POINT_GROUP})"
            try:
                plugin = entry.load()
            except (Exception, SystemExit) as exc:
                remedy = f"fix it, or uninstall {dist.name}" if dist is not None else "fix it"
                problem = (
                    f"{source}: cannot load '{entry.name} = {entry.value}': "
                    f"{_describe(exc)}; {remedy}"
                )
                self._providers.append(_Provider(source, frozenset(), problems=(problem,)))
                continue
            if not self.manager.is_registered(plugin):
                self._add(plugin, source, frozenset(), required=True)

    def _add(
        self, plugin: object, source: str, scopes: frozenset[Path], *, required: bool = False
    ) -> None:
        evaluators, problems = self._evaluators_of(plugin, source, required=required)
        self._providers.append(_Provider(source, scopes, evaluators, problems))
        self._registries.clear()

    def _evaluators_of(
        self, plugin: object, source: str, *, required: bool
    ) -> tuple[tuple[Evaluator, ...], tuple[str, ...]]:
        """Register ``plugin`` and call its hook, turning whatever goes wrong into problems."""
        # Unique whatever the plugin's module name: sibling conftests share one.
        name = f"{source} #{len(self._providers)}"
        try:
            self.manager.register(plugin, name)
        except pluggy.PluginValidationError:
            self.manager.unregister(name=name)
            return (), (
                f"{source}: {_signature(plugin)} takes arguments the hook does not give; "
                f"write 'def {HOOK}():' with no arguments",
            )
        except Exception as exc:
            return (), (f"{source}: cannot be registered: {_describe(exc)}",)
        unknown = sorted(
            caller.name
            for caller in self.manager.get_hookcallers(plugin) or ()
            if not caller.has_spec()
        )
        if unknown:
            self.manager.unregister(name=name)
            return (), tuple(
                f"{source}: {hook} is not a pytest-rubric hook; the hook is '{HOOK}'"
                for hook in unknown
            )
        impls = [
            impl
            for impl in self.manager.hook.rubric_evaluators.get_hookimpls()
            if impl.plugin is plugin
        ]
        if not impls:
            if callable(getattr(plugin, HOOK, None)):
                return (), (
                    f"{source}: {HOOK} is not marked as a hook; "
                    f"put '@pytest_rubric.hookimpl' on the line above 'def {HOOK}():'",
                )
            if required:
                return (), (
                    f"{source}: the module has no {HOOK} hook; point the entry point "
                    f"at the module that defines it",
                )
        evaluators: list[Evaluator] = []
        problems: list[str] = []
        for impl in impls:
            try:
                result = impl.function()
            except (Exception, SystemExit) as exc:
                problems.append(
                    f"{source}: {HOOK} raised {_describe(exc)}{_own_frames(exc, self.root)}"
                )
                continue
            found, wrong = _check_result(result, source)
            evaluators.extend(found)
            problems.extend(wrong)
        named: dict[str, Evaluator] = {}
        for evaluator in evaluators:
            if named.setdefault(evaluator.name, evaluator) is not evaluator:
                problems.append(
                    f"{source}: {HOOK} returned two evaluators named {evaluator.name!r}; "
                    "rename one of them"
                )
        return tuple(evaluators), tuple(problems)


def _check_result(result: object, source: str) -> tuple[list[Evaluator], list[str]]:
    if result is None:  # as pluggy takes None: nothing to add
        return [], []
    if isinstance(result, Evaluator):
        return [], [f"{source}: {HOOK} returned one Evaluator, not a list; write 'return [...]'"]
    if not isinstance(result, (list, tuple)):
        return [], [f"{source}: {HOOK} returned {show_object(result)}; {_EXAMPLE}"]
    evaluators: list[Evaluator] = []
    problems: list[str] = []
    for item in result:
        problem = Registry.problem_with(item)
        if problem is None:
            evaluators.append(item)
        else:
            problems.append(f"{source}: {HOOK} returned {problem}")
    return evaluators, problems


def _describe(exc: BaseException) -> str:
    try:
        message = str(exc)
    except Exception:
        message = ""
    kind = type(exc).__qualname__
    text = f"{kind}: {message}" if message else kind
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


def _own_frames(exc: BaseException, root: Path) -> str:
    """The plugin's own frames of a traceback, one line each, innermost last."""
    frames = [
        frame
        for frame in traceback.extract_tb(exc.__traceback__)
        if not os.path.abspath(frame.filename).startswith(_HIDDEN_FRAMES)
    ]
    return "".join(
        f"\n    at {relative(Path(frame.filename), root)}:{frame.lineno} in {frame.name}"
        for frame in frames
    )


def _signature(plugin: object) -> str:
    try:
        return f"'def {HOOK}{inspect.signature(getattr(plugin, HOOK))}'"
    except Exception:
        return HOOK


def _plugin_source(plugin: object) -> str:
    name = getattr(plugin, "__name__", None)
    return f"plugin {name}" if isinstance(name, str) else f"plugin {show_object(plugin)}"


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return Path(os.path.abspath(path))
