"""Invariants of Origin checked after every step of random games."""

from __future__ import annotations

from primeval.envs.origin.rules.turn import end_condition
from primeval.envs.origin.state import EMPTY, NEUTRAL
from tests.envs.origin.builders import count_cards, count_tiles
from tests.helpers import play_checked_game


def pawn_copies(rules) -> list[int]:
    comps = rules.data.components
    return [2 if h == 2 and rules.num_players in comps.extra_medium_set_players else 1
            for h, _w, _c in comps.pawn_types]


def check_invariants(rules, state) -> None:
    """What must hold in every reachable position."""
    data, n = rules.data, rules.num_players
    comps, world = data.components, data.world
    # Cards and tiles.
    piles = [*state.decks, *state.hands, *state.permanents, *state.objectives_done,
             state.discard, *(f.get("dealt", ()) for f in state.stack)]
    assert sorted(c for pile in piles for c in pile) == list(range(len(data.cards))) == list(
        range(48)), "cards not conserved"
    assert count_cards(state) == 48
    assert count_tiles(state) == comps.num_tiles == 30, "tiles not conserved"
    for cols in state.columns:
        for col in cols:
            assert col == list(range(1, len(col) + 1)), f"badly stacked column {col}"
    # Pawns and villages.
    copies = pawn_copies(rules)
    assert sum(copies) == (36 if n == 4 else 27)
    for p, total in enumerate(copies):
        assert state.reserve[p] >= 0
        assert state.reserve[p] + state.pawn.count(p) == total, "pawns not conserved"
    origin = world.origin
    assert state.owner[origin] == NEUTRAL
    assert comps.pawn_types[state.pawn[origin]][:2] == (1, 1)
    for t in range(world.size):
        if t != origin:
            assert state.owner[t] in (EMPTY, *range(n)), "a pawn without an owning village"
            assert (state.pawn[t] == -1) == (state.owner[t] == EMPTY)
    for p in range(n):
        assert 0 <= state.villages[p] <= 9
        assert state.owner.count(p) + state.villages[p] == 9, "villages not conserved"
    # Tokens.
    greens = [t for t, terr in enumerate(world.territories) if terr.colour == "green"]
    assert sorted(state.hunt_value[t] for t in greens) == sorted(comps.hunting_tokens)
    assert all(state.hunt_value[t] == 0 and state.hunt_owner[t] == -1
               for t in range(world.size) if t not in greens)
    assert all(o in (-1, *range(n)) for o in state.hunt_owner)
    assert sorted(state.strait_value) == sorted(comps.strait_tokens)
    assert all(o in (-1, *range(n)) for o in state.strait_owner)
    assert all(state.hunt_owner[t] != -1 for t in greens if state.owner[t] != EMPTY), (
        "a pawn stands on a green territory whose hunting token is still there")
    if len(state.stack) == 1 and state.stack[0]["kind"] == "turn":  # nothing pending
        assert state.stack[0]["player"] == state.current
        for s, (a, b) in enumerate(world.straits):
            if state.owner[a] >= 0 and state.owner[a] == state.owner[b]:
                assert state.strait_owner[s] != -1, "a completed strait kept its token"
    # The end is latched as soon as a condition holds.
    if state.phase != "setup" and end_condition(rules, state) is not None:
        assert state.end_triggered, "an end condition holds but the end is not triggered"


def check_progress(rules, before, after, decision: str) -> None:
    """What may only grow: objective points, completed objectives, hunting tokens; strait
    tokens and tiles change hands only through the yellow cards that steal them."""
    for p in range(rules.num_players):
        assert after.objective_points[p] >= before.objective_points[p], "score went down"
        assert after.objectives_done[p][: len(before.objectives_done[p])] == \
            before.objectives_done[p]
        if decision != "steal_tile_column":
            assert len(after.tiles_of(p)) >= len(before.tiles_of(p)), "tiles lost"
    for o_before, o_after in zip(before.hunt_owner, after.hunt_owner, strict=True):
        assert o_before == -1 or o_after == o_before, "a hunting token changed hands"
    if decision != "claim_strait":
        for o_before, o_after in zip(before.strait_owner, after.strait_owner, strict=True):
            assert o_before == -1 or o_after == o_before, "a strait token changed hands"
    assert after.end_triggered or not before.end_triggered, "the end trigger was undone"


def play_random_game(rules, seed: int, check_input_kept: bool = True):
    """A seeded random game with every invariant and :func:`check_progress` checked, and
    exactly one final turn per player after the end trigger."""
    trigger_turn = None

    def check_step(before, after, decision) -> None:
        nonlocal trigger_turn
        check_progress(rules, before, after, decision)
        if after.end_triggered and trigger_turn is None:
            trigger_turn = before.turn

    state, steps = play_checked_game(rules, seed, check=lambda s: check_invariants(rules, s),
                                     check_step=check_step, check_input_kept=check_input_kept)
    assert trigger_turn is not None
    assert state.turn == trigger_turn + rules.num_players, "not one final turn per player"
    assert state.stack == []
    return state, steps
