"""``PrivateStateWrapper``: PettingZoo's global state with every seat's private pieces.

The core's :meth:`state` is public information only; this form's is the game's private
state encoder (Origin adds each seat's hand and its other private pieces, once per seat),
for a centralised critic trained with what no single player knows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from primeval.envs.core.forms.base import FormWrapper

__all__ = ["PrivateStateWrapper"]


class PrivateStateWrapper(FormWrapper):
    """:meth:`state`, :attr:`state_space` and :attr:`state_encoder` from ``state_encoder``,
    as ``env(state_private=True)`` gives them.

    Args:
        env: The env (its core has a state encoder).
        state_encoder: A zero-argument callable building the private state encoder
            (``space()``, ``encode(state)``) on first use; picklable (a class or
            ``functools.partial``).
    """

    def __init__(self, env: AECEnv, state_encoder: Callable[[], Any]) -> None:
        super().__init__(env)
        self._factory = state_encoder
        self._encoder: Any = None

    @property
    def state_encoder(self) -> Any:
        """The private state encoder (built on first use)."""
        if self._encoder is None:
            self._encoder = self._factory()
        return self._encoder

    @property
    def state_space(self) -> spaces.Box:
        """The Box every :meth:`state` lies in."""
        return self.state_encoder.space()

    def state(self) -> np.ndarray:
        """The game's features from no seat's view, every seat's private pieces included.

        Raises:
            RuntimeError: Before ``reset``.
        """
        core = self.unwrapped
        if core.game_state is None:
            raise RuntimeError("state() before reset(): call reset() to start a game")
        return self.state_encoder.encode(core.game_state)
