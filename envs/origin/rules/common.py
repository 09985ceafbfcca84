"""Origin rules helpers: pawns, ranges, tiles, cards, tokens and the end triggers.

Card effects that change a rule (range, straits, evolution, swaps, limits) are read here
through :func:`effects`, so each rule asks one place what modifies it.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from primeval.envs.origin.state import DECKS, EMPTY, NEUTRAL, OriginState

DECK_INDEX = {name: i for i, name in enumerate(DECKS)}


# Pawns ----------------------------------------------------------------------------------------

def traits(rules, pawn_type: int) -> tuple[int, int, int]:
    """(height, width, colour index) of a pawn type."""
    return rules.data.components.pawn_types[pawn_type]


def compatible(new: tuple[int, int, int], ref: tuple[int, int, int], changes: int) -> bool:
    """Evolution compatibility: at most ``changes`` traits differ (1 by the rules), and each
    differing trait is legal on its own: any other colour, height +1, width +1."""
    h, w, c = new
    rh, rw, rc = ref
    diffs = 0
    if h != rh:
        if h != rh + 1:
            return False
        diffs += 1
    if w != rw:
        if w != rw + 1:
            return False
        diffs += 1
    if c != rc:
        diffs += 1
    return diffs <= changes


# Card effects in force --------------------------------------------------------------------------

def effects(rules, state: OriginState, player: int, kind: str) -> list[dict[str, Any]]:
    """The effects of this kind in force for a player: their orange cards in play, and the
    yellow cards they played this turn whose effect lasts for the turn."""
    in_force = state.permanents[player]
    if state.current == player and "turn_cards" in state.turn_state:
        in_force = [*in_force, *state.turn_state["turn_cards"]]
    if not in_force:
        return []
    cards = rules.data.cards
    return [cards[c].effect for c in in_force if cards[c].kind == kind]


def bonus(rules, state: OriginState, player: int, kind: str, param: str) -> int:
    """Sum of a numeric parameter over the effects of a kind in force."""
    return sum(int(e[param]) for e in effects(rules, state, player, kind))


def has_effect(rules, state: OriginState, player: int, kind: str) -> bool:
    return bool(effects(rules, state, player, kind))


def add_turn_card(state: OriginState, card: int) -> None:
    """A yellow card whose effect lasts for the rest of the current turn."""
    state.turn_state["turn_cards"] = (*state.turn_state.get("turn_cards", ()), card)


def move_range(rules, state: OriginState, player: int, territory: int,
               extra: int | None = None) -> int:
    """Migrate/Swap range: the pawn's height plus :func:`range_bonus` (``extra``, when the
    caller has it already)."""
    h, _, _ = traits(rules, state.pawn[territory])
    return h + (range_bonus(rules, state, player) if extra is None else extra)


def range_bonus(rules, state: OriginState, player: int) -> int:
    """Migrate/Swap range beyond the pawn's height: range bonuses and Leadership."""
    return (bonus(rules, state, player, "range_bonus", "amount")
            + bonus(rules, state, player, "leadership", "height"))


def free_straits(rules, state: OriginState, player: int) -> bool:
    """Whether strait crossings cost the player's Migrate/Swap no step (Canoes, Sea Voyage)."""
    return has_effect(rules, state, player, "free_straits")


def evolve_changes(rules, state: OriginState, player: int) -> int:
    """Traits an evolution may change: 1, or more with Mutation/Adaptation."""
    return max([1] + [int(e["amount"]) for e in effects(rules, state, player, "evolve_changes")])


def evolve_distance(rules, state: OriginState, player: int) -> int:
    """Steps between a new pawn and its reference pawn: 1, or more with Pioneers."""
    return max([1] + [int(e["distance"])
                      for e in effects(rules, state, player, "evolve_distance")])


def objective_limit(rules, state: OriginState, player: int) -> int:
    return max([rules.data.components.objective_hand_limit]
               + [int(e["limit"]) for e in effects(rules, state, player, "objective_limit")])


# Legal actions ---------------------------------------------------------------------------------

@functools.cache
def compatible_types(pawn_types: tuple[tuple[int, int, int], ...], changes: int
                     ) -> tuple[frozenset[int], ...]:
    """Per reference pawn type, the pawn types :func:`compatible` with it."""
    return tuple(frozenset(p for p, new in enumerate(pawn_types)
                           if compatible(new, ref, changes)) for ref in pawn_types)


