"""Pig shown to people: text only (no picture)."""

from __future__ import annotations

from tests.thirdgame.rules import PigRules, PigState


class PigView:
    render_modes = ("ansi", "human")

    def __init__(self, rules: PigRules) -> None:
        self.rules = rules

    def to_text(self, state: PigState, viewer: int | None = None) -> str:
        scores = ", ".join(f"player_{i}: {s}" for i, s in enumerate(state.scores))
        return (
            f"Pig to {self.rules.config.target} | {scores} | turn total "
            f"{state.turn_total}, last roll {state.last_roll} | "
            f"{self.describe_decision(state, viewer)}"
        )

    def describe_decision(self, state: PigState, viewer: int | None = None) -> str:
        return self.rules.describe_decision(state)

    def action_name(self, state: PigState, action: int, viewer: int | None = None) -> str:
        return self.rules.action_to_str(state, action)
