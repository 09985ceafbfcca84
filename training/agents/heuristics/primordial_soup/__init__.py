"""A rule-based heuristic agent for Primordial Soup.

:class:`PrimordialSoupHeuristic` reads the rules state (``env.unwrapped.game_state``) and
answers the pending decision (the top frame of ``state.stack``) with a few rules of thumb;
there is no search. It plays the way a sensible human beginner does:

* **Movement** (phase 1): every option is scored by whether the amoeba can eat where it ends
  up (the drift destination's cubes, Tentacle cubes carried along, a Struggle target there),
  weighted by what starving would cost (death when the amoeba is one damage point from its
  threshold). An active move is paid for only when its expected value (over the dice, with
  Movement I's two dice, Movement II's free choice and Speed's second move) beats drifting by
  more than the BP it costs. Directions after a 6, with Movement I or II, pick the best space.
* **Feeding**: any legal meal rather than starving; the meal that leaves the most meals for
  the player's other amoebas (and the fewest cubes eaten). Parasitism bills the leader.
  Without a meal, Struggle for Survival attacks a foreign amoeba that cannot defend itself.
* **Defence**: Escape and Defense whenever affordable (the likelier one first).
* **Genes** (phase 3): a greedy budget that weighs each gene's Advance-Table value and effect
  against its price, the expected gene-defect cost over the environment cards still in the
  deck, and the BP the next cell division needs. **Defects** give up the least useful gene or
  pay BP, whichever loses less.
* **Division** (phase 4): as many new amoebas as the BP allow (keeping a small reserve for
  moves), each on the space whose next-round drift destination has the most food.
* **Aggression** (and Struggle): attack the foreign amoeba least able to defend itself,
  preferring the leader's; own amoebas are never eaten.

Every answer is checked against the action mask; if a rule finds nothing legal the agent
falls back to a uniformly random legal action from its own seeded generator (counted in
``fallbacks``). About 10,000 decisions per second on one core.

Usage::

    from primeval.envs import primordial_soup_v1
    from primeval.training.agents.heuristics import PrimordialSoupHeuristic

    env = primordial_soup_v1.raw_env(num_players=4)
    agent = PrimordialSoupHeuristic(env.unwrapped.rules, seed=0)
    action = agent.act(obs["observation"], obs["action_mask"],
                       state=env.unwrapped.game_state, seat=seat)

Modules: :mod:`.evaluation` (food, moves, drift and dice), :mod:`.agent` (the decisions,
:class:`ReferencePrimordialSoupHeuristic`: the plain reference) and :mod:`.fast`
(:class:`PrimordialSoupHeuristic`, the default: the reference's very choices, cheaper).
"""

from __future__ import annotations

from primeval.training.agents.heuristics.primordial_soup.agent import (
    ReferencePrimordialSoupHeuristic,
)
from primeval.training.agents.heuristics.primordial_soup.fast import PrimordialSoupHeuristic

__all__ = ["PrimordialSoupHeuristic", "ReferencePrimordialSoupHeuristic"]
