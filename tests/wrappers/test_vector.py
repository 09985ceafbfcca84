"""SingleAgentVectorEnv (wrappers/vector.py): each of its games is the very game its env
plays alone for the same seed, with random, heuristic and batched opponents."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from primeval.envs.core.agents import RandomAgent
from primeval.envs.games import GAMES
from primeval.training.agents import make_heuristic
from primeval.wrappers.single_agent import SingleAgentEnv
from primeval.wrappers.vector import SingleAgentVectorEnv

GAME_NAMES = sorted(GAMES)


class BatchedAgent:
    """A deterministic opponent with ``act_batch``: its choice depends on the observation
    (so a row given another game's observation would play otherwise); counts its calls."""

    name = "batched"

    def __init__(self) -> None:
        self.calls = self.rows = self.acts = 0

    @staticmethod
    def _choose(observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[int(np.abs(observation).sum() * 1000) % legal.size])

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        self.acts += 1
        return self._choose(observation, action_mask)

    def act_batch(self, observations, action_masks, *, states=None, seats=None):
        self.calls += 1
        self.rows += len(observations)
        return np.array(
            [self._choose(o, m) for o, m in zip(observations, action_masks, strict=True)]
        )


def opponents(game: str, kind: str, shared: BatchedAgent):
    if kind == "random_heuristic":
        return [RandomAgent(), make_heuristic(game)]  # a pool: one drawn per seat and game
    return [shared, RandomAgent()]


def make_env(game: str, kind: str, shared: BatchedAgent) -> SingleAgentEnv:
    return SingleAgentEnv(
        GAMES[game].raw_env(3), opponents=opponents(game, kind, shared), shaping=0.05
    )


def play_alone(env: SingleAgentEnv, seed: int, actions_rng: np.random.Generator, steps: int):
    """The env stepped alone: per step (obs, reward, terminated, truncated, final obs,
    final info), resetting by itself when a game ends; the learner's actions drawn from
    ``actions_rng`` over its mask."""
    obs, _ = env.reset(seed=seed)
    out = [obs]
    for _ in range(steps):
        action = actions_rng.choice(np.flatnonzero(env.action_masks()))
        obs, reward, terminated, truncated, info = env.step(action)
        final = None
        if terminated or truncated:
            final = (obs, info)
            obs, _ = env.reset()
        out.append((obs, reward, terminated, truncated, final))
    return out


def unbatch(infos: dict, i: int) -> dict:
    """Game ``i``'s info out of Gymnasium's dict of arrays (nested dicts nested)."""
    out = {}
    for key, value in infos.items():
        if isinstance(key, str) and key.startswith("_"):
            continue
        if isinstance(value, dict):
            if infos[f"_{key}"][i]:
                out[key] = unbatch(value, i)
        elif infos[f"_{key}"][i]:
            out[key] = value[i]
    return out


def play_vector(vec: SingleAgentVectorEnv, seeds, rngs, steps: int):
    """The same, for every game of ``vec``: one list per game."""
    obs, infos = vec.reset(seed=seeds)
    assert infos == {}
    out = [[row] for row in obs]
    for _ in range(steps):
        masks = vec.action_masks()
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) for rng, m in zip(rngs, masks, strict=True)]
        )
        obs, rewards, terminations, truncations, infos = vec.step(actions)
        for i in range(vec.num_envs):
            final = None
            if terminations[i] or truncations[i]:
                assert infos["_final_obs"][i]
                final = (infos["final_obs"][i], unbatch(infos["final_info"], i))
            else:
                assert not infos or not infos["_final_obs"][i]
            out[i].append((obs[i], rewards[i], terminations[i], truncations[i], final))
    return out


