"""Scoring an agent on a task: ``primeval benchmark --task soup-4p --agent SPEC``.

:func:`run_task` plays the task's games (the tournament of
:func:`~primeval.training.evaluate.play_tournament`: the agent and the task's zoo opponents,
seats rotated, duplicate games) and returns the result as a JSON-ready dict
(:func:`result_fields` lists its keys): the task's name, version and definition, the agent,
its score (win rate with the 95% Wilson interval, mean rank, mean reward), every
opponent's numbers, the package version and git commit, the machine and the date.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
import time
from pathlib import Path
from typing import Any

from primeval.envs.games import get_game
from primeval.training.benchmark.agents import agent_label, benchmark_agent
from primeval.training.benchmark.tasks import Task, get_task
from primeval.training.benchmark.zoo import get_member


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("primeval")
    except PackageNotFoundError:  # pragma: no cover (run from a folder, not installed)
        return "unknown"


def git_commit() -> str | None:
    """The commit of the checkout the package runs from (``None`` outside a git checkout,
    as in an installed wheel), with ``+dirty`` when files differ from it."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=top.stdout.strip(),
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    if not head:
        return None
    return head + ("+dirty" if dirty else "")


def machine() -> dict[str, Any]:
    """Where the result was measured: platform, processor, cores, Python, load."""
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:  # pragma: no cover (Windows)
        load = None
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "load": load,
    }


def opponent_agents(task: Task, seed: int) -> list[Any]:
    """The task's opponents as agents: opponent ``j`` is agent ``j + 1`` of the lineup,
    seeded ``seed + 1000 (j + 1)``."""
    return [
        benchmark_agent(
            get_member(f"zoo:{task.name}/{name}").agent_spec(),
            task.game,
            task.players,
            seed=seed + 1000 * (j + 1),
        )
        for j, name in enumerate(task.opponents)
    ]


def task_env(task: str | Task, seed: int = 0, **env_kwargs: Any) -> tuple[Any, list[Any]]:
    """The PettingZoo side of a task: its AEC env (the game's ``env()``, with PettingZoo's
    wrappers, at the task's player count) and its opponent pool (the zoo agents of the other
    seats, seeded as :func:`run_task` seeds them), for a harness that seats its own agent.
    """
    task = get_task(task) if isinstance(task, str) else task
    env = get_game(task.game).env(task.players, **env_kwargs)
    return env, opponent_agents(task, seed)


def run_task(
    task: str | Task,
    agent: Any,
    *,
    games: int | None = None,
    seed: int | None = None,
    progress: bool = False,
    trust_checkpoint: bool = False,
    timeout: float | None = None,
    duplicate: bool | None = None,
) -> dict[str, Any]:
    """Score ``agent`` (a spec, zoo name, callable, torch module or agent; see
    :func:`~.agents.benchmark_agent`) on ``task``.

    ``games``, ``seed`` and ``duplicate`` replace the task's (the result then says so in
    ``"official": false``: only the task's own settings give a citable score).

    Raises:
        ValueError: An unknown task, a bad agent, a game count that is not a multiple of
            the players.
    """
    task = get_task(task) if isinstance(task, str) else task
    entry = get_game(task.game)
    if int(entry.version) != task.game_version:
        raise ValueError(
            f"task {task.id} was fixed on {task.game} v{task.game_version}; "
            f"this package has v{entry.version}"
        )
    n_games = task.games if games is None else int(games)
    run_seed = task.seed if seed is None else int(seed)
    dup = task.duplicate if duplicate is None else bool(duplicate)
    if n_games < 1 or (dup and n_games % task.players):
        raise ValueError(
            f"games must be a positive multiple of {task.players} (duplicate "
            f"games come in blocks of one seed per seat rotation), got {n_games}"
        )
    env_kwargs = _agent_env(agent, task)
    tested = benchmark_agent(
        agent,
        task.game,
        task.players,
        seed=run_seed,
        trust_checkpoint=trust_checkpoint,
        timeout=timeout,
    )
    from primeval.training.evaluate import _labels, play_tournament

    label = agent_label(agent)
    labels = _labels([label, *(f"zoo:{task.name}/{o}" for o in task.opponents)])
    start = time.perf_counter()
    try:
        results = play_tournament(
            task.game,
            task.players,
            [tested, *opponent_agents(task, run_seed)],
            labels,
            n_games,
            seed=run_seed,
            progress=progress,
            duplicate=dup,
            **env_kwargs,
        )
    finally:
        if hasattr(tested, "close"):
            tested.close()
    seconds = time.perf_counter() - start
    official = games is None and seed is None and duplicate is None
    return {
        "task": task.name,
        "task_version": task.version,
        "task_definition": task.to_dict(),
        "official": official,
        "agent": label,
        "games": n_games,
        "seed": run_seed,
        "duplicate": dup,
        "score": score(results[0], task.players),
        "lineup": [score(r, task.players) for r in results],
        "package": {"name": "primeval", "version": package_version(), "commit": git_commit()},
        "machine": machine(),
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "seconds": round(seconds, 1),
    }


