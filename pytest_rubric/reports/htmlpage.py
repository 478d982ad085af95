"""``--rubric-html`` and ``python -m pytest_rubric html``: one self-contained review page.

The page is made from a report document (:func:`pytest_rubric.reports.jsonreport.document`):
every agreement ledger with its matrix, agreement over total and the disagreement
rows the report kept; every mismatch and case error with its differing keys and
evidence; passed cases counted and listed collapsed. Given a comparison with a
baseline, the page shows what changed (:mod:`~pytest_rubric.reports.pagecompare`); a
grouped ledger gets a group filter (:mod:`~pytest_rubric.reports.pagegroups`); what the
page shows is taken in :mod:`~pytest_rubric.reports.pagedata`. The page's HTML, styles
and script are package files (``assets/``: ``page.html``, ``page.css``, ``page.js``, and
the comparison's and group filter's ``compare.*`` and ``groups.*``), read once when this
module is imported. Nothing is fetched: the styles and the script are set in the page,
and a Content-Security-Policy forbids loading anything else.

Data never becomes markup. It is embedded once, as JSON inside
``<script type="application/json">`` with ``<``, ``>``, ``&``, U+2028 and U+2029
escaped, and the script builds the page from it with text nodes only. This
module does not import pytest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

from pytest_rubric.core.escapes import is_encodable
from pytest_rubric.reports.pagedata import page_data

_SURROGATES = re.compile("[\ud800-\udfff]")
_JSON_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def embedded_json(value: Any) -> str:
    """``value`` as JSON that can stand inside ``<script type="application/json">``:
    nothing in it can end the element or start markup."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).translate(_JSON_ESCAPES)
    if is_encodable(text):
        return text
    # A lone surrogate (read from a JSON escape) cannot be written as UTF-8; its own
    # escape can, and the browser reads it back as the same text.
    return _SURROGATES.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def review_page(report: Mapping[str, Any], comparison: Mapping[str, Any] | None = None) -> str:
    """The review page of ``report``: one HTML document, text only from data.

    ``comparison`` is what ``pytest-rubric diff --json`` prints for a baseline
    against ``report``; when given, the page marks what changed since the baseline."""
    return _BEFORE_DATA + embedded_json(page_data(report, comparison)) + _AFTER_DATA


def _asset(name: str) -> str:
    return (
        resources.files(__package__).joinpath("assets").joinpath(name).read_text(encoding="utf-8")
    )


def _page() -> tuple[str, str]:
    """The page's text before and after its data: ``assets/page.html`` with the styles
    (``page.css``, then each part's) and the script (``page.js``, each part's script set
    in where it says) in it."""
    style = "\n".join(
        _asset(name) for name in ("page.css", "compare.css", "groups.css", "panels.css")
    )
    parts = "\n".join(_asset(name) for name in ("compare.js", "groups.js", "panels.js"))
    script = _asset("page.js").replace(_PARTS, f"\n{parts}\n")
    page = _asset("page.html").replace("__STYLE__", style).replace("__SCRIPT__", script)
    before, after = page.split("__DATA__")
    return before, after


#: The line of ``page.js`` where the comparison's and the group filter's scripts go.
_PARTS = "  // compare.js and groups.js (htmlpage.py sets them in here)\n"
_BEFORE_DATA, _AFTER_DATA = _page()
