"""The learning figures the README and docs/learning.md quote are those of the saved runs in
docs/benchmarks/learning/, and those runs are of the shipped default configs: the README
quotes held-out, pooled figures (heldout-*/), docs/learning.md those and the earlier runs'
own tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from primeval.training.ppo.config import load_config

ROOT = Path(__file__).resolve().parents[1]
RUNS = sorted((ROOT / "docs" / "benchmarks" / "learning").glob("*/eval.json"))
HELD_OUT = sorted((ROOT / "docs" / "benchmarks" / "learning").glob("heldout-*/*/heldout.json"))


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
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    against_heuristic = figure(result, "vs_heuristic")
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


def test_every_game_has_a_held_out_run():
    assert {json.loads(p.read_text())["game"] for p in HELD_OUT} == {"primordial_soup", "origin"}


@pytest.mark.parametrize("path", HELD_OUT, ids=[p.parent.name for p in HELD_OUT])
def test_the_readme_quotes_held_out_pooled_figures(path):
    """heldout.json is ``evaluate --seeds 3`` of the run's model against the heuristic bots
    at evaluation seeds no default was chosen on; the README and docs/learning.md quote its
    pooled win rate, and the run is of the shipped default config."""
    held = json.loads(path.read_text())
    agent = held["agents"][0]
    assert agent["agent"].startswith("ppo:")
    assert all(a["agent"].startswith("heuristic") for a in held["agents"][1:])
    assert len(held["seeds"]) == 3 and held["seed"] not in (0, 123456)
    assert agent["games"] == sum(p["agents"][0]["games"] for p in held["per_seed"]) >= 1200
    lo, hi = agent["win_rate_ci95"]
    quoted = f"{agent['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]"
    for page in ("README.md", "docs/learning.md"):
        assert quoted in (ROOT / page).read_text(encoding="utf-8"), (page, quoted)
    run = json.loads((path.parent / "eval.json").read_text())
    saved = load_config(path.parent / "config.yaml")
    shipped = load_config(ROOT / "configs" / run["game"] / "default.yaml", seed=run["seed"])
    assert saved.to_dict() == shipped.to_dict()
    assert run["game"] == held["game"]
