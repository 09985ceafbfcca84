"""Setup (spec section 6.1): objectives dealt and kept, then the first turn."""

from __future__ import annotations

from primeval.envs.origin.rules.registry import decision, step
from primeval.envs.origin.state import Deck

PURPLE = Deck.PURPLE


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
    state.decks[PURPLE] = [deck[i] for i in rng.permutation(len(deck))]
    state.phase = "play"
    state.current = state.start_player
    state.stack.append({"kind": "begin_turn", "player": state.start_player})
