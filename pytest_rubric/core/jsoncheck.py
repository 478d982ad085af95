"""Whether a value an evaluator gave back is JSON at all, and what makes it not."""

from __future__ import annotations

import math

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import MAX_DEPTH, is_plain
from pytest_rubric.core.shown import show


def json_problem(value: object, where: str = "the answer") -> str | None:
    """What makes ``value`` something other than a JSON value, or ``None``.

    JSON values are ``None``, booleans, integers, finite floats, strings, lists
    and mappings with string keys, nested at most :data:`MAX_DEPTH` levels and
    without cycles. Subclasses of those types count as those types.
    """
    try:
        if is_plain(value):  # the usual answer: say nothing, cheaply
            return None
        return _problem(value, where, MAX_DEPTH, set(), where)
    except Exception as exc:
        return f"{where} could not be read: {type(exc).__name__}"


def _problem(value: object, where: str, depth: int, open_ids: set[int], root: str) -> str | None:
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{where} is {value!r}, which JSON cannot hold"
    if isinstance(value, (dict, list)):
        if id(value) in open_ids:
            return f"{where} contains itself (a cycle)"
        if depth <= 0:
            return f"{root} nests deeper than {MAX_DEPTH} levels"
        open_ids.add(id(value))
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    return (
                        f"{where} has the key {show(key)} ({type(key).__name__}); keys are strings"
                    )
                found = _problem(item, f"{where}.{escape_controls(key)}", depth - 1, open_ids, root)
                if found is not None:
                    return found
        else:
            for index, item in enumerate(value):
                found = _problem(item, f"{where}[{index}]", depth - 1, open_ids, root)
                if found is not None:
                    return found
        open_ids.discard(id(value))
        return None
    return (
        f"{where} is a {type(value).__name__}, not a JSON value "
        "(null, boolean, number, string, list or mapping with string keys)"
    )
