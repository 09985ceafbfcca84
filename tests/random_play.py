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
