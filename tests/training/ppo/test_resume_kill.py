"""`primeval train` killed mid-run (SIGINT or SIGKILL) and continued with `--resume`.

The resumed run starts from the last checkpoint (no checkpoint seen before the kill is lost;
Ctrl-C loses less than one rollout), finishes with exactly the configured total steps, and
never takes a file cut short by the kill for a checkpoint or a self-play snapshot.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from primeval.training.ppo.config import load_config
from primeval.training.ppo.league import League
from primeval.training.ppo.train import _atomic_save

N_ENVS, N_STEPS = 2, 128
ROLLOUT = N_ENVS * N_STEPS  # steps between two updates
# Not a multiple of ROLLOUT: checkpoints are still taken between rollouts (every 2 here), so
# that --resume ends at TOTAL exactly.
CHECKPOINT_EVERY = 3 * ROLLOUT // 2
TOTAL = 16 * ROLLOUT
KILL_AFTER = 4 * ROLLOUT - 1  # kill once progress.json shows at least this step
CONFIG = {
    "game": "primordial_soup", "players": 3, "encoder": "flat", "total_steps": TOTAL,
    "n_envs": N_ENVS, "vec_env": "dummy", "seed": 0, "checkpoint_every": CHECKPOINT_EVERY,
    "torch_threads": 1,
    "opponents": {"random": 0.5, "heuristic": 0.0, "self_play": 0.5},
    "self_play": {"snapshot_every": CHECKPOINT_EVERY, "keep": 2},
    "eval": {"every": 10 * TOTAL, "games": 2, "final_games": 2},
    "network": {"net_arch": [16], "activation": "tanh"},
    "ppo": {"n_steps": N_STEPS, "batch_size": ROLLOUT, "n_epochs": 1},
}


def primeval(*args: str) -> list[str]:
    return [sys.executable, "-m", "primeval.training.cli", *args]


def steps_in(model_zip: Path) -> int:
    """``num_timesteps`` of a saved model, after checking every member of the zip."""
    with zipfile.ZipFile(model_zip) as archive:
        assert archive.testzip() is None, f"{model_zip} has a corrupt member"
        return json.loads(archive.read("data"))["num_timesteps"]


def progress(run: Path) -> int | None:
    try:
        return json.loads((run / "checkpoints" / "progress.json").read_text())["num_timesteps"]
    except (FileNotFoundError, json.JSONDecodeError):
        return None


class DiedWhileSaving(Exception):
    pass


class DiesWhileSaving:
    """A model whose save writes part of a file and then stops, as a kill would."""

    def save(self, path) -> None:
        Path(path).write_bytes(b"PK\x03\x04 cut short")
        raise DiedWhileSaving


def start_and_kill(tmp_path: Path, sig: signal.Signals, vec_env: str = "dummy"
                   ) -> tuple[Path, int, subprocess.Popen]:
    """Start a training run, send ``sig`` once a checkpoint at KILL_AFTER or later is written;
    returns the run folder, the checkpoint step seen just before the signal, the process.

    The signal goes to the run's whole process group (its SubprocVecEnv workers too), as a
    terminal's Ctrl-C does."""
    config = tmp_path / "tiny.yaml"
    opponents = ({"opponents": {"random": 1.0, "heuristic": 0.0, "self_play": 0.0}}
                 if vec_env == "subproc" else {})  # self-play needs the policy in-process
    config.write_text(yaml.safe_dump({**CONFIG, "vec_env": vec_env, **opponents}))
    run = tmp_path / "run"
    log = (tmp_path / "first.out").open("w"), (tmp_path / "first.err").open("w")
    proc = subprocess.Popen(primeval("train", "--config", str(config), "--out", str(run),
                                     "--quiet"), stdout=log[0], stderr=log[1], cwd=tmp_path,
                            start_new_session=True)
    deadline = time.monotonic() + 300  # only against a hang; the run needs a few seconds
    while (seen := progress(run)) is None or seen < KILL_AFTER:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"training ended (code {proc.returncode}) or hung before step "
                        f"{KILL_AFTER}: {(tmp_path / 'first.err').read_text()[-3000:]}")
        time.sleep(0.02)
    os.killpg(proc.pid, sig)
    proc.wait(timeout=120)
    for f in log:
        f.close()
    assert seen < TOTAL, "the run was nearly done before the signal: raise TOTAL"
    return run, seen, proc


