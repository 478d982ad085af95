"""The plugin changes nothing that a user's other tests share: the garbage collector,
the json and yaml modules, the integer-text limit, the warnings filters."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

CASE_FILE = """\
evaluator: agreement
cases:
  - id: ledger
    input: {rows: [{id: A, a: true, b: false}]}
    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 1, bOnly: 0}, agreement: 0, total: 1, disagreements: [A]}
"""

#: The user's test of the issue that found gc.freeze(): a dropped cache must be collected.
DROPPED_CACHE = """\
import gc, weakref
class Node: pass
def _make():
    a, b = Node(), Node(); a.other, b.other = b, a
    return a
CACHE = {"tree": _make()}
REF = weakref.ref(CACHE["tree"])
def test_a_dropped_cache_is_collected():
    CACHE.clear(); gc.collect()
    assert REF() is None
"""

#: Runs after the case (test files are collected in order): what the plugin may have changed.
SHARED_STATE = """\
import _json, gc, json, json.decoder, json.encoder, json.scanner, sys, warnings
import yaml

def test_nothing_shared_was_changed():
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()
    # json's C accelerators in place, as json imported them from _json
    assert json.encoder.c_make_encoder is _json.make_encoder
    assert json.encoder.c_encode_basestring_ascii is _json.encode_basestring_ascii
    assert json.decoder.c_scanstring is _json.scanstring
    assert json.scanner.c_make_scanner is _json.make_scanner
    assert json.dumps({"a": [1, 2.5, None]}) == '{"a": [1, 2.5, null]}'
    assert json.loads('{"a": 1}') == {"a": 1}
    assert yaml.safe_load("on: yes") == {True: True}  # YAML 1.1 as PyYAML reads it
    if hasattr(sys, "get_int_max_str_digits"):
        assert sys.get_int_max_str_digits() == 4300
"""


@pytest.mark.parametrize("xdist", [False, True], ids=["serial", "xdist"])
def test_a_users_dropped_cache_is_collected_beside_case_files(
    pytester: pytest.Pytester, xdist: bool
) -> None:
    pytester.makefile(".rubric.yaml", ledger=CASE_FILE)
    pytester.makepyfile(test_cache=DROPPED_CACHE, test_shared=SHARED_STATE)
    args = ["-n", "2"] if xdist else []
    result = pytester.runpytest_subprocess("--rubric-report=report.json", *args)
    result.assert_outcomes(passed=3)


def test_a_run_leaves_the_warnings_filters_as_a_run_without_the_plugin_does(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", ledger=CASE_FILE)
    pytester.makeconftest(
        """
        import warnings

        def pytest_unconfigure(config):
            with open(config.rootpath / f"filters-{config.pluginmanager.has_plugin('rubric')}", "w") as out:
                out.write(repr(warnings.filters))
        """
    )
    pytester.runpytest_subprocess("--rubric-report=report.json").assert_outcomes(passed=1)
    pytester.runpytest_subprocess("-p", "no:rubric")
    with_plugin = (pytester.path / "filters-True").read_text()
    assert with_plugin == (pytester.path / "filters-False").read_text()
