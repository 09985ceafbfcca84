"""The fast path of the Origin encoders: the reference's features at precomputed positions,
with the blocks of the last observations kept.

:class:`Filler` writes the same features as :func:`~primeval.envs.origin.encoders_reference.
observe` (``tests/envs/origin/test_encoders_reference.py`` proves it along random games), laid out
where the encoder says (:meth:`Filler.set_layout`). Encoding runs on every agent step, so:

* ``fill`` lists the flat positions of the one-hot entries, and the raw values (mostly
  counts) of the other features, in Python lists, then writes them with one fancy-index
  assignment each; on these short lists that is much cheaper than many small numpy calls.
  The values are always listed, in a fixed order: the pieces of :data:`_VALUES` in that
  order, then each relative seat's player pieces in their declared order; their positions
  and denominators are looked up by those names once per layout.
* Most of a step leaves most of the table alone, so the filler keeps the blocks it made
  last: each player's features (by player), the owner and pawn one-hots and the strait
  features (by observing seat). A block is reused while what it is made from compares equal
  to the copy in its ``made_from``, and made anew otherwise; since the comparison is with a
  copy, a state changed in place is seen like any other.

Adding a feature: declare it (and its denominator) in ``encoders_features``, write it in the
reference, and here either append its one-hot positions, or list its values: for a player
piece, at its declared place in the player block's ``values`` (and, if it reads a state field
the block does not read yet, add that field to the block's ``inputs``); else in the fill *and*
in :data:`_VALUES` at the same place. A value piece the fast path does not list is refused
when the filler is made, a player block of the wrong length when it is made.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import primeval.envs.origin.rules  # noqa: F401  (registers every decision kind)
from primeval.envs.origin.encoders_features import (
    ACTION_TYPES,
    DECISION_KINDS,
    DECK_REASONS,
    MAX_LEVEL,
    MAX_PLAYERS,
    PLAYER_PIECES,
    POINT_SOURCES,
    STATIC_NODE_PIECES,
    OriginFeatures,
)
from primeval.envs.origin.gamedata import CARD_COLOURS, REWARD_COLOURS
from primeval.envs.origin.rules import scoring
from primeval.envs.origin.rules.registry import REGISTRY
from primeval.envs.origin.state import EMPTY, NEUTRAL, PHASES, OriginState

__all__ = ["Filler"]

_DECISION_INDEX = {k: i for i, k in enumerate(DECISION_KINDS)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_REWARD_INDEX = {c: i for i, c in enumerate(REWARD_COLOURS)}
_CARD_COLOUR_INDEX = {c: i for i, c in enumerate(CARD_COLOURS)}
_REASON_INDEX = {r: i for i, r in enumerate(DECK_REASONS)}
_ACTION_INDEX = {a: i for i, a in enumerate(ACTION_TYPES)}

#: The pieces holding values (not one-hots) that ``fill`` lists before the players', in the
#: order it lists them: the decision's, ``hunt_value`` (one per green territory),
#: ``strait_value`` and ``strait_open`` (one per territory ending a strait), the turn's and the
#: rewards board's.
_VALUES: tuple[str, ...] = (
    "frame_count", "frame_distance", "frame_keep", "frame_dealt_count",
    "hunt_value",
    "strait_value", "strait_open",
    "turn", "final_turns_left", "extra_actions",
    "tile_reserve", "lost_tiles", "deck_size", "pawn_reserve",
)


class _PlayerBlock(NamedTuple):
    """One player's features as :meth:`Filler.fill` last made them."""

    #: A copy of what they were made from (so a later state, or the same one changed in
    #: place, is compared with what was encoded, never with itself)
    made_from: tuple
    #: The player's values, in the order of Filler._player_values
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


