"""The pasted outputs of the README and the docs are what a real run prints, so they cannot drift.

Convention: every ```text block in README.md and in docs/*.md shows output and follows a marker line

    <!-- output of `python -m pytest ARGS` in PROJECT[, from "FIRST"][ to "LAST"][ on pytest>=X] -->

(or ``python -m pytest_rubric ARGS``, the command line on reports; a demo in ``SETUP`` first
runs the pytest commands listed there, e.g. to write the reports it compares). With
``, file "PATH"`` after PROJECT the block (```text or ```markdown) shows the file the command
wrote at PATH instead of what it printed.

PROJECT is ``example_project`` (a copy of it is used) or ``demo:NAME``, a small project whose case
files are in ``DEMOS`` below (a file's text, its bytes, or a binary file under ``docs/demos/`` to copy;
a demo in ``NEEDS`` skips where the module it needs is not installed). The command runs for real in a copy of the project; the block is the
excerpt of its output from the first line containing FIRST through the first line after it
containing LAST (default: the whole output, or to its end). Timings, the padding of pytest's
``===`` lines, session header lines and temporary paths are normalised before comparing. Output
that differs between pytest versions (the short test summary) names the oldest pytest it holds for;
older ones skip that block.

After a deliberate change of output, refresh every block of every file in one command:

    .venv/bin/python tests/test_readme.py --refresh
"""

from __future__ import annotations

import gzip
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_rubric.editing.decisions import CI_VARIABLES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: Every file whose pasted outputs are checked: the README and each page of the docs.
FILES = (README, *sorted((ROOT / "docs").glob("*.md")))

MARKER = re.compile(
    r"<!-- output of `python -m (?P<module>pytest_rubric|pytest)\b(?P<args>[^`]*)` in "
    r"(?P<project>[\w:.-]+)"
    r'(?:, file "(?P<file>[^"]+)")?'
    r'(?:, from "(?P<first>[^"]+)")?(?: to "(?P<last>[^"]+)")?(?: on pytest>=(?P<pytest>[\d.]+))? -->\n'
    r"```(?:text|markdown)\n(?P<block>.*?)```",
    re.S,
)

#: Binary files of demos that cannot be written inline (Parquet), one folder per demo.
DEMO_FILES = ROOT / "docs" / "demos"

#: The case file of the "compare" demo's week 49, the same before and after.
WEEK_49 = """\
evaluator: agreement
cases:
  - id: week-49
    input_file: ledgers/week-49.jsonl
    ledger: {id: id, a: judge, b: editor, graders: {a: judge, b: editor}, group_by: desk}
    expected:
      matrix: {bothPass: 3, bothFail: 2, aOnly: 1, bOnly: 0}
      agreement: 5
      total: 6
      disagreements: [hl-903]
"""

