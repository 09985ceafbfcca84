"""The Origin rules object: pure functions over :class:`OriginState`."""

from __future__ import annotations

import numpy as np

from primeval.envs.core.errors import need
from primeval.envs.core.frames import FrameRules
from primeval.envs.origin.actions import build_layout
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.rules import (  # noqa: F401  (register the frames)
    cards,
    rewards,
    scoring,
    setup,
    turn,
)
from primeval.envs.origin.rules.registry import REGISTRY
from primeval.envs.origin.rules.turn import end_condition
from primeval.envs.origin.state import EMPTY, NEUTRAL, PHASES, OriginState


class OriginRules(FrameRules):
    """Origin for 2 to 4 players.

    Args:
        config: An :class:`OriginConfig`; keyword overrides build one when omitted.
    """

    name = "origin"
    registry = REGISTRY

    def __init__(self, config: OriginConfig | None = None, **overrides) -> None:
        if config is None:
            config = OriginConfig.from_overrides(**overrides)
        elif overrides:
            raise ValueError("pass either a config or keyword overrides, not both")
        self.config = config
        self.data = config.data
        self.num_players = config.num_players
        self.layout = build_layout(self.data)

    def initial_state(self, rng: np.random.Generator) -> OriginState:
        """Set up the table (origin.md "Setup") and play until the first decision."""
        state = setup.set_up_table(self, rng)
        self.advance(state, rng)
        return state

    def is_terminal(self, state: OriginState) -> bool:
        return state.phase == "game_over"

    def scores(self, state: OriginState) -> list[float]:
        """Final points; with ``score_tiebreak`` plus cards in hand / 100 (the tie-break)."""
        result = []
        for p, by_source in enumerate(scoring.all_points(self, state)):
            points = float(sum(by_source.values()))
            if self.config.score_tiebreak:
                points += len(state.hands[p]) / 100.0
            result.append(points)
        return result

    def state_from_dict(self, data: dict) -> OriginState:
        return OriginState.from_dict(data)

    def check_state(self, state: OriginState) -> None:
        """Raise ``ValueError`` naming the first inconsistency of a (loaded) state."""
        data, n = self.data, self.num_players

        need(state.num_players == n, f"{state.num_players} players, the config has {n}")
        size = data.world.size
        need(len(state.pawn) == size == len(state.owner), "territory lists of wrong length")
        need(len(state.reserve) == len(data.components.pawn_types), "reserve: wrong length")
        need(min(state.reserve) >= 0, "reserve: negative count")
        need(all(o in (EMPTY, NEUTRAL, *range(n)) for o in state.owner), "unknown owner")
        need(len(state.hands) == n == len(state.villages), "player lists of wrong length")
        held = [c for pile in (*state.decks, *state.hands, *state.permanents,
                                *state.objectives_done, state.discard) for c in pile]
        held += [c for f in state.stack for c in f.get("dealt", ())]
        need(sorted(held) == list(range(len(data.cards))), "cards are missing or duplicated")
        colour_of = [card.colour for card in data.cards]
        piles = [("yellow", "discard", state.discard),
                 ("yellow", "turn_cards", state.turn_state.get("turn_cards", ()))]
        piles += [("orange", f"player {p}'s cards in play", pile)
                  for p, pile in enumerate(state.permanents)]
        piles += [("purple", f"player {p}'s completed objectives", pile)
                  for p, pile in enumerate(state.objectives_done)]
        piles += [("purple", "dealt objectives", f.get("dealt", ())) for f in state.stack]
        indices = range(len(colour_of))
        for colour, name, pile in piles:
            need(all(c in indices and colour_of[c] == colour for c in pile),
                 f"{name}: only {colour} cards may be there, found card indices {list(pile)}")
        tiles = (sum(1 for x in state.slots if x) + sum(state.tile_reserve) + state.lost_tiles
                 + sum(len(col) for cols in state.columns for col in cols))
        need(tiles == data.components.num_tiles, f"{tiles} tiles, expected "
             f"{data.components.num_tiles}")
        comps = data.components
        for t, (p, o) in enumerate(zip(state.pawn, state.owner, strict=True)):
            need((p >= 0) == (o != EMPTY), f"territory {data.world.territories[t].id}: pawn and "
                 "owner disagree")
        for p in range(n):
            need(state.villages[p] >= 0 and state.owner.count(p) + state.villages[p]
                 == comps.villages_per_player, f"player {p}: villages not conserved")
        copies = sum(2 if h == 2 and n in comps.extra_medium_set_players else 1
                     for h, _w, _c in comps.pawn_types)
        on_board = sum(1 for o in state.owner if o != EMPTY)
        need(on_board + sum(state.reserve) == copies, f"{on_board} pawns on the board + "
             f"{sum(state.reserve)} in reserve, expected {copies}")
        need(state.owner.count(NEUTRAL) == 1, "exactly one neutral pawn expected")
        need(sorted(v for v in state.hunt_value if v) == sorted(comps.hunting_tokens),
             "hunting tokens not conserved")
        need(sorted(state.strait_value) == sorted(comps.strait_tokens),
             "strait tokens not conserved")
        self._check_board(state)
        need(state.phase in PHASES, f"unknown phase {state.phase!r}")
        kinds = set(self.registry.decisions) | set(self.registry.steps)
        need(all(f.get("kind") in kinds for f in state.stack), "unknown frame kind in the stack")

    def _check_board(self, state: OriginState) -> None:
        """The Origin, the tile columns and the tokens hold as the rules leave them."""
        data, n = self.data, self.num_players
        world, comps = data.world, data.components
        origin = world.origin
        need(state.owner[origin] == NEUTRAL and state.pawn[origin] >= 0
             and comps.pawn_types[state.pawn[origin]][:2] == (1, 1),
             "the Origin territory holds the neutral 1/1 pawn")
        need(all(o != NEUTRAL for t, o in enumerate(state.owner) if t != origin),
             "only the Origin territory holds the neutral pawn")
        for p, cols in enumerate(state.columns):
            for col in cols:
                need(list(col) == list(range(1, len(col) + 1)), f"player {p}: tile column "
                     f"{list(col)} is not stacked level 1, 2, ... from the bottom")
        greens = {t for t, terr in enumerate(world.territories) if terr.colour == "green"}
        for t in range(world.size):
            tid = world.territories[t].id
            owner = state.hunt_owner[t]
            need(owner in (-1, *range(n)), f"{tid}: hunting token owner {owner} is not a seat")
            if t not in greens:
                need(state.hunt_value[t] == 0 and owner == -1,
                     f"{tid}: a hunting token on a territory that is not green")
            elif state.owner[t] != EMPTY:
                need(owner != -1, f"{tid}: a pawn stands there but its hunting token was "
                     "not taken")
        for s, owner in enumerate(state.strait_owner):
            need(owner in (-1, *range(n)), f"strait {s}: token owner {owner} is not a seat")
        if len(state.stack) == 1 and state.stack[0]["kind"] == "turn":  # nothing pending
            need(state.stack[0]["player"] == state.current, "the turn frame's player is not "
                 "the current player")
            for s, (a, b) in enumerate(world.straits):
                need(not (state.owner[a] >= 0 and state.owner[a] == state.owner[b]
                          and state.strait_owner[s] == -1),
                     f"strait {s}: one player holds both ends but its token was not claimed")
        if state.phase != "setup":
            need(state.end_triggered or end_condition(self, state) is None,
                 "an end condition holds but the end is not triggered")

    def describe_fields(self, state: OriginState, frame: dict) -> dict:
        """The frame's fields, its ``territory`` by the territory's id (``AF1``)."""
        fields = dict(frame)
        if isinstance(frame.get("territory"), int):
            fields["territory"] = self.data.world.territories[frame["territory"]].id
        return fields
