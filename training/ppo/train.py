"""``primeval train``: MaskablePPO on a primeval game, with opponents, self-play,
checkpoints, periodic evaluation and a report.

A run folder ``runs/NAME/`` holds: ``config.yaml`` (the resolved configuration),
``checkpoints/latest.zip`` (with ``progress.json``; ``--resume`` continues from it),
``snapshots/`` (self-play opponents), ``tb/`` (TensorBoard logs), ``metrics.csv`` (one row
per evaluation), and at the end ``model.zip``, ``eval.json`` and ``learning_curve.png``.

Checkpoints are taken between rollouts (after the update), so a checkpoint's weights have
learnt from every step it counts and ``--resume`` ends at ``total_steps`` exactly. Ctrl-C
(SIGINT) stops at the next environment step, drops the unfinished rollout, saves a checkpoint
and raises :class:`TrainingInterrupted`; a second Ctrl-C aborts at once. Files are written to
a temporary ``*.tmp`` name and renamed, so a killed run leaves no partial ``.zip``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from primeval.envs.games import make_raw_env
from primeval.training.agents import RandomAgent, make_agent, make_heuristic
from primeval.training.agents.checkpoint import (
    env_spec,
    load_model,
    read_env_spec,
    save_model,
    spec_mismatch,
)
from primeval.training.agents.policy import PolicyAgent
from primeval.training.evaluate import play_game, play_tournament, ranks_of
from primeval.training.files import atomic_json, write_atomically
from primeval.training.ppo.config import TrainConfig, load_config, save_config
from primeval.training.ppo.league import League
from primeval.training.ppo.model import new_model, set_unsaved_settings
from primeval.training.ppo.records import (
    EVAL_FIELDS,
    algorithm_name,
    append_metrics,
    append_ratings,
    league_ratings,
    plot_learning_curve,
    summary_table,
)
from primeval.training.seeding import RunSeeds, Seeds, as_seeds
from primeval.wrappers.single_agent import SingleAgentEnv


class TrainingInterrupted(Exception):
    """Training was stopped by Ctrl-C (SIGINT); a checkpoint was saved (the message says where
    and how to resume)."""


def make_training_env(config: TrainConfig, rank: int, league: League):
    """A factory for one single-agent training env, its opponents drawn by ``league``."""

    def init() -> SingleAgentEnv:
        if config.vec_env == "subproc":  # in a worker: Ctrl-C is for the main process, which
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # stops the workers in order
        aec = make_raw_env(config.game, config.players, obs_encoder=config.encoder,
                           **config.env)
        shaping = {"shaping": config.shaping,
                   "shaping_sources": config.shaping_sources or None,
                   "shaping_others": config.shaping_others,
                   "shaping_prospects": config.shaping_prospects}
        if config.prior.agent != "none":
            from primeval.training.ppo.prior import PriorHintEnv, make_prior_agent

            env = PriorHintEnv(aec, prior=make_prior_agent(config.prior.agent, config.game),
                               opponents=league.opponents(), **shaping)
        else:
            env = SingleAgentEnv(aec, opponents=league.opponents(), **shaping)
        if config.vec_env == "subproc":  # this worker's league follows the main process's
            from primeval.training.ppo.vec_env import LeagueStep

            env.apply_league_step = LeagueStep(league).apply
        env.reset(seed=RunSeeds(config.seed).spawn("env_workers", rank))
        return env

    return init


def make_vec_env(config: TrainConfig, league: League):
    """The run's vector env (``config.vec_env``, ``n_envs`` games, ``workers``), env ``i``
    seeded by the run's ``env_workers`` stream whatever the process that steps it."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from primeval.training.ppo.vec_env import (
        BatchedOpponentsVecEnv,
        GamesVecEnv,
        LeagueStep,
        LeagueSubprocVecEnv,
    )

    fns = [make_training_env(config, i, league) for i in range(config.n_envs)]
    if config.vec_env == "vector":
        return GamesVecEnv(fns, workers=config.workers, sync=LeagueStep(league),
                           collect=config.collect,
                           collect_seed=RunSeeds(config.seed).spawn("collect"))
    if config.vec_env == "subproc":
        return LeagueSubprocVecEnv(fns, LeagueStep(league))
    vec_class = {"dummy": DummyVecEnv, "batched": BatchedOpponentsVecEnv}[config.vec_env]
    return vec_class(fns)


