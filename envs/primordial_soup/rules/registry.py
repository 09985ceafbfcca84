"""The two kinds of procedure frame: player decisions and automatic steps.

A *decision* frame waits for the acting player; its handler lists the legal actions and
applies the chosen one. A *step* frame is carried out at once (dice, income, deaths, ...).
Each rule module registers its frames here by kind, so a reader finds a rule by its name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from primeval.envs.primordial_soup.rules.engine import PrimordialSoupRules
    from primeval.envs.primordial_soup.state import Frame, GameState

LegalFn = Callable[["PrimordialSoupRules", "GameState", "Frame", np.ndarray], None]
ApplyFn = Callable[["PrimordialSoupRules", "GameState", "Frame", str, Any, np.random.Generator],
                   None]
StepFn = Callable[["PrimordialSoupRules", "GameState", "Frame", np.random.Generator], None]


@dataclass(frozen=True)
class Decision:
    """Handlers of one decision kind.

    ``legal`` marks the legal actions in a boolean mask. ``apply`` receives the decoded
    action (segment name and index) with the frame still on top of the stack, and must pop
    the frame when the decision is over.
    """

    kind: str
    describe: str
    legal: LegalFn
    apply: ApplyFn


DECISIONS: dict[str, Decision] = {}
STEPS: dict[str, StepFn] = {}


def decision(kind: str, describe: str) -> Callable[[type], type]:
    """Class decorator registering a decision kind with ``legal`` and ``apply`` static methods.

    ``describe`` is a format string over the frame's fields, e.g.
    ``"player_{player} chooses how amoeba #{amoeba_number} moves"``.
    """

    def register(cls: type) -> type:
        DECISIONS[kind] = Decision(kind, describe, cls.legal, cls.apply)
        return cls

    return register


def step(kind: str) -> Callable[[StepFn], StepFn]:
    """Function decorator registering an automatic step."""

    def register(fn: StepFn) -> StepFn:
        STEPS[kind] = fn
        return fn

    return register
