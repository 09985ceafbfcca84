"""A run's files (training/files.py): JSON replaced whole, CSV rows under one header."""

from __future__ import annotations

import csv
import json

import pytest

from primeval.training.files import append_row, atomic_json


def test_atomic_json_replaces_the_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "progress.json"
    atomic_json({"num_timesteps": 1}, path)
    atomic_json({"num_timesteps": 2}, path)
    assert json.loads(path.read_text(encoding="utf-8")) == {"num_timesteps": 2}
    assert [p.name for p in tmp_path.iterdir()] == ["progress.json"]


def test_append_row_writes_the_header_once_and_leaves_missing_columns_empty(tmp_path):
    path = tmp_path / "metrics.csv"
    append_row(path, ("step", "win_rate"), {"step": 0, "win_rate": 0.5})
    append_row(path, ("step", "win_rate"), {"step": 100})
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert rows == [["step", "win_rate"], ["0", "0.5"], ["100", ""]]


def test_append_row_refuses_a_column_it_does_not_have(tmp_path):
    path = tmp_path / "metrics.csv"
    append_row(path, ("step",), {"step": 0})
    before = path.read_bytes()
    with pytest.raises(ValueError, match="wins"):
        append_row(path, ("step",), {"step": 1, "wins": 3})
    assert path.read_bytes() == before


def test_the_packages_models_leave_no_folder_in_the_temp_dir(tmp_path, monkeypatch):
    """SB3 makes ``SB3-<date>`` in the temp dir for a model that learns without
    ``tensorboard_log`` (the first half: it does); a model from ``new_model`` (the profile's,
    the bench check's) learns without making one."""
    import tempfile

    from sb3_contrib import MaskablePPO

    from primeval.training.ppo.config import load_config
    from primeval.training.ppo.league import League
    from primeval.training.ppo.train import make_vec_env, new_model

    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    (tmp_path / "temp").mkdir()
    config = load_config("primordial_soup/default", n_envs=2, **{
        "ppo.n_steps": 16, "ppo.batch_size": 32, "network.net_arch": [8]})
    vec = make_vec_env(config, League(config, tmp_path / "run"))
    try:
        MaskablePPO("MlpPolicy", vec, n_steps=16, batch_size=32, device="cpu").learn(32)
        assert len(list((tmp_path / "temp").glob("SB3-*"))) == 1
        new_model(config, vec).learn(32)
        assert len(list((tmp_path / "temp").glob("SB3-*"))) == 1
    finally:
        vec.close()


def test_a_write_cut_short_leaves_the_old_file_whole(tmp_path):
    from primeval.training.files import write_atomically

    path = tmp_path / "model.zip"
    path.write_bytes(b"old")

    def cut_short(tmp):
        tmp.write_bytes(b"ne")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomically(path, cut_short)
    assert path.read_bytes() == b"old"
    write_atomically(path, lambda tmp: tmp.write_bytes(b"new"))
    assert path.read_bytes() == b"new" and not (tmp_path / "model.zip.tmp").exists()
