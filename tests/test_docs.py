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


ROOT = Path(__file__).resolve().parents[1]
_LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: link text kept, code marks dropped, lower case,
    punctuation but hyphens removed, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (outside code fences); a repeated heading's second
    anchor ends in ``-1``, as GitHub numbers them."""
    seen: dict[str, int] = {}
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"#{1,6} (.*)", line)
        if heading:
            slug = _slug(heading.group(1))
            seen[slug] = seen.get(slug, 0) + 1
    return {slug if i == 0 else f"{slug}-{i}" for slug, n in seen.items() for i in range(n)}


def _links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [m.group(1) for m in _LINK.finditer(text) if not re.match(r"[a-z]+:", m.group(1))]


def test_anchor_slugs_are_githubs():
    assert _slug("Rollouts collected in parts (`collect: rollout`)") == \
        "rollouts-collected-in-parts-collect-rollout"
    assert _slug("The default since 2026-12-05: 2M steps, held out") == \
        "the-default-since-2026-12-05-2m-steps-held-out"
    assert _slug("See [search](search.md)") == "see-search"


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_link_of_the_docs_reaches_its_file_and_heading(page):
    """A relative link names a file of the repository, and a link to ``page.md#anchor`` (or
    ``#anchor`` within the page) a heading of that page: pages link into each other's
    sections, and a renamed heading would otherwise leave the links dead."""
    broken = []
    for target in _links(page):
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading with that anchor in {dest.name}")
    assert not broken, broken


def test_learning_md_lists_every_section_in_its_contents():
    """docs/learning.md is long: its contents list every heading below the title, in order
    and at its depth, so a new section cannot be left out of them."""
    page = ROOT / "docs" / "learning.md"
    text = page.read_text(encoding="utf-8")
    contents = text.split("**Contents**", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^( *)- \[(.*)\]\(#(.*)\)$", contents, flags=re.M)
    headings = re.findall(r"^(#{2,4}) (.*)$", re.sub(r"```.*?```", "", text, flags=re.S),
                          flags=re.M)
    assert [(len(indent) // 2, title, anchor) for indent, title, anchor in listed] == \
        [(len(marks) - 2, title, _slug(title)) for marks, title in headings]
