"""PettingZoo's ``state()``: a game's features seen from no seat, built from its flat encoder.

A centralised critic (MAPPO, QMIX, TorchRL's ``return_state=True``) reads one global array
per step instead of one observation per seat. :class:`StateEncoder` makes it from the game's
``"flat"`` observation features, so the state has the same named pieces, scales and bounds as
an observation:

* the features are those the flat encoder writes for seat 0. Observations are ego-centric
  (relative seat ``k`` is the absolute seat ``(seat + k) % n``), so seen from seat 0 every
  per-player piece is in absolute seat order: row ``k`` is ``player_k``, and ``actor`` names
  the absolute seat that decides;
* the *observer pieces* are left out: they say something about the observer (``to_act``: the
  observer is the one to decide), which a state seen by no one does not have;
* the *private pieces* (what only one seat sees: its own hand, the objectives it was dealt)
  are left out too, so by default the state is public information only. With
  ``private=True`` each comes back once per seat, shaped ``(max_players, *piece shape)``:
  row ``p`` is what ``player_p`` privately sees in it (zeros for a seat without a player).

What no player sees (the order of a deck, the levels of face-down tiles) is never in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from primeval.envs.core.encoders import FeatureBuilder

__all__ = ["StateEncoder", "check_state_private"]


def check_state_private(value: Any) -> bool:
    """An env's ``state_private`` argument, checked when the env is built (the state encoder
    itself is built on first use).

    Raises:
        ValueError: Not True or False.
    """
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"state_private must be True or False, got {value!r}")
    return bool(value)


class StateEncoder:
    """The features of a state from no seat's view (see the module docstring).

    Args:
        flat: The game's flat observation encoder: ``features`` (a
            :class:`~primeval.envs.core.encoders.FeatureBuilder`), ``space()`` (a Box with
            per-value bounds) and ``encode(state, seat)``.
        num_players: Seats in the game (``encode`` observes each of them when ``private``).
        max_players: Rows of each private piece (the encoders' padded player count).
        observer_pieces: Piece names left out: features of the observer itself.
        private_pieces: Piece names only their seat sees: left out, or (``private``) laid out
            once per seat at the end of the vector, in this order.
        private: Include every seat's private pieces.

    Attributes:
        name: ``"state"``.
        private: Whether the private pieces are included.
        features: The pieces of the state vector, in order (shared pieces keep the flat
            encoder's names, shapes and descriptions).
        pieces: Piece name -> slice of the vector.

    Raises:
        ValueError: A piece name the flat encoder does not have.
    """

    name = "state"

    def __init__(self, flat: Any, num_players: int, *, max_players: int,
                 observer_pieces: Sequence[str] = (), private_pieces: Sequence[str] = (),
                 private: bool = False) -> None:
        source: FeatureBuilder = flat.features
        for name in (*observer_pieces, *private_pieces):
            source.piece(name)  # ValueError naming the known pieces
        self.flat = flat
        self.num_players = int(num_players)
        self.private = bool(private)
        left_out = set(observer_pieces) | set(private_pieces)
        shared = [p for p in source.pieces if p.name not in left_out]
        self._private = [source.piece(name) for name in private_pieces] if private else []
        self.features = FeatureBuilder(
            [(p.name, p.shape, p.description) for p in shared]
            + [(p.name, (max_players, *p.shape), f"per seat: {p.description}")
               for p in self._private])
        self.pieces: dict[str, slice] = {n: self.features.slice(n) for n in self.features.names}
        # Where the shared pieces come from in a flat observation, in the state's order.
        self._shared = np.concatenate(
            [np.arange(p.offset, p.stop) for p in shared]).astype(np.intp)
        self._shared_size = len(self._shared)
        def layout(bound: Any) -> np.ndarray:  # a flat observation's bound, as the state's
            bound = np.asarray(bound, dtype=np.float32).ravel()
            return np.concatenate([bound[self._shared], *[
                np.tile(bound[p.offset:p.stop], max_players) for p in self._private]])

        space = flat.space()
        self._space = spaces.Box(low=layout(space.low), high=layout(space.high),
                                 dtype=np.float32)

    def space(self) -> spaces.Box:
        """``Box(low, high, (size,), float32)``, the flat encoder's bounds of each value."""
        return self._space

    def encode(self, state: Any) -> np.ndarray:
        """The state vector of ``state`` (a fresh float32 array)."""
        seen = self.flat.encode(state, 0)
        out = np.empty(self.features.size, dtype=np.float32)
        out[: self._shared_size] = seen[self._shared]
        if self._private:
            for piece in self._private:
                self.view(out, piece.name)[...] = 0.0
            for seat in range(self.num_players):
                if seat:
                    seen = self.flat.encode(state, seat)
                for piece in self._private:
                    self.view(out, piece.name)[seat] = seen[piece.offset:piece.stop].reshape(
                        piece.shape)
        return out

    def view(self, state_vector: np.ndarray, name: str) -> np.ndarray:
        """Piece ``name`` of a state vector, shaped like the piece."""
        return self.features.view(state_vector, name)

    def __repr__(self) -> str:
        return (f"StateEncoder(size={self.features.size}, private={self.private}, "
                f"from {type(self.flat).__name__})")