def evaluate_model(model: Any, config: TrainConfig, games: int, seeds: int | Seeds,
                   progress: bool | str = False) -> dict[str, Any]:
    """Win rate and mean rank of the model against random and against heuristic opponents
    (the same games' seeds for both; the opponent in seat ``i`` seeded by ``seeds`` by its
    kind and ``i``). ``progress``: a progress bar per table, labelled with this text and the
    opponents (``True``: "evaluate")."""
    seeds = as_seeds(seeds)
    learner = PolicyAgent.from_model(model)
    n = config.players
    out: dict[str, Any] = {}
    for name, make in (("random", lambda i: RandomAgent(seeds.spawn("random", i))),
                       ("heuristic",
                        lambda i: make_heuristic(config.game, seeds.spawn("heuristic", i)))):
        agents = [learner] + [make(i) for i in range(1, n)]
        labels = ["learner"] + [f"{name}#{i}" for i in range(1, n)]
        results = play_tournament(config.game, n, agents, labels, games,
                                  seed=seeds.spawn("games"),
                                  progress=_label(progress, f"agent vs {name}"),
                                  obs_encoder=config.encoder, **config.env)
        out[f"vs_{name}"] = [r.summary() for r in results]
        out[f"win_rate_vs_{name}"] = results[0].win_rate
        out[f"win_rate_vs_{name}_lo"], out[f"win_rate_vs_{name}_hi"] = \
            results[0].win_interval()
        out[f"mean_rank_vs_{name}"] = float(np.mean(results[0].ranks))
    return out


def evaluate_heuristic(config: TrainConfig, games: int, seeds: int | Seeds,
                       progress: bool | str = False) -> dict[str, Any]:
    """The heuristic against random players: the bar a trained agent is read against (with
    ``seeds``, the games and random players of :func:`evaluate_model`'s; ``progress`` as
    there)."""
    seeds = as_seeds(seeds)
    n = config.players
    agents = [make_heuristic(config.game, seeds.spawn("heuristic", 0))] + [
        RandomAgent(seeds.spawn("random", i)) for i in range(1, n)]
    labels = ["heuristic"] + [f"random#{i}" for i in range(1, n)]
    results = play_tournament(config.game, n, agents, labels, games,
                              seed=seeds.spawn("games"),
                              progress=_label(progress, "heuristic vs random"),
                              obs_encoder=config.encoder, **config.env)
    lo, hi = results[0].win_interval()
    return {"heuristic_vs_random": [r.summary() for r in results],
            "win_rate_heuristic_vs_random": results[0].win_rate,
            "win_rate_heuristic_vs_random_lo": lo, "win_rate_heuristic_vs_random_hi": hi}


def _label(progress: bool | str, table: str) -> str | bool:
    """The progress bar's label of one evaluation table (``False``: no bar)."""
    if not progress:
        return False
    return f"{'evaluate' if progress is True else progress}: {table}"


def rollout_steps(config: TrainConfig) -> int:
    """Env steps in one PPO rollout (``ppo.n_steps`` per env times ``n_envs``): PPO collects
    whole rollouts, so a run's steps are a multiple of this."""
    return config.ppo.n_steps * config.n_envs


