"""Which shard of a suite a run is, as a shard plugin says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_rubric.reports.records import ShardRecord


def shard_of(getoption: Callable[[str, Any], Any]) -> ShardRecord | None:
    """Which shard this run is, when pytest-split (``--splits N --group I``) or
    pytest-shard (``--num-shards N --shard-id I``, 0-based, so group I+1) says so."""
    splits, group = getoption("splits", None), getoption("group", None)
    if _positive(splits) and _positive(group):
        return {"plugin": "pytest-split", "group": group, "splits": splits}
    shards, shard_id = getoption("num_shards", None), getoption("shard_id", None)
    if _positive(shards) and shards > 1 and isinstance(shard_id, int) and 0 <= shard_id < shards:
        return {"plugin": "pytest-shard", "group": shard_id + 1, "splits": shards}
    return None


def _positive(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1
