"""The reference encoder of Origin: every feature written by its piece name.

This is the definition of what an observation holds, written to be read: one small function
per block of features (decision context, territories, straits, turn, rewards board, players,
the observer's hand), each writing the pieces of :mod:`~primeval.envs.origin.encoders_features`
by name with :meth:`FeatureBuilder.view` / :meth:`FeatureBuilder.write`, counts divided by the
features' ``denominators``. It keeps no caches and knows no positions. The encoders the envs
use (:mod:`~primeval.envs.origin.encoders`) write the same arrays through the fast path
(:mod:`~primeval.envs.origin.encoders_fast`); ``tests/envs/origin/test_encoders_reference.py``
proves them equal observation by observation along random games.

Adding a feature: declare its piece (and denominator) in ``encoders_features``, write it
here, and write it in ``encoders_fast``.

Example::

    reference = ReferenceEncoder(rules, "graph")
    obs = reference.encode(state, seat)   # == GraphEncoder(rules).encode(state, seat)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

import primeval.envs.origin.rules  # noqa: F401  (registers every decision kind)
from primeval.envs.core.encoders import ObservationEncoder
from primeval.envs.origin.encoders import ENCODERS, OBJECTIVE_PIECES
from primeval.envs.origin.encoders_features import (
    ACTION_TYPES,
    DECISION_KINDS,
    DECK_REASONS,
    MAX_LEVEL,
    MAX_PLAYERS,
    POINT_SOURCES,
    STATIC_NODE_PIECES,
    OriginFeatures,
)
from primeval.envs.origin.gamedata import CARD_COLOURS, REWARD_COLOURS
from primeval.envs.origin.rules import scoring
from primeval.envs.origin.rules.registry import REGISTRY
from primeval.envs.origin.state import EMPTY, NEUTRAL, PHASES, OriginState

__all__ = ["ReferenceEncoder", "observe"]


def observe(f: OriginFeatures, state: OriginState, seat: int) -> np.ndarray:
    """What ``seat`` observes in ``state``: every piece of ``f.features`` (the global pieces,
    then every territory piece as a ``(T, channels)`` block, static ones included).

    Raises:
        ValueError: ``seat`` is not a seat of the game, or the pending decision's kind is
            missing from ``DECISION_KINDS``.
    """
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is out of range for {n} players")
    out = f.features.zeros()
    _decision_context(f, out, state, seat)
    _territories(f, out, state, seat)
    _straits(f, out, state, seat)
    _turn(f, out, state, seat)
    _rewards_board(f, out, state)
    for k in range(n):
        _player(f, out, state, (seat + k) % n, k)
    for card in state.hands[seat]:
        f.features.view(out, "hand")[card] = 1.0
    np.clip(out, 0.0, 1.0, out=out)  # the guard: counts beyond their maximum stay at 1
    return out


def _relative(player: int, seat: int, n: int) -> int:
    """Where absolute seat ``player`` sits as seen from ``seat``: 0 is ``seat`` itself."""
    return (player - seat) % n


def _scaled(f: OriginFeatures, name: str, raw: Any) -> np.ndarray:
    """Raw counts of piece ``name`` divided by its denominator (in float32)."""
    return np.asarray(raw, dtype=np.float32) / np.asarray(f.denominators[name], np.float32)


def _put(f: OriginFeatures, out: np.ndarray, name: str, raw: Any) -> None:
    """Writes piece ``name``'s raw counts, divided by its denominator."""
    f.features.write(out, name, _scaled(f, name, raw))


# Decision context ----------------------------------------------------------------------------


def _decision_context(f: OriginFeatures, out: np.ndarray, state: OriginState,
                      seat: int) -> None:
    """The phase and the pending decision: its kind, who acts, its public fields for every
    observer and its private ones for the player who decides."""
    fb, n = f.features, state.num_players
    if state.phase in PHASES:
        fb.view(out, "phase")[PHASES.index(state.phase)] = 1.0
    frame = state.stack[-1] if state.stack else {}
    kind = frame.get("kind")
    if kind not in DECISION_KINDS:
        if kind in REGISTRY.decisions:
            raise ValueError(f"decision kind {kind!r} is missing from "
                             "origin.encoders.DECISION_KINDS; add it (and its fields)")
        fb.view(out, "decision")[len(DECISION_KINDS)] = 1.0  # none
        return
    fb.view(out, "decision")[DECISION_KINDS.index(kind)] = 1.0
    player = frame.get("player", -1)
    if 0 <= player < n:
        fb.write(out, "to_act", player == seat)
        fb.view(out, "actor")[_relative(player, seat, n)] = 1.0
    _public_fields(f, out, frame, seat, n)
    if player == seat:
        _private_fields(f, out, state, frame, n)


