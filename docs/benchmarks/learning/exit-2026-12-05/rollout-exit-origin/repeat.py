"""Are the rollout search's switches a property of the position? Two searches, asked apart.

    python docs/benchmarks/learning/exit-2026-12-05/rollout-exit-origin/repeat.py \\
        [--games 4] [--seed 2026150000] [--out repeat.json]

Plays ``--games`` games of the shipped residual Origin agent against two heuristic bots
(seats rotated, game ``g`` seeded ``seed + g``); at each of its decisions with more than one
legal move two rollout searches (``rollouts:net=`` the same agent, the defaults) seeded
apart, ``seed + 1`` and ``seed + 2``, each choose; the agent's own move is played. Counts:
decisions, how often each search left the agent's move, how often both did, and how often
both did to the same move. Were a switch a fact about the position, the second search would
mostly repeat the first's; were it the luck of 16 pairs, it would repeat it about as often
as it switches at all, and the apprentice of ``finetune.py`` would have nothing to learn.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from primeval.training.agents import make_agent
from primeval.training.agents.heuristics import heuristic_class
from primeval.training.agents.rollouts import RolloutSearchAgent
from primeval.training.evaluate import play_tournament, write_json

ZIP = "training/benchmark/zoo_files/origin-3p-ppo.zip"


class Asking:
    """Plays ``agent``'s moves; at each decision with a choice also asks the two searches
    and counts where they leave its move."""

    uses_observation = True

    def __init__(self, agent, first, second) -> None:
        self.agent, self.first, self.second = agent, first, second
        self.count = dict.fromkeys(("decisions", "first_switched", "second_switched",
                                    "both_switched", "both_to_the_same_move"), 0)

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        action = self.agent.act(observation, action_mask, state=state, seat=seat)
        if np.count_nonzero(action_mask) > 1:
            a = self.first.act(None, action_mask, state=state, seat=seat)
            b = self.second.act(None, action_mask, state=state, seat=seat)
            count = self.count
            count["decisions"] += 1
            count["first_switched"] += int(a != action)
            count["second_switched"] += int(b != action)
            count["both_switched"] += int(a != action and b != action)
            count["both_to_the_same_move"] += int(a != action and a == b)
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026150000)
    parser.add_argument("--search", default="")
    parser.add_argument("--out")
    args = parser.parse_args()
    seed = args.seed
    spec = f"rollouts:net={ZIP}" + (f",{args.search}" if args.search else "")
    asking = Asking(make_agent(f"ppo:{ZIP}", "origin", seed=seed),
                    RolloutSearchAgent("origin", spec, seed=seed + 1),
                    RolloutSearchAgent("origin", spec, seed=seed + 2))
    bots = [heuristic_class("origin")(seed=seed + 1000 * i) for i in (1, 2)]
    # agent i sits in seat (i + g) % 3 of game g, seeded seed + g
    play_tournament("origin", 3, [asking, *bots], ["agent", "bot1", "bot2"], args.games, seed,
                    progress="repeat")
    result = {"games": args.games, "seed": seed, "search": spec.replace(ZIP, "ZIP"),
              **asking.count}
    print(json.dumps(result, indent=1))
    if args.out:
        write_json(args.out, result)


if __name__ == "__main__":
    main()
