"""Builders shared by tests of both games: positions some steps into a seeded game, games
played to their end, and file snapshots for "nothing changed" checks."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from primeval.envs.games import GAMES
from primeval.envs.testing.random_play import advance


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
