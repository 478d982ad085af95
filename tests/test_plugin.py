"""The plugin as users meet it: case files collected, run and reported by pytest."""

from __future__ import annotations

from pathlib import Path

import pytest

REASON_FILE = """\
evaluator: reason
cases:
  - id: contradictory-reason
    input:
      fields: {title: false, source: true}
      pass: false
      reasons: [all-required-met]
    expected:
      expectedPass: false
      expectedReasons: [missing-title]
      coherent: false
  - id: two-missing-reasons
    input:
      fields: {title: false, source: false}
      pass: false
      reasons: [missing-source, missing-title]
    expected: {expectedPass: false, expectedReasons: [missing-source, missing-title], coherent: true}
"""

AGREEMENT_FILE = """\
evaluator: agreement
cases:
  - {"id": "opposite-disagreements", "input": {"rows": [{"id": "A", "a": true, "b": false}, {"id": "B", "a": false, "b": true}]}, "expected": {"matrix": {"bothPass": 0, "bothFail": 0, "aOnly": 1, "bOnly": 1}, "agreement": 0, "total": 2, "disagreements": ["A", "B"]}}
  - id: wrong-total
    input:
      rows:
        - {id: A, a: true, b: false}
        - {id: B, a: true, b: true}
    expected:
      matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 0}
      agreement: 1
      total: 3
      disagreements: [A]
"""


