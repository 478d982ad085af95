"""Nothing lost, never an internal error: hostile evaluators and odd data, serially and
under pytest-xdist, where a worker's INTERNALERROR would end as a silent exit 0; and the rows
an evaluator's review yields, kept by running.runner as plain copies or refused."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _edges import hostile_text, huge_integers
from hypothesis import example, given
from hypothesis import strategies as st

from pytest_rubric.core.evaluator import Evaluator
from pytest_rubric.core.jsoncheck import json_problem
from pytest_rubric.core.jsonvalues import MAX_DEPTH, normalised, plain
from pytest_rubric.editing.readback import identical
from pytest_rubric.reports.jsonreport import schema
from pytest_rubric.running.runner import _Caller, _EvaluatorFailed, _review_row

#: Evaluators that misbehave in every way a plugin can; each gets a case file.
HOSTILE_CONFTEST = """
import sys

from pytest_rubric import Evaluator, Evidence, hookimpl
from pytest_rubric.core.evaluator import OnLedger, Summary


def raises_key(data):
    return {"ok": data["no-such-key"]}


def recurses(data):
    return recurses(data)


def exits(data):
    sys.exit(3)


def cyclic(data):
    loop = []
    loop.append(loop)
    return {"ok": loop}


def deep(data):
    value = []
    for _ in range(100_000):
        value = [value]
    return {"ok": value}


def huge(data):
    return {"ok": 10**5000}


def tuple_answer(data):
    return {"ok": (1, 2)}


def object_answer(data):
    return {"ok": object()}


def nan_answer(data):
    return {"ok": float("nan")}


def not_a_mapping_key(data):
    return {1: True}


def mutates(data):
    data["text"] = "changed by the evaluator"
    return {"ok": True}


def ok(data):
    return {"ok": True}


def explain_dict(data):
    return {"not": "evidence"}


def explain_raises(data):
    raise ValueError("explain broke")


def numeric_problem(data):
    return Evidence(problem=12345)


def stream_raises(rows, where):
    raise RuntimeError("stream broke")


def stream_junk(rows, where):
    return 42


def ledger_shaped(data):
    return {"matrix": 5, "agreement": 1, "total": 1, "disagreements": "x"}


def summary_raises(answer):
    raise KeyError("summary broke")


def evaluators():
    plain = {
        "raises-key": raises_key,
        "recurses": recurses,
        "exits": exits,
        "cyclic": cyclic,
        "deep": deep,
        "huge": huge,
        "tuple-answer": tuple_answer,
        "object-answer": object_answer,
        "nan-answer": nan_answer,
        "int-key": not_a_mapping_key,
        "mutates": mutates,
        "ledger-shaped": ledger_shaped,
    }
    found = [Evaluator(name=name, description=name, evaluate=f) for name, f in plain.items()]
    found += [
        Evaluator(name="explain-dict", description="", evaluate=ok, explain=explain_dict),
        Evaluator(name="explain-raises", description="", evaluate=ok, explain=explain_raises),
        Evaluator(name="numeric-problem", description="", evaluate=ok, explain=numeric_problem),
        Evaluator(
            name="stream-raises", description="", evaluate=ok, ledger=OnLedger(stream=stream_raises)
        ),
        Evaluator(
            name="stream-junk", description="", evaluate=ok, ledger=OnLedger(stream=stream_junk)
        ),
        Evaluator(
            name="summary-raises",
            description="",
            evaluate=ok,
            summary=Summary("things", summary_raises),
        ),
    ]
    return found


@hookimpl
def rubric_evaluators():
    return evaluators()