def planned_steps(config: TrainConfig, start: int = 0) -> int:
    """The step count a run from ``start`` ends at: ``total_steps`` rounded up to whole
    rollouts after ``start`` (PPO stops only between rollouts)."""
    remaining = config.total_steps - start
    if remaining <= 0:
        return start
    rollout = rollout_steps(config)
    return start + -(-remaining // rollout) * rollout


def progress_bar_callback(total: int, start: int = 0):
    """The training bar: env steps from ``start`` up to ``total`` (the steps PPO will run,
    :func:`planned_steps`), so that it ends at 100% and never past it. tqdm, as the
    evaluation bars."""
    from stable_baselines3.common.callbacks import BaseCallback

    class StepsBar(BaseCallback):
        def _on_training_start(self) -> None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=start, desc="train", unit="step",
                            unit_scale=True, dynamic_ncols=True)

        def _on_step(self) -> bool:
            self.bar.update(min(self.training_env.num_envs, total - self.bar.n))
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    return StepsBar()


def rate_league(model: Any, league: League, config: TrainConfig, newest: str, games: int,
                seeds: int | Seeds) -> None:
    """Rating games between the current policy (as the snapshot ``newest``) and members of
    the league drawn uniformly; every player's OpenSkill rating is updated. Every player is
    an agent of its own (not one that training opponents play), so the rating games change
    nothing in training."""
    if games <= 0:
        return
    seeds = as_seeds(seeds)
    lineups = league.rating_lineups(newest, games, config.players, seeds.rng("lineups"))
    env = make_raw_env(config.game, config.players, obs_encoder=config.encoder, **config.env)
    current = PolicyAgent.from_model(model)
    agents = {"random": RandomAgent(seeds.spawn("agent", "random")),
              "heuristic": make_heuristic(config.game, seeds.spawn("agent", "heuristic"))}
    for spec in config.league.rated:
        agents[spec] = make_agent(spec, config.game, seed=seeds.spawn("agent", spec))
    for name in sorted({n for lineup in lineups for n in lineup}):
        if name != newest and name not in agents:  # snapshots: agents of their own
            agents[name] = league.rating_agent(name, seed=seeds.spawn("agent", name))
    ranks = []
    for g, lineup in enumerate(lineups):
        seat_agents = [current if name == newest else agents[name] for name in lineup]
        ranks.append(ranks_of(play_game(env, seat_agents, seed=seeds.spawn("game", g))))
    league.rate(lineups, ranks)


def _atomic_save(model: Any, path: Path, spec: dict[str, Any] | None = None) -> None:
    """Write a model file atomically: a temporary file, then a rename. The temporary name
    ends in ``.tmp``, so that no ``*.zip`` pattern (snapshots, checkpoints) matches it.
    ``spec``: the env it plays, saved in the zip with what loads it without unpickling
    (:func:`~primeval.training.agents.checkpoint.save_model`)."""
    if spec is None:
        write_atomically(path, model.save)
    else:
        write_atomically(path, lambda tmp: save_model(model, tmp, spec))


def config_env_spec(config: TrainConfig) -> dict[str, Any]:
    """The env spec a run's checkpoints carry (game, version, players, encoder, env)."""
    return env_spec(config.game, config.players, config.encoder, config.env)


