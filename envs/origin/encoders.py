"""Observation encoders of Origin: ``"flat"`` (a named vector) and ``"graph"`` (map rows,
adjacency, globals).

What every feature is (names, shapes, denominators, the ego-centric order of players, what
stays hidden) is defined in :mod:`~primeval.envs.origin.encoders_features`, whose names this
module re-exports. The encoders here lay the features out and write them through the fast path
(:mod:`~primeval.envs.origin.encoders_fast`); the reference
(:mod:`~primeval.envs.origin.encoders_reference`) writes the same arrays piece by piece, and a
test proves them equal along random games.

``"flat"`` lays out the global pieces, then every territory piece that can change during a game
as a ``(T, channels)`` block (see :attr:`FlatEncoder.pieces`). It leaves out the map's static
pieces (``colour``, ``continent``, ``strait_end``): they are the same in every observation of
an env, so to a network reading one flat vector they are constants that carry no information,
yet they would be two fifths of its input (966 of 2,452 values with the shipped map).
``FlatEncoder(rules, include_static=True)`` puts them back. ``"graph"`` keeps them as node
features, where a graph network needs them, and lays out ``[nodes (T x F) | adjacency (T x T)
| globals (G)]`` (see :class:`GraphEncoder`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from primeval.envs.core.encoders import FeatureBuilder
from primeval.envs.core.state_encoder import StateEncoder
from primeval.envs.core.structure import GraphLayout
from primeval.envs.origin.encoders_fast import Filler
from primeval.envs.origin.encoders_features import (
    ACTION_TYPES,
    CARD_PIECE_COLOURS,
    COUNT_SCALE,
    DECISION_KINDS,
    DECK_REASONS,
    GLOBAL_PIECES,
    MAX_LEVEL,
    MAX_PLAYERS,
    NODE_PIECES,
    OBSERVER_PIECES,
    PLAYER_PIECES,
    POINT_SOURCES,
    PRIVATE_PIECES,
    STATIC_NODE_PIECES,
    TURN_SCALE,
    OriginFeatures,
    PieceSpec,
    global_pieces,
    node_pieces,
)
from primeval.envs.origin.rules import objectives
from primeval.envs.origin.state import OriginState
from primeval.envs.origin.structure import graph_structure

__all__ = [
    "ACTION_TYPES",
    "CARD_PIECE_COLOURS",
    "COUNT_SCALE",
    "DECISION_KINDS",
    "DECK_REASONS",
    "ENCODERS",
    "GLOBAL_PIECES",
    "MAX_LEVEL",
    "MAX_PLAYERS",
    "OBSERVER_PIECES",
    "NODE_PIECES",
    "PLAYER_PIECES",
    "POINT_SOURCES",
    "PRIVATE_PIECES",
    "STATIC_NODE_PIECES",
    "TURN_SCALE",
    "FlatEncoder",
    "GraphEncoder",
    "ObjectivesEncoder",
    "OriginFeatures",
    "PieceSpec",
    "global_pieces",
    "make_state_encoder",
    "node_pieces",
]


class _Encoder:
    """What both encoders share: the features (``self.feature_set``), written by the fast
    path's :class:`~primeval.envs.origin.encoders_fast.Filler` (``self._filler``) into a copy
    of its template, and the card index of each card piece's entries."""

    feature_set: OriginFeatures
    _filler: Filler

    def encode(self, state: OriginState, seat: int) -> np.ndarray:
        """The vector ``seat`` observes in ``state`` (a fresh array)."""
        out = self._filler.template.copy()
        self._filler.fill(out, state, seat)
        return out

    def cards_of(self, piece: str) -> list[int]:
        """The card index (``rules.data.cards[i]``) of each entry of a card piece, e.g. of
        ``view(obs, "permanents")[k]``'s columns."""
        try:
            return list(self.feature_set.card_entries[piece])
        except KeyError:
            pieces = ", ".join(sorted(self.feature_set.card_entries))
            raise ValueError(f"{piece!r} is not a card piece; card pieces: {pieces}") from None