def assert_same_game(alone, vector) -> None:
    assert np.array_equal(alone[0], vector[0])
    ends = 0
    for a, v in zip(alone[1:], vector[1:], strict=True):
        assert np.array_equal(a[0], v[0])
        assert a[1] == v[1] and a[2] == v[2] and a[3] == v[3]
        assert (a[4] is None) == (v[4] is None)
        if a[4] is not None:
            ends += 1
            assert np.array_equal(a[4][0], v[4][0])
            assert a[4][1].keys() == v[4][1].keys()
            for key in a[4][1]:
                assert np.array_equal(np.asarray(a[4][1][key]), np.asarray(v[4][1][key])), key
    assert ends > 0  # the autoreset was exercised


@pytest.mark.parametrize("kind", ["random_heuristic", "batched"])
@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_game_is_the_game_its_env_plays_alone(game, kind):
    steps, seeds = 300, [11, 12, 13]
    shared_alone, shared_vec = BatchedAgent(), BatchedAgent()
    alone = [
        play_alone(make_env(game, kind, shared_alone), s, np.random.default_rng(s), steps)
        for s in seeds
    ]
    vec = SingleAgentVectorEnv([make_env(game, kind, shared_vec) for _ in seeds])
    vector = play_vector(vec, seeds, [np.random.default_rng(s) for s in seeds], steps)
    for a, v in zip(alone, vector, strict=True):
        assert_same_game(a, v)
    if kind == "batched":
        assert shared_alone.calls == 0 and shared_alone.acts > 0
        assert shared_vec.acts == 0  # the vector env asks act_batch only ...
        assert shared_vec.rows == shared_alone.acts  # ... for the same decisions ...
        assert 0 < shared_vec.calls < shared_vec.rows  # ... several games a call


def test_gymnasium_conventions():
    envs = [SingleAgentEnv(GAMES["primordial_soup"].raw_env(3)) for _ in range(4)]
    vec = SingleAgentVectorEnv(envs)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert vec.single_observation_space == envs[0].observation_space
    assert vec.observation_space.shape == (4, *envs[0].observation_space.shape)
    assert vec.action_space == gymnasium.spaces.MultiDiscrete([envs[0].action_space.n] * 4)
    obs, _ = vec.reset(seed=5)  # an int: game i gets seed + i, as SyncVectorEnv does
    alone = SingleAgentEnv(GAMES["primordial_soup"].raw_env(3))
    assert np.array_equal(obs[2], alone.reset(seed=7)[0])
    assert np.array_equal(vec.action_masks()[2], alone.action_masks())
    assert obs.dtype == envs[0].observation_space.dtype and vec.action_masks().dtype == bool
    first, _ = vec.reset(seed=5)
    again, *_ = vec.step(vec.action_masks().argmax(axis=1))
    assert not np.shares_memory(first, again)  # copies, unless copy=False


def test_bad_input_is_refused_by_name():
    def soup():
        return SingleAgentEnv(GAMES["primordial_soup"].raw_env(3))

    vec = SingleAgentVectorEnv([soup(), soup()])
    with pytest.raises(gymnasium.error.ResetNeeded):
        vec.step(np.zeros(2, dtype=int))
    with pytest.raises(gymnasium.error.ResetNeeded):
        vec.action_masks()
    obs, _ = vec.reset(seed=0)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        vec.step(np.zeros(3, dtype=int))
    with pytest.raises(ValueError, match="2 seeds for 2|3 seeds for 2"):
        vec.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="options"):
        vec.reset(options={"x": 1})
    with pytest.raises(TypeError, match="SingleAgentEnv"):
        SingleAgentVectorEnv([GAMES["primordial_soup"].raw_env(3)])
    with pytest.raises(ValueError, match="at least one"):
        SingleAgentVectorEnv([])
    with pytest.raises(ValueError, match="other spaces"):
        SingleAgentVectorEnv([soup(), SingleAgentEnv(GAMES["origin"].raw_env(3))])
    # the refused calls changed nothing: the games go on from the reset
    assert np.array_equal(vec.reset(seed=0)[0], obs)
