"""Primordial Soup (Ursuppe, Matthäus & Nestel 1997) for 3 or 4 players."""

from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.rules import PrimordialSoupRules

__all__ = ["PrimordialSoupConfig", "PrimordialSoupRules"]
