"""A rule-based heuristic agent for Origin.

:class:`OriginHeuristic` reads the rules state (``env.unwrapped.game_state``) and answers the
pending decision (the top frame of ``state.stack``) with rules of thumb and a one-move
evaluation; it never looks at hidden information (other hands, deck order, the tile reserve)
except where a card shows it (Barter). It plays the way a sensible beginner does:

* **Actions**: every complete Evolve (territory, pawn), Migrate (from, to) and Swap
  (from, onto) is scored in points: the reward of the territory entered (the best reward
  option for its colour: a tile that fits the columns, level 5 above all, with the card; a
  hunting token still on a green territory), strait tokens completed, the change in the
  player's own objectives (each valued by its points and how many pawns it still needs,
  checked exactly by counting), and a few positional terms scaled by how much of the game is
  left: pawns on the board, taller (range) and wider (swap protection) pawns, strait ends
  held, hunting tokens in reach, pawns an opponent's wider pawn could swap. Swaps also count
  what the victim loses.
* **Cards**: objectives are played as soon as they hold (they score at once; in the final
  round all of them). Orange permanents are played when their estimated worth over the rest
  of the game beats the point a card in hand is worth. Yellow cards are played when they pay:
  range / free straits / Mutation when they improve this turn's best action by more than a
  point, extra actions and the Raft when the extra move is worth it, Great Hunt, Raid, Claim
  the Strait and Theft against the leader, Foresight and Inspiration when they gain.
* **Rewards**: tile and card when a fitting tile is there (or when it is worth more than the
  draw), else draw 3; brown: the better of two brown tiles (taken greedily) and one tile from
  another column. Cards returned are the least useful; objectives above the hand limit are the
  least valuable.

Every answer is checked against the action mask; if a rule finds nothing legal the agent
falls back to a uniformly random legal action from its own seeded generator (counted in
``fallbacks``). A few thousand decisions per second on one core.

Usage::

    from primeval.envs import origin_v0
    from primeval.training.agents.heuristics import OriginHeuristic

    env = origin_v0.raw_env(num_players=3)
    agent = OriginHeuristic(env.unwrapped.rules, seed=0)
    action = agent.act(obs["observation"], obs["action_mask"],
                       state=env.unwrapped.game_state, seat=seat)

Modules: :mod:`.context` (what the agent knows of a position), :mod:`.evaluation` (positions,
tiles, objectives and moves in points), :mod:`.cards` (cards in hand and in play) and
:mod:`.agent` (the decisions, :class:`ReferenceOriginHeuristic`: the plain reference) and
:mod:`.fast` (:class:`OriginHeuristic`, the default: the reference's very choices from cached
and incremental evaluations, about 1.7× cheaper: docs/benchmarks/profile-2026-12-02.md).
"""

from __future__ import annotations

from primeval.training.agents.heuristics.origin.agent import ReferenceOriginHeuristic
from primeval.training.agents.heuristics.origin.fast import OriginHeuristic

__all__ = ["OriginHeuristic", "ReferenceOriginHeuristic"]
