"""Tribe pawns and the evolution compatibility rule (origin.md "Pawns and villages" and
"Evolve").

A pawn type is (height, width, colour); a new pawn must be compatible with a reference pawn:
at most one trait differs (more with Mutation/Adaptation), and each differing trait is legal on
its own (any other colour, height +1, width +1).
"""

from __future__ import annotations

import functools


def traits(rules, pawn_type: int) -> tuple[int, int, int]:
    """(height, width, colour index) of a pawn type."""
    return rules.data.components.pawn_types[pawn_type]


def compatible(new: tuple[int, int, int], ref: tuple[int, int, int], changes: int) -> bool:
    """Evolution compatibility: at most ``changes`` traits differ (1 by the rules), and each
    differing trait is legal on its own: any other colour, height +1, width +1."""
    h, w, c = new
    rh, rw, rc = ref
    diffs = 0
    if h != rh:
        if h != rh + 1:
            return False
        diffs += 1
    if w != rw:
        if w != rw + 1:
            return False
        diffs += 1
    if c != rc:
        diffs += 1
    return diffs <= changes


@functools.lru_cache(maxsize=64)  # one entry per data set and change count
def compatible_types(pawn_types: tuple[tuple[int, int, int], ...], changes: int
                     ) -> tuple[frozenset[int], ...]:
    """Per reference pawn type, the pawn types :func:`compatible` with it."""
    return tuple(frozenset(p for p, new in enumerate(pawn_types)
                           if compatible(new, ref, changes)) for ref in pawn_types)
