"""The layers, read from the source: engine → data → bot → cogs, no arrow back up, no loops.

Every module of the four packages is parsed (nothing is imported), and its
imports are sorted by where they run: at the top of the module (these make
the import graph, and must not go round in a circle), inside a function
(only where ``FUNCTION_LEVEL`` lists them, each with its reason), or under
``if TYPE_CHECKING:`` (annotations only: none of ours, since an import that never runs
is how a loop hides).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("engine", "data", "bot", "cogs")  # each may import only itself and what comes before it

#: Imports of project modules made inside a function: (file, module) → why it is not at the top.
FUNCTION_LEVEL: dict[tuple[str, str], str] = {
    # discord.py loads only for running or syncing: not for --health or migrate-db
    ("bot/cli.py", "bot.sync"): "discord.py, only for --sync",
    ("bot/cli.py", "bot.app"): "discord.py, only for running or syncing",
    ("data/__init__.py", "data.postgres"): "asyncpg is loaded only by who uses PostgreSQL",
    ("data/__init__.py", "data.sqlite"): "aiosqlite is loaded only by who uses SQLite",
    ("data/__init__.py", "data.transfer"): "needs both backends: only for the one-off migrate-db command",
}


@dataclass(frozen=True)
class Import:
    file: str
    line: int
    module: str  # absolute; a submodule when ``from package import submodule``
    where: str  # "top", "function" or "typing"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def project_module(name: str) -> str | None:
    """``name`` as a module of ours (longest existing prefix), or None for a library."""
    if name.split(".")[0] not in LAYERS:
        return None
    parts = name.split(".")
    while parts:
        base = ROOT.joinpath(*parts)
        if base.with_suffix(".py").exists() or (base / "__init__.py").exists():
            return ".".join(parts)
        parts.pop()
    return None


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path, text: str | None = None) -> list[Import]:
    """The imports in ``path`` (or in ``text``, read as if it were that file)."""
    here = module_name(path)
    package = here if is_package(path) else here.rpartition(".")[0]
    rel = path.relative_to(ROOT).as_posix()
    found: list[Import] = []

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        if node.level:
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            stem = ".".join(base + ([node.module] if node.module else []))
        else:
            stem = node.module or ""
        # ``from pkg import sub`` names the submodule when there is one
        return [f"{stem}.{a.name}" for a in node.names] if stem else []

    def visit(nodes, where: str) -> None:
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for name in targets(node):
                    found.append(Import(rel, node.lineno, name, where))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(ast.iter_child_nodes(node), "function" if where == "top" else where)
            elif isinstance(node, ast.If) and is_type_checking(node):
                visit(node.body, "typing")
                visit(node.orelse, where)
            else:
                visit(ast.iter_child_nodes(node), where)

    visit(ast.parse(path.read_text() if text is None else text).body, "top")
    return found


def sources() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


ALL = {path: imports_of(path) for path in sources()}


def ours(imp: Import) -> str | None:
    return project_module(imp.module)


def graph(package: str) -> dict[str, set[str]]:
    """Module → the modules of ``package`` it imports when it is first imported."""
    edges: dict[str, set[str]] = {}
    for path, found in ALL.items():
        name = module_name(path)
        if name.split(".")[0] != package:
            continue
        edges.setdefault(name, set())
        for imp in found:
            target = ours(imp)
            if imp.where == "top" and target and target.split(".")[0] == package and target != name:
                edges[name].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def strongconnect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, ()):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(edges):
        if v not in index:
            strongconnect(v)
    return found


def test_the_scan_sees_the_imports():
    assert len(ALL) > 60
    service = {(ours(i), i.where) for i in ALL[ROOT / "bot/tables/service.py"]}
    assert ("bot.tables.lobby", "top") in service and ("data.store", "top") in service
    presenter = {(ours(i), i.where) for i in ALL[ROOT / "cogs/presenter.py"]}
    assert ("bot.tables.updates", "top") in presenter
    sample = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.tables.service import TableService\n"
    lobby = {(ours(i), i.where) for i in imports_of(ROOT / "cogs/ui/lobby.py", sample)}
    assert ("bot.tables.service", "typing") in lobby
    assert ("bot.app", "function") in {(ours(i), i.where) for i in ALL[ROOT / "bot/cli.py"]}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("package", LAYERS)
def test_no_package_imports_itself_in_a_circle(package):
    assert cycles(graph(package)) == []


def test_no_project_module_is_imported_for_annotations_only():
    # An import under ``if TYPE_CHECKING:`` is how a loop between two modules hides: one that
    # runs nowhere cannot fail. Every import of ours is real, so the scan above sees every edge.
    hidden = [
        f"{imp.file}:{imp.line} {imp.module}"
        for found in ALL.values()
        for imp in found
        if imp.where == "typing" and ours(imp) is not None
    ]
    assert hidden == []


def test_imports_inside_functions_are_only_the_listed_ones():
    seen = set()
    for found in ALL.values():
        for imp in found:
            target = ours(imp)
            if imp.where != "function" or target is None:
                continue
            key = (imp.file, target)
            seen.add(key)
            assert key in FUNCTION_LEVEL, (
                f"{imp.file}:{imp.line} imports {target} inside a function: move it to the top, "
                "or list it in FUNCTION_LEVEL with the reason"
            )
    stale = set(FUNCTION_LEVEL) - seen
    assert not stale, f"listed but gone (remove from FUNCTION_LEVEL): {sorted(stale)}"


def test_no_layer_imports_a_layer_above_it():
    for found in ALL.values():
        for imp in found:
            target = ours(imp)
            if target is None:
                continue
            mine, theirs = LAYERS.index(imp.file.split("/")[0]), LAYERS.index(target.split(".")[0])
            assert theirs <= mine, f"{imp.file}:{imp.line} imports {target}, a layer above it"


@pytest.mark.parametrize("folder", ["engine", "bot/tables", "data"])
def test_the_discord_free_parts_import_no_discord(folder):
    for path, found in ALL.items():
        if path.is_relative_to(ROOT / folder):
            for imp in found:
                assert imp.module.split(".")[0] not in {"discord", "aiohttp"}, f"{imp.file}:{imp.line}"


#: The engine's only libraries outside the standard library: (file, library) → why. Each is an
#: optional accelerator the engine runs without (the rules engine itself never imports one).
ENGINE_LIBRARIES: dict[tuple[str, str], str] = {
    ("engine/ai/batch.py", "numpy"): "the hard search's rollouts as arrays; without numpy it runs the list kernel",
}


def test_the_engine_imports_only_the_standard_library():
    seen = set()
    for path, found in ALL.items():
        if path.is_relative_to(ROOT / "engine"):
            for imp in found:
                top = imp.module.split(".")[0]
                if (imp.file, top) in ENGINE_LIBRARIES:
                    seen.add((imp.file, top))
                    continue
                assert top == "engine" or top in sys.stdlib_module_names, f"{imp.file}:{imp.line} imports {top}"
    assert seen == set(ENGINE_LIBRARIES), "listed but gone (remove from ENGINE_LIBRARIES)"


def test_the_process_shell_leaves_the_face_to_the_extensions():
    """bot/ names its cogs as extension strings; importing one would be an arrow up."""
    for path, found in ALL.items():
        if path.is_relative_to(ROOT / "bot"):
            assert not [i for i in found if i.module.split(".")[0] == "cogs"], path
