"""Agents that can take a seat: random, the heuristic bots, trained policies, the pool.

Every agent has ``act(observation, action_mask, *, state=None, seat=None) -> int`` (the
:class:`~primeval.envs.core.agents.Agent` protocol). :func:`make_agent` builds one from its
spec, as the CLI and the YAML configs name them:

* ``random``: :class:`RandomAgent`, uniform over the legal actions;
* ``heuristic``: the game's rule-based bot (:mod:`.heuristics`);
* ``ppo:PATH``: a saved MaskablePPO checkpoint (:class:`~.policy.PolicyAgent`).

:mod:`.pool` draws an opponent per seat and episode for training.
"""

from __future__ import annotations

from primeval.envs.core.agents import Agent, RandomAgent, agent_action
from primeval.envs.games import get_game

#: The agent specs :func:`make_agent` takes (``ppo:`` is followed by a checkpoint path).
AGENT_SPECS = ("random", "heuristic", "ppo:PATH")


def make_heuristic(game: str, seed: int | None = None) -> Agent:
    """The heuristic bot of ``game``."""
    from primeval.training.agents.heuristics import HEURISTICS

    return HEURISTICS[get_game(game).name](seed=seed)


def make_agent(spec: str, game: str, seed: int | None = None) -> Agent:
    """An agent from its spec: ``random``, ``heuristic`` or ``ppo:PATH`` (a checkpoint).

    Raises:
        ValueError: An unknown spec or game.
        CheckpointError: ``ppo:PATH`` names no loadable checkpoint.
    """
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        return make_heuristic(game, seed)
    if isinstance(spec, str) and spec.startswith("ppo:"):
        from primeval.training.agents.policy import PolicyAgent

        return PolicyAgent(spec[4:], seed=seed)
    raise ValueError(f"unknown agent {spec!r}; use random, heuristic or ppo:PATH/model.zip")


__all__ = ["AGENT_SPECS", "Agent", "RandomAgent", "agent_action", "make_agent", "make_heuristic"]