DEMOS: dict[str, dict[str, str | bytes | Path]] = {
    # "Reading a mismatch": three mismatching cases.
    "mismatch": {
        "rubrics/ledger.rubric.yaml": """\
evaluator: agreement
cases:
  - id: week-48
    input:
      rows:
        - {id: hl-101, a: true, b: true}
        - {id: hl-102, a: true, b: false}
        - {id: hl-103, a: false, b: false}
    expected:
      matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}
      agreement: 3
      total: 3
      disagreements: []
""",
        "rubrics/review.rubric.yaml": """\
evaluator: reason
cases:
  - id: passed-without-source
    input:
      fields: {title: true, source: false}
      pass: true
      reasons: [all-required-met]
    expected:
      expectedPass: true
      expectedReasons: [all-required-met]
      coherent: true

  - id: quoted-label
    input:
      fields: {title: "true", source: true}
      pass: true
      reasons: [all-required-met]
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
""",
    },
    # "Authoring cases": a new case with its input only, beside a finished one.
    "authoring": {
        "rubrics/review.rubric.yaml": """\
evaluator: reason
cases:
  - id: all-met
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}

  # Passed although the source is missing: is the rubric right about it?
  - id: passed-without-source
    input:
      fields: {title: true, source: false}
      pass: true
      reasons: [all-required-met]
""",
    },
    # "What a case file means": a misspelt key confined to one case.
    "typo": {
        "rubrics/review.rubric.yaml": """\
evaluator: reason
cases:
  - id: fine
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
  - id: typo
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expect: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
""",
    },
    # "Refusals are held back": a ledger exported with Python's csv module, and a good one.
    "refusal": {
        "rubrics/weeks.rubric.yaml": """\
evaluator: agreement
cases:
  - id: week-3
    input_file: week-3.csv
  - id: week-4
    input_file: week-4.csv
""",
        "rubrics/week-3.csv": "id,a,b\nr1,True,True\nr2,True,False\n",
        "rubrics/week-4.csv": "id,a,b\nr1,true,true\nr2,true,false\n",
    },
    # "Checking case files": two slips that --rubric-check names.
    "check": {
        "reviews.rubric.yaml": """\
evaluator: reason
cases:
  - id: misspelt-answer
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReason: [all-required-met], coherent: true}
  - id: misspelt-key
    inptu: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
""",
    },
    # "Exports as they come": a CSV export with its own columns, words and an extra column; a word
    # outside the labels; a misspelt column.
    "export-csv": {
        "rubrics/weeks.rubric.yaml": """\
evaluator: agreement
cases:
  - id: week-51
    input_file: exports/week-51.csv
    ledger:
      id: task_id
      a: judge_label
      b: editor_label
      labels: {PASS: true, FAIL: false}
      graders: {a: judge, b: editor}
    expected:
      matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}
      agreement: 2
      total: 3
      disagreements: [hl-702]

  - id: week-52
    input_file: exports/week-52.csv
    ledger: {id: task_id, a: judge_label, b: editor_label, labels: {PASS: true, FAIL: false}}
    expected:
      matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 1}
      agreement: 1
      total: 2
      disagreements: [hl-802]

  - id: week-53
    input_file: exports/week-53.csv
    ledger: {id: task_id, a: judge_lable, b: editor_label, labels: {PASS: true, FAIL: false}}
    expected:
      matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}
      agreement: 1
      total: 1
      disagreements: []
""",
        "rubrics/exports/week-51.csv": "task_id,judge_label,editor_label,annotator\n"
        "hl-701,PASS,PASS,kim\nhl-702,PASS,FAIL,lee\nhl-703,FAIL,FAIL,kim\n",
        "rubrics/exports/week-52.csv": "task_id,judge_label,editor_label,annotator\n"
        "hl-801,PASS,PASS,kim\nhl-802,Fail,PASS,lee\n",
        "rubrics/exports/week-53.csv": "task_id,judge_label,editor_label\nhl-901,PASS,PASS\n",
    },
    # "Exports as they come": slips of a ledger block that --rubric-check names.
    "export-check": {
        "rubrics/weeks.rubric.yaml": """\
evaluator: agreement
cases:
  - id: week-51
    input_file: exports/week-51.csv
    ledger: {idd: task_id, a: judge_label, b: editor_label, graders: {a: judge, c: editor}}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, total: 1, disagreements: []}
  - id: week-52
    input: {rows: [{id: hl-801, a: true, b: true}]}
    ledger: {id: task_id}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}, agreement: 1, total: 1, disagreements: []}
""",
        "rubrics/exports/week-51.csv": "task_id,judge_label,editor_label\nhl-701,true,true\n",
    },
    # "Exports as they come": nested JSON keys, a key holding a dot, numbers as labels, and a label
    # written as text.
    "export-nested": {
        "rubrics/scores.rubric.yaml": """\
evaluator: agreement
cases:
  - id: week-54
    input_file: exports/week-54.jsonl
    ledger:
      id: task.id
      a: scores.judge
      b: [scores, editor.v2]
      labels: [[1, true], [0, false]]
    expected:
      matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 0}
      agreement: 2
      total: 3
      disagreements: [hl-1002]
""",
        "rubrics/exports/week-54.jsonl": (
            '{"task": {"id": "hl-1001"}, "scores": {"judge": 1, "editor.v2": 1}, "url": "/1001"}\n'
            '{"task": {"id": "hl-1002"}, "scores": {"judge": 1, "editor.v2": 0}, "url": "/1002"}\n'
            '{"task": {"id": "hl-1003"}, "scores": {"judge": "0", "editor.v2": 0}, "url": "/1003"}\n'
        ),
    },
    # "Exports as they come": one row per judgement, as Prodigy's db-out writes, with a third grader;
    # and one where the duty editor has not judged hl-902 yet.
    "export-judgements": {
        "rubrics/judgements.rubric.yaml": """\
evaluator: agreement
cases:
  - id: week-52
    input_file: exports/week-52.jsonl
    ledger:
      rows: per-judgement
      id: example_id
      grader: _annotator_id
      label: answer
      a: judge-v3
      b: duty-editor
      labels: {accept: true, reject: false}
      graders: {a: judge, b: editor}
    expected:
      matrix: {bothPass: 1, bothFail: 1, aOnly: 0, bOnly: 1}
      agreement: 2
      total: 3
      disagreements: [hl-802]

  - id: week-53
    input_file: exports/week-53.jsonl
    ledger: {rows: per-judgement, id: example_id, grader: _annotator_id, label: answer,
             a: judge-v3, b: duty-editor, labels: {accept: true, reject: false}}
    expected:
      matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 0}
      agreement: 1
      total: 1
      disagreements: []
""",
        "rubrics/exports/week-52.jsonl": (
            '{"example_id": "hl-801", "_annotator_id": "judge-v3", "answer": "accept"}\n'
            '{"example_id": "hl-801", "_annotator_id": "duty-editor", "answer": "accept"}\n'
            '{"example_id": "hl-802", "_annotator_id": "judge-v3", "answer": "reject"}\n'
            '{"example_id": "hl-803", "_annotator_id": "duty-editor", "answer": "reject"}\n'
            '{"example_id": "hl-802", "_annotator_id": "duty-editor", "answer": "accept"}\n'
            '{"example_id": "hl-803", "_annotator_id": "trainee", "answer": "accept"}\n'
            '{"example_id": "hl-803", "_annotator_id": "judge-v3", "answer": "reject"}\n'
        ),
        "rubrics/exports/week-53.jsonl": (
            '{"example_id": "hl-901", "_annotator_id": "judge-v3", "answer": "accept"}\n'
            '{"example_id": "hl-902", "_annotator_id": "judge-v3", "answer": "reject"}\n'
            '{"example_id": "hl-901", "_annotator_id": "trainee", "answer": "reject"}\n'
            '{"example_id": "hl-901", "_annotator_id": "duty-editor", "answer": "accept"}\n'
        ),
    },
    # "Exports as they come": a gzip'd CSV export (mtime=0, so the bytes are the same every run).
    "export-gzip": {
        "rubrics/weeks.rubric.yaml": """\
evaluator: agreement
cases:
  - id: week-56
    input_file: exports/week-56.csv.gz
    ledger: {id: task_id, a: judge_label, b: editor_label, labels: {PASS: true, FAIL: false}}
    expected:
      matrix: {bothPass: 1, bothFail: 0, aOnly: 0, bOnly: 1}
      agreement: 1
      total: 2
      disagreements: [hl-1102]
""",
        "rubrics/exports/week-56.csv.gz": gzip.compress(
            b"task_id,judge_label,editor_label\nhl-1101,PASS,PASS\nhl-1102,FAIL,PASS\n", mtime=0
        ),
    },
    # "Exports as they come": Parquet, a plain ledger and a mapped export with a word outside its
    # labels. docs/demos/parquet/ holds the files, written with pyarrow.parquet.write_table:
    # week-57: {id: [hl-1201..hl-1204], a: [T, T, F, F], b: [T, F, F, T]}; week-58: {task_id:
    # [hl-1301, hl-1302, hl-1303], judge_label: [PASS, FAIL, pass], editor_label: [PASS, PASS,
    # FAIL], headline: [three headlines]}.
    "export-parquet": {
        "rubrics/weeks.rubric.yaml": """\
evaluator: agreement
cases:
  - id: week-57
    input_file: exports/week-57.parquet
    expected:
      matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 1}
      agreement: 2
      total: 4
      disagreements: [hl-1202, hl-1204]

  - id: week-58
    input_file: exports/week-58.parquet
    ledger: {id: task_id, a: judge_label, b: editor_label, labels: {PASS: true, FAIL: false}}
    expected:
      matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 1}
      agreement: 1
      total: 3
      disagreements: [hl-1302, hl-1303]
""",
        "rubrics/exports/week-57.parquet": DEMO_FILES / "parquet/week-57.parquet",
        "rubrics/exports/week-58.parquet": DEMO_FILES / "parquet/week-58.parquet",
    },
    # "Judges against humans": exports of eight tools, each as the tool writes it.
    "tools": {
        "rubrics/tools.rubric.yaml": """\
evaluator: agreement
cases:
  - id: label-studio-json
    input_file: exports/label-studio.json     # Label Studio's JSON export: a top-level array of tasks
    ledger:
      rows: per-judgement
      id: id
      ids: as-text                           # task IDs are numbers
      grader: annotations.completed_by       # through the annotations list: one judgement an item
      label: annotations.result.0.value.choices.0
      a: 10                                  # user IDs, numbers as the export holds them
      b: 12
      labels: {PASS: true, FAIL: false}
      where: {annotations.was_cancelled: false}
    expected: {matrix: {bothPass: 5, bothFail: 2, aOnly: 0, bOnly: 1}, agreement: 7, total: 8, disagreements: ["108"]}

  - id: label-studio-json-min
    input_file: exports/label-studio-min.json
    ledger: {rows: per-judgement, id: id, ids: as-text, grader: annotator, label: verdict,
             a: 10, b: 12, labels: {PASS: true, FAIL: false}}
    expected: {matrix: {bothPass: 5, bothFail: 2, aOnly: 0, bOnly: 1}, agreement: 7, total: 8, disagreements: ["108"]}

  - id: inspect-judge-vs-desk
    ledger:
      a: {input_file: exports/inspect-log.json, records: samples, id: id, ids: as-text,
          label: scores.model_graded_fact.value, labels: {C: true, I: false}}
      b: {input_file: exports/inspect-desk.csv, id: sample_id, label: verdict,
          labels: {PASS: true, FAIL: false}}
      graders: {a: llm-judge, b: desk}
    expected: {matrix: {bothPass: 5, bothFail: 1, aOnly: 1, bOnly: 1}, agreement: 6, total: 8, disagreements: ["6", "8"]}

  - id: promptfoo-judge-vs-desk
    ledger:
      a: {input_file: exports/promptfoo-results.json, records: results.results, id: vars.id,
          label: gradingResult.pass}
      b: {input_file: exports/promptfoo-desk.csv, id: test_id, label: verdict,
          labels: {PASS: true, FAIL: false}}
      graders: {a: llm-rubric, b: desk}
    expected: {matrix: {bothPass: 5, bothFail: 1, aOnly: 1, bOnly: 1}, agreement: 6, total: 8, disagreements: [h6, h8]}

  - id: argilla-records
    input_file: exports/argilla-records.json
    ledger:
      rows: per-judgement
      id: id
      grader: responses.verdict.user_id
      label: responses.verdict.value
      a: 3f7c1c4e-2b8a-4d0e-9a51-6c2d1e0a7b10
      b: b2e94d7a-58c1-4f3b-8e06-91a4c5d3f212
      labels: {PASS: true, FAIL: false}
    expected: {error: review-label}

  - id: argilla-hugging-face
    input_file: exports/argilla-flat.jsonl
    ledger:
      rows: per-judgement
      id: id
      grader: [verdict.responses.users]      # column names holding dots: the list form
      label: [verdict.responses]             # two lists of one length: paired by position
      a: 3f7c1c4e-2b8a-4d0e-9a51-6c2d1e0a7b10
      b: b2e94d7a-58c1-4f3b-8e06-91a4c5d3f212
      labels: {PASS: true, FAIL: false}
      where: {'[verdict.responses.status]': submitted}
    expected: {matrix: {bothPass: 4, bothFail: 2, aOnly: 1, bOnly: 1}, agreement: 6, total: 8, disagreements: [h7, h8]}

  - id: sagemaker-ground-truth
    input_file: exports/sagemaker-output.jsonl
    ledger:
      rows: per-judgement
      id: id
      grader: headline-verdict.annotationsFromAllWorkers.workerId
      label: headline-verdict.annotationsFromAllWorkers.annotationData.content
      a: private.us-west-2.ef7294f850a3d9d1
      b: private.us-west-2.3b1c0a9e77d2f405
      labels: {'{"verdict":{"label":"PASS"}}': true, '{"verdict":{"label":"FAIL"}}': false}
    expected: {matrix: {bothPass: 5, bothFail: 2, aOnly: 0, bOnly: 1}, agreement: 7, total: 8, disagreements: [h8]}

  - id: doccano-one-file-per-annotator
    ledger:
      a: {input_file: exports/doccano-rita.jsonl, id: id, ids: as-text, label: label.0}
      b: {input_file: exports/doccano-omar.jsonl, id: id, ids: as-text, label: label.0}
      labels: {PASS: true, FAIL: false}
      graders: {a: rita, b: omar}
    expected: {matrix: {bothPass: 5, bothFail: 2, aOnly: 0, bOnly: 1}, agreement: 7, total: 8, disagreements: ["318"]}

  - id: prodigy-input-hashes
    input_file: exports/prodigy.jsonl
    ledger: {rows: per-judgement, id: _input_hash, ids: as-text, grader: _annotator_id,
             label: answer, a: headlines_check-rita, b: headlines_check-omar,
             labels: {accept: true, reject: false}}
    expected: {matrix: {bothPass: 5, bothFail: 2, aOnly: 0, bOnly: 1}, agreement: 7, total: 8, disagreements: ["-1173789389"]}
""",
        "rubrics/exports/label-studio.json": DEMO_FILES / "tools/label-studio.json",
        "rubrics/exports/label-studio-min.json": DEMO_FILES / "tools/label-studio-min.json",
        "rubrics/exports/inspect-log.json": DEMO_FILES / "tools/inspect-log.json",
        "rubrics/exports/inspect-desk.csv": DEMO_FILES / "tools/inspect-desk.csv",
        "rubrics/exports/promptfoo-results.json": DEMO_FILES / "tools/promptfoo-results.json",
        "rubrics/exports/promptfoo-desk.csv": DEMO_FILES / "tools/promptfoo-desk.csv",
        "rubrics/exports/argilla-records.json": DEMO_FILES / "tools/argilla-records.json",
        "rubrics/exports/argilla-flat.jsonl": DEMO_FILES / "tools/argilla-flat.jsonl",
        "rubrics/exports/sagemaker-output.jsonl": DEMO_FILES / "tools/sagemaker-output.manifest",
        "rubrics/exports/doccano-rita.jsonl": DEMO_FILES / "tools/doccano-rita.jsonl",
        "rubrics/exports/doccano-omar.jsonl": DEMO_FILES / "tools/doccano-omar.jsonl",
        "rubrics/exports/prodigy.jsonl": DEMO_FILES / "tools/prodigy.jsonl",
    },
    # "Spreadsheets": sheets as LibreOffice, pandas and openpyxl saved them (docs/demos/tools/,
    # each with its command in docs/input-files.md).
    "export-xlsx": {
        "rubrics/sheets.rubric.yaml": """\
evaluator: agreement
cases:
  - id: desk-week-49
    input_file: exports/xlsx-desk.xlsx
    ledger: {id: task_id, a: judge_label, b: editor_label, labels: {PASS: true, FAIL: false},
             group_by: rated_on}
    expected:
      matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 1}
      agreement: 2
      total: 4
      disagreements: [hl-1402, hl-1404]

  - id: judge-against-desk
    ledger:
      a: {input_file: exports/xlsx-two-sheets.xlsx, sheet: judge, id: case, label: verdict}
      b: {input_file: exports/xlsx-two-sheets.xlsx, sheet: desk, id: case, label: verdict}
      graders: {a: judge, b: desk}
    expected:
      matrix: {bothPass: 2, bothFail: 0, aOnly: 0, bOnly: 1}
      agreement: 2
      total: 3
      disagreements: [hl-1602]

  - id: scored-by-openpyxl
    input_file: exports/xlsx-uncached.xlsx
    ledger: {id: task_id, a: judge_label, b: editor_label, labels: {PASS: true, FAIL: false}}
    expected: {}
""",
        "rubrics/exports/xlsx-desk.xlsx": DEMO_FILES / "tools/xlsx-desk.xlsx",
        "rubrics/exports/xlsx-two-sheets.xlsx": DEMO_FILES / "tools/xlsx-two-sheets.xlsx",
        "rubrics/exports/xlsx-uncached.xlsx": DEMO_FILES / "tools/xlsx-uncached.xlsx",
    },
    # "Tables kept as columns and data": files pandas and MLflow wrote (docs/demos/tools/).
    "split-tables": {
        "rubrics/tables.rubric.yaml": """\
evaluator: agreement
cases:
  - id: mlflow-eval-results-table
    input_file: exports/eval_results_table.json   # {"columns": [...], "data": [[...], ...]}
    ledger: {id: case_id, a: predictions, b: ground_truth, labels: {PASS: true, FAIL: false},
             graders: {a: judge, b: desk}}
    expected: {matrix: {bothPass: 4, bothFail: 2, aOnly: 1, bOnly: 1}, agreement: 6, total: 8, disagreements: [h5, h8]}

  - id: pandas-split-gzip
    input_file: exports/verdicts.json.gz          # with pandas' "index" too
    ledger: {id: case_id, a: judge, b: desk, group_by: desk_section,
             labels: [[true, true], [false, false], [PASS, true], [FAIL, false]]}
    expected: {matrix: {bothPass: 4, bothFail: 2, aOnly: 1, bOnly: 1}, agreement: 6, total: 8, disagreements: [h5, h8]}
""",
        "rubrics/exports/eval_results_table.json": DEMO_FILES
        / "tools/mlflow-eval_results_table.json",
        "rubrics/exports/verdicts.json.gz": DEMO_FILES / "tools/pandas-split.json.gz",
    },
    # "Exports as they come": inspect_ai's .eval logs, as inspect wrote them (docs/demos/tools/
    # inspect_headlines.py and inspect_epochs.py say how), against a desk's CSV and epoch by epoch.
    "export-inspect-eval": {
        "rubrics/inspect.rubric.yaml": """\
evaluator: agreement
cases:
  - id: eval-log-vs-desk
    ledger:
      a: {input_file: exports/inspect-log.eval, records: samples, id: id, ids: as-text,
          label: scores.model_graded_fact.value, labels: {C: true, I: false}}
      b: {input_file: exports/inspect-desk.csv, id: sample_id, label: verdict,
          labels: {PASS: true, FAIL: false}}
      graders: {a: llm-judge, b: desk}
    expected: {matrix: {bothPass: 5, bothFail: 1, aOnly: 1, bOnly: 1}, agreement: 6, total: 8, disagreements: ["6", "8"]}

  - id: epoch-1-vs-epoch-2
    input_file: exports/inspect-epochs.eval
    ledger: {rows: per-judgement, id: id, grader: epoch, label: scores.includes.value,
             a: 1, b: 2, labels: {C: true, I: false}}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 2}, agreement: 1, total: 4, disagreements: ["1", "10", "11"]}
""",
        "rubrics/exports/inspect-log.eval": DEMO_FILES / "tools/inspect-log.eval",
        "rubrics/exports/inspect-epochs.eval": DEMO_FILES / "tools/inspect-epochs.eval",
        "rubrics/exports/inspect-desk.csv": DEMO_FILES / "tools/inspect-desk.csv",
    },
    # The same .eval log where no zstd decoder is installed (the conftest hides both).
    "export-no-zstd": {
        "conftest.py": """\
import sys

for name in ("zstandard", "compression.zstd"):
    sys.modules[name] = None  # as if neither pytest-rubric[eval] nor Python 3.14 were here
""",
        "rubrics/inspect.rubric.yaml": """\
evaluator: agreement
cases:
  - id: epoch-1-vs-epoch-2
    input_file: exports/inspect-epochs.eval
    ledger: {rows: per-judgement, id: id, grader: epoch, label: scores.includes.value,
             a: 1, b: 2, labels: {C: true, I: false}}
    expected: {matrix: {bothPass: 1, bothFail: 0, aOnly: 1, bOnly: 2}, agreement: 1, total: 4, disagreements: ["1", "10", "11"]}
""",
        "rubrics/exports/inspect-epochs.eval": DEMO_FILES / "tools/inspect-epochs.eval",
    },
    # "A panel of graders": three annotators a task, as Label Studio and Prodigy write them.
    "panel": {
        "rubrics/panels.rubric.yaml": """\
evaluator: agreement
cases:
  - id: label-studio
    input_file: exports/label-studio-panel.json   # three users annotate each task
    ledger:
      rows: per-judgement
      id: id
      ids: as-text
      grader: annotations.completed_by
      label: annotations.result.0.value.choices.0
      panel: [2, 3, 4]                     # user IDs, as the export holds them
      graders: [ana, ben, cleo]
      labels: {PASS: true, FAIL: false}
      where: {annotations.was_cancelled: false}
    expected_pairs:
      ana vs ben: {matrix: {bothPass: 5, bothFail: 2, aOnly: 0, bOnly: 1}, agreement: 7, total: 8, disagreements: ["8"]}
      ana vs cleo: {error: review-label}
      ben vs cleo: {error: review-label}

  - id: label-studio-both-judged
    input_file: exports/label-studio-panel.json
    ledger:
      rows: per-judgement
      id: id
      ids: as-text
      grader: annotations.completed_by
      label: annotations.result.0.value.choices.0
      panel: [2, 3, 4]
      graders: [ana, ben, cleo]
      labels: {PASS: true, FAIL: false}
      where: {annotations.was_cancelled: false}
      overlap: both-judged                 # cleo skipped task 5
    expected_pairs:
      ana vs ben: {matrix: {bothPass: 5, bothFail: 2, aOnly: 0, bOnly: 1}, agreement: 7, total: 8, disagreements: ["8"]}
      ana vs cleo: {matrix: {bothPass: 3, bothFail: 2, aOnly: 1, bOnly: 1}, agreement: 5, total: 7, disagreements: ["2", "8"]}
      ben vs cleo: {matrix: {bothPass: 4, bothFail: 2, aOnly: 1, bOnly: 0}, agreement: 6, total: 7, disagreements: ["2"]}

  - id: prodigy-sessions
    input_file: exports/prodigy-panel.jsonl   # db-out: one session per annotator
    ledger:
      rows: per-judgement
      id: _input_hash
      ids: as-text
      grader: _session_id
      label: answer
      panel: [headlines_check-rita, headlines_check-omar, headlines_check-lena]
      graders: [rita, omar, lena]
      labels: {accept: true, reject: false}
    expected_pairs:
      rita vs omar: {matrix: {bothPass: 5, bothFail: 2, aOnly: 0, bOnly: 1}, agreement: 7, total: 8, disagreements: ["-1173789389"]}
      rita vs lena: {error: review-label}
      omar vs lena: {error: review-label}
""",
        "rubrics/exports/label-studio-panel.json": DEMO_FILES / "tools/label-studio-panel.json",
        "rubrics/exports/prodigy-panel.jsonl": DEMO_FILES / "tools/prodigy-panel.jsonl",
    },
    # "Exports as they come": the Parquet case where pyarrow is not installed (the conftest hides it).
    "export-no-pyarrow": {
        "conftest.py": """\
import sys

for name in ("pyarrow", "pyarrow.parquet", "pyarrow.compute"):
    sys.modules[name] = None  # as if pytest-rubric[parquet] were not installed
""",
        "rubrics/weeks.rubric.yaml": """\
evaluator: agreement
cases:
  - id: week-57
    input_file: exports/week-57.parquet
    expected:
      matrix: {bothPass: 1, bothFail: 1, aOnly: 1, bOnly: 1}
      agreement: 2
      total: 4
      disagreements: [hl-1202, hl-1204]
""",
        "rubrics/exports/week-57.parquet": DEMO_FILES / "parquet/week-57.parquet",
    },
    # "Decision logs as cases": a judge's log with an incoherent, an invalid and a repeated
    # decision, and the same rules kept in a spreadsheet.
    "datasets": {
        "rubrics/judge.rubric.yaml": """\
evaluator: reason
cases:
  - id: judge-2024-12
    dataset:
      file: logs/decisions-2024-12.jsonl
      id: decision_id
      input:
        fields: {title: checks.has_title, source: checks.has_source}
        pass: verdict
        reasons: reason_codes
      labels: {PASS: true, FAIL: false}
    expected_subset: {coherent: true}
""",
        "rubrics/logs/decisions-2024-12.jsonl": (
            '{"decision_id": "dec-2024-12-000031", "judge": "gpt-4o", "checks": {"has_title": '
            'true, "has_source": true}, "verdict": "PASS", "reason_codes": ["all-required-met"], '
            '"rationale": "Names the paper and the agency."}\n'
            '{"decision_id": "dec-2024-12-000032", "judge": "gpt-4o", "checks": {"has_title": '
            'true, "has_source": false}, "verdict": "PASS", "reason_codes": ["all-required-met"], '
            '"rationale": "Reads well."}\n'
            '{"decision_id": "dec-2024-12-000033", "judge": "gpt-4o", "checks": {"has_title": '
            'false, "has_source": true}, "verdict": "UNSURE", "reason_codes": [], '
            '"rationale": "Could not tell."}\n'
            '{"decision_id": "dec-2024-12-000034", "judge": "gpt-4o", "checks": {"has_title": '
            'false, "has_source": false}, "verdict": "FAIL", "reason_codes": ["missing-source", '
            '"missing-title"], "rationale": "Neither."}\n'
            '{"decision_id": "dec-2024-12-000031", "judge": "gpt-4o", "checks": {"has_title": '
            'true, "has_source": true}, "verdict": "PASS", "reason_codes": ["all-required-met"], '
            '"rationale": "Logged twice by a retry."}\n'
        ),
        "rubrics/desk.rubric.yaml": """\
evaluator: reason
cases:
  - id: desk-2024-12
    dataset:
      file: logs/desk-2024-12.csv
      id: headline
      input:
        fields: {title: has title, source: has source}
        pass: verdict
        reasons: codes
      labels: {PASS: true, FAIL: false}
      split: {codes: "|"}
    expected_subset: {coherent: true}
""",
        "rubrics/logs/desk-2024-12.csv": (
            "headline,has title,has source,verdict,codes\n"
            "hl-1201,true,true,PASS,all-required-met\n"
            "hl-1202,false,false,FAIL,missing-source|missing-title\n"
        ),
    },
    # "Comparing runs" and "A ledger by group": last week's run and this week's, after the
    # judge's prompt changed (each folder its own rootdir, so node IDs match).
    "compare": {
        "before/pytest.ini": "[pytest]\n",
        "before/rubrics/weekly.rubric.yaml": WEEK_49,
        "before/rubrics/ledgers/week-49.jsonl": (
            '{"id": "hl-901", "desk": "politics", "judge": true, "editor": true}\n'
            '{"id": "hl-902", "desk": "sport", "judge": true, "editor": true}\n'
            '{"id": "hl-903", "desk": "science", "judge": true, "editor": false}\n'
            '{"id": "hl-904", "desk": "politics", "judge": false, "editor": false}\n'
            '{"id": "hl-905", "desk": "sport", "judge": true, "editor": true}\n'
            '{"id": "hl-906", "desk": "sport", "judge": false, "editor": false}\n'
        ),
        "after/pytest.ini": "[pytest]\n",
        "after/rubrics/weekly.rubric.yaml": WEEK_49
        + """
  - id: week-50
    input_file: ledgers/week-50.jsonl
    ledger: {id: id, a: judge, b: editor, graders: {a: judge, b: editor}, group_by: desk}
    expected:
      matrix: {bothPass: 1, bothFail: 1, aOnly: 0, bOnly: 0}
      agreement: 2
      total: 2
      disagreements: []
""",
        "after/rubrics/ledgers/week-49.jsonl": (
            '{"id": "hl-901", "desk": "politics", "judge": true, "editor": true}\n'
            '{"id": "hl-902", "desk": "sport", "judge": true, "editor": true}\n'
            '{"id": "hl-903", "desk": "science", "judge": false, "editor": false}\n'
            '{"id": "hl-904", "desk": "politics", "judge": false, "editor": false}\n'
            '{"id": "hl-905", "desk": "sport", "judge": false, "editor": true}\n'
            '{"id": "hl-906", "desk": "sport", "judge": true, "editor": false}\n'
        ),
        "after/rubrics/ledgers/week-50.jsonl": (
            '{"id": "hl-1001", "desk": "sport", "judge": true, "editor": true}\n'
            '{"id": "hl-1002", "desk": "politics", "judge": false, "editor": false}\n'
        ),
    },
    # "Tabs, and a header that repeats a name": Label Studio's TSV export and promptfoo's CSV
    # of two prompts, as the tools wrote them.
    "tables": {
        "rubrics/tables.rubric.yaml": """\
evaluator: agreement
cases:
  - id: label-studio-tsv
    input_file: exports/label-studio.tsv
    ledger: {rows: per-judgement, id: id, grader: annotator, label: verdict, a: '10', b: '12',
             labels: {PASS: true, FAIL: false}}
    expected: {matrix: {bothPass: 5, bothFail: 2, aOnly: 0, bOnly: 1}, agreement: 7, total: 8, disagreements: ["108"]}

  - id: strict-vs-lenient
    input_file: exports/promptfoo-two-prompts.csv
    ledger: {id: id, a: 'Status#1', b: 'Status#2', labels: {PASS: true, FAIL: false},
             graders: {a: strict, b: lenient}}
    expected: {matrix: {bothPass: 5, bothFail: 1, aOnly: 0, bOnly: 2}, agreement: 6, total: 8, disagreements: [h6, h8]}

  - id: bare-status
    input_file: exports/promptfoo-two-prompts.csv
    ledger: {id: id, a: Status, b: 'Status#2', labels: {PASS: true, FAIL: false}}
    expected: {matrix: {bothPass: 5, bothFail: 1, aOnly: 0, bOnly: 2}, agreement: 6, total: 8, disagreements: [h6, h8]}
""",
        "rubrics/exports/label-studio.tsv": DEMO_FILES / "tools/label-studio.tsv",
        "rubrics/exports/promptfoo-two-prompts.csv": DEMO_FILES / "tools/promptfoo-two-prompts.csv",
    },
}