"""

#: Evaluators whose case is a case error, with what its message must say.
FAILING = {
    "raises-key": "raised in evaluate:\n  KeyError: 'no-such-key'",
    "recurses": "raised in evaluate:\n  RecursionError: maximum recursion depth exceeded*",
    "exits": "raised in evaluate:\n  SystemExit: 3",
    "cyclic": "answered something that is not JSON: the answer.ok[[]0[]] contains itself (a cycle)",
    "deep": "answered something that is not JSON: the answer nests deeper than 200 levels",
    "tuple-answer": "answered something that is not JSON: the answer.ok is a tuple, not a JSON value*",
    "object-answer": "answered something that is not JSON: the answer.ok is a object, not a JSON*",
    "nan-answer": "answered something that is not JSON: the answer.ok is nan, which JSON cannot hold",
    "int-key": "answered something that is not JSON: the answer has the key 1 (int); keys are strings",
    "explain-dict": "explain returned a dict; return pytest_rubric.Evidence*",
    "explain-raises": "raised in explain:\n  ValueError: explain broke",
    "numeric-problem": "Evidence.problem is 12345 (a number); give one sentence*",
    "stream-raises": "raised in stream:\n  RuntimeError: stream broke",
    "stream-junk": "stream returned 42 (a number); return a pair (answer, Evidence)",
}
#: Evaluators whose answer is fine, so their case matches.
MATCHING = ("mutates", "ledger-shaped", "summary-raises")


def _case_file(name: str) -> str:
    stream = name.startswith("stream")
    source = "input_file: rows.jsonl" if stream else "input: {text: as written}"
    expected = "{ok: true}"
    if name == "ledger-shaped":
        expected = "{matrix: 5, agreement: 1, total: 1, disagreements: x}"
    return (
        f"evaluator: {name}\ncases:\n  - id: {name}-case\n    {source}\n    expected: {expected}\n"
    )


def _hostile_project(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(HOSTILE_CONFTEST)
    (pytester.path / "rows.jsonl").write_text('{"id": "A", "a": true, "b": true}\n')
    for name in (*FAILING, *MATCHING):
        pytester.makefile(".rubric.yaml", **{name: _case_file(name)})


def _validated(path: Path) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(report, schema(), cls=jsonschema.Draft202012Validator)
    return report


def _no_internal_error(result: pytest.RunResult) -> None:
    for stream in (result.stdout, result.stderr):
        stream.no_fnmatch_line("*INTERNALERROR*")
        stream.no_fnmatch_line("*pytest_rubric/*")
        stream.no_fnmatch_line("*pluggy/*")
        stream.no_fnmatch_line("*_pytest/*")


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
@pytest.mark.parametrize("report", [False, True], ids=["no-report", "report"])
def test_hostile_evaluators_fail_only_their_cases_and_nothing_is_lost(
    pytester: pytest.Pytester, workers: list[str], report: bool
) -> None:
    _hostile_project(pytester)
    args = [*workers, "-p", "no:cacheprovider", "-p", "no:randomly"]
    if report:
        args.append("--rubric-report=r.json")
    result = pytester.runpytest_subprocess(*args)
    _no_internal_error(result)
    # The outcome never depends on whether a report was asked for.
    result.assert_outcomes(passed=len(MATCHING), failed=len(FAILING))
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    for name, message in FAILING.items():
        first, *rest = message.split("\n")
        result.stdout.fnmatch_lines([f"*evaluator '{name}' (conftest.py)*{first}", *rest])
    if report:
        records = {r["case"]: r for r in _validated(pytester.path / "r.json")["cases"]}
        assert sorted(records) == sorted(f"{name}-case" for name in (*FAILING, *MATCHING))
        for name in FAILING:
            assert records[f"{name}-case"]["outcome"] == "case-error"
        # The report keeps the input as the case file wrote it, not as the evaluator left it.
        assert records["mutates-case"]["input"] == {"text": "as written"}


def test_an_evaluators_traceback_shows_its_own_frames_only(pytester: pytest.Pytester) -> None:
    _hostile_project(pytester)
    result = pytester.runpytest("-k", "raises-key")
    result.stdout.fnmatch_lines(
        [
            "*evaluator 'raises-key' (conftest.py) raised in evaluate:",
            "  Traceback (the evaluator's frames):",
            '    File "*conftest.py", line *, in raises_key',
            '      return {"ok": data["no-such-key"]}',
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(["  KeyError: 'no-such-key'"])
    _no_internal_error(result)


def test_a_summary_never_sniffs_answer_keys_and_a_broken_summary_line_does_not_crash(
    pytester: pytest.Pytester,
) -> None:
    _hostile_project(pytester)
    result = pytester.runpytest("-k", "ledger-shaped or summary-raises")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "*= rubric summary =*",
            "ledger-shaped: 1 case, 1 matched, 0 mismatched, 0 case errors",
            "summary-raises: 1 case, 1 matched, 0 mismatched, 0 case errors",
            "things (1):",
            "  summary-raises.rubric.yaml::summary-raises-case",
            "    (its summary line failed: KeyError)",
        ],
        consecutive=True,
    )
    result.stdout.no_fnmatch_line("*ledgers*")
    _no_internal_error(result)


HUGE_HEX = "0x" + "f" * 4000

HUGE_CASES = f"""\
evaluator: agreement
cases:
  - id: huge-expected
    input: {{rows: []}}
    expected: {{matrix: {{bothPass: 0, bothFail: 0, aOnly: 0, bOnly: 0}}, agreement: 0, total: {HUGE_HEX}, disagreements: []}}
  - id: huge-label
    input: {{rows: [{{id: A, a: {HUGE_HEX}, b: true}}]}}
    expected: {{error: review-label}}
