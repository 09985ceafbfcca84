"""The Primordial Soup rules object: pure functions over :class:`GameState`.

This module speaks the rulebook's language only (no RL library is imported here). The one
PettingZoo adapter in ``primeval.envs.core`` drives it.
"""

from __future__ import annotations

import numpy as np

from primeval.envs.core.frames import FrameRules
from primeval.envs.primordial_soup.actions import LAYOUT
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import GENES
from primeval.envs.primordial_soup.rules import (  # noqa: F401  (register the frames)
    attacks,
    death,
    division,
    feeding,
    genes,
    movement,
    rounds,
    scoring,
    setup,
)
from primeval.envs.primordial_soup.rules.common import draw_environment_card
from primeval.envs.primordial_soup.rules.registry import REGISTRY
from primeval.envs.primordial_soup.state import GameState, PlayerState


class PrimordialSoupRules(FrameRules):
    """Primordial Soup for 3 or 4 players.

    Args:
        config: A :class:`PrimordialSoupConfig`; keyword overrides build one when omitted.
    """

    name = "primordial_soup"
    registry = REGISTRY

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
        """Set up the table (spec section 7) and play until the first decision."""
        c = self.config
        n = c.num_players
        spaces = self.board.num_spaces
        state = GameState(
            num_players=n,
            round=0,
            phase="setup",
            players=[
                PlayerState(c.start_bp, 0, {}, [-1] * c.max_amoebas, [0] * c.max_amoebas,
                            [False] * c.max_amoebas)
                for _ in range(n)
            ],
            cubes=[[c.setup_cubes_per_space] * n for _ in range(spaces)],
            supply=[c.cubes_per_colour - c.setup_cubes_per_space * spaces] * n,
            gene_supply=[g.copies(n) for g in GENES],
            environment_card=-1,
            environment_deck=list(range(len(c.environment_deck))),
            stack=[{"kind": "setup_order"}],
        )
        draw_environment_card(state, rng)
        self.advance(state, rng)
        return state

    # Queries -------------------------------------------------------------------------------

    def is_terminal(self, state: GameState) -> bool:
        return state.phase == "game_over"

    def scores(self, state: GameState) -> list[float]:
        """Ladder positions; the farthest marker wins (markers never share a space)."""
        return [float(ps.score) for ps in state.players]

    def to_text(self, state: GameState) -> str:
        from primeval.envs.primordial_soup.render import to_text

        return to_text(state, self.config)
