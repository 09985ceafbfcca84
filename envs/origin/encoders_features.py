"""What every feature of an Origin observation is: its name, shape and denominator.

This module holds the definitions both ways of writing an observation read: the reference
(:mod:`~primeval.envs.origin.encoders_reference`, plain code writing each piece by name) and
the fast path (:mod:`~primeval.envs.origin.encoders_fast`, precomputed positions and blocks
kept between observations) that the encoders in :mod:`~primeval.envs.origin.encoders` use.

Observations are ego-centric: players are ordered *me first, then in turn order* (relative
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
files, :attr:`OriginFeatures.denominators`, so an observation never leaves the space; encoders
also clip as a guard):

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

Card pieces hold one entry per card that can be there: every card (48 with the shipped data)
for hands and the card taken in a barter; only the cards of one colour for the piles that hold
no other (14 yellow for ``turn_cards`` and ``discard``, 14 orange for ``permanents``, 20 purple
for ``objectives_done`` and ``frame_dealt``). The other colours' entries would be zeros in every
observation. Entries follow card index order (``rules.data.cards[i]``);
:attr:`OriginFeatures.card_entries` lists the card index of each entry.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from primeval.envs.core.encoders import FeatureBuilder
from primeval.envs.origin.gamedata import (
    CARD_COLOURS,
    PAWN_COLOURS,
    REWARD_COLOURS,
    TERRITORY_COLOURS,
)
from primeval.envs.origin.rules.scoring import POINT_SOURCES  # the ``points`` piece's columns
from primeval.envs.origin.state import PHASES

__all__ = [
    "ACTION_TYPES",
    "CARD_PIECE_COLOURS",
    "COUNT_SCALE",
    "DECISION_KINDS",
    "DECK_REASONS",
    "GLOBAL_PIECES",
    "MAX_LEVEL",
    "MAX_PLAYERS",
    "NODE_PIECES",
    "OBSERVER_PIECES",
    "PLAYER_PIECES",
    "POINT_SOURCES",
    "PRIVATE_PIECES",
    "STATIC_NODE_PIECES",
    "TURN_SCALE",
    "OriginFeatures",
    "PieceSpec",
    "global_pieces",
    "node_pieces",
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
#: Values of a ``choose_deck`` frame's ``reason``.
DECK_REASONS: tuple[str, ...] = ("card", "hunt_draw", "empty_hunt_draw")
#: Action types (the ``extra_actions`` piece's order).
ACTION_TYPES: tuple[str, ...] = ("evolve", "migrate", "swap")

MAX_PLAYERS = 4
MAX_LEVEL = 5
COUNT_SCALE = 4.0  # frame "count" fields, clipped at 1
TURN_SCALE = 100.0  # turns started, clipped at 1


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


def global_pieces(cards_by_colour: dict[str, int], num_straits: int, num_slots: int,
                  num_pawn_types: int) -> tuple[PieceSpec, ...]:
    """Global pieces ``(name, shape, description)`` for the data's sizes (``cards_by_colour``:
    how many cards of each colour in :data:`CARD_COLOURS`)."""
    p = MAX_PLAYERS
    num_cards = sum(cards_by_colour.values())
    yellow, orange, purple = (cards_by_colour[c] for c in CARD_COLOURS)
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
        ("frame_dealt", purple, "PRIVATE keep_objective: the dealt objectives (purple)"),
        ("frame_taken", num_cards, "PRIVATE barter_give: the card taken from the victim"),
        ("victim_hand", num_cards, "PRIVATE barter_take: the victim's hand"),
        # Turn
        ("current", p, "relative seat whose turn it is"),
        ("turn", 1, "turns started / TURN_SCALE (clipped at 1)"),
        ("action_taken", 1, "the turn's action is taken"),
        ("played_colours", len(CARD_COLOURS), "card colours played this turn"),
        ("extra_actions", len(ACTION_TYPES), "extra actions still open / cards granting them"),
        ("turn_cards", yellow, "yellow cards whose effect lasts this turn"),
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
        ("discard", yellow, "yellow cards played (out of the game)"),
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
        ("permanents", (p, orange), "orange cards in play"),
        ("objectives_done", (p, purple), "objectives (purple cards) completed"),
        ("objective_points", p, "objective points / the most possible"),
        ("hand_size", (p, len(CARD_COLOURS)), "cards in hand by colour / deck size"),
        ("points", (p, len(POINT_SOURCES)), "current points by source / source maximum"),
        ("points_total", p, "current total points / sum of the source maxima"),
        ("hand", num_cards, "PRIVATE the observer's own hand"),
    )


#: Global pieces of the shipped data (14 yellow, 14 orange and 20 purple cards, 11 straits,
#: 15 tile slots, 27 pawn types).
GLOBAL_PIECES: tuple[PieceSpec, ...] = global_pieces(
    {"yellow": 14, "orange": 14, "purple": 20}, 11, 15, 27)
#: The colour of the cards in each single-colour card piece.
CARD_PIECE_COLOURS: dict[str, str] = {
    "frame_dealt": "purple", "turn_cards": "yellow", "discard": "yellow",
    "permanents": "orange", "objectives_done": "purple",
}

#: Global pieces with one row per relative seat (the "Players" part of :data:`GLOBAL_PIECES`).
PLAYER_PIECES: tuple[str, ...] = (
    "seat_present", "villages", "column_tops", "tiles_by_level", "hunting_count",
    "hunting_value", "strait_count", "strait_value_held", "permanents", "objectives_done",
    "objective_points", "hand_size", "points", "points_total",
)
#: Pieces about the observer itself, left out of the state (``state()``, seen by no one).
OBSERVER_PIECES: tuple[str, ...] = ("to_act",)
#: Pieces only the observer sees (their descriptions start with PRIVATE): left out of the
#: state, or laid out once per seat with ``state_private=True``.
PRIVATE_PIECES: tuple[str, ...] = ("frame_dealt", "frame_taken", "victim_hand", "hand")
#: Territory pieces that never change during a game (the map's).
STATIC_NODE_PIECES: tuple[str, ...] = ("colour", "continent", "strait_end")


class OriginFeatures:
    """The features of one data set: the pieces, the map's static features, what each count
    is divided by and where each card sits in the card pieces.

    Args:
        rules: An ``OriginRules`` (``data``; ``scoring`` takes it).

    Attributes:
        global_features: The global pieces (:data:`GLOBAL_PIECES` for the data's sizes).
        node_specs: The territory pieces ``(name, channels, description)``.
        node_channels: Territory piece name -> its columns in a territory's row of every
            territory piece side by side (the ``"graph"`` encoder's node rows).
        features: Every piece in one vector: the global pieces, then each territory piece as
            a ``(T, channels)`` block (the ``"flat"`` layout with the static pieces).
        static_nodes: The static territory pieces (:data:`STATIC_NODE_PIECES`) as arrays.
        adjacency: ``(T, T)`` 0/1, 1 where a land edge or a strait joins two territories.
        green: The green territories (where hunting tokens lie).
        pawn_traits: Per pawn type, ``(height - 1, width - 1, index in PAWN_COLOURS)``.
        card_colour: Per card, the index of its colour in ``CARD_COLOURS``.
        colour_rank: Per card, its entry in the single-colour card pieces (its rank among
            the cards of its colour).
        card_entries: Card piece name -> the card index of each of its entries.
        denominators: Piece name -> what its raw values (integer counts) are divided by: one
            number, or one per column (per territory for territory pieces). Pieces not listed
            are one-hots (or 0/1 flags). Values and denominators are exact in float32, so the
            float32 quotient is the correctly rounded one, whatever precision it is computed
            in.
    """

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        data = rules.data
        self.data = data
        world, comps, cards = data.world, data.components, data.cards
        self.num_territories = t = world.size
        self.num_straits = s = len(world.straits)
        self.num_cards = len(cards)
        #: Card colour -> the indices of its cards, in card order
        by_colour = {colour: [i for i, c in enumerate(cards) if c.colour == colour]
                     for colour in CARD_COLOURS}
        self.node_specs = node_pieces(len(world.continents), s)
        self.global_specs = global_pieces(
            {colour: len(indices) for colour, indices in by_colour.items()},
            s, len(comps.slot_colours), len(comps.pawn_types))
        self.global_features = FeatureBuilder(self.global_specs)
        self.node_channels: dict[str, slice] = {}
        start = 0
        for name, channels, _ in self.node_specs:
            self.node_channels[name] = slice(start, start + channels)
            start += channels
        self.num_node_features = start
        self.features = FeatureBuilder(
            [(p.name, p.shape, p.description) for p in self.global_features.pieces]
            + [(name, (t, channels), text) for name, channels, text in self.node_specs]
        )

        # The map --------------------------------------------------------------------------
        colour = np.zeros((t, len(TERRITORY_COLOURS)), dtype=np.float32)
        continent = np.zeros((t, len(world.continents)), dtype=np.float32)
        for i, terr in enumerate(world.territories):
            colour[i, TERRITORY_COLOURS.index(terr.colour)] = 1.0
            continent[i, world.continents.index(terr.continent)] = 1.0
        strait_end = np.zeros((t, s), dtype=np.float32)
        for k, (a, b) in enumerate(world.straits):
            strait_end[a, k] = strait_end[b, k] = 1.0
        self.static_nodes: dict[str, np.ndarray] = {"colour": colour, "continent": continent,
                                                    "strait_end": strait_end}
        self.adjacency = np.zeros((t, t), dtype=np.float32)
        for i, neigh in enumerate(world.neighbours):
            self.adjacency[i, list(neigh)] = 1.0
        self.green: list[int] = [i for i, x in enumerate(world.territories)
                                 if x.colour == "green"]
        self.pawn_traits: list[tuple[int, int, int]] = [
            (h - 1, w - 1, c) for h, w, c in comps.pawn_types]

        # Cards -----------------------------------------------------------------------------
        self.card_colour: list[int] = [CARD_COLOURS.index(c.colour) for c in cards]
        self.colour_rank: list[int] = [by_colour[c.colour].index(i)
                                       for i, c in enumerate(cards)]
        self.card_entries: dict[str, list[int]] = {
            name: by_colour[colour] for name, colour in CARD_PIECE_COLOURS.items()}
        everything = list(range(len(cards)))
        self.card_entries.update(frame_taken=everything, victim_hand=everything, hand=everything)
        deck_full = [max(1, len(by_colour[colour])) for colour in CARD_COLOURS]
        extra = [0] * len(ACTION_TYPES)
        for c in cards:
            if c.colour == "yellow" and c.kind == "extra_action":
                extra[ACTION_TYPES.index(c.effect["action"])] += 1
        reaches = [c.effect["distance"] for c in cards if c.kind == "great_hunt"]

        # Maxima of the point sources -------------------------------------------------------
        purple_points = sum(c.points for c in cards if c.colour == "purple")
        n_purple = len(by_colour["purple"])
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
        points_scale = [max(1, maxima[k]) for k in POINT_SOURCES]

        # Denominators ------------------------------------------------------------------------
        self.denominators: dict[str, Any] = {
            # Decision context (also clipped at 1)
            "frame_count": COUNT_SCALE,
            "frame_distance": max([1, *reaches]),
            "frame_keep": max(1, comps.objectives_kept),
            "frame_dealt_count": max(1, comps.objectives_dealt),
            # Turn
            "turn": TURN_SCALE,
            "extra_actions": [max(1, x) for x in extra],
            "final_turns_left": MAX_PLAYERS,
            # Straits and the rewards board
            "strait_value": max([1, *comps.strait_tokens]),
            "tile_reserve": max(1, comps.num_tiles - len(comps.slot_colours)),
            "lost_tiles": max(1, comps.num_tiles),
            "deck_size": deck_full,
            "pawn_reserve": 2,
            # Players
            "villages": max(1, comps.villages_per_player),
            "column_tops": max(1, comps.innovation_tiles.get(1, 0)),
            "tiles_by_level": [max(1, comps.innovation_tiles.get(level, 0))
                               for level in range(1, MAX_LEVEL + 1)],
            "hunting_count": max(1, len(comps.hunting_tokens)),
            "hunting_value": max(1, sum(comps.hunting_tokens)),
            "strait_count": max(1, len(comps.strait_tokens)),
            "strait_value_held": max(1, sum(comps.strait_tokens)),
            "objective_points": max(1, maxima["objectives"]),
            "hand_size": deck_full,
            "points": points_scale,
            "points_total": sum(points_scale),
            # Territory pieces
            "hunt_value": max([1, *comps.hunting_tokens]),
            "strait_open": [max(1, int(x)) for x in strait_end.sum(axis=1)],
        }