"""

SURROGATE_CASES = """\
evaluator: agreement
cases:
  - id: lone-surrogate
    input_file: rows.jsonl
    expected: {matrix: {bothPass: 0, bothFail: 0, aOnly: 1, bOnly: 0}, agreement: 0, total: 1, disagreements: [x]}
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_odd_data_is_never_a_silent_pass(pytester: pytest.Pytester, workers: list[str]) -> None:
    pytester.makefile(".rubric.yaml", huge=HUGE_CASES, surrogate=SURROGATE_CASES)
    (pytester.path / "rows.jsonl").write_text('{"id": "x\\ud800", "a": true, "b": false}\n')
    result = pytester.runpytest_subprocess(*workers, "--rubric-report=r.json", "-p", "no:randomly")
    _no_internal_error(result)
    # The huge total and the surrogate ID mismatch; the huge label is review-label.
    result.assert_outcomes(passed=1, failed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*total  expected 3019…9375 (an integer of 4817 digits)",
            "*actual   0",
        ]
    )
    result.stdout.fnmatch_lines(
        ['*disagreements  expected [[]"x"[]]', '*actual   [[]"x\\\\ud800"[]]']
    )
    report = _validated(pytester.path / "r.json")
    by_id = {r["case"]: r for r in report["cases"]}
    assert by_id["huge-expected"]["expected"]["total"].startswith("(integer of 4817 digits) 0xfff")
    assert by_id["lone-surrogate"]["actual"]["disagreements"] == ["x\\ud800"]
    assert by_id["huge-label"]["outcome"] == "matched"


STOPPING_CONFTEST = """
import pytest


def pytest_runtest_setup(item):
    if item.name == "stopped-in-setup":
        raise RuntimeError("the database fixture is down")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    if item.name == "stopped-in-call":
        pytest.fail("Timeout >1.0s")
    return (yield)


def pytest_runtest_teardown(item):
    if item.name == "broken-teardown":
        raise OSError("cleanup failed")


def pytest_collection_modifyitems(items):
    for item in items:
        if item.name == "skipped-by-plugin":
            item.add_marker(pytest.mark.skip(reason="quarantined by a plugin"))
        if item.name == "xfail-by-plugin":
            item.add_marker(pytest.mark.xfail(reason="known grader bug", strict=False))
"""

PLAIN_CASE = """\
  - id: {name}
    input: {{rows: [{{id: A, a: true, b: true}}]}}
    expected: {{matrix: {{bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}}, agreement: 1, total: 1, disagreements: {ids}}}
"""


