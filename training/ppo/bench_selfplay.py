"""Training throughput with self-play on: ``python -m primeval.training.ppo.bench_selfplay``.

Times ``primeval train`` runs of the game's default config (PPO settings, network, shaping)
that differ only in who the opponents are and how the vector env answers them:

- opponents: ``random`` (every seat a random player) or ``self_play`` (every seat the policy
  being trained, ``league.current: 1``);
- ``vec_env``: ``dummy`` (each opponent decision its own forward pass of batch 1) or
  ``batched`` (every game waiting on the policy answered in one forward pass);
- ``n_envs``: the games played side by side (more games, more rows per forward pass).

Evaluation, ratings and checkpoints are off, so the time is that of rollouts and updates.
Each setting runs ``--rounds`` times, interleaved, and the table gives the median env steps per
second (learner decisions; the opponents' are inside them) and each setting's ratio to random
opponents with the same vector env and envs, measured in the same rounds: the ratios hold on a
loaded machine better than the absolute figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from importlib import resources
from typing import Any

from primeval.envs.games import GAMES


def run_once(game: str, opponents: str, vec_env: str, n_envs: int, steps: int,
             seed: int = 0) -> float:
    """Env steps per second of one short ``primeval train`` run."""
    from primeval.training.ppo.config import load_config
    from primeval.training.ppo.train import train

    self_play = 1.0 if opponents == "self_play" else 0.0
    config = load_config(
        resources.files("primeval.configs").joinpath(game, "default.yaml"),
        **{"total_steps": steps, "n_envs": n_envs, "vec_env": vec_env, "seed": seed,
           "opponents.random": 1.0 - self_play, "opponents.heuristic": 0.0,
           "opponents.self_play": self_play, "league.schedule": [], "league.current": 1.0,
           "league.rating_games": 0, "eval.every": 10**9, "eval.games": 1,
           "eval.final_games": 1, "checkpoint_every": 10**9,
           "self_play.snapshot_every": 10**9, "prior.agent": "none", "torch_threads": 1})
    with tempfile.TemporaryDirectory() as out:
        final = train(config, out, progress=False)
    return float(final["env_steps_per_second"])


def measure(game: str, steps: int, envs: list[int], rounds: int) -> list[dict[str, Any]]:
    """Every setting ``rounds`` times, interleaved; one row per setting."""
    settings = [(opp, vec, n) for n in envs for vec in ("dummy", "batched")
                for opp in ("random", "self_play")]
    runs: dict[tuple, list[float]] = {s: [] for s in settings}
    for _ in range(rounds):
        for opp, vec, n in settings:
            runs[(opp, vec, n)].append(run_once(game, opp, vec, n, steps))
    rows = []
    for opp, vec, n in settings:
        median = statistics.median(runs[(opp, vec, n)])
        base = statistics.median(runs[("random", vec, n)])
        rows.append({"game": game, "opponents": opp, "vec_env": vec, "n_envs": n,
                     "env_steps_per_second": median, "runs": runs[(opp, vec, n)],
                     "ratio_to_random": median / base})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| opponents | vec_env | envs | env steps/s | vs random opponents |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['opponents']} | {r['vec_env']} | {r['n_envs']} | "
                     f"{r['env_steps_per_second']:,.0f} | {r['ratio_to_random']:.2f}x |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m primeval.training.ppo.bench_selfplay",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="primordial_soup")
    parser.add_argument("--steps", type=int, default=16384, help="env steps per run")
    parser.add_argument("--envs", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.steps <= 0 or args.rounds <= 0 or min(args.envs) <= 0:
        parser.error("--steps, --rounds and --envs must be positive")
    rows = measure(args.game, args.steps, args.envs, args.rounds)
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
