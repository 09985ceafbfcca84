"""Training throughput of the RLlib backend beside the SB3 one, on the same machine in the
same run: ``python -m primeval.training.rllib.bench`` (in the RLlib venv, ``make rllib``).

Each round measures, in turn, MaskablePPO (:func:`primeval.training.ppo.bench.bench_ppo`:
4 envs in one process, random opponents) and RLlib PPO with 0, 1, 2... EnvRunners, at the
same PPO sizes (1,024 env steps per iteration, minibatches of 512, 4 epochs, a 64x64
network as SB3's default); rounds repeat the sequence, so that a slow minute of a shared
machine falls on every variant alike. RLlib's figure is env steps per second of whole
``Algorithm.train()`` iterations (sampling, the update, the weights' sync) after one warm-up
iteration; its share of sampling and of the update are RLlib's own timers.

The two count different things: an SB3 env step is one decision of the learner's seat (the
random opponents' decisions are played inside it), an RLlib env step is one decision of any
seat, each of them learnt from (pure self-play: ``self_play.weight: 0``).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from datetime import date
from typing import Any

from primeval.envs.games import GAMES


def bench_rllib(game: str, players: int, num_env_runners: int, iterations: int = 3,
                train_batch_size: int = 1024, minibatch_size: int = 512,
                net_arch: tuple[int, ...] = (64, 64), seed: int = 0,
                num_envs_per_env_runner: int = 1) -> dict[str, Any]:
    """Env steps per second of ``iterations`` RLlib PPO iterations after a warm-up one."""
    from primeval.training.rllib.config import load_rllib_config
    from primeval.training.rllib.train import build_algorithm

    config = load_rllib_config(None, **{
        "game": game, "players": players, "seed": seed, "num_env_runners": num_env_runners,
        "num_envs_per_env_runner": num_envs_per_env_runner, "self_play.weight": 0.0,
        "network.net_arch": list(net_arch), "ppo.train_batch_size": train_batch_size,
        "ppo.minibatch_size": minibatch_size, "ppo.num_epochs": 4})
    algo = build_algorithm(config)
    try:
        algo.train()  # warm-up: the first sampling and update
        start = time.perf_counter()
        first = last = None
        sample = learn = 0.0
        for _ in range(iterations):
            result = algo.train()
            steps = int(result["num_env_steps_sampled_lifetime"])
            first = first if first is not None else steps - int(
                result["env_runners"]["num_env_steps_sampled"])
            last = steps
            timers = result.get("timers", {})
            sample += float(timers.get("env_runner_sampling_timer", 0.0))
            learn += float(timers.get("learner_update_timer", 0.0))
        wall = time.perf_counter() - start
    finally:
        algo.stop()
    return {"backend": "rllib", "game": game, "players": players,
            "num_env_runners": num_env_runners,
            "num_envs_per_env_runner": num_envs_per_env_runner,
            "train_batch_size": train_batch_size, "net_arch": list(net_arch),
            "env_steps": last - first, "seconds": wall,
            "env_steps_per_second": (last - first) / wall,
            "sampling_share": sample / max(sample + learn, 1e-9)}


def bench_sb3(game: str, players: int, steps: int, seed: int = 0) -> dict[str, Any]:
    """:func:`primeval.training.ppo.bench.bench_ppo` with the configs' PPO settings."""
    from primeval.training.ppo.bench import bench_ppo

    out = bench_ppo(game, players, "flat", steps, "config", n_envs=4, seed=seed)
    return {"backend": "sb3", "game": game, "players": players, "n_envs": 4,
            "env_steps": out["env_steps"],
            "env_steps_per_second": out["env_steps_per_second"]}


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            names = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
        return f"{len(names)} x {names[0]}"
    except (OSError, IndexError):
        return platform.machine()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m primeval.training.rllib.bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=list(GAMES), action="append",
                        help="default: every game (repeatable)")
    parser.add_argument("--runners", type=int, nargs="+", default=[0, 1, 2],
                        help="EnvRunner counts to measure (default 0 1 2)")
    parser.add_argument("--envs", type=int, nargs="+", default=[1],
                        help="games per EnvRunner (num_envs_per_env_runner) to measure at "
                             "each EnvRunner count (default 1)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=3,
                        help="timed RLlib iterations (of --train-batch env steps each)")
    parser.add_argument("--sb3-steps", type=int, default=4096)
    parser.add_argument("--train-batch", type=int, default=1024,
                        help="RLlib env steps per iteration (default 1,024; the shipped "
                             "configs: 4,096)")
    parser.add_argument("--net-arch", type=int, nargs="+", default=[64, 64],
                        help="RLlib hidden layers (default 64 64, SB3's default; the shipped "
                             "configs: 256 256)")
    parser.add_argument("--json", help="also write every measurement to this file")
    args = parser.parse_args(argv)
    from primeval.training.rllib.train import init_ray

    init_ray("", max(args.runners))
    runs: list[dict[str, Any]] = []
    for round_ in range(args.rounds):
        for name in args.game or list(GAMES):
            players = GAMES[name].default_players
            variants = [("sb3", None, None)] + [("rllib", n, e) for n in args.runners
                                                 for e in args.envs]
            for backend, n, envs in variants:
                run = (bench_sb3(name, players, args.sb3_steps) if backend == "sb3" else
                       bench_rllib(name, players, n, iterations=args.iterations,
                                   train_batch_size=args.train_batch,
                                   net_arch=tuple(args.net_arch),
                                   num_envs_per_env_runner=envs))
                run["round"] = round_
                runs.append(run)
                print(json.dumps(run), flush=True)
    print(f"\n{date.today()}, {_cpu()}, "
          f"Python {platform.python_version()}; median of {args.rounds} rounds, env steps/s")
    cells = [(n, e) for n in args.runners for e in args.envs]
    print("| game | SB3 MaskablePPO (4 envs) | "
          + " | ".join(f"RLlib, {n} EnvRunners" + (
            f", {e} game{'s' if e > 1 else ''} each" if len(args.envs) > 1 else "") for n, e in cells) + " |")
    print("|---" * (2 + len(cells)) + "|")
    for name in args.game or list(GAMES):
        def med(backend: str, n: int | None = None, envs: int | None = None,
                game: str = name) -> str:
            rates = [r["env_steps_per_second"] for r in runs if r["game"] == game
                     and r["backend"] == backend and r.get("num_env_runners") == n
                     and r.get("num_envs_per_env_runner") == envs]
            return f"{statistics.median(rates):,.0f}" if rates else "-"
        print(f"| {name} | {med('sb3')} | "
              + " | ".join(med("rllib", n, e) for n, e in cells) + " |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"date": str(date.today()), "runs": runs}, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
