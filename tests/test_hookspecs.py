"""Which plugins are taken for pytest-rubric's (``implements_a_hook``): the names only."""

from __future__ import annotations

from types import ModuleType

from pytest_rubric.hookspecs import implements_a_hook


def _module(name: str, **names: object) -> ModuleType:
    module = ModuleType(name)
    vars(module).update(names)
    return module


def test_a_module_with_a_rubric_name_is_one_and_a_module_without_is_not() -> None:
    assert implements_a_hook(_module("ours", rubric_evaluators=lambda: []))
    assert implements_a_hook(_module("misspelt", rubric_evaluator=lambda: []))
    assert not implements_a_hook(_module("theirs", pytest_configure=lambda config: None))


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

    assert implements_a_hook(Hooks())
    assert not implements_a_hook(object())
    assert not implements_a_hook(Broken())
