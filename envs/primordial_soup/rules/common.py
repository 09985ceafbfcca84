"""Small rules helpers shared by several phases: dice, cubes, damage, genes, order."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from primeval.envs.core import chance
from primeval.envs.primordial_soup.data import GENES

if TYPE_CHECKING:
    from primeval.envs.primordial_soup.config import PrimordialSoupConfig
    from primeval.envs.primordial_soup.state import GameState, PlayerState


def roll_die(rng: np.random.Generator) -> int:
    """One six-sided die (a chance event: :mod:`primeval.envs.core.chance`)."""
    return chance.roll_die(rng)


def draw_environment_card(state: GameState, rng: np.random.Generator) -> int:
    """Turn over a random card of those not yet turned; returns its deck index."""
    pick = chance.pick(rng, len(state.environment_deck), "environment card")
    card = state.environment_deck.pop(pick)
    state.environment_card = card
    return card


def place_cubes(state: GameState, space: int, colour: int, count: int) -> int:
    """Move up to ``count`` cubes of a colour from the supply to a space.

    The supply is limited (55 per colour): only what is left is placed, never another colour.
    Returns how many were placed.
    """
    placed = min(count, state.supply[colour])
    state.supply[colour] -= placed
    state.cubes[space][colour] += placed
    return placed


def place_cubes_each_colour(state: GameState, space: int, count: int) -> None:
    """``count`` cubes of each colour in play, as far as the supply allows (deaths)."""
    for colour in range(state.num_players):
        place_cubes(state, space, colour, count)


def remove_amoeba(state: GameState, player: int, amoeba: int) -> int:
    """Take an amoeba off the board (it may be placed again later). Returns its space."""
    ps = state.players[player]
    space = ps.amoeba_space[amoeba]
    ps.amoeba_space[amoeba] = -1
    ps.amoeba_damage[amoeba] = 0
    return space


def death_threshold(config: PrimordialSoupConfig, ps: PlayerState) -> int:
    """Damage at which this player's amoebas die: 2, or 3 with Longevity."""
    return config.death_damage_longevity if ps.has("longevity") else config.death_damage


def mutation_points(ps: PlayerState) -> int:
    """Sum of the MP of all genes held (Ray Protection counts -2)."""
    return sum(GENES_BY_KEY[k].mp for k in ps.genes)


def gene_count_for_advance(ps: PlayerState) -> int:
    """Genes for the Advance Table: advanced genes count 2, Ray Protection 0."""
    return sum(GENES_BY_KEY[k].advance_count for k in ps.genes)


def has_any(ps: PlayerState, *keys: str) -> bool:
    return any(k in ps.genes for k in keys)


def relative(state: GameState, me: int, other: int) -> int:
    """Seat offset of ``other`` from ``me`` in turn order (0 = me)."""
    return (other - me) % state.num_players


def absolute(state: GameState, me: int, offset: int) -> int:
    """Seat at ``offset`` from ``me`` in turn order."""
    return (me + offset) % state.num_players


GENES_BY_KEY = {g.key: g for g in GENES}
