"""The heuristic bots' decisions, timed in whole games, as issue 23's table compares them.

    python docs/benchmarks/throughput-2026-12-05/bots.py [--games 6]

Seeded games of heuristic bots only (Primordial Soup 4p, Origin 3p; game ``g`` seeded ``g``,
the bot of seat ``i`` seeded ``i``), every decision answered by the game's heuristic agent
(``OriginHeuristic``, ``PrimordialSoupHeuristic``: the fast classes where a tree has them);
the figure is the CPU µs (``time.process_time``) of a decision with more than one legal
action, and a hash of all the actions, so that two trees (``run.sh`` puts the old one first
on ``PYTHONPATH``) show that they played the same games. Uses only what the package had on
2026-12-02, when the bots had one class each (the reference's code).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import numpy as np

from primeval.envs.games import make_raw_env
from primeval.training.agents.heuristics import OriginHeuristic, PrimordialSoupHeuristic

CASES = (("primordial_soup", 4, PrimordialSoupHeuristic), ("origin", 3, OriginHeuristic))


def measure(game: str, players: int, bot_class, games: int) -> dict:
    """CPU µs per decision with a choice over ``games`` games of bots only."""
    spent, decisions, actions = 0.0, 0, []
    for g in range(games):
        env = make_raw_env(game, players)
        env.reset(seed=g)
        bots = [bot_class(env.unwrapped.rules, seed=i) for i in range(players)]
        for name in env.agent_iter():
            _obs, _r, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            seat = env.possible_agents.index(name)
            mask = np.asarray(env.observe(name)["action_mask"])
            start = time.process_time()
            action = bots[seat].act(None, mask, state=env.unwrapped.game_state, seat=seat)
            took = time.process_time() - start
            if np.count_nonzero(mask) > 1:
                spent += took
                decisions += 1
            actions.append(int(action))
            env.step(int(action))
    return {"us_per_decision": round(1e6 * spent / decisions, 1), "decisions": decisions,
            "actions": hashlib.sha1(json.dumps(actions).encode()).hexdigest()[:10]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    print(json.dumps({game: measure(game, n, cls, args.games) for game, n, cls in CASES}))
