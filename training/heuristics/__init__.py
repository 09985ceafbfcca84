"""Rule-based agents: one heuristic player per game, on a shared skeleton.

:class:`PrimordialSoupHeuristic` and :class:`OriginHeuristic` read the rules state
(``env.unwrapped.game_state``) and answer the pending decision with rules of thumb; both are
:class:`~primeval.training.heuristics.base.RuleBasedAgent` subclasses (rules resolution,
seeding, the mask checks and the counted random fallback).
"""

from __future__ import annotations

from primeval.training.heuristics.base import RuleBasedAgent
from primeval.training.heuristics.origin import OriginHeuristic
from primeval.training.heuristics.primordial_soup import PrimordialSoupHeuristic

__all__ = ["OriginHeuristic", "PrimordialSoupHeuristic", "RuleBasedAgent"]
