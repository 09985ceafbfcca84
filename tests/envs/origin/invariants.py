"""Invariants of Origin checked after every step of random games."""

from __future__ import annotations

from tests.envs.origin.builders import count_cards, count_tiles
from tests.helpers import play_checked_game


def pawn_copies(rules) -> list[int]:
    comps = rules.data.components
    return [2 if h == 2 and rules.num_players in comps.extra_medium_set_players else 1
            for h, _w, _c in comps.pawn_types]


def check_invariants(rules, state) -> None:
    """What must hold in every reachable position: the rules' own check (``check_state``,
    the one invariant checker), and the counts of the shipped components besides."""
    rules.check_state(state)
    comps = rules.data.components
    assert len(rules.data.cards) == count_cards(state) == 48, "cards not conserved"
    assert count_tiles(state) == comps.num_tiles == 30, "tiles not conserved"
    assert sum(pawn_copies(rules)) == (36 if rules.num_players == 4 else 27)
    for p, total in enumerate(pawn_copies(rules)):
        assert state.reserve[p] + state.pawn.count(p) == total, "pawns not conserved"


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
