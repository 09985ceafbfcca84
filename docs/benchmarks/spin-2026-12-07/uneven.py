"""Why one step of a few games costs so unevenly: one game of Origin's learned-alone recipe
stepped 3,000 times with random legal actions, one process, each step's time and the
opponents' decisions played inside it (counted by wrapping
``SingleAgentEnv.apply_opponent_action``), and 4 games stepped together, each step's time
and whether a game ended (and the next one began) in it.

    python docs/benchmarks/spin-2026-12-07/uneven.py
"""

from __future__ import annotations

import os
import tempfile
import time

import numpy as np
from _recipe import random_actions, recipe_config, steady_league

from primeval.training.ppo.train import make_training_env
from primeval.wrappers.single_agent import SingleAgentEnv
from primeval.wrappers.vector import SingleAgentVectorEnv

STEPS = 3000


def main() -> None:
    decisions = [0]
    plain = SingleAgentEnv.apply_opponent_action

    def counted(self, action):
        decisions[0] += 1
        return plain(self, action)

    SingleAgentEnv.apply_opponent_action = counted
    config = recipe_config()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}; {STEPS} steps each")
    with tempfile.TemporaryDirectory() as tmp:
        league = steady_league(config, tmp)
        rng = np.random.default_rng(0)
        for games in (1, 4):
            vec = SingleAgentVectorEnv(
                [make_training_env(config, i, league)() for i in range(games)], copy=False)
            vec.reset_arrays([None] * games)
            ms, counts, ends = [], [], []
            for _ in range(STEPS):
                actions = random_actions(vec.action_masks(), rng)
                decisions[0] = 0
                start = time.perf_counter()
                *_, ended = vec.step_arrays(actions)
                ms.append(1e3 * (time.perf_counter() - start))
                counts.append(decisions[0])
                ends.append(len(ended))
            ms, counts, ends = np.array(ms), np.array(counts), np.array(ends)
            pct = " / ".join(f"{x:.2f}" for x in np.percentile(ms, [10, 50, 90, 99]))
            print(f"{games} game(s): ms a step, percentiles 10/50/90/99 {pct}, "
                  f"mean {ms.mean():.2f}")
            quiet = counts == 0
            print(f"  steps with no opponent decision {quiet.mean():.1%}, "
                  f"{ms[quiet].mean():.2f} ms; the others {ms[~quiet].mean():.2f} ms with "
                  f"{counts[~quiet].mean():.1f} decisions on average, "
                  f"{ms[~quiet].sum() / ms.sum():.1%} of the time")
            ended_steps = ends > 0
            print(f"  steps in which a game ended {ended_steps.sum()}, "
                  f"{ms[ended_steps].mean():.2f} ms, "
                  f"{ms[ended_steps].sum() / ms.sum():.1%} of the time")


if __name__ == "__main__":
    main()
