"""An action-masking PPO RLModule for primeval's observations.

RLlib's default PPO module takes a ``Box`` observation, and its example masking module
(``rllib/examples/rl_modules/classes/action_masking_rlm.py``) expects the keys
``observations`` and a float ``action_mask``. :class:`MaskedPPOTorchRLModule` takes
PettingZoo's ``{"observation": Box, "action_mask": int8}`` as it is: the networks (RLlib's
default PPO encoder, policy and value heads, built by its catalog) see ``observation``, and
every illegal action's logit is set to the smallest float, so that sampling, the argmax,
log-probabilities and the entropy all see only legal actions.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module over ``observation``, its logits masked by
    ``action_mask`` (any dtype; nonzero is legal)."""

    def __init__(self, *, observation_space: gymnasium.spaces.Dict | None = None,
                 **kwargs: Any) -> None:
        if not (isinstance(observation_space, gymnasium.spaces.Dict)
                and {"observation", "action_mask"} <= set(observation_space.spaces)):
            raise ValueError("MaskedPPOTorchRLModule needs a Dict observation space with "
                             f"'observation' and 'action_mask', got {observation_space}")
        self._observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self) -> None:
        super().setup()  # the catalog built the networks for the inner Box
        self.observation_space = self._observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[torch.Tensor, dict[str, Any]]:
        """The mask, and a shallow copy of the batch whose observations are the inner ones."""
        obs = batch[Columns.OBS]
        return obs["action_mask"], {**batch, Columns.OBS: obs["observation"]}

    @staticmethod
    def _mask(out: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask == 0, FLOAT_MIN)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)
