"""Editor support: the shipped case-file schema and ``pytest --rubric-schema``."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pytest_rubric import evaluate_agreement, evaluate_reason
from pytest_rubric.casefiles.validate import CASE_KEYS, FILE_KEYS
from pytest_rubric.casefiles.yamlstrict import decode, load
from pytest_rubric.core.evaluator import Evaluator
from pytest_rubric.evaluators.builtin import AGREEMENT, REASON
from pytest_rubric.inputs.formats.registry import INPUT_FORMATS
from pytest_rubric.reports.schema import describe, project_schema, shipped

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "example_project"
EXAMPLE_FILES = sorted(
    path for suffix in ("*.rubric.yaml", "*.rubric.yml") for path in EXAMPLE.rglob(suffix)
)
#: Keys landing in parallel with this schema (per-case and per-file skip, xfail, marks).
BUILTIN_SCHEMA = project_schema([(REASON, "built-in"), (AGREEMENT, "built-in")])


def read_case_file(text: str) -> Any:
    """A case file's value as the strict loader reads it (YAML 1.2 scalars, no tags)."""
    return load(decode(text.encode("utf-8"))).value


#: Draft 2020-12, as the schemas say; and draft-07, which yaml-language-server implements.
DRAFTS = {"2020-12": jsonschema.Draft202012Validator, "07": jsonschema.Draft7Validator}


def problems(schema: Mapping[str, Any], document: Any, draft: str = "2020-12") -> list[str]:
    validator = DRAFTS[draft](schema)
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(document)
    ]


def readme_case_files() -> list[str]:
    """The YAML blocks of the README and the docs/ pages that are whole case files."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)
    return [block for block in blocks if "evaluator:" in block and "\ncases:" in block]


def keyed_schemas(schema: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    """Every ``properties`` entry in ``schema``, with its path."""
    if isinstance(schema, dict):
        for name, inner in schema.get("properties", {}).items():
            yield f"{where}/{name}", inner
        for key, inner in schema.items():
            if key != "properties":
                yield from keyed_schemas(inner, f"{where}/{key}")
        for name, inner in schema.get("properties", {}).items():
            yield from keyed_schemas(inner, f"{where}/{name}")
    elif isinstance(schema, list):
        for index, inner in enumerate(schema):
            yield from keyed_schemas(inner, f"{where}/{index}")


# -- the shipped schema ------------------------------------------------------------------------


def test_the_shipped_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = shipped()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_the_project_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(BUILTIN_SCHEMA)


def test_the_schema_is_package_data_so_that_installs_ship_it() -> None:
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    package_data = re.search(r"^pytest_rubric = \[(.*)\]$", pyproject, re.MULTILINE)
    assert package_data is not None
    assert '"case-file.schema.json"' in package_data.group(1)


def test_every_key_in_the_shipped_schema_has_a_description_for_editors_to_show() -> None:
    keyed = list(keyed_schemas(shipped()))
    assert len(keyed) > 15
    assert [where for where, schema in keyed if not schema.get("description")] == []


def test_the_shipped_schema_knows_exactly_the_loaders_keys() -> None:
    schema = shipped()
    assert set(schema["properties"]) == set(FILE_KEYS)
    assert set(schema["$defs"]["case"]["properties"]) == set(CASE_KEYS)
    assert schema["additionalProperties"] is False
    assert schema["$defs"]["case"]["additionalProperties"] is False


def test_the_input_file_suffixes_are_those_of_the_input_formats_table() -> None:
    pattern = shipped()["$defs"]["case"]["properties"]["input_file"]["pattern"]
    for suffix in INPUT_FORMATS:
        assert re.search(pattern, f"ledgers/week{suffix}"), suffix
    assert pattern.count("|") + 1 == len(INPUT_FORMATS)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.name)
def test_every_example_project_case_file_validates_against_the_shipped_schema(
    path: Path,
) -> None:
    assert problems(shipped(), read_case_file(path.read_text(encoding="utf-8"))) == []


def test_the_example_project_has_case_files_for_both_builtins_and_its_own_evaluator() -> None:
    evaluators = {
        read_case_file(path.read_text(encoding="utf-8"))["evaluator"] for path in EXAMPLE_FILES
    }
    assert evaluators == {"reason", "agreement", "position-swap"}


@pytest.mark.parametrize("text", readme_case_files(), ids=lambda text: text.split("\n", 1)[0])
def test_every_case_file_in_the_readme_validates_against_the_shipped_schema(text: str) -> None:
    assert problems(shipped(), read_case_file(text)) == []


VALID = """\
evaluator: reason
description: A valid base that each broken file changes in one place.
skip: not today
xfail: {reason: known bug, strict: true}
marks: [slow, nightly_2]
cases:
  - id: complete
    note: all there
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
    skip: flaky upstream
    xfail: the recorder is wrong
    marks: [slow]
  - id: from-a-file
    input_file: ledgers/record.json
    expected: {status: invalid-reason-input}
