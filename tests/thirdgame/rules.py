"""Pig, the dice game, as pure rules: the third game of the tests (``docs/add-a-game.md``).

On a turn the player rolls a die as often as they like: a 1 loses the turn's total and ends
the turn; any other face adds to it. Holding banks the turn's total and ends the turn, and so
does reaching ``target`` points. The game ends with the round in which someone reached the
target (every seat has as many turns; so every seat decides at least once); the highest
score wins, ties share. Every die goes through
:func:`~primeval.envs.core.chance.roll_die`, so explicit chance (OpenSpiel, MCTS) works.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from primeval.envs.core.chance import roll_die
from primeval.envs.core.frames import FrameRegistry, FrameRules
from primeval.envs.core.layout import ActionLayout

#: ``pass`` is Hold (bank the turn's total); ``roll`` rolls the die.
LAYOUT = ActionLayout(
    [("pass", 1, "hold: bank the turn's total, end the turn"), ("roll", 1, "roll the die")],
    labels={"pass": ["hold"], "roll": ["roll"]},
)
PHASES = ("play",)
REGISTRY = FrameRegistry()


@dataclass(frozen=True)
class PigConfig:
    """Rules parameters: ``num_players`` (2 to 4) and ``target`` (points to win, >= 2)."""

    num_players: int = 2
    target: int = 20

    def __post_init__(self) -> None:
        if type(self.num_players) is not int or self.num_players not in (2, 3, 4):
            raise ValueError(
                f"PigConfig.num_players={self.num_players!r} is invalid; allowed: 2, 3 or 4"
            )
        if type(self.target) is not int or self.target < 2:
            raise ValueError(f"PigConfig.target={self.target!r} is invalid; allowed: an int >= 2")

    @classmethod
    def from_overrides(cls, **overrides: Any) -> PigConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(f"unknown PigConfig field(s) {unknown}; known fields: {sorted(known)}")
        return cls(**overrides)


@dataclass
class PigState:
    scores: list[int]
    turn_total: int
    last_roll: int
    stack: list[dict[str, Any]]
    phase: str = "play"

    @property
    def num_players(self) -> int:
        return len(self.scores)

    def copy(self) -> PigState:
        return copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "turn_total": self.turn_total,
            "last_roll": self.last_roll,
            "stack": copy.deepcopy(self.stack),
            "phase": self.phase,
        }


@REGISTRY.decision("turn", "player_{player}: roll or hold")
class Turn:
    @staticmethod
    def legal(rules: PigRules, state: PigState, frame: dict, mask: np.ndarray) -> None:
        LAYOUT.allow(mask, "roll")
        if state.turn_total > 0:
            LAYOUT.allow(mask, "pass")

    @staticmethod
    def apply(
        rules: PigRules, state: PigState, frame: dict, segment: str, index: Any, rng: Any
    ) -> None:
        player, target = frame["player"], rules.config.target
        if segment == "roll":
            state.last_roll = roll_die(rng)
            if state.last_roll != 1:
                state.turn_total += state.last_roll
                if state.scores[player] + state.turn_total < target:
                    return  # roll again or hold
                state.scores[player] += state.turn_total  # the target: banked, turn over
        else:
            state.scores[player] += state.turn_total
        state.turn_total = 0  # (a 1 loses it)
        if player == rules.num_players - 1 and max(state.scores) >= target:
            state.stack.clear()  # the round is over and someone reached the target
        else:
            frame["player"] = (player + 1) % rules.num_players


class PigRules(FrameRules):
    """Pig's rules (``GameRules``); the state is a :class:`PigState`."""

    name = "pig"
    registry = REGISTRY
    layout = LAYOUT

    def __init__(self, config: PigConfig | None = None) -> None:
        self.config = config or PigConfig()
        self.num_players = self.config.num_players

    def initial_state(self, rng: Any) -> PigState:
        return PigState([0] * self.num_players, 0, 0, [{"kind": "turn", "player": 0}])

    def is_terminal(self, state: PigState) -> bool:
        return not state.stack

    def scores(self, state: PigState) -> list[float]:
        return [float(s) for s in state.scores]

    def check_state(self, state: PigState) -> None:
        """``ValueError`` naming the first broken invariant."""
        if len(state.scores) != self.num_players or min(state.scores) < 0:
            raise ValueError(f"scores {state.scores}: one non-negative score per seat")
        if (
            not 0 <= state.turn_total < self.config.target
            or max(state.scores) > self.config.target + 5
        ):
            raise ValueError(f"turn_total {state.turn_total} or scores {state.scores} out of range")
        if (
            state.stack
            and state.stack[-1]["player"] == 0
            and state.turn_total == 0
            and max(state.scores) >= self.config.target
        ):
            raise ValueError("a round is over with the target reached but the game goes on")
