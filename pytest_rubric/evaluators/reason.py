"""``reason``: a bounded Boolean rubric with structured reason codes.

A record says whether an item passed and why, with reason codes from a closed
set. The rubric requires a title and a source; the record is coherent when its
pass/fail result and its reason set both equal what the field Booleans imply.
Free prose is never interpreted: an undeclared code makes the record invalid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict, cast

from pytest_rubric.core.errors import RubricConfigError, RubricInputError
from pytest_rubric.core.escapes import escape_controls
from pytest_rubric.core.jsonvalues import JSON
from pytest_rubric.core.nearest import written_for
from pytest_rubric.evaluators._common import (
    Evidence,
    describe,
    is_bool,
    js_sorted,
    not_boolean,
)

ALL_REQUIRED_MET = "all-required-met"
INVALID = "invalid-reason-input"
#: The rubric's required fields, in the order their codes are derived.
REQUIRED_FIELDS: tuple[str, ...] = ("title", "source")


#: A record :func:`_problem` found nothing wrong with.
_Valid = TypedDict("_Valid", {"fields": Mapping[str, bool], "pass": bool, "reasons": list[str]})


def evaluate_reason(record: Mapping[str, object]) -> dict[str, JSON]:
    """Check a recorded pass/fail and its reason codes against the field evidence.

    ``record`` is ``{"fields": {"title": bool, "source": bool}, "pass": bool,
    "reasons": [code, ...]}``. Returns ``{"status": "invalid-reason-input"}`` when a
    field or ``pass`` is not a real boolean, a reason is not a declared code, a code
    repeats, or the shape is broken; otherwise ``{"expectedPass": bool,
    "expectedReasons": [codes, sorted], "coherent": bool}``.

    Raises :class:`RubricInputError` only when ``record`` is not a mapping.
    """
    return evaluate_required(record, REQUIRED_FIELDS)


def evaluate_required(record: Mapping[str, object], required: Sequence[str]) -> dict[str, JSON]:
    """:func:`evaluate_reason` for any list of required fields.

    The codes are ``missing-<field>`` for each field in ``required`` and
    ``all-required-met``, with exactly the semantics of the title/source rubric.
    """
    if _problem(record, required) is not None:
        return {"status": INVALID}
    valid = cast(_Valid, record)
    expected_pass, expected_reasons = _derive(valid["fields"], required)
    codes: list[JSON] = list(expected_reasons)
    return {
        "expectedPass": expected_pass,
        "expectedReasons": codes,
        "coherent": _coherent(valid, expected_pass, expected_reasons),
    }


def judge_required(
    record: Mapping[str, object], required: Sequence[str] = REQUIRED_FIELDS
) -> tuple[dict[str, JSON], Evidence]:
    """:func:`evaluate_required`'s answer and :func:`explain_required`'s evidence, in one pass."""
    problem = _problem(record, required)
    if problem is not None:
        return {"status": INVALID}, Evidence(problem=problem)
    valid = cast(_Valid, record)
    fields = valid["fields"]
    expected_pass, expected_reasons = _derive(fields, required)
    recorded: list[JSON] = list(js_sorted(valid["reasons"]))
    rubric: list[JSON] = list(expected_reasons)
    pass_matches = valid["pass"] is expected_pass
    reasons_match = recorded == expected_reasons
    answer: dict[str, JSON] = {
        "expectedPass": expected_pass,
        "expectedReasons": rubric,
        "coherent": pass_matches and reasons_match,
    }
    evidence = Evidence(
        facts={
            "fields": {name: fields[name] for name in required},
            "missing codes": [code for code in expected_reasons if code != ALL_REQUIRED_MET],
            "pass": {"recorded": valid["pass"], "rubric": expected_pass, "match": pass_matches},
            "reasons": {
                "recorded": recorded,
                "rubric": list(rubric),
                "match": reasons_match,
            },
        }
    )
    return answer, evidence


def explain_reason(record: Mapping[str, object]) -> Evidence:
    """The evidence behind :func:`evaluate_reason`'s answer for ``record``."""
    return explain_required(record, REQUIRED_FIELDS)


