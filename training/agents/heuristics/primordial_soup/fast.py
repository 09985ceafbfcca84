"""The fast Primordial Soup heuristic: the reference's very choices, at a fraction of the cost.

:class:`PrimordialSoupHeuristic` overrides hot paths of
:class:`~primeval.training.agents.heuristics.primordial_soup.agent.ReferencePrimordialSoupHeuristic`
(the plain reference, kept beside it) and nothing else:

* **Pure functions memoised**: how many meals a heap of cubes feeds (``_meal_count``), whether
  one fits (``_fits``) and the expectation of a move's outcomes over the dice
  (``_dice_expectation``) depend on their arguments alone, so their results are kept in
  bounded tables across decisions.
* **Per-decision caches**: the foreign cubes of a space, the worth of ending a move on a
  space, the outcomes of an active move from a space and a gene set's ladder points, each
  kept for the state being decided (by identity) and dropped with the next decision.
* **Placements** (``_place``): the spaces with an amoeba, each space's drift destination and
  the danger spaces are worked out once per decision instead of once per candidate space and
  neighbour; each candidate's score is the reference's expression, term for term.

Every number is computed by the reference's own code (the caches only skip computing it
twice), so every choice and every fallback draw is the same
(``tests/training/agents/heuristics/test_fast_equals_reference.py``).
"""

from __future__ import annotations

from typing import Any

from primeval.envs.primordial_soup.actions import LAYOUT
from primeval.envs.primordial_soup.data import DIRECTIONS
from primeval.training.agents.heuristics.primordial_soup.agent import (
    ReferencePrimordialSoupHeuristic,
)
from primeval.training.agents.heuristics.primordial_soup.evaluation import _Evaluation

__all__ = ["PrimordialSoupHeuristic"]

_reference_meal_count = _Evaluation._meal_count
_reference_fits = _Evaluation._fits
#: Entries kept per memo table before it is emptied (bounded memory over long runs).
_MEMO_LIMIT = 50_000
_meals: dict = {}
#: Direction name -> index into ``board.neighbours[space]`` (as the drift reads it).
_DIRECTION = {name: i for i, name in enumerate(DIRECTIONS)}
_fits_memo: dict = {}


