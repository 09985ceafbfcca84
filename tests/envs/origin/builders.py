"""Helpers for Origin rule tests: hand-built positions, scripted randomness, short names.

``table()`` gives a position at the start of ``player_0``'s turn after setup, with empty
hands, nobody's pawns on the board (only the neutral pawn on the Origin territory), and the
decks, tiles and tokens as set up by seed 0. Tests then change exactly what a rule needs.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from primeval.envs.core.chance import ChanceEvent, ChanceSource
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.state import EMPTY, OriginState


class ScriptedRng(ChanceSource):
    """Scripted chance (:mod:`primeval.envs.core.chance`): every pick and die takes the next
    scripted value (a pick's index; for a face-down tile, the index of its level), and every
    shuffle keeps the order it was given. Running out of values raises."""

    def __init__(self, values: Iterable[int] = ()) -> None:
        self.values = list(values)

    def draw(self, event: ChanceEvent) -> int:
        if event.kind == "shuffle":
            return self.shuffle_position(event)
        if not self.values:
            raise AssertionError(f"the rules drew more random numbers than the test scripted "
                                 f"(next: {event.label})")
        return event.check(self.values.pop(0))

    def shuffle_position(self, event: ChanceEvent) -> int:
        """Which of the items left goes next in a shuffle: the first (no change)."""
        return 0


def table(num_players: int = 3, **config) -> tuple[OriginRules, OriginState]:
    """Rules and the start of player_0's first turn with empty hands."""
    rules = OriginRules(num_players=num_players, random_start_player=False, **config)
    rng = np.random.default_rng(0)
    state = rules.initial_state(rng)
    while state.phase == "setup":  # everyone keeps their first dealt objective
        state = rules.apply(state, rules.legal_actions(state)[0], rng)
    for p in range(num_players):
        for c in list(state.hands[p]):
            state.hands[p].remove(c)
            state.decks[2].append(c)
    state.stack = [{"kind": "turn", "player": 0}]
    state.phase = "play"
    state.current = 0
    state.turn = 1
    state.turn_state = {}
    return rules, state


def tid(rules: OriginRules, territory_id: str) -> int:
    """Territory index from its id (``"AF1"``)."""
    return rules.data.world.index(territory_id)


def cid(rules: OriginRules, card_id: str) -> int:
    """Card index from its id (``"Y3"``, ``"P1"``, ``"O5"``)."""
    return next(c.index for c in rules.data.cards if c.id == card_id)


def pawn_type(rules: OriginRules, height: int, width: int, colour: int) -> int:
    return rules.data.components.pawn_types.index((height, width, colour))


def put(rules: OriginRules, state: OriginState, player: int, territory: str,
        height: int = 1, width: int = 1, colour: int = 0) -> int:
    """Put a pawn (from the reserve, with a village) of ``player`` on a territory."""
    t = tid(rules, territory)
    assert state.owner[t] == EMPTY, f"{territory} is not empty"
    p = pawn_type(rules, height, width, colour)
    assert state.reserve[p] > 0, "no such pawn left in the reserve"
    state.reserve[p] -= 1
    state.villages[player] -= 1
    state.pawn[t], state.owner[t] = p, player
    return t


def give_card(rules: OriginRules, state: OriginState, player: int, card_id: str) -> int:
    """Move a card from wherever it is (a deck or the discard) into a hand."""
    c = cid(rules, card_id)
    for pile in (*state.decks, state.discard, *state.hands):
        if c in pile:
            pile.remove(c)
            break
    state.hands[player].append(c)
    return c


def act(rules: OriginRules, state: OriginState, segment: str, *index: int, rng=None):
    """Apply an action named by segment and index (checks apply leaves its input alone)."""
    before = state.to_dict()
    new = rules.apply(state, rules.layout.encode(segment, *index),
                      rng if rng is not None else ScriptedRng())
    assert state.to_dict() == before, "apply mutated its input"
    return new


def options(rules: OriginRules, state: OriginState, segment: str) -> set:
    """Legal indices of one segment."""
    out = set()
    for a in rules.legal_actions(state):
        seg, index = rules.layout.decode(a)
        if seg == segment:
            out.add(index)
    return out


def run(rules: OriginRules, state: OriginState, *frames: dict, rng=None) -> OriginState:
    """Push frames (the first ends on top) and carry out steps up to the next decision."""
    for frame in reversed(frames):
        state.stack.append(dict(frame))
    rules.advance(state, rng if rng is not None else ScriptedRng())
    return state


def count_cards(state: OriginState) -> int:
    """All cards anywhere (48 with the shipped data)."""
    return (sum(len(d) for d in state.decks) + sum(len(h) for h in state.hands)
            + sum(len(p) for p in state.permanents) + sum(len(o) for o in state.objectives_done)
            + len(state.discard)
            + sum(len(f.get("dealt", ())) for f in state.stack))


def count_tiles(state: OriginState) -> int:
    """All innovation tiles anywhere (30 with the shipped data)."""
    return (sum(1 for s in state.slots if s) + sum(state.tile_reserve) + state.lost_tiles
            + sum(len(col) for cols in state.columns for col in cols))