def resume_and_check(tmp_path: Path, run: Path, checkpoint: int) -> None:
    """Resume; it starts at ``checkpoint`` and ends at TOTAL with valid files only."""
    done = subprocess.run(primeval("train", "--resume", str(run), "--quiet"), cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"resuming {run} from its checkpoint at step {checkpoint}\n" in done.stdout
    assert progress(run) == TOTAL
    assert steps_in(run / "checkpoints" / "latest.zip") == TOTAL
    assert steps_in(run / "model.zip") == TOTAL
    assert json.loads((run / "eval.json").read_text())["total_steps"] == TOTAL
    snapshots = sorted((run / "snapshots").iterdir())
    assert snapshots and all(re.fullmatch(r"step_\d+\.zip", p.name) for p in snapshots)
    for snapshot in snapshots:
        steps_in(snapshot)
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["latest.zip",
                                                                       "progress.json"]


@pytest.mark.slow
@pytest.mark.parametrize("vec_env", ["dummy", "batched", "subproc"])
def test_sigint_saves_a_checkpoint_exits_130_and_resume_finishes(tmp_path, vec_env):
    run, seen, proc = start_and_kill(tmp_path, signal.SIGINT, vec_env)
    err = (tmp_path / "first.err").read_text()
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in err
    found = re.search(r"interrupted at step (\d+); checkpoint saved at step (\d+) .*"
                      r"continue with `primeval train --resume (.+)`", err)
    assert found, err[-3000:]
    stopped, saved = int(found[1]), int(found[2])
    assert found[3] == str(run)
    # The checkpoint is the last finished rollout: only the unfinished one is lost, which is
    # less than a checkpoint interval, and no checkpoint seen before the signal is lost.
    assert saved % ROLLOUT == 0 and 0 <= stopped - saved < ROLLOUT <= CHECKPOINT_EVERY
    assert saved >= seen
    assert steps_in(run / "checkpoints" / "latest.zip") == saved == progress(run)
    assert not (run / "model.zip").exists()
    resume_and_check(tmp_path, run, saved)


@pytest.mark.slow
def test_sigkill_then_resume_from_the_last_checkpoint(tmp_path):
    run, seen, proc = start_and_kill(tmp_path, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    latest = run / "checkpoints" / "latest.zip"
    checkpoint = steps_in(latest)
    # Checkpoints are taken between rollouts; the one seen before the kill (or a later one)
    # is there. progress.json is written after the model, so it may lag by one checkpoint.
    assert checkpoint % ROLLOUT == 0 and checkpoint >= seen
    assert progress(run) in (checkpoint, checkpoint - 2 * ROLLOUT)
    # A kill in the middle of writing a snapshot or the checkpoint leaves a partial temporary
    # file and the previous file untouched; neither file is ever loaded.
    before, files = latest.read_bytes(), set(run.rglob("*"))
    for target in (run / "snapshots" / "step_99999999.zip", latest):
        with pytest.raises(DiedWhileSaving):
            _atomic_save(DiesWhileSaving(), target)
    assert latest.read_bytes() == before
    assert not (run / "snapshots" / "step_99999999.zip").exists()
    partial = set(run.rglob("*")) - files
    assert len(partial) == 2
    resume_and_check(tmp_path, run, checkpoint)
    assert not partial & set(run.rglob("*")), "partial files left in the run folder"


def test_partial_snapshot_is_never_an_opponent(tmp_path):
    """A snapshot write cut short leaves no ``step_*.zip`` and no league member: self-play
    draws have no snapshot to load."""
    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()
    with pytest.raises(DiedWhileSaving):
        _atomic_save(DiesWhileSaving(), snapshots / "step_512.zip")
    assert len(list(snapshots.iterdir())) == 1  # the partial file
    league = League(load_config(None, **{"opponents.random": 0.0,
                                         "opponents.self_play": 1.0}), tmp_path)
    assert league.snapshots() == [] and league.snapshot_weights() == {}
    assert league.draw_kind(np.random.default_rng(0)) == "random"
