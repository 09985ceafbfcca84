"""``primeval train --backend rllib``: RLlib PPO (new API stack) on a primeval game as a
multi-agent env, one policy shared by every seat, self-play snapshots as extra policies.

The run folder ``runs/NAME/`` holds ``config.yaml`` (the resolved configuration),
``checkpoint/`` (the Algorithm's, every ``checkpoint_every`` iterations and at the end;
written to ``checkpoint.tmp`` and renamed), ``metrics.csv`` (one row per iteration: env
steps, throughput, episode length, evaluation win rate), ``eval.json`` and ``summary.md``.
``primeval evaluate --agents rllib:runs/NAME ...`` plays the shared policy.

The Algorithm runs where Ray is: a local Ray started on this machine (``address: ""``), or
a cluster it joins (``address: auto`` after ``ray start --head``, or ``HOST:6379``). Its
``num_env_runners`` EnvRunners are Ray actors placed anywhere in the cluster; the learner
runs in the driver (``num_learners=0``).
"""

from __future__ import annotations

import csv
import functools
import json
import math
import os
import shutil
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from primeval.envs.games import get_game
from primeval.training.agents import RandomAgent, make_heuristic
from primeval.training.evaluate import play_tournament
from primeval.training.ppo.torch_runtime import torch_threads
from primeval.training.rllib.config import (
    SHARED_MODULE,
    RLlibTrainConfig,
    save_rllib_config,
    snapshot_module,
)
from primeval.training.seeding import RunSeeds, Seeds, as_seeds

METRICS_FIELDS = ("iteration", "env_steps", "wall_seconds", "env_steps_per_second",
                  "episodes", "episode_len_mean", "snapshots", "win_rate_vs_random")


def seat_to_module(agent_id: str, episode: Any = None, *, players: int, keep: int,
                   weight: float, **kwargs: Any) -> str:
    """The policy-mapping function: the module that plays seat ``agent_id`` in ``episode``.

    Each seat plays a snapshot (uniform over the ``keep`` slots) with probability
    ``weight``, else the shared policy; one seat per game, drawn uniformly, always plays the
    shared policy. The draws are a function of the episode's id, so every seat of one game
    sees the same ones."""
    if weight <= 0 or keep <= 0:
        return SHARED_MODULE
    key = getattr(episode, "id_", episode)
    rng = np.random.default_rng(zlib.crc32(str(key).encode()))
    learner = int(rng.integers(players))
    draws, slots = rng.random(players), rng.integers(keep, size=players)
    seat = int(str(agent_id).rsplit("_", 1)[-1])
    if seat == learner or draws[seat] >= weight:
        return SHARED_MODULE
    return snapshot_module(int(slots[seat]))


def init_ray(address: str = "", num_cpus: float | None = None) -> None:
    """Start a local Ray (``address`` empty) or join a cluster, unless Ray is running.

    A local Ray gets at least ``num_cpus`` logical CPUs (the EnvRunners' request), so that a
    config asking for more EnvRunners than cores still starts (they then share the cores)."""
    import ray

    if ray.is_initialized():
        return
    if address:
        ray.init(address=address, logging_level="ERROR")
    else:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # a local run reports nothing
        cpus = max(os.cpu_count() or 1, math.ceil(num_cpus or 0))
        ray.init(num_cpus=cpus, include_dashboard=False, logging_level="ERROR")


def module_spec(config: RLlibTrainConfig):
    """The MultiRLModuleSpec: the shared module and the snapshot slots, all masked PPO."""
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from primeval.training.rllib.module import MaskedPPOTorchRLModule

    model = DefaultModelConfig(fcnet_hiddens=list(config.network.net_arch),
                               fcnet_activation=config.network.activation,
                               vf_share_layers=False)
    env = get_game(config.game).env(config.players, obs_encoder=config.encoder, **config.env)
    seat = env.possible_agents[0]
    return MultiRLModuleSpec(rl_module_specs={
        module_id: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model,
                                observation_space=env.observation_space(seat),
                                action_space=env.action_space(seat))
        for module_id in module_ids(config)})


def module_ids(config: RLlibTrainConfig) -> list[str]:
    """The policies: the shared one, and the snapshot slots when self-play draws them."""
    return config.module_ids if config.self_play.weight > 0 else [SHARED_MODULE]


