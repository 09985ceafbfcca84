"""Observation encoders of Origin: ``"flat"`` (a named vector) and ``"graph"`` (map rows,
adjacency, globals).

Both encoders are ego-centric: players are ordered *me first, then in turn order* (relative
seat ``k`` is the absolute seat ``(seat + k) % n``). Games of 2 or 3 players leave the last
player slots all zeros (``seat_present`` says which slots hold a player).

**Hidden information.** Only public information plus the observer's own secrets is encoded:

* other players' hands only as their size by colour; the observer's own hand in full;
* the decks only as their sizes (never their order or content); the face-down tile reserve
  only as its total count (never its levels);
* the pending decision's kind and public fields (acting player, territory, colour, count,
  victim, reason, distance) for everyone; its private fields only for the observer who decides:
  the ``dealt`` objectives of ``keep_objective``, the card ``taken`` in ``barter_give`` and,
  during ``barter_take`` only, the victim's hand (the Barter card lets the actor look at it).

**Features** (all float32 in ``[0, 1]``; counts are divided by a maximum derived from the data
files, so an observation never leaves the space; ``encode`` also clips as a guard):

* *territory pieces* (one row per territory, :data:`NODE_PIECES`): colour, continent, owner
  (relative seat, empty, neutral), pawn height/width/colour, hunting token still on the board
  and its value, strait endpoints and how many of their tokens are still on the board, and
  whether the territory is the pending decision's ``territory``;
* *global pieces* (:data:`GLOBAL_PIECES`): the decision context (phase, decision kind, whether
  the observer is to act, frame fields), the turn (whose turn, action taken, cards played by
  colour, extra actions, cards whose effect lasts the turn, end trigger, final turns left),
  the straits (token on the board, owner, value), the rewards board (tile level of each slot,
  reserve size, deck sizes, yellow cards played, pawn reserve), every player (villages left,
  tile columns by top level, tiles by level, hunting and strait tokens, orange cards in play,
  completed objectives, objective points, hand size by colour, points by source) and the
  observer's own hand.

Card pieces are one entry per card (48 with the shipped data), indexed by card index
(``rules.data.cards[i]``), whatever the colour.

``"flat"`` lays out the global pieces, then every territory piece as a ``(T, channels)`` block
(see :attr:`FlatEncoder.pieces`). ``"graph"`` lays out ``[nodes (T x F) | adjacency (T x T) |
globals (G)]`` (see :class:`GraphEncoder`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

import primeval.envs.origin.rules  # noqa: F401  (registers every decision kind)
from primeval.envs.core.encoders import FeatureBuilder
from primeval.envs.origin.gamedata import (
    CARD_COLOURS,
    PAWN_COLOURS,
    REWARD_COLOURS,
    TERRITORY_COLOURS,
)
from primeval.envs.origin.rules import scoring
from primeval.envs.origin.rules.registry import REGISTRY
from primeval.envs.origin.state import EMPTY, NEUTRAL, PHASES, OriginState

__all__ = [
    "DECISION_KINDS",
    "ENCODERS",
    "GLOBAL_PIECES",
    "NODE_PIECES",
    "POINT_SOURCES",
    "FlatEncoder",
    "GraphEncoder",
]

#: Kinds of procedure frame on which a player decides (the registry's decisions), in the
#: order of the ``decision`` one-hot; its last entry (index ``len(DECISION_KINDS)``) is none.
DECISION_KINDS: tuple[str, ...] = (
    "keep_objective",
    "turn",
    "evolve_pawn",
    "migrate_to",
    "swap_onto",
    "reward_option",
    "take_tile",
    "return_card",
    "choose_deck",
    "raft_pawn",
    "raft_destination",
    "steal_card",
    "steal_tile",
    "steal_tile_column",
    "claim_strait",
    "barter_player",
    "barter_take",
    "barter_give",
    "great_hunt",
    "exchange_first",
    "exchange_second",
)
#: Sources of points, in the order of ``scoring.points`` (the ``points`` piece's columns).
POINT_SOURCES: tuple[str, ...] = (
    "objectives",
    "cards_in_hand",
    "hunting_tokens",
    "strait_tokens",
    "tiles",
    "column_bonus",
)
#: Values of a ``choose_deck`` frame's ``reason``.
DECK_REASONS: tuple[str, ...] = ("card", "hunt_draw", "empty_hunt_draw")
#: Action types (the ``extra_actions`` piece's order).
ACTION_TYPES: tuple[str, ...] = ("evolve", "migrate", "swap")

MAX_PLAYERS = 4
MAX_LEVEL = 5
COUNT_SCALE = 4.0  # frame "count" fields, clipped at 1
TURN_SCALE = 100.0  # turns started, clipped at 1

_DECISION_INDEX = {k: i for i, k in enumerate(DECISION_KINDS)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_REWARD_INDEX = {c: i for i, c in enumerate(REWARD_COLOURS)}
_CARD_COLOUR_INDEX = {c: i for i, c in enumerate(CARD_COLOURS)}
_REASON_INDEX = {r: i for i, r in enumerate(DECK_REASONS)}
_ACTION_INDEX = {a: i for i, a in enumerate(ACTION_TYPES)}

PieceSpec = tuple[str, Any, str]


def node_pieces(num_continents: int, num_straits: int) -> tuple[PieceSpec, ...]:
    """Territory pieces ``(name, channels, description)`` for a map's sizes."""
    return (
        ("colour", len(TERRITORY_COLOURS), "territory colour one-hot (TERRITORY_COLOURS)"),
        ("continent", num_continents, "continent one-hot (world.continents order)"),
        ("owner", MAX_PLAYERS + 2, "owner: relative seats 0..3, then empty, then neutral"),
        ("pawn_height", 3, "pawn height 1..3 one-hot (zeros when empty)"),
        ("pawn_width", 3, "pawn width 1..3 one-hot (zeros when empty)"),
        ("pawn_colour", len(PAWN_COLOURS), "pawn colour one-hot (PAWN_COLOURS)"),
        ("hunt_present", 1, "a hunting token is still on this (green) territory"),
        ("hunt_value", 1, "value of that token / the largest hunting token"),
        ("strait_end", num_straits, "this territory is an end of strait s (static)"),
        ("strait_open", 1, "share of the straits ending here whose token is on the board"),
        ("frame_territory", 1, "the pending decision's territory (public)"),
    )


