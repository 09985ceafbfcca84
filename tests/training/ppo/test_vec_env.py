"""BatchedOpponentsVecEnv plays the same games as SB3's DummyVecEnv, with the decisions of
policy opponents answered in batches."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from primeval.envs.games import GAMES  # noqa: E402
from primeval.training.agents import RandomAgent, make_heuristic  # noqa: E402
from primeval.training.agents.policy import PolicyAgent  # noqa: E402
from primeval.training.ppo.vec_env import BatchedOpponentsVecEnv  # noqa: E402
from primeval.wrappers.single_agent import SingleAgentEnv  # noqa: E402


class CountingPolicy(PolicyAgent):
    """A policy opponent that counts its forward passes and the decisions they answer."""

    def __init__(self, model) -> None:
        other = PolicyAgent.from_model(model, name="counting")
        self.__dict__.update(other.__dict__)
        self.calls = self.rows = 0

    def act_batch(self, observations, action_masks, **kwargs):
        self.calls += 1
        self.rows += len(observations)
        return super().act_batch(observations, action_masks, **kwargs)


def play(vec, steps: int, seed: int = 0):
    """Random legal learner actions; everything the vector env returns, step by step."""
    rng = np.random.default_rng(seed)
    vec.seed(seed)
    out = [vec.reset().copy()]
    for _ in range(steps):
        masks = np.stack(vec.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        out.append((obs.copy(), rewards.copy(), dones.copy(), infos))
    return out


def same(a, b) -> None:
    assert np.array_equal(a[0], b[0])
    for x, y in zip(a[1:], b[1:], strict=True):
        assert np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])
        assert np.array_equal(x[2], y[2])
        for ix, iy in zip(x[3], y[3], strict=True):
            assert ix.keys() == iy.keys()
            for key in ix:
                assert np.array_equal(np.asarray(ix[key]), np.asarray(iy[key])), key


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_and_heuristic_opponents_play_as_in_a_dummy_vec_env(game):
    def factory(rank):
        return lambda: SingleAgentEnv(
            GAMES[game].raw_env(3), opponents=[RandomAgent(), make_heuristic(game)],
            shaping=0.05)

    fns = [factory(r) for r in range(3)]
    same(play(DummyVecEnv(fns), 150), play(BatchedOpponentsVecEnv(fns), 150))


def test_a_policy_opponent_answers_several_games_in_one_pass():
    """The same games as one pass per decision; fewer passes than decisions."""
    game = GAMES["primordial_soup"]
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(game.raw_env(3)), seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    shared, alone = CountingPolicy(model), CountingPolicy(model)

    def fns(opponent):
        return [lambda: SingleAgentEnv(game.raw_env(3), opponents=opponent) for _ in range(4)]

    batched = play(BatchedOpponentsVecEnv(fns(shared)), 120)
    one_by_one = play(DummyVecEnv(fns(alone)), 120)
    same(batched, one_by_one)
    assert alone.calls == 0  # DummyVecEnv asks act(), one decision at a time
    assert 0 < shared.calls < shared.rows
