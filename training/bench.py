"""Throughput and memory of the environments, side by side with PettingZoo's classic games.

``primeval bench`` (or ``python -m primeval.training.bench``) measures:

* **random play through ``env()``**: uniformly random legal actions, read the way a training
  loop reads them (``last()`` for the observation and the mask, then ``step``); agent steps
  per second and games per second, the median of ``--repeats`` runs of ``--seconds`` each,
  taken round-robin (one run of every game and peer, then the next round), so that a machine
  whose speed drifts during the benchmark shifts every figure alike;
* ``--peers``: the same loop, in the same process, over PettingZoo's ``connect_four_v3``,
  ``go_v5`` and ``chess_v6`` (``pip install primeval[bench]``), and the ratio of each game's
  figure to theirs;
* ``--ppo``: MaskablePPO training throughput, env steps per second, with 4 ``SingleAgentEnv``
  (random opponents) in a ``DummyVecEnv`` and SB3's default network (``--ppo-hparams config``:
  the PPO settings of ``configs/GAME/default.yaml``; ``sb3``: SB3's own defaults) and the
  policy ``primeval train`` uses (``--ppo-policy primeval``: sb3-contrib's policy with the
  masked distribution computed once, :mod:`primeval.training.ppo.masking`; ``sb3``: sb3-contrib's
  ``"MlpPolicy"``); the median of ``--repeats`` stretches of ``--ppo-steps`` each. Each
  stretch is followed by one over :class:`IdleEnv`, an env of the same spaces that does no
  work: what SB3 and torch cost alone, so that the report can say how much of a PPO step is
  the env's;
* ``--profile``: where a step of random play through ``env()`` spends its time: cProfile
  over ``--seconds`` of :func:`play_random`, the functions with the most time of their own,
  in µs per agent step (cProfile slows every call, so its figures add up to more than the
  step's cost without it; their proportions are what it is for);
* ``--memory``: the memory one env holds (tracemalloc, after a reset and some play) and the
  resident memory of this process holding 64 envs of the game.

``--json`` prints one JSON document with every figure, the machine, the versions and the
targets of the performance issue (met or not). Benchmarks print numbers; tests never assert
a speed.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import os
import platform
import pstats
import statistics
import time
import tracemalloc
from importlib import metadata, resources
from typing import Any

import gymnasium
import numpy as np

from primeval.envs import origin_v0, primordial_soup_v0
from primeval.training.ppo.config import POLICY_NAMES, load_config

GAMES = {"primordial_soup": primordial_soup_v0, "origin": origin_v0}
DEFAULT_PLAYERS = {"primordial_soup": 4, "origin": 3}
PEERS = ("connect_four_v3", "go_v5", "chess_v6")
#: --ppo-hparams: the PPO settings of configs/GAME/default.yaml, or SB3's own defaults
PPO_HPARAMS = ("config", "sb3")
#: Targets (2 CPU cores, one process, flat encoder): ours / theirs through env().
TARGET_RATIOS = {"go_v5": 1.5, "chess_v6": 10.0}
TARGET_PPO_STEPS = 2000.0
TARGET_ENV_MB = 5.0
TARGET_64_ENVS_MB = 1024.0


# Random play ------------------------------------------------------------------------------------

def play_random(env: Any, seconds: float, seed: int = 0) -> dict[str, float]:
    """Random legal play through an AEC env for about ``seconds``: the benchmark loop."""
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
                # A uniform legal action, as cheaply as numpy allows (np.flatnonzero and
                # Generator.integers would add about 2 us a step, the same for every env)
                legal = obs["action_mask"].nonzero()[0]
                action = int(legal[int(rng.random() * legal.size)])
                steps += 1
            env.step(action)
        games += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_second": steps / elapsed, "games_per_second": games / elapsed,
            "decisions_per_game": steps / games, "games": games}


def random_play(game: str, num_players: int, encoder: str, seconds: float, seed: int = 0
                ) -> dict[str, float]:
    """:func:`play_random` over ``GAMES[game].env(...)``."""
    env = GAMES[game].env(num_players=num_players, obs_encoder=encoder)
    return play_random(env, seconds, seed)


def _median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    games = sum(r["games"] for r in runs)
    return {
        "steps_per_second": statistics.median(r["steps_per_second"] for r in runs),
        "games_per_second": statistics.median(r["games_per_second"] for r in runs),
        "decisions_per_game": sum(r["decisions_per_game"] * r["games"] for r in runs) / games,
        "games": games,
    }


def bench_round_robin(games: list[tuple[str, int]], encoder: str, peers: list[str],
                      seconds: float, repeats: int) -> tuple[list[dict], list[dict]]:
    """:func:`random_play` for every game ``(name, players)``, :func:`play_random` for every
    peer, ``repeats`` runs of each and their median. The runs are taken in turns (repeat 1 of
    each, then repeat 2 of each, ...), so that a machine that slows down or speeds up
    meanwhile shifts every figure alike and the ratios hold."""
    game_runs: list[list[dict]] = [[] for _ in games]
    peer_runs: list[list[dict]] = [[] for _ in peers]
    for r in range(repeats):
        for runs, (game, players) in zip(game_runs, games, strict=True):
            runs.append(random_play(game, players, encoder, seconds, seed=1000 * r))
        for runs, name in zip(peer_runs, peers, strict=True):
            runs.append(play_random(peer_env(name), seconds, seed=1000 * r))
    return ([{"game": game, "players": players, "encoder": encoder, **_median_of(runs)}
             for (game, players), runs in zip(games, game_runs, strict=True)],
            [{"env": name, **_median_of(runs)} for name, runs in zip(peers, peer_runs,
                                                                       strict=True)])


def peer_env(name: str) -> Any:
    """PettingZoo's classic env ``name`` (``env()``, with its standard wrappers)."""
    try:
        from pettingzoo.classic import chess_v6, connect_four_v3, go_v5
    except ImportError as exc:  # chess or pygame-ce missing
        raise SystemExit(f"--peers needs PettingZoo's classic games' dependencies ({exc}); "
                         "install them with: pip install 'primeval[bench]'") from None
    return {"connect_four_v3": connect_four_v3, "go_v5": go_v5, "chess_v6": chess_v6}[name].env()


