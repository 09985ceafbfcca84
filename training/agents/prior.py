"""The prior of a residual policy: which agent's choice it starts from, and that choice as
the one-hot "hint" its observation ends with (``primeval.training.ppo.prior`` trains such
policies; :class:`~primeval.training.agents.policy.PolicyAgent` plays them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The agents a prior can be (``prior.agent`` of a training config); ``none``: no prior.
PRIOR_AGENTS = ("none", "heuristic")


def make_prior_agent(name: str, game: str, seed: int | None = None) -> Any:
    """The agent whose choices are the prior (``heuristic``: the game's rule-based bot)."""
    from primeval.training.agents import make_heuristic

    if name not in PRIOR_AGENTS[1:]:
        raise ValueError(f"prior agent {name!r}: allowed {', '.join(PRIOR_AGENTS[1:])}")
    return make_heuristic(game, seed)


def prior_hint(agent: Any, state: Any, seat: int, mask: np.ndarray) -> np.ndarray:
    """The one-hot (float32, one entry per action) of ``agent``'s choice for ``seat`` at
    ``state`` whose legal actions are ``mask``."""
    hint = np.zeros(len(mask), dtype=np.float32)
    hint[int(agent.act(None, mask, state=state, seat=seat))] = 1.0
    return hint


def with_hint(observation: np.ndarray, hint: np.ndarray) -> np.ndarray:
    """The observation a prior policy reads: the encoder's observation, then the hint."""
    return np.concatenate([np.asarray(observation, dtype=np.float32).ravel(), hint])


__all__ = ["PRIOR_AGENTS", "make_prior_agent", "prior_hint", "with_hint"]