def build_callback(config: TrainConfig, run_dir: Path, start_wall: float, progress: bool,
                   league: League):
    from stable_baselines3.common.callbacks import BaseCallback

    seeds = RunSeeds(config.seed)

    records = config.vec_env != "subproc"  # the league sees the episodes of its own process
    snapshots = config.uses_self_play
    spec = config_env_spec(config)

    class RunCallback(BaseCallback):
        """Checkpoints (between rollouts), self-play snapshots, the league's counts and
        periodic evaluation, by step counts; stops training when ``stop_requested`` is set
        (by Ctrl-C)."""

        def __init__(self) -> None:
            super().__init__()
            self.last_checkpoint = self.last_snapshot = self.last_eval = 0
            self.rollout_start = 0
            self.stop_requested = False
            self.t0 = time.perf_counter()
            self.steps0 = 0

        def _on_training_start(self) -> None:
            n = self.model.num_timesteps
            self.last_checkpoint = self.last_snapshot = self.last_eval = n
            self.rollout_start = self.steps0 = n
            if n == 0:  # the curve starts where the untrained (imitated, or prior) policy is
                self.evaluate()

        def _on_rollout_start(self) -> None:
            # Here every counted step has been learnt from: a consistent checkpoint.
            self.rollout_start = self.model.num_timesteps
            if hasattr(self.model.policy, "prior_weight"):
                self.logger.record("train/prior_weight", self.model.policy.prior_weight)
            if self.rollout_start - self.last_checkpoint >= config.checkpoint_every:
                self.save_checkpoint()

        def _on_step(self) -> bool:
            if self.stop_requested:
                return False
            n = self.num_timesteps
            league.step = n
            if records:
                for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                    if done and "opponents" in info:
                        league.record(info)
            if snapshots and n - self.last_snapshot >= config.self_play.snapshot_every:
                self.snapshot()
            if n - self.last_eval >= config.eval.every:
                self.last_eval = n
                self.evaluate()
            return True

        def snapshot(self) -> str:
            """Save the current policy as a snapshot member of the league; its name."""
            n = self.model.num_timesteps
            self.last_snapshot = n
            name = f"step_{n}"
            if name not in league.members:
                path = run_dir / "snapshots" / f"{name}.zip"
                _atomic_save(self.model, path, spec)
                league.add_snapshot(n, path)
            return name

        def save_checkpoint(self) -> None:
            n = self.model.num_timesteps
            self.last_checkpoint = n
            _atomic_save(self.model, run_dir / "checkpoints" / "latest.zip", spec)
            league.save()
            atomic_json({"num_timesteps": n}, run_dir / "checkpoints" / "progress.json")

        def evaluate(self) -> None:
            n = self.num_timesteps
            rate = (n - self.steps0) / max(1e-9, time.perf_counter() - self.t0)
            result = evaluate_model(self.model, config, config.eval.games,
                                    seeds.child("evaluation", n),
                                    progress=progress and f"step {n:,}")
            newest = self.snapshot()
            rate_league(self.model, league, config, newest, config.league.rating_games,
                        seeds.child("rating_games", n))
            result.update(league_ratings(league, newest))
            row = {"step": n, "wall_seconds": round(time.time() - start_wall, 1),
                   "env_steps_per_second": round(rate, 1),
                   **{k: round(result[k], 4) for k in EVAL_FIELDS}}
            append_metrics(run_dir / "metrics.csv", row)
            append_ratings(run_dir / "ratings.csv", n, league)
            for key in EVAL_FIELDS:
                self.logger.record(f"eval/{key}", result[key])
            if progress:
                print(f"  step {n}: win rate vs random {row['win_rate_vs_random']:.2f}, "
                      f"vs heuristic {row['win_rate_vs_heuristic']:.2f} "
                      f"({rate:.0f} env steps/s)", flush=True)

    return RunCallback()


def imitate(model: Any, config: TrainConfig, run_dir: Path, progress: bool) -> dict[str, Any]:
    """Imitation of the heuristic before PPO (``config.pretrain``); the figures go to
    ``pretrain.json``."""
    from primeval.training.ppo.imitation import demonstrations, pretrain

    p = config.pretrain
    t0 = time.perf_counter()
    seeds = RunSeeds(config.seed).child("imitation")
    data = demonstrations(config.game, config.players, p.games, seed=seeds.child("games"),
                          obs_encoder=config.encoder, **config.env)
    collected = time.perf_counter() - t0
    stats = pretrain(model, data, p.epochs, p.batch_size, p.learning_rate,
                     seed=seeds.spawn("shuffle"))
    stats.update({"collect_seconds": round(collected, 1),
                  "seconds": round(time.perf_counter() - t0, 1)})
    atomic_json(stats, run_dir / "pretrain.json")
    if progress:
        print(f"imitated the heuristic: {stats['samples']} decisions of {p.games} games, "
              f"accuracy {stats['accuracy']:.3f} ({stats['seconds']} s)", flush=True)
    return stats


