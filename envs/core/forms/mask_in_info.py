"""``ActionMaskInInfoWrapper``: the action mask in ``infos[agent]["action_mask"]`` too.

PettingZoo's other place for the mask, which its wrappers, its tests, TorchRL and RLlib read.
The mask is the observation's (int8, 1 on the legal actions of the agent to act, all zeros
for every other agent), set for every live agent after each step.
"""

from __future__ import annotations

from primeval.envs.core.forms.base import FormWrapper

__all__ = ["ActionMaskInInfoWrapper"]


class ActionMaskInInfoWrapper(FormWrapper):
    """Puts each live agent's action mask (``env.unwrapped.action_mask(agent)``) in its
    infos, as ``env(mask_in_info=True)`` does."""

    #: Whether ``infos[agent]["action_mask"]`` holds the agent's action mask.
    mask_in_info = True

    def _refresh_infos(self) -> None:
        core = self.unwrapped
        for agent in core.agents:
            if agent in core.infos:
                core.infos[agent]["action_mask"] = core.action_mask(agent)
