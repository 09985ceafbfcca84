"""Imitation of the heuristic before PPO (training/ppo/imitation.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from primeval.envs.games import GAMES  # noqa: E402
from primeval.training.ppo.config import ConfigError, load_config  # noqa: E402
from primeval.training.ppo.imitation import demonstrations, pretrain  # noqa: E402
from primeval.training.ppo.masking import MaskedActorCriticPolicy  # noqa: E402
from primeval.training.ppo.train import train  # noqa: E402
from primeval.wrappers.single_agent import SingleAgentEnv  # noqa: E402


@pytest.mark.parametrize("game", sorted(GAMES))
def test_demonstrations_hold_the_heuristics_choices_with_the_seats_final_reward(game):
    data = demonstrations(game, 3, games=2, seed=5)
    n = len(data)
    assert n > 50 and data.games == 2
    assert data.observations.shape[0] == data.masks.shape[0] == data.returns.shape[0] == n
    assert data.masks[np.arange(n), data.actions].all()  # every action was legal
    assert (data.masks.sum(1) > 1).all()  # forced decisions are left out
    assert data.returns.min() >= -1 and data.returns.max() <= 1
    again = demonstrations(game, 3, games=2, seed=5)
    assert np.array_equal(again.actions, data.actions)  # seeded


def test_pretraining_makes_the_policy_play_as_the_heuristic_does():
    game = GAMES["origin"]
    data = demonstrations("origin", 3, games=6, seed=0)
    model = MaskablePPO(MaskedActorCriticPolicy, SingleAgentEnv(game.raw_env(3)), seed=0,
                        device="cpu", policy_kwargs={"net_arch": [64]})
    before = pretrain(model, data, epochs=0, batch_size=256, learning_rate=1e-3)
    after = pretrain(model, data, epochs=6, batch_size=256, learning_rate=3e-3)
    assert after["accuracy"] > before["accuracy"] + 0.2
    assert after["samples"] == len(data)


def test_a_bad_pretrain_section_is_refused():
    with pytest.raises(ConfigError, match="pretrain: games=-1"):
        load_config(None, **{"pretrain.games": -1})
    with pytest.raises(ConfigError, match="pretrain: epochs=0"):
        load_config(None, **{"pretrain.epochs": 0})


@pytest.mark.slow
def test_a_run_with_pretraining_records_it_and_evaluates_before_ppo(tmp_path):
    config = load_config("configs/origin/default.yaml", **{"prior.agent": "none",
        "total_steps": 512, "n_envs": 2, "ppo.n_steps": 256, "ppo.batch_size": 256,
        "ppo.n_epochs": 1, "eval.every": 100_000, "eval.games": 2, "eval.final_games": 2,
        "select.games": 2, "network.net_arch": [16], "torch_threads": 1,
        "league.rating_games": 0,
        "pretrain.games": 2, "pretrain.epochs": 1})
    train(config, tmp_path / "run", progress=False)
    stats = json.loads((tmp_path / "run" / "pretrain.json").read_text())
    assert stats["games"] == 2 and 0 <= stats["accuracy"] <= 1
    rows = (tmp_path / "run" / "metrics.csv").read_text().splitlines()
    assert rows[1].startswith("0,")  # the evaluation of imitation alone, at step 0