#: Territory pieces of the shipped map (6 continents, 11 straits).
NODE_PIECES: tuple[PieceSpec, ...] = node_pieces(6, 11)


def global_pieces(num_cards: int, num_straits: int, num_slots: int,
                  num_pawn_types: int) -> tuple[PieceSpec, ...]:
    """Global pieces ``(name, shape, description)`` for the data's sizes."""
    p = MAX_PLAYERS
    return (
        # Decision context
        ("phase", len(PHASES), "one-hot of state.phase (PHASES order)"),
        ("decision", len(DECISION_KINDS) + 1, "pending decision kind; last = none"),
        ("to_act", 1, "1 when the observer is the one to decide"),
        ("actor", p, "relative seat of the deciding player"),
        ("frame_colour", len(REWARD_COLOURS), "reward_option/return_card colour"),
        ("frame_tile_colours", len(REWARD_COLOURS), "take_tile: columns tiles may come from"),
        ("frame_count", 1, "the frame's count / COUNT_SCALE (clipped at 1)"),
        ("frame_victim", p, "relative seat of the frame's victim"),
        ("frame_reason", len(DECK_REASONS), "choose_deck: why a deck is chosen"),
        ("frame_distance", 1, "great_hunt: reach / the largest reach"),
        ("frame_keep", 1, "keep_objective: objectives still to keep / objectives kept"),
        ("frame_dealt_count", 1, "keep_objective: cards dealt / objectives dealt"),
        ("frame_dealt", num_cards, "PRIVATE keep_objective: the dealt objectives"),
        ("frame_taken", num_cards, "PRIVATE barter_give: the card taken from the victim"),
        ("victim_hand", num_cards, "PRIVATE barter_take: the victim's hand"),
        # Turn
        ("current", p, "relative seat whose turn it is"),
        ("turn", 1, "turns started / TURN_SCALE (clipped at 1)"),
        ("action_taken", 1, "the turn's action is taken"),
        ("played_colours", len(CARD_COLOURS), "card colours played this turn"),
        ("extra_actions", len(ACTION_TYPES), "extra actions still open / cards granting them"),
        ("turn_cards", num_cards, "yellow cards whose effect lasts this turn"),
        ("end_triggered", 1, "an end condition has been met"),
        ("final_turns_left", 1, "final-round turns still to play / 4"),
        # Straits and the rewards board
        ("strait_on_board", num_straits, "strait token still on the board"),
        ("strait_owner", (num_straits, p), "relative seat holding the strait token"),
        ("strait_value", num_straits, "strait token value / the largest strait token"),
        ("slot_level", (num_slots, MAX_LEVEL + 1), "tile level of each face-up slot (0 = empty)"),
        ("tile_reserve", 1, "face-down tiles left / initial reserve (count only)"),
        ("lost_tiles", 1, "tiles out of the game / all tiles"),
        ("deck_size", len(CARD_COLOURS), "cards left in each deck / its full size"),
        ("discard", num_cards, "yellow cards played (out of the game)"),
        ("pawn_reserve", num_pawn_types, "pawns of each type in the reserve / 2"),
        # Players (relative seats)
        ("seat_present", p, "1 for relative seats that hold a player"),
        ("villages", p, "villages left in supply / villages per player"),
        ("column_tops", (p, MAX_LEVEL), "columns by top level / max columns"),
        ("tiles_by_level", (p, MAX_LEVEL), "tiles owned by level / tiles of that level"),
        ("hunting_count", p, "hunting tokens held / all hunting tokens"),
        ("hunting_value", p, "hunting token value held / all of it"),
        ("strait_count", p, "strait tokens held / all strait tokens"),
        ("strait_value_held", p, "strait token value held / all of it"),
        ("permanents", (p, num_cards), "orange cards in play"),
        ("objectives_done", (p, num_cards), "objectives completed"),
        ("objective_points", p, "objective points / the most possible"),
        ("hand_size", (p, len(CARD_COLOURS)), "cards in hand by colour / deck size"),
        ("points", (p, len(POINT_SOURCES)), "current points by source / source maximum"),
        ("points_total", p, "current total points / sum of the source maxima"),
        ("hand", num_cards, "PRIVATE the observer's own hand"),
    )


