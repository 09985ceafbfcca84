"""Observation encoders of Primordial Soup: ``"flat"`` (a named vector) and ``"planes"`` (grid).

What every feature is (names, shapes, scales, bounds, the ego-centric order of seats and
colours) is defined in :mod:`~primeval.envs.primordial_soup.encoders_features`, whose names
this module re-exports. The encoders here lay the features out and write them through the
fast path (:mod:`~primeval.envs.primordial_soup.encoders_fast`); the reference
(:mod:`~primeval.envs.primordial_soup.encoders_reference`) writes the same arrays piece by
piece, and a test proves them equal along random games.

``"flat"`` concatenates the global and the spatial pieces into one vector (see
:attr:`FlatEncoder.features` / :attr:`FlatEncoder.pieces`); ``"planes"`` scatters each spatial
channel onto the board grid and broadcasts every global feature as a constant plane (see
:attr:`PlanesEncoder.channels`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from primeval.envs.core.state_encoder import StateEncoder
from primeval.envs.primordial_soup.encoders_fast import Filler
from primeval.envs.primordial_soup.encoders_features import (
    AMOEBA_COUNT_SCALE,
    ATTACK_KINDS,
    BP_SCALE,
    CUBE_SCALE,
    DECISION_KINDS,
    FRAME_FLAGS,
    GLOBAL_PIECES,
    MAX_AMOEBAS,
    MAX_DICE,
    MAX_PLAYERS,
    MEAL_SCALE,
    MOVE_MODES,
    MP_SCALE,
    OBSERVER_PIECES,
    OZONE_SCALE,
    PRIVATE_PIECES,
    ROUND_SCALE,
    SCORE_SCALE,
    SPATIAL_PIECES,
    SoupFeatures,
)
from primeval.envs.primordial_soup.state import GameState

__all__ = [
    "AMOEBA_COUNT_SCALE",
    "ATTACK_KINDS",
    "BP_SCALE",
    "CUBE_SCALE",
    "DECISION_KINDS",
    "ENCODERS",
    "FRAME_FLAGS",
    "GLOBAL_PIECES",
    "MAX_AMOEBAS",
    "MAX_DICE",
    "MAX_PLAYERS",
    "OBSERVER_PIECES",
    "MEAL_SCALE",
    "MOVE_MODES",
    "MP_SCALE",
    "OZONE_SCALE",
    "PRIVATE_PIECES",
    "ROUND_SCALE",
    "SCORE_SCALE",
    "SPATIAL_PIECES",
    "FlatEncoder",
    "PlanesEncoder",
    "SoupFeatures",
    "make_state_encoder",
]


class FlatEncoder:
    """``"flat"``: one float32 vector of named pieces (global pieces, then spatial ones).

    Spatial pieces are shaped ``(channels, num_spaces)`` inside the vector, e.g.
    ``encoder.view(obs, "cubes")[1, 7]`` is the cubes of the next player's colour on space 7.

    Attributes:
        name: ``"flat"``.
        feature_set: The :class:`SoupFeatures` written.
        features: The :class:`~primeval.envs.core.encoders.FeatureBuilder` of all pieces.
        pieces: Piece name -> slice of the vector.
    """

    name = "flat"

    def __init__(self, rules: Any) -> None:
        self.feature_set = SoupFeatures(rules)
        self._filler = Filler(self.feature_set)
        self.features = self.feature_set.features
        self.pieces: dict[str, slice] = {n: self.features.slice(n) for n in self.features.names}
        self._high = self.feature_set.high()
        self._space = spaces.Box(
            low=np.zeros_like(self._high), high=self._high.copy(), dtype=np.float32
        )

    def space(self) -> spaces.Box:
        """``Box(0, high, (size,), float32)`` with per-feature upper bounds."""
        return self._space

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The vector ``seat`` observes in ``state`` (a fresh array)."""
        out = self.features.zeros()
        self._filler.fill(out, state, seat)
        np.minimum(out, self._high, out=out)  # guard: never leave the space
        return out

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """Piece ``name`` of an observation, shaped like the piece."""
        return self.features.view(obs, name)


