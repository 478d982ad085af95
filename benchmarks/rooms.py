"""The package drawn room by room: per room (a layer's subpackage, or a top-level module),
its modules, their lines, the import arrows among its own modules, how many floors deep it
is, and the most modules of its own room one module imports.

    python benchmarks/rooms.py              # the package beside this script
    python benchmarks/rooms.py --at REV     # the package as commit REV had it (git archive)
    python benchmarks/rooms.py PACKAGE_DIR  # any checkout's pytest_rubric/

Imports are read with ``ast``, those inside functions and under ``TYPE_CHECKING`` too, as
``tests/test_layers.py`` reads them (which holds issue 43's limits: at most 7 imports of
its own room a module, at most 8 floors a room). Floors count modules: a -> b -> c is 3.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import tempfile
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent.parent


class Room(NamedTuple):
    name: str
    modules: int
    lines: int
    arrows: int  # imports among its own modules
    floors: int
    most: int  # the most own-room imports of one module
    who: str  # that module


def modules(package: Path) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((package.name, *parts))] = path
    return found


def room(module: str) -> str:
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of the package that ``module`` imports, itself left out."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                keep = len(parts) - node.level + (1 if path.name == "__init__.py" else 0)
                base = ".".join([*parts[:keep], *([node.module] if node.module else [])])
            # "from package import name" imports a module where name is one.
            for alias in node.names:
                inner = f"{base}.{alias.name}"
                names.add(inner if inner in known else base)
    found: set[str] = set()
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)
    return found


def measure(package: Path) -> list[Room]:
    """Per room: modules, lines, arrows, floors, the most own-room imports and who has them."""
    known = modules(package)
    graph = {
        module: {other for other in imports(module, path, known) if room(other) == room(module)}
        for module, path in known.items()
    }
    floors: dict[str, int] = {}

    def floor(module: str) -> int:
        if module not in floors:
            floors[module] = 1 + max((floor(other) for other in graph[module]), default=0)
        return floors[module]

    rows = []
    for name in sorted({room(module) for module in known}):
        members = [module for module in known if room(module) == name]
        lines = sum(
            len(known[module].read_text(encoding="utf-8").splitlines()) for module in members
        )
        widest = max(members, key=lambda module: (len(graph[module]), module))
        rows.append(
            Room(
                name,
                len(members),
                lines,
                sum(len(graph[module]) for module in members),
                max(floor(module) for module in members),
                len(graph[widest]),
                widest.rpartition(".")[2] if graph[widest] else "",
            )
        )
    return rows


def show(rows: list[Room], title: str) -> None:
    print(title)
    print(
        f"  {'room':<12}{'modules':>8}{'lines':>8}{'arrows':>8}{'floors':>8}  most own-room imports"
    )
    for row in rows:
        print(
            f"  {row.name:<12}{row.modules:>8}{row.lines:>8,}{row.arrows:>8}{row.floors:>8}"
            f"  {row.most}" + (f" ({row.who})" if row.who else "")
        )
    count = sum(row.modules for row in rows)
    lines = sum(row.lines for row in rows)
    print(f"  {'all':<12}{count:>8}{lines:>8,}{sum(row.arrows for row in rows):>8}")


def checkout(rev: str, folder: Path) -> Path:
    """The package's Python files as commit ``rev`` has them, written under ``folder``."""
    git = ["git", "-C", str(HERE)]
    listed = subprocess.run(
        [*git, "ls-tree", "-r", "--name-only", rev, "pytest_rubric"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for name in listed:
        if name.endswith(".py"):
            shown = subprocess.run([*git, "show", f"{rev}:{name}"], check=True, capture_output=True)
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(shown.stdout)
    return folder / "pytest_rubric"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", nargs="?", type=Path, help="a pytest_rubric/ folder")
    parser.add_argument("--at", metavar="REV", help="the package as this commit has it")
    options = parser.parse_args()
    if options.at:
        with tempfile.TemporaryDirectory() as folder:
            show(measure(checkout(options.at, Path(folder))), f"pytest_rubric/ at {options.at}")
        return
    package = options.package or HERE / "pytest_rubric"
    show(measure(package.resolve()), f"{package}")


if __name__ == "__main__":
    main()
