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

from primeval.envs.core.agents import agent_action, turns
from primeval.envs.games import make_raw_env
from primeval.training.agents import make_agent
from primeval.training.agents.heuristics import heuristic_class
from primeval.training.agents.rollouts import RolloutSearchAgent

ZIP = "training/benchmark/zoo_files/origin-3p-ppo.zip"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026150000)
    parser.add_argument("--search", default="")
    parser.add_argument("--out")
    args = parser.parse_args()
    seed = args.seed
    spec = f"rollouts:net={ZIP}" + (f",{args.search}" if args.search else "")
    agent = make_agent(f"ppo:{ZIP}", "origin", seed=seed)
    first = RolloutSearchAgent("origin", spec, seed=seed + 1)
    second = RolloutSearchAgent("origin", spec, seed=seed + 2)
    bots = [heuristic_class("origin")(seed=seed + 1000 * i) for i in (1, 2)]
    env = make_raw_env("origin", 3)
    count = dict.fromkeys(("decisions", "first_switched", "second_switched", "both_switched",
                           "both_to_the_same_move"), 0)
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
                    a = first.act(None, mask, state=state, seat=seat)
                    b = second.act(None, mask, state=state, seat=seat)
                    count["decisions"] += 1
                    count["first_switched"] += int(a != action)
                    count["second_switched"] += int(b != action)
                    count["both_switched"] += int(a != action and b != action)
                    count["both_to_the_same_move"] += int(a != action and a == b)
            env.step(int(action))
        print(f"game {g}: {count}", flush=True)
    result = {"games": args.games, "seed": seed, "search": spec.replace(ZIP, "ZIP"), **count}
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
