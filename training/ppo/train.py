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
import csv
import dataclasses
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from primeval.envs.games import make_raw_env
from primeval.training.agents import RandomAgent, make_heuristic
from primeval.training.agents.policy import PolicyAgent
from primeval.training.agents.pool import OpponentPool
from primeval.training.evaluate import play_tournament
from primeval.training.ppo.config import TrainConfig, load_config, save_config
from primeval.wrappers.single_agent import SingleAgentEnv


class TrainingInterrupted(Exception):
    """Training was stopped by Ctrl-C (SIGINT); a checkpoint was saved (the message says where
    and how to resume)."""


METRICS_FIELDS = ("step", "wall_seconds", "env_steps_per_second", "win_rate_vs_random",
                  "win_rate_vs_heuristic", "mean_rank_vs_random", "mean_rank_vs_heuristic")


def make_training_env(config: TrainConfig, rank: int, snapshot_dir: Path | None):
    """A factory for one single-agent training env (for DummyVecEnv / SubprocVecEnv)."""

    def init() -> SingleAgentEnv:
        if config.vec_env == "subproc":  # in a worker: Ctrl-C is for the main process, which
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # stops the workers in order
        aec = make_raw_env(config.game, config.players, obs_encoder=config.encoder,
                           **config.env)
        pool = OpponentPool(config.game, dataclasses.asdict(config.opponents), snapshot_dir,
                            keep=config.self_play.keep)
        env = SingleAgentEnv(aec, opponents=pool,
                             shaping=config.shaping)
        env.reset(seed=config.seed * 1000 + rank)
        return env

    return init


def evaluate_model(model: Any, config: TrainConfig, games: int, seed: int
                   ) -> dict[str, Any]:
    """Win rate and mean rank of the model against random and against heuristic opponents."""
    learner = PolicyAgent.from_model(model)
    n = config.players
    out: dict[str, Any] = {}
    for name, make in (("random", lambda i: RandomAgent(seed + i)),
                       ("heuristic", lambda i: make_heuristic(config.game, seed + i))):
        agents = [learner] + [make(i) for i in range(1, n)]
        labels = ["learner"] + [f"{name}#{i}" for i in range(1, n)]
        results = play_tournament(config.game, n, agents, labels, games, seed=seed,
                                  obs_encoder=config.encoder, **config.env)
        out[f"vs_{name}"] = [r.summary() for r in results]
        out[f"win_rate_vs_{name}"] = results[0].win_rate
        out[f"mean_rank_vs_{name}"] = float(np.mean(results[0].ranks))
    return out


def _atomic_save(model: Any, path: Path) -> None:
    """Write a model file atomically: a temporary file, then a rename. The temporary name
    ends in ``.tmp``, so that no ``*.zip`` pattern (snapshots, checkpoints) matches it."""
    tmp = path.with_name(path.name + ".tmp")
    model.save(tmp)
    os.replace(tmp, path)