#: The pytest runs a demo needs before its command, each as its arguments, in order.
SETUP: dict[str, list[list[str]]] = {
    # "Comparing runs": last week's run and this week's, each with its report.
    "compare": [
        ["before", "-q", "-p", "no:cacheprovider", "--rubric-report=before.json"],
        ["after", "-q", "-p", "no:cacheprovider", "--rubric-report=after.json"],
    ],
}

#: Demos that run only where a module is installed: the Parquet ones need pyarrow, the sheets
#: python-calamine, the .eval ones a zstd decoder.
NEEDS = {
    "export-parquet": "pyarrow",
    "export-xlsx": "python_calamine",
    "export-inspect-eval": "zstandard",
}


def _name(file: Path) -> str:
    """A checked file, as the repository names it."""
    return file.relative_to(ROOT).as_posix()


HEADER = re.compile(
    r"^(platform |rootdir: |configfile: |testpaths: |plugins: |cachedir: |hypothesis profile |"
    r"created: |\d+ workers? \[|\[gw\d+\] )"
)
TIMING = re.compile(r" in \d+(?:\.\d+)?s(?: \(\d+:\d\d:\d\d\))?")
RULE = re.compile(r"^([=_-])\1* (.*?) \1+$")


@dataclass(frozen=True)
class Pasted:
    """One marked output block of a Markdown file."""

    file: Path
    module: str
    args: tuple[str, ...]
    project: str
    #: The file the block shows (the command's output file), or ``None``: what it printed.
    written: str | None
    first: str | None
    last: str | None
    pytest_version: tuple[int, ...]
    block: str
    span: tuple[int, int]  # where the block's text is in its file

    @property
    def name(self) -> str:
        return _name(self.file)

    @property
    def label(self) -> str:
        return f"{self.name}:{self.project}"


