"""What every encoder-free agent adapter shares (callables, torch modules, processes)."""

from __future__ import annotations

from typing import Any

import numpy as np

from primeval.envs.games import get_game


class EncoderFreeAgent:
    """What every encoder-free adapter shares: the game's view, for the legal actions'
    names, and the check that the returned action is a legal id."""

    def __init__(self, game: str, players: int | None, name: str) -> None:
        self.game = get_game(game).name
        self.players = players or get_game(game).default_players
        self.name = name
        self._view = None

    def info(self, action_mask: np.ndarray, state: Any, seat: int | None) -> dict[str, Any]:
        if self._view is None:
            self._view = get_game(self.game).raw_env(self.players).view
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        names = (
            [self._view.action_name(state, a, seat) for a in legal]
            if state is not None
            else [str(a) for a in legal]
        )
        return {
            "legal_actions": list(zip(legal, names, strict=True)),
            "seat": seat,
            "game": self.game,
            "players": self.players,
        }

    def checked(self, action: Any, action_mask: np.ndarray) -> int:
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
                action = int(action)
            else:
                raise TypeError(
                    f"agent {self.name}: returned {action!r} "
                    f"({type(action).__name__}), not an int action id"
                )
        action = int(action)
        if not 0 <= action < len(action_mask) or not action_mask[action]:
            legal = np.flatnonzero(action_mask).tolist()
            shown = legal if len(legal) <= 12 else f"{legal[:12]}... ({len(legal)} in all)"
            raise ValueError(
                f"agent {self.name}: returned action {action}, which is not "
                f"legal now; the legal ids are {shown}"
            )
        return action


__all__ = ["EncoderFreeAgent"]
