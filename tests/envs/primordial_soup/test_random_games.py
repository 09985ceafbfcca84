"""Seeded random games with the game's invariants checked after every step.

300 games per player count through the rules, 200 per player count through ``env()``.
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs import primordial_soup_v1
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from tests.helpers import play_checked_game


def check_invariants(rules: PrimordialSoupRules, state) -> None:
    """Everything that must hold in any reachable position: the rules' own check
    (``check_state``, the one invariant checker), and the table's size besides."""
    rules.check_state(state)
    assert all(len(ps.amoeba_space) == rules.config.max_amoebas <= 7 for ps in state.players)


def play_random_game(rules: PrimordialSoupRules, seed: int, check_input_kept: bool = True):
    return play_checked_game(rules, seed, check=lambda state: check_invariants(rules, state),
                             check_input_kept=check_input_kept)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [3, 4])
def test_300_random_games_keep_invariants(num_players):
    """Invariants: cubes conserved at 55 per colour, BP never negative, gene cards
    conserved, at most 7 amoebas, the game ends by round 10, always a legal action, apply
    never mutates its input."""
    rules = PrimordialSoupRules(num_players=num_players)
    for seed in range(300):
        state, _ = play_random_game(rules, seed, check_input_kept=seed < 60)
        assert rules.is_terminal(state)
        assert state.round <= 10
        ranked = sorted(state.players, key=lambda p: p.score)
        assert ranked[-1].score > ranked[-2].score  # a unique winner


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [3, 4])
def test_200_random_games_through_env_end_cleanly(num_players):
    """200 random games per player count through ``env()`` (with PettingZoo's wrappers) end
    with every agent terminated and rank rewards summing to 0."""
    for seed in range(200):
        env = primordial_soup_v1.env(num_players=num_players)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(max_iter=5000):
            obs, reward, termination, truncation, info = env.last()
            totals[agent] += reward
            if termination or truncation:
                action = None
            else:
                assert obs["action_mask"].dtype == np.int8
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        assert not env.agents, "the game did not end"
        assert sorted(totals.values())[-1] == 1.0
        assert abs(sum(totals.values())) < 1e-9


def test_same_seed_same_actions_same_game():
    """Determinism: the same seed and the same actions give the same game."""
    rules = PrimordialSoupRules(num_players=4)
    a, _ = play_random_game(rules, 7, check_input_kept=False)
    b, _ = play_random_game(rules, 7, check_input_kept=False)
    assert a.to_dict() == b.to_dict()
    c, _ = play_random_game(rules, 8, check_input_kept=False)
    assert c.to_dict() != a.to_dict()
