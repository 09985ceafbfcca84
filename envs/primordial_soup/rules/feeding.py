"""Feeding (primordial_soup.md "Basic genes" and "Phase 1: Move and feed"): meals, excretion,
starvation, feeding genes.

A meal is 3 cubes of foreign colours: one of each with 4 players; two of one and one of the
other with 3 players. Substitution replaces the pattern (4 players 2:2:0 or 3:1:0; 3 players
4:0). Frugality and Parasitism (when a host is there) each remove up to one cube; at least one
cube is eaten. Feeding genes may be used but never have to be; the standard meal must be eaten
when it is there. Without any meal the amoeba starves (+1 DP), unless Struggle saves it.
"""

from __future__ import annotations

import functools
import itertools

from primeval.envs.primordial_soup.actions import MEAL_INDEX, MEALS
from primeval.envs.primordial_soup.rules.attacks import struggle_targets
from primeval.envs.primordial_soup.rules.common import absolute, has_any, place_cubes
from primeval.envs.primordial_soup.rules.registry import decision


def _perms(pattern: tuple[int, int, int]) -> set[tuple[int, int, int]]:
    return set(itertools.permutations(pattern))


STANDARD = {3: {(2, 1, 0), (1, 2, 0)}, 4: {(1, 1, 1)}}
SUBSTITUTION = {3: {(4, 0, 0), (0, 4, 0)}, 4: _perms((2, 2, 0)) | _perms((3, 1, 0))}


def foreign_cubes(state, player: int, space: int) -> tuple[int, int, int]:
    """Cubes on a space by relative foreign colour (+1, +2, +3); 0 for colours not in play."""
    cubes = state.cubes[space]
    n = state.num_players
    return (
        cubes[(player + 1) % n] if n > 1 else 0,
        cubes[(player + 2) % n] if n > 2 else 0,
        cubes[(player + 3) % n] if n > 3 else 0,
    )


def standard_meal_possible(state, player: int, space: int) -> bool:
    return _standard_fits(state.num_players, foreign_cubes(state, player, space))


@functools.lru_cache(maxsize=1024)
def _standard_fits(num_players: int, here: tuple[int, int, int]) -> bool:
    """Whether a standard meal lies on a space holding ``here`` (a bounded cache, as
    :func:`_on_space`)."""
    return any(_fits(b, here) for b in STANDARD[num_players])


def parasite_hosts(state, player: int, space: int) -> list[int]:
    """Relative seats (1..n-1) with an amoeba on the space and BP left to pay."""
    hosts = []
    for k in range(1, state.num_players):
        q = absolute(state, player, k)
        if state.players[q].bp >= 1 and q in {p for p, _ in state.amoebas_at(space)}:
            hosts.append(k)
    return hosts


def _fits(small, big) -> bool:
    return all(s <= b for s, b in zip(small, big, strict=True))


def _shortfalls(num_players: int, substitution: bool) -> tuple[tuple[tuple, int], ...]:
    """Each meal some base pattern covers, with the fewest cubes that must be left out."""
    bases = STANDARD[num_players] | (SUBSTITUTION[num_players] if substitution else set())
    table = []
    for meal in MEALS:
        shortfall = min((sum(b) - sum(meal) for b in bases if _fits(meal, b)), default=None)
        if shortfall is not None:
            table.append((meal, shortfall))
    return tuple(table)


SHORTFALLS = {(n, sub): _shortfalls(n, sub) for n in (3, 4) for sub in (False, True)}


#: ``_on_space`` keeps this many (player count, substitution, cubes) answers, the most
#: recently used: a bounded cache (a long run meets new cube counts game after game).
ON_SPACE_CACHE_SIZE = 1024


@functools.lru_cache(maxsize=ON_SPACE_CACHE_SIZE)
def _on_space(num_players: int, substitution: bool, here: tuple[int, int, int]
              ) -> tuple[tuple[tuple, int], ...]:
    """The :data:`SHORTFALLS` entries whose meal lies on a space holding ``here``."""
    return tuple((meal, shortfall) for meal, shortfall in SHORTFALLS[num_players, substitution]
                 if _fits(meal, here))