def _atomic_json(data: dict, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.replace(tmp, path)


def build_callback(config: TrainConfig, run_dir: Path, start_wall: float, progress: bool):
    from stable_baselines3.common.callbacks import BaseCallback

    class RunCallback(BaseCallback):
        """Checkpoints (between rollouts), self-play snapshots and periodic evaluation, by
        step counts; stops training when ``stop_requested`` is set (by Ctrl-C)."""

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

        def _on_rollout_start(self) -> None:
            # Here every counted step has been learnt from: a consistent checkpoint.
            self.rollout_start = self.model.num_timesteps
            if self.rollout_start - self.last_checkpoint >= config.checkpoint_every:
                self.save_checkpoint()

        def _on_step(self) -> bool:
            if self.stop_requested:
                return False
            n = self.num_timesteps
            if config.opponents.self_play > 0 and \
                    n - self.last_snapshot >= config.self_play.snapshot_every:
                self.last_snapshot = n
                _atomic_save(self.model, run_dir / "snapshots" / f"step_{n}.zip")
            if n - self.last_eval >= config.eval.every:
                self.last_eval = n
                self.evaluate()
            return True

        def save_checkpoint(self) -> None:
            n = self.model.num_timesteps
            self.last_checkpoint = n
            _atomic_save(self.model, run_dir / "checkpoints" / "latest.zip")
            _atomic_json({"num_timesteps": n}, run_dir / "checkpoints" / "progress.json")

        def evaluate(self) -> None:
            n = self.num_timesteps
            rate = (n - self.steps0) / max(1e-9, time.perf_counter() - self.t0)
            result = evaluate_model(self.model, config, config.eval.games, seed=10_000 + n)
            row = {"step": n, "wall_seconds": round(time.time() - start_wall, 1),
                   "env_steps_per_second": round(rate, 1),
                   **{k: round(result[k], 4) for k in METRICS_FIELDS[3:]}}
            append_metrics(run_dir / "metrics.csv", row)
            for key in METRICS_FIELDS[3:]:
                self.logger.record(f"eval/{key}", result[key])
            if progress:
                print(f"  step {n}: win rate vs random {row['win_rate_vs_random']:.2f}, "
                      f"vs heuristic {row['win_rate_vs_heuristic']:.2f} "
                      f"({rate:.0f} env steps/s)", flush=True)

    return RunCallback()


def append_metrics(path: Path, row: dict[str, Any]) -> None:
    new = not path.exists()
    with path.open("a", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=METRICS_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)


def plot_learning_curve(metrics: Path, out: Path, title: str) -> None:
    """Win rate vs random and vs heuristic over training steps, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader(metrics.open(encoding="utf-8"))) if metrics.exists() else []
    fig, ax = plt.subplots(figsize=(7, 4))
    if rows:
        steps = [int(r["step"]) for r in rows]
        for key, label in (("win_rate_vs_random", "vs random"),
                           ("win_rate_vs_heuristic", "vs heuristic")):
            ax.plot(steps, [float(r[key]) for r in rows], marker="o", label=label)
    ax.set_xlabel("environment steps")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def train(config: TrainConfig, run_dir: str | Path, resume: bool = False,
          progress: bool = True) -> dict[str, Any]:
    """Train (or resume) a run; returns the final evaluation."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    from primeval.training.agents.policy import CheckpointError
    from primeval.training.ppo.masking import POLICIES
    from primeval.training.ppo.torch_runtime import distribution_checks_off, phase_threads_callback

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
    snapshot_dir = run_dir / "snapshots"
    fns = [make_training_env(config, i, snapshot_dir) for i in range(config.n_envs)]
    vec = SubprocVecEnv(fns) if config.vec_env == "subproc" else DummyVecEnv(fns)
    vec = VecMonitor(vec)
    start_wall = time.time()
    if resume:
        try:
            model = MaskablePPO.load(latest, env=vec, device="cpu",
                                     tensorboard_log=str(run_dir / "tb"))
        except Exception as exc:  # noqa: BLE001
            vec.close()
            raise CheckpointError(f"--resume {run_dir}: checkpoint {latest} cannot be "
                                  f"loaded: {type(exc).__name__}: {exc}") from None
        print(f"resuming {run_dir} from its checkpoint at step {model.num_timesteps}",
              flush=True)
    else:
        activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[config.network.activation]
        ppo = config.ppo
        model = MaskablePPO(
            POLICIES[config.network.policy], vec, learning_rate=ppo.learning_rate,
            n_steps=ppo.n_steps, batch_size=ppo.batch_size, n_epochs=ppo.n_epochs, gamma=ppo.gamma,
            gae_lambda=ppo.gae_lambda, clip_range=ppo.clip_range, ent_coef=ppo.ent_coef,
            vf_coef=ppo.vf_coef, max_grad_norm=ppo.max_grad_norm,
            policy_kwargs={"net_arch": list(config.network.net_arch),
                           "activation_fn": activation},
            tensorboard_log=str(run_dir / "tb"), seed=config.seed, device="cpu", verbose=0,
        )
    save_config(config, run_dir / "config.yaml")  # only once the run can go ahead
    remaining = config.total_steps - model.num_timesteps
    callback = build_callback(config, run_dir, start_wall, progress)
    t0 = time.perf_counter()
    if remaining > 0:
        with _stop_on_sigint(callback), distribution_checks_off():
            model.learn(total_timesteps=remaining,
                        callback=[callback, phase_threads_callback(config.torch_threads)],
                        reset_num_timesteps=not resume, progress_bar=progress,
                        tb_log_name="ppo")
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
    _atomic_save(model, run_dir / "model.zip")
    vec.close()
    final = evaluate_model(model, config, config.eval.final_games, seed=123_456)
    final.update({"game": config.game, "players": config.players,
                  "total_steps": int(model.num_timesteps),
                  "train_seconds": round(seconds, 1),
                  "env_steps_per_second": round(max(remaining, 0) / max(seconds, 1e-9), 1)})
    _atomic_json(final, run_dir / "eval.json")
    append_metrics(run_dir / "metrics.csv", {
        "step": int(model.num_timesteps), "wall_seconds": round(time.time() - start_wall, 1),
        "env_steps_per_second": final["env_steps_per_second"],
        **{k: round(final[k], 4) for k in METRICS_FIELDS[3:]}})
    plot_learning_curve(run_dir / "metrics.csv", run_dir / "learning_curve.png",
                        f"{config.game}, {config.players} players: MaskablePPO")
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