def train(config: TrainConfig, run_dir: str | Path, resume: bool = False,
          progress: bool = True, trust_checkpoint: bool = False) -> dict[str, Any]:
    """Train (or resume) a run; returns the final evaluation. ``trust_checkpoint``: on
    ``resume``, load checkpoints and snapshots that need unpickling (see
    :mod:`~primeval.training.agents.checkpoint`)."""
    import torch
    from stable_baselines3.common.vec_env import VecMonitor

    from primeval.training.agents.policy import CheckpointError
    from primeval.training.ppo.torch_runtime import (
        distribution_checks_off,
        phase_threads_callback,
        torch_threads,
    )

    run_dir = Path(run_dir)
    torch.set_num_threads(config.torch_threads)
    for sub in ("checkpoints", "snapshots", "tb"):
        (run_dir / sub).mkdir(parents=True, exist_ok=True)
    for sub in ("checkpoints", "snapshots"):
        for partial in (run_dir / sub).glob("*.tmp"):  # a write cut short by a kill
            partial.unlink()
    latest = run_dir / "checkpoints" / "latest.zip"
    if resume and not latest.is_file():
        raise CheckpointError(f"--resume {run_dir}: no checkpoint at {latest}")
    league = League(config, run_dir, trust_checkpoint=trust_checkpoint)
    if resume and (run_dir / "league.json").is_file():
        try:
            league.load()
        except ValueError as exc:
            raise CheckpointError(f"--resume {run_dir}: {exc}") from None
    vec = VecMonitor(make_vec_env(config, league))
    start_wall = time.time()
    if resume:
        try:
            saved = read_env_spec(latest)
            diff = saved and spec_mismatch(saved, config_env_spec(config))
            if diff:
                raise CheckpointError(f"checkpoint {latest} cannot be loaded for this "
                                      f"run's config: it was trained on {diff}")
            model = load_model(latest, env=vec, device="cpu", trust_checkpoint=trust_checkpoint,
                               tensorboard_log=str(run_dir / "tb"))
        except CheckpointError as exc:
            vec.close()
            raise type(exc)(f"--resume {run_dir}: {exc}") from None
        set_unsaved_settings(model, config)
        print(f"resuming {run_dir} from its checkpoint at step {model.num_timesteps}",
              flush=True)
    else:
        model = new_model(config, vec, tensorboard_log=str(run_dir / "tb"))
    save_config(config, run_dir / "config.yaml")  # only once the run can go ahead
    if not resume and config.pretrain.games > 0:
        imitate(model, config, run_dir, progress)
    league.set_current(PolicyAgent.from_model(model, deterministic=False,
                                              seed=RunSeeds(config.seed).spawn("opponents")))
    if config.collect == "rollout":  # the workers' copies (self-play seats) before the reset
        from primeval.training.ppo.collect import games_vec_env

        games_vec_env(vec).share_policy(model.policy)
    remaining = config.total_steps - model.num_timesteps
    planned = planned_steps(config, model.num_timesteps)
    if progress and planned != config.total_steps and remaining > 0:
        print(f"PPO collects whole rollouts of {config.ppo.n_steps} steps x {config.n_envs} "
              f"envs = {rollout_steps(config):,} steps: training runs to step {planned:,} "
              f"(total_steps {config.total_steps:,} rounded up)", flush=True)
    callback = build_callback(config, run_dir, start_wall, progress, league)
    callbacks = [callback, phase_threads_callback(config.torch_threads)]
    if progress:  # after the callback, so that the step-0 evaluation's bars come first
        callbacks.append(progress_bar_callback(planned, model.num_timesteps))
    t0 = time.perf_counter()
    if remaining > 0:
        with _stop_on_sigint(callback), distribution_checks_off():
            model.learn(total_timesteps=remaining, callback=callbacks,
                        reset_num_timesteps=not resume, tb_log_name="ppo")
    if callback.stop_requested and model.num_timesteps < config.total_steps:
        stopped = model.num_timesteps
        model.num_timesteps = callback.rollout_start  # the unfinished rollout is not learnt
        callback.save_checkpoint()
        vec.close()
        raise TrainingInterrupted(
            f"interrupted at step {stopped}; checkpoint saved at step {model.num_timesteps} "
            f"(the unfinished rollout is dropped) in {latest}; continue with "
            f"`primeval train --resume {run_dir}`")
    seconds = time.perf_counter() - t0
    callback.save_checkpoint() if remaining > 0 else None
    _atomic_save(model, run_dir / "model.zip", config_env_spec(config))
    vec.close()
    with torch_threads(1):
        seeds = RunSeeds(config.seed)
        label = progress and "final"
        newest = callback.snapshot()  # the final policy, rated in the league as it is
        rate_league(model, league, config, newest, config.league.rating_games,
                    seeds.child("rating_games", "final"))
        ratings = league_ratings(league, newest)
        selection = None
        if config.select.snapshots or config.select.average:
            selection = choose_model(model, config, run_dir, progress)
        if progress:
            print(f"final evaluation: {config.eval.final_games} games per table, 3 tables "
                  "(fewer: eval.final_games, or --eval-games N)", flush=True)
        final = evaluate_model(model, config, config.eval.final_games,
                               seeds.child("final_evaluation"), progress=label)
        final.update(evaluate_heuristic(config, config.eval.final_games,
                                        seeds.child("final_evaluation"), progress=label))
    final.update(ratings)
    if selection is not None:
        final["selection"] = selection
    league.save()
    append_ratings(run_dir / "ratings.csv", int(model.num_timesteps), league)
    final.update({"game": config.game, "players": config.players,
                  "total_steps": int(model.num_timesteps),
                  "train_seconds": round(seconds, 1),
                  "env_steps_per_second": round(max(remaining, 0) / max(seconds, 1e-9), 1),
                  "seed": config.seed})
    atomic_json(final, run_dir / "eval.json")
    (run_dir / "summary.md").write_text(summary_table(final) + "\n", encoding="utf-8")
    append_metrics(run_dir / "metrics.csv", {
        "step": int(model.num_timesteps), "wall_seconds": round(time.time() - start_wall, 1),
        "env_steps_per_second": final["env_steps_per_second"],
        **{k: round(final[k], 4) for k in EVAL_FIELDS}})
    plot_learning_curve(run_dir / "metrics.csv", run_dir / "learning_curve.png",
                        f"{config.game}, {config.players} players: {algorithm_name(config)}",
                        players=config.players, final=final, eval_games=config.eval.games,
                        rated=config.league.rating_games > 0)
    return final


