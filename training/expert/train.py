"""Expert iteration: the network-guided search plays, the network learns from it.

``primeval train --config primordial_soup/expert`` (a config with ``algo: expert``, or
``--algo expert``). Each iteration:

1. **Self-play.** ``games_per_iteration`` games, shared among ``workers`` processes
   (``multiprocessing`` with *spawn*; each game seeded from the run's ``SeedSequence`` by its
   iteration and number, so the same seed gives the same games whatever the worker count).
   The current network with search (``mcts:net=``, PUCT, root Dirichlet noise, each seat's
   first ``search.sample_moves`` decisions drawn from the visit counts) takes one seat,
   rotating with the game's number; every other seat is drawn from the league: the current
   network with search, a past snapshot with search, or the heuristic bot. Every decision
   of a seat the current network plays (with more than one legal action) is recorded: the
   observation, the mask, the root's visit distribution (sharpened by
   ``learn.target_temperature`` below 1: :func:`~.learner.policy_target`) and, once the game is over,
   every seat's rank reward (ego-centric, as the value head gives it).
2. **Learning.** ``learn.steps`` Adam steps on minibatches drawn from a replay buffer of
   the newest ``learn.buffer`` positions: cross-entropy of the masked policy towards the
   visit distribution, plus ``learn.value_weight`` times the mean squared error of the value
   vector towards the results.
3. **Checkpoint.** ``checkpoints/network.json`` (+ ``.pt``), the optimiser's state
   (``optimizer.pt``, plain tensors) and ``progress.json``; every ``league.snapshot_every``
   iterations a snapshot in ``snapshots/``. ``--resume RUN`` continues after the last
   finished iteration (the replay buffer starts empty again; it is not saved).

Before the first iteration, a run whose ``teacher.checkpoint`` names a trained PPO agent
learns that agent's play (:func:`~.teacher.warm_start`): the agent's games against the heuristic bots,
every seat's decisions with the agent's policy as the policy target and every seat's result
as the value target, a share of the games held out to report the value's R^2;
``iterations: 0`` stops there. A resumed run never plays it again.
A run whose ``init`` names a saved network (such a warm start's ``RUN/network.json``)
starts from it instead of a fresh initialisation (:func:`initial_network`).

Every ``eval.every`` iterations the raw policy plays the heuristic bots (win rate with a
95% Wilson interval, to TensorBoard in ``tb/`` and ``metrics.csv``); at the end
``summary.md`` and ``eval.json`` hold the raw policy and the policy with search against the
heuristic bots (``eval.final_games`` games per row, seats rotated), and ``network.json``
the final network (``mcts:net=RUN/network.json``, ``net:RUN/network.json``). The
evaluation games are shared among the workers too, each game and its agents seeded by the
game's number.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from primeval.training import config as loader
from primeval.training.agents.checkpoint import CheckpointError, env_spec
from primeval.training.config import ConfigError
from primeval.training.expert.config import ALGO, ExpertConfig, load_expert_config
from primeval.training.expert.games import (
    play_evaluation_game,
    play_selfplay_game,
    worker_init,
)
from primeval.training.expert.learner import ReplayBuffer, learn
from primeval.training.expert.teacher import teacher_path, warm_start
from primeval.training.files import append_row, atomic_json, write_atomically
from primeval.training.seeding import RunSeeds, Seeds, as_seeds

__all__ = ["resume_expert_config", "summary_table", "train_expert"]

METRICS_FIELDS = (
    "iteration",
    "wall_seconds",
    "positions",
    "policy_loss",
    "value_loss",
    "win_rate_vs_heuristic",
    "win_rate_vs_heuristic_lo",
    "win_rate_vs_heuristic_hi",
)


def config_spec(config: ExpertConfig) -> dict[str, Any]:
    """The env spec the run's networks carry."""
    return env_spec(config.game, config.players, config.encoder, config.env)


# -- evaluation ----------------------------------------------------------------------------