"""

BROKEN = {
    "missing-cases": (
        "cases:\n",
        "evaluator: reason\ncases: []\n",
        "'cases' is a required property",
    ),
    "misspelt-file-key": ("evaluator:", "evalutor:", "'evalutor' was unexpected"),
    "misspelt-case-key": ("    note: all", "    notes: all", "'notes' was unexpected"),
    "input-and-input-file": (
        "    input_file: ledgers/record.json\n",
        "    input_file: ledgers/record.json\n    input: {}\n",
        "is valid under each of",
    ),
    "neither-input-nor-input-file": (
        "    input_file: ledgers/record.json\n",
        "",
        "is not valid under any of the given schemas",
    ),
    "id-a-number": ("id: complete", "id: 17", "17 is not of type 'string'"),
    "id-with-colons": ("id: complete", "id: a::b", "should not be valid under"),
    "id-with-brackets": ("id: complete", "id: 'a[1]'", "does not match"),
    "id-blank": ("id: complete", "id: '  '", "does not match"),
    "unknown-input-suffix": ("record.json", "record.txt", "does not match"),
    "xfail-strict-yes": ("strict: true", 'strict: "yes"', "is not valid under any"),
    "xfail-unknown-key": ("strict: true", "strict: true, run: false", "is not valid under any"),
    "xfail-without-reason": ("{reason: known bug, strict: true}", "{strict: true}", "is not valid"),
    "blank-file-skip-reason": ("skip: not today", "skip: ''", "does not match"),
    "blank-case-skip-reason": ("skip: flaky upstream", "skip: '   '", "does not match"),
    "skip-not-text": ("skip: not today", "skip: true", "True is not of type 'string'"),
    "mark-with-arguments": ("marks: [slow]", "marks: ['slow(1)']", "does not match"),
    "marks-not-a-list": ("marks: [slow]", "marks: slow", "'slow' is not of type 'array'"),
    "expected-not-a-mapping": (
        "expected: {status: invalid-reason-input}",
        "expected: []",
        "not of type 'object'",
    ),
    "expected-missing": (
        "    expected: {status: invalid-reason-input}\n",
        "",
        "'expected' is a required",
    ),
}


@pytest.mark.parametrize("draft", DRAFTS)
def test_the_valid_base_file_validates_against_both_schemas(draft: str) -> None:
    document = read_case_file(VALID)
    assert problems(shipped(), document, draft) == []
    assert problems(BUILTIN_SCHEMA, document, draft) == []


def refs(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        if "$ref" in schema:
            yield schema
        for inner in schema.values():
            yield from refs(inner)
    elif isinstance(schema, list):
        for inner in schema:
            yield from refs(inner)


def test_no_ref_has_sibling_keywords_which_draft_07_editors_would_ignore() -> None:
    found = list(refs(BUILTIN_SCHEMA))
    assert found == [{"$ref": "#/$defs/case"}]


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("schema", [shipped(), BUILTIN_SCHEMA], ids=["shipped", "project"])
@pytest.mark.parametrize(("old", "new", "message"), BROKEN.values(), ids=BROKEN.keys())
def test_a_broken_case_file_is_rejected_with_a_message_about_its_fault(
    schema: dict[str, Any], draft: str, old: str, new: str, message: str
) -> None:
    assert VALID.count(old) == 1, "the fault must be made in exactly one place"
    text = VALID.replace(old, new)
    if old == "cases:\n":
        text = VALID.split("cases:\n", 1)[0]
    found = problems(schema, read_case_file(text), draft)
    assert found, "the broken file was accepted"
    assert any(message in problem for problem in found), found


# -- the project schema ----------------------------------------------------------------------------


def case_file(evaluator: str, expected: Any, **extra: Any) -> dict[str, Any]:
    return {
        "evaluator": evaluator,
        **extra,
        "cases": [{"id": "c", "input": {}, "expected": expected}],
    }


REASON_VALID = {"expectedPass": False, "expectedReasons": ["missing-title"], "coherent": True}
LEDGER_VALID = {
    "matrix": {"bothPass": 1, "bothFail": 0, "aOnly": 0, "bOnly": 1},
    "agreement": 1,
    "total": 2,
    "disagreements": ["r2"],
}
ANSWERS: dict[str, tuple[str, Any, dict[str, Any]]] = {
    "reason-valid": ("reason", REASON_VALID, {}),
    "reason-invalid-input": ("reason", {"status": "invalid-reason-input"}, {}),
    "reason-block-own-code": (
        "reason",
        {**REASON_VALID, "expectedReasons": ["missing-author"]},
        {"rubric": {"required": ["title", "author"]}},
    ),
    "reason-block-invalid-input": (
        "reason",
        {"status": "invalid-reason-input"},
        {"rubric": {"required": ["author"]}},
    ),
    "ledger": ("agreement", LEDGER_VALID, {}),
    "ledger-counts-written-as-floats": ("agreement", {**LEDGER_VALID, "total": 2.0}, {}),
    "ledger-empty": (
        "agreement",
        {
            **LEDGER_VALID,
            "matrix": {"bothPass": 0, "bothFail": 0, "aOnly": 0, "bOnly": 0},
            "agreement": 0,
            "total": 0,
            "disagreements": [],
        },
        {},
    ),
    "ledger-identity": ("agreement", {"error": "review-case-identity"}, {}),
    "ledger-label": ("agreement", {"error": "review-label"}, {}),
}
WRONG_ANSWERS: dict[str, tuple[str, Any, dict[str, Any]]] = {
    "reason-pass-as-text": ("reason", {**REASON_VALID, "expectedPass": "false"}, {}),
    "reason-pass-as-number": ("reason", {**REASON_VALID, "coherent": 1}, {}),
    "reason-undeclared-code": (
        "reason",
        {**REASON_VALID, "expectedReasons": ["missing-author"]},
        {},
    ),
    "reason-no-codes": ("reason", {**REASON_VALID, "expectedReasons": []}, {}),
    "reason-extra-key": ("reason", {**REASON_VALID, "why": "x"}, {}),
    "reason-missing-key": ("reason", {"expectedPass": True, "coherent": True}, {}),
    "reason-other-status": ("reason", {"status": "invalid"}, {}),
    "reason-block-code-not-text": (
        "reason",
        {**REASON_VALID, "expectedReasons": [3]},
        {"rubric": {"required": ["a"]}},
    ),
    "reason-block-pass-as-text": (
        "reason",
        {**REASON_VALID, "expectedPass": "no"},
        {"rubric": {"required": ["a"]}},
    ),
    "reason-block-other-status": ("reason", {"status": "bad"}, {"rubric": {"required": ["a"]}}),
    "ledger-negative-count": ("agreement", {**LEDGER_VALID, "total": -1}, {}),
    "ledger-count-as-text": ("agreement", {**LEDGER_VALID, "agreement": "1"}, {}),
    "ledger-cell-missing": ("agreement", {**LEDGER_VALID, "matrix": {"bothPass": 1}}, {}),
    "ledger-ids-not-text": ("agreement", {**LEDGER_VALID, "disagreements": [2]}, {}),
    "ledger-other-error": ("agreement", {"error": "review-other"}, {}),
    "reason-answer-for-agreement": ("agreement", REASON_VALID, {}),
    "agreement-takes-no-rubric-block": ("agreement", LEDGER_VALID, {"rubric": {"required": ["a"]}}),
    "unknown-evaluator": ("resaon", REASON_VALID, {}),
}


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize(("evaluator", "expected", "extra"), ANSWERS.values(), ids=ANSWERS.keys())
def test_a_valid_answer_validates_against_the_project_schema(
    evaluator: str, expected: Any, extra: dict[str, Any], draft: str
) -> None:
    assert problems(BUILTIN_SCHEMA, case_file(evaluator, expected, **extra), draft) == []


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize(
    ("evaluator", "expected", "extra"), WRONG_ANSWERS.values(), ids=WRONG_ANSWERS.keys()
)
def test_an_impossible_answer_is_rejected_by_the_project_schema_only(
    evaluator: str, expected: Any, extra: dict[str, Any], draft: str
) -> None:
    document = case_file(evaluator, expected, **extra)
    assert problems(shipped(), document, draft) == []
    assert problems(BUILTIN_SCHEMA, document, draft) != []


def test_a_configured_reason_declares_the_codes_of_its_rubric_block() -> None:
    assert REASON.configure is not None
    configured = REASON.configure({"required": ["author"]}).answer_schema
    assert configured is not None
    author = {**REASON_VALID, "expectedReasons": ["missing-author"]}
    assert problems(configured, author) == []
    assert problems(configured, REASON_VALID) != []  # missing-title is not among its codes


reason_records = st.fixed_dictionaries(
    {},
    optional={
        "fields": st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "title": st.booleans() | st.integers(),
                    "source": st.booleans(),
                    "author": st.booleans(),
                },
            ),
            st.lists(st.booleans()),
        ),
        "pass": st.booleans() | st.none(),
        "reasons": st.lists(
            st.sampled_from(
                ["missing-title", "missing-source", "missing-author", "all-required-met", "other"]
            )
            | st.integers(),
            max_size=3,
            unique=True,
        ),
    },
)
ledgers = st.fixed_dictionaries(
    {
        "rows": st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "id": st.sampled_from(["a", "b", " ", "c"]) | st.integers(),
                    "a": st.booleans() | st.none(),
                    "b": st.booleans(),
                },
            )
            | st.integers(),
            max_size=6,
        )
    }
)


@given(reason_records)
def test_every_answer_of_reason_matches_its_declared_answer_schema(record: dict[str, Any]) -> None:
    assert REASON.answer_schema is not None
    assert problems(REASON.answer_schema, evaluate_reason(record)) == []


@example({"fields": {"author": False}, "pass": True, "reasons": []}, ["author"])
@given(
    reason_records,
    st.lists(st.sampled_from(["title", "source", "author"]), min_size=1, unique=True),
)
def test_every_answer_of_a_configured_reason_validates_in_a_file_with_its_block(
    record: dict[str, Any], required: list[str]
) -> None:
    assert REASON.configure is not None
    block: dict[str, Any] = {"required": required}
    answer = REASON.configure(block).evaluate(record)
    document = case_file("reason", answer, rubric={"required": required})
    assert problems(BUILTIN_SCHEMA, document) == []


@given(ledgers)
def test_every_answer_of_agreement_matches_its_declared_answer_schema(
    ledger: dict[str, Any],
) -> None:
    assert AGREEMENT.answer_schema is not None
    assert problems(AGREEMENT.answer_schema, evaluate_agreement(ledger)) == []


def test_the_line_that_says_what_was_written_escapes_control_characters() -> None:
    odd = Evaluator("bell\x07", "d", len)
    line = describe([(odd, "conftest.py")], "out\x1b[31m.json")
    assert line == (
        "wrote out\\x1b[31m.json: case files for 1 evaluator (bell\\x07); answers checked for none"
    )


def test_one_name_registered_by_two_conftests_allows_the_answers_of_either() -> None:
    one = Evaluator("twin", "one", len, answer_schema={"required": ["a"]})
    other = Evaluator("twin", "other", len, answer_schema={"required": ["b"]})
    schema = project_schema([(one, "x/conftest.py"), (other, "y/conftest.py")])
    assert problems(schema, case_file("twin", {"a": 1})) == []
    assert problems(schema, case_file("twin", {"b": 1})) == []
    assert problems(schema, case_file("twin", {"c": 1})) != []


# -- pytest --rubric-schema --------------------------------------------------------------------------

CONFTEST = """\
from pytest_rubric import Evaluator, hookimpl


