"""Setup (origin.md "Setup"): the table, then objectives dealt and kept, then the first turn."""

from __future__ import annotations

import numpy as np

from primeval.envs.core import chance
from primeval.envs.origin.rules.registry import decision, step
from primeval.envs.origin.state import EMPTY, NEUTRAL, Deck, OriginState

PURPLE = Deck.PURPLE


def set_up_table(rules, rng: np.random.Generator) -> OriginState:
    """The table before the first decision (origin.md "Setup"): the neutral pawn of a random
    colour on the Origin territory, the three decks and the innovation tiles shuffled (the
    face-up slots filled), the hunting and strait tokens placed at random, the start player
    chosen (or seat 0), villages in supply; the objectives are dealt next, by the
    ``deal_objectives`` step on the stack."""
    data, n = rules.data, rules.num_players
    comps, world = data.components, data.world
    reserve = []
    for h, _w, _c in comps.pawn_types:
        reserve.append(2 if h == 2 and n in comps.extra_medium_set_players else 1)
    pawn = [-1] * world.size
    owner = [EMPTY] * world.size
    neutral_colour = chance.pick(rng, 3, "neutral pawn colour")
    neutral = comps.pawn_types.index((comps.neutral_height, comps.neutral_width,
                                      neutral_colour))
    reserve[neutral] -= 1
    pawn[world.origin], owner[world.origin] = neutral, NEUTRAL
    decks = []
    for colour in ("yellow", "orange", "purple"):
        deck = [c.index for c in data.cards if c.colour == colour]
        decks.append([deck[i] for i in chance.shuffle(rng, len(deck), f"{colour} deck")])
    tiles = [level for level, count in sorted(comps.innovation_tiles.items())
             for _ in range(count)]
    tiles = [tiles[i] for i in chance.shuffle(rng, len(tiles), "innovation tiles")]
    face_up = len(comps.slot_colours)
    slots = tiles[:face_up]
    tile_reserve = [tiles[face_up:].count(level) for level in range(1, 6)]
    greens = [t for t, terr in enumerate(world.territories) if terr.colour == "green"]
    hunt_value = [0] * world.size
    for t, i in zip(greens, chance.shuffle(rng, len(greens), "hunting tokens"), strict=True):
        hunt_value[t] = comps.hunting_tokens[i]
    straits = chance.shuffle(rng, len(world.straits), "strait tokens")
    strait_value = [comps.strait_tokens[i] for i in straits]
    start = chance.pick(rng, n, "start player") if rules.config.random_start_player else 0
    state = OriginState(
        num_players=n, phase="setup", turn=0, current=start, start_player=start,
        pawn=pawn, owner=owner, reserve=reserve,
        villages=[comps.villages_per_player] * n, hands=[[] for _ in range(n)],
        permanents=[[] for _ in range(n)], objectives_done=[[] for _ in range(n)],
        objective_points=[0] * n, columns=[[] for _ in range(n)], slots=slots,
        tile_reserve=tile_reserve, lost_tiles=0, decks=decks, discard=[],
        hunt_value=hunt_value, hunt_owner=[-1] * world.size, strait_value=strait_value,
        strait_owner=[-1] * len(world.straits), stack=[{"kind": "deal_objectives"}],
    )
    return state


@step("deal_objectives")
def deal_objectives(rules, state, frame, rng) -> None:
    """Deal 3 objectives to each player; each keeps 1, in turn order from the start player."""
    state.stack.pop()
    comps = rules.data.components
    n = state.num_players
    state.stack.append({"kind": "shuffle_objectives"})
    for k in reversed(range(n)):
        p = (state.start_player + k) % n
        dealt = tuple(state.decks[PURPLE][: comps.objectives_dealt])
        del state.decks[PURPLE][: comps.objectives_dealt]
        state.stack.append({"kind": "keep_objective", "player": p, "dealt": dealt,
                            "keep": comps.objectives_kept})


@decision("keep_objective", "player_{player} keeps a dealt objective")
class KeepObjective:
    """Each player keeps 1 of the 3 dealt objectives and returns the others."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        for card in frame["dealt"]:
            rules.layout.allow(mask, "keep_objective", card)

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.hands[frame["player"]].append(index)
        frame["dealt"] = tuple(c for c in frame["dealt"] if c != index)
        frame["keep"] -= 1
        if frame["keep"] == 0 or not frame["dealt"]:
            state.stack.pop()
            state.decks[PURPLE].extend(frame["dealt"])


@step("shuffle_objectives")
def shuffle_objectives(rules, state, frame, rng) -> None:
    """The returned objectives are shuffled back; the start player takes the first turn."""
    state.stack.pop()
    deck = state.decks[PURPLE]
    state.decks[PURPLE] = [deck[i] for i in chance.shuffle(rng, len(deck), "objectives")]
    state.phase = "play"
    state.current = state.start_player
    state.stack.append({"kind": "begin_turn", "player": state.start_player})