def algorithm_config(config: RLlibTrainConfig):
    """RLlib's ``PPOConfig`` for a primeval config (the env registered)."""
    from ray.rllib.algorithms.ppo import PPOConfig

    from primeval.training.rllib.env import register
    from primeval.training.rllib.runtime import TorchPhases

    ppo = config.ppo
    mapping = functools.partial(seat_to_module, players=config.players,
                                keep=config.self_play.keep, weight=config.self_play.weight)
    return (
        PPOConfig()
        .environment(register(), env_config=config.env_config(),
                     # RLlib's check steps random actions; ours are masked (tests run it)
                     disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=config.num_env_runners,
                     num_envs_per_env_runner=config.num_envs_per_env_runner,
                     num_cpus_per_env_runner=config.num_cpus_per_env_runner,
                     rollout_fragment_length="auto",
                     # wait for every EnvRunner's batch: RLlib's default (60 s) drops a slow
                     # one, and an iteration on a busy machine then trains on nothing
                     sample_timeout_s=None)
        .learners(num_learners=0)
        .multi_agent(policies=set(module_ids(config)), policy_mapping_fn=mapping,
                     policies_to_train=[SHARED_MODULE])
        .rl_module(rl_module_spec=module_spec(config))
        .training(lr=ppo.lr, train_batch_size_per_learner=ppo.train_batch_size,
                  minibatch_size=ppo.minibatch_size, num_epochs=ppo.num_epochs,
                  gamma=ppo.gamma, lambda_=ppo.lambda_, clip_param=ppo.clip_param,
                  entropy_coeff=ppo.entropy_coeff, vf_loss_coeff=ppo.vf_loss_coeff,
                  grad_clip=ppo.grad_clip)
        .callbacks(functools.partial(TorchPhases, update_threads=config.torch_threads))
        .debugging(seed=RunSeeds(config.seed).spawn("rllib"), log_level="ERROR")
    )


def build_algorithm(config: RLlibTrainConfig):
    """Ray started (or joined) and the PPO Algorithm built."""
    init_ray(config.address, config.num_env_runners * config.num_cpus_per_env_runner)
    return algorithm_config(config).build_algo()


def shared_module(algo: Any, module_id: str = SHARED_MODULE):
    """A copy of the learner's module ``module_id`` (its current weights), for evaluation."""
    weights = algo.learner_group.get_weights(module_ids=[module_id])[module_id]
    module = algo.config.rl_module_spec.rl_module_specs[module_id].build()
    module.set_state(weights)
    return module


def take_snapshot(algo: Any, slot: int) -> str:
    """Copy the shared weights into snapshot slot ``slot`` on the learner and on every
    EnvRunner (local and remote, waiting for each); the slot's module id."""
    import ray

    target = snapshot_module(slot)
    learner = algo.learner_group
    weights = learner.get_weights(module_ids=[SHARED_MODULE])[SHARED_MODULE]
    learner.set_weights({target: weights})
    # RLlib's own sync_weights goes through requests that it may drop while others are in
    # flight, so each EnvRunner is called and waited for; an inference-only module (no value
    # network) takes the weights it has.
    ref = ray.put(weights)

    def load(runner: Any, _ref: Any = ref, _target: str = target) -> None:
        module = runner.module[_target]
        own = module.get_state()
        module.set_state({k: v for k, v in ray.get(_ref).items() if k in own})

    algo.env_runner_group.foreach_env_runner(load, local_env_runner=True)
    return target


def save_checkpoint(algo: Any, run_dir: Path, spec: dict[str, Any] | None = None) -> Path:
    """The Algorithm's checkpoint in ``run_dir/checkpoint`` (replacing the last whole), with
    the env it plays (``spec``, :func:`~primeval.training.agents.checkpoint.env_spec`) in
    its ``primeval.json``."""
    from primeval.training.agents.checkpoint import ENTRY

    final, tmp = run_dir / "checkpoint", run_dir / "checkpoint.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    algo.save_to_path(str(tmp.resolve()))
    if spec is not None:
        (tmp / ENTRY).write_text(json.dumps({"env_spec": spec}), encoding="utf-8")
    shutil.rmtree(final, ignore_errors=True)
    os.replace(tmp, final)
    return final


def evaluate_module(module: Any, config: RLlibTrainConfig, opponent: str, games: int,
                    seeds: int | Seeds) -> dict[str, Any]:
    """Seat-rotated games of ``module`` against ``opponent`` players (``random`` or
    ``heuristic``): its win rate with the 95% interval and mean rank. The games' seeds and
    the opponents' (by kind and seat) come from ``seeds``."""
    from primeval.training.rllib.agent import RLlibAgent

    seeds = as_seeds(seeds)
    n = config.players
    learner = RLlibAgent.from_module(module)
    make = ((lambda i: RandomAgent(seeds.spawn("random", i))) if opponent == "random"
            else (lambda i: make_heuristic(config.game, seeds.spawn("heuristic", i))))
    agents = [learner] + [make(i) for i in range(1, n)]
    labels = ["learner"] + [f"{opponent}#{i}" for i in range(1, n)]
    with torch_threads(1):  # one decision at a time: more threads only wait on each other
        results = play_tournament(config.game, n, agents, labels, games,
                                  seed=seeds.spawn("games"),
                                  obs_encoder=config.encoder, **config.env)
    lo, hi = results[0].win_interval()
    return {"opponent": opponent, "games": games, "win_rate": results[0].win_rate,
            "win_rate_lo": lo, "win_rate_hi": hi,
            "mean_rank": float(np.mean(results[0].ranks)),
            "chance": 1 / n, "table": [r.summary() for r in results]}


