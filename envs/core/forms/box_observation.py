"""``BoxObservationWrapper``: the encoder's array as the observation, the mask in the infos.

For libraries whose wrappers take only Box observations (SuperSuit's): the observation is
the encoder's array alone and ``observation_space`` the encoder's Box; the action mask is
in ``infos[agent]["action_mask"]`` (:class:`ActionMaskInInfoWrapper`), where PettingZoo's
wrappers and ``api_test`` look for it when the observation is not a dict.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from primeval.envs.core.forms.base import FormWrapper
from primeval.envs.core.forms.mask_in_info import ActionMaskInInfoWrapper

__all__ = ["BoxObservationWrapper"]


class BoxObservationWrapper(FormWrapper):
    """The ``"observation"`` part of the dict observation, as ``env(observation_form="box")``
    gives it; wraps ``env`` in :class:`ActionMaskInInfoWrapper` first unless its infos hold
    the mask already."""

    observation_form = "box"

    def __init__(self, env: AECEnv) -> None:
        if not getattr(env, "mask_in_info", False):
            env = ActionMaskInInfoWrapper(env)
        super().__init__(env)
        self.observation_spaces = {
            agent: env.observation_space(agent)["observation"] for agent in env.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Box:
        """The (cached) encoder's Box of ``agent``."""
        return self.observation_spaces[agent]

    def observe(self, agent: str) -> np.ndarray:
        """The encoder's array of ``agent`` (its mask is in the infos)."""
        observation: Any = self.env.observe(agent)
        return observation["observation"]
