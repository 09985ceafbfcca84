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