def evaluate_network(
    network_path: str | Path,
    config: ExpertConfig,
    games: int,
    seeds: int | Seeds,
    sims: int | None = None,
    pool: Any = None,
    version: int = -1,
) -> dict[str, Any]:
    """The raw policy (``sims`` None) or the policy with search against ``players - 1``
    heuristic bots, seats rotated (the network in seat ``g % players`` of game ``g``), the
    games shared among ``pool``'s workers (or played here); the network's row (win rate,
    95% Wilson interval, mean rank). Every game and agent is seeded from ``seeds`` by the
    game's number, so the result does not depend on the worker count."""
    from openskill.models import PlackettLuce

    from primeval.training.evaluate import AgentResult, count_game

    seeds = as_seeds(seeds)
    n = config.players
    tasks = [
        {
            "config": loader.to_dict(config),
            "network": str(network_path),
            "version": version,
            "sims": sims,
            "seat": g % n,
            "game_seed": seeds.spawn("games", g),
            "agent_seeds": [seeds.spawn("agents", g, s) for s in range(n)],
        }
        for g in range(games)
    ]
    scores = (
        pool.map(play_evaluation_game, tasks)
        if pool is not None
        else [play_evaluation_game(t) for t in tasks]
    )
    label = "network (raw policy)" if sims is None else f"network + search ({sims} sims)"
    results = [AgentResult(label)] + [AgentResult(f"heuristic#{i}") for i in range(1, n)]
    model = PlackettLuce()
    ratings = [model.rating(name=r.name) for r in results]
    for g, row in enumerate(scores):
        seat_of = {i: (g + i) % n for i in range(n)}  # agent i (0: the network) sits there
        count_game(results, ratings, model, seat_of, row)
    return results[0].summary()


def summary_table(final: dict[str, Any]) -> str:
    """The run's result as one Markdown table (raw policy and with search against the
    heuristic bots, 95% Wilson intervals, seats rotated), then the training time."""
    n = final["players"]
    lines = [
        f"{final['game']}, {n} players, seed {final['seed']}: expert iteration, "
        f"{final['iterations']} iterations; seats rotated; chance is {1 / n:.3f}",
        "",
        "| agent | against | games | win rate | 95% CI | mean rank |",
        "|---|---|---|---|---|---|",
    ]
    for key in ("raw", "search"):
        s = final[key]
        lo, hi = s["win_rate_ci95"]
        lines.append(
            f"| {s['agent']} | {n - 1} heuristic | {s['games']} | "
            f"{s['win_rate']:.3f} | [{lo:.3f}, {hi:.3f}] | {s['mean_rank']:.2f} |"
        )
    minutes, secs = divmod(int(round(final["train_seconds"])), 60)
    lines += [
        "",
        f"training: {final['games']} self-play games, {final['positions']} "
        f"positions learnt, in {minutes} min {secs} s ({final['workers']} workers)",
    ]
    if final.get("init"):
        lines.append(f"started from the network {final['init']}")
    teacher = final.get("teacher")
    if teacher:
        lo, hi = teacher["teacher_win_rate_ci95"]
        line = (
            f"warm start: {teacher['games']} games of {teacher['checkpoint']} against the "
            f"heuristic bots (its win rate {teacher['teacher_win_rate']:.3f} [{lo:.3f}, "
            f"{hi:.3f}]), {teacher['positions']} positions learnt"
        )
        after = teacher.get("held_out_after")
        if after:
            line += (
                f"; on {teacher['held_out_games']} held-out games the policy agrees with the "
                f"teacher's most likely action {after['policy_agreement']:.3f} of the time "
                f"and the value's R^2 is {after['value_r2']:.3f}"
            )
        lines.append(line)
    return "\n".join(lines)


# -- the run -------------------------------------------------------------------------------


def _copy_network(src: Path, dst: Path) -> None:
    from primeval.training.expert.network import weights_path

    shutil.copyfile(weights_path(src), weights_path(dst))
    shutil.copyfile(src, dst)


