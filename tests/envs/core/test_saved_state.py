"""Saved states: get_state / set_state / clone, deepcopy and pickle, refused bad states."""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

from primeval.envs import origin_v0, primordial_soup_v1
from primeval.envs.core.saved_state import StateError
from primeval.envs.games import GAMES
from primeval.envs.testing.random_play import advance

CASES = [(primordial_soup_v1, 3), (primordial_soup_v1, 4), (origin_v0, 2), (origin_v0, 3),
         (origin_v0, 4)]


def same_future(a, b, rng, steps: int = 2000) -> None:
    """Both envs see the same observations and masks and, fed the same actions, end the
    same way."""
    for _ in range(steps):
        if not a.agents:
            break
        assert a.agent_selection == b.agent_selection
        agent = a.agent_selection
        oa, ob = a.observe(agent), b.observe(agent)
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        if a.terminations[agent] or a.truncations[agent]:
            a.step(None)
            b.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(oa["action_mask"])))
        a.step(action)
        b.step(action)
    assert not a.agents and not b.agents
    assert a.game_state.to_dict() == b.game_state.to_dict()


@pytest.mark.parametrize(("module", "players"), CASES)
def test_round_trip_mid_game_through_json(module, players):
    """A JSON round trip of get_state into a fresh env continues the game identically."""
    env = module.raw_env(num_players=players)
    env.reset(seed=11)
    advance(env, 80, np.random.default_rng(0))
    data = json.loads(json.dumps(env.get_state()))
    fresh = module.raw_env(num_players=players)
    fresh.reset(seed=999)
    fresh.set_state(data)
    same_future(env, fresh, np.random.default_rng(1))


@pytest.mark.parametrize(("module", "players"), [CASES[1], CASES[4]])
@pytest.mark.parametrize("stepped_out", [0, 1, 2])
def test_round_trip_after_the_game_ends_while_agents_step_out(module, players, stepped_out):
    """Once the game is over each agent steps out with ``step(None)`` (PettingZoo's dead
    steps); the agent selected when the game ended is selected again at the very end. A state
    saved in between keeps it, so the restored env ends exactly as the original does."""
    env = module.raw_env(num_players=players)
    rng = np.random.default_rng(4)
    for seed in range(20):  # a game whose last mover is not the first to step out
        env.reset(seed=seed)
        while not all(env.terminations.values()):
            advance(env, 1, rng)
        final_selection = env._skip_agent_selection
        if final_selection is not None and env.agent_selection != final_selection:
            break
    assert env.agent_selection != final_selection
    advance(env, stepped_out, rng)  # some agents have left already
    data = json.loads(json.dumps(env.get_state()))
    assert data["skip_agent_selection"] == final_selection
    fresh = module.raw_env(num_players=players)
    fresh.reset(seed=999)
    fresh.set_state(data)
    same_future(env, fresh, rng)
    assert env.agent_selection == fresh.agent_selection == final_selection
    assert fresh.get_state() == env.get_state()


def test_a_skip_agent_selection_mid_game_is_refused():
    """``skip_agent_selection`` belongs to a finished game only; older saved states without
    the key still load."""
    env = loaded(origin_v0)
    good = env.get_state()
    for bad in ("player_0", "player_9"):
        with pytest.raises(StateError, match="skip_agent_selection"):
            env.set_state({**good, "skip_agent_selection": bad})
    older = {k: v for k, v in good.items() if k != "skip_agent_selection"}
    env.set_state(older)
    assert env.get_state() == good


@pytest.mark.parametrize(("module", "players"), CASES[1:4])
def test_clone_deepcopy_and_pickle_keep_the_game(module, players):
    env = module.raw_env(num_players=players)
    env.reset(seed=5)
    advance(env, 60, np.random.default_rng(2))
    for other in (env.clone(), copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        twin = env.clone()
        same_future(twin, other, np.random.default_rng(3))


def loaded(module, players=3, steps=40):
    env = module.raw_env(num_players=players)
    env.reset(seed=1)
    advance(env, steps, np.random.default_rng(4))
    return env


@pytest.mark.parametrize("module", [game.module() for game in GAMES.values()], ids=list(GAMES))
def test_bad_states_are_refused_and_change_nothing(module):
    """Another game, another version, another config or a damaged dict: StateError with the
    reason; the env is unchanged."""
    env = loaded(module)
    good = env.get_state()
    other = (origin_v0 if module is primordial_soup_v1 else primordial_soup_v1)
    foreign = loaded(other).get_state()
    before = env.get_state()

    def damaged(**changes):
        d = copy.deepcopy(good)
        for key, value in changes.items():
            if value is KeyError:
                del d[key]
            else:
                d[key] = value
        return d

    cases = [
        (foreign, "another game"),
        (damaged(format_version=99), "version"),
        (damaged(format="pickle"), "not a primeval saved state"),
        (damaged(game_state=KeyError), "missing"),
        (damaged(rng={"bit_generator": "nope"}), "rng"),
        (damaged(agent_selection="player_9"), "agent_selection"),
        ([1, 2, 3], "expected a dict"),
    ]
    broken = copy.deepcopy(good)
    if module is primordial_soup_v1:
        broken["game_state"]["supply"][0] += 1
    else:
        broken["game_state"]["hands"][0].append(0)
    cases.append((broken, "damaged game_state"))
    config = copy.deepcopy(good)
    config["config"]["num_players"] = 4
    cases.append((config, "config differs"))
    for data, message in cases:
        with pytest.raises(StateError, match=message):
            env.set_state(data)
        assert env.get_state() == before


def test_set_state_before_reset_works_and_get_state_before_reset_is_refused():
    env = primordial_soup_v1.raw_env(num_players=3)
    with pytest.raises(StateError, match="reset"):
        env.get_state()
    source = loaded(primordial_soup_v1)
    env.set_state(source.get_state())
    same_future(source, env, np.random.default_rng(5))
