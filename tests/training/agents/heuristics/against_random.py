"""One heuristic (seat rotated) against RandomAgents, through ``evaluate.play_game``."""

from __future__ import annotations

import time

import numpy as np

from primeval.training.agents import RandomAgent
from primeval.training.evaluate import play_game


class _Timed:
    """Forwards ``act`` to an agent and adds up the time spent inside it."""

    uses_observation = False

    def __init__(self, agent) -> None:
        self.agent, self.decisions, self.seconds = agent, 0, 0.0

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        start = time.perf_counter()
        action = self.agent.act(observation, action_mask, state=state, seat=seat)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def play_games(agent_class, module, num_players: int, games: int, seed: int = 0
               ) -> dict[str, float]:
    """Play ``games`` games of one ``agent_class`` heuristic (seat rotated) against
    RandomAgents.

    Returns the heuristic's win rate (ties shared), its mean score, the other seats' mean
    score, its decisions per second (time inside ``act`` only) and its fallbacks.
    """
    env = module.raw_env(num_players=num_players)
    heuristic = agent_class(env.rules, seed=seed)
    timed = _Timed(heuristic)
    wins = 0.0
    own_scores, other_scores = [], []
    for game in range(games):
        seat_h = game % num_players
        agents = [RandomAgent(seed * 100_003 + game * 10 + s) for s in range(num_players)]
        agents[seat_h] = timed
        scores = play_game(env, agents, seed * 100_003 + game)
        best = max(scores)
        if scores[seat_h] == best:
            wins += 1 / scores.count(best)
        own_scores.append(scores[seat_h])
        other_scores.extend(s for i, s in enumerate(scores) if i != seat_h)
    return {
        "win_rate": wins / games,
        "score": float(np.mean(own_scores)),
        "others_score": float(np.mean(other_scores)),
        "decisions_per_second": timed.decisions / timed.seconds,
        "fallbacks": heuristic.fallbacks,
    }


def main(agent_class, module, player_counts, argv: list[str]) -> None:
    """``python -m tests.training.agents.heuristics.test_GAME [GAMES [SEED]]``: print the figures."""
    games = int(argv[1]) if len(argv) > 1 else 200
    seed = int(argv[2]) if len(argv) > 2 else 0
    for n in player_counts:
        r = play_games(agent_class, module, n, games, seed=seed)
        print(f"{n} players, {games} games: heuristic wins {r['win_rate']:.1%} "
              f"(score {r['score']:.1f} vs {r['others_score']:.1f}), "
              f"{r['decisions_per_second']:.0f} decisions/s, {r['fallbacks']} fallbacks")
