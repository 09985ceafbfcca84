"""Env docstrings are generated from the code: every action segment and observation piece;
and every Python example of the README and of docs/ runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from primeval.envs.games import GAMES


@pytest.mark.parametrize("module", [game.module() for game in GAMES.values()],
                         ids=list(GAMES))
def test_docstring_matches_the_action_layout_and_encoder_pieces(module):
    env = module.raw_env()
    doc = module.__doc__
    assert "{actions}" not in doc and "{observation}" not in doc
    layout = env.rules.layout
    for segment in layout.segments:
        assert f"{segment.name}" in doc
    assert layout.markdown_table() in doc
    flat = type(env.obs_encoder)(env.rules) if env.obs_encoder.name == "flat" else None
    assert flat is not None
    for name, sl in flat.pieces.items():
        assert f"| `{name}` | {sl.start}..{sl.stop - 1} | {sl.stop - sl.start} |" in doc
    for section in ("## Observation", "## Actions", "## Rewards", "## Arguments",
                    "## Version history"):
        assert section in doc


ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))


def python_blocks(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


def readme_python_blocks() -> list[str]:
    return python_blocks(README)


def _readme_examples() -> list:
    """One case per Python block; the MaskablePPO example is slow (it trains a little)."""
    return [pytest.param(code, id=f"block{i}",
                         marks=[pytest.mark.slow] if "sb3_contrib" in code else [])
            for i, code in enumerate(readme_python_blocks())]


def test_the_readme_has_python_examples():
    assert len(readme_python_blocks()) >= 3


@pytest.mark.parametrize("code", _readme_examples())
def test_readme_python_example_runs(code):
    """Each example runs as written, in a fresh namespace (optional extras are skipped)."""
    if "sb3_contrib" in code:
        pytest.importorskip("sb3_contrib")
    if "rgb_array" in code:
        pytest.importorskip("matplotlib")
    exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})


def _docs_examples() -> list:
    return [pytest.param(path, code, id=f"{path.relative_to(ROOT)}:block{i}")
            for path in DOCS for i, code in enumerate(python_blocks(path))]


@pytest.mark.parametrize(("path", "code"), _docs_examples())
def test_docs_python_example_runs(path, code):
    """Each example in docs/ runs as written (a library's example is skipped without it)."""
    for module in ("pyspiel", "ray", "torchrl", "tianshou", "sb3_contrib", "supersuit",
                   "stable_baselines3", "torch", "agilerl"):
        if f"import {module}" in code or f"from {module}" in code:
            pytest.importorskip(module)
    exec(compile(code, str(path), "exec"), {"__name__": "__docs__"})
