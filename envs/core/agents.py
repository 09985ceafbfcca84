"""Agents: the one small interface for every player that can take a seat.

``agent.act(observation, action_mask, *, state=None, seat=None) -> int`` returns a legal
action id. ``observation`` is the encoded observation of the acting seat and ``action_mask``
its int8/bool mask. Rule-based agents also read the rules ``state`` (the env's
``unwrapped.game_state``) and their ``seat``; learned policies ignore them.

An agent that never reads ``observation`` sets the class attribute ``uses_observation =
False``; game loops (:func:`agent_action`) then pass ``None`` and skip encoding it.

The single-agent wrapper's opponents, tournaments, the human-play console and the env tools
all take agents of this interface; ``primeval.training.agents`` adds the heuristic, policy
checkpoint and pool agents and ``make_agent(spec)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["Agent", "RandomAgent", "agent_action", "turns"]


@runtime_checkable
class Agent(Protocol):
    """Anything that picks a legal action."""

    name: str

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, *,
            state: Any = None, seat: int | None = None) -> int: ...


class RandomAgent:
    """Uniform over the legal actions, with its own generator (seeded here or by
    :meth:`seed`): the single-agent wrapper's default opponent."""

    name = "random"
    uses_observation = False  # act() reads only the mask, so none is encoded for it

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError(f"{type(self).__name__}.act: the action mask has no legal action")
        return int(legal[self.rng.integers(legal.size)])  # = rng.choice(legal), faster


def agent_action(agent: Agent, game: Any, agent_name: str) -> int:
    """What ``agent`` plays as ``agent_name`` (whose turn it is) in ``game``, a raw primeval
    AEC env: it gets that seat's mask, the rules state and the seat, and the encoded
    observation only if it reads one (agents with ``uses_observation = False`` get ``None``,
    which spares encoding it)."""
    observation = (game.observe(agent_name)["observation"]
                   if getattr(agent, "uses_observation", True) else None)
    return agent.act(observation, game.action_mask(agent_name), state=game.game_state,
                     seat=game.possible_agents.index(agent_name))


def turns(game: Any) -> Iterator[tuple[int, str]]:
    """A game's decisions in turn, as ``(seat, agent_name)``, for a loop that plays one game
    of ``game`` (a raw primeval AEC env, already reset) to its end: the caller steps the env
    with the acting seat's action before asking for the next turn; the finished seats'
    ``None`` steps (PettingZoo's dead-step convention) are taken here.

    Example::

        for seat, name in turns(env):
            env.step(agent_action(agents[seat], env, name))
    """
    for name in game.agent_iter():
        _obs, _reward, termination, truncation, _info = game.last(observe=False)
        if termination or truncation:
            game.step(None)
            continue
        yield game.possible_agents.index(name), name
