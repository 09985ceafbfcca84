"""Where the rollout search leaves its network's move, and whether that move was the bot's.

    python docs/benchmarks/learning/search-2026-12-05/rollout-search-origin/switches.py \\
        [--games 4] [--seed 2026120502] [--out switches.json]

Plays ``--games`` games of the shipped residual Origin agent against two heuristic bots
(seats rotated, game ``g`` seeded ``seed + g``) and, at each of the agent's decisions with
more than one legal move, also asks the heuristic bot and the rollout search
(``rollouts:net=`` the same agent, default settings) what they would play; the agent's own
move is played. Counts: decisions, the agent's move equal to the bot's, the search's
switches (another move than the agent's), and of those how many went to the bot's move and
how many were made where the agent and the bot agree.
"""

from __future__ import annotations

import argparse

import numpy as np
from common import report

from primeval.envs.core.agents import agent_action, turns
from primeval.envs.games import make_raw_env
from primeval.training.agents import make_agent
from primeval.training.agents.heuristics import heuristic_class
from primeval.training.agents.rollouts import RolloutSearchAgent

ZIP = "training/benchmark/zoo_files/origin-3p-ppo.zip"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026120502)
    parser.add_argument("--out")
    args = parser.parse_args()
    seed = args.seed
    agent = make_agent(f"ppo:{ZIP}", "origin", seed=seed)
    search = RolloutSearchAgent("origin", f"rollouts:net={ZIP}", seed=seed)
    asked = heuristic_class("origin")(seed=seed)
    bots = [heuristic_class("origin")(seed=seed + 1000 * i) for i in (1, 2)]
    env = make_raw_env("origin", 3)
    count = dict.fromkeys(("decisions", "agent_is_bot", "switches", "switches_to_bot",
                           "switches_where_agent_is_bot"), 0)
    for g in range(args.games):
        env.reset(seed=seed + g)
        mine = g % 3
        for seat, name in turns(env):
            state = env.game_state
            mask = np.asarray(env.observe(name)["action_mask"]).astype(bool)
            if seat != mine:
                action = bots[(seat - mine) % 3 - 1].act(None, mask, state=state, seat=seat)
            else:
                action = agent_action(agent, env, name)
                if mask.sum() > 1:
                    bot = asked.act(None, mask, state=state, seat=seat)
                    searched = search.act(None, mask, state=state, seat=seat)
                    count["decisions"] += 1
                    count["agent_is_bot"] += int(action == bot)
                    if searched != action:
                        count["switches"] += 1
                        count["switches_to_bot"] += int(searched == bot)
                        count["switches_where_agent_is_bot"] += int(action == bot)
            env.step(action)
    result = {"games": args.games, "seed": seed, **count}
    report(result, args.out)


if __name__ == "__main__":
    main()
