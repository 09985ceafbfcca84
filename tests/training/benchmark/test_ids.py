"""The benchmark's Gymnasium ids (other seats: a task's zoo opponents) and the PettingZoo
side (a task's env and opponent pool)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import primeval
from primeval.training.benchmark import task_env
from primeval.training.benchmark.tasks import TASKS


def _play_out(env, seed: int) -> float:
    _obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    rng = np.random.default_rng(seed)
    while not done:
        legal = np.flatnonzero(env.unwrapped.action_masks())
        _obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        done = terminated or truncated
    return total


@pytest.mark.parametrize(
    ("env_id", "task", "players"),
    [
        ("primeval/PrimordialSoup-vsZoo-v1", None, 4),
        ("primeval/Origin-vsZoo-v0", "origin-2p", 2),
    ],
)
def test_gymnasium_make_plays_against_the_tasks_pool(env_id, task, players):
    kwargs = {} if task is None else {"task": task}
    env = gymnasium.make(env_id, **kwargs)
    opponents = env.unwrapped.opponents
    pool = opponents if isinstance(opponents, list) else [opponents]
    assert all(type(a).__name__.endswith("Heuristic") for a in pool)
    assert len(env.unwrapped.aec.possible_agents) == players
    assert -1.0 <= _play_out(env, 0) <= 1.0
    env.close()


def test_a_task_of_another_game_is_named():
    with pytest.raises(ValueError, match="task soup-3p plays primordial_soup, not origin"):
        primeval.make("primeval/Origin-vsZoo-v0", task="soup-3p")


def test_the_pettingzoo_side_returns_the_env_and_the_pool():
    env, pool = task_env("origin-3p")
    env.reset(seed=0)
    assert len(env.possible_agents) == TASKS["origin-3p"].players
    assert len(pool) == len(TASKS["origin-3p"].opponents)
    seat = env.possible_agents.index(env.agent_selection)
    action = pool[0].act(
        None,
        env.observe(env.agent_selection)["action_mask"],
        state=env.unwrapped.game_state,
        seat=seat,
    )
    env.step(action)