def evolve_options(rules, state: OriginState, player: int, only: int | None = None
                   ) -> dict[int, list[int]]:
    """Empty territory -> pawn types that may evolve there (reserve, village, reference);
    ``only``: just that territory."""
    setup = _evolve_setup(rules, state, player)
    if setup is None:
        return {}
    types, near, compatible_with = setup
    owner, pawn = state.owner, state.pawn
    options: dict[int, list[int]] = {}
    for target in range(len(owner)) if only is None else (only,):
        if owner[target] != EMPTY:
            continue
        allowed: set[int] = set()
        for ref in near[target]:  # a reference pawn: any pawn within reach
            if owner[ref] != EMPTY:
                allowed |= compatible_with[pawn[ref]]
        ok = [p for p in types if p in allowed]
        if ok:
            options[target] = ok
    return options


def evolve_targets(rules, state: OriginState, player: int) -> list[int]:
    """Evolve's first choices, ``list(evolve_options(...))``, found without listing every
    pawn type of every territory."""
    setup = _evolve_setup(rules, state, player)
    if setup is None:
        return []
    types, near, compatible_with = setup
    available = set(types)
    owner, pawn = state.owner, state.pawn
    # From the reference side: the pawns some available type is compatible with, then the
    # empty territories within reach of one of them (reach is symmetric).
    references = [ref for ref, o in enumerate(owner)
                  if o != EMPTY and not available.isdisjoint(compatible_with[pawn[ref]])]
    reached = {target for ref in references for target in near[ref]}
    return [target for target in sorted(reached) if owner[target] == EMPTY]


def _evolve_setup(rules, state: OriginState, player: int):
    """(reserve pawn types, territories within reach, compatible types per reference type),
    or None when the player cannot evolve (no village or no pawn left)."""
    if state.villages[player] <= 0:
        return None
    types = [p for p, n in enumerate(state.reserve) if n > 0]
    if not types:
        return None
    near = rules.data.world.within(evolve_distance(rules, state, player))
    compatible_with = compatible_types(rules.data.components.pawn_types,
                                       evolve_changes(rules, state, player))
    return types, near, compatible_with


def migrate_options(rules, state: OriginState, player: int, only: int | None = None
                    ) -> dict[int, list[int]]:
    """Own territory -> empty territories within the pawn's range. ``only``: just from
    that territory."""
    world, free = rules.data.world, free_straits(rules, state, player)
    extra_range = range_bonus(rules, state, player)
    empty = [t for t, o in enumerate(state.owner) if o == EMPTY]
    options = {}
    for src in state.territories_of(player) if only is None else (only,):
        reach = world.within(move_range(rules, state, player, src, extra_range), free)[src]
        dests = [t for t in empty if t in reach]
        if dests:
            options[src] = dests
    return options


def migrate_sources(rules, state: OriginState, player: int) -> list[int]:
    """Migrate's first choices, ``list(migrate_options(...))``: own pawns with an empty
    territory within range."""
    world, free = rules.data.world, free_straits(rules, state, player)
    extra_range = range_bonus(rules, state, player)
    empty = {t for t, o in enumerate(state.owner) if o == EMPTY}
    sources = []
    for src in state.territories_of(player):
        reach = move_range(rules, state, player, src, extra_range)
        if not empty.isdisjoint(world.within(reach, free)[src]):
            sources.append(src)
    return sources


def swap_options(rules, state: OriginState, player: int, only: int | None = None
                 ) -> dict[int, list[int]]:
    """Own territory -> territories of other players' strictly thinner pawns in range.
    ``only``: just from that territory."""
    world, free = rules.data.world, free_straits(rules, state, player)
    extra_range, extra_width, equal_ok, others = _swap_setup(rules, state, player)
    options = {}
    for src in state.territories_of(player) if only is None else (only,):
        reach = world.within(move_range(rules, state, player, src, extra_range), free)[src]
        width = traits(rules, state.pawn[src])[1] + extra_width
        dests = [t for t, other in others if t in reach and swappable(width, other, equal_ok)]
        if dests:
            options[src] = dests
    return options