#: Global pieces of the shipped data (48 cards, 11 straits, 15 tile slots, 27 pawn types).
GLOBAL_PIECES: tuple[PieceSpec, ...] = global_pieces(48, 11, 15, 27)


class _Filler:
    """Writes the features of one (state, seat) into preallocated named views.

    Args:
        rules: An ``OriginRules`` (``data``, ``num_players``; ``scoring.points`` takes it).
    """

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        data = rules.data
        self.data = data
        world, comps, cards = data.world, data.components, data.cards
        self.num_territories = t = world.size
        self.num_straits = s = len(world.straits)
        self.num_cards = len(cards)
        self.node_specs = node_pieces(len(world.continents), s)
        self.global_specs = global_pieces(len(cards), s, len(comps.slot_colours),
                                          len(comps.pawn_types))
        self.global_features = FeatureBuilder(self.global_specs)
        self.node_channels: dict[str, slice] = {}
        start = 0
        for name, channels, _ in self.node_specs:
            self.node_channels[name] = slice(start, start + channels)
            start += channels
        self.num_node_features = start

        # Static territory features -----------------------------------------------------------
        self.static_nodes: dict[str, np.ndarray] = {}
        colour = np.zeros((t, len(TERRITORY_COLOURS)), dtype=np.float32)
        continent = np.zeros((t, len(world.continents)), dtype=np.float32)
        for i, terr in enumerate(world.territories):
            colour[i, TERRITORY_COLOURS.index(terr.colour)] = 1.0
            continent[i, world.continents.index(terr.continent)] = 1.0
        strait_end = np.zeros((t, s), dtype=np.float32)
        for k, (a, b) in enumerate(world.straits):
            strait_end[a, k] = strait_end[b, k] = 1.0
        self.static_nodes = {"colour": colour, "continent": continent,
                             "strait_end": strait_end}
        self._strait_a = np.array([a for a, _ in world.straits], dtype=np.intp)
        self._strait_b = np.array([b for _, b in world.straits], dtype=np.intp)
        self._straits_per_territory = np.maximum(strait_end.sum(axis=1), 1.0)
        self._green = np.array([x.colour == "green" for x in world.territories])
        self.adjacency = np.zeros((t, t), dtype=np.float32)
        for i, neigh in enumerate(world.neighbours):
            self.adjacency[i, list(neigh)] = 1.0

        # Pawn traits -----------------------------------------------------------------------
        types = np.array(comps.pawn_types, dtype=np.intp).reshape(-1, 3)
        self._pawn_h, self._pawn_w, self._pawn_c = types[:, 0] - 1, types[:, 1] - 1, types[:, 2]

        # Cards -----------------------------------------------------------------------------
        self._card_colour = np.array([_CARD_COLOUR_INDEX[c.colour] for c in cards],
                                     dtype=np.intp)
        self._deck_full = np.array(
            [max(1, sum(c.colour == col for c in cards)) for col in CARD_COLOURS],
            dtype=np.float32)
        extra = [0, 0, 0]
        for c in cards:
            if c.colour == "yellow" and c.kind == "extra_action":
                extra[_ACTION_INDEX[c.effect["action"]]] += 1
        self._extra_scale = np.maximum(np.array(extra, dtype=np.float32), 1.0)
        reaches = [c.effect["distance"] for c in cards if c.kind == "great_hunt"]
        self._distance_scale = float(max([1, *reaches]))

        # Scales ----------------------------------------------------------------------------
        self._hunt_max = float(max([1, *comps.hunting_tokens]))
        self._hunt_sum = float(max(1, sum(comps.hunting_tokens)))
        self._hunt_n = float(max(1, len(comps.hunting_tokens)))
        self._strait_max = float(max([1, *comps.strait_tokens]))
        self._strait_sum = float(max(1, sum(comps.strait_tokens)))
        self._strait_n = float(max(1, len(comps.strait_tokens)))
        self._max_columns = float(max(1, comps.innovation_tiles.get(1, 0)))
        self._tiles_per_level = np.array(
            [max(1, comps.innovation_tiles.get(level, 0)) for level in range(1, MAX_LEVEL + 1)],
            dtype=np.float32)
        self._num_tiles = float(max(1, comps.num_tiles))
        self._reserve_scale = float(max(1, comps.num_tiles - len(comps.slot_colours)))
        purple_points = sum(c.points for c in cards if c.colour == "purple")
        n_purple = sum(c.colour == "purple" for c in cards)
        bonus = sum(c.effect.get("points", 0) for c in cards if c.kind == "objective_bonus")
        column_bonus = sum(c.effect.get("points", 0) for c in cards
                           if c.colour == "orange" and c.kind == "column_bonus")
        maxima = {
            "objectives": purple_points + n_purple * bonus,
            "cards_in_hand": len(cards),
            "hunting_tokens": sum(comps.hunting_tokens),
            "strait_tokens": sum(comps.strait_tokens),
            "tiles": sum(comps.tile_points[lv] * k for lv, k in comps.innovation_tiles.items()),
            "column_bonus": column_bonus * comps.innovation_tiles.get(1, 0),
        }
        self._objective_scale = float(max(1, maxima["objectives"]))
        self._points_scale = np.array([max(1, maxima[k]) for k in POINT_SOURCES],
                                      dtype=np.float32)
        self._total_scale = float(self._points_scale.sum())
        self._villages = float(max(1, comps.villages_per_player))

    # Filling ---------------------------------------------------------------------------------

    def fill(self, g: dict[str, np.ndarray], nd: dict[str, np.ndarray], state: OriginState,
             seat: int) -> None:
        """Writes every feature ``seat`` may see into zeroed views ``g`` (global pieces) and
        ``nd`` (territory pieces shaped ``(T, channels)``)."""
        n = state.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is out of range for {n} players")
        order = [(seat + k) % n for k in range(n)]  # relative slot -> absolute seat

        self._fill_decision(g, nd, state, seat, n)
        self._fill_territories(nd, state, seat, n)

        # Turn ------------------------------------------------------------------------------
        g["current"][(state.current - seat) % n] = 1.0
        g["turn"][0] = min(state.turn / TURN_SCALE, 1.0)
        ts = state.turn_state
        g["action_taken"][0] = bool(ts.get("action_taken"))
        for colour in ts.get("played", ()):
            g["played_colours"][_CARD_COLOUR_INDEX[colour]] = 1.0
        extra = g["extra_actions"]
        for action in ts.get("extra_actions", ()):
            extra[_ACTION_INDEX[action]] += 1.0
        extra /= self._extra_scale
        turn_cards = list(ts.get("turn_cards", ()))
        if turn_cards:
            g["turn_cards"][turn_cards] = 1.0
        g["end_triggered"][0] = bool(state.end_triggered)
        g["final_turns_left"][0] = max(state.final_turns_left, 0) / MAX_PLAYERS

        # Straits and the rewards board -----------------------------------------------------
        strait_owner = np.asarray(state.strait_owner, dtype=np.intp)
        on_board = strait_owner < 0
        g["strait_on_board"][:] = on_board
        held = np.flatnonzero(~on_board)
        g["strait_owner"][held, (strait_owner[held] - seat) % n] = 1.0
        g["strait_value"][:] = np.asarray(state.strait_value, dtype=np.float32) / self._strait_max
        slots = np.asarray(state.slots, dtype=np.intp)
        g["slot_level"][np.arange(len(slots)), slots] = 1.0
        g["tile_reserve"][0] = sum(state.tile_reserve) / self._reserve_scale
        g["lost_tiles"][0] = state.lost_tiles / self._num_tiles
        g["deck_size"][:] = np.array([len(d) for d in state.decks],
                                     dtype=np.float32) / self._deck_full
        if state.discard:
            g["discard"][state.discard] = 1.0
        g["pawn_reserve"][:] = np.asarray(state.reserve, dtype=np.float32) / 2.0

        # Players ---------------------------------------------------------------------------
        hunt_owner = np.asarray(state.hunt_owner)
        hunt_value = np.asarray(state.hunt_value, dtype=np.float32)
        strait_value = np.asarray(state.strait_value, dtype=np.float32)
        for k, p in enumerate(order):
            g["seat_present"][k] = 1.0
            g["villages"][k] = state.villages[p] / self._villages
            tops, by_level = g["column_tops"][k], g["tiles_by_level"][k]
            for col in state.columns[p]:
                if col:
                    tops[col[-1] - 1] += 1.0
                    for level in col:
                        by_level[level - 1] += 1.0
            tops /= self._max_columns
            by_level /= self._tiles_per_level
            mine = hunt_owner == p
            g["hunting_count"][k] = mine.sum() / self._hunt_n
            g["hunting_value"][k] = hunt_value[mine].sum() / self._hunt_sum
            mine = strait_owner == p
            g["strait_count"][k] = mine.sum() / self._strait_n
            g["strait_value_held"][k] = strait_value[mine].sum() / self._strait_sum
            if state.permanents[p]:
                g["permanents"][k, state.permanents[p]] = 1.0
            if state.objectives_done[p]:
                g["objectives_done"][k, state.objectives_done[p]] = 1.0
            g["objective_points"][k] = state.objective_points[p] / self._objective_scale
            hand = state.hands[p]
            if hand:
                g["hand_size"][k] = np.bincount(self._card_colour[hand], minlength=3)[:3]
            g["hand_size"][k] /= self._deck_full
            pts = scoring.points(self.rules, state, p)
            row = g["points"][k]
            for i, source in enumerate(POINT_SOURCES):
                row[i] = pts.get(source, 0)
            g["points_total"][k] = row.sum() / self._total_scale
            row /= self._points_scale
        if state.hands[seat]:
            g["hand"][state.hands[seat]] = 1.0

    def _fill_decision(self, g, nd, state: OriginState, seat: int, n: int) -> None:
        phase = _PHASE_INDEX.get(state.phase)
        if phase is not None:
            g["phase"][phase] = 1.0
        frame = state.stack[-1] if state.stack else None
        kind = frame.get("kind") if frame is not None else None
        if kind not in _DECISION_INDEX:
            if kind in REGISTRY.decisions:
                raise ValueError(f"decision kind {kind!r} is missing from "
                                 "origin.encoders.DECISION_KINDS; add it (and its fields)")
            g["decision"][len(DECISION_KINDS)] = 1.0
            return
        assert frame is not None
        g["decision"][_DECISION_INDEX[kind]] = 1.0
        player = frame.get("player", -1)
        mine = player == seat
        if 0 <= player < n:
            g["to_act"][0] = mine
            g["actor"][(player - seat) % n] = 1.0
        # Public fields
        territory = frame.get("territory", -1)
        if isinstance(territory, int) and 0 <= territory < self.num_territories:
            nd["frame_territory"][territory, 0] = 1.0
        colour = frame.get("colour")
        if colour in _REWARD_INDEX:
            g["frame_colour"][_REWARD_INDEX[colour]] = 1.0
        for c in frame.get("colours", ()):
            if c in _REWARD_INDEX:
                g["frame_tile_colours"][_REWARD_INDEX[c]] = 1.0
        if "count" in frame:
            g["frame_count"][0] = min(max(frame["count"], 0) / COUNT_SCALE, 1.0)
        victim = frame.get("victim", -1)
        if isinstance(victim, int) and 0 <= victim < n:
            g["frame_victim"][(victim - seat) % n] = 1.0
        reason = frame.get("reason")
        if reason in _REASON_INDEX:
            g["frame_reason"][_REASON_INDEX[reason]] = 1.0
        if "distance" in frame:
            g["frame_distance"][0] = min(frame["distance"] / self._distance_scale, 1.0)
        comps = self.data.components
        if "keep" in frame:
            g["frame_keep"][0] = min(frame["keep"] / max(1, comps.objectives_kept), 1.0)
        dealt = list(frame.get("dealt", ()))
        if kind == "keep_objective":
            g["frame_dealt_count"][0] = min(len(dealt) / max(1, comps.objectives_dealt), 1.0)
        if not mine:
            return
        # Private fields: only for the deciding observer
        if dealt:
            g["frame_dealt"][dealt] = 1.0
        taken = frame.get("taken", -1)
        if isinstance(taken, int) and 0 <= taken < self.num_cards:
            g["frame_taken"][taken] = 1.0
        if kind == "barter_take" and 0 <= victim < n and state.hands[victim]:
            g["victim_hand"][state.hands[victim]] = 1.0

    def _fill_territories(self, nd, state: OriginState, seat: int, n: int) -> None:
        for name, values in self.static_nodes.items():
            nd[name][...] = values
        owner = np.asarray(state.owner, dtype=np.intp)
        own = nd["owner"]
        occupied = np.flatnonzero(owner >= 0)
        own[occupied, (owner[occupied] - seat) % n] = 1.0
        own[owner == EMPTY, MAX_PLAYERS] = 1.0
        own[owner == NEUTRAL, MAX_PLAYERS + 1] = 1.0
        pawn = np.asarray(state.pawn, dtype=np.intp)
        where = np.flatnonzero(pawn >= 0)
        types = pawn[where]
        nd["pawn_height"][where, self._pawn_h[types]] = 1.0
        nd["pawn_width"][where, self._pawn_w[types]] = 1.0
        nd["pawn_colour"][where, self._pawn_c[types]] = 1.0
        present = self._green & (np.asarray(state.hunt_owner) == -1)
        nd["hunt_present"][:, 0] = present
        nd["hunt_value"][:, 0] = present * np.asarray(state.hunt_value, dtype=np.float32) \
            / self._hunt_max
        on_board = (np.asarray(state.strait_owner) < 0).astype(np.float32)
        open_ = np.zeros(self.num_territories, dtype=np.float32)
        np.add.at(open_, self._strait_a, on_board)
        np.add.at(open_, self._strait_b, on_board)
        nd["strait_open"][:, 0] = open_ / self._straits_per_territory


