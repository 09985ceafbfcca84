"""The reference encoder of Primordial Soup: every feature written by its piece name.

This is the definition of what an observation holds, written to be read: one small function
per block of features (decision context, players, soup and supply, environment), each writing
the pieces of :mod:`~primeval.envs.primordial_soup.encoders_features` by name with
:meth:`FeatureBuilder.view` / :meth:`FeatureBuilder.write`. It keeps no caches and knows no
positions. The encoders the envs use (:mod:`~primeval.envs.primordial_soup.encoders`) write the
same arrays through the fast path (:mod:`~primeval.envs.primordial_soup.encoders_fast`);
``tests/envs/primordial_soup/test_encoders_reference.py`` proves them equal observation by
observation along random games.

Adding a feature: declare its piece (and scale) in ``encoders_features``, write it here, and
write it in ``encoders_fast``.

Example::

    reference = ReferenceEncoder(rules, "planes")
    obs = reference.encode(state, seat)   # == PlanesEncoder(rules).encode(state, seat)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from primeval.envs.core.encoders import ObservationEncoder
from primeval.envs.primordial_soup.data import GENE_INDEX, NUM_GENES
from primeval.envs.primordial_soup.encoders import ENCODERS
from primeval.envs.primordial_soup.encoders_features import (
    ATTACK_KINDS,
    DECISION_KINDS,
    FRAME_FLAGS,
    MAX_AMOEBAS,
    MAX_DICE,
    MOVE_MODES,
    RELOCATION_DECISIONS,
    SoupFeatures,
)
from primeval.envs.primordial_soup.state import PHASES, GameState, PlayerState

__all__ = ["ReferenceEncoder", "graph_of", "observe", "planes_of"]


def observe(f: SoupFeatures, state: GameState, seat: int) -> np.ndarray:
    """The ``"flat"`` observation of ``seat`` in ``state``: every piece of ``f.features``.

    Raises:
        ValueError: ``seat`` is not a seat of the game.
    """
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is out of range for {n} players")
    out = f.features.zeros()
    _decision_context(f, out, state, seat)
    _players(f, out, state, seat)
    _soup_and_supply(f, out, state, seat)
    _environment(f, out, state)
    np.minimum(out, f.high(), out=out)  # the guard: never above the bounds
    return out


def _relative(player: int, seat: int, n: int) -> int:
    """Where absolute seat ``player`` sits as seen from ``seat``: 0 is ``seat`` itself."""
    return (player - seat) % n


# Decision context ----------------------------------------------------------------------------


def _decision_context(f: SoupFeatures, out: np.ndarray, state: GameState, seat: int) -> None:
    """The phase and the pending decision: its kind, who acts and the frame's fields."""
    fb, n = f.features, state.num_players
    if state.phase in PHASES:
        fb.view(out, "phase")[PHASES.index(state.phase)] = 1.0
    frame = state.stack[-1] if state.stack else {}
    kind = frame.get("kind")
    if kind not in DECISION_KINDS:
        fb.view(out, "decision")[len(DECISION_KINDS)] = 1.0  # none
        return
    fb.view(out, "decision")[DECISION_KINDS.index(kind)] = 1.0
    _actor(f, out, state, frame, seat)
    _frame_fields(f, out, frame, seat, n)
    if kind in RELOCATION_DECISIONS:
        _carried_cubes(f, out, state, seat)


def _carried_cubes(f: SoupFeatures, out: np.ndarray, state: GameState, seat: int) -> None:
    """The cubes the relocation in progress takes along so far (Tentacle), by relative colour."""
    n = state.num_players
    reloc = next((fr for fr in reversed(state.stack) if fr.get("kind") == "relocate"), None)
    if reloc is None:
        return
    view = f.features.view(out, "carried_cubes")
    for colour, count in enumerate(reloc.get("carry") or ()):
        view[_relative(colour, seat, n)] = count / f.scale["carried_cubes"]


def _actor(f: SoupFeatures, out: np.ndarray, state: GameState, frame: dict, seat: int) -> None:
    """Who decides (and whether it is the observer), their amoeba and its space."""
    fb, n = f.features, state.num_players
    player = frame.get("player", -1)
    if not 0 <= player < n:
        return
    fb.write(out, "to_act", player == seat)
    fb.view(out, "actor")[_relative(player, seat, n)] = 1.0
    amoeba = frame.get("amoeba", -1)
    if 0 <= amoeba < MAX_AMOEBAS:
        fb.view(out, "acting_amoeba")[amoeba] = 1.0
        space = state.players[player].amoeba_space[amoeba]
        if space >= 0:
            fb.view(out, "acting_space")[0, space] = 1.0


