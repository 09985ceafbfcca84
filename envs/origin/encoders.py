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

Card pieces hold one entry per card that can be there: every card (48 with the shipped data)
for hands and the card taken in a barter; only the cards of one colour for the piles that hold
no other (14 yellow for ``turn_cards`` and ``discard``, 14 orange for ``permanents``, 20 purple
for ``objectives_done`` and ``frame_dealt``). The other colours' entries would be zeros in every
observation. Entries follow card index order (``rules.data.cards[i]``); ``encoder.cards_of(piece)``
lists the card index of each entry.

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

from typing import Any, NamedTuple

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
    "CARD_PIECE_COLOURS",
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
_PLAYER_PIECES: tuple[str, ...] = (
    "seat_present", "villages", "column_tops", "tiles_by_level", "hunting_count",
    "hunting_value", "strait_count", "strait_value_held", "permanents", "objectives_done",
    "objective_points", "hand_size", "points", "points_total",
)
# Pieces holding values (not one-hots), in the order ``_Filler.fill`` lists the values: the
# decision's, then hunt_value (one per green territory), then strait_value and strait_open
# (one per territory ending a strait), then the turn's and the board's, then each player's
# (relative seat order).
_DECISION_VALUES = ("frame_count", "frame_distance", "frame_keep", "frame_dealt_count")
_BOARD_VALUES = ("turn", "final_turns_left", "extra_actions", "tile_reserve", "lost_tiles",
                 "deck_size", "pawn_reserve")
_PLAYER_VALUES = ("villages", "hunting_count", "hunting_value", "strait_count",
                  "strait_value_held", "objective_points", "points_total", "column_tops",
                  "tiles_by_level", "hand_size", "points")
#: Territory pieces that never change during a game (kept in the encoder's template).
_STATIC_NODE_PIECES: tuple[str, ...] = ("colour", "continent", "strait_end")


class _PlayerBlock(NamedTuple):
    """One player's features as :meth:`_Filler.fill` last made them."""

    #: A copy of what they were made from (so a later state, or the same one changed in
    #: place, is compared with what was encoded, never with itself)
    made_from: tuple
    #: The player's values, in the order of _PLAYER_VALUES
    values: list[int]
    #: Relative seat -> the positions of the player's one-hots in that seat's rows
    ones_at: dict[int, list[int]]


class _BoardBlock(NamedTuple):
    """The owner and pawn one-hots of the board one seat saw last."""

    #: Copies of ``(state.owner, state.pawn)`` when they were made
    made_from: tuple[list[int], list[int]]
    ones: list[int]


class _StraitBlock(NamedTuple):
    """The strait features one seat saw last, and the tokens each seat held (count, value)."""

    #: Copies of ``(state.strait_owner, state.strait_value)`` when they were made
    made_from: tuple[list[int], list[int]]
    ones: list[int]
    values: list[int]
    held: tuple[list[int], list[int]]


