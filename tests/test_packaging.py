"""The package layout: root folders install under ``primeval.*``."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"envs": "primeval.envs", "wrappers": "primeval.wrappers",
           "training": "primeval.training", "configs": "primeval.configs"}


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def _declared() -> set[str]:
    return set(_setuptools()["packages"])


def test_every_subpackage_is_listed_in_pyproject():
    """Every folder with an __init__.py under the root folders is a listed package (named by
    the nearest package-dir mapping), so wheels and editable installs ship it."""
    by_dir = {Path(d): name for name, d in _setuptools()["package-dir"].items()}
    found = set()
    for folder in FOLDERS:
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT)
            base = next(p for p in (rel, *rel.parents) if p in by_dir)
            found.add(".".join((by_dir[base], *rel.relative_to(base).parts)))
    assert found == _declared()


def test_import_primeval_registers_the_envs():
    """`import primeval` alone makes the ids available to PettingZoo."""
    import subprocess
    import sys

    code = ("import primeval, pettingzoo; "
            "pettingzoo.make('aec', 'primeval/origin-v0', num_players=2)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd="/")


def test_packages_import_under_the_primeval_namespace():
    """Each listed package imports as primeval.<...>; generic top-level names are not used."""
    for name in sorted(_declared()):
        importlib.import_module(name)
    generic = ("from " + "envs.", "import " + "envs.")
    for path in ROOT.rglob("*.py"):
        if any(part.startswith(".venv") for part in path.parts):  # .venv, .venv-compat, ...
            continue
        text = path.read_text()
        assert not any(g in text for g in generic), path


def test_the_wheel_ships_every_package_and_its_data(tmp_path):
    """`make wheel`'s command: the wheel holds every listed package, the shipped configs and
    the game data, so `pip install dist/primeval-*.whl` works without a clone (README)."""
    import subprocess
    import sys
    import zipfile

    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "-w", str(tmp_path), str(ROOT)], check=True,
                   cwd=tmp_path)
    (wheel,) = tmp_path.glob("primeval-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in _declared():
        assert package.replace(".", "/") + "/__init__.py" in names, package
    for data in ("primeval/configs/origin/default.yaml",
                 "primeval/configs/primordial_soup/default.yaml",
                 "primeval/envs/origin/data/map.yaml"):
        assert data in names, data
    # The benchmark's zoo: its manifest and every member file it names.
    import json

    zoo = ROOT / "training" / "benchmark" / "zoo_files"
    assert "primeval/training/benchmark/zoo_files/manifest.json" in names
    for entry in json.loads((zoo / "manifest.json").read_text())["members"]:
        assert f"primeval/training/benchmark/zoo_files/{entry['file']}" in names, entry
