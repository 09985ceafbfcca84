"""Objective (purple) card conditions (origin.md "Objective cards"): each condition kind once.

"Your pawns" are the pawns standing on your villages; the neutral Origin pawn never counts.
Each kind counts what its condition asks for, ``(have, need)``: the condition holds when
``have >= need`` (:func:`holds`), and :func:`progress` is how much of it holds (reward shaping
reads it; the rules never do).
"""

from __future__ import annotations

from collections.abc import Callable

from primeval.envs.origin.rules.pawns import traits

#: Per condition kind, ``count(rules, state, player, cond) -> (have, need)``.
CONDITIONS: dict[str, Callable] = {}


def condition(kind: str):
    def register(fn):
        CONDITIONS[kind] = fn
        return fn

    return register


def _count(rules, state, player: int, card: int) -> tuple[int, int]:
    cond = rules.data.cards[card].effect
    return CONDITIONS[cond["kind"]](rules, state, player, cond)


def holds(rules, state, player: int, card: int) -> bool:
    """Whether an objective card's condition holds for the player now."""
    have, need = _count(rules, state, player, card)
    return have >= need


def progress(rules, state, player: int, card: int) -> float:
    """How much of an objective card's condition holds for the player now, from 0 to 1: the
    pawns (territories, continents, tokens, levels, cards) it asks for that the player has,
    over those it asks for; 1 exactly when :func:`holds`."""
    have, need = _count(rules, state, player, card)
    return min(have, need) / need


def points_in_prospect(rules, state, player: int) -> float:
    """The points of the objectives in the player's hand, each times its :func:`progress`."""
    cards = rules.data.cards
    return float(sum(cards[c].points * progress(rules, state, player, c)
                     for c in state.hands[player] if cards[c].colour == "purple"))


@condition("pawns_on_colour")
def pawns_on_colour(rules, state, player, cond) -> tuple[int, int]:
    world = rules.data.world
    return (sum(world.territories[t].colour == cond["colour"]
                for t in state.territories_of(player)), cond["count"])


@condition("pawns_on_continent")
def pawns_on_continent(rules, state, player, cond) -> tuple[int, int]:
    world = rules.data.world
    return (sum(world.territories[t].continent == cond["continent"]
                for t in state.territories_of(player)), cond["count"])


@condition("connected_group")
def connected_group(rules, state, player, cond) -> tuple[int, int]:
    """``count`` pawns on territories forming one connected group under board adjacency
    (straits included): all on one continent (``same_continent``), or spanning at least
    ``min_continents`` continents. Counts the largest group the kind allows, short of the
    whole count while it spans too few continents."""
    world = rules.data.world
    mine = set(state.territories_of(player))
    same = cond.get("same_continent", False)
    need_continents = cond.get("min_continents", 1)
    seen: set[int] = set()
    best = 0
    for start in mine:
        if start in seen:
            continue
        # Connected components of own territories (restricted to one continent if needed).
        continent = world.territories[start].continent
        group, frontier = {start}, [start]
        while frontier:
            t = frontier.pop()
            for u in world.neighbours[t]:
                if u in mine and u not in group and (
                        not same or world.territories[u].continent == continent):
                    group.add(u)
                    frontier.append(u)
        if not same:
            seen |= group
        size = len(group)
        if len({world.territories[t].continent for t in group}) < need_continents:
            size = min(size, cond["count"] - 1)
        best = max(best, size)
        if best >= cond["count"]:
            break  # it holds; no group counts more
    return best, cond["count"]


@condition("continents_present")
def continents_present(rules, state, player, cond) -> tuple[int, int]:
    world = rules.data.world
    return (len({world.territories[t].continent for t in state.territories_of(player)}),
            cond["count"])


@condition("pawns_with_trait")
def pawns_with_trait(rules, state, player, cond) -> tuple[int, int]:
    i = 0 if cond["trait"] == "height" else 1
    return (sum(traits(rules, state.pawn[t])[i] == cond["value"]
                for t in state.territories_of(player)), cond["count"])


@condition("colour_set")
def colour_set(rules, state, player, cond) -> tuple[int, int]:
    """At least ``count`` pawns of each colour: the pawns counted are at most ``count`` a
    colour, so it holds when they reach three times ``count``."""
    counts = [0, 0, 0]
    for t in state.territories_of(player):
        counts[traits(rules, state.pawn[t])[2]] += 1
    return sum(min(c, cond["count"]) for c in counts), 3 * cond["count"]


@condition("tokens_owned")
def tokens_owned(rules, state, player, cond) -> tuple[int, int]:
    owners = state.hunt_owner if cond["token"] == "hunting" else state.strait_owner
    return sum(o == player for o in owners), cond["count"]


@condition("column_level")
def column_level(rules, state, player, cond) -> tuple[int, int]:
    return max((col[-1] for col in state.columns[player] if col), default=0), cond["level"]


@condition("permanents_in_play")
def permanents_in_play(rules, state, player, cond) -> tuple[int, int]:
    return len(state.permanents[player]), cond["count"]


#: Condition kinds that ask only *where* the player's pawns stand (not which pawns, tokens,
#: tiles or cards): what :func:`prospect_by_territory` counts.
WHERE_KINDS: frozenset[str] = frozenset(
    {"pawns_on_colour", "pawns_on_continent", "connected_group", "continents_present"})


class _Standing:
    """A state read as if the player's pawns stood on ``territories`` (everything else as
    in ``state``): what the :data:`WHERE_KINDS` conditions count."""

    __slots__ = ("_state", "_player", "_territories")

    def __init__(self, state, player: int, territories: list[int]) -> None:
        self._state, self._player, self._territories = state, player, territories

    def territories_of(self, player: int) -> list[int]:
        if player == self._player:
            return self._territories
        return self._state.territories_of(player)

    def __getattr__(self, name: str):
        return getattr(self._state, name)


def prospect_by_territory(rules, state, player: int) -> tuple[list[float], list[float]]:
    """Where the player's pawns would help or hurt the objectives in its hand.

    Returns ``(gain, loss)``, one number per territory: ``gain[t]`` is how much
    :func:`points_in_prospect`, counting only the objectives whose condition is where pawns
    stand (:data:`WHERE_KINDS`), would rise were one more of the player's pawns on ``t``
    (0 on the player's own territories); ``loss[t]`` is how much it would fall were the
    player's pawn on ``t`` gone (0 elsewhere). Hypothetical: the state is not changed."""
    cards = rules.data.cards
    size = rules.data.world.size
    gain, loss = [0.0] * size, [0.0] * size
    held = [c for c in state.hands[player]
            if cards[c].colour == "purple" and cards[c].effect["kind"] in WHERE_KINDS]
    if not held:
        return gain, loss
    mine = state.territories_of(player)
    now = [progress(rules, state, player, c) for c in held]

    def prospect(territories: list[int]) -> float:
        standing = _Standing(state, player, territories)
        return sum(cards[c].points * (progress(rules, standing, player, c) - p)
                   for c, p in zip(held, now, strict=True))

    owned = set(mine)
    for t in range(size):
        if t in owned:
            loss[t] = 0.0 - prospect([u for u in mine if u != t])
        else:
            gain[t] = prospect(mine + [t])
    return gain, loss
