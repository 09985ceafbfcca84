"""What duplicate games buy: games needed for a ±0.03 interval, duplicate against plain.

``python -m primeval.training.benchmark.variance --game primordial_soup --players 4
--agents heuristic random random random --games 400 --seed 0`` plays the same agents twice
with :func:`~primeval.training.evaluate.tournament`: plain seat rotation (game ``g`` seed
``seed + g``) and duplicate games (each seed in every rotation, chance fixed per event).
For agent 0 it prints the win rate, the per-game variance and the games a 95% interval of
half-width 0.03 needs (``1.96² v / 0.03²``). Plain games are independent, so ``v`` is the
variance of one game's win share; duplicate games are independent by block (one seed, ``n``
rotations), so ``v`` is ``n`` times the variance of a block's mean, the per-game variance
the blocks imply.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from primeval.training.evaluate import tournament

Z = 1.959963984540054


def games_needed(variance: float, half_width: float = 0.03) -> int:
    """Games for a normal 95% interval of ``±half_width`` given the per-game variance."""
    return int(np.ceil(Z * Z * variance / (half_width * half_width)))


def per_game_variance(shares: list[float], players: int, duplicate: bool) -> float:
    """The per-game variance of the win share: plain, the sample variance; duplicate, the
    variance of the block means times the block size (blocks of ``players`` games)."""
    x = np.asarray(shares, dtype=float)
    if not duplicate:
        return float(x.var(ddof=1))
    blocks = x[: len(x) // players * players].reshape(-1, players).mean(axis=1)
    return float(players * blocks.var(ddof=1))


def measure(game: str, players: int, agents: list[str], games: int, seed: int = 0) -> dict:
    out = {"game": game, "players": players, "agents": agents, "games": games, "seed": seed}
    for mode in ("plain", "duplicate"):
        dup = mode == "duplicate"
        start = time.perf_counter()
        results = tournament(game, players, agents, games, seed=seed, duplicate=dup)
        shares = results[0].win_shares
        v = per_game_variance(shares, players, dup)
        out[mode] = {
            "win_rate": results[0].win_rate,
            "variance": v,
            "games_for_0.03": games_needed(v),
            "half_width_at_games": float(Z * np.sqrt(v / len(shares))),
            "seconds": round(time.perf_counter() - start, 1),
        }
    out["ratio"] = out["plain"]["variance"] / max(out["duplicate"]["variance"], 1e-12)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--agents", nargs="+", required=True)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games % args.players:
        parser.error(f"--games must be a multiple of --players ({args.players})")
    print(
        json.dumps(measure(args.game, args.players, args.agents, args.games, args.seed), indent=2)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