class FlatEncoder(_Encoder):
    """``"flat"``: one float32 vector of named pieces: the global pieces, then each territory
    piece as a ``(T, channels)`` block, without the map's static pieces (``colour``,
    ``continent``, ``strait_end``: constants of the env) unless ``include_static``.

    Example: ``encoder.view(obs, "owner")[t, 0]`` is 1 when the observer owns territory ``t``;
    ``encoder.view(obs, "hand_size")[1]`` is the next player's hand size by colour.

    With the shipped data the vector has 1,486 values (2,452 with ``include_static``).

    Args:
        rules: An ``OriginRules``.
        include_static: Also lay out the static territory pieces (all of :data:`NODE_PIECES`,
            in its order, as the graph encoder's node columns are).

    Attributes:
        name: ``"flat"``.
        feature_set: The :class:`OriginFeatures` written.
        features: The :class:`~primeval.envs.core.encoders.FeatureBuilder` of all pieces.
        pieces: Piece name -> slice of the vector.
    """

    name = "flat"

    def __init__(self, rules: Any, include_static: bool = False) -> None:
        self.feature_set = f = OriginFeatures(rules)
        self._filler = Filler(f)
        t = f.num_territories
        gfb = f.global_features
        node_specs = [spec for spec in f.node_specs
                      if include_static or spec[0] not in STATIC_NODE_PIECES]
        self.features = FeatureBuilder(
            [(p.name, p.shape, p.description) for p in gfb.pieces]
            + [(name, (t, channels), text) for name, channels, text in node_specs]
        )
        self.pieces: dict[str, slice] = {n: self.features.slice(n) for n in self.features.names}
        # Global pieces first (offset 0), then each territory piece as a (T, channels) block
        self._filler.set_layout(self.features.size, 0,
                                {name: (self.pieces[name].start, channels)
                                 for name, channels, _ in node_specs})
        self._space = spaces.Box(low=0.0, high=1.0, shape=(self.features.size,),
                                 dtype=np.float32)

    @property
    def size(self) -> int:
        return self.features.size

    def space(self) -> spaces.Box:
        """``Box(0, 1, (size,), float32)``."""
        return self._space

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """Piece ``name`` of an observation, shaped like the piece."""
        return self.features.view(obs, name)


class GraphEncoder(GraphLayout, _Encoder):
    """``"graph"``: the map as a graph, flattened into one float32 vector (a gymnasium Box).

    Layout of the vector (``T`` territories, ``F`` node features, ``G`` global features)::

        [ nodes: T x F (row t = territory t) | adjacency: T x T | globals: G ]
          0 .. T*F                             T*F .. T*F+T*T     T*F+T*T .. end

    * ``nodes`` (row-major, one row per territory in ``world.territories`` order): the
      territory pieces side by side, columns :attr:`node_columns` (``colour``, ``continent``,
      ``owner``, ``pawn_height``, ``pawn_width``, ``pawn_colour``, ``hunt_present``,
      ``hunt_value``, ``strait_end``, ``strait_open``, ``frame_territory``);
    * ``adjacency``: symmetric 0/1, 1 where two territories are joined by a land edge or a
      strait (the edges Evolve, Migrate and Swap follow); strait edges are also named per
      territory by the ``strait_end`` node columns. Constant for a given map;
    * ``globals``: the global pieces, as in ``"flat"`` (:attr:`global_features`).

    With the shipped data ``T = 42``, ``F = 42``, ``G = 688`` (4,216 values in all; the
    ``"flat"`` vector, without the static node columns and the adjacency, has 1,486).
    :meth:`split` returns the three parts as views shaped ``(T, F)``, ``(T, T)``, ``(G,)``.

    Attributes:
        name: ``"graph"``.
        feature_set: The :class:`OriginFeatures` written.
        num_entities (also ``num_territories``), num_node_features, num_global_features:
            ``T``, ``F``, ``G``.
        node_columns: Territory piece name -> slice of node columns.
        global_features: :class:`~primeval.envs.core.encoders.FeatureBuilder` of the globals.
        size: Length of the vector.
    """

    name = "graph"

    def __init__(self, rules: Any) -> None:
        self.feature_set = f = OriginFeatures(rules)
        self._filler = Filler(f)
        t, nf = f.num_territories, f.num_node_features
        self.num_entities = t
        self.num_node_features = nf
        self.node_columns = dict(f.node_channels)
        self.global_features = f.global_features
        self.num_global_features = f.global_features.size
        self._adj_stop = t * nf + t * t  # where the globals start
        self.size = self._adj_stop + self.num_global_features
        # Node rows of nf columns first, then the adjacency, then the globals
        self._filler.set_layout(self.size, self._adj_stop,
                                {name: (s.start, nf) for name, s in self.node_columns.items()})
        self.split(self._filler.template)[1][...] = f.adjacency  # constant, in the template
        self._space = spaces.Box(low=0.0, high=1.0, shape=(self.size,), dtype=np.float32)

    def space(self) -> spaces.Box:
        """``Box(0, 1, (T*F + T*T + G,), float32)``."""
        return self._space

    @property
    def num_territories(self) -> int:
        """``T``: the map's territories, the graph's entities."""
        return self.num_entities

    def structure(self) -> dict[str, Any]:
        """Where the parts of an observation lie and which territories each action id names,
        as JSON-able data (:func:`~primeval.envs.origin.structure.graph_structure`): what a
        structured policy (``network.policy: structured``) is built from."""
        return graph_structure(self)


#: The pieces ``"flat_objectives"`` adds after the ``"flat"`` vector, with their descriptions.
OBJECTIVE_DESCRIPTIONS: dict[str, str] = {
    "objective_progress": "PRIVATE progress of each objective held or dealt (0 for the others)",
    "prospect_gain": "objective points one more own pawn here would bring / the largest "
                     "objective's points",
    "prospect_loss": "objective points lost were the own pawn here gone / the largest "
                     "objective's points",
}
OBJECTIVE_PIECES: tuple[str, ...] = tuple(OBJECTIVE_DESCRIPTIONS)