def _tasks(
    config: ExpertConfig, iteration: int, network: Path, snapshots: list[str]
) -> list[dict[str, Any]]:
    """The iteration's games: seeds and lineups from the run's streams."""
    seeds = RunSeeds(config.seed)
    rng = seeds.rng("opponents", iteration)
    n = config.players
    kinds = ("current", "snapshots", "heuristic")
    league = config.league
    weights = np.array([league.current, league.snapshots, league.heuristic], dtype=float)
    weights /= weights.sum()
    tasks = []
    for g in range(config.games_per_iteration):
        lineup = []
        for seat in range(n):
            if seat == g % n:
                lineup.append("current")
                continue
            kind = kinds[int(rng.choice(3, p=weights))]
            if kind == "snapshots":
                lineup.append(
                    snapshots[int(rng.integers(len(snapshots)))] if snapshots else "current"
                )
            else:
                lineup.append(kind)
        tasks.append(
            {
                "config": loader.to_dict(config),
                "iteration": iteration,
                "index": g,
                "game_seed": seeds.spawn("env_workers", iteration, g),
                "agent_seeds": [
                    seeds.spawn("env_workers", iteration, g, "seat", s) for s in range(n)
                ],
                "lineup": lineup,
                "network": str(network),
            }
        )
    return tasks


def initial_network(config: ExpertConfig, spec: dict[str, Any]) -> Any:
    """The network ``init`` names, loaded as data and checked against the config (its env
    spec and ``network.hidden``).

    Raises:
        NetworkError: The file is missing or damaged, or was trained for another env.
        ConfigError: Its trunk is not ``network.hidden``.
    """
    from primeval.training.expert.network import load_network

    network = load_network(config.init, expect=spec)
    if list(network.hidden) != list(config.network.hidden):
        raise ConfigError(
            f"init={config.init!r}: its trunk is {list(network.hidden)}, the config's "
            f"network.hidden is {list(config.network.hidden)}"
        )
    if network.structured != config.network.structured():
        raise ConfigError(
            f"init={config.init!r}: its structured arch is {network.structured}, the "
            f"config's network asks for {config.network.structured()}"
        )
    return network