def choose_model(model: Any, config: TrainConfig, run_dir: Path,
                 progress: bool = False) -> dict[str, Any]:
    """``select``: compare the final policy with the newest snapshots and, with
    ``select.average``, the mean of the last policies
    (:func:`~primeval.training.ppo.select.select_policy`); if another than the final one
    won, load its weights into ``model`` and write it as ``model.zip``. Writes ``selection.json``; the
    checkpoint (what ``--resume`` continues) stays the final policy."""
    from primeval.training.agents.checkpoint import load_model
    from primeval.training.ppo.select import select_policy, summary_line

    selection = select_policy(config, run_dir, model, int(model.num_timesteps),
                              progress=progress and "select")
    if selection["file"] is not None:
        chosen = load_model(run_dir / selection["file"])
        model.policy.load_state_dict(chosen.policy.state_dict())
        _atomic_save(model, run_dir / "model.zip", config_env_spec(config))
    atomic_json(selection, run_dir / "selection.json")
    if progress:
        print(summary_line(selection), flush=True)
    return selection


def select_finished_run(run_dir: str | Path, overrides: dict[str, Any] | None = None,
                        evaluate: bool = False, progress: bool = False,
                        trust_checkpoint: bool = False) -> dict[str, Any]:
    """``select`` for a finished run (``primeval select RUN``): the final policy is
    ``checkpoints/latest.zip``; ``model.zip`` becomes the chosen file and ``selection.json``
    is written; with ``evaluate`` the final evaluation is played again with it
    (:func:`evaluate_chosen`). Returns the selection."""
    import shutil

    from primeval.training.agents.policy import CheckpointError
    from primeval.training.config import ConfigError
    from primeval.training.ppo.select import select_policy
    from primeval.training.ppo.torch_runtime import torch_threads

    run = Path(run_dir)
    if not (run / "config.yaml").is_file():
        raise CheckpointError(f"{run}: no config.yaml (not a primeval train run folder)")
    config = resume_config(run, **(overrides or {}))
    progress_file = run / "checkpoints" / "progress.json"
    final = run / "checkpoints" / "latest.zip"
    if not final.is_file() or not progress_file.is_file():
        raise CheckpointError(f"{run}: no checkpoints/latest.zip and progress.json (not a "
                              "finished primeval train run)")
    if config.select.snapshots < 1 and config.select.average < 2:
        raise ConfigError("select.snapshots and select.average are 0: nothing to choose "
                          "from (give --set select.snapshots=K or --set select.average=K)")
    try:
        step = json.loads(progress_file.read_text(encoding="utf-8"))["num_timesteps"]
    except (ValueError, KeyError, TypeError):
        step = None
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise CheckpointError(f"{progress_file}: no whole num_timesteps")
    with torch_threads(1):
        selection = select_policy(config, run, final, step,
                                  progress=progress and "select",
                                  trust_checkpoint=trust_checkpoint)
        chosen = final if selection["file"] is None else run / selection["file"]
        write_atomically(run / "model.zip", lambda tmp: shutil.copyfile(chosen, tmp))
        atomic_json(selection, run / "selection.json")
        if evaluate:
            evaluate_chosen(config, run, run / "model.zip", selection, progress=progress)
    return selection


