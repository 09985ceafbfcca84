"""The package layout of DESIGN.md §1: root folders install under ``primeval.*``."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"envs": "primeval.envs", "wrappers": "primeval.wrappers",
           "training": "primeval.training", "configs": "primeval.configs"}


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(project["tool"]["setuptools"]["packages"])


def test_every_subpackage_is_listed_in_pyproject():
    """Every folder with an __init__.py under the root folders is a listed package, so wheels
    and editable installs ship it."""
    found = set()
    for folder, dotted in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((dotted, *rel)))
    assert found == _declared()


def test_packages_import_under_the_primeval_namespace():
    """Each listed package imports as primeval.<...>; generic top-level names are not used."""
    for name in sorted(_declared()):
        importlib.import_module(name)
    generic = ("from " + "envs.", "import " + "envs.")
    for path in ROOT.rglob("*.py"):
        if ".venv" in path.parts:
            continue
        text = path.read_text()
        assert not any(g in text for g in generic), path