def _frame_fields(f: SoupFeatures, out: np.ndarray, frame: dict, seat: int, n: int) -> None:
    """The decision frame's other fields, each where the frame has it."""
    fb = f.features
    if frame.get("mode") in MOVE_MODES:
        fb.view(out, "move_mode")[MOVE_MODES.index(frame["mode"])] = 1.0
    if frame.get("step") in (1, 2):
        fb.view(out, "move_step")[frame["step"] - 1] = 1.0
    for direction in frame.get("allowed") or ():
        fb.view(out, "allowed_directions")[direction] = 1.0
    other = frame.get("attacker_player", frame.get("mover_player", -1))
    if 0 <= other < n:
        fb.view(out, "other_player")[_relative(other, seat, n)] = 1.0
    mover_amoeba = frame.get("mover_amoeba", -1)
    if 0 <= mover_amoeba < MAX_AMOEBAS:
        fb.view(out, "other_amoeba")[mover_amoeba] = 1.0
    if frame.get("attack_kind") in ATTACK_KINDS:
        fb.view(out, "attack_kind")[ATTACK_KINDS.index(frame["attack_kind"])] = 1.0
    fb.write(out, "frame_flags", [bool(frame.get(flag)) for flag in FRAME_FLAGS])
    if "remaining" in frame:
        fb.write(out, "defect_remaining", max(frame["remaining"], 0) / f.scale["defect_remaining"])
    meal = list(frame.get("meal") or ())[:3]
    fb.view(out, "meal")[: len(meal)] = [m / f.scale["meal"] for m in meal]
    if "damage" in frame:
        fb.write(out, "start_damage", frame["damage"] / f.scale["start_damage"])
    if 0 <= frame.get("space", -1) < f.num_spaces:
        fb.view(out, "frame_space")[0, frame["space"]] = 1.0
    if 0 <= frame.get("dest", -1) < f.num_spaces:
        fb.view(out, "frame_dest")[0, frame["dest"]] = 1.0


# Players ---------------------------------------------------------------------------------------


def _players(f: SoupFeatures, out: np.ndarray, state: GameState, seat: int) -> None:
    """Every player's row, at their relative seat (the slots past the last player stay 0)."""
    n = state.num_players
    f.features.view(out, "seat_present")[:n] = 1.0
    for player, ps in enumerate(state.players):
        _player(f, out, state, ps, _relative(player, seat, n))


def _player(f: SoupFeatures, out: np.ndarray, state: GameState, ps: PlayerState,
            k: int) -> None:
    """One player's features at relative seat ``k``: points, genes, amoebas."""
    fb, scale = f.features, f.scale
    fb.view(out, "bp")[k] = ps.bp / scale["bp"]
    fb.view(out, "score")[k] = ps.score / scale["score"]
    fb.view(out, "in_finish_zone")[k] = ps.score >= f.config.finish_zone_start
    fb.view(out, "aggression_used")[k] = ps.aggression_used
    genes, genes_new = np.zeros(NUM_GENES), np.zeros(NUM_GENES)
    mutation_points = 0
    for key, acquired in ps.genes.items():
        genes[GENE_INDEX[key]] = 1.0
        genes_new[GENE_INDEX[key]] = acquired == state.round
        mutation_points += f.gene_mp[GENE_INDEX[key]]
    fb.view(out, "genes")[k] = genes
    fb.view(out, "genes_new")[k] = genes_new
    fb.view(out, "mutation_points")[k] = max(mutation_points, 0) / scale["mutation_points"]
    amoebas = f.num_amoebas
    fb.view(out, "amoeba_done")[k, :amoebas] = ps.amoeba_done
    fb.view(out, "amoeba_damage")[k, :amoebas] = [d / scale["amoeba_damage"]
                                                  for d in ps.amoeba_damage]
    on_board = [i for i in range(amoebas) if ps.amoeba_space[i] >= 0]
    fb.view(out, "amoebas_on_board")[k] = len(on_board) / scale["amoebas_on_board"]
    # On the board: where each amoeba is, and per space the count and the damage summed in
    # float32, in amoeba order.
    count, damage = fb.view(out, "amoebas")[k], fb.view(out, "damage")[k]
    for i in on_board:
        space = ps.amoeba_space[i]
        fb.view(out, "amoeba_at")[k * MAX_AMOEBAS + i, space] = 1.0
        count[space] += 1.0 / scale["amoebas"]
        damage[space] += np.float32(ps.amoeba_damage[i] / scale["damage"])


# Soup and supply -------------------------------------------------------------------------------


def _soup_and_supply(f: SoupFeatures, out: np.ndarray, state: GameState, seat: int) -> None:
    """Food cubes on each space and in the supply (by relative colour), and the gene cards."""
    fb, scale, n = f.features, f.scale, state.num_players
    cubes = fb.view(out, "cubes")
    for space, row in enumerate(state.cubes):
        for colour, count in enumerate(row):
            cubes[_relative(colour, seat, n), space] = count / scale["cubes"]
    for colour, count in enumerate(state.supply):
        fb.view(out, "cube_supply")[_relative(colour, seat, n)] = count / scale["cube_supply"]
    fb.write(out, "gene_supply", [count / scale["gene_supply"] for count in state.gene_supply])


