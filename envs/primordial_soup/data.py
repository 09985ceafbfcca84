"""Primordial Soup rule data: genes, environment cards, boards, advance tables.

Everything here is data, not procedure. Values come from ``docs/rules/primordial_soup.md``:

* the gene table (primordial_soup.md "Genes") is CONFIRMED from the original German rulebook;
* the board layouts (primordial_soup.md "Board layout") and the environment deck
  (primordial_soup.md "Environment cards") are RECONSTRUCTIONS: the printed layout and card
  values were not found, so these are the proposed defaults and can be replaced through
  :class:`~primeval.envs.primordial_soup.config.PrimordialSoupConfig`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

# --------------------------------------------------------------------------------------------
# Directions and the die
# --------------------------------------------------------------------------------------------

#: Compass outcomes, indexed so that ``die face - 1`` gives the outcome (1=W 2=N 3=E 4=S 5=stay).
DIRECTIONS: tuple[str, ...] = ("W", "N", "E", "S", "stay")
WEST, NORTH, EAST, SOUTH, STAY = range(5)
#: (dx, dy) per compass outcome; y grows to the south.
DIRECTION_DELTA: tuple[tuple[int, int], ...] = ((-1, 0), (0, -1), (1, 0), (0, 1), (0, 0))
#: Die face that means "free choice".
FREE_CHOICE_FACE = 6


# --------------------------------------------------------------------------------------------
# Genes (primordial_soup.md "Genes", CONFIRMED)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gene:
    """One gene type as printed on its card.

    Attributes:
        key: Short identifier used in states, configs and action names.
        name: English name (Z-Man edition).
        german: German name (original edition).
        price: Price in BP.
        mp: Mutation points (Empfindlichkeit); Ray Protection has -2.
        copies_3p: Cards in play with 3 players (cards marked "3").
        copies_4p: Cards in play with 4 players.
        replaces: For advanced genes, the basic genes one of which must be given up.
        defect_value: What the card pays when given up for a gene defect.
        advance_count: How many genes the card counts as on the Advance Table.
    """

    key: str
    name: str
    german: str
    price: int
    mp: int
    copies_3p: int
    copies_4p: int
    replaces: tuple[str, ...] = ()
    defect_value: int | None = None
    advance_count: int = 1

    @property
    def advanced(self) -> bool:
        return bool(self.replaces)

    @property
    def pays(self) -> int:
        """Points this card covers when given up to pay a gene defect."""
        return self.mp if self.defect_value is None else self.defect_value

    def copies(self, num_players: int) -> int:
        return self.copies_3p if num_players == 3 else self.copies_4p


GENES: tuple[Gene, ...] = (
    Gene("intelligence", "Intelligence", "Intelligenz", 2, 3, 1, 2),
    Gene("movement_1", "Movement I", "Bewegung I", 3, 2, 2, 2),
    Gene("spores", "Spores", "Sporen", 3, 3, 1, 1),
    Gene("speed", "Speed", "Geschwindigkeit", 4, 3, 1, 2),
    Gene("defense", "Defense", "Verteidigung", 4, 4, 1, 1),
    Gene("escape", "Escape", "Flucht", 4, 4, 1, 2),
    Gene("substitution", "Substitution", "Ersatzkost", 4, 4, 1, 1),
    Gene("ray_protection", "Ray Protection", "Strahlenschutz", 5, -2, 1, 2,
         defect_value=4, advance_count=0),
    Gene("streamlining", "Streamlining", "Stromlinienform", 5, 4, 1, 1),
    Gene("tentacle", "Tentacle", "Tentakel", 5, 4, 1, 2),
    Gene("holding", "Holding", "Klammern", 5, 4, 1, 1),
    Gene("longevity", "Longevity", "Lebenserwartung", 5, 5, 1, 2),
    Gene("frugality", "Frugality", "Genügsamkeit", 6, 5, 0, 1),
    Gene("struggle", "Struggle for Survival", "Überlebenskampf", 6, 4, 2, 2),
    Gene("parasitism", "Parasitism", "Parasitismus", 6, 5, 0, 1),
    Gene("division_rate", "Division Rate", "Teilungsrate", 6, 5, 1, 2),
    Gene("persistence", "Persistence", "Ausdauer", 4, 4, 1, 1, replaces=("speed",),
         advance_count=2),
    Gene("movement_2", "Movement II", "Bewegung II", 5, 5, 1, 2, replaces=("movement_1",),
         advance_count=2),
    Gene("aggression", "Aggression", "Aggression", 5, 5, 1, 1, replaces=("struggle",),
         advance_count=2),
    Gene("armor", "Armor", "Panzerung", 6, 6, 1, 1, replaces=("defense", "escape"),
         advance_count=2),
)
GENE_INDEX: dict[str, int] = {g.key: i for i, g in enumerate(GENES)}
NUM_GENES = len(GENES)


def gene(key: str) -> Gene:
    """The gene with this key; ``KeyError`` names the allowed keys."""
    try:
        return GENES[GENE_INDEX[key]]
    except KeyError:
        raise KeyError(f"unknown gene {key!r}; genes are {sorted(GENE_INDEX)}") from None


# --------------------------------------------------------------------------------------------
# Environment cards (primordial_soup.md "Environment cards"): RECONSTRUCTION
# --------------------------------------------------------------------------------------------

#: The proposed deck of 11 cards as (drift, ozone). Drift is a compass letter or "none".
#: The real card values are unknown; this is a plausible reconstruction (one no-drift card,
#: N x2, E x3, S x2, W x3, ozone 6..14 with mean about 10).
DEFAULT_ENVIRONMENT_DECK: tuple[tuple[str, int], ...] = (
    ("none", 10), ("W", 6), ("N", 8), ("E", 12), ("S", 9), ("W", 11),
    ("E", 13), ("N", 7), ("S", 14), ("E", 10), ("W", 12),
)
DRIFTS: tuple[str, ...] = ("W", "N", "E", "S", "none")


# --------------------------------------------------------------------------------------------
# Boards (primordial_soup.md "Board layout"): RECONSTRUCTION
# --------------------------------------------------------------------------------------------

#: Layout A, the proposed default: 5 columns x 5 rows, north up, x west->east,
#: y north->south. "#" is the island with the compass, "." is outside the soup, "O" a space.
LAYOUT_A: tuple[str, ...] = (
    ".O...",
    "OOOOO",
    "OO#OO",
    "OOOOO",
    "OOOO.",
)
BOARD_LAYOUTS: dict[str, tuple[str, ...]] = {
    "A": LAYOUT_A,
    # B is the student project S7 as drawn: layout A turned by 180 degrees.
    "B": tuple(row[::-1] for row in reversed(LAYOUT_A)),
    "A_mirror": tuple(row[::-1] for row in LAYOUT_A),
    "B_mirror": tuple(reversed(LAYOUT_A)),
}


@dataclass(frozen=True)
class Board:
    """The soup: spaces in row-major order, their grid cells and orthogonal neighbours.

    Attributes:
        name: Layout name.
        rows: The layout strings.
        cells: ``cells[space] = (x, y)``.
        neighbours: ``neighbours[space][direction]`` is the space reached by moving in that
            compass direction (W, N, E, S, stay), or ``-1`` when an edge or the island blocks.
        island: (x, y) of the island.
    """

    name: str
    rows: tuple[str, ...]
    cells: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]
    island: tuple[int, int]

    @property
    def num_spaces(self) -> int:
        return len(self.cells)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def adjacent(self, space: int) -> tuple[int, ...]:
        """Orthogonally adjacent spaces (for cell division)."""
        return self._adjacent[space]

    @functools.cached_property
    def _adjacent(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(n for n in self.neighbours[s][:4] if n >= 0)
                     for s in range(self.num_spaces))


def build_board(name: str, rows: tuple[str, ...]) -> Board:
    """Build a :class:`Board` from layout strings, validating the shape."""
    width = len(rows[0]) if rows else 0
    if not rows or any(len(r) != width for r in rows):
        raise ValueError(f"board layout {name!r}: rows must be non-empty and equally long")
    if any(ch not in ".O#" for r in rows for ch in r):
        raise ValueError(f"board layout {name!r}: use only 'O' (space), '#' (island), '.'")
    islands = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "#"]
    if len(islands) != 1:
        raise ValueError(f"board layout {name!r}: needs exactly one island '#'")
    cells = tuple((x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "O")
    index = {c: i for i, c in enumerate(cells)}
    neighbours = []
    for x, y in cells:
        row = []
        for d, (dx, dy) in enumerate(DIRECTION_DELTA):
            if d == STAY:
                row.append(index[(x, y)])
            else:
                row.append(index.get((x + dx, y + dy), -1))
        neighbours.append(tuple(row))
    board = Board(name, tuple(rows), cells, tuple(neighbours), islands[0])
    _check_connected(board)
    return board


def _check_connected(board: Board) -> None:
    seen = {0}
    frontier = [0]
    while frontier:
        s = frontier.pop()
        for n in board.adjacent(s):
            if n not in seen:
                seen.add(n)
                frontier.append(n)
    if len(seen) != board.num_spaces:
        raise ValueError(f"board layout {board.name!r}: the spaces are not connected")


# --------------------------------------------------------------------------------------------
# Advance Table (primordial_soup.md "The scoring ladder", CONFIRMED)
# --------------------------------------------------------------------------------------------

#: Ladder spaces advanced per number of live amoebas on the board (index 0..7).
ADVANCE_FOR_AMOEBAS: tuple[int, ...] = (0, 0, 0, 1, 2, 4, 5, 6)
#: Ladder spaces advanced per gene count (index 0..6; 6 or more gives 4).
ADVANCE_FOR_GENES: tuple[int, ...] = (0, 0, 0, 1, 2, 3, 4)

AMOEBAS_PER_PLAYER = 7
