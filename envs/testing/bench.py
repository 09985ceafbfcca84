"""Throughput and memory of the environments, side by side with PettingZoo's classic games.

``python -m primeval.envs.testing.bench`` (and ``primeval bench``, which adds MaskablePPO's
throughput with ``--ppo``: :mod:`primeval.training.ppo.bench`) measures:

* **random play through ``env()``**: uniformly random legal actions, read the way a training
  loop reads them (``last()`` for the observation and the mask, then ``step``:
  :func:`~primeval.envs.testing.random_play.random_steps`, drawing with
  :func:`~primeval.envs.testing.random_play.uniform_float`, the cheapest draw, so that the
  figures are the envs' rather than numpy's); agent steps per second and games per second,
  the median of ``--repeats`` runs of ``--seconds`` each, taken round-robin (one run of every
  game and peer, then the next round), so that a machine whose speed drifts during the
  benchmark shifts every figure alike;
* ``--peers``: the same loop, in the same process, over PettingZoo's ``connect_four_v3``,
  ``go_v5`` and ``chess_v6`` (``pip install primeval[bench]``), and the ratio of each game's
  figure to theirs;
* ``--profile``: where a step of random play through ``env()`` spends its time: cProfile
  over ``--seconds`` of :func:`play_random`, the functions with the most time of their own,
  per agent step (cProfile slows every call, so its figures add up to more than the step's
  cost without it; their proportions are what it is for);
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
from importlib import metadata
from typing import Any

import numpy as np

from primeval.envs.games import GAMES, get_game
from primeval.envs.testing.random_play import advance, random_steps, uniform_float

PEERS = ("connect_four_v3", "go_v5", "chess_v6")
#: Targets (2 CPU cores, one process, flat encoder): ours / theirs through env().
TARGET_RATIOS = {"go_v5": 1.5, "chess_v6": 10.0}
TARGET_ENV_MB = 5.0
TARGET_64_ENVS_MB = 1024.0


# Random play ------------------------------------------------------------------------------------

def play_random(env: Any, seconds: float, seed: int = 0) -> dict[str, float]:
    """Random legal play through an AEC env for about ``seconds``, a game at a time (reset
    with ``seed``, ``seed + 1``, ...): the benchmark loop."""
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + games)
        for turn in random_steps(env, rng, uniform_float):
            steps += turn.action is not None
        games += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_second": steps / elapsed, "games_per_second": games / elapsed,
            "decisions_per_game": steps / games, "games": games}


def bench_game(game: str, players: int, encoder: str, seconds: float, seed: int = 0
               ) -> dict[str, float]:
    """:func:`play_random` over the game's ``env()``."""
    return play_random(get_game(game).env(players, obs_encoder=encoder), seconds, seed)


def peer_env(name: str) -> Any:
    """PettingZoo's classic env ``name`` (``env()``, with its standard wrappers)."""
    try:
        from pettingzoo.classic import chess_v6, connect_four_v3, go_v5
    except ImportError as exc:  # chess or pygame-ce missing
        raise SystemExit(f"--peers needs PettingZoo's classic games' dependencies ({exc}); "
                         "install them with: pip install 'primeval[bench]'") from None
    return {"connect_four_v3": connect_four_v3, "go_v5": go_v5, "chess_v6": chess_v6}[name].env()


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
    """:func:`bench_game` for every game ``(name, players)``, :func:`play_random` for every
    peer, ``repeats`` runs of each and their median. The runs are taken in turns (repeat 1 of
    each, then repeat 2 of each, ...), so that a machine that slows down or speeds up
    meanwhile shifts every figure alike and the ratios hold."""
    game_runs: list[list[dict]] = [[] for _ in games]
    peer_runs: list[list[dict]] = [[] for _ in peers]
    for r in range(repeats):
        for runs, (game, players) in zip(game_runs, games, strict=True):
            runs.append(bench_game(game, players, encoder, seconds, seed=1000 * r))
        for runs, name in zip(peer_runs, peers, strict=True):
            runs.append(play_random(peer_env(name), seconds, seed=1000 * r))
    return ([{"game": game, "players": players, "encoder": encoder, **_median_of(runs)}
             for (game, players), runs in zip(games, game_runs, strict=True)],
            [{"env": name, **_median_of(runs)} for name, runs in zip(peers, peer_runs,
                                                                       strict=True)])


def profile_random_play(game: str, players: int, encoder: str, seconds: float,
                        top: int = 25) -> dict[str, Any]:
    """:func:`play_random` over the game's ``env()`` under cProfile: the ``top`` functions by
    own time, per agent step (``own``: in the function itself; ``total``: with what it
    calls)."""
    env = get_game(game).env(players, obs_encoder=encoder)
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
    """``steps`` agent steps of random play, starting a new game whenever one ends."""
    while steps > 0:
        steps -= advance(env, steps, rng)
        if not env.agents:
            env.reset()