def score(result: Any, players: int) -> dict[str, Any]:
    """The numbers of one agent of a tournament: win rate, its 95% Wilson interval, mean
    rank and mean reward (``1 - 2 (rank - 1) / (players - 1)``, the env's rank reward)."""
    import numpy as np

    lo, hi = result.win_interval()
    ranks = np.asarray(result.ranks, dtype=float)
    return {
        "agent": result.name,
        "games": result.games,
        "win_rate": result.win_rate,
        "win_rate_ci95": [lo, hi],
        "mean_rank": float(ranks.mean()),
        "mean_reward": float(np.mean(1 - 2 * (ranks - 1) / (players - 1))),
        "mean_score": float(np.mean(result.scores)),
    }


def result_fields() -> tuple[str, ...]:
    """The keys of :func:`run_task`'s result."""
    return (
        "task",
        "task_version",
        "task_definition",
        "official",
        "agent",
        "games",
        "seed",
        "duplicate",
        "score",
        "lineup",
        "package",
        "machine",
        "date",
        "seconds",
    )


def _agent_env(agent: Any, task: Task) -> dict[str, Any]:
    """The env keywords the agent needs (a checkpoint's encoder and options), checked
    against the task's game and players."""
    if not isinstance(agent, str):
        return {}
    spec = agent
    if spec.startswith("zoo:"):
        spec = get_member(spec).agent_spec()
    if not spec.startswith("ppo:"):
        return {}
    from primeval.training.agents.checkpoint import infer_env

    env, _note = infer_env([spec], task.game, task.players, task.game)
    kwargs = dict(env["env"] or {})
    if kwargs:
        raise ValueError(
            f"{agent} was trained with env options {kwargs}; a benchmark task "
            "plays the game's standard rules"
        )
    return {"obs_encoder": env["encoder"]} if env["encoder"] else {}


def format_result(result: dict[str, Any]) -> str:
    """The result in a few lines, the score first."""
    s = result["score"]
    lo, hi = s["win_rate_ci95"]
    lines = [
        f"{result['task']}@{result['task_version']}: {result['agent']} wins "
        f"{s['win_rate']:.3f} [95% CI {lo:.3f}, {hi:.3f}] over {result['games']} games"
        f"{' (duplicate)' if result['duplicate'] else ''}; mean rank "
        f"{s['mean_rank']:.2f}, mean reward {s['mean_reward']:+.3f}"
        + ("" if result["official"] else "  (not the task's settings: not citable)")
    ]
    for other in result["lineup"][1:]:
        lo, hi = other["win_rate_ci95"]
        lines.append(
            f"  {other['agent']}: win rate {other['win_rate']:.3f} "
            f"[{lo:.3f}, {hi:.3f}], mean rank {other['mean_rank']:.2f}"
        )
    commit = result["package"]["commit"] or "no git checkout"
    lines.append(
        f"  primeval {result['package']['version']} ({commit}), seed "
        f"{result['seed']}, {result['seconds']:.0f} s on {result['machine']['cpu_count']}"
        f" cores, {result['date']}"
    )
    return "\n".join(lines)


__all__ = [
    "format_result",
    "git_commit",
    "machine",
    "result_fields",
    "run_task",
    "score",
    "task_env",
]
