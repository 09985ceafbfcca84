"""Rollouts collected in parts (``collect: rollout``): every process plays its own games for a
whole rollout with its own copy of the policy, and the parts meet once a rollout.

With ``collect: step`` (the default) the learner's actions of every game come from this
process at every step, so each step waits for the slowest of the ``workers`` parts: a step of
a few games varies from a tenth to several times its mean (in Origin four learner steps in
five are a decision inside the learner's own turn, the fifth plays a round of the bots'
turns), and on two cores a second worker buys 3% to 10% (docs/benchmarks/history.md, "a
worker process on two cores"). With ``collect: rollout`` a part waits for nobody until its
rollout of ``n_steps`` steps is done, so its steps' unevenness averages out over the rollout;
each part runs the policy's forward passes for its own games (the forward pass, a fifth of a
learner step, is shared out as well).

At a rollout's start :meth:`~primeval.training.ppo.vec_env.GamesVecEnv.collect_rollout` sends the
policy's weights (and, the first time, what builds the policy) to every worker, each process
plays its part (:func:`collect_part`), and :class:`RolloutPartsPPO` then feeds the steps to
SB3 in order through the vector env (``VecMonitor``, the callbacks, the rollout buffer see
the steps they would see with ``collect: step``), taking the actions, values and
log-probabilities the parts computed.

The games are the same as with ``collect: step`` (game ``i`` is seeded by its index); the
actions are drawn from each part's own torch generator, seeded by the run's ``collect``
stream, the part and the rollout's first step: the same config, seed and ``workers`` train
the same weights run after run, but another ``workers`` (or ``collect: step``) is another
run, as equally valid (``tests/training/ppo/test_collect.py``).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.utils import obs_as_tensor

__all__ = ["Part", "RolloutPartsPPO", "build_policy", "collect_part", "current_agent",
           "policy_spec", "schedule_steps"]


@dataclass
class Part:
    """One part's rollout of ``n`` steps over its ``m`` games: ``obs`` ``(n + 1, m, ...)``
    (the last row: the observations after the last step), ``masks`` ``(n + 1, m, actions)``,
    ``actions``, ``values``, ``log_probs``, ``rewards``, ``dones`` ``(n, m)``, and per step
    the infos of the games that ended in it, ``{game: info}`` (with ``terminal_observation``
    and ``TimeLimit.truncated``, as :class:`~primeval.training.ppo.vec_env.GamesVecEnv`'s
    steps give them)."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    values: np.ndarray
    log_probs: np.ndarray
    rewards: np.ndarray
    dones: np.ndarray
    ended: list[dict[int, dict[str, Any]]]


def _zero_schedule(_progress_remaining: float) -> float:
    return 0.0  # a copy that only plays needs no step size


def policy_spec(policy: Any) -> tuple[type, dict[str, Any]]:
    """What builds a copy of ``policy`` (its class and constructor parameters, as SB3's own
    ``BasePolicy.save`` keeps them), without its learning-rate schedule."""
    params = dict(policy._get_constructor_parameters())
    params.pop("lr_schedule", None)
    return type(policy), params


def build_policy(spec: tuple[type, dict[str, Any]]) -> Any:
    """A copy of the policy :func:`policy_spec` describes, in evaluation mode (its weights
    are loaded at every rollout)."""
    cls, params = spec
    policy = cls(lr_schedule=_zero_schedule, **params)
    policy.set_training_mode(False)
    return policy


class _Held:
    """A policy where :class:`~primeval.training.agents.policy.PolicyAgent` looks for a
    model's (``.policy``)."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy


def current_agent(policy: Any) -> Any:
    """A worker's copy of the policy being trained as its self-play opponent, sampling its
    moves as the main process's ``league.current`` does (the env seeds it each game)."""
    from primeval.training.agents.policy import PolicyAgent

    return PolicyAgent.from_model(_Held(policy), name="current", deterministic=False)


def weights(policy: Any) -> dict[str, np.ndarray]:
    """The policy's weights as numpy arrays (sent through a pipe as plain data)."""
    return {k: v.detach().cpu().numpy().copy() for k, v in policy.state_dict().items()}


def load_weights(policy: Any, arrays: dict[str, np.ndarray]) -> None:
    policy.load_state_dict({k: th.from_numpy(v) for k, v in arrays.items()})


def schedule_steps(sync: Any, start: int, stride: int) -> Any:
    """``league_step`` for :func:`collect_part`: before step ``t`` of a rollout starting at
    learner step ``start`` (``stride`` games a step), the league's step is ``start + t *
    stride``, as the training callback sets it step by step (``sync``: the vec env's
    :class:`~primeval.training.ppo.vec_env.LeagueStep`, or ``None``)."""
    if sync is None:
        return None
    return lambda t: sync.apply(start + t * stride)


