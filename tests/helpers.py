"""Builders shared by tests of both games: positions some steps into a seeded game, games
played to their end (checked as they go, at rules level), and file snapshots for "nothing
changed" checks. They play through the one random-play loop,
:mod:`primeval.envs.testing.random_play`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from primeval.envs.games import GAMES
from primeval.envs.testing.random_play import advance, random_rules_steps


def catalogue_games(needs: str | None = None, why: str = "") -> list:
    """``pytest.param`` of every game of the catalogue (the descriptors' names), for the
    tests that hold for every game. With ``needs``, a game whose descriptor has that field
    None is still listed but skipped, with the reason ``why`` (visibly: ``pytest -rs``)."""
    params = []
    for name, game in GAMES.items():
        missing = needs is not None and getattr(game, needs) is None
        marks = pytest.mark.skip(reason=f"{name}: {why} (its descriptor's {needs} is None)") \
            if missing else ()
        params.append(pytest.param(name, marks=marks, id=name))
    return params


def mid_game(game: str, seed: int = 1, steps: int = 40, wrapped: bool = False):
    """A 3-player env of ``game`` some steps into a seeded game."""
    module = GAMES[game]
    env = module.env(num_players=3) if wrapped else module.raw_env(num_players=3)
    env.reset(seed=seed)
    advance(env, steps, seed)
    return env


def play_to_the_end(env, seed: int = 0) -> None:
    """Random legal actions until the rules state is over (agents not yet stepped out)."""
    rules, rng = env.unwrapped.rules, np.random.default_rng(seed)
    while not rules.is_terminal(env.unwrapped.game_state):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                                ["action_mask"]))))


def files_in(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` with its bytes (``None`` for folders)."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


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


def play_out(rules, state, seed: int = 0, max_steps: int = 20_000):
    """Random legal play at rules level from ``state`` (a built position, say) to the end of
    the game, ``rules.check_state`` after every step; returns (final state, steps). The
    game's randomness is ``default_rng(seed)``, the choices ``default_rng(seed + 10_000)``."""
    steps, final = 0, state
    for _before, _action, final in random_rules_steps(
            rules, state, np.random.default_rng(seed), np.random.default_rng(seed + 10_000)):
        rules.check_state(final)
        steps += 1
        assert steps <= max_steps, f"seed {seed}: the game does not end"
    return final, steps