def profile_random_play(game: str, players: int, encoder: str, seconds: float,
                        top: int = 25) -> dict[str, Any]:
    """:func:`random_play` under cProfile: the ``top`` functions by own time, per agent
    step (``own``: in the function itself; ``total``: with what it calls)."""
    env = GAMES[game].env(num_players=players, obs_encoder=encoder)
    profiler = cProfile.Profile()
    profiler.enable()
    result = play_random(env, seconds)
    profiler.disable()
    steps = max(1, round(result["steps_per_second"] * seconds))
    stats = pstats.Stats(profiler).stats  # (file, line, name) -> (cc, calls, own, total, _)
    rows = sorted(stats.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    return {"game": game, "players": players, "encoder": encoder, "agent_steps": steps,
            "functions": [{"function": f"{_short(path)}:{line}({name})", "calls": calls,
                           "own_us_per_step": 1e6 * own / steps,
                           "total_us_per_step": 1e6 * total / steps}
                          for (path, line, name), (_, calls, own, total, _) in rows]}


def _short(path: str) -> str:
    """A profiled function's file: from site-packages for a library, else its last two
    parts (``origin/encoders.py``)."""
    if "/site-packages/" in path:
        return path.split("/site-packages/", 1)[1]
    return "/".join(path.split("/")[-2:])


# MaskablePPO ------------------------------------------------------------------------------------

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
            env = SingleAgentEnv(GAMES[game].raw_env(num_players=players, obs_encoder=encoder),
                                 shaping=config.shaping)
            env.reset(seed=seed + rank)
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
    model = MaskablePPO(POLICIES[policy], vec, seed=seed, verbose=0, device="cpu", **kwargs)
    idle_model = MaskablePPO(POLICIES[policy], idle, seed=seed, verbose=0, device="cpu",
                             **kwargs)
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


# Memory -----------------------------------------------------------------------------------------

def _rss_mb() -> float:
    """Resident memory of this process (Linux /proc; falls back to the peak)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _play_some(env: Any, steps: int, rng: np.random.Generator) -> None:
    for _ in range(steps):
        obs, _reward, termination, truncation, _info = env.last()
        env.step(None if termination or truncation
                 else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if not env.agents:
            env.reset()


def bench_memory(game: str, players: int, encoder: str, count: int = 64,
                 steps: int = 100) -> dict[str, Any]:
    """Memory of one env (tracemalloc) and of a process holding ``count`` envs (RSS)."""
    module = GAMES[game]
    rng = np.random.default_rng(0)
    warm = module.env(num_players=players, obs_encoder=encoder)  # loads modules and data
    warm.reset(seed=0)
    _play_some(warm, steps, rng)
    rss_before = _rss_mb()
    tracemalloc.start()
    one = module.env(num_players=players, obs_encoder=encoder)
    one.reset(seed=1)
    _play_some(one, steps, rng)
    env_bytes = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    envs = [one]
    for i in range(count - 1):
        env = module.env(num_players=players, obs_encoder=encoder)
        env.reset(seed=2 + i)
        _play_some(env, steps, rng)
        envs.append(env)
    rss = _rss_mb()
    return {"game": game, "players": players, "encoder": encoder,
            "env_mb": env_bytes / 2**20, "envs": len(envs), "process_rss_mb": rss,
            "rss_added_by_envs_mb": rss - rss_before}


# Report -----------------------------------------------------------------------------------------

def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    versions = {}
    for package in ("numpy", "gymnasium", "pettingzoo", "chess", "pygame-ce", "torch",
                    "stable-baselines3", "sb3-contrib"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[package] = metadata.version(package)
    cores = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else os.cpu_count())
    return {"cpu": cpu, "cores": cores, "python": platform.python_version(),
            "platform": platform.platform(), "versions": versions}


def targets(report: dict[str, Any]) -> dict[str, bool]:
    """Each target of the performance issue that the report measured: met or not."""
    met: dict[str, bool] = {}
    peers = {p["env"]: p["steps_per_second"] for p in report.get("peers", [])}
    for g in report.get("games", []):
        for peer, ratio in TARGET_RATIOS.items():
            if peer in peers:
                met[f"{g['game']} >= {ratio}x {peer}"] = (
                    g["steps_per_second"] >= ratio * peers[peer])
    for p in report.get("ppo", []):
        if p["hparams"] == "config" and p["policy"] == "primeval":
            met[f"{p['game']} MaskablePPO >= {TARGET_PPO_STEPS:.0f} env steps/s"] = (
                p["env_steps_per_second"] >= TARGET_PPO_STEPS)
    for m in report.get("memory", []):
        met[f"{m['game']} env < {TARGET_ENV_MB:.0f} MB"] = m["env_mb"] < TARGET_ENV_MB
        met[f"{m['game']} {m['envs']} envs in one process < 1 GB"] = (
            m["process_rss_mb"] < TARGET_64_ENVS_MB)
    return met


def format_report(report: dict[str, Any]) -> str:
    lines = [f"machine: {report['machine']['cpu']}, {report['machine']['cores']} cores, "
             f"Python {report['machine']['python']}"]
    peers = {p["env"]: p["steps_per_second"] for p in report.get("peers", [])}
    for g in report["games"]:
        ratios = "".join(f", {g['steps_per_second'] / v:.2f}x {k}" for k, v in peers.items())
        lines.append(f"{g['game']} {g['players']}p {g['encoder']}: "
                     f"{g['steps_per_second']:,.0f} agent steps/s, "
                     f"{g['games_per_second']:.2f} games/s, "
                     f"{g['decisions_per_game']:.1f} decisions/game{ratios}")
    for p in report.get("peers", []):
        lines.append(f"{p['env']}: {p['steps_per_second']:,.0f} agent steps/s, "
                     f"{p['games_per_second']:.2f} games/s, "
                     f"{p['decisions_per_game']:.1f} decisions/game")
    for p in report.get("ppo", []):
        lines.append(f"{p['game']} MaskablePPO ({p['policy']} policy, "
                     f"{p['hparams']} settings, {p['n_envs']} envs, "
                     f"n_steps {p['n_steps']}, batch {p['batch_size']}, {p['n_epochs']} "
                     f"epochs): {p['env_steps_per_second']:,.0f} env steps/s; SB3 and torch "
                     f"alone (an idle env): {p['sb3_alone']['env_steps_per_second']:,.0f}, "
                     f"so the env takes {p['env_us_per_env_step']:.0f} µs of each env step")
    for prof in report.get("profiles", []):
        lines.append(f"{prof['game']} profile (cProfile, µs per agent step: own / with callees):")
        lines += [f"  {f['own_us_per_step']:7.2f} {f['total_us_per_step']:8.2f}  "
                  f"{f['function']}" for f in prof["functions"]]
    for m in report.get("memory", []):
        lines.append(f"{m['game']} memory: {m['env_mb']:.2f} MB per env; "
                     f"{m['envs']} envs: process RSS {m['process_rss_mb']:.0f} MB "
                     f"(+{m['rss_added_by_envs_mb']:.0f} MB)")
    for name, ok in report.get("targets", {}).items():
        lines.append(f"target {name}: {'met' if ok else 'NOT met'}")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=sorted(GAMES), action="append",
                        help="repeatable; default: both games")
    parser.add_argument("--players", type=int, default=None,
                        help="default: 4 for Primordial Soup, 3 for Origin")
    parser.add_argument("--encoder", default="flat")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--peers", action="store_true",
                        help="also connect_four_v3, go_v5 and chess_v6, and the ratios")
    parser.add_argument("--ppo", action="store_true", help="also MaskablePPO throughput")
    parser.add_argument("--ppo-steps", type=int, default=32768)
    parser.add_argument("--ppo-hparams", choices=[*PPO_HPARAMS, "both"], default="config",
                        help="PPO settings: configs/GAME/default.yaml's, SB3's defaults, or both")
    parser.add_argument("--ppo-policy", choices=[*POLICY_NAMES, "both"], default="primeval",
                        help="PPO policy: primeval train's (masked distribution computed "
                             "once), sb3-contrib's MlpPolicy, or both")
    parser.add_argument("--torch-threads", type=int, default=2,
                        help="torch threads during PPO updates (rollouts use one)")
    parser.add_argument("--memory", action="store_true", help="also memory per env")
    parser.add_argument("--profile", action="store_true",
                        help="also where a step of random play spends its time (cProfile)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Runs the benchmarks ``args`` ask for; prints and returns the report."""
    if args.seconds <= 0 or args.repeats < 1:
        raise SystemExit("--seconds must be > 0 and --repeats >= 1")
    games = args.game or sorted(GAMES, reverse=True)  # primordial_soup, origin
    players = {g: args.players or DEFAULT_PLAYERS[g] for g in games}
    report: dict[str, Any] = {
        "machine": machine(),
        "settings": {"seconds": args.seconds, "repeats": args.repeats,
                     "encoder": args.encoder},
    }
    report["games"], peers = bench_round_robin(
        list(players.items()), args.encoder, list(PEERS) if args.peers else [],
        args.seconds, args.repeats)
    if args.peers:
        report["peers"] = peers
        report["ratios"] = {
            g["game"]: {p["env"]: g["steps_per_second"] / p["steps_per_second"] for p in peers}
            for g in report["games"]}
    if args.profile:
        report["profiles"] = [profile_random_play(g, players[g], args.encoder, args.seconds)
                              for g in games]
    if args.memory:  # before --ppo, so that the process does not hold torch yet
        report["memory"] = [bench_memory(g, players[g], args.encoder) for g in games]
    if args.ppo:
        hparams = PPO_HPARAMS if args.ppo_hparams == "both" else [args.ppo_hparams]
        policies = POLICY_NAMES if args.ppo_policy == "both" else [args.ppo_policy]
        report["ppo"] = [bench_ppo(g, players[g], args.encoder, args.ppo_steps, h,
                                   torch_threads=args.torch_threads, repeats=args.repeats,
                                   policy=pol)
                         for g in games for h in hparams for pol in policies]
    report["targets"] = targets(report)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return report


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="primeval bench",
                                     description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    main()
