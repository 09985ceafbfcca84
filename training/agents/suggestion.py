"""``suggest``: what an agent would play in an env's current position, without playing it.

::

    from primeval.training.agents import suggest

    action, name = suggest(env, "heuristic")        # or "mcts:sims=100", "ppo:PATH"
    env.step(action)                                # if you agree

It asks the agent for the player to act, with what that player may see (its observation and
mask, the rules state and its seat, as tournaments pass them), and leaves the env as it was:
the agent reads a copy of the state and draws from its own generator, never the env's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from primeval.envs.core.aec import TurnBasedAECEnv

__all__ = ["Suggestion", "suggest"]


class Suggestion(NamedTuple):
    """An action id and its name as the player to act reads it (unpacks as a pair)."""

    action: int
    name: str


def core_env(env: Any) -> TurnBasedAECEnv:
    """The primeval AEC core under ``env``: the core itself, a PettingZoo wrapper of it
    (``env.unwrapped``), or a single-agent Gymnasium env over it (its ``aec``)."""
    for candidate in (env, getattr(env, "unwrapped", None)):
        if isinstance(candidate, TurnBasedAECEnv):
            return candidate
        aec = getattr(candidate, "aec", None)
        if aec is not None:
            return core_env(aec)
    raise TypeError(
        f"suggest needs a primeval env (AEC, a wrapper of one, or the Gymnasium "
        f"env), got {type(env).__name__}"
    )


def suggest(
    env: Any, agent: Any, *, seed: int | None = 0, trust_checkpoint: bool = False
) -> Suggestion:
    """What ``agent`` would play for the player to act in ``env``'s current position.

    Args:
        env: A primeval env after ``reset``: ``raw_env()``/``env()`` (or any PettingZoo
            wrapper of one) or ``gymnasium.make("primeval/...")``.
        agent: An agent spec (``"heuristic"``, ``"random"``, ``"mcts:sims=100"``,
            ``"ppo:PATH"``; see :func:`~primeval.training.agents.make_agent`) or an agent.
        seed: The seed of an agent built from a spec (its own generator: the same position
            and seed give the same suggestion).
        trust_checkpoint: As for :func:`~primeval.training.agents.make_agent`.

    Returns:
        ``Suggestion(action, name)``: a legal action id and its name.

    Raises:
        ValueError: No one is to act (the game is over, or not started), or a bad spec.
        CheckpointError: A ``ppo:`` checkpoint trained on another game, player count or
            encoder (named).
    """
    from primeval.training.agents import make_agent

    core = core_env(env)
    if core.game_state is None:
        raise ValueError("suggest: the env has no game yet; call reset() first")
    player = core.agent_selection
    if not core.action_mask(player).any():  # all zeros once the game is over or cut off
        raise ValueError(f"suggest: no one is to act ({core.describe()})")
    if isinstance(agent, str):
        agent = make_agent(agent, core.rules.name, seed=seed, trust_checkpoint=trust_checkpoint)
    space = core.observation_space(player)["observation"]
    if hasattr(agent, "check_env_spec"):
        agent.check_env_spec(
            {
                "game": core.rules.name,
                "players": len(core.possible_agents),
                "encoder": core.obs_encoder.name,
            }
        )
    if hasattr(agent, "check_spaces"):
        agent.check_spaces(space, core.action_space(player))
    seat = core.possible_agents.index(player)
    observation = (
        core.observe(player)["observation"] if getattr(agent, "uses_observation", True) else None
    )
    mask = core.action_mask(player).copy()
    action = int(agent.act(observation, mask, state=core.game_state.copy(), seat=seat))
    if not mask[action]:
        raise RuntimeError(
            f"{getattr(agent, 'name', agent)!r} suggested the illegal action "
            f"{action} ({core.action_name(action)})"
        )
    return Suggestion(action, core.action_name(action))
