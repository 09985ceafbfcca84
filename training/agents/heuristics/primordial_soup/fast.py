"""The fast Primordial Soup heuristic: the reference's very choices, at a fraction of the cost.

:class:`PrimordialSoupHeuristic` overrides hot paths of
:class:`~primeval.training.agents.heuristics.primordial_soup.agent.ReferencePrimordialSoupHeuristic`
(the plain reference, kept beside it) with the reference's arithmetic in the reference's
order, so that every choice and every fallback draw is the same
(``tests/training/agents/heuristics/test_fast_equals_reference.py``).
"""

from __future__ import annotations

from primeval.training.agents.heuristics.primordial_soup.agent import (
    ReferencePrimordialSoupHeuristic,
)

__all__ = ["PrimordialSoupHeuristic"]


class PrimordialSoupHeuristic(ReferencePrimordialSoupHeuristic):
    """Rule-based Primordial Soup player, fast: the same choices and fallback draws as
    :class:`ReferencePrimordialSoupHeuristic`."""
