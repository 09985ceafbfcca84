"""The import graph of the package reads envs/core <- games <- wrappers <- training, with no
arrow back up and no import cycle.

Every ``import`` of every module is read with :mod:`ast`, the ones inside functions too (a
lazy import is still a dependency; only ``if TYPE_CHECKING:`` blocks are not), and so are
strings naming a module of a higher layer (an entry point such as
``"primeval.training.gym_env:make"``). One kind of string is not an arrow: a game's
descriptor (``GameDescriptor(env_module=..., heuristic=...)``) names its versioned env module
and its heuristic agent, which the catalogue and training load; the game never imports them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from primeval.envs.games import GAMES as GAMES_CATALOGUE

ROOT = Path(__file__).resolve().parents[1]
#: Folder of each top-level part of the namespace (pyproject.toml's package-dir).
FOLDERS = {"primeval": "envs/_package", "primeval.envs": "envs",
           "primeval.wrappers": "wrappers", "primeval.training": "training"}
#: The games of the catalogue (each one's folder is layer 1).
GAMES = tuple(GAMES_CATALOGUE)
#: Descriptor fields naming a higher layer that loads the game, not one the game imports.
DESCRIPTOR_UPWARD_FIELDS = ("env_module", "heuristic")
TOP = ("primeval", "primeval.registration", "primeval.training.cli", "primeval.training.commands")


def layer(module: str) -> int:
    """0: the shared core; 1: a game's own modules; 2: the catalogue, the versioned env
    modules and the env tools; 3: wrappers; 4: training; 5: the two roots that put it all
    together: ``primeval`` itself (which registers the ids) and the command line."""
    if module in TOP:
        return 5
    if module.startswith("primeval.envs.core"):
        return 0
    if any(module.startswith(f"primeval.envs.{game}.") or module == f"primeval.envs.{game}"
           for game in GAMES):
        return 1
    if module.startswith("primeval.envs"):
        return 2
    if module.startswith("primeval.wrappers"):
        return 3
    if module.startswith("primeval.training"):
        return 4
    return 5


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in FOLDERS.items():
        base = ROOT / folder
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            if package != "primeval" and "_package" in parts:
                continue
            found[".".join([package, *parts])] = path
    return found


MODULES = modules()
#: A string that is a module path or an entry point (``"primeval.training.gym_env:make"``).
_NAMED = re.compile(r"primeval(?:\.[a-z_][a-z0-9_]*)+(?=(?::[A-Za-z_]\w*)?$)")


def imports_of(name: str, path: Path) -> set[str]:
    """The package modules ``name`` imports (``from a import b`` counts ``a.b`` when that is
    a module) or names in a string."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                   for stmt in block.body for n in ast.walk(stmt)}
    named_by_descriptor = {id(kw.value) for call in ast.walk(tree) if isinstance(call, ast.Call)
                           and getattr(call.func, "id", None) == "GameDescriptor"
                           for kw in call.keywords if kw.arg in DESCRIPTOR_UPWARD_FIELDS}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only or id(node) in named_by_descriptor:
            continue  # for type checkers only, or a descriptor naming who loads the game
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            out.add(source)
            out.update(f"{source}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            named = _NAMED.match(node.value)
            if named:
                out.add(named.group(0))
    return {_owner(m) for m in out if _owner(m) is not None} - {name}


def _owner(module: str) -> str | None:
    """The package module that ``module`` is or lies in, if it is one of ours."""
    while module:
        if module in MODULES:
            return module
        module = module.rpartition(".")[0]
    return None


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_a_higher_layer(name):
    upward = sorted(dep for dep in GRAPH[name] if layer(dep) > layer(name)
                    and not (name.startswith(dep + ".") or dep == "primeval"))
    assert not upward, f"{name} (layer {layer(name)}) imports a higher layer: {upward}"


def test_no_import_cycle():
    """A cycle among modules (package ``__init__`` files excepted: importing a submodule
    runs its parent, which is not a dependency of the parent on it)."""
    graph = {name: {d for d in deps if not name.startswith(d + ".")}
             for name, deps in GRAPH.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                cycle = visit(dep)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            cycle = visit(name)
            assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_graph_is_read():
    """The reader finds known edges (so the tests above cannot pass on an empty graph)."""
    assert "primeval.envs.core.aec" in GRAPH["primeval.envs.primordial_soup.env"]
    assert "primeval.envs.games" in GRAPH["primeval.registration"]
    assert "primeval.training.gym_env" in GRAPH["primeval.registration"]
    assert layer("primeval.training.evaluate") > layer("primeval.wrappers.single_agent")
    assert all(layer(f"primeval.envs.{game}.rules") == 1 for game in GAMES)
    # the descriptor's own arrows (its rules, config, view) are read; only its loaders are not
    assert "primeval.envs.origin.view" in GRAPH["primeval.envs.origin"]
    assert "primeval.training.agents.heuristics.origin" not in GRAPH["primeval.envs.origin"]
