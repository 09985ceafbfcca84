"""Rewards (origin.md "Rewards" and "Tokens"): by the colour of the territory entered; tiles,
cards, hunting and strait tokens."""

from __future__ import annotations

import numpy as np

from primeval.envs.origin.actions import BrownRewardChoice, RewardChoice
from primeval.envs.origin.rules.cards import DECK_INDEX, cards_in_hand
from primeval.envs.origin.rules.effects import effects, has_effect, objective_limit
from primeval.envs.origin.rules.registry import decision, step
from primeval.envs.origin.rules.tiles import draw_reserve_tile, place_tile, takeable_slots
from primeval.envs.origin.rules.turn import check_end
from primeval.envs.origin.state import DECKS, OriginState

OTHER_COLUMNS = ("yellow", "orange", "purple")


@step("reward")
def reward(rules, state, frame, rng) -> None:
    """The reward of the territory entered by the acting pawn, by its colour."""
    state.stack.pop()
    player, territory = frame["player"], frame["territory"]
    colour = rules.data.world.territories[territory].colour
    if colour in ("yellow", "orange", "purple", "brown"):
        state.stack.append({"kind": "reward_option", "player": player, "colour": colour})
    elif colour == "green" and frame.get("via") != "swap":
        # Swapping onto a green territory gives nothing (origin.md "Green rewards"), even if a
        # Resettlement put the swapped pawn there without taking the token.
        if state.hunt_owner[territory] == -1 and state.hunt_value[territory] > 0:
            state.hunt_owner[territory] = player  # the first tribe to enter takes the token
            if has_effect(rules, state, player, "hunt_draw"):
                state.stack.append({"kind": "choose_deck", "player": player, "count": 1,
                                    "reason": "hunt_draw"})
        elif has_effect(rules, state, player, "empty_hunt_draw"):
            state.stack.append({"kind": "choose_deck", "player": player, "count": 1,
                                "reason": "empty_hunt_draw"})


@decision("reward_option", "player_{player} chooses the {colour} reward")
class RewardOption:
    """Yellow/orange/purple: (a) a tile of that colour and the top card of its deck, or (b)
    draw 3 cards of that colour and return 2 from your hand. Brown: (a) 2 brown tiles, or
    (b) 1 tile from another colour's column."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        options = BrownRewardChoice if frame["colour"] == "brown" else RewardChoice
        for option in options:
            rules.layout.allow(mask, "reward_option", option)

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player, colour = frame["player"], frame["colour"]
        if colour == "brown":
            if index == BrownRewardChoice.TWO_BROWN_TILES:
                any_column = has_effect(rules, state, player, "brown_any_columns")
                colours = ("brown", *OTHER_COLUMNS) if any_column else ("brown",)
                state.stack.append({"kind": "take_tile", "player": player, "colours": colours,
                                    "count": 2})
            else:  # BrownRewardChoice.ONE_OTHER_TILE
                state.stack.append({"kind": "take_tile", "player": player,
                                    "colours": OTHER_COLUMNS, "count": 1})
            return
        deck = DECK_INDEX[colour]
        if index == RewardChoice.TILE_AND_CARD:
            state.stack.append({"kind": "draw", "player": player, "deck": deck, "count": 1})
            state.stack.append({"kind": "take_tile", "player": player, "colours": (colour,),
                                "count": 1})
        else:  # RewardChoice.DRAW_CARDS
            drawn = draw_cards(rules, state, player, deck, 3)
            keep = 3 - min([2] + [int(e["returns"]) for e in
                                  effects(rules, state, player, "fewer_returns")])
            returns = max(0, drawn - keep)
            if colour == "purple":
                _push_limit(state, player)
            if returns:
                state.stack.append({"kind": "return_card", "player": player,
                                    "colour": colour, "count": returns})


def _push_limit(state, player: int) -> None:
    state.stack.append({"kind": "objective_limit", "player": player})


@decision("take_tile", "player_{player} takes an innovation tile")
class TakeTile:
    """Take a face-up tile that fits your columns (a level 1, or one level above a column's
    top); the slot is refilled from the reserve. Nothing to take: nothing happens."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "take_tile")
        slots = takeable_slots(rules, state, frame["player"], frame["colours"])
        if slots:
            view[slots] = True
        else:
            rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        if segment == "pass":
            state.stack.pop()
            return
        take_tile(rules, state, frame["player"], index, rng)
        frame["count"] -= 1
        if frame["count"] <= 0:
            state.stack.pop()


