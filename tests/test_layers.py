"""The tree is the architecture: each layer a subpackage, imports only downwards.

An ``ast`` walk of the package reads every import, those inside functions and under
``TYPE_CHECKING`` too, and holds them to the edges written out below.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_rubric"

#: The layers from the bottom up. A layer is a subpackage, or a top-level module.
LAYERS = (
    "core",  # JSON values, strict equality, Evaluator/Evidence, errors, file writes
    "hookspecs",  # the pluggy hooks plugins implement
    "evaluators",  # the built-ins and their registration (discovery)
    "inputs",  # input files: formats, ledger: descriptions, rows read as they say
    "casefiles",  # strict YAML, the loader, marks, the cache
    "running",  # one case through its evaluator, compared strictly
    "reports",  # records, the JSON report, merge, the page, schemas, failure text
    "editing",  # --rubric-update's decisions and text surgery
    "plugin",  # everything that imports pytest
    "cli",  # python -m pytest_rubric merge|html
    "__main__",
    "__init__",  # the public API, imported lazily
)

#: Which layers each layer may import. Every edge points down the list above.
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "hookspecs": {"core"},
    "evaluators": {"core", "hookspecs"},
    "inputs": {"core"},
    "casefiles": {"core", "inputs"},
    "running": {"core", "inputs", "casefiles"},
    "reports": {"core", "casefiles", "running"},
    "editing": {"core", "casefiles", "running"},
    "plugin": {
        "core",
        "hookspecs",
        "evaluators",
        "inputs",
        "casefiles",
        "running",
        "reports",
        "editing",
    },
    "cli": {"core", "reports"},
    "__main__": {"cli"},
    "__init__": {"core", "hookspecs", "evaluators"},
}

#: Only the pytest layer may import these.
PYTEST_MODULES = ("pytest", "_pytest")


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":  # a package: named as it is imported
            parts = parts[:-1]
        yield ".".join(("pytest_rubric", *parts)), path


def _layer(module: str) -> str:
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def _imports(module: str, path: Path) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports (absolute names), with its line."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            for alias in node.names:  # "from pytest_rubric import cli" imports a module
                inner = f"{name}.{alias.name}"
                yield node.lineno, inner if _internal(inner) == inner else name


def _internal(name: str) -> str | None:
    """The module of ours that ``name`` is or lies in, if any."""
    if name != "pytest_rubric" and not name.startswith("pytest_rubric."):
        return None
    candidate = name
    while candidate:
        if any(module == candidate for module, _ in _modules()):
            return candidate
        candidate = candidate.rpartition(".")[0]
    return None


def test_every_module_sits_in_a_layer_and_every_allowed_edge_points_down() -> None:
    for module, _ in _modules():
        assert _layer(module) in LAYERS, f"{module} is in no layer; add it to LAYERS"
    for layer, below in ALLOWED.items():
        for other in below:
            assert LAYERS.index(other) < LAYERS.index(layer), f"{layer} -> {other} points up"


@pytest.mark.parametrize(
    ("module", "path"), list(_modules()), ids=lambda value: value if isinstance(value, str) else ""
)
def test_a_module_imports_only_from_the_layers_below_it(module: str, path: Path) -> None:
    layer = _layer(module)
    wrong = []
    for line, name in _imports(module, path):
        target = _internal(name)
        if target is None:
            continue
        other = _layer(target)
        if other != layer and other not in ALLOWED[layer]:
            wrong.append(f"{path.name}:{line}: {layer} imports {target} ({other})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("module", "path"), list(_modules()), ids=lambda value: value if isinstance(value, str) else ""
)
def test_only_the_pytest_layer_imports_pytest(module: str, path: Path) -> None:
    if _layer(module) == "plugin":
        return
    found = [
        f"{path.name}:{line}: {name}"
        for line, name in _imports(module, path)
        if name.split(".")[0] in PYTEST_MODULES
    ]
    assert not found, "\n".join(found)


def test_no_module_imports_itself_round_a_circle() -> None:
    graph: dict[str, set[str]] = {module: set() for module, _ in _modules()}
    for module, file in _modules():
        for _, name in _imports(module, file):
            target = _internal(name)
            if target is not None and target != module:
                graph[module].add(target)
    # A package's __init__ is imported with each of its modules: an edge to it is an edge
    # to the package, which is as much a circle when that package imports back.
    seen: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        seen[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                circle = [*path[path.index(nxt) :], nxt]
                pytest.fail("an import circle: " + " -> ".join(circle))
            if nxt not in seen:
                visit(nxt)
        path.pop()
        seen[node] = 2

    for node in sorted(graph):
        if node not in seen:
            visit(node)


#: A module holds one job and stays short enough to read in one sitting.
MAX_MODULE_LINES = 500
#: The YAML room (strict YAML, the loader, marks, the cache) stays a room, not a wing.
MAX_CASEFILES_LINES = 2500


@pytest.mark.parametrize(
    ("module", "path"), list(_modules()), ids=lambda value: value if isinstance(value, str) else ""
)
def test_no_module_is_longer_than_one_sitting(module: str, path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{module} has {lines} lines; split it along its jobs"


def test_the_yaml_room_stays_small() -> None:
    lines = sum(
        len(path.read_text(encoding="utf-8").splitlines())
        for path in (PACKAGE / "casefiles").glob("*.py")
    )
    assert lines <= MAX_CASEFILES_LINES, f"casefiles/ has {lines} lines"


#: An input file's suffix, as a value (``".csv"``, ``".json.gz"``): the formats' alone.
_INPUT_SUFFIX = re.compile(r"\.(?:jsonl|json|csv|parquet|gz)(?:\.gz)?")


def _suffix_values(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Each string constant of ``tree`` that is an input suffix, or a tuple of them; the
    text between an f-string's fields (``f"{name}.json"``) is words, not a value."""
    inside = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and type(node.value) is str
            and id(node) not in inside
            and _INPUT_SUFFIX.fullmatch(node.value)
        ):
            yield node.lineno, node.value


@pytest.mark.parametrize(
    ("module", "path"),
    [pair for pair in _modules() if not pair[0].startswith("pytest_rubric.inputs.formats")],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_no_module_but_the_formats_names_an_input_suffix(module: str, path: Path) -> None:
    found = list(_suffix_values(ast.parse(path.read_text(encoding="utf-8"))))
    assert not found, (
        f"{module} names input suffixes {found}: ask the file's format "
        "(pytest_rubric.inputs.formats) what it is"
    )


def test_the_suffix_scan_finds_a_suffix_compared_with_a_path() -> None:
    tree = ast.parse('ok = name.endswith((".csv", ".csv.gz")) or f"{stem}.json"')
    assert [value for _, value in _suffix_values(tree)] == [".csv", ".csv.gz"]
