"""The Primordial Soup rules object: pure functions over :class:`GameState`.

This module speaks the rulebook's language only (no RL library is imported here). The one
PettingZoo adapter in ``primeval.envs.core`` drives it.
"""

from __future__ import annotations

import numpy as np

from primeval.envs.core.errors import IllegalActionError
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
from primeval.envs.primordial_soup.rules.registry import DECISIONS, STEPS
from primeval.envs.primordial_soup.state import GameState, PlayerState

#: The action id of ``pass`` (declining the current choice).
PASS = LAYOUT.encode("pass")


class PrimordialSoupRules:
    """Primordial Soup for 3 or 4 players.

    Args:
        config: A :class:`PrimordialSoupConfig`; keyword overrides build one when omitted.
    """

    name = "primordial_soup"

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
        self._advance(state, rng)
        return state

    # Queries ---------------------------------------------------------------------------------

    def current_player(self, state: GameState) -> int:
        """The seat to decide now, or -1 when the game is over."""
        return state.stack[-1]["player"] if state.stack else -1

    def is_terminal(self, state: GameState) -> bool:
        return state.phase == "game_over"

    def scores(self, state: GameState) -> list[float]:
        """Ladder positions; the farthest marker wins (markers never share a space)."""
        return [float(ps.score) for ps in state.players]

    def phase_name(self, state: GameState) -> str:
        return state.phase

    def decision_name(self, state: GameState) -> str:
        """The pending decision's kind (``"feed"``, ``"buy"``, ...), or ``""`` at the end."""
        return state.stack[-1]["kind"] if state.stack else ""

    def legal_mask(self, state: GameState) -> np.ndarray:
        """Boolean mask over all action ids; all False when the game is over."""
        mask = self.layout.empty_mask()
        if state.stack:
            frame = state.stack[-1]
            DECISIONS[frame["kind"]].legal(self, state, frame, mask)
        return mask

    def legal_actions(self, state: GameState) -> list[int]:
        return np.flatnonzero(self.legal_mask(state)).tolist()

    def describe_decision(self, state: GameState) -> str:
        """The pending decision in words."""
        if not state.stack:
            return "game over"
        frame = state.stack[-1]
        fields = dict(frame)
        if "amoeba" in frame:
            fields["number"] = frame["amoeba"] + 1
        return DECISIONS[frame["kind"]].describe.format(**fields)

    def action_to_str(self, state: GameState | None, action: int) -> str:
        return self.layout.describe(action)

    def to_text(self, state: GameState) -> str:
        from primeval.envs.primordial_soup.render import to_text

        return to_text(state, self.config)

    # Transitions -----------------------------------------------------------------------------

    def apply(self, state: GameState, action: int, rng: np.random.Generator) -> GameState:
        """Return the state after ``action``; ``state`` itself is never changed.

        Raises:
            IllegalActionError: the action is not legal now; the message names the action,
                its meaning, the phase, the pending decision and some legal choices.
        """
        mask = self.legal_mask(state)
        if not (0 <= action < self.layout.n) or not mask[action]:
            raise IllegalActionError(self._illegal_message(state, action, mask))
        new = state.copy()
        frame = new.stack[-1]
        segment, index = self.layout.decode(action)
        DECISIONS[frame["kind"]].apply(self, new, frame, segment, index, rng)
        self._advance(new, rng)
        return new

    def _advance(self, state: GameState, rng: np.random.Generator) -> None:
        """Carry out automatic steps until a player must decide or the game is over.

        A decision whose only legal option is ``pass`` (nothing to buy, no Holding amoeba
        that could cling, ...) is not a choice: it is resolved here as ``pass``.
        """
        while state.stack:
            frame = state.stack[-1]
            kind = frame["kind"]
            if kind in STEPS:
                STEPS[kind](self, state, frame, rng)
                continue
            mask = self.layout.empty_mask()
            DECISIONS[kind].legal(self, state, frame, mask)
            count = int(mask.sum())
            if count == 0:
                raise RuntimeError(f"no legal action for decision {frame}")
            if count == 1 and mask[PASS]:
                DECISIONS[kind].apply(self, state, frame, "pass", 0, rng)
                continue
            return

    def _illegal_message(self, state: GameState, action, mask: np.ndarray) -> str:
        if 0 <= action < self.layout.n:
            meaning = self.layout.describe(action)
        else:
            meaning = f"out of range 0..{self.layout.n - 1}"
        legal = np.flatnonzero(mask)
        shown = ", ".join(f"{a}={self.layout.describe(a)}" for a in legal[:8])
        more = f" (+{len(legal) - 8} more)" if len(legal) > 8 else ""
        return (
            f"illegal action {action} ({meaning}) in phase {state.phase!r}: "
            f"{self.describe_decision(state)}; legal: {shown}{more}"
        )
