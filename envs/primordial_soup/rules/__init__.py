"""Primordial Soup rules, one module per part of the rulebook.

``setup`` (primordial_soup.md "Setup"), ``rounds`` (the six phases), ``movement`` and
``feeding`` (phase 1), ``attacks`` (Struggle, Aggression, Escape, Defense, Armor, Persistence),
``genes`` (phases 2-3), ``division`` (phase 4), ``death`` (phase 5), ``scoring`` (phase 6 and
the end).
"""

from primeval.envs.primordial_soup.rules.engine import PrimordialSoupRules

__all__ = ["PrimordialSoupRules"]