def train_expert(
    config: ExpertConfig, run_dir: str | Path, resume: bool = False, progress: bool = True
) -> dict[str, Any]:
    """Train (or resume) an expert-iteration run; returns the final evaluation."""
    import multiprocessing

    import torch
    from torch.utils.tensorboard import SummaryWriter

    from primeval.training.expert.network import PolicyValueNetwork, load_network

    run_dir = Path(run_dir)
    spec = config_spec(config)
    initial = initial_network(config, spec) if config.init and not resume else None
    if config.teacher.checkpoint:  # refused by name before anything is written
        from primeval.training.expert.play import PPOEvaluator

        PPOEvaluator(teacher_path(config.teacher.checkpoint)).check_env(
            config.game, config.players
        )
    checkpoints = run_dir / "checkpoints"
    for sub in ("checkpoints", "snapshots", "tb"):
        (run_dir / sub).mkdir(parents=True, exist_ok=True)
    latest = checkpoints / "network.json"
    seeds = RunSeeds(config.seed)
    torch.set_num_threads(config.torch_threads)
    state: dict[str, Any] = {
        "iteration": 0,
        "snapshots": [],
        "games": 0,
        "positions": 0,
        "train_seconds": 0.0,
        "teacher": None,
    }
    if resume:
        progress_file = checkpoints / "progress.json"
        if not (latest.is_file() and progress_file.is_file()):
            raise CheckpointError(f"--resume {run_dir}: no checkpoint at {latest}")
        network = load_network(latest, expect=spec)
        try:
            saved = json.loads(progress_file.read_text(encoding="utf-8"))
        except ValueError:
            raise CheckpointError(f"--resume {run_dir}: progress.json is not JSON") from None
        if not isinstance(saved, dict) or not isinstance(saved.get("iteration"), int):
            raise CheckpointError(f"--resume {run_dir}: progress.json has no iteration")
        state.update({k: saved[k] for k in state if k in saved})
        snaps = [run_dir / "snapshots" / Path(str(s)).name for s in state["snapshots"]]
        state["snapshots"] = [str(p) for p in snaps if p.is_file()]  # inside the run only
        if progress:
            print(f"resuming {run_dir} after iteration {state['iteration']}", flush=True)
    elif initial is not None:
        network = initial
        network.save(latest)
    else:
        network = PolicyValueNetwork(spec, config.network.hidden, seed=seeds.spawn("model"),
                                     structured=config.network.structured())
        network.save(latest)
    loader.save(config, run_dir / "config.yaml")
    optimizer = torch.optim.Adam(
        network.module.parameters(),
        lr=config.learn.learning_rate,
        weight_decay=config.learn.weight_decay,
    )
    if resume and (checkpoints / "optimizer.pt").is_file():
        try:
            optimizer.load_state_dict(
                torch.load(checkpoints / "optimizer.pt", map_location="cpu", weights_only=True)
            )
        except Exception as exc:  # noqa: BLE001
            raise CheckpointError(
                f"--resume {run_dir}: optimizer.pt cannot be read: {type(exc).__name__}"
            ) from None
    buffer = ReplayBuffer(config.learn.buffer)
    writer = SummaryWriter(str(run_dir / "tb"))
    pool = None
    if config.workers > 0:
        pool = multiprocessing.get_context("spawn").Pool(
            config.workers, initializer=worker_init, initargs=(config.torch_threads,)
        )
    start_wall = time.time()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=config.iterations, initial=state["iteration"], desc="expert", unit="iter")
    try:
        if config.teacher.checkpoint and state["teacher"] is None:
            report = warm_start(config, network, optimizer, latest, pool, progress)
            state["teacher"] = report
            state["train_seconds"] += report["seconds"]
            write_atomically(checkpoints / "optimizer.pt",
                             lambda tmp: torch.save(optimizer.state_dict(), tmp))
            atomic_json(state, checkpoints / "progress.json")
            writer.add_scalar("teacher/win_rate", report["teacher_win_rate"], 0)
            for key, value in report["train_losses"].items():
                writer.add_scalar(f"teacher/train_{key}", value, 0)
            for key, value in (report["held_out_after"] or {}).items():
                writer.add_scalar(f"teacher/held_out_{key}", value, 0)
        for it in range(state["iteration"], config.iterations):
            t0 = time.perf_counter()
            tasks = _tasks(config, it, latest, state["snapshots"])
            games = (
                pool.map(play_selfplay_game, tasks)
                if pool is not None
                else [play_selfplay_game(t) for t in tasks]
            )
            games.sort(key=lambda g: g["index"])
            play_seconds = time.perf_counter() - t0
            for game in games:
                buffer.add(game)
            positions = sum(len(g["obs"]) for g in games)
            losses = learn(network, optimizer, buffer, config, seeds.rng("model", it))
            state["iteration"] = it + 1
            state["games"] += len(games)
            state["positions"] += positions
            state["train_seconds"] += time.perf_counter() - t0
            network.save(latest)
            write_atomically(checkpoints / "optimizer.pt",
                             lambda tmp: torch.save(optimizer.state_dict(), tmp))
            if (it + 1) % config.league.snapshot_every == 0:
                snap = run_dir / "snapshots" / f"iter_{it + 1}.json"
                _copy_network(latest, snap)
                state["snapshots"] = (state["snapshots"] + [str(snap)])[-config.league.keep :]
            atomic_json(state, checkpoints / "progress.json")
            sims = sum(g["simulations"] for g in games)
            writer.add_scalar("loss/policy", losses["policy_loss"], it + 1)
            writer.add_scalar("loss/value", losses["value_loss"], it + 1)
            writer.add_scalar("selfplay/positions", positions, it + 1)
            writer.add_scalar("selfplay/sims_per_second", sims / max(play_seconds, 1e-9), it + 1)
            row: dict[str, Any] = {
                "iteration": it + 1,
                "wall_seconds": round(time.time() - start_wall, 1),
                "positions": positions,
                "policy_loss": round(losses["policy_loss"], 4),
                "value_loss": round(losses["value_loss"], 4),
            }
            if config.eval.every and (it + 1) % config.eval.every == 0:
                result = evaluate_network(
                    latest,
                    config,
                    config.eval.games,
                    seeds.child("evaluation", it + 1),
                    pool=pool,
                    version=it + 1,
                )
                lo, hi = result["win_rate_ci95"]
                row.update(
                    win_rate_vs_heuristic=round(result["win_rate"], 4),
                    win_rate_vs_heuristic_lo=round(lo, 4),
                    win_rate_vs_heuristic_hi=round(hi, 4),
                )
                writer.add_scalar("eval/win_rate_vs_heuristic", result["win_rate"], it + 1)
            append_row(run_dir / "metrics.csv", METRICS_FIELDS, row)
            writer.flush()
            if bar is not None:
                bar.update(1)
                bar.set_postfix(
                    policy=f"{losses['policy_loss']:.3f}",
                    value=f"{losses['value_loss']:.3f}",
                    win=row.get("win_rate_vs_heuristic", "-"),
                )
        if bar is not None:
            bar.close()
            bar = None
        _copy_network(latest, run_dir / "network.json")
        final_path = run_dir / "network.json"
        load_network(final_path, expect=spec)  # the file as users will load it
        fseeds = seeds.child("final_evaluation")
        games = config.eval.final_games
        version = state["iteration"]
        final = {
            "game": config.game,
            "players": config.players,
            "seed": config.seed,
            "iterations": state["iteration"],
            "games": state["games"],
            "positions": state["positions"],
            "workers": config.workers,
            "train_seconds": round(state["train_seconds"], 1),
            "teacher": state["teacher"],
            "init": config.init or None,
            "raw": evaluate_network(
                final_path, config, games, fseeds.child("raw"), pool=pool, version=version
            ),
            "search": evaluate_network(
                final_path,
                config,
                games,
                fseeds.child("search"),
                sims=config.eval.sims,
                pool=pool,
                version=version,
            ),
        }
    except KeyboardInterrupt:
        if pool is not None:
            pool.terminate()
            pool = None
        raise
    finally:
        if bar is not None:
            bar.close()
        if pool is not None:
            pool.close()
            pool.join()
        writer.close()
    atomic_json(final, run_dir / "eval.json")
    (run_dir / "summary.md").write_text(summary_table(final) + "\n", encoding="utf-8")
    return final