def meal_options(rules, state, player: int, space: int) -> dict[tuple, tuple[bool, bool]]:
    """Legal meals with, for each, (possible without Parasitism, possible with Parasitism)."""
    ps = state.players[player]
    here = foreign_cubes(state, player, space)
    frugal = 1 if ps.has("frugality") else 0
    parasite = (
        ps.has("parasitism")
        and bool(parasite_hosts(state, player, space))
        and not (rules.config.parasitism_requires_shortage
                 and standard_meal_possible(state, player, space))
    )
    options = {}
    for meal, shortfall in _on_space(state.num_players, ps.has("substitution"), here):
        if shortfall > frugal + 1:
            continue
        without = shortfall <= frugal
        with_host = parasite and 1 <= shortfall <= frugal + 1
        if without or with_host:
            options[meal] = (without, with_host)
    return options


def eat(rules, state, player: int, amoeba: int, meal, host_offset: int | None) -> None:
    """Eat the meal (cubes back to the supply), excrete 2 cubes of one's own colour (as far
    as the supply allows), and let the Parasitism host pay 1 BP."""
    space = state.players[player].amoeba_space[amoeba]
    for k, count in zip((1, 2, 3), meal, strict=True):
        if count:
            colour = absolute(state, player, k)
            state.cubes[space][colour] -= count
            state.supply[colour] += count
    place_cubes(state, space, player, rules.config.excretion_cubes)
    if host_offset is not None:
        state.players[absolute(state, player, host_offset)].bp -= 1


def starve(state, player: int, amoeba: int) -> None:
    """An amoeba that does not eat gets one damage point."""
    state.players[player].amoeba_damage[amoeba] += 1


def can_struggle(state, player: int, amoeba: int, frame) -> bool:
    ps = state.players[player]
    return (
        not frame["struggle_used"]
        and has_any(ps, "struggle", "aggression")
        and ps.bp >= 1
        and bool(struggle_targets(state, player, amoeba))
    )


@decision("feed", "player_{player} chooses how amoeba #{number} feeds")
class Feed:
    """Feeding is compulsory after moving: the standard meal when it is there (or a gene
    meal); otherwise a gene meal, Struggle for Survival, or starving (``pass``)."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:


        player, amoeba = frame["player"], frame["amoeba"]
        space = state.players[player].amoeba_space[amoeba]
        allow = rules.layout.allow
        for meal in meal_options(rules, state, player, space):
            allow(mask, "eat", MEAL_INDEX[meal])
        if standard_meal_possible(state, player, space):
            return
        rules.layout.allow(mask, "pass")
        if can_struggle(state, player, amoeba, frame):
            attack = rules.layout.segment_view(mask, "attack")
            for q, b in struggle_targets(state, player, amoeba):
                attack[(q - player) % state.num_players, b] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        player, amoeba = frame["player"], frame["amoeba"]
        if segment == "pass":
            starve(state, player, amoeba)
        elif segment == "eat":
            meal = MEALS[index]
            space = state.players[player].amoeba_space[amoeba]
            without, with_host = meal_options(rules, state, player, space)[meal]
            if with_host:
                state.stack.append(
                    {"kind": "parasite_host", "player": player, "amoeba": amoeba, "meal": meal,
                     "optional": without}
                )
            else:
                eat(rules, state, player, amoeba, meal, None)
        else:  # attack: Struggle for Survival
            offset, target = index
            state.stack.append(
                {"kind": "attack", "attack_kind": "struggle", "player": player,
                 "amoeba": amoeba, "target_player": absolute(state, player, offset),
                 "target_amoeba": target, "space": state.players[player].amoeba_space[amoeba],
                 "stage": "start", "free": False, "retry_used": False,
                 "escape_used": False, "defense_used": False}
            )


@decision("parasite_host", "player_{player} chooses who pays for amoeba #{number} (Parasitism)")
class ParasiteHost:
    """Parasitism: one cube fewer if a foreign amoeba whose owner has BP shares the space;
    that owner pays 1 BP to the bank. With several candidates, pick one."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        space = state.players[frame["player"]].amoeba_space[frame["amoeba"]]
        for k in parasite_hosts(state, frame["player"], space):
            rules.layout.allow(mask, "parasite_host", k - 1)
        if frame["optional"]:
            rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        state.stack.pop()
        host = index + 1 if segment == "parasite_host" else None
        eat(rules, state, frame["player"], frame["amoeba"], frame["meal"], host)
