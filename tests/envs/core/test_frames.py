"""The shared procedure-frame engine (envs/core/frames.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.core.frames import FrameRegistry, FrameRules
from primeval.envs.core.layout import ActionLayout

REG = FrameRegistry()


@dataclass
class Counter:
    """A toy game: player 0 adds 1 or 2 until the total reaches 5; then player 1 may
    double it once (only if the total is even, else the doubling offer is skipped)."""

    total: int = 0
    phase: str = "adding"
    stack: list = field(default_factory=list)

    def copy(self):
        return Counter(self.total, self.phase, [dict(f) for f in self.stack])


@REG.decision("add", "player_{player} adds")
class Add:
    @staticmethod
    def legal(rules, state, frame, mask):
        rules.layout.segment_view(mask, "add")[:] = True

    @staticmethod
    def apply(rules, state, frame, segment, index, rng):
        state.total += index + 1
        if state.total >= 5:
            state.stack.pop()


@REG.step("to_doubling")
def to_doubling(rules, state, frame, rng):
    state.stack.pop()
    state.phase = "doubling"


@REG.decision("double", "player_{player} may double")
class Double:
    @staticmethod
    def legal(rules, state, frame, mask):
        if state.total % 2 == 0:
            rules.layout.allow(mask, "double")
        rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng):
        state.stack.pop()
        if segment == "double":
            state.total *= 2


class CounterRules(FrameRules):
    registry = REG
    layout = ActionLayout([("add", 2), ("double", 1), ("pass", 1)])

    def initial_state(self, rng):
        state = Counter(stack=[{"kind": "double", "player": 1}, {"kind": "to_doubling"},
                               {"kind": "add", "player": 0}])
        self.advance(state, rng)
        return state


def test_steps_run_and_pass_only_decisions_resolve_themselves():
    """A step runs at once; a decision whose only option is pass is skipped."""
    rules, rng = CounterRules(), np.random.default_rng(0)
    s = rules.initial_state(rng)
    assert rules.current_player(s) == 0 and rules.decision_name(s) == "add"
    s = rules.apply(s, rules.layout.encode("add", 1), rng)  # 2
    s = rules.apply(s, rules.layout.encode("add", 0), rng)  # 3
    s = rules.apply(s, rules.layout.encode("add", 1), rng)  # 5: odd, doubling skipped
    assert s.stack == [] and s.phase == "doubling" and rules.current_player(s) == -1


def test_a_real_choice_is_offered_and_apply_never_mutates_input():
    """An even total offers the doubling; apply returns a new state."""
    rules, rng = CounterRules(), np.random.default_rng(0)
    s = rules.initial_state(rng)
    for i in (1, 1, 1):  # 2, 4, 6
        s = rules.apply(s, rules.layout.encode("add", i), rng)
    assert rules.describe_decision(s) == "player_1 may double"
    before = s.copy()
    t = rules.apply(s, rules.layout.encode("double"), rng)
    assert t.total == 12 and s.total == before.total == 6


def test_illegal_action_message_names_the_decision_and_legal_choices():
    """IllegalActionError names the id, its meaning, the phase and the legal ids."""
    rules, rng = CounterRules(), np.random.default_rng(0)
    s = rules.initial_state(rng)
    with pytest.raises(IllegalActionError, match=r"illegal action 2 \(double\).*adding.*0=add"):
        rules.apply(s, 2, rng)


def test_a_kind_cannot_be_registered_twice():
    """Two frames with one kind would shadow each other: refused."""
    with pytest.raises(ValueError, match="twice"):
        REG.step("add")(lambda *a: None)