def test_each_case_is_an_item_with_its_id_in_the_node_id(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", seeds=REASON_FILE)
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    result = pytester.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(
        [
            "ledger.rubric.yml::opposite-disagreements",
            "ledger.rubric.yml::wrong-total",
            "seeds.rubric.yaml::contradictory-reason",
            "seeds.rubric.yaml::two-missing-reasons",
        ],
        consecutive=True,
    )
    assert result.ret == pytest.ExitCode.OK


def test_matching_cases_pass_and_verbose_output_shows_their_ids(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", seeds=REASON_FILE)
    result = pytester.runpytest("-v")
    result.stdout.fnmatch_lines(
        [
            "seeds.rubric.yaml::contradictory-reason PASSED*",
            "seeds.rubric.yaml::two-missing-reasons PASSED*",
        ]
    )
    result.assert_outcomes(passed=2)


def test_dash_k_selects_a_case_by_its_id(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", seeds=REASON_FILE)
    result = pytester.runpytest("-v", "-k", "two-missing-reasons")
    result.stdout.fnmatch_lines(["seeds.rubric.yaml::two-missing-reasons PASSED*"])
    result.assert_outcomes(passed=1, deselected=1)


def test_a_node_id_on_the_command_line_runs_that_case(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    result = pytester.runpytest("ledger.rubric.yml::opposite-disagreements")
    result.assert_outcomes(passed=1)


def test_a_mismatch_names_case_line_keys_and_evidence_without_a_traceback(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ [[]rubric[]] wrong-total _*",
            "ledger.rubric.yml:4: 'wrong-total' (agreement) differs from expected in total",
            "  total  expected 3",
            "         actual   2",
            "evidence:",
            '  matrix: {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0}',
            '  agreement: "1/2"',
            '  disagreements: ["A"]',
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(
        ["FAILED ledger.rubric.yml::wrong-total - 'wrong-total' (agreement) differs*"]
    )
    result.stdout.no_fnmatch_line("*Traceback*")
    assert "pytest_rubric" not in result.stdout.str()
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_a_reason_mismatch_shows_fields_codes_result_and_reasons(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        r="""\
evaluator: reason
cases:
  - id: recorded-pass-is-wrong
    input: {fields: {title: true, source: false}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
""",
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "r.rubric.yaml:3: 'recorded-pass-is-wrong' (reason) differs from expected in "
            "expectedPass, expectedReasons, coherent",
            "  expectedPass     expected true",
            "                   actual   false",
            '  expectedReasons  expected ["all-required-met"]',
            '                   actual   ["missing-source"]',
            "  coherent         expected true",
            "                   actual   false",
            "evidence:",
            '  fields: {"title": true, "source": false}',
            '  missing codes: ["missing-source"]',
            '  pass: {"recorded": true, "rubric": false, "match": false}',
            '  reasons: {"recorded": ["all-required-met"], "rubric": ["missing-source"], "match": false}',
        ],
        consecutive=True,
    )


def test_an_invalid_answer_shows_which_key_and_value_made_it_invalid(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        r="""\
evaluator: agreement
cases:
  - id: quoted-label
    input: {rows: [{id: A, a: true, b: true}, {id: B, a: "true", b: false}]}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 0}, agreement: 1, total: 2, disagreements: [B]}
""",
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "r.rubric.yaml:3: 'quoted-label' (agreement) differs from expected in "
            "matrix, agreement, total, disagreements, error",
            '  matrix         expected {"bothPass": 1, "bothFail": 0, "aOnly": 1, "bOnly": 0}',
            "                 actual   (absent)",
            "*",
            "*",
            "*",
            "*",
            "*",
            "*",
            "  error          expected (absent)",
            '                 actual   "review-label"',
            "evidence:",
            "  invalid input: rows[1].a (id 'B') is \"true\" (a string), not a boolean; "
            "write true without quotes",
        ],
        consecutive=True,
    )


def test_true_is_not_1_in_an_expected_answer(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        r="""\
evaluator: reason
cases:
  - id: one-for-true
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: 1, expectedReasons: [all-required-met], coherent: "true"}
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "  expectedPass  expected 1",
            "                actual   true  (expected is 1 (a number); write true, not 1)",
            '  coherent      expected "true"',
            '                actual   true  (expected is "true" (a string); write true without quotes)',
        ],
        consecutive=True,
    )


def test_a_problem_in_one_case_fails_only_that_case(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        r="""\
evaluator: reason
cases:
  - id: good
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
  - id: typo
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expect: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
  - id: input-not-mapping
    input: [1, 2]
    expected: {status: invalid-reason-input}
  - id: also-good
    input: {fields: {title: true, source: false}, pass: false, reasons: [missing-source]}
    expected: {expectedPass: false, expectedReasons: [missing-source], coherent: true}
""",
    )
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "r.rubric.yaml:6: 'typo' cannot be evaluated",
            "  r.rubric.yaml:8:5: 'expect' is not a case key; did you mean 'expected'?",
            "  r.rubric.yaml:6:5: the case has no 'expected'; add 'expected:' with the exact "
            "expected answer as a mapping, or run 'pytest --rubric-update=new' to write the "
            "evaluator's answer there",
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(
        [
            "r.rubric.yaml:9: 'input-not-mapping' cannot be evaluated",
            "  r.rubric.yaml:10:12: 'input' must be a mapping (the evaluator's input), not [[]1, 2[]] (a list); "
            "write 'input:' followed by indented keys, or {...}",
        ],
        consecutive=True,
    )


def test_a_ledger_that_is_not_a_ledger_fails_its_case_with_the_reason(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        r="""\
evaluator: agreement
cases:
  - id: rows-is-a-mapping
    input: {rows: {id: A, a: true, b: true}}
    expected: {error: review-case-identity}
  - id: fine
    input: {rows: []}
    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 0, total: 0, disagreements: []}
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "r.rubric.yaml:3: 'rows-is-a-mapping' cannot be evaluated",
            "  the input is not usable: an agreement ledger's 'rows' must be a list of "
            "{id, a, b} mappings, not {*} (a mapping)",
        ],
        consecutive=True,
    )


def test_an_unknown_evaluator_is_a_collection_error_with_a_suggestion(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", r="evaluator: resaon\ncases: []\n")
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR collecting r.rubric.yaml _*",
            "r.rubric.yaml:1:12: unknown evaluator 'resaon'; did you mean 'reason'? "
            "registered: agreement, reason",
        ],
        consecutive=True,
    )
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.no_fnmatch_line("*Traceback*")


