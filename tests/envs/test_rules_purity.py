"""The rules are pure: importing a game's rules loads no RL library, no drawing library and
not the game's view, and no rules module imports a view.

The first test imports each rules package in a fresh interpreter, so nothing another test
imported counts; the second reads every rules module's imports, the ones inside functions
too (a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from primeval.envs.games import GAMES as CATALOGUE
from tests.helpers import catalogue_games

ROOT = Path(__file__).resolve().parents[2]
#: Every game of the catalogue; one whose descriptor names no rules package is skipped.
GAMES = catalogue_games("rules_package", "no rules package to check")
#: Libraries the rules must not load: the registries' and the pictures'.
LIBRARIES = ("pettingzoo", "gymnasium", "matplotlib")
#: A game's modules that show it to people (its view) rather than play it.
VIEW_MODULES = ("view", "view_text", "view_picture", "render", "picture")


def loaded_after_import(module: str) -> set[str]:
    """The modules ``import module`` loads in a fresh interpreter."""
    code = f"import json, sys\nimport {module}\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                            text=True, cwd=ROOT)
    return set(json.loads(result.stdout))


@pytest.mark.parametrize("game", GAMES)
def test_importing_the_rules_loads_no_registry_drawing_or_view(game):
    rules = CATALOGUE[game].rules_package
    package = rules.rpartition(".")[0]
    loaded = loaded_after_import(rules)
    assert CATALOGUE[game].rules.partition(":")[0] in loaded  # the import did run
    libraries = sorted(m for m in loaded if m.split(".")[0] in LIBRARIES)
    assert not libraries, f"importing the {game} rules loads {libraries}"
    views = sorted(m for m in loaded if m.startswith(f"{package}.")
                   and m[len(package) + 1:].split(".")[0] in VIEW_MODULES)
    assert not views, f"importing the {game} rules loads the view: {views}"


def imported_modules(path: Path, package: str) -> set[str]:
    """Every module a source file imports (``from a import b`` counts ``a`` and ``a.b``),
    at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the file's package
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("game", GAMES)
def test_no_rules_module_imports_a_view(game):
    package = CATALOGUE[game].rules_package
    game_package = package.rpartition(".")[0]
    folder = Path(importlib.util.find_spec(package).submodule_search_locations[0])
    files = sorted(folder.glob("*.py"))
    assert len(files) > 1, f"{folder}: no rules modules found"
    for path in files:
        imports = imported_modules(path, package)
        views = sorted(m for m in imports
                       if m.startswith(f"{game_package}.")
                       and m[len(game_package) + 1:].split(".")[0] in VIEW_MODULES)
        libraries = sorted(m for m in imports if m.split(".")[0] in LIBRARIES)
        assert not views, f"{path.relative_to(ROOT)} imports the view: {views}"
        assert not libraries, f"{path.relative_to(ROOT)} imports {libraries}"
