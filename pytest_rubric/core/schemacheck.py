"""An expected answer checked against its evaluator's answer schema, without running it.

``--rubric-check`` uses this to catch an answer that cannot be right whatever the
evaluator says: a key the schema does not allow (with the key meant, when one is
near), a required key missing, a value of the wrong type or outside its ``enum`` or
``const``. It reads the part of JSON Schema (draft 2020-12) that answer schemas use,
and gives the verdict ``jsonschema`` gives on it (tests/test_schemacheck.py holds it
to that): ``type``, ``enum``, ``const``, ``minimum``, ``properties``,
``patternProperties``, ``additionalProperties``, ``required``, ``prefixItems``,
``items``, ``uniqueItems``, ``allOf``, ``anyOf``, ``oneOf`` (exactly one subschema
fits) and ``true``/``false`` as schemas; any other keyword is left to real validators
(editors, ``--rubric-schema``'s consumers). Types are JSON's: ``true`` is not an
integer, ``1.0`` is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pytest_rubric.core.compare import json_equal
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import nearest
from pytest_rubric.core.shown import describe

_WORDS = {
    "null": "null",
    "boolean": "a boolean",
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "array": "a list",
    "object": "a mapping",
}
_TYPES = {
    "null": lambda v: v is None,
    "boolean": lambda v: type(v) is bool,
    "integer": lambda v: type(v) is int or (type(v) is float and v.is_integer()),
    "number": lambda v: type(v) in (int, float),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def answer_problems(
    expected: JSON, schema: Mapping[str, JSON], whose: str, named: str = "expected"
) -> list[str]:
    """Why ``expected`` cannot be an answer ``schema`` allows (empty: it can be one);
    ``whose`` names the answers in messages (``reason's answers``), ``named`` the value."""
    return _check(expected, dict(schema), named, whose)


def subset_problems(expected: JSON, schema: Mapping[str, JSON], whose: str) -> list[str]:
    """Why ``expected`` (an ``expected_subset``) cannot be some keys of an answer ``schema``
    allows, each value whole: held to the shapes that name every key it gives (else to
    any shape, which says which key none has)."""
    named = "expected_subset"
    branches = schema.get("oneOf", schema.get("anyOf"))
    shapes = [
        shape
        for shape in (branches if isinstance(branches, list) else [schema])
        if isinstance(shape, dict)
        and isinstance(shape.get("properties"), dict)
        and isinstance(expected, dict)
        and expected.keys() <= shape["properties"].keys()
    ]
    if not shapes:
        return answer_problems(expected, subset_schema(schema), whose, named)
    found = [answer_problems(expected, subset_schema(shape), whose, named) for shape in shapes]
    return [] if [] in found else found[0]


def subset_schema(schema: Mapping[str, JSON]) -> dict[str, JSON]:
    """The schema of an ``expected_subset`` for answers ``schema`` allows: some keys of one
    answer's shape, each value whole as that shape has it (the top ``required`` dropped;
    ``oneOf`` read as ``anyOf``, as a few keys may fit several shapes)."""
    out = {key: value for key, value in schema.items() if key not in ("required", "oneOf")}
    branches = schema.get("oneOf", schema.get("anyOf"))
    if isinstance(branches, list):
        out["anyOf"] = [subset_schema(b) if isinstance(b, dict) else b for b in branches]
    return out


def _check(value: JSON, schema: JSON, path: str, whose: str) -> list[str]:
    if not isinstance(schema, dict):
        return [] if schema is not False else [f"{path} is not allowed here"]
    found: list[str] = []
    for key in ("oneOf", "anyOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            results: list[list[str]] = [_check(value, b, path, whose) for b in branches]
            fits = results.count([])
            if not fits:  # no branch fits: say what is wrong for the nearest one
                nearest_fit: list[str] = min(results, key=len)
                found.extend(nearest_fit)
            elif key == "oneOf" and fits > 1:
                found.append(
                    f"{path} is {describe(value)}, which fits {fits} of its {len(results)} "
                    f"oneOf choices; {whose} fit exactly one"
                )
    every = schema.get("allOf")
    for branch in every if isinstance(every, list) else []:
        found.extend(_check(value, branch, path, whose))
    wanted = schema.get("type")
    listed = wanted if isinstance(wanted, list) else [wanted]
    kinds = [kind for kind in listed if isinstance(kind, str)]
    if kinds and not any(_TYPES.get(kind, lambda v: True)(value) for kind in kinds):
        words = " or ".join(_WORDS.get(kind, str(kind)) for kind in kinds)
        return [*found, f"{path} is {describe(value)}, not {words}"]
    if "const" in schema and not json_equal(value, schema["const"]):
        found.append(f"{path} is {describe(value)}, not {describe(schema['const'])}")
    enum = schema.get("enum")
    if isinstance(enum, list) and not any(json_equal(value, item) for item in enum):
        allowed = ", ".join(escape_controls(str(item)) for item in enum)
        found.append(f"{path} is {describe(value)}, not one of {allowed}")
    minimum = schema.get("minimum")
    if _TYPES["number"](value) and _TYPES["number"](minimum) and value < minimum:  # type: ignore[operator]
        found.append(f"{path} is {describe(value)}, below its minimum {minimum}")
    if isinstance(value, dict):
        found.extend(_object(value, schema, path, whose))
    elif isinstance(value, list):
        # Draft 2020-12: ``prefixItems`` for the first items, ``items`` for the rest.
        prefix = schema.get("prefixItems")
        first = prefix if isinstance(prefix, list) else []
        items = schema.get("items", True)
        for index, item in enumerate(value):
            rule = first[index] if index < len(first) else items
            found.extend(_check(item, rule, f"{path}[{index}]", whose))
        if schema.get("uniqueItems") is True:
            for index, item in enumerate(value):
                if any(json_equal(item, other) for other in value[:index]):
                    found.append(f"{path}[{index}] repeats {describe(item)}")
                    break
    return found


def _matches(pattern: str, key: str) -> bool:
    """Whether ``pattern`` (a JSON Schema regular expression) finds a match in ``key``; a
    pattern Python cannot read matches nothing."""
    try:
        return re.search(pattern, key) is not None
    except (re.error, TypeError):
        return False


def _object(value: dict[str, JSON], schema: dict[str, JSON], path: str, whose: str) -> list[str]:
    found: list[str] = []
    declared = schema.get("properties")
    properties = declared if isinstance(declared, dict) else {}
    by_pattern = schema.get("patternProperties")
    patterns = by_pattern if isinstance(by_pattern, dict) else {}
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        where = f"{path}.{escape_controls(key)}"
        matched = [rule for pattern, rule in patterns.items() if _matches(pattern, key)]
        if key in properties or matched:
            if key in properties:
                found.extend(_check(item, properties[key], where, whose))
            for rule in matched:
                found.extend(_check(item, rule, where, whose))
        elif extra is False:
            meant = nearest(key, set(properties) - set(value))
            hint = f"; did you mean {meant!r}?" if meant else ""
            found.append(f"{where} is not a key of {whose}{hint}")
        else:
            found.extend(_check(item, extra, where, whose))
    required = schema.get("required")
    for name in required if isinstance(required, list) else []:
        if isinstance(name, str) and name not in value:
            found.append(f"{path} has no {escape_controls(name)}, which {whose} always have")
    return found
