"""A whole random game at rules level, checked as it goes: a thin use of the one random-play
loop, :mod:`primeval.envs.testing.random_play` (whose ``advance`` plays an env some steps
in)."""

from __future__ import annotations

import numpy as np

from primeval.envs.testing.random_play import random_rules_steps

__all__ = ["play_checked_game"]


def play_checked_game(rules, seed: int, *, check, check_step=None,
                      check_input_kept: bool = True, check_every: int = 1,
                      max_steps: int = 20_000):
    """A seeded random game at rules level, checked as it goes; returns (final state, steps).

    The game is set up and played with ``default_rng(seed)``, the actions drawn uniformly
    with ``default_rng(seed + 10_000)``. ``check(state)`` runs after setup, after every
    ``check_every``-th step and at the end; ``check_step(before, after, decision)`` after
    every step. Always: the player to act has a legal action (the draw refuses an empty
    mask) and is a seat, and the game ends within ``max_steps``; with ``check_input_kept``,
    ``apply`` leaves its input unchanged.
    """
    rng = np.random.default_rng(seed)
    start = state = rules.initial_state(rng)
    check(start)

    def apply_keeping_input(state, action, rng):
        before = state.to_dict()
        new = rules.apply(state, action, rng)
        assert state.to_dict() == before, "apply mutated its input"
        return new

    steps = 0
    for before, _action, state in random_rules_steps(
            rules, start, rng, np.random.default_rng(seed + 10_000),
            apply=apply_keeping_input if check_input_kept else None):
        assert rules.current_player(before) in range(rules.num_players)
        steps += 1
        assert steps <= max_steps, f"seed {seed}: the game does not end"
        if steps % check_every == 0 or rules.is_terminal(state):
            check(state)
        if check_step is not None:
            check_step(before, state, rules.decision_name(before))
    return state, steps
