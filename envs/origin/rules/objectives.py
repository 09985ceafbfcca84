"""Objective (purple) card conditions (origin.md "Objective cards"): each condition kind once.

"Your pawns" are the pawns standing on your villages; the neutral Origin pawn never counts.
"""

from __future__ import annotations

from collections.abc import Callable

from primeval.envs.origin.rules.pawns import traits

CONDITIONS: dict[str, Callable] = {}
#: How far each condition kind holds: ``(have, need)`` (see :func:`progress`).
PROGRESS: dict[str, Callable] = {}


def _registrar(table: dict[str, Callable]) -> Callable:
    """A decorator factory filing functions in ``table`` by condition kind."""

    def by_kind(kind: str):
        def register(fn):
            table[kind] = fn
            return fn

        return register

    return by_kind


condition = _registrar(CONDITIONS)
progress_of = _registrar(PROGRESS)


def holds(rules, state, player: int, card: int) -> bool:
    """Whether an objective card's condition holds for the player now."""
    cond = rules.data.cards[card].effect
    return CONDITIONS[cond["kind"]](rules, state, player, cond)


@condition("pawns_on_colour")
def pawns_on_colour(rules, state, player, cond) -> bool:
    world = rules.data.world
    mine = state.territories_of(player)
    return sum(world.territories[t].colour == cond["colour"] for t in mine) >= cond["count"]


@condition("pawns_on_continent")
def pawns_on_continent(rules, state, player, cond) -> bool:
    world = rules.data.world
    mine = state.territories_of(player)
    return sum(world.territories[t].continent == cond["continent"] for t in mine) >= cond["count"]


@condition("connected_group")
def connected_group(rules, state, player, cond) -> bool:
    """``count`` pawns on territories forming one connected group under board adjacency
    (straits included): all on one continent (``same_continent``), or spanning at least
    ``min_continents`` continents."""
    world = rules.data.world
    mine = set(state.territories_of(player))
    same = cond.get("same_continent", False)
    need_continents = cond.get("min_continents", 1)
    seen: set[int] = set()
    for start in mine:
        if start in seen:
            continue
        # Connected components of own territories (restricted to one continent if needed).
        for continent in ({world.territories[start].continent} if same else {None}):
            group, frontier = {start}, [start]
            while frontier:
                t = frontier.pop()
                for u in world.neighbours[t]:
                    if u in mine and u not in group and (
                            continent is None or world.territories[u].continent == continent):
                        group.add(u)
                        frontier.append(u)
            if not same:
                seen |= group
            continents = {world.territories[t].continent for t in group}
            if len(group) >= cond["count"] and len(continents) >= need_continents:
                return True
    return False


@condition("continents_present")
def continents_present(rules, state, player, cond) -> bool:
    world = rules.data.world
    return len({world.territories[t].continent
                for t in state.territories_of(player)}) >= cond["count"]


@condition("pawns_with_trait")
def pawns_with_trait(rules, state, player, cond) -> bool:
    i = 0 if cond["trait"] == "height" else 1
    return sum(traits(rules, state.pawn[t])[i] == cond["value"]
               for t in state.territories_of(player)) >= cond["count"]


@condition("colour_set")
def colour_set(rules, state, player, cond) -> bool:
    counts = [0, 0, 0]
    for t in state.territories_of(player):
        counts[traits(rules, state.pawn[t])[2]] += 1
    return min(counts) >= cond["count"]


@condition("tokens_owned")
def tokens_owned(rules, state, player, cond) -> bool:
    owners = state.hunt_owner if cond["token"] == "hunting" else state.strait_owner
    return sum(o == player for o in owners) >= cond["count"]


@condition("column_level")
def column_level(rules, state, player, cond) -> bool:
    return any(col and col[-1] >= cond["level"] for col in state.columns[player])


@condition("permanents_in_play")
def permanents_in_play(rules, state, player, cond) -> bool:
    return len(state.permanents[player]) >= cond["count"]


# -- How far a condition holds (for shaping a learner's reward; the rules never ask) ---------

def progress(rules, state, player: int, card: int) -> float:
    """How much of an objective card's condition holds for the player now, from 0 to 1: the
    pawns (territories, continents, tokens, levels, cards) it asks for that the player has,
    over those it asks for; 1 exactly when :func:`holds`."""
    cond = rules.data.cards[card].effect
    have, need = PROGRESS[cond["kind"]](rules, state, player, cond)
    return min(have, need) / need


@progress_of("pawns_on_colour")
def _colour_progress(rules, state, player, cond) -> tuple[int, int]:
    world = rules.data.world
    return (sum(world.territories[t].colour == cond["colour"]
                for t in state.territories_of(player)), cond["count"])


@progress_of("pawns_on_continent")
def _continent_progress(rules, state, player, cond) -> tuple[int, int]:
    world = rules.data.world
    return (sum(world.territories[t].continent == cond["continent"]
                for t in state.territories_of(player)), cond["count"])


@progress_of("connected_group")
def _group_progress(rules, state, player, cond) -> tuple[int, int]:
    """The largest group of own territories that the condition's kind allows (one continent,
    or any), short of the whole count while it spans too few continents."""
    world = rules.data.world
    mine = set(state.territories_of(player))
    same = cond.get("same_continent", False)
    need_continents = cond.get("min_continents", 1)
    best = 0
    for start in mine:
        continent = world.territories[start].continent
        group, frontier = {start}, [start]
        while frontier:
            t = frontier.pop()
            for u in world.neighbours[t]:
                if u in mine and u not in group and (
                        not same or world.territories[u].continent == continent):
                    group.add(u)
                    frontier.append(u)
        size = len(group)
        if len({world.territories[t].continent for t in group}) < need_continents:
            size = min(size, cond["count"] - 1)
        best = max(best, size)
    return best, cond["count"]


@progress_of("continents_present")
def _continents_progress(rules, state, player, cond) -> tuple[int, int]:
    world = rules.data.world
    return (len({world.territories[t].continent for t in state.territories_of(player)}),
            cond["count"])


@progress_of("pawns_with_trait")
def _trait_progress(rules, state, player, cond) -> tuple[int, int]:
    i = 0 if cond["trait"] == "height" else 1
    return (sum(traits(rules, state.pawn[t])[i] == cond["value"]
                for t in state.territories_of(player)), cond["count"])


@progress_of("colour_set")
def _colour_set_progress(rules, state, player, cond) -> tuple[int, int]:
    counts = [0, 0, 0]
    for t in state.territories_of(player):
        counts[traits(rules, state.pawn[t])[2]] += 1
    return sum(min(c, cond["count"]) for c in counts), 3 * cond["count"]


@progress_of("tokens_owned")
def _tokens_progress(rules, state, player, cond) -> tuple[int, int]:
    owners = state.hunt_owner if cond["token"] == "hunting" else state.strait_owner
    return sum(o == player for o in owners), cond["count"]


@progress_of("column_level")
def _column_progress(rules, state, player, cond) -> tuple[int, int]:
    return max((col[-1] for col in state.columns[player] if col), default=0), cond["level"]


@progress_of("permanents_in_play")
def _permanents_progress(rules, state, player, cond) -> tuple[int, int]:
    return len(state.permanents[player]), cond["count"]


def points_in_prospect(rules, state, player: int) -> float:
    """The points of the objectives in the player's hand, each times its :func:`progress`."""
    cards = rules.data.cards
    return float(sum(cards[c].points * progress(rules, state, player, c)
                     for c in state.hands[player] if cards[c].colour == "purple"))