def parse_required(block: Mapping[str, object]) -> tuple[str, ...]:
    """The required fields of a case file's ``rubric: {required: [...]}`` block.

    Raises :class:`RubricConfigError` naming the part of the block that is wrong.
    """
    for key in block:
        if key != "required":
            raise RubricConfigError(
                f"'{key}' is not a rubric key; the block is 'rubric: {{required: [field, ...]}}'",
                (key,),
            )
    if "required" not in block:
        raise RubricConfigError(
            "the rubric block has no 'required'; write 'rubric: {required: [title, source]}'", ()
        )
    fields = block["required"]
    if not isinstance(fields, list) or not fields:
        raise RubricConfigError(
            f"'required' must be a non-empty list of field names, not {describe(fields)}; "
            "write e.g. 'required: [title, source, author]'",
            ("required",),
        )
    seen: dict[str, int] = {}
    for index, name in enumerate(fields):
        where = ("required", index)
        if not isinstance(name, str) or not name.strip():
            raise RubricConfigError(
                f"a required field must be a non-blank name, not {describe(name)}", where
            )
        if name != name.strip():
            raise RubricConfigError(
                f"required field {name!r} has leading or trailing whitespace; write {name.strip()!r}",
                where,
            )
        if name in seen:
            raise RubricConfigError(
                f"required field {name!r} is listed twice (first as item {seen[name] + 1}); "
                "list each field once",
                where,
            )
        seen[name] = index
    # Unique names give unique ``missing-<name>`` codes, and none of them can be
    # ``all-required-met``: the codes cannot collide.
    return tuple(fields)


def explain_required(record: Mapping[str, object], required: Sequence[str]) -> Evidence:
    """The evidence behind :func:`evaluate_required`'s answer for ``record``."""
    return judge_required(record, required)[1]


def _problem(record: Mapping[str, object], required: Sequence[str]) -> str | None:
    """Why ``record`` is invalid, or ``None``; checks run in the reference's order."""
    if not isinstance(record, Mapping):
        raise RubricInputError(
            f"a reason record must be a mapping with 'fields', 'pass' and 'reasons', "
            f"not {describe(record)}"
        )
    fields = record.get("fields")
    if not isinstance(fields, Mapping):
        return _missing_or_wrong("fields", record, "a mapping of field Booleans")
    for name in required:
        if name not in fields:
            meant = written_for(name, fields, required)
            hint = "" if meant is None else f" (fields has {_shown(meant)}; did you mean {name}?)"
            return f"fields.{name} is missing{hint}; each required field needs a boolean"
        if not is_bool(fields[name]):
            return not_boolean(f"fields.{name}", fields[name])
    if "pass" not in record:
        return f"pass is missing{_written_as('pass', record)}; it must be a boolean"
    if not is_bool(record["pass"]):
        return not_boolean("pass", record["pass"])
    reasons = record.get("reasons")
    if not isinstance(reasons, list):
        return _missing_or_wrong("reasons", record, "a list of reason codes")
    allowed = declared_codes(required)
    # Unknown codes are checked before repeats, as the reference does; this also
    # means nothing unhashable ever reaches the set below.
    for index, code in enumerate(reasons):
        if not (isinstance(code, str) and code in allowed):
            return (
                f"reasons[{index}] is {describe(code)}, not a declared code ({', '.join(allowed)})"
            )
    seen: dict[str, int] = {}
    for index, code in enumerate(reasons):
        if code in seen:
            return f"reasons[{index}] repeats {code!r} (first at reasons[{seen[code]}])"
        seen[code] = index
    return None


def _missing_or_wrong(key: str, record: Mapping[str, object], wanted: str) -> str:
    if key not in record:
        return f"{key} is missing{_written_as(key, record)}; it must be {wanted}"
    return f"{key} is {describe(record[key])}, not {wanted}"


#: The keys of a reason record.
INPUT_KEYS = ("fields", "pass", "reasons")


def _written_as(key: str, record: Mapping[str, object]) -> str:
    """`` (the input has 'feilds'; did you mean fields?)`` when a key of ``record``
    that is none of :data:`INPUT_KEYS` is nearest to the missing ``key``."""
    meant = written_for(key, record, INPUT_KEYS)
    return "" if meant is None else f" (the input has {_shown(meant)}; did you mean {key}?)"


def _shown(name: str) -> str:
    return escape_controls(repr(name))


def declared_codes(required: Sequence[str]) -> tuple[str, ...]:
    """The closed code set of a required-field rubric."""
    return (*(f"missing-{name}" for name in required), ALL_REQUIRED_MET)


def _derive(fields: Mapping[str, bool], required: Sequence[str]) -> tuple[bool, list[str]]:
    codes = [f"missing-{name}" for name in required if not fields[name]]
    expected_pass = not codes
    if expected_pass:
        codes.append(ALL_REQUIRED_MET)
    return expected_pass, js_sorted(codes)


def _coherent(valid: _Valid, expected_pass: bool, expected: list[str]) -> bool:
    return valid["pass"] is expected_pass and js_sorted(valid["reasons"]) == expected
