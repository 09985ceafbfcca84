"""Hidden information (origin.md "Hidden information"): what one player cannot see, and a
random re-deal of it for players who plan by sampling what they cannot see.

A player sees their own hand, the objectives dealt to them while they choose which to keep,
and, while bartering, the hand of the player they barter with. Of the others' hands they see
only how many cards of each colour they hold; the decks only as sizes; the face-down tiles
only as a count. Everything else is on the table.
"""

from __future__ import annotations

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


def _redraw_tile_reserve(rules, state: OriginState, rng: np.random.Generator) -> None:
    comps = rules.data.components
    unseen = dict(comps.innovation_tiles)
    for level in [*state.slots, *(lv for cols in state.columns for col in cols for lv in col)]:
        if level:
            unseen[level] -= 1
    pool = [level for level, count in sorted(unseen.items()) for _ in range(count)]
    size = sum(state.tile_reserve)
    drawn = [pool[i] for i in rng.permutation(len(pool))[:size]]
    state.tile_reserve = [drawn.count(level) for level in range(1, len(state.tile_reserve) + 1)]
