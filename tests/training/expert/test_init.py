"""Expert iteration from a saved network (``init:``): the run starts from its weights, not a
fresh initialisation; a network of another env or trunk, a missing file, or ``init`` beside a
teacher is refused by name before anything is written."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from primeval.training.config import ConfigError
from primeval.training.expert.config import load_expert_config
from primeval.training.expert.network import NetworkError, PolicyValueNetwork, load_network
from primeval.training.expert.train import config_spec, initial_network, train_expert
from primeval.training.seeding import RunSeeds

TINY = {
    "players": 4,
    "iterations": 1,
    "workers": 0,
    "network.hidden": [16],
    "learn.batch_size": 8,
    "learn.steps": 1,
    "eval.every": 0,
    "eval.final_games": 1,
    "eval.sims": 2,
    "search.sims": 2,
    "search.batch": 2,
    "games_per_iteration": 1,
    "env": {"max_steps": 60},
}


def _weights(network) -> list[np.ndarray]:
    return [t.detach().numpy().copy() for t in network.module.state_dict().values()]


def _start(tmp_path, seed: int = 7):
    config = load_expert_config("primordial_soup/expert", **TINY)
    path = tmp_path / "start.json"
    PolicyValueNetwork(config_spec(config), (16,), seed=seed).save(path)
    return path


def test_the_initial_network_is_the_file_it_names(tmp_path):
    config = load_expert_config("primordial_soup/expert", **TINY)
    saved = PolicyValueNetwork(config_spec(config), (16,), seed=7)
    saved.save(tmp_path / "start.json")
    config = load_expert_config(
        "primordial_soup/expert", **{**TINY, "init": str(tmp_path / "start.json")}
    )
    loaded = initial_network(config, config_spec(config))
    for a, b in zip(_weights(loaded), _weights(saved), strict=True):  # the saved weights
        np.testing.assert_array_equal(a, b)
    fresh = PolicyValueNetwork(config_spec(config), (16,), seed=8)
    assert any((a != b).any() for a, b in zip(_weights(loaded), _weights(fresh), strict=True))


@pytest.mark.slow
def test_a_run_with_init_starts_from_that_network(tmp_path):
    path = _start(tmp_path)
    # A learning rate of 1e-9: one Adam step moves a weight by about 1e-9, so the final
    # network is the start to within that, and far from the run's own fresh initialisation.
    overrides = {**TINY, "init": str(path), "learn.learning_rate": 1e-9}
    config = load_expert_config("primordial_soup/expert", **overrides)
    final = train_expert(config, tmp_path / "run", progress=False)
    assert final["init"] == str(path) and final["iterations"] == 1
    assert f"started from the network {path}" in (tmp_path / "run" / "summary.md").read_text()
    ended = _weights(load_network(tmp_path / "run" / "network.json"))
    for a, b in zip(ended, _weights(load_network(path)), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-6)
    fresh = PolicyValueNetwork(
        config_spec(config), (16,), seed=RunSeeds(config.seed).spawn("model")
    )
    assert any(np.abs(a - b).max() > 1e-3 for a, b in zip(ended, _weights(fresh), strict=True))


def test_init_of_another_game_is_refused_before_anything_is_written(tmp_path):
    origin = load_expert_config("primordial_soup/expert", **{**TINY, "game": "origin", "players": 3})
    path = tmp_path / "origin.json"
    PolicyValueNetwork(config_spec(origin), (16,), seed=0).save(path)
    config = load_expert_config("primordial_soup/expert", **{**TINY, "init": str(path)})
    with pytest.raises(NetworkError, match="trained on another env"):
        train_expert(config, tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()


def test_init_with_another_trunk_is_refused_by_name(tmp_path):
    path = _start(tmp_path)
    config = load_expert_config(
        "primordial_soup/expert", **{**TINY, "init": str(path), "network.hidden": [32]}
    )
    with pytest.raises(ConfigError, match=re.escape("its trunk is [16], the config's")):
        train_expert(config, tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()


def test_a_missing_init_is_refused_by_name(tmp_path):
    config = load_expert_config(
        "primordial_soup/expert", **{**TINY, "init": str(tmp_path / "none.json")}
    )
    with pytest.raises(NetworkError, match="none.json does not exist"):
        train_expert(config, tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()


def test_init_and_a_teacher_together_are_refused():
    with pytest.raises(ConfigError, match="a run starts from one of them, not both"):
        load_expert_config(
            "primordial_soup/expert",
            **{"init": "a.json", "teacher.checkpoint": "zoo:soup-4p/ppo"},
        )


def test_the_shipped_config_starts_from_the_shipped_distilled_network(monkeypatch):
    monkeypatch.chdir(Path(__file__).parents[3])  # its path is from the repository's root
    config = load_expert_config("primordial_soup/exit-distilled")
    network = initial_network(config, config_spec(config))
    assert network.spec["game"] == "primordial_soup" and network.hidden == [256, 256]