def evaluate_chosen(config: TrainConfig, run_dir: Path, model_path: Path,
                    selection: dict[str, Any], progress: bool = False) -> dict[str, Any]:
    """The final evaluation's tables for ``model_path`` (the run's ``final_evaluation``
    seeds, as :func:`train` plays them after ``select``), merged into the run's
    ``eval.json`` (its training figures and ratings kept); writes ``eval.json`` and
    ``summary.md``."""
    from primeval.training.agents.checkpoint import load_model

    path = run_dir / "eval.json"
    final = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    seeds = RunSeeds(config.seed).child("final_evaluation")
    label = progress and "final"
    model = load_model(model_path)
    final.update(evaluate_model(model, config, config.eval.final_games, seeds, progress=label))
    final.update(evaluate_heuristic(config, config.eval.final_games, seeds, progress=label))
    final["selection"] = selection
    atomic_json(final, path)
    if {"game", "players", "seed", "total_steps", "train_seconds"} <= set(final):
        (run_dir / "summary.md").write_text(summary_table(final) + "\n", encoding="utf-8")
    return final


@contextlib.contextmanager
def _stop_on_sigint(callback: Any):
    """While training: the first Ctrl-C asks the callback to stop (training then ends at the
    next environment step); a second one raises KeyboardInterrupt as usual."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set in the main thread
        return

    def request_stop(signum: int, frame: Any) -> None:
        callback.stop_requested = True
        signal.signal(signal.SIGINT, signal.default_int_handler)
        # os.write: print() could be in the middle of a write to the same stream
        os.write(2, b"\nprimeval train: stopping, saving a checkpoint (Ctrl-C again to abort "
                    b"without saving)\n")

    previous = signal.signal(signal.SIGINT, request_stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def resume_config(run_dir: str | Path, **overrides: Any) -> TrainConfig:
    """The saved configuration of a run, with overrides (e.g. a larger ``total_steps``)."""
    path = Path(run_dir) / "config.yaml"
    if not path.is_file():
        from primeval.training.agents.policy import CheckpointError

        raise CheckpointError(f"--resume {run_dir}: no config.yaml in the run folder")
    return load_config(path, **overrides)