def collect_part(policy: Any, vec: Any, obs: np.ndarray, masks: np.ndarray, n_steps: int,
                 seed: int | None, league_step: Any = None) -> Part:
    """Play ``n_steps`` steps of the games of ``vec`` (a
    :class:`~primeval.wrappers.vector.SingleAgentVectorEnv` whose current observations and
    masks are ``obs`` and ``masks``), the learner's actions drawn from ``policy`` with a torch
    generator seeded by ``seed`` (the global one is left as it was; ``None``: drawn from the
    global one, as SB3's own rollouts draw them). ``league_step(t)`` is called before step
    ``t`` (the opponent schedule's step there), if given."""
    m = obs.shape[0]
    part = Part(
        obs=np.empty((n_steps + 1, *obs.shape), dtype=obs.dtype),
        masks=np.empty((n_steps + 1, *masks.shape), dtype=bool),
        actions=np.empty((n_steps, m), dtype=np.int64),
        values=np.empty((n_steps, m), dtype=np.float32),
        log_probs=np.empty((n_steps, m), dtype=np.float32),
        rewards=np.empty((n_steps, m), dtype=np.float32),
        dones=np.empty((n_steps, m), dtype=bool),
        ended=[],
    )
    part.obs[0], part.masks[0] = obs, masks
    with contextlib.ExitStack() as stack:
        stack.enter_context(th.no_grad())
        if seed is not None:
            stack.enter_context(th.random.fork_rng(devices=[]))
            th.manual_seed(seed)
        for t in range(n_steps):
            if league_step is not None:
                league_step(t)
            actions, values, log_probs = policy(th.as_tensor(part.obs[t]),
                                                action_masks=part.masks[t])
            part.actions[t] = actions.numpy()
            part.values[t] = values.flatten().numpy()
            part.log_probs[t] = log_probs.numpy()
            new_obs, rewards, terminations, truncations, ended = vec.step_arrays(part.actions[t])
            part.obs[t + 1] = new_obs
            part.masks[t + 1] = vec.action_masks()
            part.rewards[t] = rewards
            np.logical_or(terminations, truncations, out=part.dones[t])
            infos = {}
            for i, final_obs, final_info in ended:
                final_info["terminal_observation"] = final_obs
                final_info["TimeLimit.truncated"] = bool(truncations[i] and not terminations[i])
                infos[i] = final_info
            part.ended.append(infos)
    return part


def join_parts(parts: list[Part]) -> Part:
    """The parts side by side, their games in order (part 0's first)."""
    offsets = np.cumsum([0] + [p.actions.shape[1] for p in parts])
    ended = [{int(offset + i): info for part, offset in zip(parts, offsets, strict=False)
              for i, info in part.ended[t].items()} for t in range(len(parts[0].ended))]
    return Part(*(np.concatenate([getattr(p, name) for p in parts], axis=1)
                  for name in ("obs", "masks", "actions", "values", "log_probs", "rewards",
                               "dones")), ended=ended)


def games_vec_env(env: Any) -> Any:
    """The :class:`~primeval.training.ppo.vec_env.GamesVecEnv` under SB3's wrappers of
    ``env`` (``VecMonitor``), found by its ``collect_mode`` (the vec env module imports this
    one), or ``None``."""
    while not hasattr(env, "collect_mode"):
        env = getattr(env, "venv", None)
        if env is None:
            return None
    return env


class RolloutPartsPPO(MaskablePPO):
    """``MaskablePPO`` whose rollouts are collected in parts when its env is a
    :class:`~primeval.training.ppo.vec_env.GamesVecEnv` with ``collect="rollout"``
    (otherwise MaskablePPO's own ``collect_rollouts``). Training sets a model's class to it
    for ``collect: rollout`` (``training.ppo.model.set_unsaved_settings``); it adds no state,
    so its checkpoints are MaskablePPO's."""

    def collect_rollouts(self, env: Any, callback: Any, rollout_buffer: Any,
                         n_rollout_steps: int, use_masking: bool = True) -> bool:
        games = games_vec_env(env)
        if games is None or games.collect_mode != "rollout":
            return super().collect_rollouts(env, callback, rollout_buffer, n_rollout_steps,
                                            use_masking)
        if not use_masking:
            raise ValueError("collect: rollout needs action masks (use_masking=True)")
        assert self._last_obs is not None, "No previous observation was provided"
        self.policy.set_training_mode(False)
        rollout_buffer.reset()
        callback.on_rollout_start()
        part = games.collect_rollout(self.policy, n_rollout_steps, self.num_timesteps)
        games.replay(part)
        dones = self._last_episode_starts
        new_obs = self._last_obs
        for t in range(n_rollout_steps):
            actions = part.actions[t]
            new_obs, rewards, dones, infos = env.step(actions)
            self.num_timesteps += env.num_envs
            callback.update_locals(locals())
            if not callback.on_step():
                games.replay(None)
                return False
            self._update_info_buffer(infos, dones)
            for idx, done in enumerate(dones):  # a timeout is bootstrapped (SB3 issue #633)
                if (done and infos[idx].get("terminal_observation") is not None
                        and infos[idx].get("TimeLimit.truncated", False)):
                    terminal_obs = self.policy.obs_to_tensor(infos[idx]["terminal_observation"])[0]
                    with th.no_grad():
                        terminal_value = self.policy.predict_values(terminal_obs)[0]
                    rewards[idx] += self.gamma * terminal_value
            rollout_buffer.add(self._last_obs, actions.reshape(-1, 1), rewards,
                               self._last_episode_starts, th.as_tensor(part.values[t]),
                               th.as_tensor(part.log_probs[t]), action_masks=part.masks[t])
            self._last_obs = new_obs
            self._last_episode_starts = dones
        games.replay(None)
        with th.no_grad():
            values = self.policy.predict_values(obs_as_tensor(new_obs, self.device))
        rollout_buffer.compute_returns_and_advantage(last_values=values, dones=dones)
        callback.on_rollout_end()
        return True
