"""The run's rubric state, kept in ``config.stash`` as pytest recommends."""

from __future__ import annotations

import contextlib
import sys
from importlib import metadata
from typing import TYPE_CHECKING

import pytest

from pytest_rubric.hookspecs import ENTRY_POINT_GROUP, implements_a_hook

if TYPE_CHECKING:
    from pytest_rubric.casefiles.cache import CaseCache
    from pytest_rubric.editing.writable import CaseFileReads
    from pytest_rubric.evaluators.discovery import EvaluatorDiscovery
    from pytest_rubric.inputs.panelheld import PanelReads


class PluginFeed:
    """Offers every plugin pytest registers (conftests too) to the evaluator hooks.

    The discovery of evaluators (its plugin manager, the built-in evaluators, the
    entry-point modules) is made when first asked for. Only then is this feed
    registered with pytest: ``pytest_plugin_registered`` is a historic hook, so it is
    handed every plugin registered so far, in their order, and each one registered
    after. A run that collects no case file and has no plugin implementing a
    ``rubric_*`` hook never makes the discovery, nor registers anything for it.
    """

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._discovery: EvaluatorDiscovery | None = None

    def pytest_plugin_registered(self, plugin: object) -> None:
        if self._discovery is not None:
            self._discovery.offer(plugin)

    def needed(self) -> bool:
        """Whether a plugin registered so far, or an installed package, implements a
        hook (whose problems stop the run before collection)."""
        plugins = self.config.pluginmanager.list_name_plugin()
        return (
            any(plugin is not None and implements_a_hook(plugin) for _name, plugin in plugins)
            or _entry_points_may_exist()
        )

    def discovery(self) -> EvaluatorDiscovery:
        if self._discovery is None:
            from pytest_rubric.evaluators.discovery import EvaluatorDiscovery

            self._discovery = EvaluatorDiscovery(self.config.rootpath)
            self.config.pluginmanager.register(self, "rubric-plugin-feed")
        return self._discovery


def _entry_points_may_exist() -> bool:
    """Whether an installed distribution may declare the entry-point group: a look at the
    raw text of each ``entry_points.txt``, without parsing any of them.
    ``importlib.metadata`` reads a group from a line that starts with ``[`` once stripped
    and names it once its brackets are stripped, so every such line holds ``[`` and the
    name. A false alarm only costs the full look (:class:`EvaluatorDiscovery` does it)."""
    header = f"[{ENTRY_POINT_GROUP}"
    try:
        for dist in metadata.distributions():
            text = dist.read_text("entry_points.txt")
            if text and header in text:
                return True
    except Exception:  # whatever the full look would meet, let it meet it
        return True
    return False


feed_key = pytest.StashKey[PluginFeed]()


def discovery_of(config: pytest.Config) -> EvaluatorDiscovery:
    """Where this run's evaluators come from (made when first needed)."""
    return config.stash[feed_key].discovery()


_case_cache_key = pytest.StashKey["CaseCache | None"]()


def case_cache_of(config: pytest.Config) -> CaseCache | None:
    """Where this run keeps loaded case files between runs: in pytest's cache folder,
    made when the first case file is collected; ``None`` when pytest's cache is off
    (``-p no:cacheprovider``) or its folder cannot be made."""
    if _case_cache_key not in config.stash:
        cache = getattr(config, "cache", None)
        case_cache = None
        if cache is not None:
            from pytest_rubric.casefiles.cache import CaseCache

            # A read-only checkout: every file is parsed, as without a cache.
            with contextlib.suppress(OSError):
                case_cache = CaseCache(cache.mkdir("rubric-cases"))
        config.stash[_case_cache_key] = case_cache
    return config.stash[_case_cache_key]


_panel_reads_key = pytest.StashKey["PanelReads"]()


def panel_reads_of(config: pytest.Config) -> PanelReads:
    """The panels this process reads once for all their pairs (one held at a time)."""
    if _panel_reads_key not in config.stash:
        from pytest_rubric.inputs.panelheld import PanelReads

        config.stash[_panel_reads_key] = PanelReads(review_limit(config))
    return config.stash[_panel_reads_key]


_update_reads_key = pytest.StashKey["CaseFileReads"]()


def update_reads_of(config: pytest.Config) -> CaseFileReads:
    """The case files this process has read to check ``--rubric-update``'s writes."""
    if _update_reads_key not in config.stash:
        from pytest_rubric.editing.writable import CaseFileReads

        config.stash[_update_reads_key] = CaseFileReads()
    return config.stash[_update_reads_key]


def wants_full_records(config: pytest.Config) -> bool:
    """Whether records are full, with each case's input, expected answer, answer and
    evidence (only a report, a review page, the Markdown or a comparison with a baseline
    reads them)."""
    option = config.option
    return (
        option.rubric_report is not None
        or option.rubric_html is not None
        or option.rubric_baseline is not None
        or option.rubric_markdown is not None
    )


def review_limit(config: pytest.Config) -> int | None:
    """How many rows to review each case keeps, the rest counted; ``None`` (no review pass)
    unless a report or page is written or a baseline compared."""
    if not wants_full_records(config):
        return None
    limit: int = config.option.rubric_review_rows
    return limit


def rubric_item_type() -> type[pytest.Item] | None:
    """The class of rubric cases, if any can exist: not before the first case file is
    collected, which imports :mod:`pytest_rubric.plugin.items` (until then, nothing is asked)."""
    module = sys.modules.get("pytest_rubric.plugin.items")
    kind: type[pytest.Item] | None = None if module is None else module.RubricItem
    return kind