def _views(features: FeatureBuilder, out: np.ndarray) -> dict[str, np.ndarray]:
    return {name: features.view(out, name) for name in features.names}


class FlatEncoder:
    """``"flat"``: one float32 vector of named pieces: the global pieces, then each territory
    piece as a ``(T, channels)`` block.

    Example: ``encoder.view(obs, "owner")[t, 0]`` is 1 when the observer owns territory ``t``;
    ``encoder.view(obs, "hand_size")[1]`` is the next player's hand size by colour.

    Attributes:
        name: ``"flat"``.
        features: The :class:`~primeval.envs.core.encoders.FeatureBuilder` of all pieces.
        pieces: Piece name -> slice of the vector.
    """

    name = "flat"

    def __init__(self, rules: Any) -> None:
        self._filler = f = _Filler(rules)
        t = f.num_territories
        gfb = f.global_features
        self.features = FeatureBuilder(
            [(p.name, p.shape, p.description) for p in gfb.pieces]
            + [(name, (t, channels), text) for name, channels, text in f.node_specs]
        )
        self.pieces: dict[str, slice] = {n: self.features.slice(n) for n in self.features.names}
        self._out = self.features.zeros()
        self._g = _views(gfb, self._out[: gfb.size])
        self._nd = {name: self.features.view(self._out, name) for name, _, _ in f.node_specs}
        self._space = spaces.Box(low=0.0, high=1.0, shape=(self.features.size,),
                                 dtype=np.float32)

    @property
    def size(self) -> int:
        return self.features.size

    def space(self) -> spaces.Box:
        """``Box(0, 1, (size,), float32)``."""
        return self._space

    def encode(self, state: OriginState, seat: int) -> np.ndarray:
        """The vector ``seat`` observes in ``state`` (a fresh array)."""
        self._out.fill(0.0)
        self._filler.fill(self._g, self._nd, state, seat)
        np.clip(self._out, 0.0, 1.0, out=self._out)
        return self._out.copy()

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """Piece ``name`` of an observation, shaped like the piece."""
        return self.features.view(obs, name)