@hookimpl
def rubric_evaluators():
    return [
        Evaluator(
            name="word-limit",
            description="Is the text within its word limit?",
            evaluate=lambda record: {"within": len(record["text"].split()) <= record["limit"]},
            answer_schema={
                "type": "object",
                "required": ["within"],
                "additionalProperties": False,
                "properties": {"within": {"type": "boolean"}},
            },
        ),
        Evaluator(name="free-form", description="Answers anything.", evaluate=dict),
    ]
"""


def write_schema(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict[str, Any]]:
    result = pytester.runpytest("--rubric-schema=out/project.schema.json", *args)
    assert result.ret == pytest.ExitCode.OK, result.stderr.str()
    schema: dict[str, Any] = json.loads(
        (pytester.path / "out/project.schema.json").read_text("utf-8")
    )
    jsonschema.Draft202012Validator.check_schema(schema)
    return result, schema


def test_rubric_schema_includes_conftest_evaluators_with_and_without_an_answer_schema(
    pytester: pytest.Pytester,
) -> None:
    pytester.mkdir("sub").joinpath("conftest.py").write_text(CONFTEST, encoding="utf-8")
    pytester.makefile(".rubric.yaml", **{"sub/words": "evaluator: word-limit\ncases: []\n"})
    result, schema = write_schema(pytester)
    result.stdout.fnmatch_lines(
        [
            "*- rubric schema -*",
            "wrote out/project.schema.json: case files for 4 evaluators "
            "(agreement, free-form, reason, word-limit); "
            "answers checked for agreement, reason, word-limit",
        ],
        consecutive=True,
    )
    assert schema["properties"]["evaluator"]["enum"] == [
        "agreement",
        "free-form",
        "reason",
        "word-limit",
    ]
    assert "sub/conftest.py" in schema["properties"]["evaluator"]["description"]
    assert problems(schema, case_file("word-limit", {"within": True})) == []
    assert problems(schema, case_file("word-limit", {"within": "yes"})) != []
    assert problems(schema, case_file("word-limit", {"within": True, "words": 3})) != []
    assert problems(schema, case_file("free-form", {"anything": ["at", 1]})) == []
    assert problems(schema, case_file("free-form", {}, rubric={"x": 1})) != []  # no configure


def test_rubric_schema_writes_without_running_a_case(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        wrong="evaluator: reason\ncases:\n  - id: x\n    input: {}\n    expected: {status: nope}\n",
    )
    result, schema = write_schema(pytester)
    result.stdout.fnmatch_lines(["*collected 1 item*", "*no tests ran*"])
    assert problems(schema, read_case_file((pytester.path / "wrong.rubric.yaml").read_text())) != []
    assert [path.name for path in (pytester.path / "out").iterdir()] == ["project.schema.json"]


def test_every_example_project_case_file_validates_against_its_project_schema(
    pytester: pytest.Pytester,
) -> None:
    shutil.copytree(
        EXAMPLE, pytester.path, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".pytest_cache")
    )
    result, schema = write_schema(pytester)
    result.stdout.fnmatch_lines(
        ["*(agreement, position-swap, reason); answers checked for agreement, reason"]
    )
    found = {
        path.name: problems(schema, read_case_file(path.read_text(encoding="utf-8")))
        for suffix in ("*.rubric.yaml", "*.rubric.yml")
        for path in pytester.path.rglob(suffix)
    }
    assert len(found) == len(EXAMPLE_FILES)
    assert found == {name: [] for name in found}


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("", "*give a file name, e.g. --rubric-schema=.rubric-schema.json*"),
        (".", "*. is a directory; give a file name, e.g. .rubric-schema.json*"),
    ],
    ids=["blank", "a-directory"],
)
def test_an_unwritable_schema_path_is_a_usage_error(
    pytester: pytest.Pytester, path: str, message: str
) -> None:
    result = pytester.runpytest(f"--rubric-schema={path}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_an_answer_schema_that_is_not_json_is_a_registration_problem_naming_the_evaluator(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "from pytest_rubric import Evaluator, hookimpl\n\n\n"
        "@hookimpl\n"
        "def rubric_evaluators():\n"
        "    return [Evaluator('odd', 'd', dict, answer_schema={'enum': {1, 2}})]\n"
    )
    result = pytester.runpytest("--rubric-schema=schema.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: conftest.py: *evaluator 'odd' with an answer_schema that is not JSON: "
            "answer_schema.enum is a set, not a JSON value*"
        ]
    )
    assert not (pytester.path / "schema.json").exists()


def test_an_answer_schema_that_is_not_a_mapping_is_a_registration_problem(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        "from pytest_rubric import Evaluator, hookimpl\n\n\n"
        "@hookimpl\n"
        "def rubric_evaluators():\n"
        "    return [Evaluator('odd', 'd', dict, answer_schema='boolean')]\n"
    )
    result = pytester.runpytest("--rubric-schema=schema.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: conftest.py: rubric_evaluators returned evaluator 'odd' with answer_schema='boolean'*"
        ]
    )


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ("nested(5000)", "answer_schema nests deeper than 200 levels"),
        ("nested(300)", "answer_schema nests deeper than 200 levels"),
        ("{'type': 'number', 'maximum': float('nan')}", "answer_schema.maximum is nan"),
        ("{'type': 'number', 'minimum': float('-inf')}", "answer_schema.minimum is -inf"),
        ("{'description': '\\ud800'}", "answer_schema holds text UTF-8 cannot write"),
        ("{'maxProperties': 10**5000}", "answer_schema holds text UTF-8 cannot write*too long"),
    ],
    ids=["5000-levels", "300-levels", "nan", "infinity", "lone-surrogate", "long-integer"],
)
@pytest.mark.parametrize("configure", [False, True], ids=["plain", "configure"])
def test_an_answer_schema_json_cannot_hold_is_a_registration_problem_naming_the_evaluator(
    pytester: pytest.Pytester, schema: str, words: str, configure: bool
) -> None:
    pytester.makeconftest(
        "from pytest_rubric import Evaluator, hookimpl\n\n\n"
        "def nested(levels):\n"
        "    schema = {'type': 'object'}\n"
        "    for _ in range(levels):\n"
        "        schema = {'anyOf': [schema]}\n"
        "    return schema\n\n\n"
        "@hookimpl\n"
        "def rubric_evaluators():\n"
        f"    configure = (lambda block: None) if {configure} else None\n"
        f"    return [Evaluator(name='deep', description='d', evaluate=dict, configure=configure, answer_schema={schema})]\n"
    )
    pytester.makefile(".rubric.yaml", deep="evaluator: deep\ncases: []\n")
    result = pytester.runpytest("--rubric-schema=schema.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"*evaluator 'deep' with an answer_schema that is not JSON: {words}*"]
    )
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert not (pytester.path / "schema.json").exists()


@pytest.mark.parametrize("case_id", ["3", "true", "1.5"])
def test_a_case_id_that_is_not_text_gets_one_error_saying_it_must_be_text(case_id: str) -> None:
    document = read_case_file(
        f"evaluator: reason\ncases:\n  - id: {case_id}\n    input: {{}}\n"
        "    expected: {status: invalid-reason-input}\n"
    )
    for schema in (shipped(), BUILTIN_SCHEMA):
        # One error, of type: no "matches a schema that is not allowed" from the id's rules
        # for text, which editors show when a rule meant for text meets a number.
        found = problems(schema, document)
        assert len(found) == 1, found
        assert "is not of type 'string'" in found[0]
    message = shipped()["$defs"]["case"]["properties"]["id"]["errorMessage"]
    assert message.startswith("The case id must be text")
