"""Seeded random games with the game's invariants checked after every step.

300 games per player count through the rules, 200 per player count through ``env()``.
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs import primordial_soup_v0
from primeval.envs.primordial_soup.data import GENES
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.rules.genes import SUCCESSORS
from tests.helpers import play_checked_game


def check_invariants(rules: PrimordialSoupRules, state) -> None:
    """Everything that must hold in any reachable position."""
    config = rules.config
    n = state.num_players
    for colour in range(n):
        on_board = sum(c[colour] for c in state.cubes)
        assert on_board + state.supply[colour] == config.cubes_per_colour, "cubes not conserved"
        assert state.supply[colour] >= 0
        assert all(c[colour] >= 0 for c in state.cubes)
    for i, g in enumerate(GENES):
        owned = sum(g.key in ps.genes for ps in state.players)
        assert owned + state.gene_supply[i] == g.copies(n), f"{g.key} cards not conserved"
        assert state.gene_supply[i] >= 0
    for ps in state.players:
        assert ps.bp >= 0, "BP went negative"
        assert len(ps.amoeba_space) == config.max_amoebas <= 7
        for space, damage in zip(ps.amoeba_space, ps.amoeba_damage, strict=True):
            assert -1 <= space < rules.board.num_spaces
            if space < 0:
                assert damage == 0
            else:
                assert 0 <= damage <= config.death_damage_longevity + 2
        for basic, higher in SUCCESSORS.items():
            assert not (basic in ps.genes and any(h in ps.genes for h in higher))
    scores = [ps.score for ps in state.players]
    if state.round >= 1:
        assert len(set(scores)) == n, "two markers share a ladder space"
    assert state.round <= config.max_rounds


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
        env = primordial_soup_v0.env(num_players=num_players)
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
