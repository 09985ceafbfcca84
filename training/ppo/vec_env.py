"""A vector env whose policy opponents answer every game waiting on them in one batch.

In self-play the other seats are played by policies: the one being trained and its past
snapshots. Played inside each env's ``step`` (SB3's ``DummyVecEnv``), every opponent move
costs a forward pass of batch 1. :class:`BatchedOpponentsVecEnv` steps its envs in parts
(:meth:`~primeval.wrappers.single_agent.SingleAgentEnv.step_learner`, the opponents, then
``finish_step``): after the learner's actions it gathers, over all games, the decisions
waiting on the same policy opponent (one with ``act_batch``, such as
:class:`~primeval.training.agents.policy.PolicyAgent`) and answers them with one forward
pass; other opponents (random, heuristic) act at once. Each env's game is the one it would
play alone: the envs share nothing but the batched opponents.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv

from primeval.training.agents import agent_action


class BatchedOpponentsVecEnv(DummyVecEnv):
    """``DummyVecEnv`` over :class:`~primeval.wrappers.single_agent.SingleAgentEnv`\\ s with
    policy opponents batched across games (see the module docstring)."""

    def reset(self):
        for i, env in enumerate(self.envs):
            env.reset_game(seed=self._seeds[i])
        self._answer_opponents(range(self.num_envs))
        for i, env in enumerate(self.envs):
            obs, self.reset_infos[i] = env.finish_reset()
            self._save_obs(i, obs)
        self._reset_seeds()
        self._reset_options()
        return self._obs_from_buf()

    def step_wait(self):
        for i, env in enumerate(self.envs):
            env.step_learner(self.actions[i])
        self._answer_opponents(range(self.num_envs))
        ended = []
        for i, env in enumerate(self.envs):
            obs, self.buf_rews[i], terminated, truncated, self.buf_infos[i] = env.finish_step()
            self.buf_dones[i] = terminated or truncated
            self.buf_infos[i]["TimeLimit.truncated"] = truncated and not terminated
            if self.buf_dones[i]:
                self.buf_infos[i]["terminal_observation"] = obs
                env.reset_game()
                ended.append(i)
            else:
                self._save_obs(i, obs)
        self._answer_opponents(ended)
        for i in ended:
            obs, self.reset_infos[i] = self.envs[i].finish_reset()
            self._save_obs(i, obs)
        return (self._obs_from_buf(), np.copy(self.buf_rews), np.copy(self.buf_dones),
                [dict(info) for info in self.buf_infos])

    def _answer_opponents(self, indices) -> None:
        """Play the opponents of the envs ``indices`` until each waits on its learner."""
        active = list(indices)
        while active:
            waiting: dict[int, tuple[Any, list[tuple[int, str]]]] = {}
            for i in active:
                env = self.envs[i]
                while (pending := env.opponent_to_act()) is not None:
                    name, agent = pending
                    if hasattr(agent, "act_batch"):
                        waiting.setdefault(id(agent), (agent, []))[1].append((i, name))
                        break
                    env.apply_opponent_action(agent_action(agent, env.game, name))
            for agent, rows in waiting.values():
                games = [(self.envs[i].game, name) for i, name in rows]
                observations = np.stack([g.obs_encoder.encode(g.game_state,
                                                              g.possible_agents.index(name))
                                         for g, name in games])
                masks = np.stack([g.action_mask(name, dtype=bool) for g, name in games])
                actions = agent.act_batch(
                    observations, masks, states=[g.game_state for g, _name in games],
                    seats=[g.possible_agents.index(name) for g, name in games])
                for (i, _name), action in zip(rows, actions, strict=True):
                    self.envs[i].apply_opponent_action(int(action))
            active = [i for _agent, rows in waiting.values() for i, _name in rows]
