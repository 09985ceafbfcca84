"""Innovation tiles (origin.md "Rewards board and innovation tiles" and "Tile columns"): the
stacking rule of a player's columns and the face-up slots of the rewards board.

Taking a tile (and refilling its slot) is a reward, in ``rewards``.
"""

from __future__ import annotations

import numpy as np

from primeval.envs.core import chance
from primeval.envs.origin.state import OriginState


def can_place(state: OriginState, player: int, level: int) -> bool:
    """A level-1 tile starts a new column; level N goes on a column whose top is N-1."""
    return level == 1 or any(col and col[-1] == level - 1 for col in state.columns[player])


def place_tile(state: OriginState, player: int, level: int) -> None:
    if level == 1:
        state.columns[player].append([1])
        return
    for col in state.columns[player]:
        if col[-1] == level - 1:
            col.append(level)
            return
    raise RuntimeError(f"tile level {level} cannot be placed")


def takeable_slots(rules, state: OriginState, player: int, colours) -> list[int]:
    slot_colours = rules.data.components.slot_colours
    return [i for i, level in enumerate(state.slots)
            if level and slot_colours[i] in colours and can_place(state, player, level)]


def draw_reserve_tile(state: OriginState, rng: np.random.Generator) -> int:
    """A random face-down tile's level, or 0 when the reserve is empty."""
    total = sum(state.tile_reserve)
    if total == 0:
        return 0
    level = chance.pick(rng, len(state.tile_reserve), "face-down tile",
                        weights=state.tile_reserve) + 1
    state.tile_reserve[level - 1] -= 1
    return level
