"""How long the review page takes to open and to turn a page, at 10,000 disagreements
against 300 (two pages of rows), in the same headless Chromium, side by side.

    python benchmarks/bench_page.py [--rows 10000] [--repeats 5] [--groups 10] [--baseline]

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
selenium (the test extra). Each repeat opens both pages from disk, alternating, and
times until the page says it is ready (``body[data-ready]``), then times one click on
"next" inside the page (``performance.now()``, no WebDriver round trip in it). Prints
the medians and the ratio large / small for each, so a slower machine moves both.

``--groups N`` groups the ledger's rows (``group_by``) into N groups and also times
choosing the last group in the filter; ``--baseline`` gives the page a comparison with a
baseline where every tenth row entered and as many IDs left.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from pytest_rubric.reports.htmlpage import review_page

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CLICK = (
    "const t = performance.now(); document.querySelector('div.rows button.next').click();"
    " return performance.now() - t;"
)


CHOOSE = (
    "const select = document.querySelector('select.group-filter');"
    " const t = performance.now(); select.value = String(select.options.length - 2);"
    " select.dispatchEvent(new Event('change')); return performance.now() - t;"
)


def report(rows: int, groups: int = 0) -> dict[str, Any]:
    """A report with one ledger of ``rows`` disagreement rows to review, in ``groups``
    groups (none: not grouped)."""
    kept = [
        {
            "id": f"case-{n:05d}",
            "a": bool(n % 2),
            "b": not n % 2,
            "side": "aOnly" if n % 2 else "bOnly",
            "where": f"ledgers/week.jsonl:{n}",
            "fields": {"note": f"note {n}"},
        }
        for n in range(1, rows + 1)
    ]
    a_only = sum(row["side"] == "aOnly" for row in kept)
    matrix = {"bothPass": 5, "bothFail": 0, "aOnly": a_only, "bOnly": rows - a_only}
    review: dict[str, Any] = {"rows": kept, "more": 0}
    if groups:
        for n, row in enumerate(kept):
            row["group"] = f"category {n % groups}"
        review.update(
            groupBy="category", groups=[_group(kept, f"category {n}") for n in range(groups)]
        )
    case = {
        "nodeid": "ledgers.rubric.yaml::big",
        "case": "big",
        "file": "ledgers.rubric.yaml",
        "line": 3,
        "index": 0,
        "evaluator": "agreement",
        "outcome": "matched",
        "actual": {
            "matrix": matrix,
            "agreement": 5,
            "total": 5 + rows,
            "disagreements": [row["id"] for row in kept],
        },
        "review": review,
    }
    return {"pytestRubric": "bench", "summary": {"cases": 1}, "cases": [case]}


def _group(rows: list[dict[str, Any]], label: str) -> dict[str, Any]:
    sides = [row["side"] for row in rows if row["group"] == label]
    cells = {
        "bothPass": 0,
        "bothFail": 0,
        "aOnly": sides.count("aOnly"),
        "bOnly": sides.count("bOnly"),
    }
    return {
        "label": label,
        "value": label,
        "matrix": cells,
        "agreement": 0,
        "total": len(sides),
        "disagreements": [row["id"] for row in rows if row["group"] == label],
    }


def comparison(data: dict[str, Any]) -> dict[str, Any]:
    """What ``diff --json`` says of ``data`` against a baseline where every tenth row of
    its ledger was not a disagreement and as many others were."""
    case = data["cases"][0]
    rows = case["review"]["rows"]
    entered = [{"id": row["id"], "where": row["where"]} for row in rows[::10]]
    left = [
        {"id": f"gone-{n:05d}", "where": f"ledgers/week.jsonl:{n}"} for n in range(len(entered))
    ]
    counts = {key: case["actual"][key] for key in ("matrix", "agreement", "total")}
    side = {
        "report": "bench.json",
        "pytestRubric": "bench",
        "cases": 1,
        "digest": "sha256:" + "0" * 64,
        "collected": 1,
        "collectedOnly": 0,
    }
    summary = {"onlyOld": 0, "onlyNew": 0, "outcomeChanged": 0, "answerChanged": 0}
    summary.update(notCompared=0, compared=1)
    place = {key: case[key] for key in ("nodeid", "case", "file", "line")}
    return {
        "format": "pytest-rubric-diff",
        "version": 1,
        "old": {**side, "report": "baseline.json"},
        "new": side,
        "sameSuite": True,
        "changed": True,
        "summary": {**summary, "ledgersChanged": 1},
        "cases": [],
        "ledgers": [{**place, "before": counts, "after": counts, "entered": entered, "left": left}],
    }


def open_page(driver: Any, page: Path, grouped: bool = False) -> tuple[float, ...]:
    """Seconds until ``page`` is ready, milliseconds of one click on "next", and when
    ``grouped``, milliseconds of choosing a group."""
    start = time.perf_counter()
    driver.get(page.as_uri())
    WebDriverWait(driver, 120).until(
        lambda found: found.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
    )
    opened = time.perf_counter() - start
    clicked = float(driver.execute_script(CLICK))
    if not grouped:
        return opened, clicked
    return opened, clicked, float(driver.execute_script(CHOOSE))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--groups", type=int, default=0, help="group the rows into N groups")
    parser.add_argument("--baseline", action="store_true", help="compare with a baseline")
    args = parser.parse_args()
    grouped = args.groups > 0
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        with tempfile.TemporaryDirectory() as folder:
            pages = {}
            for name, rows in (("large", args.rows), ("small", 300)):
                pages[name] = Path(folder) / f"{name}.html"
                data = report(rows, args.groups)
                page = review_page(data, comparison(data) if args.baseline else None)
                pages[name].write_text(page, encoding="utf-8")
            timings: dict[str, list[tuple[float, ...]]] = {"large": [], "small": []}
            for name in pages:  # once untimed: the browser's caches as a reload finds them
                open_page(driver, pages[name], grouped)
            for _ in range(args.repeats):
                for name in pages:
                    timings[name].append(open_page(driver, pages[name], grouped))
    finally:
        driver.quit()
    measured = [(0, "open until ready", "s"), (1, "one click on next", "ms")]
    if grouped:
        measured.append((2, "choose a group", "ms"))
    for index, what, unit in measured:
        large = statistics.median(pair[index] for pair in timings["large"])
        small = statistics.median(pair[index] for pair in timings["small"])
        print(
            f"{what:18}  {args.rows:,} rows {large:8.3f} {unit}  300 rows {small:8.3f} {unit}"
            f"  ratio {large / small:6.2f}x"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
