"""Random-play throughput of an environment through ``env()``.

Plays uniformly random legal actions the way a training loop does (``last()`` for the
observation and mask, then ``step``) and prints agent steps per second, games per second and
decisions per game. Run ``python -m primeval.training.bench --players 4``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import numpy as np

from primeval.envs import origin_v0, primordial_soup_v0

GAMES = {"primordial_soup": primordial_soup_v0, "origin": origin_v0}


def random_play(game: str, num_players: int, encoder: str, seconds: float, seed: int = 0
                ) -> dict[str, float]:
    """Play random games for about ``seconds``; return steps/s, games/s, steps per game."""
    module = GAMES[game]
    env = module.env(num_players=num_players, obs_encoder=encoder)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + games)
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                steps += 1
            env.step(action)
        games += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_second": steps / elapsed, "games_per_second": games / elapsed,
            "decisions_per_game": steps / games, "games": games}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="primordial_soup")
    parser.add_argument("--players", type=int, default=None,
                        help="default: 4 for Primordial Soup, 3 for Origin")
    parser.add_argument("--encoder", default="flat")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.players is None:
        args.players = 4 if args.game == "primordial_soup" else 3
    runs = [random_play(args.game, args.players, args.encoder, args.seconds, seed=1000 * r)
            for r in range(args.repeats)]
    result = {
        "game": args.game, "players": args.players, "encoder": args.encoder,
        "steps_per_second": statistics.median(r["steps_per_second"] for r in runs),
        "games_per_second": statistics.median(r["games_per_second"] for r in runs),
        "decisions_per_game": sum(r["decisions_per_game"] * r["games"] for r in runs)
        / sum(r["games"] for r in runs),
        "games": sum(r["games"] for r in runs),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.game} {args.players}p encoder={args.encoder}: "
              f"{result['steps_per_second']:.0f} agent steps/s, "
              f"{result['games_per_second']:.2f} games/s, "
              f"{result['decisions_per_game']:.1f} decisions/game "
              f"(median of {args.repeats} runs, {result['games']} games)")
    return result


if __name__ == "__main__":
    main()
