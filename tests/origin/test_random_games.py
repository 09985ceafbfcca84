"""Seeded random games with Origin's invariants checked after every step."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs import origin_v0
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.state import EMPTY, NEUTRAL
from tests.origin.builders import count_cards, count_tiles


def check_invariants(rules: OriginRules, state, previous) -> None:
    data = rules.data
    comps = data.components
    n = state.num_players
    assert count_cards(state) == len(data.cards), "cards not conserved"
    assert count_tiles(state) == comps.num_tiles, "tiles not conserved"
    on_board = sum(1 for o in state.owner if o != EMPTY)
    total_pawns = 36 if n in comps.extra_medium_set_players else 27
    assert on_board + sum(state.reserve) == total_pawns, "pawns not conserved"
    assert min(state.reserve) >= 0
    assert state.owner.count(NEUTRAL) == 1
    assert state.owner[data.world.origin] == NEUTRAL
    for p in range(n):
        placed = state.owner.count(p)
        assert placed + state.villages[p] == comps.villages_per_player, "villages"
        assert state.villages[p] >= 0
    for t, o in enumerate(state.owner):
        assert (state.pawn[t] >= 0) == (o != EMPTY)
    assert sorted(v for v in state.hunt_value if v) == sorted(comps.hunting_tokens)
    assert sorted(state.strait_value) == sorted(comps.strait_tokens)
    for p in range(n):
        for col in state.columns[p]:
            assert col == list(range(1, len(col) + 1)), "a column is not 1, 2, 3, ..."
    if previous is not None:
        for p in range(n):  # points that cannot be lost
            assert state.objective_points[p] >= previous.objective_points[p]
            held = {t for t, o in enumerate(previous.hunt_owner) if o == p}
            assert all(state.hunt_owner[t] == p for t in held), "a hunting token was lost"


def play(rules: OriginRules, seed: int, check_input: bool):
    rng = np.random.default_rng(seed)
    choice = np.random.default_rng(seed + 99)
    state = rules.initial_state(rng)
    check_invariants(rules, state, None)
    steps = 0
    while not rules.is_terminal(state):
        mask = rules.legal_mask(state)
        assert mask.any(), "the acting player has no legal action"
        action = int(choice.choice(np.flatnonzero(mask)))
        before = state.to_dict() if check_input else None
        new = rules.apply(state, action, rng)
        if check_input:
            assert state.to_dict() == before, "apply mutated its input"
        check_invariants(rules, new, state)
        state = new
        steps += 1
        assert steps < 5000, "the game did not end"
    return state


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_300_random_games_keep_invariants(num_players):
    """48 cards, 30 tiles, 36/27 pawns, villages and tokens conserved; every pawn but the
    neutral one has a village; banked points never decrease; always a legal action; apply
    never mutates its input."""
    rules = OriginRules(num_players=num_players)
    for seed in range(300):
        state = play(rules, seed, check_input=seed < 40)
        assert rules.is_terminal(state) and state.end_triggered


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_200_random_games_through_env_end_cleanly(num_players):
    """200 random games per player count through ``env()`` end with zero-sum rewards."""
    for seed in range(200):
        env = origin_v0.env(num_players=num_players)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(max_iter=20_000):
            obs, reward, termination, truncation, _ = env.last()
            totals[agent] += reward
            assert not truncation, "a random game hit max_steps"
            action = None if termination or truncation else int(
                rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        assert not env.agents
        assert abs(sum(totals.values())) < 1e-9


def test_same_seed_same_game():
    rules = OriginRules(num_players=3)
    assert play(rules, 5, False).to_dict() == play(rules, 5, False).to_dict()
    assert play(rules, 5, False).to_dict() != play(rules, 6, False).to_dict()