def swap_sources(rules, state: OriginState, player: int) -> list[int]:
    """Swap's first choices, ``list(swap_options(...))``: own pawns with a pawn they may
    swap onto within range."""
    world, free = rules.data.world, free_straits(rules, state, player)
    extra_range, extra_width, equal_ok, others = _swap_setup(rules, state, player)
    targets: dict[int, set[int]] = {}  # pawn width -> the pawns it may swap onto
    sources = []
    for src in state.territories_of(player):
        width = traits(rules, state.pawn[src])[1] + extra_width
        if width not in targets:
            targets[width] = {t for t, other in others if swappable(width, other, equal_ok)}
        reach = move_range(rules, state, player, src, extra_range)
        if not targets[width].isdisjoint(world.within(reach, free)[src]):
            sources.append(src)
    return sources


def swappable(width: int, other: int, equal_ok: bool) -> bool:
    """A pawn ``width`` wide may swap onto a strictly thinner pawn, or onto one as wide with
    a ``swap_equal_width`` effect."""
    return other < width or (equal_ok and other == width)


def _swap_setup(rules, state: OriginState, player: int):
    """(range bonus, width bonus, ``swap_equal_width`` in force, ``(territory, pawn width)``
    of every other player's pawn) for the player's swaps."""
    pawn_types, pawn = rules.data.components.pawn_types, state.pawn
    others = [(t, pawn_types[pawn[t]][1]) for t, o in enumerate(state.owner)
              if o not in (EMPTY, NEUTRAL, player)]  # (territory, its pawn's width)
    return (range_bonus(rules, state, player),
            bonus(rules, state, player, "leadership", "width"),
            has_effect(rules, state, player, "swap_equal_width"), others)


# Tiles -----------------------------------------------------------------------------------------

def can_place(state: OriginState, player: int, level: int) -> bool:
    """A level-1 tile starts a new column; level N goes on a column whose top is N-1."""
    return level == 1 or any(col and col[-1] == level - 1 for col in state.columns[player])


def place_tile(state: OriginState, player: int, level: int) -> None:
    if level == 1:
        state.columns[player].append([1])
        return
    for col in state.columns[player]:
        if col[-1] == level - 1:
            col.append(level)
            return
    raise RuntimeError(f"tile level {level} cannot be placed")


def takeable_slots(rules, state: OriginState, player: int, colours) -> list[int]:
    slot_colours = rules.data.components.slot_colours
    return [i for i, level in enumerate(state.slots)
            if level and slot_colours[i] in colours and can_place(state, player, level)]


def take_tile(rules, state: OriginState, player: int, slot: int,
              rng: np.random.Generator) -> None:
    """Take a face-up tile into one's columns; the slot is refilled from the reserve."""
    place_tile(state, player, state.slots[slot])
    state.slots[slot] = draw_reserve_tile(state, rng)
    check_end(rules, state)


def draw_reserve_tile(state: OriginState, rng: np.random.Generator) -> int:
    """A random face-down tile's level, or 0 when the reserve is empty."""
    total = sum(state.tile_reserve)
    if total == 0:
        return 0
    pick = int(rng.integers(total))
    for i, count in enumerate(state.tile_reserve):
        if pick < count:
            state.tile_reserve[i] -= 1
            return i + 1
        pick -= count
    raise RuntimeError("unreachable")


# Cards -----------------------------------------------------------------------------------------

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


def cards_in_hand(rules, state: OriginState, player: int, colour: str) -> list[int]:
    return [c for c in state.hands[player] if rules.data.cards[c].colour == colour]


def push_objective_limit(state: OriginState, player: int) -> None:
    """After a purple draw: return objectives above the hand limit (checked as a step)."""
    state.stack.append({"kind": "objective_limit", "player": player})


# Tokens and the end ------------------------------------------------------------------------------

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


def end_condition(rules, state: OriginState) -> str | None:
    """The end trigger that holds now, if any (spec section 6.8)."""
    if any(not deck for deck in state.decks):
        return "a deck is empty"
    if not any(state.slots) and not any(state.tile_reserve):
        return "every innovation tile has been taken"
    if not any(state.reserve):
        return "the pawn reserve is empty"
    if all(v == 0 for v in state.villages):
        return "every player has placed all villages"
    return None


def check_end(rules, state: OriginState) -> None:
    """Latch the end trigger as soon as a condition holds (a later refill does not undo it)."""
    if not state.end_triggered and end_condition(rules, state) is not None:
        state.end_triggered = True
