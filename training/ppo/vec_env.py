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

:class:`GamesVecEnv` (``vec_env: vector``, the default configs') is SB3's ``VecEnv`` over
:class:`~primeval.wrappers.vector.SingleAgentVectorEnv`: the same games and batching, the
arrays written into buffers, the infos only of games that ended, and optionally worker
processes (``workers``) that step parts of the games at the same time.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper

from primeval.wrappers.vector import SingleAgentVectorEnv, answer_opponents


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
        """Play the opponents of the envs ``indices`` until each waits on its learner (as
        :func:`primeval.wrappers.vector.answer_opponents` does for the vector env)."""
        answer_opponents(self.envs, list(indices))


# -- SB3's VecEnv over vector envs, in this process and in worker processes ---------------------


class LeagueStep:
    """What a worker's envs must know of the main process at each step: the league's step,
    by which the opponent schedule draws (``state`` in the main process, ``apply`` to the
    worker's copy of the league, which its env factories share)."""

    def __init__(self, league: Any) -> None:
        self.league = league

    def state(self) -> int:
        return int(self.league.step)

    def apply(self, step: int) -> None:
        self.league.step = step

    def members(self) -> dict[str, Any]:
        """The league's members and step (what a worker's copy follows at each rollout of
        ``collect: rollout``: the snapshots and the counts PFSP draws them by)."""
        return self.league.to_dict()

    def follow(self, members: dict[str, Any]) -> None:
        self.league.follow(members)

    def plays_current(self) -> bool:
        """Whether the league's opponents include the policy being trained."""
        return bool(self.league.config.uses_self_play)

    def set_current(self, agent: Any) -> None:
        self.league.set_current(agent)


class LeagueSubprocVecEnv(SubprocVecEnv):
    """SB3's ``SubprocVecEnv`` (``vec_env: subproc``) whose workers' copies of the league
    draw opponents by the weights in force at the main process's step, as
    :class:`GamesVecEnv`'s do: before a step or reset whose weights (the schedule's phase)
    differ from those last sent, every worker's env is told the step
    (``apply_league_step``, which :func:`~primeval.training.ppo.train.make_training_env`
    gives its envs). The step is sent only when the phase changes, not at every step: the
    weights are all a worker's league reads it for."""

    def __init__(self, env_fns: list[Callable[[], Any]], sync: LeagueStep) -> None:
        super().__init__(env_fns)
        self.sync = sync
        self._sent: dict[str, float] | None = None

    def _send_step(self) -> None:
        step = self.sync.state()
        weights = self.sync.league.config.opponent_weights(step)
        if weights != self._sent:
            self.env_method("apply_league_step", step)
            self._sent = weights

    def step_async(self, actions: np.ndarray) -> None:
        self._send_step()
        super().step_async(actions)

    def reset(self) -> Any:
        self._send_step()
        return super().reset()


class WorkerError(RuntimeError):
    """An exception in a worker process, named with the worker, its type and its message
    (an ``AttributeError`` of a worker is raised as an ``AttributeError``, which SB3's
    ``has_attr`` expects)."""


def _failure(exc: Exception) -> WorkerError:
    error = WorkerError(f"{type(exc).__name__}: {exc}")
    error.attribute = isinstance(exc, AttributeError)
    return error


def _handle(vec: SingleAgentVectorEnv, sync: Any, command: str, args: list[Any],
            cache: dict[str, Any] | None = None) -> Any:
    """The reply of a worker to one command of the main process (``cache``: what the worker
    keeps between commands, its copy of the policy)."""
    if command in ("policy", "collect"):
        from primeval.training.ppo import collect

        spec, arrays, members, *rest = args
        if spec is not None:
            import torch

            torch.set_num_threads(1)  # a rollout's batches are a few observations
            cache["policy"] = collect.build_policy(spec)
            if sync is not None and sync.plays_current():  # self-play: the copy plays too
                sync.set_current(collect.current_agent(cache["policy"]))
        policy = cache["policy"]
        collect.load_weights(policy, arrays)
        if members is not None:
            sync.follow(members)
        if command == "policy":
            return None
        n_steps, obs, masks, start, stride, seed = rest
        return collect.collect_part(policy, vec, obs, masks, n_steps, seed,
                                    collect.schedule_steps(sync, start, stride))
    if command == "step":
        state, actions = args
        if sync is not None:
            sync.apply(state)
        obs, rewards, terminations, truncations, ended = vec.step_arrays(actions)
        return obs, rewards, terminations, truncations, vec.action_masks(), ended
    if command == "reset":
        state, seeds = args
        if sync is not None:
            sync.apply(state)
        obs = vec.reset_arrays(seeds)
        return obs, vec.action_masks()
    if command == "env_method":
        name, method_args, method_kwargs, indices = args
        return [getattr(vec.envs[i], name)(*method_args, **method_kwargs) for i in indices]
    if command == "get_attr":
        name, indices = args
        return [getattr(vec.envs[i], name) for i in indices]
    if command == "set_attr":
        name, value, indices = args
        for i in indices:
            setattr(vec.envs[i], name, value)
        return [None] * len(indices)
    raise ValueError(f"unknown command {command!r}")


def _worker(remote: Any, parent: Any, payload: Any) -> None:
    """A worker process: one :class:`~primeval.wrappers.vector.SingleAgentVectorEnv` over
    its env factories, stepped on the main process's commands. An exception is sent back
    (as :class:`WorkerError`) for the main process to raise."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    parent.close()
    fns, sync = payload.var
    vec = None
    cache: dict[str, Any] = {}
    try:
        vec = SingleAgentVectorEnv([fn() for fn in fns], copy=False)
        remote.send(None)  # ready
    except Exception as exc:  # noqa: BLE001 - reported to the main process, which raises
        remote.send(_failure(exc))
        return
    try:
        while True:
            command, *args = remote.recv()
            if command == "close":
                vec.close()
                remote.close()
                return
            try:
                reply = _handle(vec, sync, command, args, cache)
            except Exception as exc:  # noqa: BLE001 - as above
                reply = _failure(exc)
            remote.send(reply)
    except (KeyboardInterrupt, EOFError):
        vec.close()


def _receive(remote: Any, k: int) -> Any:
    reply = remote.recv()
    if isinstance(reply, WorkerError):
        kind = AttributeError if getattr(reply, "attribute", False) else WorkerError
        raise kind(f"worker process {k}: {reply}")
    return reply


class GamesVecEnv(VecEnv):
    """SB3's ``VecEnv`` over :class:`~primeval.wrappers.vector.SingleAgentVectorEnv`:
    N games of the single-agent view stepped together, their opponents batched
    (``vec_env: vector``).

    With ``workers=W > 1`` the games are split into W contiguous parts: the first is stepped
    in this process, each other one in a worker process of its own, all at the same time;
    game ``i`` is the same game for any W (its env factory seeds it). Worker processes hold
    their own copies of the opponents, so policy opponents that learn in this process (the
    self-play of training) need ``workers=1`` with ``collect="step"``; with
    ``collect="rollout"`` each worker's league follows this process's at every rollout and
    its copy of the policy plays the self-play seats (:meth:`share_policy`). A policy
    opponent is one agent for all the games of its process, its draws in their order, so
    with self-play another W plays other games.

    Only what SB3 reads goes into a step's infos: nothing for a game under way; for a game
    that ended, its last info with ``terminal_observation`` and ``TimeLimit.truncated``.

    Args:
        env_fns: Factories of :class:`~primeval.wrappers.single_agent.SingleAgentEnv` games.
        workers: Processes that step games (this one included).
        sync: Sent to every worker at each step (:class:`LeagueStep`); ``None`` for none.
        start_method: The ``multiprocessing`` start method of the workers (default
            ``forkserver`` where there is one, as SB3's ``SubprocVecEnv``).
        collect: ``"step"``: the learner's actions come from the caller at every step;
            ``"rollout"``: :meth:`collect` has every process play its games for a whole
            rollout with its own copy of the policy (:mod:`primeval.training.ppo.collect`).
        collect_seed: The root of the ``"rollout"`` parts' torch generators (``None``: each
            process draws from its global generator, as SB3's own rollouts do; with one
            process that is SB3's very run, which a test uses to check the parts' path).
    """

    def __init__(self, env_fns: list[Callable[[], Any]], workers: int = 1,
                 sync: LeagueStep | None = None, start_method: str | None = None,
                 collect: str = "step", collect_seed: int | None = 0) -> None:
        n = len(env_fns)
        if not 1 <= workers <= n:
            raise ValueError(f"workers={workers}: must be between 1 and the number of envs "
                             f"({n})")
        if collect not in ("step", "rollout"):
            raise ValueError(f"collect={collect!r}: allowed 'step', 'rollout'")
        self.collect_mode = collect
        self.collect_seed = None if collect_seed is None else int(collect_seed)
        self._spec_sent = False
        self._replay: Any = None
        self._replay_t = 0
        bounds = np.linspace(0, n, workers + 1).round().astype(int)
        self.slices = [slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:],
                                                             strict=True)]
        self.sync = sync
        self.local = SingleAgentVectorEnv([fn() for fn in env_fns[self.slices[0]]],
                                          copy=False)
        self.remotes: list[Any] = []
        self.processes: list[Any] = []
        if workers > 1:
            if start_method is None:
                start_method = ("forkserver" if "forkserver" in mp.get_all_start_methods()
                                else "spawn")
            ctx = mp.get_context(start_method)
            for part in self.slices[1:]:
                remote, work_remote = ctx.Pipe()
                payload = CloudpickleWrapper((env_fns[part], sync))
                process = ctx.Process(target=_worker, args=(work_remote, remote, payload),
                                      daemon=True)
                process.start()
                work_remote.close()
                self.remotes.append(remote)
                self.processes.append(process)
            for k, remote in enumerate(self.remotes, start=1):
                _receive(remote, k)  # each worker's games are built (or its error raised)
        space = self.local.single_observation_space
        self._obs = np.zeros((n, *space.shape), dtype=space.dtype)
        self._masks = np.zeros((n, int(self.local.single_action_space.n)), dtype=bool)
        self._rewards = np.zeros(n, dtype=np.float32)
        self._dones = np.zeros(n, dtype=bool)
        self._actions: np.ndarray | None = None
        self.closed = False
        super().__init__(n, space, self.local.single_action_space)

    def _drain(self) -> None:
        """Read every worker's pending reply (after this process's part failed), so the
        pipes stay in step."""
        for remote in self.remotes:
            remote.recv()

    def _state(self) -> Any:
        return self.sync.state() if self.sync is not None else None

    def reset(self):
        state = self._state()
        for remote, part in zip(self.remotes, self.slices[1:], strict=True):
            remote.send(("reset", state, self._seeds[part]))
        local = self.slices[0]
        self._obs[local] = self.local.reset_arrays(self._seeds[local])
        self._masks[local] = self.local.action_masks()
        for k, (remote, part) in enumerate(zip(self.remotes, self.slices[1:], strict=True), 1):
            self._obs[part], self._masks[part] = _receive(remote, k)
        self._reset_seeds()
        self._reset_options()
        return self._obs.copy()

    def collect_rollout(self, policy: Any, n_steps: int, start: int) -> Any:
        """Every process plays its games for ``n_steps`` steps from where they are, the
        learner's actions drawn from its copy of ``policy`` (the workers' copies get its
        weights now), the opponent schedule at step ``start + t * num_envs`` before step
        ``t``; the steps of all the games, as one
        :class:`~primeval.training.ppo.collect.Part` (the games go on from its last row)."""
        from primeval.training.ppo import collect

        if self._replay is not None:
            raise RuntimeError("collect_rollout() while a rollout is being replayed")
        payload = self._policy_payload(policy) if self.remotes else (None, None, None)
        seeds = [None if self.collect_seed is None else
                 int(np.random.SeedSequence([self.collect_seed, k, int(start)])
                     .generate_state(1)[0]) for k in range(len(self.slices))]
        stride = self.num_envs
        for k, (remote, part) in enumerate(zip(self.remotes, self.slices[1:], strict=True), 1):
            remote.send(("collect", *payload, n_steps, self._obs[part], self._masks[part],
                         start, stride, seeds[k]))
        league_step = collect.schedule_steps(self.sync, start, stride)
        local = self.slices[0]
        try:
            parts = [collect.collect_part(policy, self.local, self._obs[local],
                                          self._masks[local], n_steps, seeds[0], league_step)]
        except Exception:
            self._drain()
            raise
        parts += [_receive(remote, k) for k, remote in enumerate(self.remotes, start=1)]
        joined = collect.join_parts(parts)
        self._obs[:], self._masks[:] = joined.obs[-1], joined.masks[-1]
        return joined

    def _policy_payload(self, policy: Any) -> tuple[Any, Any, Any]:
        """What a worker's copy of ``policy`` needs: what builds it (the first time only),
        its weights, and with self-play opponents the league's members (else ``None``)."""
        from primeval.training.ppo import collect

        spec = None if self._spec_sent else collect.policy_spec(policy)
        self._spec_sent = True
        members = (self.sync.members() if self.sync is not None and self.sync.plays_current()
                   else None)
        return spec, collect.weights(policy), members

    def share_policy(self, policy: Any) -> None:
        """Give every worker a copy of ``policy`` now (its class, constructor parameters
        and weights) and, with self-play opponents, the league's members, before the games
        are reset: the copy is the worker's ``league.current``, as ``policy`` is this
        process's, so that the games' first opponents are drawn from the same league
        (:meth:`collect_rollout` sends the weights and members again at every rollout)."""
        if not self.remotes:
            return
        payload = self._policy_payload(policy)
        for remote in self.remotes:
            remote.send(("policy", *payload))
        for k, remote in enumerate(self.remotes, start=1):
            _receive(remote, k)

    def replay(self, part: Any) -> None:
        """Until ``replay(None)``, :meth:`step_async` and :meth:`step_wait` give the steps of
        ``part`` (from :meth:`collect_rollout`) in order, the games untouched: SB3's wrappers
        and callbacks see the rollout step by step. The actions given must be the part's."""
        self._replay, self._replay_t = part, 0

    def _replay_step(self) -> Any:
        part, t = self._replay, self._replay_t
        if t >= len(part.actions):
            raise RuntimeError("replay: every step of the rollout has been given")
        self._replay_t = t + 1
        self._obs[:] = part.obs[t + 1]
        self._masks[:] = part.masks[t + 1]
        self._rewards[:] = part.rewards[t]
        self._dones[:] = part.dones[t]
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i, info in part.ended[t].items():
            infos[i] = info
        return self._obs.copy(), self._rewards.copy(), self._dones.copy(), infos

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), one per game; got "
                             f"{actions.shape}")
        if self._replay is not None:
            t = self._replay_t
            if t < len(self._replay.actions) and not np.array_equal(actions,
                                                                     self._replay.actions[t]):
                raise ValueError(f"replay: step {t}'s actions are not the rollout's")
            self._actions = actions
            return
        self._actions = actions
        state = self._state()
        for remote, part in zip(self.remotes, self.slices[1:], strict=True):
            remote.send(("step", state, self._actions[part]))

    def step_wait(self):
        if self._replay is not None:
            return self._replay_step()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        local = self.slices[0]
        try:
            parts = [(local, self.local.step_arrays(self._actions[local]),
                      self.local.action_masks())]
        except Exception:
            self._drain()
            raise
        for k, (remote, part) in enumerate(zip(self.remotes, self.slices[1:], strict=True), 1):
            obs, rewards, terminations, truncations, masks, ended = _receive(remote, k)
            parts.append((part, (obs, rewards, terminations, truncations, ended), masks))
        for part, (obs, rewards, terminations, truncations, ended), masks in parts:
            self._obs[part] = obs
            self._masks[part] = masks
            self._rewards[part] = rewards
            np.logical_or(terminations, truncations, out=self._dones[part])
            for i, final_obs, final_info in ended:
                final_info["terminal_observation"] = final_obs
                final_info["TimeLimit.truncated"] = bool(truncations[i]
                                                         and not terminations[i])
                infos[part.start + i] = final_info
        return self._obs.copy(), self._rewards.copy(), self._dones.copy(), infos

    def action_masks(self) -> np.ndarray:
        """The learners' masks, one row per game (a copy)."""
        return self._masks.copy()

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs):
        if method_name == "action_masks" and not method_args and not method_kwargs:
            return list(self._masks[self._indices(indices)])  # rows: sb3-contrib stacks them
        return self._gather(indices, "env_method", method_name, method_args, method_kwargs)

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return self._gather(indices, "get_attr", attr_name)

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        self._gather(indices, "set_attr", attr_name, value)

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        from stable_baselines3.common import env_util

        return [env_util.is_wrapped(env, wrapper_class) if part == 0 else False
                for part, env in self._where(indices)]

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int | np.integer):
            return [int(indices)]
        return [int(i) for i in indices]

    def _where(self, indices):
        """``(part, local env or index in the part)`` of each index."""
        out = []
        for i in self._indices(indices):
            for k, part in enumerate(self.slices):
                if part.start <= i < part.stop:
                    out.append((k, self.local.envs[i] if k == 0 else i - part.start))
        return out

    def _gather(self, indices, command: str, name: str, *args: Any) -> list[Any]:
        where = self._where(indices)
        out: list[Any] = []
        for k, item in where:
            if k == 0:
                if command == "env_method":
                    method_args, method_kwargs = args
                    out.append(getattr(item, name)(*method_args, **method_kwargs))
                elif command == "get_attr":
                    out.append(getattr(item, name))
                else:
                    setattr(item, name, args[0])
                    out.append(None)
            else:
                remote = self.remotes[k - 1]
                remote.send((command, name, *args, [item]))
                out.extend(_receive(remote, k))
        return out

    def close(self) -> None:
        if self.closed:
            return
        for remote in self.remotes:
            remote.send(("close",))
        for process in self.processes:
            process.join()
        self.local.close()
        self.closed = True
