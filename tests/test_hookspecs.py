"""Which plugins are taken for pytest-rubric's (``implements_a_hook``): the names only."""

from __future__ import annotations

from types import ModuleType

import pytest

from pytest_rubric.hookspecs import _names, implements_a_hook


def _module(name: str, **names: object) -> ModuleType:
    module = ModuleType(name)
    vars(module).update(names)
    return module


def test_a_module_with_a_rubric_name_is_one_and_a_module_without_is_not() -> None:
    assert implements_a_hook(_module("ours", rubric_evaluators=lambda: []))
    assert implements_a_hook(_module("misspelt", rubric_evaluator=lambda: []))
    assert not implements_a_hook(_module("theirs", pytest_configure=lambda config: None))
    assert not implements_a_hook(_module("near", my_rubric_evaluators=1, rubric=2))
    assert implements_a_hook(_module("last", a=1, zz=2, rubric_=3))


def test_a_module_that_lists_its_names_itself_is_asked_for_them() -> None:
    """PEP 562: a module's ``__dir__`` names what its ``__getattr__`` makes on demand;
    pluggy registers what ``dir()`` lists, so a hook listed only there is one."""
    lazy = _module("lazy", __dir__=lambda: ["rubric_evaluators"])
    assert implements_a_hook(lazy)


def test_an_object_is_read_through_dir_and_one_whose_dir_raises_is_not_ours() -> None:
    class Hooks:
        def rubric_evaluators(self) -> list[object]:
            return []

    class Broken:
        def __dir__(self) -> list[str]:
            raise RuntimeError("no names")

    class Inherited(Hooks):
        __slots__ = ()

    class Listed:
        def __dir__(self) -> list[str]:
            return ["rubric_evaluators"]

    class Given:
        pass

    given = Given()
    given.rubric_evaluators = lambda: []  # type: ignore[attr-defined]
    assert implements_a_hook(Hooks())
    assert implements_a_hook(Inherited())
    assert implements_a_hook(Listed())
    assert implements_a_hook(given)
    assert not implements_a_hook(Given())
    assert not implements_a_hook(object())
    assert not implements_a_hook(Broken())


def test_the_names_read_are_dirs_names_for_every_plugin_pytest_holds(
    pytestconfig: pytest.Config,
) -> None:
    plugins = [plugin for _, plugin in pytestconfig.pluginmanager.list_name_plugin()]
    for plugin in [*plugins, pytestconfig, pytestconfig.option, pytest]:
        if plugin is not None:
            assert set(_names(plugin)) == set(dir(plugin)), plugin