class ObjectivesEncoder(FlatEncoder):
    """``"flat_objectives"``: the ``"flat"`` vector, then what the objectives the observer
    holds ask of the board, worked out by the rules (:mod:`~primeval.envs.origin.rules.
    objectives`) so that a network need not learn every card's condition from its one-hot:

    * ``objective_progress`` (one entry per purple card, as ``objectives_done``): for each
      objective in the observer's hand, and each one dealt to it in a pending
      ``keep_objective`` decision, how much of its condition holds (``objectives.progress``,
      1 exactly when it holds); 0 for the others;
    * ``prospect_gain`` (one per territory): how many points of those objectives (points
      times progress) one more of the observer's pawns on the territory would bring, over
      the largest objective's points (clipped at 1), counting the objectives that ask where
      pawns stand (``objectives.WHERE_KINDS``: colour, continent, connected group,
      continents present); 0 on the observer's own territories;
    * ``prospect_loss`` (one per territory): the same, lost were the observer's pawn on the
      territory gone; 0 elsewhere.

    Only the observer's own hand (and its own dealt cards) is read: nothing hidden. The
    ``"flat"`` part is the ``"flat"`` encoder's, unchanged; the three pieces cost about
    0.1 ms an observation (a plain computation, no fast path).

    With the shipped data the vector has 1,590 values (1,486 + 20 + 42 + 42).
    """

    name = "flat_objectives"

    def __init__(self, rules: Any) -> None:
        super().__init__(rules)
        self.rules = rules
        f = self.feature_set
        self.flat_size = self.features.size
        self._purple = list(f.card_entries["objectives_done"])
        self._rank = {card: k for k, card in enumerate(self._purple)}
        sizes = {"objective_progress": len(self._purple),
                 "prospect_gain": f.num_territories, "prospect_loss": f.num_territories}
        self.features = FeatureBuilder(
            [(p.name, p.shape, p.description) for p in self.features.pieces]
            + [(name, sizes[name], text) for name, text in OBJECTIVE_DESCRIPTIONS.items()])
        self.pieces = {n: self.features.slice(n) for n in self.features.names}
        cards = rules.data.cards
        self.points_scale = float(max((cards[c].points for c in self._purple), default=1) or 1)
        self._space = spaces.Box(low=0.0, high=1.0, shape=(self.features.size,),
                                 dtype=np.float32)

    def encode(self, state: OriginState, seat: int) -> np.ndarray:
        """The ``"flat"`` vector ``seat`` observes, then the objective pieces (a fresh array)."""
        out = np.zeros(self.features.size, dtype=np.float32)
        out[: self.flat_size] = super().encode(state, seat)
        self.write_objectives(out, state, seat)
        return out

    def write_objectives(self, out: np.ndarray, state: OriginState, seat: int) -> None:
        """Writes the pieces of :data:`OBJECTIVE_PIECES` of ``seat``'s observation into
        ``out`` (plain code: the reference writes them through this too)."""
        cards = self.rules.data.cards
        held = [c for c in state.hands[seat] if cards[c].colour == "purple"]
        frame = state.stack[-1] if state.stack else {}
        if frame.get("kind") == "keep_objective" and frame.get("player") == seat:
            held += [c for c in frame.get("dealt", ()) if c not in held]
        progress = self.features.view(out, "objective_progress")
        for card in held:
            progress[self._rank[card]] = objectives.progress(self.rules, state, seat, card)
        gain, loss = objectives.prospect_by_territory(self.rules, state, seat)
        scale = self.points_scale
        self.features.view(out, "prospect_gain")[:] = np.minimum(np.asarray(gain) / scale, 1.0)
        self.features.view(out, "prospect_loss")[:] = np.minimum(np.asarray(loss) / scale, 1.0)


#: Encoder classes by ``obs_encoder`` name.
ENCODERS: dict[str, type] = {"flat": FlatEncoder, "graph": GraphEncoder,
                             "flat_objectives": ObjectivesEncoder}


def make_state_encoder(rules: Any, private: bool = False,
                       flat: FlatEncoder | None = None) -> StateEncoder:
    """PettingZoo's ``state()`` of Origin: the ``"flat"`` pieces seen from no seat (every
    per-player row in absolute order, ``player_0`` first), without ``to_act`` and, unless
    ``private``, without the private pieces (:data:`PRIVATE_PIECES`: the hands, a dealt
    objective choice, a barter's cards): public information only. With ``private`` they come
    back once per seat (row ``p``: what ``player_p`` sees), e.g. ``hand[p]`` is
    ``player_p``'s hand (see :mod:`~primeval.envs.core.state_encoder`).

    ``flat``: the ``"flat"`` encoder of ``rules`` to read, when one is built already."""
    return StateEncoder(flat or FlatEncoder(rules), rules.num_players, max_players=MAX_PLAYERS,
                        observer_pieces=OBSERVER_PIECES, private_pieces=PRIVATE_PIECES,
                        private=private)
