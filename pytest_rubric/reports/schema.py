"""JSON Schemas for case files, for editors: the shipped one, and one for a project.

``case-file.schema.json`` (shipped in the package) describes the case-file
format. :func:`project_schema` adds what only a project knows: the names of its
registered evaluators, and for each the shape of its answers, applied to every
case's ``expected``. Both approximate the strict loader, which has the last word.
This module does not import pytest.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.evaluator import Evaluator
from pytest_rubric.core.schemacheck import subset_schema

SCHEMA_FILE = "case-file.schema.json"

#: A JSON Schema, or ``True`` (anything) or ``False`` (nothing).
Schema = dict[str, Any] | bool


class AnswerSchemaError(ValueError):
    """An evaluator's declared answer schema cannot be written as JSON."""


def shipped() -> dict[str, Any]:
    """The case-file schema as shipped in the package (a fresh copy)."""
    text = resources.files("pytest_rubric").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def project_schema(entries: Iterable[tuple[Evaluator, str]]) -> dict[str, Any]:
    """The shipped schema narrowed to a project's evaluators, given with their sources.

    ``evaluator`` must be one of their names; each case's ``expected`` must match
    the answer schema its evaluator declares (unconstrained when it declares
    none). A name registered twice (by conftests of different folders) allows the
    answers of either. Raises :class:`AnswerSchemaError` for an answer schema
    that is not JSON.
    """
    by_name: dict[str, list[tuple[Evaluator, str]]] = {}
    for evaluator, source in entries:
        by_name.setdefault(evaluator.name, []).append((evaluator, source))
    schema = shipped()
    schema["title"] = "pytest-rubric case file (this project's evaluators)"
    evaluator_key = schema["properties"]["evaluator"]
    evaluator_key["enum"] = sorted(by_name)
    evaluator_key["description"] = "A registered evaluator: " + "; ".join(
        f"{name} ({', '.join(source for _, source in found)}): "
        f"{' / '.join(evaluator.description for evaluator, _ in found)}"
        for name, found in sorted(by_name.items())
    )
    rules = [
        rule
        for name, found in sorted(by_name.items())
        if (rule := _rule(name, [evaluator for evaluator, _ in found])) is not None
    ]
    if rules:
        schema["allOf"] = rules
    return schema


def describe(entries: Iterable[tuple[Evaluator, str]], path: str) -> str:
    """One line for the terminal: what the project schema written to ``path`` covers."""
    found = list(entries)
    names = sorted({evaluator.name for evaluator, _ in found})
    checked = [
        name
        for name in names
        if all(e.answer_schema is not None for e, _ in found if e.name == name)
    ]
    plural = "" if len(names) == 1 else "s"
    return escape_controls(  # names come from plugins, the path from the command line
        f"wrote {path}: case files for {len(names)} evaluator{plural} ({', '.join(names)}); "
        f"answers checked for {', '.join(checked) or 'none'}"
    )


def _rule(name: str, evaluators: Sequence[Evaluator]) -> dict[str, Any] | None:
    """``if evaluator is name then ...``: its answers, and whether it takes a rubric block."""
    plain = _any_of([_declared(evaluator) for evaluator in evaluators])
    with_block = _any_of(
        [
            widened(_declared(evaluator)) if evaluator.configure else False
            for evaluator in evaluators
        ]
    )
    then: dict[str, Any] = {}
    if with_block is False:
        # No configure step: a rubric block fails the file, so the editor says so too.
        then["properties"] = {"rubric": False}
        if plain is not True:
            then["properties"]["cases"] = _expected(plain)
    elif plain == with_block:
        if plain is not True:
            then["properties"] = {"cases": _expected(plain)}
    else:
        # A schema cannot see what the block configures: files with one get
        # the answer schema with its codes widened (see Evaluator.answer_schema).
        then["if"] = {"required": ["rubric"]}
        then["then"] = {"properties": {"cases": _expected(with_block)}}
        then["else"] = {"properties": {"cases": _expected(plain)}}
    if not then:
        return None
    return {
        "if": {"properties": {"evaluator": {"const": name}}, "required": ["evaluator"]},
        "then": then,
    }


def _declared(evaluator: Evaluator) -> Schema:
    """The evaluator's answer schema as plain JSON, or ``True`` when it declares none."""
    if evaluator.answer_schema is None:
        return True
    try:
        loaded: dict[str, Any] = json.loads(json.dumps(evaluator.answer_schema, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as exc:
        raise AnswerSchemaError(
            f"evaluator {evaluator.name!r} declares an answer_schema that is not JSON ({exc}); "
            "write it with dicts, lists, strings, numbers, booleans and None only"
        ) from None
    return loaded


def _any_of(schemas: Sequence[Schema]) -> Schema:
    """A schema matching what any of ``schemas`` matches, written as simply as it can be."""
    if any(schema is True for schema in schemas):
        return True
    kept = [schema for schema in schemas if schema is not False]
    unique = [schema for index, schema in enumerate(kept) if schema not in kept[:index]]
    if not unique:
        return False
    return unique[0] if len(unique) == 1 else {"anyOf": unique}


def widened(schema: Schema) -> Schema:
    """``schema`` with every ``enum`` of strings widened to any string."""
    if isinstance(schema, bool):
        return schema
    widened: dict[str, Any] = _widen(copy.deepcopy(schema))
    return widened


#: Keywords whose value is a schema, or a list of schemas.
_SUBSCHEMA = frozenset(
    [
        "items",
        "prefixItems",
        "contains",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
    ]
)
#: Keywords whose value maps names to schemas.
_SCHEMA_MAPS = frozenset(("properties", "patternProperties", "$defs", "dependentSchemas"))


def _widen(value: Any) -> Any:
    """Widen string ``enum``s in place, walking only into subschemas (never into data)."""
    if not isinstance(value, dict):
        return value
    enum = value.get("enum")
    if isinstance(enum, list) and enum and all(isinstance(item, str) for item in enum):
        del value["enum"]
        value["type"] = "string"
    for key, inner in value.items():
        if key in _SUBSCHEMA:
            value[key] = (
                [_widen(item) for item in inner] if isinstance(inner, list) else _widen(inner)
            )
        elif key in _SCHEMA_MAPS and isinstance(inner, dict):
            value[key] = {name: _widen(item) for name, item in inner.items()}
    return value


def _expected(answer: Schema) -> dict[str, Any]:
    """The ``cases`` constraint that holds each case's ``expected`` to ``answer``, and
    its ``expected_subset`` to some keys of it (:func:`subset_schema`)."""
    subset: Schema = answer if isinstance(answer, bool) else subset_schema(answer)
    return {"items": {"properties": {"expected": answer, "expected_subset": subset}}}
