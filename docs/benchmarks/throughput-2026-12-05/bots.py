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


def play(game: str, players: int, bot_class, seeds, decide) -> None:
    """Games of bots only, one per seed in ``seeds`` (the bot of seat ``i`` seeded ``i``),
    played to the end: at each decision ``decide(bot, seat, mask, state)`` returns the action
    played (the bot's, so that every tree plays the same games)."""
    for g in seeds:
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
            env.step(int(decide(bots[seat], seat, mask, env.unwrapped.game_state)))


def measure(game: str, players: int, bot_class, games: int) -> dict:
    """CPU µs per decision with a choice over ``games`` games of bots only."""
    spent, decisions, actions = 0.0, 0, []

    def decide(bot, seat, mask, state):
        nonlocal spent, decisions
        start = time.process_time()
        action = bot.act(None, mask, state=state, seat=seat)
        took = time.process_time() - start
        if np.count_nonzero(mask) > 1:
            spent += took
            decisions += 1
        actions.append(int(action))
        return action

    play(game, players, bot_class, range(games), decide)
    return {"us_per_decision": round(1e6 * spent / decisions, 1), "decisions": decisions,
            "actions": hashlib.sha1(json.dumps(actions).encode()).hexdigest()[:10]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    print(json.dumps({game: measure(game, n, cls, args.games) for game, n, cls in CASES}))
