"""What step_only.py, stamps.py and uneven.py share: the games of Origin's learned-alone
recipe (configs/origin/alone.yaml) with the opponents of its schedule's last phase (0.9
heuristic, 0.1 random), stepped with random legal actions."""

from __future__ import annotations

import dataclasses

import numpy as np

from primeval.training.ppo.config import load_config
from primeval.training.ppo.league import League

#: A step past the schedule's last phase (``from_step: 30000``).
STEADY_STEP = 40_000


def recipe_config(workers: int = 1):
    """The recipe's training config, its games stepped by ``workers`` processes."""
    return dataclasses.replace(load_config("origin/alone"), workers=workers)


def steady_league(config, folder: str) -> League:
    """The run's league, its opponent schedule at its last phase."""
    league = League(config, folder)
    league.step = STEADY_STEP
    return league


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random legal action a game, from the games' masks."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])
