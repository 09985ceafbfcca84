"""The Primordial Soup game state: a plain dataclass graph with a cheap copy and JSON form.

Colours: player ``p`` plays colour ``p``; food cubes are indexed by the same colour index.
Ladder: ``PlayerState.score`` is the space of the player's marker on the scoring ladder
(0 before the start spaces are chosen).

The state also holds the *procedure stack*: a list of small dicts, each a step of the round
still to be carried out (``{"kind": "feed", "player": 1, "amoeba": 3}``). The top entry is
either a decision of one player or an automatic step. Interrupts (an attacked amoeba's owner
choosing Escape, a Holding owner choosing to cling) are frames pushed on top of the step they
interrupt. Frames hold only ints, strings, bools and tuples, so copying them is cheap.
Nothing in the state holds a random generator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Frame = dict[str, Any]

#: Phase names, in round order, as used in ``infos[agent]["phase"]``.
PHASES: tuple[str, ...] = (
    "setup",
    "movement_and_feeding",  # phase 1
    "environment",  # phase 2
    "new_genes",  # phase 3
    "cell_division",  # phase 4
    "deaths",  # phase 5
    "scoring",  # phase 6
    "game_over",
)


@dataclass
class PlayerState:
    """One player's colour.

    Attributes:
        bp: Biological points (never negative).
        score: Ladder space of the scoring marker.
        genes: Gene key -> round in which it was acquired (0 for none yet).
        amoeba_space: Space of amoeba number ``i + 1``, or -1 when not on the board.
        amoeba_damage: Damage points of each amoeba (0 when off the board).
        amoeba_done: Whether each amoeba has taken its phase-1 turn this round.
        aggression_used: Whether the player used Aggression this round.
    """

    bp: int
    score: int
    genes: dict[str, int]
    amoeba_space: list[int]
    amoeba_damage: list[int]
    amoeba_done: list[bool]
    aggression_used: bool = False

    def copy(self) -> PlayerState:
        return PlayerState(
            self.bp,
            self.score,
            dict(self.genes),
            list(self.amoeba_space),
            list(self.amoeba_damage),
            list(self.amoeba_done),
            self.aggression_used,
        )

    def has(self, gene_key: str) -> bool:
        return gene_key in self.genes

    def amoebas_on_board(self) -> list[int]:
        """Indices (number - 1) of this player's amoebas on the board, in number order."""
        return [i for i, sp in enumerate(self.amoeba_space) if sp >= 0]


@dataclass
class GameState:
    """Everything on the table, plus the procedure stack.

    Attributes:
        num_players: 3 or 4.
        round: Round number, 0 during setup.
        phase: One of :data:`PHASES`.
        players: One :class:`PlayerState` per seat.
        cubes: ``cubes[space][colour]`` food cubes on the board.
        supply: Food cubes of each colour not on the board.
        gene_supply: Gene cards of each type (by ``data.GENES`` index) in the supply.
        environment_card: Index into the config's deck of the card on the compass.
        environment_deck: Indices of the cards not yet turned over.
        stack: Procedure frames still to be carried out; the last one is next.
        dice: The last dice rolled (for display and observations).
    """

    num_players: int
    round: int
    phase: str
    players: list[PlayerState]
    cubes: list[list[int]]
    supply: list[int]
    gene_supply: list[int]
    environment_card: int
    environment_deck: list[int]
    stack: list[Frame] = field(default_factory=list)
    dice: tuple[int, ...] = ()

    def copy(self) -> GameState:
        return GameState(
            self.num_players,
            self.round,
            self.phase,
            [p.copy() for p in self.players],
            list(map(list, self.cubes)),
            list(self.supply),
            list(self.gene_supply),
            self.environment_card,
            list(self.environment_deck),
            list(map(dict, self.stack)),
            self.dice,
        )

    @property
    def pending(self) -> Frame | None:
        """The frame to be carried out next (a decision when the game waits for a player)."""
        return self.stack[-1] if self.stack else None

    def amoebas_at(self, space: int) -> list[tuple[int, int]]:
        """(player, amoeba index) pairs on a space, in seat then number order."""
        return [
            (p, i)
            for p, ps in enumerate(self.players)
            for i, sp in enumerate(ps.amoeba_space)
            if sp == space
        ]

    def ascending(self) -> list[int]:
        """Seats in ascending ladder order (the last-placed player first)."""
        return sorted(range(self.num_players), key=lambda p: self.players[p].score)

    def descending(self) -> list[int]:
        """Seats in descending ladder order (the leader first)."""
        return self.ascending()[::-1]

    # JSON form -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "num_players": self.num_players,
            "round": self.round,
            "phase": self.phase,
            "players": [
                {
                    "bp": p.bp,
                    "score": p.score,
                    "genes": dict(p.genes),
                    "amoeba_space": list(p.amoeba_space),
                    "amoeba_damage": list(p.amoeba_damage),
                    "amoeba_done": list(p.amoeba_done),
                    "aggression_used": p.aggression_used,
                }
                for p in self.players
            ],
            "cubes": [list(c) for c in self.cubes],
            "supply": list(self.supply),
            "gene_supply": list(self.gene_supply),
            "environment_card": self.environment_card,
            "environment_deck": list(self.environment_deck),
            "stack": [{k: _jsonable(v) for k, v in f.items()} for f in self.stack],
            "dice": list(self.dice),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        return cls(
            num_players=d["num_players"],
            round=d["round"],
            phase=d["phase"],
            players=[
                PlayerState(
                    p["bp"],
                    p["score"],
                    dict(p["genes"]),
                    list(p["amoeba_space"]),
                    list(p["amoeba_damage"]),
                    list(p["amoeba_done"]),
                    p["aggression_used"],
                )
                for p in d["players"]
            ],
            cubes=[list(c) for c in d["cubes"]],
            supply=list(d["supply"]),
            gene_supply=list(d["gene_supply"]),
            environment_card=d["environment_card"],
            environment_deck=list(d["environment_deck"]),
            stack=[{k: _from_json(v) for k, v in f.items()} for f in d["stack"]],
            dice=tuple(d["dice"]),
        )


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def _from_json(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_from_json(x) for x in v)
    return v
