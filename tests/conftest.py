from __future__ import annotations

import atexit
import importlib
import os
import pkgutil
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

from pytest_rubric.editing.decisions import CI_VARIABLES

pytest_plugins = ["pytester"]

# Where PYTHONDONTWRITEBYTECODE is set (as many CI images set it), every Python process the
# suite starts (pytester's subprocess runs, the docs' commands, pytest-xdist's workers)
# would compile pytest and this package afresh. Their bytecode goes to one temporary
# folder instead (PYTHONPYCACHEPREFIX), never beside the sources, and goes with it.
if os.environ.get("PYTHONDONTWRITEBYTECODE") and "PYTHONPYCACHEPREFIX" not in os.environ:
    _PYCACHE = tempfile.mkdtemp(prefix="rubric-tests-pycache-")
    os.environ["PYTHONPYCACHEPREFIX"] = _PYCACHE
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    atexit.register(shutil.rmtree, _PYCACHE, True)

import pytest_rubric  # noqa: E402

# pytester's in-process runs drop every module a run imported when it ends, so the
# package's lazily imported modules would be imported (and, with PYTHONDONTWRITEBYTECODE
# set, as many CI images set it, compiled) again in each of them. Imported once here, they
# stay. Parquet stays lazy: its tests import pyarrow, or hide it, themselves.
for _module in pkgutil.walk_packages(pytest_rubric.__path__, "pytest_rubric."):
    if _module.name != "pytest_rubric.inputs.parquet":
        importlib.import_module(_module.name)

# Bounded so the whole suite stays fast in CI; raise with HYPOTHESIS_PROFILE=deep.
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("deep", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def not_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that starts outside CI (our own CI sets CI=true): --rubric-update writes."""
    for name in ("CI", *CI_VARIABLES):
        monkeypatch.delenv(name, raising=False)