def _public_fields(f: OriginFeatures, out: np.ndarray, frame: dict, seat: int, n: int) -> None:
    """The frame's fields every observer sees."""
    fb = f.features
    territory = frame.get("territory", -1)
    if isinstance(territory, int) and 0 <= territory < f.num_territories:
        fb.view(out, "frame_territory")[territory] = 1.0
    if frame.get("colour") in REWARD_COLOURS:
        fb.view(out, "frame_colour")[REWARD_COLOURS.index(frame["colour"])] = 1.0
    for colour in frame.get("colours", ()):
        if colour in REWARD_COLOURS:
            fb.view(out, "frame_tile_colours")[REWARD_COLOURS.index(colour)] = 1.0
    victim = frame.get("victim", -1)
    if isinstance(victim, int) and 0 <= victim < n:
        fb.view(out, "frame_victim")[_relative(victim, seat, n)] = 1.0
    if frame.get("reason") in DECK_REASONS:
        fb.view(out, "frame_reason")[DECK_REASONS.index(frame["reason"])] = 1.0
    _put(f, out, "frame_count", max(frame.get("count", 0), 0))
    _put(f, out, "frame_distance", frame.get("distance", 0))
    _put(f, out, "frame_keep", frame.get("keep", 0))
    dealt = frame.get("dealt", ()) if frame["kind"] == "keep_objective" else ()
    _put(f, out, "frame_dealt_count", len(dealt))


def _private_fields(f: OriginFeatures, out: np.ndarray, state: OriginState, frame: dict,
                    n: int) -> None:
    """The frame's fields only the player who decides sees: the objectives dealt, the card
    taken in a barter and, while choosing what to take, the victim's hand."""
    fb = f.features
    for card in frame.get("dealt", ()):
        fb.view(out, "frame_dealt")[f.colour_rank[card]] = 1.0
    taken = frame.get("taken", -1)
    if isinstance(taken, int) and 0 <= taken < f.num_cards:
        fb.view(out, "frame_taken")[taken] = 1.0
    victim = frame.get("victim", -1)
    if frame["kind"] == "barter_take" and 0 <= victim < n:
        for card in state.hands[victim]:
            fb.view(out, "victim_hand")[card] = 1.0


# The map -----------------------------------------------------------------------------------------


def _territories(f: OriginFeatures, out: np.ndarray, state: OriginState, seat: int) -> None:
    """Each territory's row: the map's static pieces, owner, pawn and hunting token."""
    fb, n = f.features, state.num_players
    for name in STATIC_NODE_PIECES:
        fb.write(out, name, f.static_nodes[name])
    owner = fb.view(out, "owner")
    for terr, o in enumerate(state.owner):
        column = {EMPTY: MAX_PLAYERS, NEUTRAL: MAX_PLAYERS + 1}.get(o)
        owner[terr, _relative(o, seat, n) if column is None else column] = 1.0
    for terr, pawn in enumerate(state.pawn):
        if pawn >= 0:
            height, width, colour = f.pawn_traits[pawn]
            fb.view(out, "pawn_height")[terr, height] = 1.0
            fb.view(out, "pawn_width")[terr, width] = 1.0
            fb.view(out, "pawn_colour")[terr, colour] = 1.0
    for terr in f.green:  # hunting tokens: still on the board, and their value
        if state.hunt_owner[terr] == -1:
            fb.view(out, "hunt_present")[terr] = 1.0
            fb.view(out, "hunt_value")[terr] = _scaled(f, "hunt_value", [state.hunt_value[terr]])


def _straits(f: OriginFeatures, out: np.ndarray, state: OriginState, seat: int) -> None:
    """Each strait token: on the board or who holds it, its value; and per territory the
    share of the straits ending there whose token is still on the board."""
    fb, n = f.features, state.num_players
    open_ends = np.zeros(f.num_territories)
    for k, ((a, b), o) in enumerate(zip(f.data.world.straits, state.strait_owner, strict=True)):
        if o < 0:
            fb.view(out, "strait_on_board")[k] = 1.0
            open_ends[a] += 1
            open_ends[b] += 1
        else:
            fb.view(out, "strait_owner")[k, _relative(o, seat, n)] = 1.0
    _put(f, out, "strait_value", state.strait_value)
    fb.write(out, "strait_open", _scaled(f, "strait_open", open_ends)[:, None])


# Turn and rewards board --------------------------------------------------------------------------


def _turn(f: OriginFeatures, out: np.ndarray, state: OriginState, seat: int) -> None:
    """Whose turn it is and what the turn has done so far."""
    fb, ts = f.features, state.turn_state
    fb.view(out, "current")[_relative(state.current, seat, state.num_players)] = 1.0
    fb.write(out, "action_taken", bool(ts.get("action_taken")))
    for colour in ts.get("played", ()):
        fb.view(out, "played_colours")[CARD_COLOURS.index(colour)] = 1.0
    for card in ts.get("turn_cards", ()):
        fb.view(out, "turn_cards")[f.colour_rank[card]] = 1.0
    fb.write(out, "end_triggered", bool(state.end_triggered))
    _put(f, out, "turn", state.turn)
    _put(f, out, "final_turns_left", max(state.final_turns_left, 0))
    extra = [0] * len(ACTION_TYPES)
    for action in ts.get("extra_actions", ()):
        extra[ACTION_TYPES.index(action)] += 1
    _put(f, out, "extra_actions", extra)