def test_a_broken_file_does_not_stop_other_files(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", broken="evaluator: reason\ncases: [\n", good=REASON_FILE)
    result = pytester.runpytest("--continue-on-collection-errors")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["broken.rubric.yaml:3:1: invalid YAML: *"])


def test_an_empty_cases_list_collects_nothing(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", r="evaluator: reason\ncases: []\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_last_failed_reruns_only_the_mismatching_case(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    pytester.runpytest().assert_outcomes(passed=1, failed=1)
    result = pytester.runpytest("--lf", "-v")
    result.stdout.fnmatch_lines(
        [
            "run-last-failure: rerun previous 1 failure*",
            "*",
            "ledger.rubric.yml::wrong-total FAILED*",
        ]
    )
    result.assert_outcomes(failed=1)


def test_deselect_skips_a_case(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    result = pytester.runpytest("--deselect", "ledger.rubric.yml::wrong-total")
    result.assert_outcomes(passed=1, deselected=1)


def test_the_plugin_is_the_entry_point_named_rubric_and_can_be_disabled(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", seeds=REASON_FILE)
    result = pytester.runpytest_subprocess("-p", "no:rubric")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


LOADED_PROBE = """
import sys


def pytest_sessionfinish(session):
    ours = sorted(name for name in sys.modules if name.split(".")[0] in ("pytest_rubric", "yaml", "_yaml"))
    sys.stdout.write("\\nloaded: " + " ".join(ours) + "\\n")
"""
#: All a run imports of pytest-rubric until a case file is collected: its options, a
#: look at file suffixes, and hooks that return at once. No yaml, loader, evaluator,
#: evaluator discovery, report or summary.
UNUSED_PLUGIN = (
    "pytest_rubric pytest_rubric.casefiles pytest_rubric.casefiles.suffixes "
    "pytest_rubric.hookspecs pytest_rubric.plugin pytest_rubric.plugin.options "
    "pytest_rubric.plugin.state"
)


def test_a_run_of_plain_test_modules_imports_nothing_more_of_the_plugin(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(LOADED_PROBE)
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    pytester.makefile(".yaml", config="evaluator: reason\ncases: []\n")
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"loaded: {UNUSED_PLUGIN}"])


@pytest.mark.parametrize(
    "update", [(), ("--rubric-update=all", "--rubric-update-in-ci")], ids=["plain", "update"]
)
def test_only_an_update_run_imports_the_editing_room(
    pytester: pytest.Pytester, update: tuple[str, ...]
) -> None:
    """A case's run (CaseRun) is made in every run; what becomes of its answer, and the text
    surgery that writes it, only in a run that writes answers."""
    pytester.makeconftest(LOADED_PROBE)
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    result = pytester.runpytest_subprocess(
        "-s", "-p", "no:cacheprovider", "--rubric-report=r.json", *update
    )
    (loaded,) = [line for line in result.stdout.lines if line.startswith("loaded: ")]
    editing = [name for name in loaded.split() if name.startswith("pytest_rubric.editing")]
    assert bool(editing) == bool(update), editing


REGISTERED_PROBE = """
import sys


def pytest_sessionfinish(session):
    names = [name for name, _ in session.config.pluginmanager.list_name_plugin()]
    ours = sorted(name for name in names if name.startswith("rubric"))
    sys.stdout.write("\\nregistered: " + " ".join(ours) + "\\n")
"""


@pytest.mark.parametrize("dist", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_a_run_of_plain_tests_registers_no_hook_that_runs_for_each_test(
    pytester: pytest.Pytester, dist: tuple[str, ...]
) -> None:
    pytester.makeconftest(REGISTERED_PROBE)
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider", *dist)
    result.assert_outcomes(passed=1)
    # The entry point only: no per-test reader, no once-a-session hooks (they have no work
    # without a case file, a report or a baseline), nothing registered to discover evaluators.
    result.stdout.fnmatch_lines(["registered: rubric"])
    assert "rubric-run" not in result.stdout.str()
    assert "rubric-case-reports" not in result.stdout.str()


@pytest.mark.parametrize("dist", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_a_case_file_registers_the_hooks_that_read_each_test(
    pytester: pytest.Pytester, dist: tuple[str, ...]
) -> None:
    pytester.makeconftest(REGISTERED_PROBE)
    pytester.makefile(".rubric.yaml", seeds=REASON_FILE)
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-s", "-p", "no:cacheprovider", f"--rubric-report={report}", *dist
    )
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["registered: rubric rubric-case-reports *rubric-run*"])
    records = [line for line in report.read_text().splitlines() if '"nodeid"' in line]
    assert len(records) == 2


def test_a_case_file_imports_the_rest_where_it_is_collected(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(LOADED_PROBE)
    pytester.makefile(".rubric.yaml", seeds=REASON_FILE)
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["loaded: *pytest_rubric.casefiles.loader*yaml*"])


def test_in_process_pytester_runs_one_after_another_each_load_the_plugin_afresh(
    pytester: pytest.Pytester,
) -> None:
    # pytester's in-process runs drop the modules imported during a run, which are all
    # of ours but the options once imports are lazy; a plugin author's tests run so.
    pytester.makepyfile(
        test_author=f"""
pytest_plugins = ["pytester"]
CASES = {REASON_FILE!r}


def test_twice(pytester):
    pytester.makefile(".rubric.yaml", seeds=CASES)
    pytester.makefile(".rubric.yml", broken="evaluator: reason\\ncases: [\\n")
    for _ in range(3):
        result = pytester.runpytest("-p", "no:cacheprovider", "--continue-on-collection-errors")
        result.assert_outcomes(passed=2, errors=1)
        result.stdout.fnmatch_lines(["*broken.rubric.yml:3:1: invalid YAML*"])
"""
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_other_yaml_files_are_left_alone(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", config="evaluator: reason\ncases: [oops]\n")
    pytester.makefile(".rubric.yaml.bak", old="not: yaml: at all:\n")
    assert pytester.runpytest().ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_the_failure_location_points_editors_at_the_case(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    items, _ = pytester.inline_genitems()
    assert [item.location for item in items] == [
        ("ledger.rubric.yml", 2, "[rubric] opposite-disagreements"),
        ("ledger.rubric.yml", 3, "[rubric] wrong-total"),
    ]


def test_the_example_project_passes_with_the_seven_seed_cases(pytester: pytest.Pytester) -> None:
    example = Path(__file__).parent.parent / "example_project"
    result = pytester.runpytest_subprocess(str(example), "-v", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        [
            "*/example_project/rubrics/seeds/agreement.rubric.yaml::four-case-matrix PASSED*",
            "*/example_project/rubrics/seeds/agreement.rubric.yaml::opposite-disagreements PASSED*",
            "*/example_project/rubrics/seeds/agreement.rubric.yaml::duplicate-reviewed-case PASSED*",
            "*/example_project/rubrics/seeds/agreement.rubric.yaml::invalid-label PASSED*",
            "*/example_project/rubrics/seeds/reason.rubric.yaml::contradictory-reason PASSED*",
            "*/example_project/rubrics/seeds/reason.rubric.yaml::two-missing-reasons PASSED*",
            "*/example_project/rubrics/seeds/reason.rubric.yaml::unknown-reason PASSED*",
        ]
    )
    assert result.ret == pytest.ExitCode.OK


def test_node_ids_are_the_same_across_runs_and_hash_seeds(pytester: pytest.Pytester) -> None:
    example = Path(__file__).parent.parent / "example_project"
    listings = []
    for seed in ("0", "1", "4242"):
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PYTHONHASHSEED", seed)
            result = pytester.runpytest_subprocess(
                str(example), "--collect-only", "-q", "-p", "no:cacheprovider"
            )
        listings.append([line for line in result.stdout.lines if "::" in line])
    assert listings[0]  # the whole example project, whatever its size
    assert listings[0] == listings[1] == listings[2]


def test_tb_line_shows_one_line_per_mismatch(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    result = pytester.runpytest("--tb=line")
    result.stdout.fnmatch_lines(
        [
            "*= FAILURES =*",
            "ledger.rubric.yml:4: 'wrong-total' (agreement) differs from expected in total",
            "*= rubric summary =*",
        ],
        consecutive=True,
    )


def test_junit_failure_message_is_the_headline(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    pytester.runpytest("--junitxml=junit.xml")
    text = (pytester.path / "junit.xml").read_text()
    assert "<failure message=\"'wrong-total' (agreement) differs from expected in total\">" in text


@pytest.mark.parametrize("tb", ["auto", "line"])
def test_failure_text_survives_xdist(pytester: pytest.Pytester, tb: str) -> None:
    pytester.makefile(".rubric.yml", ledger=AGREEMENT_FILE)
    result = pytester.runpytest_subprocess("-n", "2", f"--tb={tb}", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    # With --tb=line, pytest cuts a string failure (what xdist hands over) to 50 characters
    # for its crash line; older pytest prints only that line.
    result.stdout.fnmatch_lines(["ledger.rubric.yml:4: 'wrong-total' (agreement) dif*"])
    if tb == "auto":
        result.stdout.fnmatch_lines(
            ["  total  expected 3", "         actual   2"], consecutive=True
        )


def test_a_failed_case_keeps_no_answer_alive_after_its_report(pytester: pytest.Pytester) -> None:
    """pytest keeps the last failure's exception and frames to the end of the session (for
    ``pdb.pm()``), and every item: neither may hold on to a case's answer, a ledger's
    disagreement IDs, which the garbage collector would walk at every collection."""
    import gc
    import sys

    rows = 30_011
    pytester.path.joinpath("l.csv").write_text(
        "id,a,b\n" + "".join(f"r{n:06d},true,false\n" for n in range(rows))
    )
    pytester.makefile(
        ".rubric.yaml",
        ledger="evaluator: agreement\ncases:\n  - id: l\n    input_file: l.csv\n"
        f"    expected: {{matrix: {{bothPass: 0, bothFail: 0, aOnly: {rows}, bOnly: 0}}, "
        f"agreement: 0, total: {rows}, disagreements: []}}\n",
    )
    recorder = pytester.inline_run()
    recorder.assertoutcome(failed=1)
    assert type(sys.last_value).__name__ == "RubricMismatch"
    gc.collect()
    assert [o for o in gc.get_objects() if type(o) is list and len(o) == rows] == []


def test_update_refusals_without_update_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", r=REASON_FILE)
    report = pytester.path / "kept.json"
    report.write_text("{}")
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--rubric-update-refusals", "--rubric-report=kept.json"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: --rubric-update-refusals lets --rubric-update write answers that are "
            "refusals, and writes nothing on its own; add --rubric-update=new or "
            "--rubric-update=all"
        ]
    )
    result.stdout.no_fnmatch_line("*passed*")
    assert report.read_text() == "{}"  # stopped before any case ran


@pytest.mark.parametrize("option", ["--rubric-report", "--rubric-html", "--rubric-markdown"])
def test_an_output_named_as_a_case_file_is_a_usage_error_and_the_case_file_is_kept(
    pytester: pytest.Pytester, option: str
) -> None:
    case_file = pytester.makefile(".rubric.yaml", r=REASON_FILE)
    written = case_file.read_bytes()
    result = pytester.runpytest("-p", "no:cacheprovider", f"{option}=r.rubric.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"*'r.rubric.yaml' is named as a case file*which this output would replace*{option}=*"]
    )
    assert case_file.read_bytes() == written


def test_an_evaluator_that_takes_no_rubric_block_says_so(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml", c="evaluator: agreement\nrubric: {required: [a]}\ncases: []\n"
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        ["c.rubric.yaml:2:9: evaluator 'agreement' takes no 'rubric:' block; remove it"]
    )
