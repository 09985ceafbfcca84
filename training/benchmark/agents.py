"""Any agent plays a benchmark task: specs, zoo names, Python callables, torch policies.

:func:`benchmark_agent` turns what a user brings into an agent of the package's
:class:`~primeval.envs.core.agents.Agent` interface:

* a spec string: ``random``, ``heuristic``, ``mcts:...``, ``ppo:PATH`` (an SB3 MaskablePPO
  checkpoint; it brings its own encoder through the env spec it saved), ``rllib:PATH``
  (:func:`~primeval.training.agents.make_agent`); ``zoo:TASK/MEMBER`` (:mod:`.zoo`);
  ``cmd:COMMAND`` or ``proc:COMMAND``, an agent in another process speaking the JSON-lines
  protocol (:mod:`.protocol`);
* a Python callable ``fn(observation, action_mask, info) -> action`` (:func:`callable_agent`);
* a ``torch.nn.Module`` mapping a batch of observations to action logits
  (:class:`TorchPolicyAgent`: illegal actions masked out, the best legal one played);
* an object that already has ``act(observation, action_mask, *, state=None, seat=None)``.

Encoder-free agents (callables, torch modules, other processes) get the env's observation
(the task's encoder, ``flat``), the mask and ``info``: ``{"legal_actions": [(id, name),
...], "seat": k, "game": name, "players": n}`` (the names as the seat itself reads them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from primeval.training.benchmark.seat import EncoderFreeAgent


class CallableAgent(EncoderFreeAgent):
    """A Python function as an agent: ``fn(observation, action_mask, info) -> action``."""

    def __init__(
        self, fn: Callable[..., Any], game: str, players: int | None = None, name: str | None = None
    ) -> None:
        if not callable(fn):
            raise TypeError(f"callable_agent: {fn!r} is not callable")
        super().__init__(game, players, name or getattr(fn, "__name__", "callable"))
        self.fn = fn

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        info = self.info(action_mask, state, seat)
        return self.checked(self.fn(observation, np.asarray(action_mask), info), action_mask)


def callable_agent(
    fn: Callable[..., Any],
    game: str = "primordial_soup",
    players: int | None = None,
    name: str | None = None,
) -> CallableAgent:
    """An agent from ``fn(observation, action_mask, info) -> action`` (see the module)."""
    return CallableAgent(fn, game, players, name)


class TorchPolicyAgent(EncoderFreeAgent):
    """A plain ``torch.nn.Module`` policy: ``module(obs[None])`` returns logits of shape
    ``(1, n_actions)``; the illegal actions are masked out and the best legal one is played
    (``deterministic``) or one is sampled from the masked softmax with the agent's own
    generator."""

    def __init__(
        self,
        module: Any,
        game: str,
        players: int | None = None,
        deterministic: bool = True,
        seed: int | None = None,
        name: str = "torch",
    ) -> None:
        super().__init__(game, players, name)
        self.module = module
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        import torch

        with torch.no_grad():
            obs = torch.as_tensor(np.asarray(observation, dtype=np.float32))[None]
            logits = self.module(obs)
        logits = np.asarray(logits.detach().cpu().numpy(), dtype=np.float64).reshape(-1)
        mask = np.asarray(action_mask).astype(bool)
        if logits.shape != mask.shape:
            raise ValueError(
                f"agent {self.name}: the module returned {logits.size} logits, "
                f"the game has {mask.size} actions"
            )
        masked = np.where(mask, logits, -np.inf)
        if self.deterministic:
            return int(np.argmax(masked))
        p = np.exp(masked - masked.max())
        return int(self.rng.choice(mask.size, p=p / p.sum()))


def _is_module(obj: Any) -> bool:
    try:
        import torch
    except ImportError:  # pragma: no cover (torch is a dependency of the train extra)
        return False
    return isinstance(obj, torch.nn.Module)


def benchmark_agent(
    agent: Any,
    game: str,
    players: int | None = None,
    seed: int | None = None,
    trust_checkpoint: bool = False,
    timeout: float | None = None,
) -> Any:
    """An agent of the package's interface from a spec, a zoo name, a callable, a torch
    module or an agent (see the module). ``timeout``: seconds a ``cmd:`` agent may take to
    answer (default :data:`~.protocol.DEFAULT_TIMEOUT`).

    Raises:
        ValueError: An unknown spec (the kinds named), a zoo member of another game.
        TypeError: Something that is none of these.
    """
    if isinstance(agent, str):
        if agent.startswith("zoo:"):
            from primeval.training.benchmark.zoo import zoo_agent

            return zoo_agent(agent, game, players=players, seed=seed)
        if agent.startswith(("cmd:", "proc:")):
            from primeval.training.benchmark.protocol import DEFAULT_TIMEOUT, ProcessAgent

            return ProcessAgent(
                agent.split(":", 1)[1],
                game,
                players,
                timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
            )
        from primeval.training.agents import make_agent

        return make_agent(agent, game, seed=seed, trust_checkpoint=trust_checkpoint)
    if hasattr(agent, "act"):
        return agent
    if _is_module(agent):
        return TorchPolicyAgent(agent, game, players, seed=seed)
    if callable(agent):
        return CallableAgent(agent, game, players)
    raise TypeError(
        f"cannot play {agent!r}: give a spec (random, heuristic, mcts:..., "
        "ppo:PATH, rllib:PATH, zoo:TASK/MEMBER, cmd:COMMAND), a callable "
        "fn(observation, action_mask, info) -> action, a torch.nn.Module or an "
        "agent with act()"
    )


def agent_label(agent: Any) -> str:
    """How a result names the agent: its spec, or its ``name``, or its type."""
    if isinstance(agent, str):
        return agent
    return str(
        getattr(agent, "name", None) or getattr(agent, "__name__", None) or type(agent).__name__
    )


__all__ = ["CallableAgent", "TorchPolicyAgent", "agent_label", "benchmark_agent", "callable_agent"]
