"""The PettingZoo contract of ``origin_v0``."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from primeval.envs import origin_v0
from primeval.envs.core.errors import IllegalActionError
from primeval.envs.origin.encoders import FlatEncoder
from primeval.envs.origin.rules import OriginRules


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("encoder", ["flat", "graph"])
def test_pettingzoo_api_test(num_players, encoder):
    """PettingZoo's api_test passes for 2, 3 and 4 players and both encoders."""
    api_test(origin_v0.env(num_players=num_players, obs_encoder=encoder), num_cycles=300)


def test_flat_encoder_with_the_map_plugs_in_as_an_instance():
    """``FlatEncoder(rules, include_static=True)`` (the map's colours, continents and strait
    ends kept) is passed to ``env()`` ready-built and passes api_test, 966 values longer."""
    rules = OriginRules(num_players=3)
    env = origin_v0.env(num_players=3, obs_encoder=FlatEncoder(rules, include_static=True))
    api_test(env, num_cycles=100)
    lean = origin_v0.env(num_players=3)
    assert (env.observation_space("player_0")["observation"].shape[0]
            == lean.observation_space("player_0")["observation"].shape[0] + 966)


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("encoder", ["flat", "graph"])
def test_pettingzoo_seed_test(num_players, encoder):
    """PettingZoo's seed_test: the same seed gives the same game."""
    seed_test(functools.partial(origin_v0.env, num_players=num_players, obs_encoder=encoder),
              num_cycles=300)


def test_metadata_agents_and_infos():
    """Metadata, agents player_0..n-1, infos name the phase and the decision."""
    env = origin_v0.env(num_players=4)
    env.reset(seed=0)
    assert env.metadata["name"] == "origin_v0"
    assert env.metadata["is_parallelizable"] is False
    assert env.possible_agents == [f"player_{i}" for i in range(4)]
    info = env.infos[env.agent_selection]
    assert info["phase"] == "setup" and info["decision"] == "keep_objective"


def test_mask_int8_and_zero_for_agents_not_to_act():
    """int8 masks; all zeros except for the agent to act."""
    env = origin_v0.raw_env(num_players=3)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(150):
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            assert mask.dtype == np.int8
            assert (mask.sum() > 0) == (agent == env.agent_selection)
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_illegal_action_raises_clearly_and_changes_nothing():
    """The raw env raises IllegalActionError naming the action, its meaning, the phase and
    legal choices; the state is unchanged."""
    env = origin_v0.raw_env(num_players=3)
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = env.game_state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    text = str(err.value)
    assert str(bad) in text and env.unwrapped.rules.layout.describe(bad) in text
    assert "setup" in text
    assert env.game_state.to_dict() == before
    for wrong in (2.0, None, "1", True, -3, 10**6):
        with pytest.raises(IllegalActionError):
            env.step(wrong)
    assert env.game_state.to_dict() == before


def test_illegal_action_through_env_ends_the_game_with_minus_one():
    env = origin_v0.env(num_players=2)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values()) and env.rewards[agent] == -1


def test_config_overrides_and_bad_values():
    """Config fields pass through; unknown or bad ones raise ValueError naming the field."""
    env = origin_v0.raw_env(num_players=2, final_round_starts_with_trigger=True)
    assert env.unwrapped.rules.config.final_round_starts_with_trigger is True
    with pytest.raises(ValueError, match="no_such_field"):
        origin_v0.raw_env(no_such_field=1)
    with pytest.raises(ValueError, match="num_players"):
        origin_v0.raw_env(num_players=5)


def test_render_ansi():
    env = origin_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text


def test_docstring_says_the_data_is_a_reconstruction_and_lists_actions():
    doc = origin_v0.__doc__
    assert "reconstruction" in doc.lower()
    for name in origin_v0.raw_env().rules.layout.names:
        assert name in doc