class GraphEncoder:
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

    With the shipped data ``T = 42``, ``F = 42``, ``G = 1032`` (4,560 values in all; the
    ``"flat"`` vector has 2,796).
    :meth:`split` returns the three parts as views shaped ``(T, F)``, ``(T, T)``, ``(G,)``.

    Attributes:
        name: ``"graph"``.
        num_territories, num_node_features, num_global_features: ``T``, ``F``, ``G``.
        node_columns: Territory piece name -> slice of node columns.
        global_features: :class:`~primeval.envs.core.encoders.FeatureBuilder` of the globals.
        size: Length of the vector.
    """

    name = "graph"

    def __init__(self, rules: Any) -> None:
        self._filler = f = _Filler(rules)
        t, nf = f.num_territories, f.num_node_features
        self.num_territories = t
        self.num_node_features = nf
        self.node_columns = dict(f.node_channels)
        self.global_features = f.global_features
        self.num_global_features = f.global_features.size
        self._node_stop = t * nf
        self._adj_stop = self._node_stop + t * t
        self.size = self._adj_stop + self.num_global_features
        self._out = np.zeros(self.size, dtype=np.float32)
        self._nodes, self._adjacency, self._globals = self.split(self._out)
        self._adjacency[...] = f.adjacency
        self._nd = {name: self._nodes[:, s] for name, s in self.node_columns.items()}
        self._g = _views(self.global_features, self._globals)
        self._space = spaces.Box(low=0.0, high=1.0, shape=(self.size,), dtype=np.float32)

    def space(self) -> spaces.Box:
        """``Box(0, 1, (T*F + T*T + G,), float32)``."""
        return self._space

    def encode(self, state: OriginState, seat: int) -> np.ndarray:
        """The vector ``seat`` observes in ``state`` (a fresh array)."""
        self._nodes.fill(0.0)
        self._globals.fill(0.0)
        self._filler.fill(self._g, self._nd, state, seat)
        np.clip(self._out, 0.0, 1.0, out=self._out)
        return self._out.copy()

    def split(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(nodes (T, F), adjacency (T, T), globals (G,))`` views of an observation."""
        obs = np.asarray(obs)
        if obs.shape != (self.size,):
            raise ValueError(f"graph observation must have shape ({self.size},), "
                             f"got {obs.shape}")
        t = self.num_territories
        nodes = obs[: self._node_stop].reshape(t, self.num_node_features)
        adjacency = obs[self._node_stop : self._adj_stop].reshape(t, t)
        return nodes, adjacency, obs[self._adj_stop :]

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """A territory piece ``(T, channels)`` or a global piece of an observation."""
        nodes, _, globals_ = self.split(obs)
        if name in self.node_columns:
            return nodes[:, self.node_columns[name]]
        return self.global_features.view(globals_, name)


#: Encoder classes by ``obs_encoder`` name.
ENCODERS: dict[str, type] = {"flat": FlatEncoder, "graph": GraphEncoder}