def _row(result: dict[str, Any], iteration: int, wall: float, steps0: int, t0: float,
         snapshots: int) -> dict[str, Any]:
    runners = result.get("env_runners", {})
    steps = int(result.get("num_env_steps_sampled_lifetime",
                           runners.get("num_env_steps_sampled_lifetime", 0)))
    return {"iteration": iteration, "env_steps": steps, "wall_seconds": round(wall, 2),
            "env_steps_per_second": round((steps - steps0) / max(wall - t0, 1e-9), 1),
            "episodes": int(runners.get("num_episodes_lifetime", 0)),
            "episode_len_mean": round(float(runners.get("episode_len_mean", float("nan"))), 1),
            "snapshots": snapshots, "win_rate_vs_random": ""}


def train(config: RLlibTrainConfig, run_dir: str | Path, progress: bool = True
          ) -> dict[str, Any]:
    """Train, checkpoint and evaluate; the final report (also ``eval.json``)."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    save_rllib_config(config, run_dir / "config.yaml")
    from primeval.training.agents.checkpoint import env_spec

    spec = env_spec(config.game, config.players, config.encoder, config.env)
    start = time.perf_counter()
    algo = build_algorithm(config)
    built = time.perf_counter()
    rows: list[dict[str, Any]] = []
    snapshots = 0
    self_play = config.self_play.weight > 0
    try:
        with open(run_dir / "metrics.csv", "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=METRICS_FIELDS)
            writer.writeheader()
            for it in range(1, config.iterations + 1):
                result = algo.train()
                row = _row(result, it, time.perf_counter() - start, 0, built - start,
                           snapshots)
                if self_play and it % config.self_play.snapshot_every == 0:
                    take_snapshot(algo, snapshots % config.self_play.keep)
                    snapshots += 1
                    row["snapshots"] = snapshots
                if config.eval.every and it % config.eval.every == 0:
                    ev = evaluate_module(shared_module(algo), config, "random",
                                         config.eval.games,
                                         RunSeeds(config.seed).child("evaluation", it))
                    row["win_rate_vs_random"] = round(ev["win_rate"], 3)
                if it % config.checkpoint_every == 0 and it < config.iterations:
                    save_checkpoint(algo, run_dir, spec)
                writer.writerow(row)
                f.flush()
                rows.append(row)
                if progress:
                    print(f"iteration {it}/{config.iterations}: {row['env_steps']} env steps, "
                          f"{row['env_steps_per_second']:.0f}/s, episode length "
                          f"{row['episode_len_mean']}"
                          + (f", win rate vs random {row['win_rate_vs_random']}"
                             if row["win_rate_vs_random"] != "" else ""), flush=True)
        checkpoint = save_checkpoint(algo, run_dir, spec)
        trained = time.perf_counter()
        module = shared_module(algo)
    finally:
        algo.stop()
    report: dict[str, Any] = {
        "game": config.game, "players": config.players, "iterations": config.iterations,
        "env_steps": rows[-1]["env_steps"], "num_env_runners": config.num_env_runners,
        "build_seconds": round(built - start, 1), "train_seconds": round(trained - built, 1),
        "env_steps_per_second": round(rows[-1]["env_steps"] / (trained - built), 1),
        "snapshots": snapshots, "checkpoint": str(checkpoint), "seed": config.seed}
    if config.eval.final_games:
        for opponent in ("random", "heuristic"):
            report[f"vs_{opponent}"] = evaluate_module(
                module, config, opponent, config.eval.final_games,
                RunSeeds(config.seed).child("final_evaluation"))
    (run_dir / "eval.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    (run_dir / "summary.md").write_text(summary_table(report) + "\n", encoding="utf-8")
    return report


def summary_table(report: dict[str, Any]) -> str:
    """The final report as a Markdown table."""
    lines = [f"RLlib PPO, {report['game']} ({report['players']} players): "
             f"{report['iterations']} iterations, {report['env_steps']:,} env steps in "
             f"{report['train_seconds']:.0f} s ({report['env_steps_per_second']:,.0f}/s, "
             f"{report['num_env_runners']} EnvRunners), {report['snapshots']} snapshots",
             "", "| opponents | games | win rate [95% CI] | chance | mean rank |",
             "|---|---|---|---|---|"]
    for opponent in ("random", "heuristic"):
        ev = report.get(f"vs_{opponent}")
        if ev:
            lines.append(f"| {opponent} | {ev['games']} | {ev['win_rate']:.3f} "
                         f"[{ev['win_rate_lo']:.3f}, {ev['win_rate_hi']:.3f}] | "
                         f"{ev['chance']:.2f} | {ev['mean_rank']:.2f} |")
    return "\n".join(lines)
