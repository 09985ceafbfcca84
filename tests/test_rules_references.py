"""The code cites the project's rules reference, ``docs/rules/*.md``, by section name.

A citation names the file and the exact heading in double quotes, several sections of one file
joined by commas and "and" (``docs/rules/README.md``)::

    origin.md "Evolve"
    primordial_soup.md "Setup" step 6, "Genes" and "Attacks"

Every cited section must be a heading of that file, and no reference to the research notes
the docs replace (section numbers of "the spec" or of DESIGN.md, paths into the shared rules
folder) may remain.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from primeval.envs.games import GAMES as CATALOGUE
from tests.helpers import catalogue_games

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
#: Every game of the catalogue; one whose descriptor names no rules page is skipped.
GAMES = catalogue_games("docs", "no rules reference page")
#: The games with a rules reference page, and the page's file name without ``.md``.
PAGES = {name: Path(game.docs).stem for name, game in CATALOGUE.items() if game.docs}
_NAMES = "|".join(re.escape(page) for page in PAGES.values())
SCANNED = ("envs", "wrappers", "training", "tests")

CITE_START = re.compile(r'\b(' + _NAMES + r')\.md "')
CITE_NAME = re.compile(r'"([^"\n]+)"')
#: What may follow a section name before the next one: "step 6", "notes", "(4p)".
CITE_QUALIFIER = re.compile(r"(?:[ \t]+steps?[ \t]+\d+(?:(?:-|[ \t]+and[ \t]+)\d+)?|[ \t]+notes"
                            r"|[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))*")
CITE_SEPARATOR = re.compile(r'(?:,|\s+and)\s+(?=")')
LINK = re.compile(r"docs/rules/(" + _NAMES + r")\.md#([\w-]+)")

SECTION_SIGN = "\u00a7"
#: References to the research notes that docs/rules/ replaces.
STALE = re.compile(
    SECTION_SIGN + r"\s*\d"                        # the section sign and a number, any prefix
    r"|\b[Ss]pec(?:ification)?\s+sections?\s+\d"  # spec section N
    r"|\bspec\s+\d"                               # spec N
    r"|shared" + "/" + r"rules/"                   # the notes' folder
    r"|\bDESIGN(?:\.md)?\s+sections?\s+\d"        # DESIGN.md section N
)


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(game: str) -> list[str]:
    text = (ROOT / CATALOGUE[game].docs).read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return [m.group(1).strip() for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)]


def citations(text: str) -> list[tuple[str, str, int]]:
    """(game, section, offset) of every citation in a text."""
    found = []
    for m in CITE_START.finditer(text):
        pos = m.end() - 1
        while name := CITE_NAME.match(text, pos):
            found.append((m.group(1), name.group(1), name.start()))
            pos = CITE_QUALIFIER.match(text, name.end()).end()
            separator = CITE_SEPARATOR.match(text, pos)
            if not separator:
                break
            pos = separator.end()
    return found


def sources() -> list[Path]:
    files = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if not any(part in (".venv", "__pycache__") for part in path.parts):
                files.append(path)
    return files


def where(path: Path, text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    return f"{path.relative_to(ROOT)}:{line}: {text.splitlines()[line - 1].strip()[:100]}"


def test_the_citation_parser_reads_the_documented_form():
    text = ('"""origin.md "Evolve": ... primordial_soup.md "Setup" step 6, "Genes" (3p) and '
            '"Attacks": a "quote" is not a section."""')
    assert [(g, s) for g, s, _ in citations(text)] == [
        ("origin", "Evolve"), ("primordial_soup", "Setup"), ("primordial_soup", "Genes"),
        ("primordial_soup", "Attacks")]


@pytest.mark.parametrize("game", GAMES)
def test_headings_are_unique_so_their_anchors_are_stable(game):
    names = headings(game)
    assert names, f"docs/rules/{game}.md has no headings"
    repeated = sorted({n for n in names if names.count(n) > 1})
    assert not repeated, f"docs/rules/{game}.md repeats headings {repeated}"
    slugs = [slug(n) for n in names]
    assert len(set(slugs)) == len(slugs), f"docs/rules/{game}.md has headings with equal anchors"


@pytest.mark.parametrize("game", GAMES)
def test_links_inside_the_rules_reference_resolve(game):
    text = (ROOT / CATALOGUE[game].docs).read_text(encoding="utf-8")
    anchors = {slug(n) for n in headings(game)}
    broken = sorted(set(re.findall(r"\]\(#([\w-]+)\)", text)) - anchors)
    assert not broken, f"docs/rules/{game}.md links to missing anchors {broken}"


def test_every_cited_section_is_a_heading_of_the_rules_reference():
    known = {PAGES[game]: set(headings(game)) for game in PAGES}
    anchors = {page: {slug(n) for n in names} for page, names in known.items()}
    missing = []
    for path in sources():
        text = path.read_text(encoding="utf-8")
        for game, section, offset in citations(text):
            if section not in known[game]:
                missing.append(f"{game}.md has no section {section!r}: "
                               + where(path, text, offset))
        for m in LINK.finditer(text):
            if m.group(2) not in anchors[m.group(1)]:
                missing.append(f"{m.group(1)}.md has no anchor #{m.group(2)}: "
                               + where(path, text, m.start()))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for m in LINK.finditer(readme):
        if m.group(2) not in anchors[m.group(1)]:
            missing.append(f"{m.group(1)}.md has no anchor #{m.group(2)}: "
                           + where(ROOT / "README.md", readme, m.start()))
    assert not missing, "\n".join(missing)


def test_no_reference_to_the_research_notes_remains():
    stale = []
    for path in sources():
        text = path.read_text(encoding="utf-8")
        stale += [where(path, text, m.start()) for m in STALE.finditer(text)]
    assert not stale, (
        f"{len(stale)} references cite the research notes by section number; cite "
        'docs/rules/*.md by section name instead, e.g. origin.md "Evolve" '
        "(docs/rules/README.md):\n" + "\n".join(stale))
