"""Pig's one observation encoder, ``"flat"``: the observer's score, the others' (in turn
order from the observer), the turn's total and the last roll, all over the target."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from tests.thirdgame.rules import PigRules, PigState


class FlatEncoder:
    name = "flat"

    def __init__(self, rules: PigRules) -> None:
        self.rules = rules
        self.size = rules.num_players + 3

    def space(self) -> spaces.Box:
        return spaces.Box(0.0, 2.0, shape=(self.size,), dtype=np.float32)

    def encode(self, state: PigState, seat: int) -> np.ndarray:
        n, target = self.rules.num_players, self.rules.config.target
        out = np.zeros(self.size, np.float32)
        out[:n] = [state.scores[(seat + k) % n] / target for k in range(n)]
        out[n] = state.turn_total / target
        out[n + 1] = state.last_roll / 6
        out[n + 2] = float(bool(state.stack) and state.stack[-1]["player"] == seat)
        return out


ENCODERS = {"flat": FlatEncoder}
