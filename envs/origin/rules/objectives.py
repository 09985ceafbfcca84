"""Objective (purple) card conditions (origin.md "Objective cards"): each condition kind once.

"Your pawns" are the pawns standing on your villages; the neutral Origin pawn never counts.
"""

from __future__ import annotations

from collections.abc import Callable

from primeval.envs.origin.rules.pawns import traits

CONDITIONS: dict[str, Callable] = {}


def condition(kind: str):
    def register(fn):
        CONDITIONS[kind] = fn
        return fn

    return register


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
