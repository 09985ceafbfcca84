"""Where the Primordial Soup heuristic's amoebas find food: meals, moves, drift and dice.

:class:`_Evaluation` holds the value functions that
:class:`ReferencePrimordialSoupHeuristic` inherits: the meals a space's foreign cubes feed (the minimal meals of the rules' table), what starving
would cost, what ending a move on a space is worth (a meal, Parasitism, a Struggle target,
Tentacle cubes carried along), the expected value of an active move over the dice, and where
the drift carries an amoeba.
"""

from __future__ import annotations

import itertools

from primeval.envs.primordial_soup.data import DIRECTIONS, STAY
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.rules.common import death_threshold
from primeval.envs.primordial_soup.rules.feeding import SHORTFALLS
from primeval.envs.primordial_soup.rules.scoring import advance_distance
from primeval.envs.primordial_soup.state import GameState, PlayerState


def _minimal(meals: list[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    """The meals no other meal of the list fits inside (enough to test whether one fits)."""
    return tuple(
        m for m in meals
        if not any(o != m and all(a <= b for a, b in zip(o, m, strict=True)) for o in meals)
    )


#: (num_players, substitution, cubes that may be left out) -> minimal meals.
_MEAL_TABLE: dict[tuple[int, bool, int], tuple[tuple[int, int, int], ...]] = {
    (n, sub, k): _minimal([m for m, short in SHORTFALLS[n, sub] if short <= k])
    for n in (3, 4) for sub in (False, True) for k in (0, 1, 2)
}

#: Faces of one die as sets of compass outcomes (index 5 = the free choice of a 6).
_FACES = ((0,), (1,), (2,), (3,), (STAY,), None)


def attack_success(defender: PlayerState) -> float:
    """Rough chance that an attack on ``defender``'s amoeba succeeds: Escape and Defense
    (which cost the defender 1 BP) often foil it."""
    chance = 1.0
    if defender.bp >= 1:
        if defender.has("escape"):
            chance *= 0.4
        if defender.has("defense"):
            chance *= 0.5
    return chance


class _Evaluation:
    """Food and movement values of the Primordial Soup heuristic (a mixin of the agent)."""

    @staticmethod
    def _foreign(state: GameState, player: int, space: int) -> tuple[int, int, int]:
        cubes = state.cubes[space]
        n = state.num_players
        return (cubes[(player + 1) % n], cubes[(player + 2) % n],
                cubes[(player + 3) % n] if n == 4 else 0)

    @staticmethod
    def _table(state: GameState, ps: PlayerState, host: bool = False):
        k = (1 if ps.has("frugality") else 0) + (1 if host else 0)
        return _MEAL_TABLE[state.num_players, ps.has("substitution"), k]

    @staticmethod
    def _fits(here, table) -> bool:
        a, b, c = here
        return any(a >= m[0] and b >= m[1] and c >= m[2] for m in table)

    @staticmethod
    def _meal_count(here, table, limit: int = 4) -> int:
        """How many meals the cubes feed one after the other (greedy, balanced)."""
        h = list(here)
        count = 0
        while count < limit:
            best = None
            best_key = None
            for m in table:
                if h[0] >= m[0] and h[1] >= m[1] and h[2] >= m[2]:
                    key = min(h[0] - m[0] + (m[0] == 0) * 99, h[1] - m[1] + (m[1] == 0) * 99,
                              h[2] - m[2] + (m[2] == 0) * 99)
                    if best is None or key > best_key:
                        best, best_key = m, key
            if best is None:
                break
            h[0] -= best[0]
            h[1] -= best[1]
            h[2] -= best[2]
            count += 1
        return count

    def _has_host(self, state: GameState, player: int, space: int) -> bool:
        for q, ps in enumerate(state.players):
            if q != player and ps.bp >= 1 and space in ps.amoeba_space:
                return True
        return False

    @staticmethod
    def _rounds_left(state: GameState, rules: PrimordialSoupRules) -> int:
        """Rounds still to be scored, this one included (cards left, or the finish zone)."""
        cards = len(state.environment_deck)
        by_cards = cards + (0 if state.phase in ("setup", "movement_and_feeding") else 1)
        goal = rules.config.finish_zone_start
        by_zone = min(
            -(-(goal - ps.score) // max(advance_distance(ps), 5)) for ps in state.players
        )
        return max(1, min(by_cards, max(by_zone, 1)))

    def _starve_cost(self, state: GameState, rules, player: int, amoeba: int) -> float:
        ps = state.players[player]
        dp = ps.amoeba_damage[amoeba]
        if dp + 1 >= death_threshold(rules.config, ps):
            return 8.0
        return 3.0 if len(state.environment_deck) > 0 else 1.0

    def _struggle_chance(self, state: GameState, player: int, amoeba: int, space: int,
                         bp_left: int) -> float:
        """Chance that Struggle for Survival saves a starving amoeba on ``space``."""
        ps = state.players[player]
        if bp_left < 1 or not (ps.has("struggle") or ps.has("aggression")):
            return 0.0
        best = 0.0
        for q, other in enumerate(state.players):
            if q == player or other.has("armor"):
                continue
            for sp in other.amoeba_space:
                if sp == space:
                    best = max(best, attack_success(other))
        return best

    def _feed_value(self, state: GameState, rules, player: int, amoeba: int, space: int,
                    here, bp_left: int, starve_cost: float) -> float:
        """Value of ending the move on ``space`` with ``here`` foreign cubes available."""
        ps = state.players[player]
        table = self._table(state, ps)
        if self._fits(here, table):
            return starve_cost + 0.25 * min(self._meal_count(here, table) - 1, 3)
        if (ps.has("parasitism") and self._has_host(state, player, space)
                and self._fits(here, self._table(state, ps, host=True))):
            return starve_cost
        return starve_cost * self._struggle_chance(state, player, amoeba, space, bp_left)

    def _with_tentacle(self, state: GameState, rules, ps: PlayerState, src_here, dest_here):
        """Foreign cubes at the destination plus the best Tentacle carry from the source."""
        limit = rules.config.tentacle_limit
        if not ps.has("tentacle") or limit <= 0:
            return dest_here
        table = self._table(state, ps)
        best = None
        for m in table:
            need = [max(0, m[i] - dest_here[i]) for i in range(3)]
            if (sum(need) <= limit and all(need[i] <= src_here[i] for i in range(3))
                    and (best is None or sum(need) < sum(best))):
                best = need
        carry = best if best is not None else [0, 0, 0]
        room = limit - sum(carry)
        total = [dest_here[i] + carry[i] for i in range(3)]
        for i in sorted(range(3), key=lambda j: total[j]):
            extra = min(room, src_here[i] - carry[i])
            if extra > 0:
                total[i] += extra
                room -= extra
        return tuple(total)

    def _outcome_values(self, state: GameState, rules, player: int, amoeba: int, src: int,
                        bp_left: int, starve_cost: float) -> list[float]:
        """Value of each compass outcome (W, N, E, S, stay) of an active move from ``src``."""
        ps = state.players[player]
        neighbours = rules.board.neighbours[src]
        src_here = self._foreign(state, player, src)
        stay = self._feed_value(state, rules, player, amoeba, src, src_here, bp_left,
                                starve_cost)
        values = []
        for d in range(4):
            dest = neighbours[d]
            if dest < 0:
                values.append(stay)
                continue
            here = self._with_tentacle(state, rules, ps, src_here,
                                       self._foreign(state, player, dest))
            values.append(self._feed_value(state, rules, player, amoeba, dest, here, bp_left,
                                           starve_cost))
        values.append(stay)
        return values

    def _dice_expectation(self, rules, ps: PlayerState, values: list[float]) -> float:
        """Expected value of an active move's outcome over the dice (or the free choice)."""
        if ps.has("movement_2"):
            return max(values)
        six = max(values) if rules.config.six_allows_stay else max(values[:4])
        per_face = [values[f[0]] if f is not None else six for f in _FACES]
        if ps.has("movement_1"):
            return sum(max(a, b) for a, b in itertools.product(per_face, repeat=2)) / 36.0
        return sum(per_face) / 6.0

    def _active_value(self, state: GameState, rules, player: int, amoeba: int, src: int,
                      bp_left: int, starve_cost: float, speed: bool) -> float:
        ps = state.players[player]
        values = self._outcome_values(state, rules, player, amoeba, src, bp_left, starve_cost)
        if speed:
            neighbours = rules.board.neighbours[src]
            boosted = []
            for d in range(5):
                dest = neighbours[d] if d < 4 else src
                if dest < 0:
                    dest = src
                second = self._dice_expectation(
                    rules, ps,
                    self._outcome_values(state, rules, player, amoeba, dest, bp_left,
                                         starve_cost),
                )
                boosted.append(max(values[d], second))
            values = boosted
        return self._dice_expectation(rules, ps, values)

    def _drift_destination(self, state: GameState, rules, space: int) -> int:
        drift = rules.config.environment_deck[state.environment_card][0]
        if drift == "none":
            return space
        dest = rules.board.neighbours[space][DIRECTIONS.index(drift)]
        return space if dest < 0 else dest
