"""Corrupt, truncated, empty or missing checkpoints to ``evaluate``, ``play`` and ``--resume``:
exit 2 with one line naming the file and the problem; nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from primeval.training import cli
from primeval.training.ppo.config import load_config, save_config
from tests.helpers import files_in


@pytest.fixture(scope="module")
def model_zip(untrained_checkpoint) -> Path:
    """A real (untrained) MaskablePPO checkpoint of 3-player Primordial Soup."""
    return untrained_checkpoint()


BAD_CHECKPOINTS = {
    "truncated": (lambda good: good[: len(good) // 2], "cannot be loaded as a MaskablePPO "
                                                       "model"),
    "garbage": (lambda good: b"\x00not a zip at all" * 100, "cannot be loaded as a "
                                                           "MaskablePPO model"),
    "empty": (lambda good: b"", "cannot be loaded as a MaskablePPO model"),
    "missing": (None, "does not exist"),
}


def bad_checkpoint(folder: Path, model_zip: Path, kind: str) -> Path:
    path = folder / f"{kind}.zip"
    make_bytes = BAD_CHECKPOINTS[kind][0]
    if make_bytes is not None:
        path.write_bytes(make_bytes(model_zip.read_bytes()))
    return path


@pytest.mark.parametrize("kind", BAD_CHECKPOINTS)
def test_bad_checkpoint_to_evaluate(tmp_path, model_zip, kind, capsys):
    """``primeval evaluate`` with a corrupt, truncated, empty or missing checkpoint: exit 2,
    one line naming the file and the problem; no output file is written."""
    path = bad_checkpoint(tmp_path, model_zip, kind)
    before = files_in(tmp_path)
    code = cli.main(["evaluate", "--game", "primordial_soup", "--players", "3", "--agents",
                     f"ppo:{path}", "random", "random", "--games", "2", "--quiet",
                     "--json", str(tmp_path / "out.json"),
                     "--record", str(tmp_path / "games.jsonl")])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"primeval evaluate: error: checkpoint {path} ")
    assert BAD_CHECKPOINTS[kind][1] in err
    assert files_in(tmp_path) == before


def test_checkpoint_of_another_game_to_evaluate(tmp_path, model_zip, capsys):
    """A sound checkpoint of another game: exit 2 naming the game it was trained on (its
    saved env spec, read before anything loads); nothing written."""
    before = files_in(tmp_path)
    code = cli.main(["evaluate", "--game", "origin", "--players", "3", "--agents",
                     f"ppo:{model_zip}", "random", "random", "--games", "2", "--quiet",
                     "--json", str(tmp_path / "out.json")])
    assert code == 2
    assert (f"ppo:{model_zip} was trained on game 'primordial_soup', but the given game is "
            "'origin'") in capsys.readouterr().err
    assert files_in(tmp_path) == before


@pytest.mark.parametrize("kind", ["truncated", "garbage"])
def test_bad_checkpoint_to_play(tmp_path, model_zip, kind, capsys, monkeypatch):
    """``primeval play`` with a bad opponent checkpoint: exit 2 naming the file, before the
    game starts (no input is read)."""
    import io

    path = bad_checkpoint(tmp_path, model_zip, kind)
    before = files_in(tmp_path)
    stdin = io.StringIO("1\n" * 50)
    monkeypatch.setattr("sys.stdin", stdin)
    code = cli.main(["play", "--game", "primordial_soup", "--players", "3", "--opponents",
                     f"ppo:{path}", "--seed", "0"])
    assert code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"primeval play: error: checkpoint {path} cannot be "
                                   "loaded as a MaskablePPO model")
    assert stdin.tell() == 0 and "Your decision" not in captured.out
    assert files_in(tmp_path) == before


def run_folder(tmp_path: Path, checkpoint: bytes, encoder: str = "flat") -> Path:
    """A run folder of 3-player Primordial Soup as ``primeval train`` leaves it, with
    ``checkpoint`` as latest.zip."""
    run = tmp_path / "run"
    for sub in ("checkpoints", "snapshots", "tb"):
        (run / sub).mkdir(parents=True)
    config = load_config("configs/primordial_soup/default.yaml", players=3, encoder=encoder,
                         n_envs=1, total_steps=4096, torch_threads=1,
                         **{"ppo.n_steps": 64, "ppo.batch_size": 64, "network.net_arch": [8]})
    save_config(config, run / "config.yaml")
    (run / "checkpoints" / "latest.zip").write_bytes(checkpoint)
    (run / "checkpoints" / "progress.json").write_text('{"num_timesteps": 2048}')
    (run / "metrics.csv").write_text("step,wall_seconds\n2048,1.0\n")
    return run


RESUME_CASES = {
    "truncated": (lambda good: good[: len(good) // 2], "flat"),
    "garbage": (lambda good: b"PK\x03\x04 not really a zip", "flat"),
    "another_encoder": (lambda good: good, "planes"),  # a sound model of the flat encoder
}


@pytest.mark.parametrize("kind", RESUME_CASES)
def test_bad_checkpoint_to_resume(tmp_path, model_zip, kind, capsys):
    """``primeval train --resume`` with a bad latest.zip: exit 2 naming the run and the
    checkpoint; nothing in the run folder changes."""
    make_bytes, encoder = RESUME_CASES[kind]
    run = run_folder(tmp_path, make_bytes(model_zip.read_bytes()), encoder)
    before = files_in(run)
    code = cli.main(["train", "--resume", str(run), "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    latest = run / "checkpoints" / "latest.zip"
    assert f"primeval train: error: --resume {run}: checkpoint {latest} cannot be loaded" \
        in err
    assert files_in(run) == before


def test_failed_resume_leaves_the_config_alone(tmp_path, model_zip, capsys):
    run = run_folder(tmp_path, model_zip.read_bytes()[:100])
    before = files_in(run)
    assert cli.main(["train", "--resume", str(run), "--total-steps", "8192", "--quiet"]) == 2
    assert files_in(run) == before
