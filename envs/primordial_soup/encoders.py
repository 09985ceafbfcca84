"""Observation encoders of Primordial Soup: ``"flat"`` (a named vector), ``"planes"`` (grid) and
``"graph"`` (space rows, adjacency, globals).

What every feature is (names, shapes, scales, bounds, the ego-centric order of seats and
colours) is defined in :mod:`~primeval.envs.primordial_soup.encoders_features`, whose names
this module re-exports. The encoders here lay the features out and write them through the
fast path (:mod:`~primeval.envs.primordial_soup.encoders_fast`); the reference
(:mod:`~primeval.envs.primordial_soup.encoders_reference`) writes the same arrays piece by
piece, and a test proves them equal along random games.

``"flat"`` concatenates the global and the spatial pieces into one vector (see
:attr:`FlatEncoder.features` / :attr:`FlatEncoder.pieces`); ``"planes"`` scatters each spatial
channel onto the board grid and broadcasts every global feature as a constant plane (see
:attr:`PlanesEncoder.channels`); ``"graph"`` puts each space's spatial features in a row of its
own, beside the board's adjacency and the global pieces (see :class:`GraphEncoder`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from primeval.envs.core.state_encoder import StateEncoder
from primeval.envs.core.structure import GraphLayout
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
from primeval.envs.primordial_soup.structure import graph_structure

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
    "GraphEncoder",
    "PlanesEncoder",
    "SoupFeatures",
    "make_state_encoder",
]


def _flat_values(filler: Filler, vector: np.ndarray, high: np.ndarray, state: GameState,
                 seat: int) -> np.ndarray:
    """``vector`` (a scratch buffer of the ``"flat"`` size) filled with the ``"flat"`` values
    ``seat`` observes in ``state``, clipped to ``high``: what ``"planes"`` and ``"graph"`` lay
    out anew."""
    vector.fill(0.0)
    filler.fill(vector, state, seat)
    np.minimum(vector, high, out=vector)  # guard: never leave the space
    return vector


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
        vector = _flat_values(self._filler, self._vector, self._vector_high, state, seat)
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


class GraphEncoder(GraphLayout):
    """``"graph"``: the soup as a graph of its spaces, one float32 vector (a gymnasium Box).

    Layout of the vector (``T`` soup spaces, ``F`` node features, ``G`` global features)::

        [ nodes: T x F (row s = space s) | adjacency: T x T | globals: G ]

    * ``nodes`` (row-major, one row per space in ``board.cells`` order): ``position`` (the
      space's cell, ``x / (width - 1)`` and ``y / (height - 1)``: the same in every state),
      then every spatial piece's channels side by side (``cubes``, ``amoebas``, ``amoeba_at``,
      ``damage``, ``acting_space``, ``frame_space``, ``frame_dest``), columns
      :attr:`node_columns`;
    * ``adjacency``: symmetric 0/1, 1 where two spaces are orthogonal neighbours (the moves
      and cell division follow them; the island is no space). Constant for a board;
    * ``globals``: the global pieces, as in ``"flat"`` (:attr:`global_features`).

    The same values as ``"flat"`` (each feature once), laid out for a network that shares its
    weights across the spaces: a structured policy (``network.policy: structured``) reads it
    through :meth:`structure`, and scores each ``place_amoeba`` action from its space's row.
    On the standard board ``T = 19``, ``F = 45``, ``G = 365`` (1,581 values; ``"flat"``
    has the same 1,182 without the positions and the adjacency).

    Attributes:
        name: ``"graph"``.
        feature_set: The :class:`SoupFeatures` written.
        num_entities (also ``num_spaces``), num_node_features, num_global_features: ``T``,
            ``F``, ``G``.
        node_columns: Node piece name -> slice of node columns.
        global_features: The global pieces' :class:`~primeval.envs.core.encoders.FeatureBuilder`.
        size: Length of the vector.
    """

    name = "graph"

    def __init__(self, rules: Any) -> None:
        self.feature_set = f = SoupFeatures(rules)
        self._filler = Filler(f)
        board, t = f.board, f.num_spaces
        self.num_entities = t
        self.node_columns: dict[str, slice] = {"position": slice(0, 2)}
        column = 2
        for piece in f.spatial_features.pieces:
            channels = piece.shape[0]
            self.node_columns[piece.name] = slice(column, column + channels)
            column += channels
        self.num_node_features = nf = column
        self.global_features = f.global_features
        self.num_global_features = g = f.global_features.size
        self._adj_stop = t * nf + t * t  # where the globals start
        self.size = self._adj_stop + g
        self._template = np.zeros(self.size, dtype=np.float32)
        nodes, adjacency, _ = self.split(self._template)
        for space, (x, y) in enumerate(board.cells):
            nodes[space, 0] = x / max(1, board.width - 1)
            nodes[space, 1] = y / max(1, board.height - 1)
            for other in board.adjacent(space):
                adjacency[space, other] = 1.0
        # Where each spatial value of the "flat" vector (piece by piece, (channels, spaces))
        # goes in the node rows.
        targets: list[np.ndarray] = []
        for piece in f.spatial_features.pieces:
            cols = np.arange(self.node_columns[piece.name].start, self.node_columns[piece.name].stop)
            targets.append((np.arange(t)[None, :] * nf + cols[:, None]).ravel())
        self._spatial_targets = np.concatenate(targets)
        self._flat_high = f.high()
        self._vector = f.features.zeros()
        high = np.ones(self.size, dtype=np.float32)
        high[self._spatial_targets] = f.spatial_high()
        high[self._adj_stop :] = f.global_high()
        self._space = spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32)

    def space(self) -> spaces.Box:
        """``Box(0, high, (T*F + T*T + G,), float32)`` with per-feature upper bounds."""
        return self._space

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The vector ``seat`` observes in ``state`` (a fresh array)."""
        vector = _flat_values(self._filler, self._vector, self._flat_high, state, seat)
        out = self._template.copy()
        g = self.num_global_features
        out[self._spatial_targets] = vector[g:]
        out[self._adj_stop :] = vector[:g]
        return out

    @property
    def num_spaces(self) -> int:
        """``T``: the soup's spaces, the graph's entities."""
        return self.num_entities

    def structure(self) -> dict[str, Any]:
        """Where the parts of an observation lie and which space each action id names, as
        JSON-able data (:func:`~primeval.envs.primordial_soup.structure.graph_structure`):
        what a structured policy (``network.policy: structured``) is built from."""
        return graph_structure(self)


#: Encoder classes by ``obs_encoder`` name.
ENCODERS: dict[str, type] = {"flat": FlatEncoder, "planes": PlanesEncoder, "graph": GraphEncoder}


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
