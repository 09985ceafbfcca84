"""Hidden information (origin.md "Hidden information"): what one player cannot see, and a
random re-deal of it for players who plan by sampling what they cannot see.

A player sees their own hand, the objectives dealt to them while they choose which to keep,
and, while bartering, the hand of the player they barter with. Of the others' hands they see
only how many cards of each colour they hold; the decks only as sizes; the face-down tiles
only as a count. Everything else is on the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from primeval.envs.origin.state import OriginState

#: Frames during which the acting player knows the other player's (``victim``'s) hand.
BARTER_FRAMES = ("barter_take", "barter_give")


def known_hands(state: OriginState, observer: int) -> set[int]:
    """Seats whose whole hand ``observer`` knows: their own, and the barter partner's while
    they barter."""
    known = {observer}
    for frame in state.stack:
        if frame["kind"] in BARTER_FRAMES and frame["player"] == observer:
            known.add(frame["victim"])
    return known


def sample_determinization(rules, state: OriginState, observer: int,
                           rng: np.random.Generator) -> OriginState:
    """A copy of ``state`` with everything ``observer`` cannot see dealt anew at random.

    The cards ``observer`` cannot see (the other hands, the decks, objectives dealt to
    another player) are shuffled together colour by colour and dealt back into the same
    places, so every hand keeps its number of cards of each colour and every deck its size.
    The face-down tiles are drawn anew from the tiles not in sight (all tiles less the
    face-up ones and those in the columns), keeping their number. What ``observer`` sees is
    unchanged: their observation of the copy equals that of ``state``. The observation has
    no memory, so neither does this: a card the observer saw earlier (one they gave in a
    barter, say) may be dealt elsewhere.
    """
    new = state.copy()
    colour_of = [card.colour for card in rules.data.cards]
    known = known_hands(state, observer)
    # Every hidden place holding a card: (list, index) pairs, grouped by the card's colour.
    places: dict[str, list[tuple[list[int], int]]] = {}
    piles = [hand for p, hand in enumerate(new.hands) if p not in known]
    piles += new.decks
    for frame in new.stack:
        if frame.get("dealt") and frame["player"] != observer:
            frame["dealt"] = list(frame["dealt"])
            piles.append(frame["dealt"])
    for pile in piles:
        for i, card in enumerate(pile):
            places.setdefault(colour_of[card], []).append((pile, i))
    for colour in sorted(places):
        spots = places[colour]
        cards = sorted(pile[i] for pile, i in spots)  # canonical: not the hidden order
        for (pile, i), k in zip(spots, rng.permutation(len(cards)), strict=True):
            pile[i] = cards[k]
    for frame in new.stack:
        if isinstance(frame.get("dealt"), list):
            frame["dealt"] = tuple(frame["dealt"])
    _redraw_tile_reserve(rules, new, rng)
    return new


def determinizer(rules, state: OriginState, observer: int
                 ) -> Callable[[np.random.Generator], OriginState]:
    """``sample_determinization(rules, state, observer, rng)`` as a function of ``rng``, for a
    planner that draws many determinizations of one state: what every draw shares (the hidden
    places by colour and their cards, the unseen tiles) is worked out once, here. Each call
    gives the copy :func:`sample_determinization` gives for that ``rng``, and draws from it
    alike (``tests/envs/core/test_determinization.py``). ``state`` must not change while the
    function is in use."""
    colour_of = [card.colour for card in rules.data.cards]
    known = known_hands(state, observer)
    # The hidden piles in sample_determinization's order, addressed so that a copy's piles can
    # be found: ("hand", seat), ("deck", deck), ("dealt", frame's index in the stack).
    piles = [("hand", p) for p in range(len(state.hands)) if p not in known]
    piles += [("deck", d) for d in range(len(state.decks))]
    piles += [("dealt", j) for j, frame in enumerate(state.stack)
              if frame.get("dealt") and frame["player"] != observer]
    dealt = [j for kind, j in piles if kind == "dealt"]

    def lists(copy: OriginState) -> list[list[int]]:
        return [copy.hands[k] if kind == "hand" else copy.decks[k] if kind == "deck"
                else copy.stack[k]["dealt"] for kind, k in piles]

    own = lists(state)
    places: dict[str, list[tuple[int, int]]] = {}
    for n, pile in enumerate(own):
        for i, card in enumerate(pile):
            places.setdefault(colour_of[card], []).append((n, i))
    plan = [(places[colour], sorted(own[n][i] for n, i in places[colour]))
            for colour in sorted(places)]
    pool = _unseen_tiles(rules, state)
    size, levels = sum(state.tile_reserve), len(state.tile_reserve)

    def sample(rng: np.random.Generator) -> OriginState:
        new = state.copy()
        for j in dealt:
            new.stack[j]["dealt"] = list(new.stack[j]["dealt"])
        targets = lists(new)
        for spots, cards in plan:
            for (n, i), k in zip(spots, rng.permutation(len(cards)), strict=True):
                targets[n][i] = cards[k]
        for frame in new.stack:
            if isinstance(frame.get("dealt"), list):
                frame["dealt"] = tuple(frame["dealt"])
        drawn = [pool[i] for i in rng.permutation(len(pool))[:size]]
        new.tile_reserve = [drawn.count(level) for level in range(1, levels + 1)]
        return new

    return sample


def _unseen_tiles(rules, state: OriginState) -> list[int]:
    """The tile levels not in sight (all tiles less the face-up ones and those in the
    columns), one entry a tile, lowest level first."""
    unseen = dict(rules.data.components.innovation_tiles)
    for level in [*state.slots, *(lv for cols in state.columns for col in cols for lv in col)]:
        if level:
            unseen[level] -= 1
    return [level for level, count in sorted(unseen.items()) for _ in range(count)]


def _redraw_tile_reserve(rules, state: OriginState, rng: np.random.Generator) -> None:
    pool = _unseen_tiles(rules, state)
    size = sum(state.tile_reserve)
    drawn = [pool[i] for i in rng.permutation(len(pool))[:size]]
    state.tile_reserve = [drawn.count(level) for level in range(1, len(state.tile_reserve) + 1)]
