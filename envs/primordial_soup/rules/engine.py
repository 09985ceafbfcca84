"""The Primordial Soup rules object: pure functions over :class:`GameState`.

This module speaks the rulebook's language only (no RL library is imported here). The one
PettingZoo adapter in ``primeval.envs.core`` drives it.
"""

from __future__ import annotations

import numpy as np

from primeval.envs.core.errors import need
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
from primeval.envs.primordial_soup.rules.genes import SUCCESSORS
from primeval.envs.primordial_soup.rules.registry import REGISTRY
from primeval.envs.primordial_soup.state import PHASES, GameState


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
        return GameState.from_dict(data)

    def check_state(self, state: GameState) -> None:
        """Raise ``ValueError`` naming the first inconsistency of a (loaded) state."""
        c, n = self.config, self.num_players

        need(state.num_players == n, f"{state.num_players} players, the config has {n}")
        need(len(state.players) == n and len(state.supply) == n, "player lists of wrong length")
        need(len(state.cubes) == self.board.num_spaces
             and all(len(row) == n for row in state.cubes), "cubes: wrong shape")
        need(len(state.gene_supply) == len(GENES), "gene_supply: wrong length")
        for colour in range(n):
            total = sum(row[colour] for row in state.cubes) + state.supply[colour]
            need(total == c.cubes_per_colour, f"colour {colour}: {total} cubes, expected "
                 f"{c.cubes_per_colour}")
            need(min(row[colour] for row in state.cubes) >= 0 and state.supply[colour] >= 0,
                 f"colour {colour}: negative cubes")
        for p, ps in enumerate(state.players):
            need(ps.bp >= 0, f"player {p}: negative BP")
            need(len(ps.amoeba_space) == c.max_amoebas == len(ps.amoeba_damage),
                 f"player {p}: amoeba lists of wrong length")
            need(all(-1 <= sp < self.board.num_spaces for sp in ps.amoeba_space),
                 f"player {p}: amoeba on an unknown space")
            need(all(g in {x.key for x in GENES} for g in ps.genes), f"player {p}: unknown gene")
        for i, g in enumerate(GENES):
            owned = sum(g.key in ps.genes for ps in state.players)
            need(state.gene_supply[i] >= 0 and owned + state.gene_supply[i] == g.copies(n),
                 f"{g.name}: {owned} owned + {state.gene_supply[i]} in supply, expected "
                 f"{g.copies(n)} cards")
        for p, ps in enumerate(state.players):
            threshold = c.death_damage_longevity + 2
            for amoeba, (sp, dp) in enumerate(zip(ps.amoeba_space, ps.amoeba_damage,
                                                  strict=True)):
                need(0 <= dp <= threshold and (sp >= 0 or dp == 0),
                     f"player {p} amoeba #{amoeba + 1}: damage {dp} out of bounds")
        for p, ps in enumerate(state.players):
            for basic, higher in SUCCESSORS.items():
                held = [h for h in higher if h in ps.genes]
                need(not (basic in ps.genes and held), f"player {p}: holds {basic} and its "
                     f"successor {held[0] if held else ''} (a successor replaces it)")
        if state.round >= 1:
            need(len({ps.score for ps in state.players}) == n,
                 "two score markers share a space of the scoring ladder")
        need(0 <= state.round <= c.max_rounds, f"round {state.round}: the game has "
             f"{c.max_rounds} rounds")
        need(state.phase in PHASES, f"unknown phase {state.phase!r}")
        need(0 <= state.environment_card < len(c.environment_deck), "unknown environment card")
        kinds = set(self.registry.decisions) | set(self.registry.steps)
        need(all(f.get("kind") in kinds for f in state.stack), "unknown frame kind in the stack")
