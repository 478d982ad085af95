from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

pytest_plugins = ["pytester"]

# Bounded so the whole suite stays fast in CI; raise with HYPOTHESIS_PROFILE=deep.
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("deep", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
