"""The PettingZoo contract of ``primordial_soup_v1`` (issue: Environment section)."""

from __future__ import annotations

import functools
import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from primeval.envs import primordial_soup_v1
from primeval.envs.core.errors import IllegalActionError


@pytest.mark.parametrize("num_players", [3, 4])
@pytest.mark.parametrize("encoder", ["flat", "planes", "graph"])
def test_pettingzoo_api_test(num_players, encoder):
    """PettingZoo's api_test passes for 3 and 4 players and both encoders."""
    api_test(primordial_soup_v1.env(num_players=num_players, obs_encoder=encoder),
             num_cycles=300)


@pytest.mark.parametrize("num_players", [3, 4])
@pytest.mark.parametrize("encoder", ["flat", "planes", "graph"])
def test_pettingzoo_seed_test(num_players, encoder):
    """PettingZoo's seed_test: the same seed gives the same observations and actions."""
    seed_test(functools.partial(primordial_soup_v1.env, num_players=num_players,
                                obs_encoder=encoder), num_cycles=300)


def test_metadata_and_agents():
    """Metadata names the env, it is not parallelizable, renders ansi, human and rgb_array."""
    env = primordial_soup_v1.env(num_players=3)
    env.reset(seed=0)
    assert env.metadata["name"] == "primordial_soup_v1"
    assert env.metadata["is_parallelizable"] is False
    assert env.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


def test_v0_is_retired_with_an_import_error_naming_v1():
    """v1 changed the rules (issue 15): importing v0 fails and says what to use and why."""
    import importlib
    import sys

    sys.modules.pop("primeval.envs.primordial_soup_v0", None)
    with pytest.raises(ImportError, match="primordial_soup_v1") as err:
        importlib.import_module("primeval.envs.primordial_soup_v0")
    assert "Holding with Tentacle" in str(err.value)
    assert "Defense, then Escape" in str(err.value)
    with pytest.raises(ImportError, match="use primordial_soup_v1"):
        from primeval.envs import primordial_soup_v0  # noqa: F401


def test_mask_is_int8_and_zero_for_agents_not_to_act():
    """Observations carry an int8 mask; it is all zeros for every agent but the selected."""
    env = primordial_soup_v1.raw_env(num_players=4)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(200):
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            assert mask.dtype == np.int8
            if agent == env.agent_selection:
                assert mask.sum() >= 1
            else:
                assert mask.sum() == 0
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_infos_name_phase_and_decision():
    """``infos[agent]["phase"]`` names the phase; ``"decision"`` the pending decision."""
    env = primordial_soup_v1.raw_env(num_players=4)
    env.reset(seed=2)
    info = env.infos[env.agent_selection]
    assert info["phase"] == "setup"
    assert info["decision"] == "start_space"
    seen = set()
    rng = np.random.default_rng(0)
    while env.agents and len(seen) < 4:
        seen.add(env.infos[env.agent_selection]["phase"])
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert {"setup", "movement_and_feeding"} <= seen


def test_illegal_action_raises_with_meaning_phase_and_legal_choices():
    """The raw env raises IllegalActionError naming the id, its meaning, the phase and some
    legal choices; nothing changes."""
    env = primordial_soup_v1.raw_env(num_players=4)
    env.reset(seed=3)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    agent = env.agent_selection
    before = env.game_state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        env.step(illegal)
    text = str(err.value)
    assert str(illegal) in text
    assert env.unwrapped.rules.layout.describe(illegal) in text
    assert "setup" in text
    legal = int(np.flatnonzero(mask)[0])
    assert env.unwrapped.rules.layout.describe(legal) in text
    assert env.agent_selection == agent
    assert env.game_state.to_dict() == before


@pytest.mark.parametrize("bad", [1.5, None, "3", True, 10_000, -1])
def test_bad_action_types_and_ranges_raise_clearly(bad):
    """Non-integers and out-of-range ids raise an IllegalActionError saying what is wrong."""
    env = primordial_soup_v1.raw_env(num_players=3)
    env.reset(seed=4)
    before = env.game_state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    assert "290" in str(err.value) or "int" in str(err.value)
    assert env.game_state.to_dict() == before


def test_numpy_integer_actions_are_accepted():
    """numpy integer scalars are valid actions (as policies return them)."""
    env = primordial_soup_v1.raw_env(num_players=3)
    env.reset(seed=5)
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(np.int64(np.flatnonzero(mask)[0]))


def test_illegal_action_through_env_ends_game_with_minus_one():
    """Through ``env()`` an illegal action ends the game with -1 for the offender."""
    env = primordial_soup_v1.env(num_players=4)
    env.reset(seed=6)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1


def test_config_overrides_reach_the_rules_and_bad_ones_raise():
    """Keyword overrides are PrimordialSoupConfig fields; unknown ones raise ValueError."""
    env = primordial_soup_v1.raw_env(num_players=3, finish_zone_start=41, board_layout="B")
    assert env.unwrapped.rules.config.finish_zone_start == 41
    with pytest.raises(ValueError, match="no_such_rule"):
        primordial_soup_v1.raw_env(no_such_rule=1)
    with pytest.raises(ValueError, match="num_players"):
        primordial_soup_v1.raw_env(num_players=5)
    with pytest.raises(ValueError, match="obs_encoder|encoder"):
        primordial_soup_v1.raw_env(obs_encoder="pixels")


def test_render_ansi_returns_the_board_text():
    """render_mode="ansi" returns the text board."""
    env = primordial_soup_v1.env(num_players=3, render_mode="ansi")
    env.reset(seed=7)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text


def test_pickle_keeps_a_game_in_progress():
    """A pickled env continues the same game."""
    env = primordial_soup_v1.raw_env(num_players=4)
    env.reset(seed=8)
    rng = np.random.default_rng(1)
    for _ in range(50):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.game_state.to_dict() == env.game_state.to_dict()
    action = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(action)
    copy.step(action)
    assert copy.game_state.to_dict() == env.game_state.to_dict()


def test_docstring_lists_every_action_segment():
    """The module docstring carries the action table."""
    for name in primordial_soup_v1.raw_env(num_players=3).rules.layout.names:
        assert name in primordial_soup_v1.__doc__
