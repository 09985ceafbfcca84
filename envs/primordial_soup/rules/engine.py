"""The Primordial Soup rules object: pure functions over :class:`GameState`.

This module speaks the rulebook's language only (no RL library is imported here). The one
PettingZoo adapter in ``primeval.envs.core`` drives it.
"""

from __future__ import annotations

import numpy as np

from primeval.envs.core.frames import FrameRules
from primeval.envs.primordial_soup.actions import LAYOUT
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.rules import (  # noqa: F401  (register the frames)
    attacks,
    checks,
    death,
    division,
    feeding,
    genes,
    movement,
    rounds,
    scoring,
    setup,
)
from primeval.envs.primordial_soup.rules.registry import REGISTRY
from primeval.envs.primordial_soup.state import GameState


class PrimordialSoupRules(FrameRules):
    """Primordial Soup for 3 or 4 players.

    Args:
        config: A :class:`PrimordialSoupConfig`; keyword overrides build one when omitted.
    """

    name = "primordial_soup"
    registry = REGISTRY
    carries_masks = False  # a mask costs less than a copy of the state to check it by

    def __init__(self, config: PrimordialSoupConfig | None = None, **overrides) -> None:
        if config is None:
            config = PrimordialSoupConfig.from_overrides(**overrides)
        elif overrides:
            raise ValueError("pass either a config or keyword overrides, not both")
        self.config = config
        self.num_players = config.num_players
        self.board = config.board
        self.layout = LAYOUT

    # Setup -----------------------------------------------------------------------------------

    def initial_state(self, rng: np.random.Generator) -> GameState:
        """Set up the table (primordial_soup.md "Setup") and play until the first decision."""
        state = setup.set_up_table(self, rng)
        self.advance(state, rng)
        return state

    # Queries -------------------------------------------------------------------------------

    def is_terminal(self, state: GameState) -> bool:
        return state.phase == "game_over"

    def scores(self, state: GameState) -> list[float]:
        """Ladder positions; the farthest marker wins (markers never share a space)."""
        return [float(ps.score) for ps in state.players]

    def describe_fields(self, state: GameState, frame: dict) -> dict:
        """The frame's fields plus ``number``, the pending amoeba's number (1..7)."""
        fields = dict(frame)
        if isinstance(frame.get("amoeba"), int):
            fields["number"] = frame["amoeba"] + 1
        return fields

    def state_from_dict(self, data: dict) -> GameState:
        checks.check_dict(data)
        return GameState.from_dict(data)

    def check_state(self, state: GameState) -> None:
        """Raise ``ValueError`` naming the first field of a (loaded) state that breaks a rule
        (the invariants are in :mod:`~primeval.envs.primordial_soup.rules.checks`)."""
        checks.check_state(self, state)
