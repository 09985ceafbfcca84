"""Agents: one small interface for every policy that can take a seat.

``agent.act(observation, action_mask, *, state=None, seat=None) -> int`` returns a legal
action id. ``observation`` is the encoded observation of the acting seat and ``action_mask``
its int8/bool mask. Rule-based agents also read the rules ``state`` (the env's
``unwrapped.game_state``) and their ``seat``; learned policies ignore them.

An agent that never reads ``observation`` sets the class attribute ``uses_observation =
False``; game loops then pass ``None`` and skip encoding it (random and rule-based agents).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from primeval.wrappers.single_agent import UniformRandomOpponent


@runtime_checkable
class Agent(Protocol):
    """Anything that picks a legal action."""

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray, *, state: Any = None,
            seat: int | None = None) -> int: ...


class RandomAgent(UniformRandomOpponent):
    """Uniform over the legal actions, with its own seeded generator (the single-agent
    wrapper's default opponent, under the name agents are listed by)."""
