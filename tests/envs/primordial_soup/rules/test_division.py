"""Rule tests for cell division (primordial_soup.md "Phase 4: Cell division").

Board layout A (primordial_soup.md "Board layout"), space ids::

        x=0  x=1  x=2  x=3  x=4
    y=0  ..    0   ..   ..   ..
    y=1   1    2    3    4    5
    y=2   6    7   ##    8    9
    y=3  10   11   12   13   14
    y=4  15   16   17   18   ..

Seat ``p`` has its ladder marker on space ``p + 1`` (descending order 3, 2, 1, 0).
"""

from __future__ import annotations

import pytest

from tests.envs.primordial_soup.builders import act, give_gene, put, run, table

ALL_SPACES = set(range(19))


def placements(rules, state) -> set[tuple[int, int]]:
    """Legal (amoeba number 1..7, space) placements."""
    result = set()
    for a in rules.legal_actions(state):
        segment, index = rules.layout.decode(a)
        if segment == "place_amoeba":
            result.add((index[0] + 1, index[1]))
    return result


def spaces(rules, state) -> set[int]:
    return {s for _, s in placements(rules, state)}


def numbers(rules, state) -> set[int]:
    return {n for n, _ in placements(rules, state)}


def place(rules, state, number: int, space: int):
    return act(rules, state, "place_amoeba", number - 1, space)


def divide(rules, state, player: int = 3):
    """Start the player's phase-4 turn (income, then division)."""
    return run(rules, state, {"kind": "division_income", "player": player})


def test_income_at_each_players_turn_in_descending_order():
    """primordial_soup.md "Phase 4: Cell division": each player receives +10 BP (at the start of
    their own turn), descending order; unspent BP carry over."""
    rules, state = table()
    state.players[0].score = 9                   # order: 0, 3, 2, 1
    for p in range(4):
        put(state, p, 1, 2 * p)
    run(rules, state, {"kind": "phase4"})
    assert state.phase == "cell_division"
    seen = []
    while state.stack:
        p = rules.current_player(state)
        seen.append((p, [ps.bp for ps in state.players]))
        state = act(rules, state, "pass")
    assert seen == [
        (0, [14, 4, 4, 4]),
        (3, [14, 4, 4, 14]),
        (2, [14, 4, 14, 14]),
        (1, [14, 14, 14, 14]),
    ]


def test_new_amoeba_costs_6_bp_and_enters_with_0_dp():
    """primordial_soup.md "Phase 4: Cell division": each new amoeba costs 6 BP and enters with 0
    DP."""
    rules, state = table()
    put(state, 3, 1, 2)
    put(state, 3, 2, 7)
    state.players[3].amoeba_damage[2] = 1        # stale damage on the spare amoeba #3
    divide(rules, state)
    state = place(rules, state, 3, 11)
    ps = state.players[3]
    assert ps.bp == 14 - 6
    assert ps.amoeba_space[2] == 11
    assert ps.amoeba_damage[2] == 0
    state = place(rules, state, 4, 6)
    assert state.players[3].bp == 2
    assert state.stack == []                     # 2 BP < 6: the turn ends by itself


def test_division_rate_costs_4_bp():
    """primordial_soup.md "Phase 4: Cell division" and "Division Rate": with Division Rate each
    new amoeba costs 4 BP."""
    rules, state = table()
    give_gene(state, 3, "division_rate")
    put(state, 3, 1, 2)
    put(state, 3, 2, 7)
    divide(rules, state)
    state = place(rules, state, 3, 11)
    state = place(rules, state, 4, 6)
    state = place(rules, state, 5, 1)
    assert state.players[3].bp == 14 - 12
    assert state.stack == []                     # 2 BP < 4


def test_no_division_without_enough_bp():
    """primordial_soup.md "Phase 4: Cell division": a new amoeba must be paid; with too few BP
    the player can only pass."""
    rules, state = table(income_bp=0)
    state.players[3].bp = 5
    put(state, 3, 1, 2)
    put(state, 3, 2, 7)
    divide(rules, state)
    assert state.stack == []
    assert state.players[3].bp == 5


def test_only_numbers_not_on_the_board():
    """primordial_soup.md "Phase 4: Cell division" and "Components": the new amoeba is one of
    the player's amoebas not on the board (dead ones may be placed again)."""
    rules, state = table()
    put(state, 3, 1, 2)
    put(state, 3, 3, 7)
    put(state, 3, 6, 11)
    divide(rules, state)
    assert numbers(rules, state) == {2, 4, 5, 7}
    state = place(rules, state, 2, 10)
    assert numbers(rules, state) == {4, 5, 7}


def test_space_without_own_amoebas_adjacent_to_own_foreign_allowed():
    """primordial_soup.md "Phase 4: Cell division": the space holds none of your own amoebas
    (foreign ones are allowed) and is orthogonally adjacent to one of yours; the island is not a
    neighbour.

        own: 2 and 7; foreign: 3 (seat 0) and 11 (seat 1)
        candidates: neighbours of 2 (0, 1, 3) and of 7 (6, 11), never 2 or 7 themselves
    """
    rules, state = table()
    put(state, 3, 1, 2)
    put(state, 3, 2, 7)
    put(state, 0, 1, 3)
    put(state, 1, 1, 11)
    divide(rules, state)
    assert spaces(rules, state) == {0, 1, 3, 6, 11}
    assert placements(rules, state) == {
        (n, s) for n in range(3, 8) for s in (0, 1, 3, 6, 11)
    }


