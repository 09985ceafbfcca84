"""Natural death (primordial_soup.md "Phase 5: Deaths")."""

from __future__ import annotations

from primeval.envs.primordial_soup.rules.common import (
    death_threshold,
    place_cubes_each_colour,
    remove_amoeba,
)
from primeval.envs.primordial_soup.rules.registry import step


@step("natural_deaths")
def natural_deaths(rules, state, frame, rng) -> None:
    """In descending order, and by number within a player, amoebas with 2 DP (3 with
    Longevity) die; each leaves 2 cubes of each colour in play, as far as the supply allows."""
    state.stack.pop()
    for p in state.descending():
        ps = state.players[p]
        threshold = death_threshold(rules.config, ps)
        for amoeba in ps.amoebas_on_board():
            if ps.amoeba_damage[amoeba] >= threshold:
                space = remove_amoeba(state, p, amoeba)
                place_cubes_each_colour(state, space, rules.config.natural_death_cubes)
