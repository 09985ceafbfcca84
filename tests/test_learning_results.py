"""The learning figures the README and docs/learning.md quote are those of the saved runs in
docs/benchmarks/learning/, and those runs are of the shipped default configs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from primeval.training.ppo.config import load_config

ROOT = Path(__file__).resolve().parents[1]
RUNS = sorted((ROOT / "docs" / "benchmarks" / "learning").glob("*/eval.json"))


def figure(result: dict, key: str) -> str:
    """A win rate and its interval as the run's summary table prints them."""
    return (f"{result[f'win_rate_{key}']:.3f} [{result[f'win_rate_{key}_lo']:.3f}, "
            f"{result[f'win_rate_{key}_hi']:.3f}]")


def test_both_games_have_two_saved_seeds():
    games = {}
    for path in RUNS:
        result = json.loads(path.read_text())
        games.setdefault(result["game"], set()).add(result["seed"])
    assert games == {"primordial_soup": {0, 1}, "origin": {0, 1}}


@pytest.mark.parametrize("path", RUNS, ids=[p.parent.name for p in RUNS])
def test_the_quoted_figures_are_the_saved_runs(path):
    result = json.loads(path.read_text())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    against_heuristic = figure(result, "vs_heuristic")
    assert against_heuristic in readme, (path, against_heuristic)
    assert against_heuristic in learning, (path, against_heuristic)
    assert figure(result, "vs_random") in learning
    summary = (path.parent / "summary.md").read_text(encoding="utf-8")
    as_table = against_heuristic.replace(" [", " | [")  # the summary's columns
    assert as_table in summary and f"seed {result['seed']}" in summary


@pytest.mark.parametrize("path", RUNS, ids=[p.parent.name for p in RUNS])
def test_the_saved_runs_are_of_the_shipped_default_configs(path):
    result = json.loads(path.read_text())
    saved = load_config(path.parent / "config.yaml")
    shipped = load_config(ROOT / "configs" / result["game"] / "default.yaml",
                          seed=result["seed"])
    # vec_env and workers choose how the games are stepped, not which: batched (the saved
    # runs') and vector (today's default) train the same weights
    # (tests/training/ppo/test_games_vec_env.py::test_batched_and_vector_train_the_same_weights)
    execution = ("vec_env", "workers")
    assert ({k: v for k, v in saved.to_dict().items() if k not in execution}
            == {k: v for k, v in shipped.to_dict().items() if k not in execution})
    assert result["total_steps"] >= shipped.total_steps
