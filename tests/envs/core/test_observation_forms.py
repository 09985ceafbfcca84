"""The env options for other libraries' forms: ``observation_form="box"`` (the encoder's array,
the mask in the infos), ``mask_in_info`` and ``info_form="ids"``, in both games."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test

from primeval.envs.games import GAMES

CASES = [(name, encoder) for name, game in GAMES.items() for encoder in game.encoders]
PLAYERS = {"primordial_soup": 3, "origin": 2}


def make(name: str, wrapped: bool = True, **kwargs):
    game = GAMES[name]
    build = game.env if wrapped else game.raw_env
    return build(PLAYERS[name], **kwargs)


def random_steps(env, seed: int, steps: int):
    """Yields before each of ``steps`` random legal steps of ``env`` (reset with ``seed``),
    the mask read from the infos when the observation has none."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return
        yield
        obs = env.observe(agent)
        mask = obs["action_mask"] if isinstance(obs, dict) else env.infos[agent]["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize(("name", "encoder"), CASES)
def test_box_form_passes_api_test(name, encoder):
    """PettingZoo's api_test (which samples from ``info["action_mask"]`` when the observation
    is not a dict) passes with the encoder's array as the observation."""
    env = make(name, obs_encoder=encoder, observation_form="box")
    assert env.observation_space("player_0") == env.unwrapped.obs_encoder.space()
    api_test(env, num_cycles=100)


@pytest.mark.parametrize("name", list(GAMES))
def test_box_observation_and_info_mask_are_the_dicts(name):
    """Along a seeded game the box form's observation and info mask equal the dict form's
    observation and mask, for every agent (the mask all zeros for agents not to act)."""
    box, twin = make(name, observation_form="box"), make(name, mask_in_info=True)
    for _ in zip(random_steps(box, 3, 120), random_steps(twin, 3, 120), strict=True):
        for agent in box.agents:
            expected = twin.observe(agent)
            np.testing.assert_array_equal(box.observe(agent), expected["observation"])
            for mask in (box.infos[agent]["action_mask"], twin.infos[agent]["action_mask"]):
                assert mask.dtype == np.int8
                np.testing.assert_array_equal(mask, expected["action_mask"])


@pytest.mark.parametrize("name", list(GAMES))
def test_default_form_is_the_dict_without_a_mask_in_the_infos(name):
    """By default: PettingZoo's dict observation; the infos hold only phase and decision."""
    env = make(name)
    env.reset(seed=0)
    assert isinstance(env.observation_space("player_0"), spaces.Dict)
    assert set(env.infos[env.agent_selection]) == {"phase", "decision"}
    assert not env.unwrapped.mask_in_info and env.unwrapped.observation_form == "dict"


@pytest.mark.parametrize("name", list(GAMES))
def test_info_ids_index_the_tables_and_the_observation_one_hots(name):
    """With ``info_form="ids"`` the infos are ints: the names' indices in ``info_names``
    (the names env's infos, step by step), which are the indices of the observation's
    ``phase`` and ``decision`` one-hots."""
    ids, names = make(name, info_form="ids"), make(name)
    table = ids.unwrapped.info_names
    encoder = ids.unwrapped.obs_encoder
    for _ in zip(random_steps(ids, 5, 150), random_steps(names, 5, 150), strict=True):
        agent = ids.agent_selection
        info, named = ids.infos[agent], names.infos[agent]
        assert all(type(v) is int for v in info.values())
        assert {k: table[k][v] for k, v in info.items()} == named
        obs = ids.observe(agent)["observation"]
        assert int(np.argmax(encoder.view(obs, "phase"))) == info["phase"]
        assert int(np.argmax(encoder.view(obs, "decision"))) == info["decision"]


def test_info_ids_at_the_end_of_a_game():
    """A finished game's decision is the last id of the table, the name ``""``."""
    env = make("origin", info_form="ids")
    for _ in random_steps(env, 0, 10_000):
        pass
    info = env.infos[env.agent_selection]
    assert env.unwrapped.info_names["decision"][info["decision"]] == ""
    assert env.unwrapped.info_names["phase"][info["phase"]] == "game_over"


@pytest.mark.parametrize("name", list(GAMES))
def test_an_illegal_action_through_env_zeroes_the_info_masks(name):
    """When an illegal action ends the game (-1 for the offender), no info mask offers an
    action any more."""
    env = make(name, observation_form="box")
    env.reset(seed=1)
    agent = env.agent_selection
    bad = int(np.flatnonzero(env.infos[agent]["action_mask"] == 0)[0])
    env.step(bad)
    assert env.rewards[agent] == -1
    assert all(env.terminations.values())
    assert not any(info["action_mask"].any() for info in env.infos.values())


@pytest.mark.parametrize("name", list(GAMES))
def test_saved_states_cross_forms(name):
    """``get_state`` of a box env with id infos is JSON (no mask arrays); ``set_state`` puts
    each env's own form of the infos: names in a default env, ids and masks in the other."""
    box = make(name, wrapped=False, observation_form="box", info_form="ids")
    for _ in random_steps(box, 2, 30):
        pass
    saved = json.loads(json.dumps(box.get_state()))
    plain = make(name, wrapped=False)
    plain.set_state(saved)
    agent = plain.agent_selection
    assert set(plain.infos[agent]) == {"phase", "decision"}
    assert isinstance(plain.infos[agent]["phase"], str)
    twin = make(name, wrapped=False, observation_form="box", info_form="ids")
    twin.set_state(json.loads(json.dumps(plain.get_state())))
    for a in box.agents:
        assert twin.infos[a].keys() == box.infos[a].keys()
        np.testing.assert_array_equal(twin.infos[a]["action_mask"], box.infos[a]["action_mask"])
        assert twin.infos[a]["phase"] == box.infos[a]["phase"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"observation_form": "tuple"}, "observation_form"),
    ({"info_form": "strings"}, "info_form"),
    ({"observation_form": "box", "mask_in_info": False}, "nowhere"),
    ({"mask_in_info": "yes"}, "mask_in_info"),
    ({"state_private": "yes"}, "state_private"),
])
@pytest.mark.parametrize("name", list(GAMES))
def test_bad_options_are_refused_naming_them(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        make(name, **kwargs)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_catalogue_lists_the_options(name):
    """``primeval list`` shows the options (the catalogue's env arguments)."""
    for option in ("observation_form", "mask_in_info", "info_form", "state_private"):
        assert option in GAMES[name].env_arguments