def resume_expert_config(
    run_dir: str | Path, config: str | Path | None = None, **overrides: Any
) -> ExpertConfig:
    """The saved configuration of an expert-iteration run folder, with overrides (e.g. more
    ``iterations``).

    Raises:
        CheckpointError: No ``config.yaml`` there, a run of another learner, or ``config``
            (the one given beside ``--resume``) differs from the saved one (the keys named).
    """
    path = Path(run_dir) / "config.yaml"
    if not path.is_file():
        raise CheckpointError(f"--resume {run_dir}: no config.yaml in the run folder")
    data = loader.read(path)
    if data.get("algo") != ALGO:
        raise CheckpointError(
            f"--resume {run_dir}: the run folder holds a run of another "
            f"learner (algo {data.get('algo', 'ppo')!r}, not {ALGO!r})"
        )
    saved = load_expert_config(path, **overrides)
    if config is not None:
        given = load_expert_config(config, **overrides)
        if given != saved:
            a, b = loader.to_dict(saved), loader.to_dict(given)
            keys = sorted(k for k in a if a[k] != b.get(k))
            raise CheckpointError(
                f"--resume {run_dir}: the run folder holds a run of another "
                f"config (differs in {', '.join(keys)}); resume without "
                "--config, or start a new --out"
            )
    return saved