def test_a_case_stopped_by_another_plugin_still_has_one_record_saying_why(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(STOPPING_CONFTEST)
    names = ["stopped-in-setup", "stopped-in-call", "broken-teardown", "skipped-by-plugin"]
    body = "".join(PLAIN_CASE.format(name=name, ids="[]") for name in names)
    body += PLAIN_CASE.format(name="xfail-by-plugin", ids="[A]")
    pytester.makefile(".rubric.yaml", stopped="evaluator: agreement\ncases:\n" + body)
    result = pytester.runpytest("--rubric-report=r.json", "-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1, errors=2, skipped=1, xfailed=1)
    result.stdout.fnmatch_lines(
        ["agreement: 5 cases, 0 matched, 0 mismatched, 3 case errors, 1 skipped, 1 xfailed"]
    )
    records = {r["case"]: r for r in _validated(pytester.path / "r.json")["cases"]}
    assert len(records) == 5
    assert records["stopped-in-setup"]["problems"] == [
        "stopped before it ran: RuntimeError: the database fixture is down"
    ]
    assert records["stopped-in-call"]["problems"] == ["stopped while it ran: Failed: Timeout >1.0s"]
    assert records["broken-teardown"]["outcome"] == "case-error"
    assert records["broken-teardown"]["problems"] == [
        "its teardown failed: OSError: cleanup failed"
    ]
    assert records["skipped-by-plugin"]["outcome"] == "skipped"
    assert records["skipped-by-plugin"]["reason"] == "quarantined by a plugin"
    assert records["xfail-by-plugin"]["outcome"] == "xfailed"
    assert records["xfail-by-plugin"]["reason"] == "known grader bug"


AGREE = """\
evaluator: agreement
cases:
  - id: fine
    input: {rows: [{id: A, a: true, b: true}]}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, total: 1, disagreements: []}
"""


def _sabotage(pytester: pytest.Pytester, code: str) -> None:
    pytester.makeconftest(
        f"""
import os
import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
{code}
"""
    )


def test_a_failed_report_write_is_one_line_a_failing_exit_and_keeps_the_old_report(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", agree=AGREE)
    (pytester.path / "r.json").write_text("previous report\n")

    _sabotage(
        pytester,
        "    def refuse(*args):\n"
        "        raise PermissionError(13, 'Permission denied')\n"
        "    os.replace = refuse\n",
    )
    result = pytester.runpytest_subprocess("--rubric-report=r.json", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["ERROR: the rubric report was not written to r.json: permission denied"]
    )
    _no_internal_error(result)
    assert (pytester.path / "r.json").read_text() == "previous report\n"
    assert sorted(p.name for p in pytester.path.iterdir() if p.name.startswith(".")) == []


def test_a_folder_that_became_a_file_during_the_run_is_a_failed_write(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", agree=AGREE)
    _sabotage(pytester, "    os.rmdir('out')\n    open('out', 'w').close()\n")
    (pytester.path / "out").mkdir()
    result = pytester.runpytest_subprocess("--rubric-report=out/r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["ERROR: the rubric report was not written to out/r.json: *"])
    _no_internal_error(result)


def test_a_report_too_large_for_the_file_size_limit_is_a_failed_write(
    pytester: pytest.Pytester,
) -> None:
    resource = pytest.importorskip("resource")
    # A report of about 40 KB, under a limit of 16 KB (pytest's own output stays below it).
    big = "x" * 40_000
    pytester.makefile(".rubric.yaml", agree=AGREE.replace("{id: A,", f"{{note: {big}, id: A,"))
    _sabotage(
        pytester,
        "    import resource\n    resource.setrlimit(resource.RLIMIT_FSIZE, (16_000, 16_000))\n",
    )
    assert resource.getrlimit(resource.RLIMIT_FSIZE)[0] != 16_000
    result = pytester.runpytest_subprocess("--rubric-report=r.json", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["ERROR: the rubric report was not written to r.json: file too large"]
    )
    assert not (pytester.path / "r.json").exists()
    assert [p.name for p in pytester.path.iterdir() if p.suffix == ".tmp"] == []


def test_a_report_under_sys_fails_cleanly(pytester: pytest.Pytester) -> None:
    pytester.makefile(".rubric.yaml", agree=AGREE)
    result = pytester.runpytest_subprocess("--rubric-report=/sys/rubric-report.json")
    assert result.ret in (pytest.ExitCode.TESTS_FAILED, pytest.ExitCode.USAGE_ERROR)
    result.stdout.no_fnmatch_line("*Traceback*")
    result.stderr.no_fnmatch_line("*Traceback*")
    _no_internal_error(result)


def _folder(path: Path) -> None:
    (path / "folder.json").mkdir()


def _fifo(path: Path) -> None:
    os.mkfifo(path / "fifo.json")


@pytest.mark.parametrize(
    ("target", "make", "message"),
    [
        ("x" * 300 + ".json", None, "cannot write 'xxxx*…': file name too long; *"),
        ("folder.json", _folder, "folder.json is a directory; *"),
        ("fifo.json", _fifo, "fifo.json is not a regular file *"),
        ("nul\0.json", None, "cannot write 'nul\\x00.json': *"),
    ],
    ids=["long-name", "directory", "fifo", "nul"],
)
def test_paths_that_cannot_hold_a_report_are_usage_errors_before_collection(
    pytester: pytest.Pytester, target: str, make: Any, message: str
) -> None:
    if make is not None:
        make(pytester.path)
    result = pytester.runpytest(f"--rubric-report={target}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*argument --rubric-report: {message}"])
    _no_internal_error(result)


def test_a_device_is_refused_and_left_as_it_is(pytester: pytest.Pytester) -> None:
    # A device node of our own (the same device as /dev/full), so that a regression
    # can never replace a real device of the machine with a regular file.
    device = pytester.path / "full"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except PermissionError:
        pytest.skip("making a device node needs root")
    result = pytester.runpytest(f"--rubric-report={device}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*argument --rubric-report: */full is not a regular file*"])
    assert stat.S_ISCHR(os.stat(device).st_mode)


def test_a_symlinked_report_path_is_written_through_to_its_target(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".rubric.yaml", agree=AGREE)
    (pytester.path / "reports").mkdir()
    (pytester.path / "reports/real.json").write_text("old\n")
    (pytester.path / "latest.json").symlink_to("reports/real.json")
    pytester.runpytest("--rubric-report=latest.json").assert_outcomes(passed=1)
    assert (pytester.path / "latest.json").is_symlink()
    assert _validated(pytester.path / "reports/real.json")["summary"]["matched"] == 1


@pytest.mark.parametrize("option", ["--collect-only", "--rubric-evaluators"])
def test_runs_that_run_no_case_keep_the_existing_report(
    pytester: pytest.Pytester, option: str
) -> None:
    pytester.makefile(".rubric.yaml", agree=AGREE)
    (pytester.path / "r.json").write_text("the last real run\n")
    result = pytester.runpytest(option, "--rubric-report=r.json")
    assert result.ret == pytest.ExitCode.OK
    assert (pytester.path / "r.json").read_text() == "the last real run\n"


def test_cases_on_one_line_keep_file_order_under_xdist(pytester: pytest.Pytester) -> None:
    case = "{{id: {name}, input: {{rows: []}}, expected: {{error: none}}}}"
    names = ["zeta", "alpha", "mid", "beta", "omega", "delta"]
    line = ", ".join(case.format(name=name) for name in names)
    pytester.makefile(".rubric.yaml", one=f"evaluator: agreement\ncases: [{line}]\n")
    orders = []
    for args in ([], ["-n", "2"], ["-n", "2", "-p", "no:randomly"]):
        pytester.runpytest_subprocess(*args, "--rubric-report=r.json").assert_outcomes(failed=6)
        orders.append([r["case"] for r in _validated(pytester.path / "r.json")["cases"]])
    assert orders == [names, names, names]


INJECTION_CSV = (
    'id,a,b\n"A\nagreement ledgers (1): forged",true,false\n"\x1b[31mred\x1b[0m",false,true\n'
)


def test_data_never_reaches_the_terminal_raw(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".rubric.yaml",
        inject="evaluator: agreement\ncases:\n  - id: injected\n    input_file: rows.csv\n"
        "    expected: {error: none}\n",
    )
    (pytester.path / "rows.csv").write_text(INJECTION_CSV)
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "\x1b" not in text
    result.stdout.fnmatch_lines(
        [
            "    bothPass 0, bothFail 0, aOnly 1, bOnly 1; agreement 0/2; disagreements: "
            '"A\\nagreement ledgers (1): forged", "\\u001b[[]31mred\\u001b[[]0m"'
        ]
    )
    result.stdout.no_fnmatch_line("agreement ledgers (1): forged*")


def test_a_case_id_with_a_control_character_fails_that_case_with_its_position(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".rubric.yaml",
        ids='evaluator: agreement\ncases:\n  - id: "red\\e"\n    input: {rows: []}\n'
        "    expected: {error: none}\n",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    assert "\x1b" not in result.stdout.str()
    result.stdout.fnmatch_lines(
        ["  ids.rubric.yaml:3:9: case id 'red\\\\x1b' contains a control or direction-*"]
    )


def test_a_configure_that_raises_fails_its_file_naming_the_evaluator(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        """
from pytest_rubric import Evaluator, hookimpl


def broken_configure(block):
    raise KeyError("no such field")


@hookimpl
def rubric_evaluators():
    return [Evaluator(name="fussy", description="", evaluate=dict, configure=broken_configure)]
"""
    )
    pytester.makefile(
        ".rubric.yaml",
        fussy="evaluator: fussy\nrubric: {required: [title]}\ncases: []\n",
        agree=AGREE,
    )
    result = pytester.runpytest("-n", "2")
    result.assert_outcomes(passed=1, errors=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "fussy.rubric.yaml:2:*: evaluator 'fussy' (conftest.py) raised in configure:",
            "  Traceback (the evaluator's frames):",
        ]
    )
    result.stdout.fnmatch_lines(["  KeyError: 'no such field'"])
    _no_internal_error(result)


SNEAKY_CONFTEST = """
import os

from pytest_rubric import Evaluator, Evidence, Summary, hookimpl


class Problem(str):
    def __str__(self):
        raise ValueError("no")


class Facts(dict):
    calls = 0

    def items(self):
        Facts.calls += 1
        if Facts.calls > 1:
            raise RuntimeError("items broke")
        return super().items()


class Count(int):
    def __int__(self):
        raise RuntimeError("int broke")


class Forged(str):
    def __str__(self):
        return "\\x1b[2J\\x1b[31mFORGED"


def exits_in_summary(answer):
    raise SystemExit(3)


def crash(data):
    if data.get("crash"):
        os._exit(1)
    return {"a": 1}


def mutates(data):
    data["n"] = data["n"] + 1
    return {"n": data["n"]}


@hookimpl
def rubric_evaluators():
    one = lambda data: {"a": 1}
    return [
        Evaluator(name="str-problem", description="", evaluate=one,
                  explain=lambda data: Evidence(problem=Problem("bad input"))),
        Evaluator(name="dict-facts", description="", evaluate=one,
                  explain=lambda data: Evidence(facts=Facts(x=1))),
        Evaluator(name="int-subclass", description="", evaluate=lambda data: {"n": Count(3)}),
        Evaluator(name="forged-problem", description="", evaluate=one,
                  explain=lambda data: Evidence(problem=Forged("x"), facts={Forged("k"): 1})),
        Evaluator(name="exit-summary", description="", evaluate=one,
                  summary=Summary("things", exits_in_summary)),
        Evaluator(name="crash", description="", evaluate=crash),
        Evaluator(name="mutates", description="", evaluate=mutates),
        Evaluator(name="evil\\x1b[31m", description="", evaluate=one),
    ]
"""


def _sneaky_project(pytester: pytest.Pytester, names: list[str]) -> None:
    pytester.makeconftest(SNEAKY_CONFTEST)
    for name in names:
        pytester.makefile(
            ".rubric.yaml",
            **{
                name: f"evaluator: {name}\ncases:\n  - id: {name}-case\n    input: {{n: 1}}\n"
                "    expected: {a: 2}\n"
            },
        )


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_evaluators_handing_back_hostile_subclasses_fail_only_their_cases(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    names = ["str-problem", "dict-facts", "int-subclass", "forged-problem", "exit-summary"]
    _sneaky_project(pytester, names)
    result = pytester.runpytest_subprocess(*workers, "--rubric-report=r.json", "-p", "no:randomly")
    _no_internal_error(result)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(failed=5)
    assert "\x1b" not in result.stdout.str()
    result.stdout.fnmatch_lines(
        ["*evaluator 'int-subclass' (conftest.py) handed back something that could not be read:"]
    )
    records = _validated(pytester.path / "r.json")["cases"]
    assert sorted(r["case"] for r in records) == sorted(f"{n}-case" for n in names)


def test_a_worker_that_crashes_still_leaves_a_record_for_its_case(
    pytester: pytest.Pytester,
) -> None:
    _sneaky_project(pytester, ["crash"])
    pytester.makefile(
        ".rubric.yaml",
        boom="evaluator: crash\ncases:\n  - id: boom\n    input: {crash: true}\n    expected: {a: 1}\n",
    )
    result = pytester.runpytest_subprocess("-n", "2", "--rubric-report=r.json", "-p", "no:randomly")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*: 1 case, 0 matched, 0 mismatched, 1 case error"])
    records = {r["case"]: r for r in _validated(pytester.path / "r.json")["cases"]}
    assert records["boom"]["outcome"] == "case-error"
    assert records["boom"]["problems"][0].startswith("its run was lost: ")


UNRECORDABLE = """
import pytest_rubric.plugin.items as items


def _broken(*args, **kwargs):
    raise RuntimeError("no summary today")


items.summary_line = _broken
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_a_case_whose_record_cannot_be_made_fails_with_a_whole_record(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    """Its record is a case that never ran to an outcome, as every such record is: the
    report holds every key a record has, and the case fails saying why."""
    pytester.makeconftest(UNRECORDABLE)
    pytester.makefile(
        ".rubric.yaml",
        seeds="evaluator: reason\ncases:\n  - id: s1\n    input: {reason: ok}\n"
        "    expected: {status: ok}\n",
    )
    result = pytester.runpytest_subprocess(*workers, "--rubric-report=r.json", "-p", "no:randomly")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*seeds.rubric.yaml:3: its record could not be made: RuntimeError: no summary today*"]
    )
    (record,) = _validated(pytester.path / "r.json")["cases"]
    assert record["outcome"] == "case-error"
    assert record["problems"] == ["its record could not be made: RuntimeError: no summary today"]
    assert (record["input"], record["expected"]) == ({"reason": "ok"}, {"status": "ok"})


def test_an_evaluator_that_mutates_its_input_answers_the_same_every_time() -> None:
    from pytest_rubric import Evaluator
    from pytest_rubric.casefiles.loader import parse_case_file
    from pytest_rubric.running.runner import run_case

    def mutates(data: Any) -> dict[str, Any]:
        data["n"] += 1
        return {"n": data["n"]}

    evaluator = Evaluator(name="m", description="", evaluate=mutates, explain=None)
    case = parse_case_file(
        b"evaluator: m\ncases:\n  - {id: c, input: {n: 1}, expected: {n: 2}}\n", "c.rubric.yaml"
    ).cases[0]
    runs = [run_case(case, evaluator, path="c.rubric.yaml", source="test") for _ in range(3)]
    assert [run.outcome for run in runs] == ["matched"] * 3
    assert case.input == {"n": 1}


def test_an_evaluator_name_with_control_characters_is_shown_escaped(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(SNEAKY_CONFTEST)
    pytester.makefile(
        ".rubric.yaml",
        evil='evaluator: "evil\\e[31m"\ncases:\n  - id: c\n    input: {}\n    expected: {a: 2}\n',
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    assert "\x1b" not in result.stdout.str()
    result.stdout.fnmatch_lines(
        ["*'c' (evil\\x1b[[]31m) differs from expected in a", "evil\\x1b[[]31m: 1 case*"]
    )


CHANGES_ITS_ANSWER = """
from pytest_rubric import Evaluator, Evidence, OnLedger, Summary, hookimpl

ANSWER = {}


def evaluate(data):
    ANSWER.clear()
    ANSWER["v"] = data["v"]
    return ANSWER


def explain(data):
    ANSWER["v"] = "changed by explain"
    return Evidence(facts={"v": data["v"]})


def review(ledger, where):
    ANSWER["v"] = "changed by review"
    yield {"id": "r"}


def line(answer):
    answer["v"] = "changed by the summary line"
    return "a line"


@hookimpl
def rubric_evaluators():
    return [
        Evaluator(
            name="changes",
            description="changes its answer while it is asked for more",
            evaluate=evaluate,
            explain=explain,
            ledger=OnLedger(review=review),
            summary=Summary("changes", line),
        )
    ]
"""


@pytest.mark.parametrize("args", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_an_evaluator_that_changes_its_answer_after_answering_changes_nothing_recorded(
    pytester: pytest.Pytester, args: list[str]
) -> None:
    pytester.makeconftest(CHANGES_ITS_ANSWER)
    pytester.makefile(
        ".rubric.yaml",
        changes="evaluator: changes\ncases:\n"
        "  - {id: same, input: {v: 1}, expected: {v: 1}}\n"
        "  - {id: other, input: {v: 2}, expected: {v: 3}}\n",
    )
    result = pytester.runpytest_subprocess("--rubric-report=report.json", *args)
    result.assert_outcomes(passed=1, failed=1)
    _no_internal_error(result)
    result.stdout.fnmatch_lines(
        ["*'other' (changes) differs from expected in v", "  v  expected 3"]
    )
    report = _validated(pytester.path / "report.json")
    cases = {record["case"]: record for record in report["cases"]}
    assert (cases["same"]["expected"], cases["same"]["actual"]) == ({"v": 1}, {"v": 1})
    assert (cases["other"]["expected"], cases["other"]["actual"]) == ({"v": 3}, {"v": 2})
    assert cases["other"]["differingKeys"] == ["v"]


# --- review rows: a plain copy of what was yielded (running.runner) ------------------------


class _Text(str):
    pass


class _Mapping(dict):  # type: ignore[type-arg]
    def items(self) -> Any:
        return [("changed", True)]


class _List(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        return iter(["changed"])


_row_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | huge_integers
    # Past 14,000 bits yet under 4,300 digits; at the limit; one past it.
    | st.sampled_from([(2, 14_001), (-10, 4_299), (10, 4_300)]).map(lambda n: n[0] ** n[1])
    | st.floats()
    | hostile_text
    | hostile_text.map(_Text)
)
_row_values = st.recursive(
    _row_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.lists(inner, max_size=3).map(_List)
        | st.dictionaries(hostile_text | st.integers() | st.none(), inner, max_size=3)
        | st.dictionaries(hostile_text, inner, max_size=3).map(_Mapping)
    ),
    max_leaves=12,
)


@given(
    # A flat row with a mapping of fields, as most are.
    row=st.dictionaries(
        hostile_text,
        _row_scalars
        | st.dictionaries(hostile_text | hostile_text.map(_Text) | st.integers(), _row_scalars),
    )
    | st.dictionaries(hostile_text | hostile_text.map(_Text) | st.integers(), _row_values)
    | _row_values
)
@example(row={"id": "\ud800"})  # what each check refuses, every run
@example(row={"\udfff": True})
@example(row={"fields": {"note": "\ud800"}})
@example(row={"score": float("nan")})
@example(row={"score": float("inf")})
@example(row={"fields": [float("nan")]})
@example(row={"id": "a", 1: True})
@example(row={"fields": (1, 2)})
def test_a_review_row_is_kept_as_a_plain_copy_of_what_was_yielded(row: Any) -> None:
    # A review row is kept as the walk over it would make it, and never shared with the
    # evaluator: it may yield one mapping again, changed.
    call = _Caller(Evaluator(name="x", description="", evaluate=lambda data: {}), "here")
    if json_problem(row) is not None or not isinstance(row, dict):
        with pytest.raises(_EvaluatorFailed, match="review yielded"):
            _review_row(call, row)
        return
    kept = _review_row(call, row)
    assert identical(kept, plain(normalised(row)))
    if isinstance(row, dict) and row:
        assert kept is not row


@pytest.mark.parametrize("levels", [MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
def test_a_review_row_nested_deeper_than_json_values_go_fails_its_case(levels: int) -> None:
    value: Any = "leaf"
    for _ in range(levels - 1):  # the row itself is one level
        value = [value]
    row = {"k": value}
    call = _Caller(Evaluator(name="x", description="", evaluate=lambda data: {}), "here")
    if levels <= MAX_DEPTH:
        assert identical(_review_row(call, row), row)
    else:
        with pytest.raises(_EvaluatorFailed, match="review yielded a dict"):
            _review_row(call, row)
