"""Rule-based agents: one heuristic player per game, on a shared skeleton.

:class:`PrimordialSoupHeuristic` and :class:`OriginHeuristic` read the rules state
(``env.unwrapped.game_state``) and answer the pending decision with rules of thumb; both are
:class:`~primeval.training.agents.heuristics.base.RuleBasedAgent` subclasses (rules resolution,
seeding, the mask checks and the counted random fallback).
"""

from __future__ import annotations

from primeval.training.agents.heuristics.base import RuleBasedAgent
from primeval.training.agents.heuristics.origin import OriginHeuristic
from primeval.training.agents.heuristics.primordial_soup import PrimordialSoupHeuristic

#: The heuristic class of each game, by game name.
HEURISTICS: dict[str, type[RuleBasedAgent]] = {
    cls.game: cls for cls in (PrimordialSoupHeuristic, OriginHeuristic)
}

__all__ = ["HEURISTICS", "OriginHeuristic", "PrimordialSoupHeuristic", "RuleBasedAgent"]
