"""Random legal play for tests that need a game some steps in."""

from __future__ import annotations

import numpy as np


def advance(env, steps: int, rng: np.random.Generator | int = 0) -> None:
    """``steps`` random legal actions through an AEC env (``None`` for finished agents);
    stops early once every agent has left. ``rng``: a generator or a seed."""
    rng = np.random.default_rng(rng) if isinstance(rng, int) else rng
    for _ in range(steps):
        if not env.agents:
            return
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


def play_checked_game(rules, seed: int, *, check, check_step=None,
                      check_input_kept: bool = True, check_every: int = 1,
                      max_steps: int = 20_000):
    """A seeded random game at rules level, checked as it goes; returns (final state, steps).

    ``check(state)`` runs after setup, after every ``check_every``-th step and at the end;
    ``check_step(before, after, decision)`` after every step. Always: the player to act has
    a legal action and is a seat, and the game ends within ``max_steps``; with
    ``check_input_kept``, ``apply`` leaves its input unchanged.
    """
    rng = np.random.default_rng(seed)
    choice_rng = np.random.default_rng(seed + 10_000)
    state = rules.initial_state(rng)
    check(state)
    steps = 0
    while not rules.is_terminal(state):
        mask = rules.legal_mask(state)
        assert mask.any(), "the acting player has no legal action"
        assert rules.current_player(state) in range(rules.num_players)
        action = int(choice_rng.choice(np.flatnonzero(mask)))
        decision = rules.decision_name(state)
        before = state.to_dict() if check_input_kept else None
        new = rules.apply(state, action, rng)
        if check_input_kept:
            assert state.to_dict() == before, "apply mutated its input"
        steps += 1
        assert steps <= max_steps, f"seed {seed}: the game does not end"
        if steps % check_every == 0 or rules.is_terminal(new):
            check(new)
        if check_step is not None:
            check_step(state, new, decision)
        state = new
    return state, steps
