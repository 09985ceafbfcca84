"""``FormWrapper``: the base of the integration forms, PettingZoo wrappers over the AEC core.

A form changes what the env shows (the observation, the infos, the state), never the game.
The infos are the core's own dicts: a form that changes them rewrites them in place after
every call that sets them anew (``reset``, ``step``, ``set_state``, ``set_game_state``), so
PettingZoo's safety wrappers, which read ``infos`` from the core directly, see the form's.
``env.unwrapped`` is the core, in its own forms (the dict observation, the names).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

__all__ = ["FormWrapper"]


class FormWrapper(BaseWrapper):
    """A PettingZoo wrapper giving one integration form of a
    :class:`~primeval.envs.core.aec.TurnBasedAECEnv` (or of another form over it).

    Subclasses override :meth:`_refresh_infos` (called after each call that sets the core's
    infos anew) and, for the observation or the state, PettingZoo's methods.
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)

    def _refresh_infos(self) -> None:
        """Puts this form into ``self.unwrapped.infos`` (nothing by default)."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        self._refresh_infos()

    def step(self, action: Any) -> None:
        self.env.step(action)
        self._refresh_infos()

    def set_state(self, data: dict[str, Any]) -> None:
        """The core's ``set_state``, the infos then in this form."""
        self.env.set_state(data)
        self._refresh_infos()

    def set_game_state(self, state: Any, seed: int | None = None) -> None:
        """The core's ``set_game_state``, the infos then in this form."""
        self.env.set_game_state(state, seed)
        self._refresh_infos()

    def clone(self, seed: int | None = None) -> FormWrapper:
        """An independent copy of the env in its forms, with the game in progress; ``seed``
        as in the core's ``clone`` (``None``: the copy shares the future dice)."""
        twin = copy.deepcopy(self)
        if seed is not None:
            twin.unwrapped._rng = np.random.default_rng(seed)
        return twin

    def __str__(self) -> str:
        return str(self.env)
