"""Registries: PettingZoo ids, Gymnasium ids, primeval.envs.make."""

from __future__ import annotations

import gymnasium
import numpy as np
import pettingzoo
import pytest

import primeval.envs
from primeval.envs.registration import ENTRIES


@pytest.mark.parametrize(("env_id", "players"), [("primeval/primordial_soup-v0", 3),
                                                  ("primeval/origin-v0", 4)])
def test_pettingzoo_make(env_id, players):
    env = pettingzoo.make("aec", env_id, num_players=players)
    env.reset(seed=0)
    assert len(env.possible_agents) == players
    same = primeval.envs.make(env_id, num_players=players)
    same.reset(seed=0)
    assert np.array_equal(env.observe(env.agent_selection)["observation"],
                          same.observe(same.agent_selection)["observation"])


@pytest.mark.parametrize(("env_id", "players"), [("primeval/PrimordialSoup-v0", 4),
                                                  ("primeval/Origin-v0", 3)])
def test_gymnasium_make_single_agent(env_id, players):
    env = gymnasium.make(env_id, num_players=players, opponent="random")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and "seat" in info
    mask = env.unwrapped.action_masks()
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
    assert env.observation_space.contains(obs)


def test_sb3_make_vec_env():
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("primeval/PrimordialSoup-v0", n_envs=2,
                        env_kwargs={"num_players": 4, "opponent": "heuristic"})
    assert venv.reset().shape[0] == 2
    masks = venv.env_method("action_masks")
    venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    venv.close()


def test_unknown_id_is_refused():
    with pytest.raises(ValueError, match="unknown env id"):
        primeval.envs.make("primeval/chess-v0")


def test_every_entry_is_registered():
    from pettingzoo.env_registry.registration import aec_registry

    for entry in ENTRIES:
        registry = aec_registry if entry.kind == "aec" else gymnasium.registry
        assert entry.id in registry


def test_primeval_list_prints_every_id(capsys):
    from primeval.training import cli

    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for entry in ENTRIES:
        assert entry.id in out
