"""Agents that play a trained MaskablePPO policy: a saved checkpoint, or a model in memory.

:class:`PolicyAgent` answers one decision (``act``) or many at once (``act_batch``: one
forward pass for every game waiting on the same policy, as self-play opponents do in
:class:`~primeval.training.ppo.vec_env.BatchedOpponentsVecEnv`). Both sample from the same
seeded generator in the same way, so ``act_batch`` over ``k`` rows equals ``k`` calls of
``act`` in turn.

A model trained with a prior (``prior: {agent: heuristic}``, :mod:`primeval.training.ppo.prior`)
reads the prior agent's choice after the encoder's observation; the agent asks the prior
itself (from the rules state that tournaments and training envs pass with every decision),
so such a model plays anywhere a plain one does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from primeval.training.agents.checkpoint import (
    CheckpointError,
    UntrustedCheckpointError,
    checked_env_options,
    load_model,
    read_env_spec,
    spec_mismatch,
)
from primeval.training.seeding import Seeds

__all__ = ["CheckpointError", "PolicyAgent", "UntrustedCheckpointError"]


class PolicyAgent:
    """Plays a sb3-contrib ``MaskablePPO`` model: its most likely legal action, or a sample.

    Args:
        path: The ``.zip`` file written by ``model.save`` (``primeval train`` writes
            ``runs/NAME/model.zip``).
        deterministic: Take the most likely action (default) or sample from the policy.
        seed: Seed of the sampling when ``deterministic`` is False.
        device: Torch device of the loaded model.
        trust_checkpoint: Load a checkpoint that needs unpickling (one not written by the
            package, or without its ``primeval.json``): it can run any code it holds. By
            default nothing is unpickled (:mod:`~primeval.training.agents.checkpoint`).

    Attributes:
        env_spec: The env the checkpoint was trained on (game, version, players, encoder,
            env options), or ``None`` if it does not say.
    """

    uses_observation = True  # False while it encodes the states itself (check_env_spec)

    def __init__(self, path: str | Path, deterministic: bool = True, seed: int | None = None,
                 device: str = "cpu", trust_checkpoint: bool = False) -> None:
        self.path = Path(path)
        self.name = f"ppo:{self.path}"
        self.model = load_model(self.path, device=device, trust_checkpoint=trust_checkpoint)
        self.env_spec = read_env_spec(self.path)
        self.deterministic = deterministic
        self.encoder = None  # its own encoder, when it plays in an env of another one
        self._set_prior()
        self.seed(seed)

    @classmethod
    def from_model(cls, model: Any, name: str = "learner", deterministic: bool = True,
                   seed: int | None = None) -> PolicyAgent:
        """An agent playing ``model`` in memory (the one being trained): it sees the
        model's weights as they change."""
        agent = cls.__new__(cls)
        agent.path, agent.name, agent.model = None, name, model
        agent.env_spec = None
        agent.encoder = None
        agent.deterministic = deterministic
        agent._set_prior()
        agent.seed(seed)
        return agent

    def _set_prior(self) -> None:
        """The prior agent of a model trained with one (``None`` for a plain model)."""
        policy = self.model.policy
        self.prior = None
        self.prior_size = 0
        name = getattr(policy, "prior_agent", None)
        if name is not None:
            from primeval.training.agents.prior import make_prior_agent

            self.prior = make_prior_agent(name, policy.prior_game)
            self.prior_size = int(policy.prior_size)

    def seed(self, seed: int | None) -> None:
        """Seed the agent's own generator (sampling never touches torch's global one), and
        the prior's, if the model has one (with a fixed seed when ``seed`` is None, so that a
        deterministic agent stays deterministic: the prior's generator answers the
        decisions its rules of thumb do not cover)."""
        self.rng = np.random.default_rng(seed)
        if self.prior is not None:
            self.prior.seed(0 if seed is None else Seeds(seed).spawn("prior"))

    def _hinted(self, observations: np.ndarray, masks: np.ndarray, states, seats
                ) -> np.ndarray:
        """``observations`` (``k x obs``) with the prior's choice of each row appended."""
        if self.prior is None:
            return observations
        if states is None or seats is None:
            raise ValueError(f"{self.name} was trained with the prior "
                             f"{self.model.policy.prior_agent!r}: act needs state= and seat=")
        from primeval.training.agents.prior import prior_hint, with_hint

        return np.stack([with_hint(obs, prior_hint(self.prior, state, seat, mask))
                         for obs, mask, state, seat in zip(observations, masks, states, seats,
                                                           strict=True)])

    def check_env_spec(self, spec: dict) -> None:
        """Refuse a model whose saved env spec differs from ``spec`` (a dict of
        :func:`~primeval.training.agents.checkpoint.env_spec`; only its keys are compared),
        except in the encoder alone: a model of the same game and players trained on another
        encoder then reads the rules state it is given with every decision through its own
        encoder (``uses_observation`` turns False), so agents of different encoders share one
        tournament or league."""
        if self.env_spec is None:
            return
        same_game = {k: v for k, v in spec.items() if k != "encoder"}
        diff = spec_mismatch(self.env_spec, spec)
        if diff and not spec_mismatch(self.env_spec, same_game) and "encoder" in self.env_spec:
            self._encode_own()
            return
        if diff:
            raise CheckpointError(f"checkpoint {self.path} was trained on another env: {diff}")
        self.encoder = None
        self.uses_observation = True

    def _encode_own(self) -> None:
        """Encode the states this agent is given with the encoder it was trained on."""
        from primeval.envs.games import get_game

        spec = self.env_spec
        options = checked_env_options(spec.get("env") or {}, f"checkpoint {self.path}")
        env = get_game(spec["game"]).raw_env(spec["players"], obs_encoder=spec["encoder"],
                                             **options)
        shape = tuple(env.obs_encoder.space().shape)
        if self.prior is not None and len(shape) == 1:
            shape = (shape[0] + self.prior_size,)
        if shape != tuple(self.model.observation_space.shape):
            raise CheckpointError(
                f"checkpoint {self.path}: its env spec's encoder {spec['encoder']!r} gives "
                f"observations of shape {shape}, its model reads "
                f"{tuple(self.model.observation_space.shape)}")
        self.encoder = env.obs_encoder
        self.uses_observation = False

    def _own_observations(self, states, seats) -> np.ndarray:
        if states is None or seats is None:
            raise ValueError(f"{self.name} reads its own encoder "
                             f"{self.env_spec['encoder']!r}: act needs state= and seat=")
        return np.stack([self.encoder.encode(state, int(seat))
                         for state, seat in zip(states, seats, strict=True)])

    def check_spaces(self, observation_space, action_space) -> None:
        """Refuse a model trained for another game, player count or encoder."""
        expected = self.model.observation_space.shape
        given = observation_space.shape
        if self.prior is not None and len(given) == 1:
            given = (given[0] + self.prior_size,)  # the prior's choice follows
        if self.encoder is None and expected != given:  # (else it encodes states itself)
            raise CheckpointError(
                f"checkpoint {self.path} expects observations of shape "
                f"{expected}, this env gives {given}"
                " (another game, player count or encoder?)"
            )
        if self.model.action_space.n != action_space.n:
            raise CheckpointError(
                f"checkpoint {self.path} has {self.model.action_space.n} actions, this env "
                f"has {action_space.n}"
            )

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        mask = np.asarray(action_mask, dtype=bool)
        if self.encoder is not None:
            observation = self._own_observations(
                None if state is None else [state], None if seat is None else [seat])[0]
        observation = np.asarray(observation)
        if self.prior is not None:
            observation = self._hinted(observation[None], mask[None],
                                       None if state is None else [state],
                                       None if seat is None else [seat])[0]
        if self.deterministic:
            action, _ = self.model.predict(observation, action_masks=mask,
                                           deterministic=True)
            return int(action)
        return int(self._sample(observation[None], mask[None])[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, *,
                  states=None, seats=None) -> np.ndarray:
        """One action per row of ``observations`` (``k x obs``) and ``action_masks``
        (``k x actions``), in one forward pass (``states`` and ``seats``, one per row, are
        needed by a model trained with a prior)."""
        masks = np.asarray(action_masks, dtype=bool)
        if self.encoder is not None:
            observations = self._own_observations(states, seats)
        observations = self._hinted(np.asarray(observations), masks, states, seats)
        if self.deterministic:
            actions, _ = self.model.predict(np.asarray(observations), action_masks=masks,
                                            deterministic=True)
            return np.asarray(actions, dtype=np.int64).reshape(len(masks))
        return self._sample(np.asarray(observations), masks)

    def _sample(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Rows sampled as ``rng.choice(n, p=row)`` would, one uniform draw per row."""
        import torch

        policy = self.model.policy
        obs, _ = policy.obs_to_tensor(observations)
        with torch.no_grad():
            probs = policy.get_distribution(obs, action_masks=masks).distribution.probs
        cdf = probs.double().numpy().cumsum(-1)
        cdf /= cdf[:, -1:]
        draws = self.rng.random(len(cdf))
        return np.array([int(row.searchsorted(u, side="right")) for row, u in zip(cdf, draws,
                                                                                  strict=True)])
