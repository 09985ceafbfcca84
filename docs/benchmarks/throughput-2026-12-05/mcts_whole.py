"""MCTS simulations per CPU second over decisions spread through whole games.

    python docs/benchmarks/throughput-2026-12-05/mcts_whole.py [--games 2] [--every 10]

``mcts_sims.py`` times the first 15 decisions of a game, which in Primordial Soup are nearly
all setup (24 of its 30). Here seeded games of heuristic bots are played to the end, as
``bots.py`` plays them (game ``g`` seeded ``g``, the bot of seat ``i`` seeded ``i``), and at
every ``every``-th decision with a choice ``mcts:sims=100`` (seeded 0, once a game) decides
too, from the same state and for the same seat; its action is hashed, not played, so the
games are the bots' and the same in any tree whose bots choose alike (``bots.py``'s hash).
The figure is the simulations over the CPU seconds (``time.process_time``) of those
searches. Uses only what the package had on 2026-12-02 (``MCTSAgent``, ``make_raw_env``, the
heuristic classes), so ``run.sh``'s old tree runs it too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import numpy as np
from bots import play  # this folder's bots.py: the same games of bots

from primeval.training.agents.heuristics import OriginHeuristic, PrimordialSoupHeuristic
from primeval.training.agents.mcts import MCTSAgent

CASES = (("primordial_soup", 4, PrimordialSoupHeuristic), ("origin", 3, OriginHeuristic))


def measure(game: str, players: int, bot_class, games: int, every: int) -> dict:
    """Simulations per CPU second of ``mcts:sims=100`` at every ``every``-th decision with a
    choice of ``games`` games of bots (``bots.play``'s games)."""
    spent, simulations, searches = 0.0, 0, []
    search, choices = None, 0

    def decide(bot, seat, mask, state):
        nonlocal spent, simulations, choices
        if np.count_nonzero(mask) > 1:
            choices += 1
            if choices % every == 0:
                before = search.simulations
                start = time.process_time()
                searches.append(int(search.act(None, mask, state=state, seat=seat)))
                spent += time.process_time() - start
                simulations += search.simulations - before
        return bot.act(None, mask, state=state, seat=seat)

    for g in range(games):  # one game a call: each game's search is seeded anew
        search, choices = MCTSAgent(game, "mcts:sims=100", seed=0), 0
        play(game, players, bot_class, [g], decide)
    return {"sims_per_cpu_second": round(simulations / spent, 1), "searches": len(searches),
            "simulations": simulations,
            "actions": hashlib.sha1(json.dumps(searches).encode()).hexdigest()[:10]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=10)
    args = parser.parse_args()
    print(json.dumps({game: measure(game, n, cls, args.games, args.every)
                      for game, n, cls in CASES}))