def test_no_diagonal_adjacency():
    """primordial_soup.md "The board" and "Phase 4: Cell division": adjacency is orthogonal, not
    diagonal."""
    rules, state = table()
    put(state, 3, 1, 11)
    put(state, 3, 2, 12)
    divide(rules, state)
    assert spaces(rules, state) == {7, 10, 16, 13, 17}
    assert not spaces(rules, state) & {6, 8, 15, 18}


def test_adjacency_includes_newly_placed_amoebas():
    """primordial_soup.md "Phase 4: Cell division": a newly placed amoeba counts for the
    adjacency of the next one."""
    rules, state = table()
    state.players[3].bp = 10
    put(state, 3, 1, 2)
    put(state, 3, 2, 7)
    divide(rules, state)
    assert 16 not in spaces(rules, state)
    state = place(rules, state, 3, 11)
    assert spaces(rules, state) == {0, 1, 3, 6, 10, 12, 16}
    state = place(rules, state, 4, 16)
    assert {15, 17} <= spaces(rules, state)


def test_spores_place_anywhere_without_own_amoebas():
    """primordial_soup.md "Spores" and "Phase 4: Cell division": Spores removes the adjacency
    requirement (still no space with one of your own amoebas)."""
    rules, state = table()
    give_gene(state, 3, "spores")
    put(state, 3, 1, 2)
    put(state, 3, 2, 7)
    put(state, 0, 1, 18)
    divide(rules, state)
    assert spaces(rules, state) == ALL_SPACES - {2, 7}


def test_no_amoeba_on_the_board_first_one_free_anywhere():
    """primordial_soup.md "Phase 4: Cell division": with 0 amoebas on the board the first one is
    placed free, anywhere (also on a space with foreign amoebas)."""
    rules, state = table()
    put(state, 0, 1, 9)
    divide(rules, state)
    assert spaces(rules, state) == ALL_SPACES
    assert numbers(rules, state) == set(range(1, 8))
    state = place(rules, state, 5, 9)
    assert state.players[3].bp == 14
    assert state.players[3].amoeba_space[4] == 9


def test_free_first_amoeba_even_without_bp():
    """primordial_soup.md "Phase 4: Cell division": the first amoeba is free, so a player with
    no BP may still place it; the next ones cost the normal price."""
    rules, state = table(income_bp=0)
    state.players[3].bp = 0
    divide(rules, state)
    assert spaces(rules, state) == ALL_SPACES
    state = place(rules, state, 1, 0)
    assert state.players[3].bp == 0
    assert state.stack == []                     # the second would cost 6


def test_after_the_free_amoeba_the_next_costs_the_normal_price():
    """primordial_soup.md "Phase 4: Cell division": only the first amoeba is free; the second
    (with one on the board) costs 6 BP, and the third needs adjacency again."""
    rules, state = table()
    divide(rules, state)
    state = place(rules, state, 1, 0)
    assert state.players[3].bp == 14
    assert spaces(rules, state) == ALL_SPACES - {0}
    state = place(rules, state, 2, 18)
    assert state.players[3].bp == 8
    assert spaces(rules, state) == {2, 13, 17}


def test_exactly_one_amoeba_second_goes_anywhere_at_normal_cost():
    """primordial_soup.md "Phase 4: Cell division": with exactly 1 amoeba on the board the
    second may go anywhere (not on the own amoeba's space), at the normal cost; then adjacency
    applies again."""
    rules, state = table()
    put(state, 3, 4, 0)
    divide(rules, state)
    assert spaces(rules, state) == ALL_SPACES - {0}
    state = place(rules, state, 1, 14)
    assert state.players[3].bp == 8
    assert spaces(rules, state) == {2, 9, 13}


def test_exactly_one_amoeba_with_division_rate():
    """primordial_soup.md "Phase 4: Cell division": the "anywhere" second amoeba costs the
    normal price, 4 with Division Rate."""
    rules, state = table()
    give_gene(state, 3, "division_rate")
    put(state, 3, 4, 0)
    divide(rules, state)
    state = place(rules, state, 1, 14)
    assert state.players[3].bp == 10


@pytest.mark.parametrize("on_board", [6, 7])
def test_at_most_7_amoebas(on_board):
    """primordial_soup.md "Components": at most 7 amoebas per player; with all 7 on the board no
    division."""
    rules, state = table()
    state.players[3].bp = 50
    give_gene(state, 3, "spores")
    for number in range(1, on_board + 1):
        put(state, 3, number, number)
    divide(rules, state)
    if on_board == 6:
        assert numbers(rules, state) == {7}
        state = place(rules, state, 7, 18)
    assert state.stack == []
    assert len(state.players[3].amoebas_on_board()) == 7


def test_pass_keeps_unspent_bp():
    """primordial_soup.md "Phase 4: Cell division": dividing is optional; unspent BP carry over
    (no cap)."""
    rules, state = table()
    state.players[3].bp = 40
    put(state, 3, 1, 2)
    put(state, 3, 2, 7)
    divide(rules, state)
    state = act(rules, state, "pass")
    assert state.players[3].bp == 50
    assert state.stack == []