def _rewards_board(f: OriginFeatures, out: np.ndarray, state: OriginState) -> None:
    """The face-up tiles, the counts of what is face down, and the cards played out."""
    fb = f.features
    for slot, level in enumerate(state.slots):
        fb.view(out, "slot_level")[slot, level] = 1.0
    _put(f, out, "tile_reserve", sum(state.tile_reserve))
    _put(f, out, "lost_tiles", state.lost_tiles)
    _put(f, out, "deck_size", [len(deck) for deck in state.decks])
    for card in state.discard:
        fb.view(out, "discard")[f.colour_rank[card]] = 1.0
    _put(f, out, "pawn_reserve", state.reserve)


# Players -------------------------------------------------------------------------------------


def _player(f: OriginFeatures, out: np.ndarray, state: OriginState, p: int, k: int) -> None:
    """Player ``p``'s row, at relative seat ``k``: supplies, tiles, tokens, cards, points."""
    fb = f.features

    def put(name: str, raw: Any) -> None:
        fb.view(out, name)[k] = _scaled(f, name, raw)

    fb.view(out, "seat_present")[k] = 1.0
    put("villages", state.villages[p])
    tops, by_level = np.zeros(MAX_LEVEL), np.zeros(MAX_LEVEL)  # columns by top, tiles by level
    for column in state.columns[p]:
        if column:
            tops[column[-1] - 1] += 1
            for level in column:
                by_level[level - 1] += 1
    put("column_tops", tops)
    put("tiles_by_level", by_level)
    hunting = [value for value, o in zip(state.hunt_value, state.hunt_owner, strict=True)
               if o == p]
    put("hunting_count", len(hunting))
    put("hunting_value", sum(hunting))
    straits = [value for value, o in zip(state.strait_value, state.strait_owner, strict=True)
               if o == p]
    put("strait_count", len(straits))
    put("strait_value_held", sum(straits))
    for card in state.permanents[p]:
        fb.view(out, "permanents")[k, f.colour_rank[card]] = 1.0
    for card in state.objectives_done[p]:
        fb.view(out, "objectives_done")[k, f.colour_rank[card]] = 1.0
    put("objective_points", state.objective_points[p])
    hand_size = [0] * len(CARD_COLOURS)
    for card in state.hands[p]:
        hand_size[f.card_colour[card]] += 1
    put("hand_size", hand_size)
    points = scoring.points(f.rules, state, p)
    put("points", [points[source] for source in POINT_SOURCES])
    put("points_total", sum(points.values()))


# Layouts ---------------------------------------------------------------------------------------


class ReferenceEncoder:
    """An encoder of the envs, its observations written by the reference.

    :func:`observe` writes every piece; the encoder's own views (``view(obs, name)``, and
    ``split`` for the graph's adjacency) say where each piece goes in its layout.

    Args:
        rules: An ``OriginRules``.
        encoder: The encoder whose layout to fill: a name of ``ENCODERS`` or an instance
            (e.g. ``FlatEncoder(rules, include_static=True)``).

    Attributes:
        name: The encoder's name.
        layout: The encoder laid out (its own ``encode`` is never called).
        feature_set: The :class:`OriginFeatures` written.
    """

    def __init__(self, rules: Any, encoder: str | ObservationEncoder = "flat") -> None:
        self.layout = ENCODERS[encoder](rules) if isinstance(encoder, str) else encoder
        self.name = self.layout.name
        self.feature_set = OriginFeatures(rules)

    def space(self) -> spaces.Box:
        """The layout's space."""
        return self.layout.space()

    def encode(self, state: OriginState, seat: int) -> np.ndarray:
        """What the layout's encoder observes for ``seat`` in ``state``, by the reference."""
        vector = observe(self.feature_set, state, seat)
        layout, fb = self.layout, self.feature_set.features
        out = np.zeros(layout.space().shape, dtype=np.float32)
        if self.name == "flat":
            names = list(layout.pieces)
        elif self.name == "flat_objectives":  # the flat pieces, then its own plain pieces
            names = [name for name in layout.pieces if name not in OBJECTIVE_PIECES]
            layout.write_objectives(out, state, seat)
        elif self.name == "graph":
            names = [*layout.node_columns, *layout.global_features.names]
            layout.split(out)[1][...] = self.feature_set.adjacency
        else:
            raise ValueError(f"no reference layout for encoder {self.name!r}")
        for name in names:
            layout.view(out, name)[...] = fb.view(vector, name)
        return out