class Filler:
    """Writes the features of one (state, seat) into an encoder's vector.

    The encoder fixes where every feature lies with :meth:`set_layout`, which also builds
    :attr:`template`: a zero vector holding the static territory features. ``encode`` copies
    the template and :meth:`fill` writes the rest (see the module docstring).

    Args:
        features: The features to write.
    """

    def __init__(self, features: OriginFeatures) -> None:
        self.f = features
        self.rules = features.rules
        self.num_territories = features.num_territories
        self.num_cards = features.num_cards
        self.global_features = features.global_features
        #: The blocks kept from the last observations: player (absolute seat) -> that
        #: player's features; (players, observing seat) -> the owner and pawn one-hots, and
        #: the strait features, that seat saw last
        self._player_blocks: dict[int, _PlayerBlock] = {}
        self._board_blocks: dict[tuple[int, int], _BoardBlock] = {}
        self._strait_blocks: dict[tuple[int, int], _StraitBlock] = {}
        #: Green territories (where hunting tokens lie)
        self._green = features.green
        #: Territories ending at least one strait, and each strait's two ends as indices into
        #: that list (a strait's ends may coincide or be shared with other straits).
        straits = features.data.world.straits
        self._strait_territories = sorted({end for ends in straits for end in ends})
        index = {terr: i for i, terr in enumerate(self._strait_territories)}
        self._strait_ends = [(index[a], index[b]) for a, b in straits]
        self._pawn_traits = features.pawn_traits
        self._card_colour = features.card_colour
        self._colour_rank = features.colour_rank
        #: The player pieces holding values, in the order a player block lists them (their
        #: declared order), and how many values that is
        self._player_values = tuple(name for name in PLAYER_PIECES
                                    if name in features.denominators)
        pieces = {p.name: p for p in features.global_features.pieces}
        self._player_width = sum(pieces[name].size // MAX_PLAYERS for name in self._player_values)
        missing = set(features.denominators) - set(_VALUES) - set(self._player_values)
        if missing:
            raise ValueError(f"the fast path writes no values for {sorted(missing)}: list "
                             "them in encoders_fast._VALUES where fill lists them")

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
        width = {name: pieces[name].size // MAX_PLAYERS for name in PLAYER_PIECES}
        self._seat_rows = [{name: g[name] + k * width[name] for name in PLAYER_PIECES}
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
        for name in STATIC_NODE_PIECES:
            if name not in rows:
                continue
            values = self.f.static_nodes[name]
            starts = np.array(rows[name], dtype=np.intp)
            self.template[starts[:, None] + np.arange(values.shape[1])] = values

        # Positions of the values fill lists (in the order of _VALUES, then each relative
        # seat's in the order of self._player_values), by number of players, and the
        # denominators they are divided by.
        territories = {"hunt_value": self._green, "strait_open": self._strait_territories}

        def positions(name: str) -> list[int]:
            if name in rows:  # a territory piece of one channel: the territories listed
                return [rows[name][terr] for terr in territories[name]]
            return [g[name] + i for i in range(pieces[name].size)]

        fixed = [at for name in _VALUES for at in positions(name)]
        self._value_at = {
            n: np.array(fixed + [row[name] + i for row in self._seat_rows[:n]
                                 for name in self._player_values for i in range(width[name])],
                        dtype=np.intp)
            for n in range(1, MAX_PLAYERS + 1)
        }
        denominator = np.ones(size, dtype=np.float32)
        globals_ = denominator[global_offset : global_offset + self.global_features.size]
        for name, value in self.f.denominators.items():
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
        values: list[int] = []  # raw values, in the order of _VALUES, then players'
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
        # The player's value pieces in their declared order (PLAYER_PIECES; see
        # self._player_values)
        values = [villages, *tops, *by_level, hunt_count, hunt_value, strait_count,
                  strait_value, objective_points, *hand_size, *by_source, sum(by_source)]
        if len(values) != self._player_width:
            raise ValueError(f"a player block lists {len(values)} values, its pieces "
                             f"{self._player_values} hold {self._player_width}")
        copied = (*inputs[:6], list(permanents), list(objectives_done), list(hand),
                  [list(col) for col in columns])
        return _PlayerBlock(copied, values, {})
