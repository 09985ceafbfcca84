"""Where Evolve, Migrate and Swap may go (origin.md "Evolve", "Migrate" and "Swap").

Evolve puts a reserve pawn on an empty territory within reach of a compatible reference pawn;
Migrate moves a pawn to an empty territory at most its range in steps away; Swap moves a pawn
within its range onto another player's strictly thinner pawn. Each action has its options
(first choice -> second choices) and, for the turn menu, its first choices found without
listing every second choice. The decisions that carry the actions out are in ``turn``.
"""

from __future__ import annotations

from primeval.envs.origin.rules.effects import (
    bonus,
    evolve_changes,
    evolve_distance,
    free_straits,
    has_effect,
    range_bonus,
)
from primeval.envs.origin.rules.pawns import compatible_types, traits
from primeval.envs.origin.state import EMPTY, NEUTRAL, OriginState


def move_range(rules, state: OriginState, player: int, territory: int,
               extra: int | None = None) -> int:
    """Migrate/Swap range: the pawn's height plus :func:`range_bonus` (``extra``, when the
    caller has it already)."""
    h, _, _ = traits(rules, state.pawn[territory])
    return h + (range_bonus(rules, state, player) if extra is None else extra)


def evolve_options(rules, state: OriginState, player: int, only: int | None = None
                   ) -> dict[int, list[int]]:
    """Empty territory -> pawn types that may evolve there (reserve, village, reference);
    ``only``: just that territory."""
    setup = _evolve_setup(rules, state, player)
    if setup is None:
        return {}
    types, near, compatible_with = setup
    owner, pawn = state.owner, state.pawn
    options: dict[int, list[int]] = {}
    for target in range(len(owner)) if only is None else (only,):
        if owner[target] != EMPTY:
            continue
        allowed: set[int] = set()
        for ref in near[target]:  # a reference pawn: any pawn within reach
            if owner[ref] != EMPTY:
                allowed |= compatible_with[pawn[ref]]
        ok = [p for p in types if p in allowed]
        if ok:
            options[target] = ok
    return options


def evolve_targets(rules, state: OriginState, player: int) -> list[int]:
    """Evolve's first choices, ``list(evolve_options(...))``, found without listing every
    pawn type of every territory."""
    setup = _evolve_setup(rules, state, player)
    if setup is None:
        return []
    types, near, compatible_with = setup
    available = set(types)
    owner, pawn = state.owner, state.pawn
    # From the reference side: the pawns some available type is compatible with, then the
    # empty territories within reach of one of them (reach is symmetric).
    references = [ref for ref, o in enumerate(owner)
                  if o != EMPTY and not available.isdisjoint(compatible_with[pawn[ref]])]
    reached = {target for ref in references for target in near[ref]}
    return [target for target in sorted(reached) if owner[target] == EMPTY]


def _evolve_setup(rules, state: OriginState, player: int):
    """(reserve pawn types, territories within reach, compatible types per reference type),
    or None when the player cannot evolve (no village or no pawn left)."""
    if state.villages[player] <= 0:
        return None
    types = [p for p, n in enumerate(state.reserve) if n > 0]
    if not types:
        return None
    near = rules.data.world.within(evolve_distance(rules, state, player))
    compatible_with = compatible_types(rules.data.components.pawn_types,
                                       evolve_changes(rules, state, player))
    return types, near, compatible_with


def migrate_options(rules, state: OriginState, player: int, only: int | None = None
                    ) -> dict[int, list[int]]:
    """Own territory -> empty territories within the pawn's range. ``only``: just from
    that territory."""
    world, free = rules.data.world, free_straits(rules, state, player)
    extra_range = range_bonus(rules, state, player)
    empty = [t for t, o in enumerate(state.owner) if o == EMPTY]
    options = {}
    for src in state.territories_of(player) if only is None else (only,):
        reach = world.within(move_range(rules, state, player, src, extra_range), free)[src]
        dests = [t for t in empty if t in reach]
        if dests:
            options[src] = dests
    return options


def migrate_sources(rules, state: OriginState, player: int) -> list[int]:
    """Migrate's first choices, ``list(migrate_options(...))``: own pawns with an empty
    territory within range."""
    world, free = rules.data.world, free_straits(rules, state, player)
    extra_range = range_bonus(rules, state, player)
    empty = {t for t, o in enumerate(state.owner) if o == EMPTY}
    sources = []
    for src in state.territories_of(player):
        reach = move_range(rules, state, player, src, extra_range)
        if not empty.isdisjoint(world.within(reach, free)[src]):
            sources.append(src)
    return sources


def swap_options(rules, state: OriginState, player: int, only: int | None = None
                 ) -> dict[int, list[int]]:
    """Own territory -> territories of other players' strictly thinner pawns in range.
    ``only``: just from that territory."""
    world, free = rules.data.world, free_straits(rules, state, player)
    extra_range, extra_width, equal_ok, others = _swap_setup(rules, state, player)
    options = {}
    for src in state.territories_of(player) if only is None else (only,):
        reach = world.within(move_range(rules, state, player, src, extra_range), free)[src]
        width = traits(rules, state.pawn[src])[1] + extra_width
        dests = [t for t, other in others if t in reach and swappable(width, other, equal_ok)]
        if dests:
            options[src] = dests
    return options


def swap_sources(rules, state: OriginState, player: int) -> list[int]:
    """Swap's first choices, ``list(swap_options(...))``: own pawns with a pawn they may
    swap onto within range."""
    world, free = rules.data.world, free_straits(rules, state, player)
    extra_range, extra_width, equal_ok, others = _swap_setup(rules, state, player)
    targets: dict[int, set[int]] = {}  # pawn width -> the pawns it may swap onto
    sources = []
    for src in state.territories_of(player):
        width = traits(rules, state.pawn[src])[1] + extra_width
        if width not in targets:
            targets[width] = {t for t, other in others if swappable(width, other, equal_ok)}
        reach = move_range(rules, state, player, src, extra_range)
        if not targets[width].isdisjoint(world.within(reach, free)[src]):
            sources.append(src)
    return sources


def swappable(width: int, other: int, equal_ok: bool) -> bool:
    """A pawn ``width`` wide may swap onto a strictly thinner pawn, or onto one as wide with
    a ``swap_equal_width`` effect."""
    return other < width or (equal_ok and other == width)


def _swap_setup(rules, state: OriginState, player: int):
    """(range bonus, width bonus, ``swap_equal_width`` in force, ``(territory, pawn width)``
    of every other player's pawn) for the player's swaps."""
    pawn_types, pawn = rules.data.components.pawn_types, state.pawn
    others = [(t, pawn_types[pawn[t]][1]) for t, o in enumerate(state.owner)
              if o not in (EMPTY, NEUTRAL, player)]  # (territory, its pawn's width)
    return (range_bonus(rules, state, player),
            bonus(rules, state, player, "leadership", "width"),
            has_effect(rules, state, player, "swap_equal_width"), others)
