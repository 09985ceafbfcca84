"""MCTS simulations per CPU second, as issue 23's table counts them.

    python docs/benchmarks/throughput-2026-12-05/mcts_sims.py

``mcts:sims=100`` (the default leaf) decides the first 15 decisions of 2 seeded games of each
game (Primordial Soup 4p, Origin 3p), every seat, its own moves played; the figure is the
simulations over the CPU seconds (``time.process_time``) of its ``act`` calls. Prints one
JSON line per run, with a hash of the actions chosen, so that two trees run on the same
machine (``run.sh`` puts the old one first on ``PYTHONPATH``) show that they searched alike.
Uses only what the package had on 2026-12-02 (``MCTSAgent``, ``make_raw_env``).
"""

from __future__ import annotations

import hashlib
import json
import time

import numpy as np

from primeval.envs.games import make_raw_env
from primeval.training.agents.mcts import MCTSAgent

CASES = (("primordial_soup", 4), ("origin", 3))


def measure(game: str, players: int, games: int = 2, decisions: int = 15) -> dict:
    """Simulations per CPU second of ``mcts:sims=100`` over the first decisions of games."""
    agent = MCTSAgent(game, "mcts:sims=100", seed=0)
    spent, simulations, actions = 0.0, 0, []
    for g in range(games):
        env = make_raw_env(game, players)
        env.reset(seed=g)
        for _ in range(decisions):
            name = env.agent_selection
            mask = np.asarray(env.observe(name)["action_mask"])
            before = agent.simulations
            start = time.process_time()
            action = agent.act(None, mask, state=env.game_state,
                               seat=env.possible_agents.index(name))
            spent += time.process_time() - start
            simulations += agent.simulations - before
            actions.append(int(action))
            env.step(int(action))
    return {"sims_per_cpu_second": round(simulations / spent, 1), "simulations": simulations,
            "actions": hashlib.sha1(json.dumps(actions).encode()).hexdigest()[:10]}


if __name__ == "__main__":
    print(json.dumps({game: measure(game, players) for game, players in CASES}))
