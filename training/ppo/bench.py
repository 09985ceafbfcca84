"""MaskablePPO training throughput: the PPO half of ``primeval bench`` (``--ppo``).

Env steps per second of ``MaskablePPO.learn`` with 4 ``SingleAgentEnv`` (random opponents)
in a ``DummyVecEnv`` and SB3's default network (``--ppo-hparams config``: the PPO settings of
``configs/GAME/default.yaml``; ``sb3``: SB3's own defaults) and the policy ``primeval train``
uses (``--ppo-policy primeval``: sb3-contrib's policy with the masked distribution computed
once, :mod:`primeval.training.ppo.masking`; ``sb3``: sb3-contrib's ``"MlpPolicy"``); the
median of ``--repeats`` stretches of ``--ppo-steps`` each. Each stretch is followed by one
over :class:`IdleEnv`, an env of the same spaces that does no work: what SB3 and torch cost
alone, so that the report can say how much of a PPO step is the env's.

The env half (random play, peers, memory, the machine) is
:mod:`primeval.envs.testing.bench`; ``primeval bench`` puts both in one report.
"""

from __future__ import annotations

import argparse
import statistics
import time
from importlib import resources
from typing import Any

import gymnasium
import numpy as np

from primeval.envs.games import get_game
from primeval.envs.testing import bench as env_bench
from primeval.training.files import quiet_sb3_logger
from primeval.training.ppo.config import POLICY_NAMES, load_config
from primeval.training.seeding import RunSeeds

#: --ppo-hparams: the PPO settings of configs/GAME/default.yaml, or SB3's own defaults
PPO_HPARAMS = ("config", "sb3")
#: Target (2 CPU cores, one process, flat encoder), for primeval train's policy and settings.
TARGET_PPO_STEPS = 2000.0


class IdleEnv(gymnasium.Env):
    """A Gymnasium env with a game's spaces that does no work: zero observations, a fixed
    mask of ``legal`` actions, no reward, episodes of ``length`` steps. MaskablePPO over it
    measures what SB3 and torch cost alone at the game's sizes."""

    def __init__(self, observation_space: gymnasium.spaces.Box,
                 action_space: gymnasium.spaces.Discrete, legal: int = 20,
                 length: int = 100) -> None:
        self.observation_space = observation_space
        self.action_space = action_space
        self._observation = np.zeros(observation_space.shape, dtype=observation_space.dtype)
        self._mask = np.zeros(action_space.n, dtype=bool)
        self._mask[: max(1, min(legal, action_space.n))] = True
        self.length = length
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._steps = 0
        return self._observation.copy(), {}

    def step(self, action):
        self._steps += 1
        return self._observation.copy(), 0.0, self._steps >= self.length, False, {}

    def action_masks(self) -> np.ndarray:
        return self._mask.copy()


