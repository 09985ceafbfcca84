"""Random legal play: the one loop that the env tools and the tests play games with.

The benchmark, the fuzzer, the golden transcripts, ``primeval render`` and the tests that
need a game some steps in all play the same way: read the acting agent's mask, draw a legal
action, step (``None`` for an agent already finished), until every agent has left. They
differ only in how they draw the action, and each tool's games for a given seed must stay
the games it has always played (the golden transcripts and the fuzz seeds are records of
them). So the loop is written once, :func:`random_steps` (and :func:`random_rules_steps`
at rules level, for tests of the rules alone), and the draw is its ``choose(mask, rng)``
argument; the named ways of drawing are here too:

* :func:`uniform`: ``legal[rng.integers(n)]``, the same draw as ``rng.choice(legal)``
  (numpy's ``choice`` without weights is one ``integers`` call; a test checks it), which is
  what the golden transcripts, the fuzzer, ``primeval render`` and the tests use;
* :func:`uniform_float`: ``legal[int(rng.random() * n)]``, one float per draw: the
  benchmark's, because it is cheaper than ``np.flatnonzero`` and ``integers`` by the same
  amount for every env it compares. It is another stream of actions than :func:`uniform`.

The fuzzer's draw (now and then an illegal action first) is a chooser of its own, built on
:func:`uniform` in :mod:`primeval.envs.testing.fuzz`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any, NamedTuple

import numpy as np

__all__ = ["CHOOSERS", "Chooser", "Turn", "advance", "random_rules_steps", "random_steps",
           "uniform", "uniform_float"]

#: ``choose(mask, rng) -> action``: a legal action id of ``mask`` drawn with ``rng``.
Chooser = Callable[[np.ndarray, np.random.Generator], int]


def uniform(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniform legal action: ``legal[rng.integers(n)]``, the same draw as
    ``rng.choice(legal)`` (and as :class:`~primeval.envs.core.agents.RandomAgent`'s)."""
    legal = np.flatnonzero(mask)
    if not legal.size:
        raise ValueError("the action mask has no legal action")
    return int(legal[rng.integers(legal.size)])


def uniform_float(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniform legal action from one float, ``legal[int(rng.random() * n)]``: the
    benchmark's draw, the cheapest numpy allows, so that the benchmark measures the envs
    rather than the drawing."""
    legal = mask.nonzero()[0]
    if not legal.size:
        raise ValueError("the action mask has no legal action")
    return int(legal[int(rng.random() * legal.size)])


#: The named ways of drawing a random legal action.
CHOOSERS: dict[str, Chooser] = {"uniform": uniform, "uniform_float": uniform_float}


class Turn(NamedTuple):
    """One agent step just taken: what ``env.last()`` returned before it, and the action
    (``None`` for an agent that had already terminated or been truncated)."""

    agent: str
    observation: Any
    reward: float
    termination: bool
    truncation: bool
    info: dict[str, Any]
    action: int | None


def random_steps(env: Any, rng: np.random.Generator | int = 0,
                 choose: Chooser = uniform) -> Iterator[Turn]:
    """Plays the current game of the AEC ``env`` with random legal actions until every agent
    has left, yielding each agent step after taking it.

    It reads the env as a training loop does, ``last()`` for the observation and its
    ``"action_mask"``, so it plays any PettingZoo env with masks (ours, raw or wrapped, and
    PettingZoo's classic games). Stop it whenever you like (``islice``, ``break``): a step is
    yielded only once it is taken, so the env is never left with an action drawn but not
    played. The caller resets the env; ``rng`` is a generator or a seed."""
    rng = np.random.default_rng(rng)  # a Generator is returned as it is
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = (None if termination or truncation
                  else choose(observation["action_mask"], rng))
        env.step(action)
        yield Turn(agent, observation, reward, termination, truncation, info, action)


def advance(env: Any, steps: int, rng: np.random.Generator | int = 0,
            choose: Chooser = uniform) -> int:
    """Takes up to ``steps`` agent steps of :func:`random_steps` (``None`` steps of finished
    agents count); stops early once every agent has left. Returns the steps taken."""
    return sum(1 for _ in islice(random_steps(env, rng, choose), max(steps, 0)))


def random_rules_steps(rules: Any, state: Any, rng: np.random.Generator,
                       choice_rng: np.random.Generator, choose: Chooser = uniform,
                       apply: Callable[[Any, int, np.random.Generator], Any] | None = None,
                       ) -> Iterator[tuple[Any, int, Any]]:
    """Random legal play at rules level, without an env: from ``state`` to the end of the
    game, yields ``(state, action, next_state)`` for every decision. Actions are drawn by
    ``choose`` with ``choice_rng`` from ``rules.legal_mask``; ``apply`` (default
    ``rules.apply``) gets ``rng``, so the game's own randomness and the choices are separate
    streams. A test passes its own ``apply`` to check each transition as it happens."""
    apply = apply or rules.apply
    while not rules.is_terminal(state):
        action = choose(rules.legal_mask(state), choice_rng)
        new = apply(state, action, rng)
        yield state, action, new
        state = new