@step("draw")
def draw(rules, state, frame, rng) -> None:
    """Draw cards from the top of a deck (an empty deck gives nothing)."""
    state.stack.pop()
    draw_cards(rules, state, frame["player"], frame["deck"], frame["count"])
    if DECKS[frame["deck"]] == "purple":
        _push_limit(state, frame["player"])


@decision("return_card", "player_{player} returns {count} {colour} card(s)")
class ReturnCard:
    """Return cards of a colour from your hand to the bottom of that deck."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "return_card")
        view[cards_in_hand(rules, state, frame["player"], frame["colour"])] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        return_card(rules, state, frame["player"], index)
        frame["count"] -= 1
        if frame["count"] <= 0 or not cards_in_hand(rules, state, frame["player"],
                                                       frame["colour"]):
            state.stack.pop()


@step("objective_limit")
def objective_limit_step(rules, state, frame, rng) -> None:
    """Hold at most 2 objectives (3 with the right card): return the extra ones."""
    state.stack.pop()
    player = frame["player"]
    extra = len(cards_in_hand(rules, state, player, "purple")) - objective_limit(
        rules, state, player)
    if extra > 0:
        state.stack.append({"kind": "return_card", "player": player, "colour": "purple",
                            "count": extra})


@decision("choose_deck", "player_{player} chooses a deck to draw from")
class ChooseDeck:
    """Draw the top card(s) of a deck of your choice (Hunters, Herding, Foresight)."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        any_deck = False
        for i, deck in enumerate(state.decks):
            if deck:
                rules.layout.allow(mask, "choose_deck", i)
                any_deck = True
        if not any_deck:
            rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        if segment == "choose_deck":
            state.stack.append({"kind": "draw", "player": frame["player"], "deck": index,
                                "count": frame["count"]})


@step("strait_check")
def strait_check(rules, state, frame, rng) -> None:
    """Whoever first has villages on both ends of a strait takes its token (the passive
    player of a swap too). Trade Routes: also take 1 tile from any column."""
    state.stack.pop()
    for player, _strait in check_straits(rules, state):
        if has_effect(rules, state, player, "strait_tile"):
            state.stack.append({"kind": "take_tile", "player": player,
                                "colours": ("yellow", "orange", "purple", "brown"),
                                "count": 1})


# Taking tiles, drawing and returning cards, strait tokens ----------------------------------

def take_tile(rules, state: OriginState, player: int, slot: int,
              rng: np.random.Generator) -> None:
    """Take a face-up tile into one's columns; the slot is refilled from the reserve."""
    place_tile(state, player, state.slots[slot])
    state.slots[slot] = draw_reserve_tile(state, rng)
    check_end(rules, state)


def draw_cards(rules, state: OriginState, player: int, deck: int, count: int) -> int:
    """Draw up to ``count`` cards from the top of a deck; returns how many were drawn."""
    drawn = state.decks[deck][:count]
    del state.decks[deck][:count]
    state.hands[player].extend(drawn)
    check_end(rules, state)
    return len(drawn)


def return_card(rules, state: OriginState, player: int, card: int) -> None:
    """Put a card from a hand at the bottom of its deck."""
    state.hands[player].remove(card)
    state.decks[DECK_INDEX[rules.data.cards[card].colour]].append(card)


def check_straits(rules, state: OriginState) -> list[tuple[int, int]]:
    """Give every strait token whose two ends hold one player's villages to that player.

    Returns (player, strait) pairs taken now.
    """
    taken = []
    for s, (a, b) in enumerate(rules.data.world.straits):
        if state.strait_owner[s] == -1 and state.owner[a] >= 0 and state.owner[a] == state.owner[b]:
            state.strait_owner[s] = state.owner[a]
            taken.append((state.owner[a], s))
    return taken