def bench_memory(game: str, players: int, encoder: str, count: int = 64,
                 steps: int = 100) -> dict[str, Any]:
    """Memory of one env (tracemalloc) and of a process holding ``count`` envs (RSS)."""
    rng = np.random.default_rng(0)

    def make() -> Any:
        return get_game(game).env(players, obs_encoder=encoder)

    warm = make()  # loads modules and data
    warm.reset(seed=0)
    _play_some(warm, steps, rng)
    rss_before = _rss_mb()
    tracemalloc.start()
    one = make()
    one.reset(seed=1)
    _play_some(one, steps, rng)
    env_bytes = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    envs = [one]
    for i in range(count - 1):
        env = make()
        env.reset(seed=2 + i)
        _play_some(env, steps, rng)
        envs.append(env)
    rss = _rss_mb()
    return {"game": game, "players": players, "encoder": encoder,
            "env_mb": env_bytes / 2**20, "envs": len(envs), "process_rss_mb": rss,
            "rss_added_by_envs_mb": rss - rss_before}


# Report -----------------------------------------------------------------------------------------

def machine() -> dict[str, Any]:
    """The CPU, its cores available to this process, Python, the platform and the versions
    of the libraries the figures depend on."""
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
    """Each env target of the performance issue that the report measured: met or not."""
    met: dict[str, bool] = {}
    peers = {p["env"]: p["steps_per_second"] for p in report.get("peers", [])}
    for g in report.get("games", []):
        for peer, ratio in TARGET_RATIOS.items():
            if peer in peers:
                met[f"{g['game']} >= {ratio}x {peer}"] = (
                    g["steps_per_second"] >= ratio * peers[peer])
    for m in report.get("memory", []):
        met[f"{m['game']} env < {TARGET_ENV_MB:.0f} MB"] = m["env_mb"] < TARGET_ENV_MB
        met[f"{m['game']} {m['envs']} envs in one process < 1 GB"] = (
            m["process_rss_mb"] < TARGET_64_ENVS_MB)
    return met


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report's env figures as text, a line each."""
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
    for prof in report.get("profiles", []):
        lines.append(f"{prof['game']} profile (cProfile, µs per agent step: own / with callees):")
        lines += [f"  {f['own_us_per_step']:7.2f} {f['total_us_per_step']:8.2f}  "
                  f"{f['function']}" for f in prof["functions"]]
    for m in report.get("memory", []):
        lines.append(f"{m['game']} memory: {m['env_mb']:.2f} MB per env; "
                     f"{m['envs']} envs: process RSS {m['process_rss_mb']:.0f} MB "
                     f"(+{m['rss_added_by_envs_mb']:.0f} MB)")
    return lines


def target_lines(report: dict[str, Any]) -> list[str]:
    """The report's targets as text, a line each."""
    return [f"target {name}: {'met' if ok else 'NOT met'}"
            for name, ok in report.get("targets", {}).items()]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=sorted(GAMES), action="append",
                        help="repeatable; default: every game")
    parser.add_argument("--players", type=int, default=None,
                        help="default: each game's default (4 for Primordial Soup, 3 for "
                        "Origin)")
    parser.add_argument("--encoder", default="flat")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--peers", action="store_true",
                        help="also connect_four_v3, go_v5 and chess_v6, and the ratios")
    parser.add_argument("--memory", action="store_true", help="also memory per env")
    parser.add_argument("--profile", action="store_true",
                        help="also where a step of random play spends its time (cProfile)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def games_of(args: argparse.Namespace) -> dict[str, int]:
    """``{game: players}`` of the games ``args`` name (every game of the catalogue if none)."""
    return {g: args.players or GAMES[g].default_players for g in args.game or GAMES}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """The env benchmarks ``args`` ask for, as a report without its targets."""
    if args.seconds <= 0 or args.repeats < 1:
        raise SystemExit("--seconds must be > 0 and --repeats >= 1")
    players = games_of(args)
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
        report["profiles"] = [profile_random_play(g, n, args.encoder, args.seconds)
                              for g, n in players.items()]
    if args.memory:
        report["memory"] = [bench_memory(g, n, args.encoder) for g, n in players.items()]
    return report


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """The env benchmark alone; prints and returns the report."""
    parser = argparse.ArgumentParser(prog="python -m primeval.envs.testing.bench",
                                     description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    report = measure(args)
    report["targets"] = targets(report)
    print(json.dumps(report, indent=2) if args.json
          else "\n".join(report_lines(report) + target_lines(report)))
    return report


if __name__ == "__main__":
    main()
