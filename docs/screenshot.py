"""Refresh docs/review-page.png, the README's picture of the review page on example_project.

    .venv/bin/python docs/screenshot.py

Runs example_project with ``--rubric-html``, opens the page from disk in Debian's Chromium
(headless, through the packaged ``/usr/bin/chromedriver``, as the browser tests do), clicks
the first ledger's bOnly cell so the filter shows, and saves a PNG beside this script.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "example_project"
OUTPUT = HERE / "review-page.png"
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--hide-scrollbars",
)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "review.html"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                f"--rubric-html={page}",
            ],
            cwd=EXAMPLE,
            capture_output=True,
            text=True,
            check=False,
        )
        if not page.exists():
            print(run.stdout, run.stderr, sep="\n", file=sys.stderr)
            return 1
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in FLAGS:
            options.add_argument(flag)
        driver = webdriver.Chrome(
            service=Service(executable_path="/usr/bin/chromedriver"), options=options
        )
        try:
            driver.set_window_size(1100, 900)
            driver.get(page.as_uri())
            WebDriverWait(driver, 30).until(
                lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
            )
            driver.find_element(By.CSS_SELECTOR, '#ledger-0 td[data-cell="bOnly"]').click()
            height = driver.execute_script(
                "const box = document.getElementById('ledger-1');"
                "return Math.ceil(box.getBoundingClientRect().bottom) + 16;"
            )
            driver.set_window_size(1100, max(600, min(int(height) + 140, 1600)))
            driver.save_screenshot(str(OUTPUT))
        finally:
            driver.quit()
    print(f"wrote {OUTPUT.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
