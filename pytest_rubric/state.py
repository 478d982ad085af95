"""The run's rubric state, kept in ``config.stash`` as pytest recommends."""

from __future__ import annotations

import pytest

from pytest_rubric.discovery import EvaluatorDiscovery

discovery_key = pytest.StashKey[EvaluatorDiscovery]()


def discovery_of(config: pytest.Config) -> EvaluatorDiscovery:
    """Where this run's evaluators come from (set up in ``pytest_configure``)."""
    return config.stash[discovery_key]


def wants_input_copy(config: pytest.Config) -> bool:
    """Whether records are full, keeping each case's input (only a report or a review
    page reads it)."""
    return config.option.rubric_report is not None or config.option.rubric_html is not None


def review_limit(config: pytest.Config) -> int:
    """How many rows to review each case keeps (none unless a report or page is written)."""
    if not wants_input_copy(config):
        return 0
    limit: int = config.option.rubric_review_rows
    return limit
