"""The tree is the architecture: each layer a subpackage, imports only downwards.

An ``ast`` walk of the package reads every import, those inside functions and under
``TYPE_CHECKING`` too, and holds them to the edges written out below.
"""

from __future__ import annotations

import ast
import functools
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
    "descriptions",  # ledger:, dataset: and join-side blocks read from a case file
    "inputs",  # input files: formats, rows read as their blocks say
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
    "descriptions": {"core"},
    "inputs": {"core", "descriptions"},
    "casefiles": {"core", "descriptions", "inputs"},
    "running": {"core", "descriptions", "inputs", "casefiles"},
    "reports": {"core", "casefiles", "running"},
    "editing": {"core", "casefiles", "running"},
    "plugin": {
        "core",
        "hookspecs",
        "evaluators",
        "descriptions",
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


@functools.cache
def _module_names() -> frozenset[str]:
    return frozenset(module for module, _ in _modules())


def _layer(module: str) -> str:
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def _imports(module: str, path: Path) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports (absolute names), with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            name = _from(module, path, node)
            for alias in node.names:  # "from pytest_rubric import cli" imports a module
                inner = f"{name}.{alias.name}"
                yield node.lineno, inner if _internal(inner) == inner else name


def _from(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute name of the module ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if path.name == "__init__.py" else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _internal(name: str) -> str | None:
    """The module of ours that ``name`` is or lies in, if any."""
    if name != "pytest_rubric" and not name.startswith("pytest_rubric."):
        return None
    candidate = name
    while candidate:
        if candidate in _module_names():
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
#: The YAML room (strict YAML, the loader, marks, the cache) stays a room, not a wing. It
#: also holds the check of a case's dataset: block against its file (casefiles/datasetcheck.py),
#: the cache's encoding of the blocks descriptions/ reads (casefiles/casecodec.py) and the
#: reading of one-line JSON values by the JSON decoder (casefiles/yamljson.py, 2,750 before).
MAX_CASEFILES_LINES = 2875


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


# --- issue 43's limits: rooms of few arrows, short functions, no dead code ---------------

#: A room is a layer's subpackage; a module leans on at most this many of its room's others.
MAX_ROOM_IMPORTS = 7
#: The longest chain of imports among a room's modules, counting modules (a -> b -> c is 3).
MAX_FLOORS = 8
#: The rooms that read and describe input files, where functions stay short and narrow.
INPUT_ROOMS = ("inputs", "descriptions")
MAX_FUNCTION_LINES = 80
MAX_PARAMETERS = 6


@functools.cache
def _room_graph() -> dict[str, set[str]]:
    """Each module's imports of other modules of its own room."""
    graph: dict[str, set[str]] = {}
    for module, path in _modules():
        graph[module] = set()
        for _, name in _imports(module, path):
            target = _internal(name)
            if target not in (None, module) and _layer(target) == _layer(module):
                graph[module].add(target)
    return graph


def _floors(graph: dict[str, set[str]]) -> dict[str, int]:
    """How many floors each module stands on: 1, and the most of those it imports."""
    floors: dict[str, int] = {}

    def floor(module: str) -> int:
        if module not in floors:
            floors[module] = 1 + max((floor(other) for other in graph[module]), default=0)
        return floors[module]

    for module in graph:
        floor(module)
    return floors


def _rooms() -> list[str]:
    return sorted({_layer(module) for module, _ in _modules()})


@pytest.mark.parametrize("room", _rooms())
def test_no_module_imports_more_than_a_handful_of_its_room(room: str) -> None:
    graph = _room_graph()
    many = [
        f"{module} imports {len(graph[module])} modules of {room}/: "
        + ", ".join(sorted(graph[module]))
        for module in sorted(graph)
        if _layer(module) == room
        and len(graph[module]) > MAX_ROOM_IMPORTS
        and module != FORMAT_TABLE
    ]
    assert not many, "\n".join(many)


#: The one table of input formats imports each format's module and nothing else of its
#: room: one import a format, by design (a new format is a module and a line there).
FORMAT_TABLE = "pytest_rubric.inputs.formats.registry"


def test_the_format_table_imports_formats_only() -> None:
    imported = _room_graph()[FORMAT_TABLE]
    others = sorted(
        module for module in imported if not module.startswith("pytest_rubric.inputs.formats.")
    )
    assert not others, f"{FORMAT_TABLE} imports more than formats: {others}"


@pytest.mark.parametrize("room", _rooms())
def test_no_room_is_more_than_eight_floors_deep(room: str) -> None:
    graph = _room_graph()
    floors = _floors(graph)
    top = max((module for module in graph if _layer(module) == room), key=floors.__getitem__)
    chain = [top]
    while graph[chain[-1]]:
        chain.append(max(graph[chain[-1]], key=floors.__getitem__))
    assert len(chain) <= MAX_FLOORS, f"{room}/ is {len(chain)} floors: " + " -> ".join(chain)


@pytest.mark.parametrize("room", [room for room in INPUT_ROOMS if (PACKAGE / room).is_dir()])
def test_functions_of_the_input_rooms_are_short_and_narrow(room: str) -> None:
    long = []
    for path in sorted((PACKAGE / room).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            where = f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.name}"
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                long.append(f"{where} is {lines} lines")
            arguments = node.args
            named = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            count = sum(1 for argument in named if argument.arg not in ("self", "cls"))
            if count > MAX_PARAMETERS:
                long.append(f"{where} takes {count} parameters")
    assert not long, "\n".join(long)


#: Used nowhere in the package, and kept: the docs hand them to users.
DOCUMENTED = {"reports/jsonreport.py: schema": "docs/reports.md names it"}


def _hooks() -> set[str]:
    """The hooks pluggy calls by name: ours (``hookspecs``) and pytest's."""
    tree = ast.parse((PACKAGE / "hookspecs.py").read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def _unused() -> list[str]:
    """Every top-level function or class no module of the package uses: not its own module
    outside its definition, nor a module that imports it by name or reads it off its
    module. Hooks (ours and pytest's) and dunders are called by name from outside."""
    trees = {
        module: (path, ast.parse(path.read_text(encoding="utf-8"))) for module, path in _modules()
    }
    imported: dict[str, set[str]] = {}  # module -> the modules of ours it imports
    named: set[tuple[str, str]] = set()  # (module, name) imported as "from module import name"
    read: dict[str, set[str]] = {}  # module -> every name and attribute it reads
    for module, (path, tree) in trees.items():
        imported[module] = {
            target for _, name in _imports(module, path) if (target := _internal(name))
        }
        read[module] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                named.update((_from(module, path, node), alias.name) for alias in node.names)
            elif isinstance(node, ast.Name):
                read[module].add(node.id)
            elif isinstance(node, ast.Attribute):
                read[module].add(node.attr)
    hooks = _hooks()
    unused = []
    for module, (path, tree) in trees.items():
        for definition in tree.body:
            if not isinstance(definition, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            name = definition.name
            if name in hooks or name.startswith("pytest_") or name.startswith("__"):
                continue
            outside = (node for node in tree.body if node is not definition)
            at_home = any(
                (isinstance(node, ast.Name) and node.id == name)
                or (isinstance(node, ast.Attribute) and node.attr == name)
                for top in outside
                for node in ast.walk(top)
            )
            elsewhere = (module, name) in named or any(
                module in imported[other] and name in read[other]
                for other in trees
                if other != module
            )
            if not (at_home or elsewhere or f"{path.relative_to(PACKAGE)}: {name}" in DOCUMENTED):
                unused.append(f"{path.relative_to(PACKAGE)}:{definition.lineno}: {name}")
    return unused


def test_every_top_level_function_and_class_is_used_in_the_package() -> None:
    unused = _unused()
    assert not unused, "used nowhere in the package (tests are no use):\n" + "\n".join(unused)


#: A page asset (HTML, CSS, JavaScript) longer than this is a package file, never a
#: Python string: linters and people read it as what it is.
MAX_ASSET_STRING = 1500
#: What marks text as HTML, CSS or JavaScript: a tag, a function or an arrow, a CSS rule.
_PAGE_CODE = re.compile(r"<[A-Za-z!/][^>]*>|\bfunction\b|=>|[\w.#\]-]+ *\{[^{}]*: [^{}]*;[^{}]*\}")


def _looks_like_page_code(text: str) -> bool:
    return len(text) > MAX_ASSET_STRING and _PAGE_CODE.search(text) is not None


def test_the_page_assets_are_what_the_string_check_looks_for() -> None:
    assets = PACKAGE / "reports" / "assets"
    large = [path.name for path in assets.iterdir() if path.stat().st_size > MAX_ASSET_STRING]
    assert large, "no page asset is long enough to test the check"
    for name in large:
        assert _looks_like_page_code((assets / name).read_text(encoding="utf-8")), name


@pytest.mark.parametrize(
    ("module", "path"), list(_modules()), ids=lambda value: value if isinstance(value, str) else ""
)
def test_no_page_asset_is_a_python_string(module: str, path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    found = [
        f"{path.name}:{node.lineno}: {len(node.value):,} characters"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and _looks_like_page_code(node.value)
    ]
    assert not found, "HTML, CSS or JavaScript in a string; make it a package file:\n" + "\n".join(
        found
    )


#: An input file's suffix, as a value (``".csv"``, ``".json.gz"``): the formats' alone.
_INPUT_SUFFIX = re.compile(r"\.(?:jsonl|json|csv|tsv|parquet|xlsx|eval|gz)(?:\.gz)?")


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