class PlanesEncoder:
    """``"planes"``: ``(C, H, W)`` float32 over the board grid (``board.cells[s] = (x, y)``).

    Channels, in order (see :attr:`channels` for every name):

    * ``valid``: 1 on soup spaces; ``island``: 1 on the island;
    * every spatial piece, one plane per channel, non-zero only on soup spaces:
      ``cubes[k]``, ``amoebas[k]``, ``amoeba_at[k,i]`` (relative seat ``k``, amoeba number
      ``i + 1``), ``damage[k]``, ``acting_space``, ``frame_space``, ``frame_dest``;
    * every global feature as a constant plane: ``phase[i]``, ``decision[i]``, ``to_act``,
      ..., ``bp[k]``, ``genes[k,g]``, ..., ``dice[d,f]`` (the flat encoder's global pieces).

    Attributes:
        name: ``"planes"``.
        feature_set: The :class:`SoupFeatures` written.
        channels: Channel names in order.
        channel_slices: Piece name (and ``valid``/``island``) -> slice of channels.
    """

    name = "planes"

    def __init__(self, rules: Any) -> None:
        self.feature_set = f = SoupFeatures(rules)
        self._filler = Filler(f)
        board = f.board
        self.height, self.width = board.height, board.width
        gfb = f.global_features
        channels: list[str] = ["valid", "island"]
        self.channel_slices: dict[str, slice] = {"valid": slice(0, 1), "island": slice(1, 2)}
        for name, count, _ in SPATIAL_PIECES:
            start = len(channels)
            if name == "amoeba_at":
                channels += [f"amoeba_at[{k},{i}]" for k in range(MAX_PLAYERS)
                             for i in range(MAX_AMOEBAS)]
            elif count == 1:
                channels.append(name)
            else:
                channels += [f"{name}[{c}]" for c in range(count)]
            self.channel_slices[name] = slice(start, len(channels))
        self._spatial_start = 2
        self._global_start = len(channels)
        for piece in gfb.pieces:
            start = len(channels)
            if piece.size == 1:
                channels.append(piece.name)
            else:
                for idx in np.ndindex(*piece.shape):
                    channels.append(f"{piece.name}[{','.join(str(i) for i in idx)}]")
            self.channel_slices[piece.name] = slice(start, len(channels))
        self.channels: tuple[str, ...] = tuple(channels)
        self._global_size = gfb.size
        self._vector = f.features.zeros()  # the flat features of the state being encoded
        shape = (len(channels), self.height, self.width)
        # The channels before the global ones, as far as they are the same in every state.
        self._static = np.zeros((self._global_start, self.height, self.width), dtype=np.float32)
        cells = np.array([y * self.width + x for x, y in board.cells], dtype=np.intp)
        self._static[0].flat[cells] = 1.0
        ix, iy = board.island
        self._static[1, iy, ix] = 1.0
        # Where each spatial feature (channel, space) goes in the flattened planes.
        plane = self.height * self.width
        channel_starts = np.arange(self._spatial_start, self._global_start) * plane
        self._spatial_cells = (channel_starts[:, None] + cells).ravel()
        high = np.ones(shape, dtype=np.float32)
        spatial_high = f.spatial_high().reshape(-1, f.num_spaces).max(axis=1)
        high[self._spatial_start : self._global_start] = spatial_high[:, None, None]
        high[self._global_start :] = f.global_high()[:, None, None]
        self._space = spaces.Box(low=np.zeros_like(high), high=high.copy(), dtype=np.float32)
        # The channel bounds as a flat vector: clipping it clips the planes made from it.
        self._vector_high = np.concatenate([f.global_high(), np.repeat(spatial_high, f.num_spaces)])

    def space(self) -> spaces.Box:
        """``Box(0, high, (C, H, W), float32)`` with per-channel upper bounds."""
        return self._space

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The planes ``seat`` observes in ``state`` (a fresh array)."""
        vector = self._vector
        vector.fill(0.0)
        self._filler.fill(vector, state, seat)
        np.minimum(vector, self._vector_high, out=vector)  # guard: never leave the space
        out = np.empty((len(self.channels), self.height, self.width), dtype=np.float32)
        out[: self._global_start] = self._static
        out.reshape(-1)[self._spatial_cells] = vector[self._global_size :]
        out[self._global_start :] = vector[: self._global_size, None, None]  # constant planes
        return out

    def channel(self, obs: np.ndarray, name: str) -> np.ndarray:
        """The planes of piece or channel ``name`` in an observation."""
        if name in self.channel_slices:
            return obs[self.channel_slices[name]]
        return obs[self.channels.index(name)]


#: Encoder classes by ``obs_encoder`` name.
ENCODERS: dict[str, type] = {"flat": FlatEncoder, "planes": PlanesEncoder}


def make_state_encoder(rules: Any, private: bool = False,
                       flat: FlatEncoder | None = None) -> StateEncoder:
    """PettingZoo's ``state()`` of Primordial Soup: the ``"flat"`` pieces seen from no seat
    (every per-player row and colour in absolute order, ``player_0`` first), without
    ``to_act`` (see :mod:`~primeval.envs.core.state_encoder`). Everything in the game is
    public, so ``private`` changes nothing.

    ``flat``: the ``"flat"`` encoder of ``rules`` to read, when one is built already."""
    return StateEncoder(flat or FlatEncoder(rules), rules.num_players, max_players=MAX_PLAYERS,
                        observer_pieces=OBSERVER_PIECES, private_pieces=PRIVATE_PIECES,
                        private=private)
