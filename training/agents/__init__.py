"""Agents that can take a seat: random, the heuristic bots, trained policies, the pool.

Every agent has ``act(observation, action_mask, *, state=None, seat=None) -> int`` (the
:class:`~primeval.envs.core.agents.Agent` protocol). :func:`make_agent` builds one from its
spec, as the CLI and the YAML configs name them:

* ``random``: :class:`RandomAgent`, uniform over the legal actions;
* ``heuristic``: the game's rule-based bot (:mod:`.heuristics`);
* ``ppo:PATH``: a saved MaskablePPO checkpoint (:class:`~.policy.PolicyAgent`);
* ``rllib:PATH``: an RLlib run or checkpoint of ``primeval train --backend rllib``
  (:class:`primeval.training.rllib.agent.RLlibAgent`; the ``rllib`` extra);
* ``mcts`` or ``mcts:KEY=VALUE,...``: Monte Carlo tree search on the rules
  (:class:`~.mcts.MCTSAgent`; keys ``sims``, ``time``, ``rollout``, ``depth``, ``c``,
  ``eval``, ``prior``; ``net`` and ``batch`` for a network-guided search);
* ``rollouts:net=PATH[,KEY=VALUE,...]``: the network's few likeliest moves compared by
  paired heuristic rollouts (:class:`~.rollouts.RolloutSearchAgent`; keys ``k``, ``n``,
  ``depth``, ``z``);
* ``net:PATH``: a policy-value network's policy alone, no search
  (:class:`~primeval.training.expert.play.NetworkAgent`; ``primeval train`` with
  ``algo: expert`` writes them).

:mod:`.pool` draws an opponent per seat and episode for training; :func:`suggest`
(:mod:`.suggestion`) says what an agent would play in an env's current position.
"""

from __future__ import annotations

from primeval.envs.core.agents import Agent, RandomAgent, agent_action, turns
from primeval.envs.games import get_game

#: The agent specs :func:`make_agent` takes (``ppo:`` is followed by a checkpoint path,
#: ``mcts:`` by the search's settings, e.g. ``mcts:sims=400,rollout=heuristic``).
AGENT_SPECS = ("random", "heuristic", "ppo:PATH", "rllib:PATH", "mcts[:KEY=VALUE,...]",
               "rollouts:net=PATH[,KEY=VALUE,...]", "net:PATH")


def make_heuristic(game: str, seed: int | None = None) -> Agent:
    """The heuristic bot of ``game``, training's "heuristic" opponent and yardstick.

    A game whose descriptor names no heuristic gets a :class:`RandomAgent` instead, with a
    warning saying so (its "vs heuristic" figures are then against random play); asking for
    the ``heuristic`` agent by name (:func:`make_agent`) is refused for such a game.
    """
    import warnings

    from primeval.training.agents.heuristics import heuristic_class

    if get_game(game).heuristic is None:
        warnings.warn(f"game {game!r} has no heuristic agent; a random player stands in "
                      "for it", stacklevel=2)
        return RandomAgent(seed)
    return heuristic_class(game)(seed=seed)


def make_agent(spec: str, game: str, seed: int | None = None,
               trust_checkpoint: bool = False) -> Agent:
    """An agent from its spec: ``random``, ``heuristic``, ``ppo:PATH`` (a checkpoint),
    ``rllib:PATH``, ``mcts[:KEY=VALUE,...]`` (see :func:`~.mcts.parse_mcts_spec`),
    ``rollouts:net=PATH[,KEY=VALUE,...]`` (see :func:`~.rollouts.parse_rollouts_spec`)
    or ``net:PATH`` (a policy-value network's raw policy). Members of the reference zoo
    (``zoo:TASK/MEMBER``) are named by :func:`primeval.training.evaluate.agent_from_spec`.

    ``trust_checkpoint``: load ``ppo:`` and ``rllib:`` checkpoints that need unpickling
    (which can run any code they hold); by default they are refused
    (:mod:`~.checkpoint`).

    Raises:
        ValueError: An unknown spec or game, or a bad mcts or rollouts setting (named).
        CheckpointError: ``ppo:PATH`` names no loadable checkpoint (an
            ``UntrustedCheckpointError`` if it needs unpickling and is not trusted).
    """
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        from primeval.training.agents.heuristics import heuristic_class

        return heuristic_class(game)(seed=seed)
    if isinstance(spec, str) and spec.startswith("ppo:"):
        from primeval.training.agents.policy import PolicyAgent

        return PolicyAgent(spec[4:], seed=seed, trust_checkpoint=trust_checkpoint)
    if isinstance(spec, str) and spec.startswith("rllib:"):
        from primeval.training.rllib.agent import RLlibAgent

        try:
            return RLlibAgent(spec[6:], seed=seed, trust_checkpoint=trust_checkpoint)
        except ModuleNotFoundError as exc:  # ray, imported when the module loads
            raise ValueError(f"{spec}: needs the rllib extra (ray[rllib], `make rllib`): "
                             f"{exc}") from None
    if isinstance(spec, str) and (spec == "mcts" or spec.startswith("mcts:")):
        from primeval.training.agents.mcts import MCTSAgent

        return MCTSAgent(game, spec, seed=seed, trust_checkpoint=trust_checkpoint)
    if isinstance(spec, str) and spec.startswith("rollouts:"):
        from primeval.training.agents.rollouts import RolloutSearchAgent

        return RolloutSearchAgent(game, spec, seed=seed, trust_checkpoint=trust_checkpoint)
    if isinstance(spec, str) and spec.startswith("net:"):
        from primeval.training.expert.play import NetworkAgent

        agent = NetworkAgent(spec[4:], seed=seed)
        agent.network.check_env(game, agent.network.spec["players"])
        return agent
    raise ValueError(f"unknown agent {spec!r}; use random, heuristic, ppo:PATH/model.zip, "
                     "rllib:PATH, mcts[:KEY=VALUE,...], rollouts:net=PATH[,KEY=VALUE,...], "
                     "net:PATH/network.json (or, in evaluate, league and benchmark, "
                     "zoo:TASK/MEMBER)")


__all__ = ["AGENT_SPECS", "Agent", "RandomAgent", "Suggestion", "agent_action", "make_agent",
           "make_heuristic", "suggest", "turns"]


def __getattr__(name: str):
    """``suggest`` and ``Suggestion`` (:mod:`.suggestion`), imported on first use."""
    if name in ("suggest", "Suggestion"):
        import importlib

        return getattr(importlib.import_module(f"{__name__}.suggestion"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
