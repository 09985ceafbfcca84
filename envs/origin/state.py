"""The Origin game state: plain lists and dicts, a cheap copy, a JSON form.

Territories, pawn types, cards, tile slots and straits are referred to by index into the
loaded data (:mod:`primeval.envs.origin.gamedata`). Decks are lists with the top card first.
Hidden information (hands, objectives, deck order, the tile reserve) is in the state; the
observation encoders show each player only what they may see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

Frame = dict[str, Any]

EMPTY = -1
NEUTRAL = -2
PHASES = ("setup", "play", "final_round", "game_over")


class Deck(IntEnum):
    """The three decks, as ``OriginState.decks`` holds them and ``choose_deck`` picks them."""

    YELLOW = 0
    ORANGE = 1
    PURPLE = 2


DECKS = tuple(deck.name.lower() for deck in Deck)


@dataclass
class OriginState:
    """Everything on the table, plus the procedure stack.

    Attributes:
        num_players: 2..4.
        phase: One of :data:`PHASES`.
        turn: Turns started so far; ``current`` is the seat whose turn it is.
        start_player: The seat that took the first turn.
        pawn: Pawn type on each territory (index into ``components.pawn_types``), or -1.
        owner: Seat owning each territory's pawn, ``EMPTY`` (-1) or ``NEUTRAL`` (-2).
        reserve: Pawns of each type in the shared reserve.
        villages: Villages each player still has in supply.
        hands: Card indices in each player's hand.
        permanents: Orange cards each player has in play.
        objectives_done: Purple cards each player has completed.
        objective_points: Points each player scored from objectives (with bonuses).
        columns: Each player's innovation tile columns (levels, bottom first).
        slots: Tile level in each face-up slot of the rewards board (0 = empty).
        tile_reserve: Face-down tiles by level (index 0 = level 1).
        lost_tiles: Tiles out of the game (a raided tile that could not be placed).
        decks: The yellow, orange and purple decks, top card first.
        discard: Yellow cards played (out of the game).
        hunt_value: Hunting token value on each green territory (0 elsewhere).
        hunt_owner: Seat holding each territory's hunting token, -1 while on the board.
        strait_value: Token value on each strait.
        strait_owner: Seat holding each strait token, -1 while on the board.
        turn_state: Flags of the current turn (action taken, cards played, bonuses).
        end_triggered: Whether an end condition has been met.
        final_turns_left: Final-round turns still to play (after the trigger).
        stack: Procedure frames still to be carried out; the last one is next.
    """

    num_players: int
    phase: str
    turn: int
    current: int
    start_player: int
    pawn: list[int]
    owner: list[int]
    reserve: list[int]
    villages: list[int]
    hands: list[list[int]]
    permanents: list[list[int]]
    objectives_done: list[list[int]]
    objective_points: list[int]
    columns: list[list[list[int]]]
    slots: list[int]
    tile_reserve: list[int]
    lost_tiles: int
    decks: list[list[int]]
    discard: list[int]
    hunt_value: list[int]
    hunt_owner: list[int]
    strait_value: list[int]
    strait_owner: list[int]
    turn_state: dict[str, Any] = field(default_factory=dict)
    end_triggered: bool = False
    final_turns_left: int = 0
    stack: list[Frame] = field(default_factory=list)

    def copy(self) -> OriginState:
        return OriginState(
            self.num_players, self.phase, self.turn, self.current, self.start_player,
            list(self.pawn), list(self.owner), list(self.reserve), list(self.villages),
            [list(h) for h in self.hands], [list(p) for p in self.permanents],
            [list(o) for o in self.objectives_done], list(self.objective_points),
            [[list(c) for c in cols] for cols in self.columns], list(self.slots),
            list(self.tile_reserve), self.lost_tiles, [list(d) for d in self.decks],
            list(self.discard), list(self.hunt_value), list(self.hunt_owner),
            list(self.strait_value), list(self.strait_owner), dict(self.turn_state),
            self.end_triggered, self.final_turns_left, [dict(f) for f in self.stack],
        )

    @property
    def pending(self) -> Frame | None:
        return self.stack[-1] if self.stack else None

    def territories_of(self, player: int) -> list[int]:
        """Territories holding this player's pawns (with their villages), in order.

        Found by ``list.index``, which scans in C: the same list as
        ``[t for t, o in enumerate(self.owner) if o == player]`` (tested), a few times
        faster; the rules and the heuristics ask it at every decision."""
        owner = self.owner
        found: list[int] = []
        if player not in owner:
            return found
        index, append = owner.index, found.append
        t = index(player)
        try:
            while True:
                append(t)
                t = index(player, t + 1)
        except ValueError:
            return found

    def tiles_of(self, player: int) -> list[int]:
        """All tile levels a player owns."""
        return [level for col in self.columns[player] for level in col]

    def to_dict(self) -> dict[str, Any]:
        d = {name: getattr(self, name) for name in self.__dataclass_fields__}
        d = _deep_copy_json(d)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> OriginState:
        d = _deep_copy_json(d)
        d["stack"] = [{k: _tuplify(v) for k, v in f.items()} for f in d["stack"]]
        d["turn_state"] = {k: _tuplify(v) for k, v in d["turn_state"].items()}
        return cls(**d)


def _deep_copy_json(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _deep_copy_json(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_deep_copy_json(x) for x in v]
    return v


def _tuplify(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuplify(x) for x in v)
    return v
