"""How long the review page takes to open and to turn a page, at 10,000 disagreements
against 300 (two pages of rows), in the same headless Chromium, side by side.

    python benchmarks/bench_page.py [--rows 10000] [--repeats 5]

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
selenium (the test extra). Each repeat opens both pages from disk, alternating, and
times until the page says it is ready (``body[data-ready]``), then times one click on
"next" inside the page (``performance.now()``, no WebDriver round trip in it). Prints
the medians and the ratio large / small for each, so a slower machine moves both.
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
    "const t = performance.now(); document.querySelector('button.next').click();"
    " return performance.now() - t;"
)


def report(rows: int) -> dict[str, Any]:
    """A report with one ledger of ``rows`` disagreement rows to review."""
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
        "review": {"rows": kept, "more": 0},
    }
    return {"pytestRubric": "bench", "summary": {"cases": 1}, "cases": [case]}


def open_page(driver: Any, page: Path) -> tuple[float, float]:
    """Seconds until ``page`` is ready, and milliseconds of one click on "next"."""
    start = time.perf_counter()
    driver.get(page.as_uri())
    WebDriverWait(driver, 120).until(
        lambda found: found.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
    )
    opened = time.perf_counter() - start
    return opened, float(driver.execute_script(CLICK))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
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
                pages[name].write_text(review_page(report(rows)), encoding="utf-8")
            timings: dict[str, list[tuple[float, float]]] = {"large": [], "small": []}
            for name in pages:  # once untimed: the browser's caches as a reload finds them
                open_page(driver, pages[name])
            for _ in range(args.repeats):
                for name in pages:
                    timings[name].append(open_page(driver, pages[name]))
    finally:
        driver.quit()
    for index, what, unit in ((0, "open until ready", "s"), (1, "one click on next", "ms")):
        large = statistics.median(pair[index] for pair in timings["large"])
        small = statistics.median(pair[index] for pair in timings["small"])
        print(
            f"{what:18}  {args.rows:,} rows {large:8.3f} {unit}  300 rows {small:8.3f} {unit}"
            f"  ratio {large / small:6.2f}x"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