def bench_ppo(game: str, players: int, encoder: str, steps: int, hparams: str = "config",
              n_envs: int = 4, seed: int = 0, torch_threads: int = 2, repeats: int = 1,
              policy: str = "primeval") -> dict[str, Any]:
    """Env steps per second of ``MaskablePPO.learn`` (after a warm-up of one rollout): the
    median of ``repeats`` timed stretches of ``steps`` env steps each. After each stretch,
    one of the same length over :class:`IdleEnv` (the same spaces, no work): SB3 and torch
    alone; ``env_us_per_env_step`` is the difference of the two medians' step times.
    ``policy``: ``"primeval"`` (:class:`~primeval.training.ppo.masking.MaskedActorCriticPolicy`,
    as ``primeval train`` uses) or ``"sb3"`` (sb3-contrib's ``"MlpPolicy"``); both have SB3's
    default network.

    As ``primeval train`` does (:mod:`primeval.training.ppo.torch_runtime`), torch runs one
    thread while collecting rollouts and ``torch_threads`` while updating, and
    ``torch.distributions`` skips its argument checks."""
    if hparams not in PPO_HPARAMS:
        raise ValueError(f"hparams must be 'config' or 'sb3', got {hparams!r}")
    if policy not in POLICY_NAMES:
        raise ValueError(f"policy must be 'primeval' or 'sb3', got {policy!r}")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from primeval.training.ppo.masking import POLICIES
    from primeval.training.ppo.torch_runtime import distribution_checks_off, phase_threads_callback
    from primeval.wrappers.single_agent import SingleAgentEnv

    config = load_config(resources.files("primeval.configs").joinpath(game, "default.yaml"))

    def make(rank: int):
        def init() -> SingleAgentEnv:
            env = SingleAgentEnv(get_game(game).raw_env(players, obs_encoder=encoder),
                                 shaping=config.shaping)
            env.reset(seed=RunSeeds(seed).spawn("env_workers", rank))
            return env
        return init

    vec = DummyVecEnv([make(r) for r in range(n_envs)])
    idle = DummyVecEnv([lambda: IdleEnv(vec.observation_space, vec.action_space)] * n_envs)
    if hparams == "config":
        p = config.ppo
        kwargs = {"learning_rate": p.learning_rate, "n_steps": p.n_steps,
                  "batch_size": p.batch_size, "n_epochs": p.n_epochs, "gamma": p.gamma,
                  "gae_lambda": p.gae_lambda, "clip_range": p.clip_range,
                  "ent_coef": p.ent_coef}
    else:
        kwargs = {}
    model_seed = RunSeeds(seed).spawn("model")
    model = MaskablePPO(POLICIES[policy], vec, seed=model_seed, verbose=0, device="cpu",
                        **kwargs)
    idle_model = MaskablePPO(POLICIES[policy], idle, seed=model_seed, verbose=0, device="cpu",
                             **kwargs)
    for m in (model, idle_model):  # no folder in the temp dir for each
        m.set_logger(quiet_sb3_logger())
    rollout = model.n_steps * n_envs
    total = max(steps, rollout)
    threads = phase_threads_callback(update_threads=torch_threads)
    runs, idle_runs = [], []
    with distribution_checks_off():
        for m in (model, idle_model):
            m.learn(rollout, callback=threads)  # warm-up: the first rollout and update
        for _ in range(repeats):
            for m, timed in ((model, runs), (idle_model, idle_runs)):
                start = time.perf_counter()
                m.learn(total, reset_num_timesteps=False, callback=threads)
                timed.append(total / (time.perf_counter() - start))
    vec.close()
    idle.close()
    median, idle_median = statistics.median(runs), statistics.median(idle_runs)
    return {"game": game, "players": players, "encoder": encoder, "n_envs": n_envs,
            "hparams": hparams, "policy": policy, "n_steps": model.n_steps,
            "batch_size": model.batch_size, "n_epochs": model.n_epochs,
            "net_arch": "SB3 default (64, 64)",
            "torch_threads": {"rollout": 1, "update": torch_threads},
            "distribution_checks": False, "env_steps": total,
            "env_steps_per_second": median, "runs": runs,
            "sb3_alone": {"env_steps_per_second": idle_median, "runs": idle_runs},
            "env_us_per_env_step": 1e6 / median - 1e6 / idle_median}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--ppo`` flags (the env half's are :func:`primeval.envs.testing.bench.add_arguments`)."""
    parser.add_argument("--ppo", action="store_true", help="also MaskablePPO throughput")
    parser.add_argument("--ppo-steps", type=int, default=32768)
    parser.add_argument("--ppo-hparams", choices=[*PPO_HPARAMS, "both"], default="config",
                        help="PPO settings: configs/GAME/default.yaml's, SB3's defaults, or both")
    parser.add_argument("--ppo-policy", choices=[*POLICY_NAMES, "both"], default="primeval",
                        help="PPO policy: primeval train's (masked distribution computed "
                             "once), sb3-contrib's MlpPolicy, or both")
    parser.add_argument("--torch-threads", type=int, default=2,
                        help="torch threads during PPO updates (rollouts use one)")


def measure(args: argparse.Namespace) -> list[dict[str, Any]]:
    """:func:`bench_ppo` for every game ``args`` name (as the env half picks them), settings
    and policy."""
    hparams = PPO_HPARAMS if args.ppo_hparams == "both" else [args.ppo_hparams]
    policies = POLICY_NAMES if args.ppo_policy == "both" else [args.ppo_policy]
    return [bench_ppo(game, players, args.encoder, args.ppo_steps, h,
                      torch_threads=args.torch_threads, repeats=args.repeats, policy=pol)
            for game, players in env_bench.games_of(args).items()
            for h in hparams for pol in policies]


def targets(report: dict[str, Any]) -> dict[str, bool]:
    """The PPO target, judged on the run ``primeval train`` makes (its policy, the config's
    settings): met or not."""
    return {f"{p['game']} MaskablePPO >= {TARGET_PPO_STEPS:.0f} env steps/s":
            p["env_steps_per_second"] >= TARGET_PPO_STEPS
            for p in report.get("ppo", [])
            if p["hparams"] == "config" and p["policy"] == "primeval"}


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report's PPO figures as text, a line each."""
    return [f"{p['game']} MaskablePPO ({p['policy']} policy, "
            f"{p['hparams']} settings, {p['n_envs']} envs, "
            f"n_steps {p['n_steps']}, batch {p['batch_size']}, {p['n_epochs']} "
            f"epochs): {p['env_steps_per_second']:,.0f} env steps/s; SB3 and torch "
            f"alone (an idle env): {p['sb3_alone']['env_steps_per_second']:,.0f}, "
            f"so the env takes {p['env_us_per_env_step']:.0f} µs of each env step"
            for p in report.get("ppo", [])]
