"""Residual PPO over a prior: the heuristic's choice as a logit bias the policy learns around.

With ``prior: {agent: heuristic, weight: W}`` in the training config, the policy's logits are

    logits(obs) = action_net(features(obs)) + W * onehot(heuristic's action)

so a freshly initialised policy (whose ``action_net`` outputs are near 0) already plays like
the heuristic (exactly like it when it takes its most likely action), and PPO learns where
to deviate from it. This is residual policy learning (Silver et al. 2018, "Residual Policy
Learning"; Johannink et al. 2019) with a discrete base policy: the learned part is trained
by MaskablePPO as usual, the prior is fixed. The trained agent needs the heuristic at every
decision it takes; it is a different kind of agent from a policy that learnt alone, and
every table says which one it is.

The heuristic's choice reaches the policy through the observation: :class:`PriorHintEnv`
appends the one-hot of the heuristic's action for the learner's decision (all zeros when the
learner is not to act), and :class:`PriorActorCriticPolicy` reads the last ``prior_size``
entries of its observation as that hint. The network sees the hint as an input too.
:class:`~primeval.training.agents.policy.PolicyAgent` builds the hint itself when it plays a
model trained this way (it gets the rules state from the tournament, as the heuristic does).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces

from primeval.training.agents.prior import make_prior_agent, prior_hint, with_hint
from primeval.training.ppo.masking import MaskedActorCriticPolicy
from primeval.wrappers.single_agent import SingleAgentEnv


class PriorHintEnv(SingleAgentEnv):
    """:class:`SingleAgentEnv` whose observation ends with the prior's choice for the
    learner's decision (a one-hot over the actions; zeros when the learner is not to act).

    Args:
        aec_env, **kwargs: As :class:`SingleAgentEnv`.
        prior: The agent whose choice is the hint (``make_prior_agent``); it is reseeded
            with every reset, from the env's generator.
    """

    def __init__(self, aec_env: Any, prior: Any, **kwargs: Any) -> None:
        super().__init__(aec_env, **kwargs)
        self.prior = prior
        base = self.observation_space
        n = int(self.action_space.n)
        self.base_observation_space = base
        self.observation_space = spaces.Box(
            low=np.concatenate([np.asarray(base.low, dtype=np.float32).ravel(),
                                np.zeros(n, dtype=np.float32)]),
            high=np.concatenate([np.asarray(base.high, dtype=np.float32).ravel(),
                                 np.ones(n, dtype=np.float32)]),
            dtype=np.float32)

    def reset_game(self, *, seed: int | None = None) -> None:
        super().reset_game(seed=seed)
        if hasattr(self.prior, "seed"):
            self.prior.seed(int(self.np_random.integers(2**31 - 1)))

    def _observation(self) -> np.ndarray:
        base = super()._observation()
        mask = self.action_masks()  # all False once the learner has nothing to decide
        if not mask.any():
            return with_hint(base, np.zeros(mask.size, dtype=np.float32))
        return with_hint(base, prior_hint(self.prior, self.game.game_state, self._seat, mask))


class PriorActorCriticPolicy(MaskedActorCriticPolicy):
    """:class:`MaskedActorCriticPolicy` whose logits add ``prior_weight`` times the last
    ``prior_size`` entries of the observation (the hint of :class:`PriorHintEnv`).

    Args:
        prior_weight: The logit bonus of the prior's choice (at 3, a fresh policy samples the
            prior's choice with probability ``e^3 / (e^3 + k - 1)`` among ``k`` legal
            actions, and always takes it when it plays its most likely action).
        prior_size: The hint's length: the number of actions.
        prior_trainable: Learn the weight too (as ``exp`` of a parameter that starts at
            ``log(prior_weight)``): PPO can then trust the prior more, or less, everywhere at
            once, which the network itself can hardly learn (it would have to map each entry
            of the hint to its own logit).
        prior_agent, prior_game: What the hint is (saved with the model, so that a loaded
            model says which agent to ask).
    """

    def __init__(self, observation_space: spaces.Space, action_space: spaces.Space,
                 *args: Any, prior_weight: float = 3.0, prior_size: int | None = None,
                 prior_trainable: bool = False, prior_agent: str = "heuristic",
                 prior_game: str = "", **kwargs: Any) -> None:
        self.initial_prior_weight = float(prior_weight)
        self.prior_trainable = bool(prior_trainable)
        self.prior_size = int(prior_size if prior_size is not None else action_space.n)
        self.prior_agent = prior_agent
        self.prior_game = prior_game
        if self.prior_size != action_space.n:
            raise ValueError(f"prior_size={self.prior_size} must be the number of actions "
                             f"({action_space.n})")
        self._prior_logits: th.Tensor | None = None
        super().__init__(observation_space, action_space, *args, **kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(prior_weight=self.initial_prior_weight, prior_size=self.prior_size,
                    prior_trainable=self.prior_trainable, prior_agent=self.prior_agent,
                    prior_game=self.prior_game)
        return data

    def _build(self, lr_schedule: Any) -> None:
        # before the optimiser is built (by the base class), so that it is one of its tensors
        self.log_prior_weight = th.nn.Parameter(
            th.tensor(float(np.log(self.initial_prior_weight))),
            requires_grad=self.prior_trainable)
        super()._build(lr_schedule)

    @property
    def prior_weight(self) -> float:
        """The logit bonus of the prior's choice now (learnt if ``prior_trainable``)."""
        return float(self.log_prior_weight.detach().exp())

    def _read_hint(self, obs: th.Tensor) -> None:
        self._prior_logits = self.log_prior_weight.exp() * obs[..., -self.prior_size:].float()

    def forward(self, obs, deterministic: bool = False, action_masks=None):
        self._read_hint(obs)
        return super().forward(obs, deterministic=deterministic, action_masks=action_masks)

    def evaluate_actions(self, obs, actions, action_masks=None):
        self._read_hint(obs)
        return super().evaluate_actions(obs, actions, action_masks=action_masks)

    def get_distribution(self, obs, action_masks=None):
        self._read_hint(obs)
        return super().get_distribution(obs, action_masks=action_masks)

    def _get_action_dist_from_latent(self, latent_pi: th.Tensor):
        logits = self.action_net(latent_pi)
        if self._prior_logits is not None:
            logits = logits + self._prior_logits.reshape(logits.shape)
        return self.action_dist.proba_distribution(action_logits=logits)


__all__ = ["PriorActorCriticPolicy", "PriorHintEnv", "make_prior_agent",
           "prior_hint", "with_hint"]
