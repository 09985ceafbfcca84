"""MaskablePPO's policy with the masked categorical distribution computed once per batch.

sb3-contrib's ``MaskableCategorical`` is a ``torch.distributions.Categorical`` that is built
three times per forward pass (with the raw logits, again when its masking is cleared, and
again with the mask), and each build normalises the logits with ``logsumexp``. Masked
actions get the logit ``-1e8``, and on the CPU ``exp`` of such far-underflowing values takes
a slow path: ``logsumexp`` over 4 x 564 masked logits costs about 32 µs against 11 µs
unmasked, and over a 512-row minibatch about 3 ms. Sampling goes through
``torch.multinomial``, about 60 µs for 4 rows. Together that is about a quarter of what
MaskablePPO costs per env step on our action spaces (``primeval bench --ppo`` measures it).

:class:`MaskedCategorical` is the same distribution computed once: the masked logits are
normalised with one ``log_softmax`` (masked actions at ``-inf``, so their probability is
exactly 0, as sb3-contrib's ``-1e8`` also gives after rounding), and a sample is drawn by
inverting the cumulative probabilities with one ``torch.rand`` per row (the global torch
generator, which SB3 seeds). Log-probabilities, entropies and the most likely action are
those of sb3-contrib's distribution (tests compare them, and their gradients); samples
follow the same probabilities but use the random stream differently, so a run is
reproducible from its seed but is not the same run as with ``"MlpPolicy"``.

:class:`MaskedActorCriticPolicy` is sb3-contrib's ``MaskableActorCriticPolicy`` (the same
networks, initialisation and optimiser; the default ``"MlpPolicy"`` network unless
``net_arch`` says otherwise) with this distribution; pass it to ``MaskablePPO`` in place of
``"MlpPolicy"``. It needs a ``Discrete`` action space, as both games have.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy


class MaskedCategorical:
    """A categorical distribution over the rows of ``logits`` (batch x actions), with an
    optional boolean mask of the legal actions; the parts of ``torch.distributions.
    Categorical`` that MaskablePPO uses.

    A row whose mask has no legal action is taken as unmasked: every action, by its logit.
    (sb3-contrib gives such a row the logit -1e8 everywhere, which rounds to log-probabilities
    of 0: a "distribution" whose probabilities sum to the number of actions.)"""

    def __init__(self, logits: th.Tensor) -> None:
        self._raw = logits.float()  # in float32 also from a bfloat16 update's network
        self.apply_masking(None)

    def apply_masking(self, masks: np.ndarray | th.Tensor | None) -> None:
        """Keep only the actions whose mask entry is true (``None``: every action)."""
        if masks is not None:
            masks = th.as_tensor(masks, dtype=th.bool, device=self._raw.device)
            masks = masks.reshape(self._raw.shape)
            some_legal = masks.any(-1, keepdim=True)
            if not bool(some_legal.all()):
                masks = masks | ~some_legal
        self.masks = masks
        self._logits: th.Tensor | None = None  # normalised when first asked for
        self._probs: th.Tensor | None = None

    @property
    def logits(self) -> th.Tensor:
        """The log-probabilities (``-inf`` for masked actions)."""
        if self._logits is None:
            raw = self._raw if self.masks is None else th.where(self.masks, self._raw, -th.inf)
            self._logits = raw.log_softmax(-1)
        return self._logits

    @property
    def probs(self) -> th.Tensor:
        if self._probs is None:
            self._probs = self.logits.exp()
        return self._probs

    def sample(self) -> th.Tensor:
        """One action per row: the first whose cumulative probability exceeds a uniform draw
        (actions of probability 0 never are)."""
        with th.no_grad():
            cumulative = self.probs.to(th.float64).cumsum(-1)
            draw = th.rand(cumulative.shape[:-1] + (1,), dtype=th.float64,
                           device=cumulative.device) * cumulative[..., -1:]
            return th.searchsorted(cumulative, draw, right=True).squeeze(-1)

    def log_prob(self, actions: th.Tensor) -> th.Tensor:
        return self.logits.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)

    def entropy(self) -> th.Tensor:
        if self.masks is None:
            return -(self.probs * self.logits).sum(-1)
        # masked actions add nothing, and no 0 * -inf reaches the gradient
        return -(self.probs * th.where(self.masks, self.logits, 0.0)).sum(-1)


class MaskedCategoricalDistribution(MaskableCategoricalDistribution):
    """sb3-contrib's distribution wrapper, holding a :class:`MaskedCategorical`."""

    distribution: MaskedCategorical  # type: ignore[assignment]

    def proba_distribution(self, action_logits: th.Tensor) -> MaskedCategoricalDistribution:
        self.distribution = MaskedCategorical(action_logits.view(-1, self.action_dim))
        return self


class MaskedActorCriticPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` with :class:`MaskedCategoricalDistribution`."""

    def __init__(self, observation_space: spaces.Space, action_space: spaces.Space,
                 *args: Any, **kwargs: Any) -> None:
        if not isinstance(action_space, spaces.Discrete):
            raise TypeError(f"MaskedActorCriticPolicy needs a Discrete action space, got "
                            f"{action_space}")
        super().__init__(observation_space, action_space, *args, **kwargs)

    #: The update's precision (``ppo.update_dtype``, set by ``training.ppo.train``): ``None``
    #: for float32, or a lower one (``torch.bfloat16``) for the network's layers under CPU
    #: autocast in :meth:`evaluate_actions`, the pass PPO's update differentiates. Weights and
    #: optimiser stay float32; the distribution and the values come out in float32.
    update_dtype: th.dtype | None = None

    def _build(self, lr_schedule: Any) -> None:
        self.action_dist = MaskedCategoricalDistribution(int(self.action_space.n))
        super()._build(lr_schedule)

    def evaluate_actions(self, obs: th.Tensor, actions: th.Tensor,
                         action_masks: th.Tensor | None = None
                         ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        if self.update_dtype is None:
            return super().evaluate_actions(obs, actions, action_masks=action_masks)
        with th.autocast("cpu", dtype=self.update_dtype):
            values, log_prob, entropy = super().evaluate_actions(
                obs, actions, action_masks=action_masks)
        return values.float(), log_prob.float(), None if entropy is None else entropy.float()


#: The policies ``primeval train`` (``network.policy``) and ``primeval bench --ppo-policy``
#: offer, by the names of ``config.POLICY_NAMES``: this module's, and sb3-contrib's own
#: ``"MlpPolicy"``.
POLICIES: dict[str, type[MaskableActorCriticPolicy] | str] = {
    "primeval": MaskedActorCriticPolicy,
    "sb3": "MlpPolicy",
}