def pasted_blocks(file: Path, text: str | None = None) -> list[Pasted]:
    """The marked blocks of ``file`` (of ``text``, when given, as the file's text)."""
    if text is None:
        text = file.read_text(encoding="utf-8")
    return [
        Pasted(
            file=file,
            module=match["module"],
            args=tuple(match["args"].split()),
            project=match["project"],
            written=match["file"],
            first=match["first"],
            last=match["last"],
            pytest_version=version(match["pytest"] or "0"),
            block=match["block"],
            span=match.span("block"),
        )
        for match in MARKER.finditer(text)
    ]


def version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def make_project(project: str, where: Path) -> None:
    if project.startswith("demo:"):
        for name, content in DEMOS[project.removeprefix("demo:")].items():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                shutil.copyfile(content, where / name)
            elif isinstance(content, bytes):
                (where / name).write_bytes(content)
            else:
                (where / name).write_text(content)
    else:
        shutil.copytree(ROOT / project, where, dirs_exist_ok=True)


def run(pasted: Pasted, where: Path) -> str:
    """The command's real output, run in a fresh copy of its project under ``where``."""
    make_project(pasted.project, where)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    # A fixed width, and no CI mode (which stops pytest cutting short-summary lines).
    env.update(COLUMNS="80", LINES="24", CI="", BUILD_NUMBER="", PY_COLORS="0")
    for name in CI_VARIABLES:  # --rubric-update is refused where these are set
        env.pop(name, None)
    for args in SETUP.get(pasted.project.removeprefix("demo:"), ()):
        subprocess.run(
            [sys.executable, "-m", "pytest", *args],
            cwd=where,
            env=env,
            capture_output=True,
            check=False,
            timeout=300,
        )
    completed = subprocess.run(
        [sys.executable, "-m", pasted.module, *pasted.args],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    shown = completed.stdout
    if pasted.written is not None:
        target = where / pasted.written
        shown = target.read_text(encoding="utf-8") if target.is_file() else ""
    return shown.replace(str(where.resolve()), ".").replace(str(where), ".")


def excerpt(pasted: Pasted, output: str) -> str:
    lines = output.splitlines()
    start = 0
    if pasted.first is not None:
        start = next((i for i, line in enumerate(lines) if pasted.first in line), len(lines))
    end = len(lines)
    if pasted.last is not None:
        end = next((i + 1 for i in range(start, len(lines)) if pasted.last in lines[i]), end)
    return "".join(f"{line}\n" for line in lines[start:end])


def normalise(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        line = line.rstrip()
        header = HEADER.match(line)
        if header:
            line = f"{header.group(1)}..."
        line = TIMING.sub(" in N.NNs", line)
        rule = RULE.match(line)
        if rule:
            line = f"{rule.group(1)} {rule.group(2)} {rule.group(1)}"
        lines.append(line)
    return lines


def missing(pasted: Pasted) -> str | None:
    """The module ``pasted``'s demo needs, when it is not installed."""
    module = NEEDS.get(pasted.project.removeprefix("demo:"))
    if module is None or importlib.util.find_spec(module) is not None:
        return None
    return module


def refresh(file: Path) -> int:
    """Rewrite every marked block of ``file`` from a real run; return how many changed."""
    text = file.read_text(encoding="utf-8")
    changed = 0
    for pasted in reversed(pasted_blocks(file, text)):  # from the end, so spans stay valid
        if version(pytest.__version__) < pasted.pytest_version or missing(pasted):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            fresh = excerpt(pasted, run(pasted, Path(tmp)))
        if normalise(fresh) != normalise(pasted.block):
            begin, end = pasted.span
            text = text[:begin] + fresh + text[end:]
            changed += 1
    if changed:
        file.write_text(text, encoding="utf-8")
    return changed


PASTED = [pasted for file in FILES for pasted in pasted_blocks(file)]


@pytest.mark.parametrize("file", FILES, ids=_name)
def test_every_pasted_output_in_the_readme_has_a_marker(file: Path) -> None:
    text = file.read_text(encoding="utf-8")
    fenced = text.count("```text\n") + text.count("```markdown\n")
    assert fenced == len(pasted_blocks(file)), (
        f"{_name(file)}: put an <!-- output of ... --> marker before each ```text block"
    )


def test_the_pasted_outputs_are_found() -> None:
    assert len(PASTED) >= 3
    assert any(pasted.file == README for pasted in PASTED)


@pytest.mark.parametrize("pasted", PASTED, ids=[pasted.label for pasted in PASTED])
def test_a_pasted_output_is_what_a_real_run_prints(pasted: Pasted, tmp_path: Path) -> None:
    if version(pytest.__version__) < pasted.pytest_version:
        pytest.skip(
            f"the block shows what pytest>={'.'.join(map(str, pasted.pytest_version))} prints"
        )
    module = missing(pasted)
    if module is not None:
        pytest.skip(f"{pasted.project} needs {module}")
    fresh = excerpt(pasted, run(pasted, tmp_path))
    assert fresh, f"the command printed no line containing {pasted.first!r}"
    if normalise(fresh) != normalise(pasted.block):
        pytest.fail(
            f"{pasted.name} block for `{pasted.module} {' '.join(pasted.args)}` in "
            f"{pasted.project} differs "
            f"from a real run; refresh with `python tests/test_readme.py --refresh`.\n"
            f"Real output:\n{fresh}",
            pytrace=False,
        )


if __name__ == "__main__":
    if sys.argv[1:] != ["--refresh"]:
        sys.exit(f"usage: {sys.argv[0]} --refresh")
    for file in FILES:
        print(f"{refresh(file)} block(s) refreshed in {_name(file)}")
