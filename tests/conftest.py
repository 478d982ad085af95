from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from pytest_rubric.editing.decisions import CI_VARIABLES

pytest_plugins = ["pytester"]

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