class _Filler:
    """Writes the features of one (state, seat) into an encoder's vector.

    The encoder fixes where every feature lies with :meth:`set_layout`, which also builds
    :attr:`template`: a zero vector holding the static territory features. ``encode`` copies
    the template and :meth:`fill` writes the rest: it lists the flat positions of the
    one-hot entries and the raw values (mostly counts) of the other features, in a fixed
    order, in Python lists, then writes them with one fancy-index assignment each. On these
    short lists that is much cheaper than many small numpy calls.

    Most of a step leaves most of the table alone, so the filler keeps the blocks it made
    last: each player's features (by player), the owner and pawn one-hots and the strait
    features (by observing seat). A block is reused while what it is made from compares
    equal to the copy in its ``made_from``, and made anew otherwise; since the comparison is with a
    copy, a state changed in place is seen like any other. Observations are the same as
    without the kept blocks (a test compares them with a new encoder's along random games);
    they save about a quarter of an observation's cost in play.

    Args:
        rules: An ``OriginRules`` (``data``, ``num_players``; ``scoring.points_holding``
            takes it).
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

        # Static territory features -----------------------------------------------------------
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
        #: Green territories (where hunting tokens lie).
        self._green = [i for i, x in enumerate(world.territories) if x.colour == "green"]
        #: The blocks kept from the last observations: player (absolute seat) -> that
        #: player's features; (players, observing seat) -> the owner and pawn one-hots, and
        #: the strait features, that seat saw last
        self._player_blocks: dict[int, _PlayerBlock] = {}
        self._board_blocks: dict[tuple[int, int], _BoardBlock] = {}
        self._strait_blocks: dict[tuple[int, int], _StraitBlock] = {}
        #: Territories ending at least one strait, and each strait's two ends as indices into
        #: that list (a strait's ends may coincide or be shared with other straits).
        self._strait_territories = sorted({end for ends in world.straits for end in ends})
        index = {terr: i for i, terr in enumerate(self._strait_territories)}
        self._strait_ends = [(index[a], index[b]) for a, b in world.straits]

        # Pawn traits: (height - 1, width - 1, colour) of each pawn type ----------------------
        self._pawn_traits = [(h - 1, w - 1, c) for h, w, c in comps.pawn_types]

        # Cards -----------------------------------------------------------------------------
        self._card_colour = [_CARD_COLOUR_INDEX[c.colour] for c in cards]
        #: Card index -> its entry in the single-colour card pieces (rank within its colour)
        self._colour_rank = [by_colour[c.colour].index(i) for i, c in enumerate(cards)]
        #: Piece name -> the card index of each entry (card pieces only)
        self.card_entries = {name: by_colour[colour]
                             for name, colour in CARD_PIECE_COLOURS.items()}
        everything = list(range(len(cards)))
        self.card_entries.update(frame_taken=everything, victim_hand=everything, hand=everything)
        deck_full = [max(1, len(by_colour[colour])) for colour in CARD_COLOURS]
        extra = [0, 0, 0]
        for c in cards:
            if c.colour == "yellow" and c.kind == "extra_action":
                extra[_ACTION_INDEX[c.effect["action"]]] += 1
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
        #: Piece name -> what its raw values (integer counts) are divided by: one number, or
        #: one per column (per territory for territory pieces). Pieces not listed are one-hots
        #: (or 0/1 flags). Values and denominators are exact in float32, so the float32
        #: quotient is the correctly rounded one, whatever precision it is computed in.
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

    # Layout ----------------------------------------------------------------------------------

    def set_layout(self, size: int, global_offset: int,
                   node_offsets: dict[str, tuple[int, int]]) -> None:
        """Fixes where the features lie in the encoder's vector and builds :attr:`template`.

        Args:
            size: Length of the vector.
            global_offset: Where the global pieces start.
            node_offsets: Territory piece name -> ``(start, row_stride)``: channel ``c`` of
                territory ``t`` lies at ``start + t * row_stride + c``.
        """
        t = self.num_territories
        # Global pieces: position of each piece's first entry, and of row k of each
        # per-player piece (relative seat k).
        pieces = {p.name: p for p in self.global_features.pieces}
        self._g = g = {name: global_offset + p.offset for name, p in pieces.items()}
        width = {name: pieces[name].size // MAX_PLAYERS for name in _PLAYER_PIECES}
        self._seat_rows = [{name: g[name] + k * width[name] for name in _PLAYER_PIECES}
                           for k in range(MAX_PLAYERS)]
        # Per strait: the strait_on_board position, the strait_owner row and the two ends
        # (indices into self._strait_territories)
        self._strait_at = [(g["strait_on_board"] + k, g["strait_owner"] + k * MAX_PLAYERS, a, b)
                           for k, (a, b) in enumerate(self._strait_ends)]
        slots = pieces["slot_level"].shape
        self._slot_rows = [g["slot_level"] + i * slots[1] for i in range(slots[0])]
        # Territory pieces: position of channel 0 of each territory.
        self._rows = rows = {name: [start + i * stride for i in range(t)]
                             for name, (start, stride) in node_offsets.items()}
        # The owner one-hot position of each territory, by (num_players, seat) and owner: the
        # relative seat's column, then empty's, then neutral's.
        self._owner_at = {}
        for n in range(1, MAX_PLAYERS + 1):
            for seat in range(n):
                column = {EMPTY: MAX_PLAYERS, NEUTRAL: MAX_PLAYERS + 1,
                          **{p: (p - seat) % n for p in range(n)}}
                self._owner_at[n, seat] = [{o: row + c for o, c in column.items()}
                                           for row in rows["owner"]]
        # The three one-hot positions (height, width, colour) of each pawn type on each
        # territory: self._pawn_at[territory][pawn type].
        self._pawn_at = [
            [(h_row + h, w_row + w, c_row + c) for h, w, c in self._pawn_traits]
            for h_row, w_row, c_row in zip(rows["pawn_height"], rows["pawn_width"],
                                           rows["pawn_colour"], strict=True)
        ]

        # The template: zeros and the static territory features (those laid out)
        self.template = np.zeros(size, dtype=np.float32)
        for name in _STATIC_NODE_PIECES:
            if name not in rows:
                continue
            values = self.static_nodes[name]
            starts = np.array(rows[name], dtype=np.intp)
            self.template[starts[:, None] + np.arange(values.shape[1])] = values

        # Positions of the values fill lists (see _DECISION_VALUES), by number of players,
        # and the denominators they are divided by.
        def whole(names: tuple[str, ...]) -> list[int]:
            return [g[name] + i for name in names for i in range(pieces[name].size)]

        fixed = (whole(_DECISION_VALUES)
                 + [rows["hunt_value"][terr] for terr in self._green]
                 + whole(("strait_value",))
                 + [rows["strait_open"][terr] for terr in self._strait_territories]
                 + whole(_BOARD_VALUES))
        self._value_at = {
            n: np.array(fixed + [row[name] + i for row in self._seat_rows[:n]
                                 for name in _PLAYER_VALUES for i in range(width[name])],
                        dtype=np.intp)
            for n in range(1, MAX_PLAYERS + 1)
        }
        denominator = np.ones(size, dtype=np.float32)
        globals_ = denominator[global_offset : global_offset + self.global_features.size]
        for name, value in self.denominators.items():
            if name in rows:  # territory piece of one channel
                denominator[rows[name]] = value
            else:
                self.global_features.view(globals_, name)[...] = value
        self._value_denominator = {n: denominator[at] for n, at in self._value_at.items()}

    # Filling ---------------------------------------------------------------------------------

    def fill(self, out: np.ndarray, state: OriginState, seat: int) -> None:
        """Writes every feature ``seat`` may see into ``out``, a copy of :attr:`template`."""
        n = state.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is out of range for {n} players")
        ones: list[int] = []  # positions of the one-hot entries set to 1
        values: list[int] = []  # raw values, in the order of self._value_at[n]
        self._fill_decision(ones, values, state, seat, n)
        hunting_held = self._fill_territories(ones, values, state, seat, n)
        straits_held = self._fill_straits(ones, values, state, seat, n)
        self._fill_turn_and_board(ones, values, state, seat, n)
        self._fill_players(ones, values, state, seat, n, hunting_held, straits_held)
        out[np.fromiter(ones, dtype=np.intp, count=len(ones))] = 1.0
        # Divide the raw values by their denominators and clip them to [0, 1]: the guard that
        # keeps the observation in the space (the template and the one-hots are already 0 or
        # 1). Two ufuncs in place cost less than np.clip on these short arrays.
        scaled = np.fromiter(values, dtype=np.float32, count=len(values))
        scaled /= self._value_denominator[n]
        np.minimum(scaled, 1.0, out=scaled)
        out[self._value_at[n]] = np.maximum(scaled, 0.0, out=scaled)

    def _fill_decision(self, ones, values, state: OriginState, seat: int, n: int) -> None:
        g = self._g
        phase = _PHASE_INDEX.get(state.phase)
        if phase is not None:
            ones.append(g["phase"] + phase)
        frame = state.stack[-1] if state.stack else {}
        kind = frame.get("kind")
        if kind not in _DECISION_INDEX:
            if kind in REGISTRY.decisions:
                raise ValueError(f"decision kind {kind!r} is missing from "
                                 "origin.encoders.DECISION_KINDS; add it (and its fields)")
            ones.append(g["decision"] + len(DECISION_KINDS))
            values += [0, 0, 0, 0]  # no frame fields
            return
        ones.append(g["decision"] + _DECISION_INDEX[kind])
        player = frame.get("player", -1)
        mine = player == seat
        if 0 <= player < n:
            if mine:
                ones.append(g["to_act"])
            ones.append(g["actor"] + (player - seat) % n)
        # Public fields
        territory = frame.get("territory", -1)
        if isinstance(territory, int) and 0 <= territory < self.num_territories:
            ones.append(self._rows["frame_territory"][territory])
        colour = frame.get("colour")
        if colour in _REWARD_INDEX:
            ones.append(g["frame_colour"] + _REWARD_INDEX[colour])
        for c in frame.get("colours", ()):
            if c in _REWARD_INDEX:
                ones.append(g["frame_tile_colours"] + _REWARD_INDEX[c])
        victim = frame.get("victim", -1)
        if isinstance(victim, int) and 0 <= victim < n:
            ones.append(g["frame_victim"] + (victim - seat) % n)
        reason = frame.get("reason")
        if reason in _REASON_INDEX:
            ones.append(g["frame_reason"] + _REASON_INDEX[reason])
        dealt = frame.get("dealt", ())
        values += [max(frame.get("count", 0), 0), frame.get("distance", 0),
                   frame.get("keep", 0), len(dealt) if kind == "keep_objective" else 0]
        if not mine:
            return
        # Private fields: only for the deciding observer
        rank = self._colour_rank
        ones += [g["frame_dealt"] + rank[c] for c in dealt]
        taken = frame.get("taken", -1)
        if isinstance(taken, int) and 0 <= taken < self.num_cards:
            ones.append(g["frame_taken"] + taken)
        if kind == "barter_take" and 0 <= victim < n:
            ones += [g["victim_hand"] + c for c in state.hands[victim]]

    def _fill_territories(self, ones, values, state: OriginState, seat: int,
                          n: int) -> tuple[list[int], list[int]]:
        """Writes the territory features; returns the hunting tokens held and their value by
        (absolute) seat."""
        rows = self._rows
        # Owner (relative seat, empty or neutral) and pawn height, width and colour: kept from
        # the last observation of this seat while no pawn has moved (and the copies of the
        # lists they were made from say so)
        board = self._board_blocks.get((n, seat))
        if board is None or board.made_from != (state.owner, state.pawn):
            board_ones = [at[o] for at, o in zip(self._owner_at[n, seat], state.owner,
                                                 strict=True)]
            for pawn_at, pawn in zip(self._pawn_at, state.pawn, strict=True):
                if pawn >= 0:
                    board_ones += pawn_at[pawn]
            board = self._board_blocks[n, seat] = _BoardBlock(
                (list(state.owner), list(state.pawn)), board_ones)
        ones += board.ones
        # Hunting tokens (one on each green territory): still on the board, or held
        hunt_owner, hunt_value, present = state.hunt_owner, state.hunt_value, rows["hunt_present"]
        held, held_value = [0] * n, [0] * n
        for terr in self._green:
            o = hunt_owner[terr]
            if o == -1:
                ones.append(present[terr])
                values.append(hunt_value[terr])
            else:
                values.append(0)
                held[o] += 1
                held_value[o] += hunt_value[terr]
        return held, held_value

    def _fill_straits(self, ones, values, state: OriginState, seat: int,
                      n: int) -> tuple[list[int], list[int]]:
        """Writes the strait features; returns the strait tokens held and their value by
        (absolute) seat. Kept from the last observation of this seat while no strait token
        has changed hands."""
        block = self._strait_blocks.get((n, seat))
        if block is None or block.made_from != (state.strait_owner, state.strait_value):
            block = self._strait_blocks[n, seat] = self._strait_block(state, seat, n)
        ones += block.ones
        values += block.values
        return block.held

    def _strait_block(self, state: OriginState, seat: int, n: int) -> _StraitBlock:
        open_ends = [0] * len(self._strait_territories)  # open straits ending there
        held, held_value = [0] * n, [0] * n
        ones = []
        for (on_board, owner_row, a, b), o, value in zip(self._strait_at, state.strait_owner,
                                                         state.strait_value, strict=True):
            if o < 0:
                ones.append(on_board)
                open_ends[a] += 1
                open_ends[b] += 1
            else:
                ones.append(owner_row + (o - seat) % n)
                held[o] += 1
                held_value[o] += value
        return _StraitBlock((list(state.strait_owner), list(state.strait_value)), ones,
                            [*state.strait_value, *open_ends], (held, held_value))

    def _fill_turn_and_board(self, ones, values, state: OriginState, seat: int,
                             n: int) -> None:
        g = self._g
        # Turn ------------------------------------------------------------------------------
        ones.append(g["current"] + (state.current - seat) % n)
        ts = state.turn_state
        if ts.get("action_taken"):
            ones.append(g["action_taken"])
        ones += [g["played_colours"] + _CARD_COLOUR_INDEX[c] for c in ts.get("played", ())]
        rank = self._colour_rank
        ones += [g["turn_cards"] + rank[c] for c in ts.get("turn_cards", ())]
        if state.end_triggered:
            ones.append(g["end_triggered"])
        extra = [0] * len(ACTION_TYPES)
        for action in ts.get("extra_actions", ()):
            extra[_ACTION_INDEX[action]] += 1
        values += [state.turn, max(state.final_turns_left, 0)]
        values += extra

        # The rewards board -----------------------------------------------------------------
        ones += [row + level for row, level in zip(self._slot_rows, state.slots, strict=True)]
        ones += [g["discard"] + rank[c] for c in state.discard]
        values += [sum(state.tile_reserve), state.lost_tiles]
        values += map(len, state.decks)
        values += state.reserve

    def _fill_players(self, ones, values, state: OriginState, seat: int, n: int,
                      hunting_held: tuple[list[int], list[int]],
                      straits_held: tuple[list[int], list[int]]) -> None:
        hunt_count, hunt_value = hunting_held
        strait_count, strait_value = straits_held
        known = self._player_blocks
        for k in range(n):
            p = (seat + k) % n
            # Everything player p's block is made of, as it is now
            inputs = (state.villages[p], state.objective_points[p], hunt_count[p],
                      hunt_value[p], strait_count[p], strait_value[p], state.permanents[p],
                      state.objectives_done[p], state.hands[p], state.columns[p])
            block = known.get(p)
            if block is None or block.made_from != inputs:
                block = known[p] = self._player_block(state, p, inputs)
            at_seat = block.ones_at
            if k not in at_seat:  # the block's one-hots in relative seat k's row
                row, rank = self._seat_rows[k], self._colour_rank
                at_seat[k] = [row["seat_present"],
                              *[row["permanents"] + rank[c] for c in state.permanents[p]],
                              *[row["objectives_done"] + rank[c]
                                for c in state.objectives_done[p]]]
            ones += at_seat[k]
            values += block.values
        ones += [self._g["hand"] + c for c in state.hands[seat]]

    def _player_block(self, state: OriginState, p: int, inputs: tuple) -> _PlayerBlock:
        """Player ``p``'s values, made from ``inputs`` (see :class:`_PlayerBlock`); the caller
        fills in the one-hot positions for each relative seat it writes the block at."""
        (villages, objective_points, hunt_count, hunt_value, strait_count, strait_value,
         permanents, objectives_done, hand, columns) = inputs
        # Innovation tiles: columns by top level, tiles by level
        tops, by_level = [0] * MAX_LEVEL, [0] * MAX_LEVEL
        for col in columns:
            if col:
                tops[col[-1] - 1] += 1
                for level in col:
                    by_level[level - 1] += 1
        hand_size = [0] * len(CARD_COLOURS)
        card_colour = self._card_colour
        for c in hand:
            hand_size[card_colour[c]] += 1
        # The single source of points, given the token values already counted
        points = scoring.points_holding(self.rules, state, p, hunting=hunt_value,
                                        straits=strait_value)
        by_source = [points[source] for source in POINT_SOURCES]
        # In the order of _PLAYER_VALUES
        values = [villages, hunt_count, hunt_value, strait_count, strait_value,
                  objective_points, sum(by_source), *tops, *by_level, *hand_size, *by_source]
        copied = (*inputs[:6], list(permanents), list(objectives_done), list(hand),
                  [list(col) for col in columns])
        return _PlayerBlock(copied, values, {})


class _Encoder:
    """What both encoders share: a :class:`_Filler` (``self._filler``) writing the features
    into a copy of its template, and the card index of each card piece's entries."""

    _filler: _Filler

    def encode(self, state: OriginState, seat: int) -> np.ndarray:
        """The vector ``seat`` observes in ``state`` (a fresh array)."""
        out = self._filler.template.copy()
        self._filler.fill(out, state, seat)
        return out

    def cards_of(self, piece: str) -> list[int]:
        """The card index (``rules.data.cards[i]``) of each entry of a card piece, e.g. of
        ``view(obs, "permanents")[k]``'s columns."""
        try:
            return list(self._filler.card_entries[piece])
        except KeyError:
            pieces = ", ".join(sorted(self._filler.card_entries))
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
        features: The :class:`~primeval.envs.core.encoders.FeatureBuilder` of all pieces.
        pieces: Piece name -> slice of the vector.
    """

    name = "flat"

    def __init__(self, rules: Any, include_static: bool = False) -> None:
        self._filler = f = _Filler(rules)
        t = f.num_territories
        gfb = f.global_features
        node_specs = [spec for spec in f.node_specs
                      if include_static or spec[0] not in _STATIC_NODE_PIECES]
        self.features = FeatureBuilder(
            [(p.name, p.shape, p.description) for p in gfb.pieces]
            + [(name, (t, channels), text) for name, channels, text in node_specs]
        )
        self.pieces: dict[str, slice] = {n: self.features.slice(n) for n in self.features.names}
        # Global pieces first (offset 0), then each territory piece as a (T, channels) block
        f.set_layout(self.features.size, 0,
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


class GraphEncoder(_Encoder):
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
        # Node rows of nf columns first, then the adjacency, then the globals
        f.set_layout(self.size, self._adj_stop,
                     {name: (s.start, nf) for name, s in self.node_columns.items()})
        self.split(f.template)[1][...] = f.adjacency  # constant, kept in the template
        self._space = spaces.Box(low=0.0, high=1.0, shape=(self.size,), dtype=np.float32)

    def space(self) -> spaces.Box:
        """``Box(0, 1, (T*F + T*T + G,), float32)``."""
        return self._space

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