class PrimordialSoupHeuristic(ReferencePrimordialSoupHeuristic):
    """Rule-based Primordial Soup player, fast: the same choices and fallback draws as
    :class:`ReferencePrimordialSoupHeuristic`."""

    def __init__(self, rules: Any = None, seed: int | None = None) -> None:
        super().__init__(rules, seed)
        self._state = None
        self._cache: dict = {}
        self._dice: dict = {}

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        self._state, self._cache = state, {}
        try:
            return super().act(observation, action_mask, state=state, seat=seat)
        finally:
            self._state, self._cache = None, {}

    def _memo(self, state) -> dict | None:
        """The cache of the state being decided (None for any other state)."""
        return self._cache if state is self._state and state is not None else None

    # Pure functions of their arguments -------------------------------------------------------

    @staticmethod
    def _meal_count(here, table, limit: int = 4) -> int:
        key = (tuple(here), table, limit)
        count = _meals.get(key)
        if count is None:
            if len(_meals) >= _MEMO_LIMIT:
                _meals.clear()
            count = _meals[key] = _reference_meal_count(here, table, limit)
        return count

    @staticmethod
    def _fits(here, table) -> bool:
        key = (tuple(here), table)
        fits = _fits_memo.get(key)
        if fits is None:
            if len(_fits_memo) >= _MEMO_LIMIT:
                _fits_memo.clear()
            fits = _fits_memo[key] = _reference_fits(here, table)
        return fits

    def _dice_expectation(self, rules, ps, values: list[float]) -> float:
        key = (
            ps.has("movement_2"),
            ps.has("movement_1"),
            rules.config.six_allows_stay,
            tuple(values),
        )
        value = self._dice.get(key)
        if value is None:
            if len(self._dice) >= _MEMO_LIMIT:
                self._dice.clear()
            value = self._dice[key] = super()._dice_expectation(rules, ps, values)
        return value

    # Per decision -------------------------------------------------------------------------

    def _foreign(self, state, player: int, space: int) -> tuple[int, int, int]:
        memo = self._memo(state)
        if memo is None:
            return ReferencePrimordialSoupHeuristic._foreign(state, player, space)
        key = ("foreign", player, space)
        value = memo.get(key)
        if value is None:
            value = memo[key] = ReferencePrimordialSoupHeuristic._foreign(state, player, space)
        return value

    def _feed_value(self, state, rules, player, amoeba, space, here, bp_left, starve_cost):
        memo = self._memo(state)
        if memo is None:
            return super()._feed_value(
                state, rules, player, amoeba, space, here, bp_left, starve_cost
            )
        key = ("feed", player, amoeba, space, tuple(here), bp_left, starve_cost)
        value = memo.get(key)
        if value is None:
            value = memo[key] = super()._feed_value(
                state, rules, player, amoeba, space, here, bp_left, starve_cost
            )
        return value

    def _outcome_values(self, state, rules, player, amoeba, src, bp_left, starve_cost):
        memo = self._memo(state)
        if memo is None:
            return super()._outcome_values(state, rules, player, amoeba, src, bp_left, starve_cost)
        key = ("outcomes", player, amoeba, src, bp_left, starve_cost)
        values = memo.get(key)
        if values is None:
            values = memo[key] = tuple(
                super()._outcome_values(state, rules, player, amoeba, src, bp_left, starve_cost)
            )
        return list(values)

    def _gene_points(self, state, rules, genes, amoebas, rounds) -> float:
        memo = self._memo(state)
        if memo is None:
            return super()._gene_points(state, rules, genes, amoebas, rounds)
        key = ("genes", tuple(genes), amoebas, rounds)  # only the keys count, in their order
        value = memo.get(key)
        if value is None:
            value = memo[key] = super()._gene_points(state, rules, genes, amoebas, rounds)
        return value

    def _place(self, rules, state, player: int, mask, setup: bool):
        """The reference's placement (lowest free number, most food ahead), each per-space
        fact worked out once: the same candidate order, scores and tie-breaks."""
        view = LAYOUT.segment_view(mask, "place_amoeba")
        numbers, spaces = view.nonzero()
        if numbers.size == 0:
            return None
        number = int(numbers.min())
        candidates = spaces[numbers == number].tolist()
        ps = state.players[player]
        table = self._table(state, ps)
        board = rules.board
        drift = rules.config.environment_deck[state.environment_card][0]
        if drift == "none":
            destination = list(range(board.num_spaces))
        else:
            step = [row[_DIRECTION[drift]] for row in board.neighbours]
            destination = [s if d < 0 else d for s, d in enumerate(step)]
        occupied: set[int] = set()
        eaters: dict[int, int] = {}
        danger_spaces: set[int] = set()
        for q, other in enumerate(state.players):
            on_board = [sp for sp in other.amoeba_space if sp >= 0]
            occupied.update(on_board)
            for sp in on_board:
                d = destination[sp]
                eaters[d] = eaters.get(d, 0) + 1
            if q != player and (other.has("aggression") or other.has("struggle")):
                danger_spaces.update(on_board)
        own_spaces = {sp for sp in ps.amoeba_space if sp >= 0}
        best, best_key = None, None
        for s in candidates:
            d = destination[s]
            meals = self._meal_count(self._foreign(state, player, d), table, limit=6)
            here_meals = self._meal_count(self._foreign(state, player, s), table, limit=6)
            score = min(meals - eaters.get(d, 0), 3) + 0.3 * min(here_meals, 3)
            if s in danger_spaces or d in danger_spaces:
                score -= 1.5
            if setup:
                score += 0.3 * sum(1 for a in board.adjacent(s) if a not in occupied)
            else:
                score += 0.1 * sum(1 for a in board.adjacent(s) if a not in own_spaces)
            if best_key is None or score > best_key:
                best, best_key = s, score
        return LAYOUT.encode("place_amoeba", number, best)
