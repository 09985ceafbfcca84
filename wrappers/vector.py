"""N games of the single-agent view stepped together, as one Gymnasium ``VectorEnv``.

:class:`SingleAgentVectorEnv` holds N :class:`~primeval.wrappers.single_agent.SingleAgentEnv`
games (or subclasses such as the residual prior's ``PriorHintEnv``) and steps them in one
process. It returns the learners' observations, rewards, terminations and truncations as
``(N, ...)`` arrays and their masks as an ``(N, actions)`` bool array
(:meth:`~SingleAgentVectorEnv.action_masks`), all written into buffers allocated once.

Each step has three parts, over all the games at once:

1. every learner's action (``SingleAgentEnv.step_learner``);
2. the opponents, until every game waits on its learner again: an opponent with an
   ``act_batch(observations, masks, *, states, seats)`` method (a policy, such as
   :class:`~primeval.training.agents.policy.PolicyAgent`, shared by the games) answers every
   game waiting on it in one call; the others (random players, heuristics) act at once;
3. what the step returns; a game that ended is reset at once and its first opponents are
   batched the same way.

Autoreset is Gymnasium's *same-step* mode (``metadata["autoreset_mode"]``, as SB3's vector
envs do it): the observation of a game that ended is already the next game's first one; the
last observation and info of the ended game are in ``infos["final_obs"]`` and
``infos["final_info"]`` (object arrays, set where ``infos["_final_obs"]`` is True). A step's
other infos are empty: what a learner needs is in the arrays.

Each game is the very game its env plays alone (``env.reset(seed)``, then ``env.step``) for
the same seed and actions: the games share nothing but the opponents answered together, and
an ``act_batch`` answers each row as ``act`` would (``tests/wrappers/test_vector.py``).

    >>> from primeval.envs.games import GAMES
    >>> from primeval.wrappers.single_agent import SingleAgentEnv
    >>> from primeval.wrappers.vector import SingleAgentVectorEnv
    >>> envs = SingleAgentVectorEnv([SingleAgentEnv(GAMES["primordial_soup"].raw_env(3))
    ...                              for _ in range(4)])
    >>> obs, infos = envs.reset(seed=0)
    >>> obs.shape[0], envs.action_masks().shape[0]
    (4, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from primeval.envs.core.agents import agent_action
from primeval.wrappers.single_agent import SingleAgentEnv

__all__ = ["Ended", "SingleAgentVectorEnv", "answer_opponents"]

#: One game that ended in a step: its index, its last observation and its last info.
Ended = tuple[int, np.ndarray, dict[str, Any]]


def answer_opponents(envs: Sequence[SingleAgentEnv], indices: Sequence[int]) -> None:
    """Play the opponents of ``envs[i]`` for ``i`` in ``indices`` until each game waits on
    its learner (or is over). Opponents with ``act_batch`` answer all the games waiting on
    them in one call, in the order of ``indices``; the others act at once."""
    active = list(indices)
    while active:
        waiting: dict[int, tuple[Any, list[tuple[int, str]]]] = {}
        for i in active:
            env = envs[i]
            while (pending := env.opponent_to_act()) is not None:
                name, agent = pending
                if hasattr(agent, "act_batch"):
                    waiting.setdefault(id(agent), (agent, []))[1].append((i, name))
                    break
                env.apply_opponent_action(agent_action(agent, env.game, name))
        for agent, rows in waiting.values():
            games = [envs[i].game for i, _name in rows]
            seats = [
                g.possible_agents.index(name) for g, (_i, name) in zip(games, rows, strict=True)
            ]
            states = [g.game_state for g in games]
            observations = (
                np.stack(
                    [
                        g.obs_encoder.encode(s, seat)
                        for g, s, seat in zip(games, states, seats, strict=True)
                    ]
                )
                if getattr(agent, "uses_observation", True)
                else None
            )
            masks = np.stack(
                [g.action_mask(name, dtype=bool) for g, (_i, name) in zip(games, rows, strict=True)]
            )
            actions = agent.act_batch(observations, masks, states=states, seats=seats)
            for (i, _name), action in zip(rows, actions, strict=True):
                envs[i].apply_opponent_action(int(action))
        active = [i for _agent, rows in waiting.values() for i, _name in rows]


class SingleAgentVectorEnv(VectorEnv):
    """N single-agent games stepped together with batched opponents (see the module
    docstring).

    Args:
        envs: The games: :class:`~primeval.wrappers.single_agent.SingleAgentEnv`\\ s of one
            game and observation space (each with its own opponents; a policy opponent may
            be shared, and is then asked once for all the games waiting on it).
        copy: Return copies of the observation buffer (default). ``False`` returns the
            buffer itself, which the next ``step`` or ``reset`` overwrites.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, envs: Sequence[SingleAgentEnv], copy: bool = True) -> None:
        envs = list(envs)
        if not envs:
            raise ValueError("SingleAgentVectorEnv needs at least one env")
        for env in envs:
            if not isinstance(env, SingleAgentEnv):
                raise TypeError(
                    f"SingleAgentVectorEnv takes SingleAgentEnv games, got {type(env).__name__}"
                )
        first = envs[0]
        for k, env in enumerate(envs[1:], start=1):
            if (
                env.observation_space != first.observation_space
                or env.action_space != first.action_space
            ):
                raise ValueError(
                    f"env {k} has other spaces than env 0 ({env.observation_space}"
                    f", {env.action_space} against {first.observation_space}, "
                    f"{first.action_space}): one game and encoder for all"
                )
        self.envs = envs
        self.num_envs = n = len(envs)
        self.copy = copy
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, n)
        self.action_space = batch_space(first.action_space, n)
        self.metadata = {
            **type(self).metadata,
            "render_modes": first.metadata["render_modes"],
            "render_fps": first.metadata["render_fps"],
        }
        self.render_mode = first.render_mode
        space = first.observation_space
        self._obs = np.zeros((n, *space.shape), dtype=space.dtype)
        self._masks = np.zeros((n, int(first.action_space.n)), dtype=bool)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminations = np.zeros(n, dtype=bool)
        self._truncations = np.zeros(n, dtype=bool)
        self._all = range(n)
        self._started = False

    # -- the parts a learner's adapter calls ------------------------------------------------

    def reset_arrays(self, seeds: Sequence[int | None]) -> np.ndarray:
        """Reset every game (``seeds[i]`` for game ``i``, ``None`` to go on with its own
        generator); the observation buffer (not a copy)."""
        envs = self.envs
        for env, seed in zip(envs, seeds, strict=True):
            env.reset_game(seed=seed)
        answer_opponents(envs, self._all)
        for i in self._all:
            envs[i].finish_reset_result()
            self._write(i)
        self._terminations[:] = self._truncations[:] = False
        self._rewards[:] = 0.0
        self._started = True
        return self._obs

    def step_arrays(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[Ended]]:
        """One step of every game: the buffers of observations, rewards, terminations and
        truncations (not copies) and the games that ended, as ``(index, last observation,
        last info)``; those games are reset already."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("step() before reset(): call reset()")
        envs = self.envs
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(
                f"actions must have shape ({self.num_envs},), one per game; got {actions.shape}"
            )
        for env, action in zip(envs, actions, strict=True):
            env.step_learner(action)
        answer_opponents(envs, self._all)
        ended: list[Ended] = []
        for i in self._all:
            env = envs[i]
            reward, terminated, truncated = env.step_result()
            self._rewards[i] = reward
            self._terminations[i] = terminated
            self._truncations[i] = truncated
            if terminated or truncated:
                ended.append((i, env._observation(), env._info()))
                env.reset_game()
            else:
                self._write(i)
        if ended:
            restarted = [i for i, _obs, _info in ended]
            answer_opponents(envs, restarted)
            for i in restarted:
                envs[i].finish_reset_result()
                self._write(i)
        return self._obs, self._rewards, self._terminations, self._truncations, ended

    def _write(self, i: int) -> None:
        env = self.envs[i]
        self._obs[i] = env._observation()
        self._masks[i] = env.action_masks()

    # -- Gymnasium's VectorEnv API -----------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ):
        """Reset every game: ``seed`` an int (game ``i`` gets ``seed + i``, as Gymnasium's
        ``SyncVectorEnv``), a list of one seed per game, or ``None``. Returns
        ``(observations, {})``."""
        if options:
            raise ValueError(f"SingleAgentVectorEnv.reset takes no options, got {options!r}")
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int | np.integer):
            seeds = [int(seed) + i for i in self._all]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(
                    f"{len(seeds)} seeds for {self.num_envs} games: give one per "
                    "game, an int or None"
                )
        obs = self.reset_arrays(seeds)
        return (obs.copy() if self.copy else obs), {}

    def step(self, actions):
        """``(observations, rewards, terminations, truncations, infos)``; ``infos`` holds
        ``final_obs`` and ``final_info`` for the games that ended (same-step autoreset)."""
        obs, rewards, terminations, truncations, ended = self.step_arrays(actions)
        infos: dict[str, Any] = {}
        for i, final_obs, final_info in ended:
            infos = self._add_info(infos, {"final_obs": final_obs, "final_info": final_info}, i)
        return (
            (obs.copy() if self.copy else obs),
            rewards.copy(),
            terminations.copy(),
            truncations.copy(),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, one row per game (the buffer: copy it to keep it)."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("action_masks() before reset(): call reset()")
        return self._masks

    def render(self):
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