# Environment -----------------------------------------------------------------------------------


def _environment(f: SoupFeatures, out: np.ndarray, state: GameState) -> None:
    """The environment card face up, the cards not yet turned, the round and the dice."""
    fb, scale = f.features, f.scale
    card = state.environment_card
    if 0 <= card < f.deck_len:
        fb.view(out, "drift")[f.card_drift[card]] = 1.0
        fb.write(out, "ozone", f.card_ozone[card] / scale["ozone"])
    deck = state.environment_deck
    fb.write(out, "deck_size", len(deck) / scale["deck_size"])
    drifts = fb.view(out, "deck_drifts")
    for c in deck:
        drifts[f.card_drift[c]] = f.add_card_share(float(drifts[f.card_drift[c]]))
    fb.write(out, "round", state.round / scale["round"])
    for die, face in enumerate(state.dice[:MAX_DICE]):
        if 1 <= face <= 6:
            fb.view(out, "dice")[die, face - 1] = 1.0


# Layouts ---------------------------------------------------------------------------------------


def planes_of(f: SoupFeatures, planes: Any, vector: np.ndarray) -> np.ndarray:
    """The ``"planes"`` observation made of a flat one, channel by channel by name.

    Args:
        f: The features ``vector`` is laid out by.
        planes: A ``PlanesEncoder`` (its ``channel(obs, name)`` views say where each piece
            goes).
        vector: A ``"flat"`` observation (:func:`observe`).
    """
    out = np.zeros(planes.space().shape, dtype=np.float32)
    xs = [x for x, _ in f.board.cells]
    ys = [y for _, y in f.board.cells]
    planes.channel(out, "valid")[0, ys, xs] = 1.0
    island_x, island_y = f.board.island
    planes.channel(out, "island")[0, island_y, island_x] = 1.0
    for piece in f.spatial_features.pieces:  # (channels, spaces) onto the spaces' cells
        planes.channel(out, piece.name)[:, ys, xs] = f.features.view(vector, piece.name)
    for piece in f.global_features.pieces:  # one constant plane per value
        planes.channel(out, piece.name)[...] = f.features.view(vector, piece.name).reshape(
            -1, 1, 1)
    return out


def graph_of(f: SoupFeatures, graph: Any, vector: np.ndarray) -> np.ndarray:
    """The ``"graph"`` observation made of a flat one, space by space and piece by name.

    Args:
        f: The features ``vector`` is laid out by.
        graph: A ``GraphEncoder`` (its ``split`` views and ``node_columns`` say where each
            piece goes).
        vector: A ``"flat"`` observation (:func:`observe`).
    """
    out = np.zeros(graph.space().shape, dtype=np.float32)
    nodes, adjacency, globals_ = graph.split(out)
    board = f.board
    for space, (x, y) in enumerate(board.cells):
        nodes[space, graph.node_columns["position"]] = (x / max(1, board.width - 1),
                                                         y / max(1, board.height - 1))
        for direction in range(4):  # W, N, E, S; the fifth, "stay", names the space itself
            neighbour = board.neighbours[space][direction]
            if neighbour >= 0:
                adjacency[space, neighbour] = 1.0
        for piece in f.spatial_features.pieces:  # (channels, spaces): this space's column
            nodes[space, graph.node_columns[piece.name]] = f.features.view(vector, piece.name)[:, space]
    for piece in f.global_features.pieces:
        f.global_features.view(globals_, piece.name)[...] = f.features.view(vector, piece.name)
    return out


class ReferenceEncoder:
    """An encoder of the envs, its observations written by the reference.

    Args:
        rules: Anything with ``.config`` and ``.num_players`` (as the encoders take).
        encoder: The encoder whose layout to fill: a name of ``ENCODERS`` or an instance.

    Attributes:
        name: The encoder's name.
        layout: The encoder laid out (its own ``encode`` is never called).
        feature_set: The :class:`SoupFeatures` written.
    """

    def __init__(self, rules: Any, encoder: str | ObservationEncoder = "flat") -> None:
        self.layout = ENCODERS[encoder](rules) if isinstance(encoder, str) else encoder
        self.name = self.layout.name
        self.feature_set = SoupFeatures(rules)

    def space(self) -> spaces.Box:
        """The layout's space."""
        return self.layout.space()

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """What the layout's encoder observes for ``seat`` in ``state``, by the reference."""
        vector = observe(self.feature_set, state, seat)
        if self.name == "flat":
            return vector
        if self.name == "planes":
            return planes_of(self.feature_set, self.layout, vector)
        if self.name == "graph":
            return graph_of(self.feature_set, self.layout, vector)
        raise ValueError(f"no reference layout for encoder {self.name!r}")
