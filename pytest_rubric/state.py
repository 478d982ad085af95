"""The run's rubric state, kept in ``config.stash`` as pytest recommends."""

from __future__ import annotations

import pytest

from pytest_rubric.discovery import EvaluatorDiscovery

discovery_key = pytest.StashKey[EvaluatorDiscovery]()


def discovery_of(config: pytest.Config) -> EvaluatorDiscovery:
    """Where this run's evaluators come from (set up in ``pytest_configure``)."""
    return config.stash[discovery_key]


def wants_input_copy(config: pytest.Config) -> bool:
    """Whether records keep each case's input (only a report reads it)."""
    return config.option.rubric_report is not None
