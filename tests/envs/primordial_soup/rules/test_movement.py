"""Rule tests: movement in phase 1 (primordial_soup.md "Compass and dice", "Basic genes" and
"Phase 1: Move and feed").

Board layout A (primordial_soup.md "Board layout"); ids are row-major, ``##`` is the island::

            x=0  x=1  x=2  x=3  x=4
    y=0 N    ..    0   ..   ..   ..
    y=1      1     2    3    4    5
    y=2      6     7   ##    8    9
    y=3     10    11   12   13   14
    y=4 S   15    16   17   18   ..

Die: 1=W 2=N 3=E 4=S 5=stay 6=free choice. The ``move`` choices are :class:`MoveChoice`, the
``direction`` choices the compass names of ``data`` (WEST, NORTH, EAST, SOUTH, STAY).
"""

from __future__ import annotations

import pytest

from primeval.envs.primordial_soup.actions import MEAL_INDEX, TAKE_INDEX, TAKES, MoveChoice
from primeval.envs.primordial_soup.data import EAST, NORTH, SOUTH, STAY, WEST
from tests.envs.primordial_soup.builders import (
    give_gene,
    pending,
    play,
    put,
    run,
    segment_options,
    set_cubes,
    table,
)


def card(rules, drift: str) -> int:
    """Index of an environment card with this drift (W/N/E/S/none)."""
    return next(i for i, c in enumerate(rules.config.environment_deck) if c[0] == drift)


def turn(rules, state, player: int = 0):
    """Start ``player``'s phase-1 amoeba turns (in a hand-built position)."""
    return run(rules, state, {"kind": "amoeba_turns", "player": player})


def space_of(state, player: int, number: int) -> int:
    return state.players[player].amoeba_space[number - 1]


# Drift -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("drift", "dest"), [("W", 12), ("N", 8), ("E", 14), ("S", 18)])
def test_drift_moves_one_space_in_the_drift_direction_for_free(drift, dest):
    """primordial_soup.md "Drift": one space in the drift direction of the environment card,
    at no cost::

        .   8   .            amoeba on 13
        12  13  14
        .   18  .
    """
    rules, state = table()
    put(state, 0, 1, 13)
    state.environment_card = card(rules, drift)
    turn(rules, state)
    assert segment_options(rules, state, "move") == {MoveChoice.DRIFT, MoveChoice.ACTIVE_MOVE}
    state = play(rules, state, "move", MoveChoice.DRIFT)
    assert pending(state) == ("feed", 0, 1)
    assert space_of(state, 0, 1) == dest
    assert state.players[0].bp == 4


@pytest.mark.parametrize(("space", "drift"), [(0, "W"), (0, "N"), (0, "E"), (14, "S"),
                                              (12, "N"), (7, "E"), (8, "W"), (3, "S")])
def test_drift_blocked_by_edge_or_island_stays(space, drift):
    """primordial_soup.md "Drift" and "The board": an edge or the island stops the drift and the
    amoeba stays (space 0 is the lone cell in the north row; 3, 7, 8, 12 touch the
    island)."""
    rules, state = table()
    put(state, 0, 1, space)
    state.environment_card = card(rules, drift)
    state = play(rules, turn(rules, state), "move", MoveChoice.DRIFT)
    assert pending(state) == ("feed", 0, 1)
    assert space_of(state, 0, 1) == space


def test_no_drift_card_means_drifting_stays():
    """primordial_soup.md "Environment cards" and "Phase 1: Move and feed": on the one
    environment card without current, drifting means staying put."""
    rules, state = table()
    put(state, 0, 1, 13)
    state.environment_card = card(rules, "none")
    state = play(rules, turn(rules, state), "move", MoveChoice.DRIFT)
    assert space_of(state, 0, 1) == 13
    assert state.players[0].bp == 4


# Active moves ------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "dest"), [(1, 12), (2, 8), (3, 14), (4, 18), (5, 13)])
def test_active_move_pays_1_bp_and_follows_the_die(face, dest):
    """primordial_soup.md "Compass and dice" and "Active move": pay 1 BP and roll: 1=W, 2=N,
    3=E, 4=S, 5=stay."""
    rules, state = table()
    put(state, 0, 1, 13)
    state.environment_card = card(rules, "W")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[face])
    assert pending(state) == ("feed", 0, 1)
    assert space_of(state, 0, 1) == dest
    assert state.players[0].bp == 3


def test_active_move_six_is_a_free_choice_including_stay():
    """primordial_soup.md "Compass and dice" (UNKNOWN, proposed default
    ``six_allows_stay=True``): a rolled 6 lets the player choose any of N, E, S, W or stay."""
    rules, state = table()
    put(state, 0, 1, 13)
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[6])
    assert pending(state) == ("direction", 0, 1)
    assert segment_options(rules, state, "direction") == {WEST, NORTH, EAST, SOUTH, STAY}
    moved = play(rules, state, "direction", NORTH)
    assert space_of(moved, 0, 1) == 8
    stayed = play(rules, state, "direction", STAY)
    assert space_of(stayed, 0, 1) == 13
    assert stayed.players[0].bp == 3


def test_active_move_six_without_stay_when_configured():
    """primordial_soup.md "Compass and dice" (strict reading, ``six_allows_stay=False``): a 6
    allows only the four directions."""
    rules, state = table(six_allows_stay=False)
    put(state, 0, 1, 13)
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[6])
    assert segment_options(rules, state, "direction") == {WEST, NORTH, EAST, SOUTH}


@pytest.mark.parametrize(("space", "face"), [(0, 1), (0, 2), (5, 3), (17, 4), (7, 3)])
def test_blocked_active_move_still_costs_the_bp(space, face):
    """primordial_soup.md "Active move": an obstacle (edge, island) stops the move; the amoeba stays
    and the BP is still spent."""
    rules, state = table()
    put(state, 0, 1, space)
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[face])
    assert space_of(state, 0, 1) == space
    assert state.players[0].bp == 3


def test_active_move_needs_a_bp():
    """primordial_soup.md "Active move" and "Components" (BP never negative): without BP only
    drifting is possible."""
    rules, state = table()
    put(state, 0, 1, 13)
    state.players[0].bp = 0
    turn(rules, state)
    assert segment_options(rules, state, "move") == {MoveChoice.DRIFT}


def test_streamlining_active_move_is_free():
    """primordial_soup.md "Streamlining": active moves cost no BP, so even a player with 0 BP may
    move actively."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "streamlining")
    state.players[0].bp = 0
    turn(rules, state)
    assert segment_options(rules, state, "move") == {MoveChoice.DRIFT, MoveChoice.ACTIVE_MOVE}
    state = play(rules, state, "move", MoveChoice.ACTIVE_MOVE, dice=[3])
    assert space_of(state, 0, 1) == 14
    assert state.players[0].bp == 0


# Movement I / II ---------------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "choices"), [
    ((1, 3), {WEST, EAST}),
    ((2, 5), {NORTH, STAY}),
    ((4, 6), {WEST, NORTH, EAST, SOUTH, STAY}),
])
def test_movement_1_rolls_two_dice_and_uses_either(dice, choices):
    """primordial_soup.md "Movement I": roll 2 dice and use either result (a 6 is a free choice);
    the cost stays 1 BP."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "movement_1")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=dice)
    assert pending(state) == ("direction", 0, 1)
    assert segment_options(rules, state, "direction") == choices
    assert state.players[0].bp == 3
    state = play(rules, state, "direction", min(choices))
    assert space_of(state, 0, 1) == rules.board.neighbours[13][min(choices)]


def test_movement_1_equal_dice_leave_no_choice():
    """primordial_soup.md "Movement I": two equal faces give one direction, taken at once."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "movement_1")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[4, 4])
    assert pending(state) == ("feed", 0, 1)
    assert space_of(state, 0, 1) == 18


def test_movement_2_free_choice_including_stay_without_a_roll():
    """primordial_soup.md "Movement II": choose any direction or stay, no roll (no die is scripted,
    so a roll would fail the test); the move still costs 1 BP."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "movement_2")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE)
    assert segment_options(rules, state, "direction") == {WEST, NORTH, EAST, SOUTH, STAY}
    assert state.players[0].bp == 3
    assert space_of(play(rules, state, "direction", SOUTH), 0, 1) == 18
    assert space_of(play(rules, state, "direction", STAY), 0, 1) == 13


# Speed -------------------------------------------------------------------------------------


@pytest.mark.parametrize("gene", ["speed", "persistence"])
def test_speed_second_move_without_extra_bp_then_feeds_once(gene):
    """primordial_soup.md "Speed" (Persistence does everything Speed does): a second active move
    from where the first ended, with a fresh roll and no extra BP; the amoeba feeds once, on the
    final space::

        12 <- 13        first move W (die 1)
        |
        17              second move S (die 4)
    """
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, gene)
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[1])
    assert pending(state) == ("move_again", 0, 1)
    assert space_of(state, 0, 1) == 12
    assert segment_options(rules, state, "move_again") == {0}
    state = play(rules, state, "move_again", dice=[4])
    assert space_of(state, 0, 1) == 17
    assert state.players[0].bp == 3
    assert pending(state) == ("feed", 0, 1)
    assert [f["kind"] for f in state.stack].count("feed") == 1
    state = play(rules, state, "eat", MEAL_INDEX[(1, 1, 1)])
    assert state.stack == []
    assert state.cubes[17] == [4, 1, 1, 1]


def test_speed_second_move_is_optional():
    """primordial_soup.md "Speed": the amoeba *may* move twice; declining keeps the first move."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "speed")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[3])
    state = play(rules, state, "pass")
    assert pending(state) == ("feed", 0, 1)
    assert space_of(state, 0, 1) == 14


def test_speed_no_second_move_after_drift():
    """primordial_soup.md "Speed": no double drift and no drift+move mix."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "speed")
    state.environment_card = card(rules, "W")
    state = play(rules, turn(rules, state), "move", MoveChoice.DRIFT)
    assert pending(state) == ("feed", 0, 1)
    assert space_of(state, 0, 1) == 12


# Holding -----------------------------------------------------------------------------------


def test_holding_may_stay_instead_of_moving():
    """primordial_soup.md "Holding" (first function) and "Phase 1: Move and feed": stay in place
    instead of drifting or moving, for free. Without Holding there is no such choice."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 1, "holding")
    state.environment_card = card(rules, "W")
    assert segment_options(rules, turn(rules, state.copy(), 0), "move") == {MoveChoice.DRIFT, MoveChoice.ACTIVE_MOVE}
    turn(rules, state, 1)
    assert segment_options(rules, state, "move") == {MoveChoice.DRIFT, MoveChoice.ACTIVE_MOVE, MoveChoice.HOLD}
    state = play(rules, state, "move", MoveChoice.HOLD)
    assert pending(state) == ("feed", 1, 1)
    assert space_of(state, 1, 1) == 13
    assert state.players[1].bp == 4


def test_holding_clings_to_an_opposing_amoeba_leaving_the_space():
    """primordial_soup.md "Holding" (second function): when an opposing amoeba leaves the space, the
    Holding amoeba may cling to it and moves along; its owner decides::

        12 <- 13      player 0's amoeba drifts W; player 1's Holding amoeba clings
    """
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 1, "holding")
    state.environment_card = card(rules, "W")
    state = play(rules, turn(rules, state), "move", MoveChoice.DRIFT)
    assert pending(state) == ("cling", 1, 1)
    assert rules.current_player(state) == 1
    assert segment_options(rules, state, "cling") == {0}
    clung = play(rules, state, "cling")
    assert (space_of(clung, 0, 1), space_of(clung, 1, 1)) == (12, 12)
    assert pending(clung) == ("feed", 0, 1)
    assert clung.players[1].bp == 4
    let_go = play(rules, state, "pass")
    assert (space_of(let_go, 0, 1), space_of(let_go, 1, 1)) == (12, 13)


def test_holding_does_not_follow_own_amoebas_by_default():
    """primordial_soup.md "Holding" and "Where the user's summary differs" (Holding: only an
    *opposing* amoeba, the rulebook reading)."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 0, 2, 13)
    give_gene(state, 0, "holding")
    state.environment_card = card(rules, "W")
    state = play(rules, turn(rules, state), "move", MoveChoice.DRIFT)
    assert pending(state) == ("feed", 0, 1)
    assert (space_of(state, 0, 1), space_of(state, 0, 2)) == (12, 13)


def test_holding_follows_own_amoebas_with_the_seed_reading():
    """primordial_soup.md "Where the user's summary differs" (seed reading,
    ``holding_follows_own=True``): Holding may follow one's own amoebas too."""
    rules, state = table(holding_follows_own=True)
    put(state, 0, 1, 13)
    put(state, 0, 2, 13)
    give_gene(state, 0, "holding")
    state.environment_card = card(rules, "W")
    state = play(rules, turn(rules, state), "move", MoveChoice.DRIFT)
    assert pending(state) == ("cling", 0, 2)
    state = play(rules, state, "cling")
    assert (space_of(state, 0, 1), space_of(state, 0, 2)) == (12, 12)


def test_holding_cling_is_declared_after_the_movers_tentacle_cubes():
    """primordial_soup.md "Holding": the cling is declared after the move direction is fixed and
    after the mover's Tentacle cubes are known."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 0, "tentacle")
    give_gene(state, 1, "holding")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[1])
    assert pending(state) == ("tentacle", 0, 1)
    state = play(rules, state, "tentacle", TAKE_INDEX[(0, 2, 0, 0)])
    assert pending(state) == ("cling", 1, 1)
    relocation = next(f for f in state.stack if f["kind"] == "relocate")
    assert relocation["dest"] == 12 and relocation["carry"] == (0, 2, 0, 0)
    state = play(rules, state, "cling")
    assert (space_of(state, 0, 1), space_of(state, 1, 1)) == (12, 12)
    assert state.cubes[13] == [2, 0, 2, 2]
    assert state.cubes[12] == [2, 4, 2, 2]


def test_holding_with_tentacle_the_clinging_amoeba_takes_cubes_along_too():
    """primordial_soup.md "Holding" and "Tentacle" (the user's summary and the Z-Man FAQ; the
    default ``holding_tentacle=True``): an amoeba clinging to a leaving amoeba still uses its
    own Tentacle. It decides right after its cling, up to its own limit, among the cubes the
    mover's Tentacle left on the space; all of them arrive with the amoebas::

        12 <- 13      player 0 moves W taking 2 of colour 1; player 1 clings and takes
                      1 of colour 2 and 2 of colour 3 (its relative +1 and +2)
    """
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 0, "tentacle")
    give_gene(state, 1, "holding")
    give_gene(state, 1, "tentacle")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[1])
    state = play(rules, state, "tentacle", TAKE_INDEX[(0, 2, 0, 0)])
    assert pending(state) == ("cling", 1, 1)
    state = play(rules, state, "cling")
    assert pending(state) == ("tentacle", 1, 1)
    assert rules.current_player(state) == 1
    # player 1's relative colours: +0 = 1 (none left: the mover took both), +1 = 2, +2 = 3,
    # +3 = 0
    options = tentacle_options(rules, state)
    assert max(sum(t) for t in options) == 3
    assert all(t[0] == 0 for t in options)
    assert (0, 1, 2, 0) in options
    state = play(rules, state, "tentacle", TAKE_INDEX[(0, 1, 2, 0)])
    assert (space_of(state, 0, 1), space_of(state, 1, 1)) == (12, 12)
    assert state.cubes[13] == [2, 0, 1, 0]
    assert state.cubes[12] == [2, 4, 3, 4]
    assert pending(state) == ("feed", 0, 1)


def test_holding_with_tentacle_takes_nothing_with_the_v0_reading():
    """primordial_soup.md "Holding" (``holding_tentacle=False``, the v0 reading): only the mover
    takes cubes; the clinging amoeba's Tentacle is not asked."""
    rules, state = table(holding_tentacle=False)
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 1, "holding")
    give_gene(state, 1, "tentacle")
    state.environment_card = card(rules, "W")
    state = play(rules, turn(rules, state), "move", MoveChoice.DRIFT)
    state = play(rules, state, "cling")
    assert pending(state) == ("feed", 0, 1)
    assert state.cubes[13] == [2, 2, 2, 2]


def test_holding_with_tentacle_not_asked_when_the_mover_took_every_cube():
    """primordial_soup.md "Holding" and "Tentacle" (no dead ends): the clinging amoeba's
    Tentacle is asked only when a cube is left on the space, and letting go asks nothing."""
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    set_cubes(state, 13, [0, 2, 1, 0])
    give_gene(state, 0, "tentacle")
    give_gene(state, 1, "holding")
    give_gene(state, 1, "tentacle")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[1])
    let_go = play(rules, state, "tentacle", TAKE_INDEX[(0, 2, 1, 0)])
    state = play(rules, let_go, "cling")
    assert pending(state) == ("feed", 0, 1)
    assert state.cubes[12] == [2, 4, 3, 2]
    assert pending(play(rules, let_go, "pass")) == ("feed", 0, 1)


def test_clinging_amoeba_takes_its_own_turn_later_from_the_new_space():
    """primordial_soup.md "Relocation: Tentacle and Holding" (UNKNOWN, proposed default): an
    amoeba carried by Holding does not feed at the new space at once; it still takes its own
    phase-1 turn later, from there::

        11 <- 12 <- 13    player 0 drifts 13->12 carrying player 1's amoeba, which
                          later drifts on 12->11 in its own turn
    """
    rules, state = table()
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 1, "holding")
    state.environment_card = card(rules, "W")
    state = run(rules, state, {"kind": "phase1"})
    assert pending(state) == ("move", 0, 1)
    state = play(rules, state, "move", MoveChoice.DRIFT)
    state = play(rules, state, "cling")
    assert pending(state) == ("feed", 0, 1)
    state = play(rules, state, "eat", MEAL_INDEX[(1, 1, 1)])
    assert pending(state) == ("move", 1, 1)
    assert space_of(state, 1, 1) == 12
    state = play(rules, state, "move", MoveChoice.DRIFT)
    assert space_of(state, 1, 1) == 11
    assert pending(state) == ("feed", 1, 1)


def test_clinging_amoeba_that_already_moved_gets_no_second_turn():
    """primordial_soup.md "Phase 1: Move and feed" and "Relocation: Tentacle and Holding": each
    amoeba takes one phase-1 turn; one carried by Holding after its own turn does not move or
    feed again."""
    rules, state = table()
    state.players[0].score, state.players[1].score = 2, 1  # player 1 goes first
    put(state, 0, 1, 11)
    put(state, 1, 1, 12)
    give_gene(state, 1, "holding")
    state.environment_card = card(rules, "W")
    state = run(rules, state, {"kind": "phase1"})
    assert pending(state) == ("move", 1, 1)
    state = play(rules, state, "move", MoveChoice.DRIFT)  # 12 -> 11, onto player 0's amoeba
    state = play(rules, state, "eat", MEAL_INDEX[(1, 1, 1)])
    assert pending(state) == ("move", 0, 1)
    state = play(rules, state, "move", MoveChoice.DRIFT)  # 11 -> 10, player 1 clings
    state = play(rules, state, "cling")
    state = play(rules, state, "eat", MEAL_INDEX[(1, 1, 1)])
    assert state.stack == []
    assert (space_of(state, 0, 1), space_of(state, 1, 1)) == (10, 10)


def test_relocated_amoeba_feeds_at_once_when_configured():
    """primordial_soup.md "Relocation: Tentacle and Holding" (UNKNOWN;
    ``relocated_amoeba_feeds=True``, the non-default reading): an amoeba carried by Holding
    feeds at its new space at once."""
    rules, state = table(relocated_amoeba_feeds=True)
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 1, "holding")
    state.environment_card = card(rules, "W")
    state = run(rules, state, {"kind": "phase1"})
    state = play(rules, state, "move", MoveChoice.DRIFT)
    state = play(rules, state, "cling")
    seen = []
    while state.stack and pending(state) != ("move", 1, 1):
        seen.append(pending(state))
        state = play(rules, state, "eat", MEAL_INDEX[(1, 1, 1)])
    assert ("feed", 1, 1) in seen


def test_relocated_amoeba_feeding_replaces_its_later_turn():
    """primordial_soup.md "Relocation: Tentacle and Holding" (UNKNOWN;
    ``relocated_amoeba_feeds=True``): the carried amoeba feeds once at its new space and does
    not take its own phase-1 turn afterwards."""
    rules, state = table(relocated_amoeba_feeds=True)
    put(state, 0, 1, 13)
    put(state, 1, 1, 13)
    give_gene(state, 1, "holding")
    state.environment_card = card(rules, "W")
    state = run(rules, state, {"kind": "amoeba_turns", "player": 0})
    state = play(rules, state, "move", MoveChoice.DRIFT)
    state = play(rules, state, "cling")
    assert pending(state) == ("feed", 1, 1)  # the carried amoeba feeds first, at space 12
    assert state.players[1].amoeba_space[0] == 12
    state = play(rules, state, "eat", MEAL_INDEX[(1, 1, 1)])
    assert pending(state) == ("feed", 0, 1)  # then the mover's own feeding
    state = play(rules, state, "eat", MEAL_INDEX[(1, 1, 1)])
    assert state.players[1].amoeba_done[0]
    state = run(rules, state, {"kind": "amoeba_turns", "player": 1})
    assert not state.stack  # player 1's amoeba already had its turn


# Tentacle ----------------------------------------------------------------------------------


def tentacle_options(rules, state) -> set[tuple[int, ...]]:
    return {TAKES[i] for i in segment_options(rules, state, "tentacle")}


def test_tentacle_takes_up_to_3_cubes_in_4p():
    """primordial_soup.md "Tentacle": on relocating, take up to 3 cubes (any colours present) from
    the space left, for free; taking none is allowed."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "tentacle")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[3])
    assert pending(state) == ("tentacle", 0, 1)
    options = tentacle_options(rules, state)
    assert max(sum(t) for t in options) == 3
    assert options == {t for t in TAKES if sum(t) <= 3 and max(t) <= 2}
    assert "pass" in {rules.layout.describe(a) for a in rules.legal_actions(state)}


def test_tentacle_takes_up_to_2_cubes_in_3p():
    """primordial_soup.md "Tentacle": 2 cubes at most in a 3-player game (and no fourth colour)."""
    rules, state = table(num_players=3)
    put(state, 0, 1, 13)
    give_gene(state, 0, "tentacle")
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[3])
    options = tentacle_options(rules, state)
    assert options == {t for t in TAKES if sum(t) <= 2 and t[3] == 0}


def test_tentacle_only_cubes_present():
    """primordial_soup.md "Tentacle": only cubes that are on the space left can be taken."""
    rules, state = table()
    put(state, 0, 1, 13)
    give_gene(state, 0, "tentacle")
    set_cubes(state, 13, [0, 1, 0, 2])
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[3])
    assert tentacle_options(rules, state) == {
        (0, 1, 0, 0), (0, 0, 0, 1), (0, 0, 0, 2), (0, 1, 0, 1), (0, 1, 0, 2)}


def test_tentacle_cubes_are_carried_to_the_new_space_on_drift():
    """primordial_soup.md "Tentacle": whenever the amoeba is relocated, drift included, the taken
    cubes move with it. Colours in the take are relative to the mover (player 2 here:
    +0 = colour 2, +1 = colour 3, +2 = colour 0)."""
    rules, state = table()
    put(state, 2, 1, 13)
    give_gene(state, 2, "tentacle")
    state.environment_card = card(rules, "S")
    state = play(rules, turn(rules, state, 2), "move", MoveChoice.DRIFT)
    assert pending(state) == ("tentacle", 2, 1)
    state = play(rules, state, "tentacle", TAKE_INDEX[(1, 0, 2, 0)])
    assert space_of(state, 2, 1) == 18
    assert state.cubes[13] == [0, 2, 1, 2]
    assert state.cubes[18] == [4, 2, 3, 2]


def test_tentacle_not_offered_when_the_move_is_blocked_or_the_space_is_empty():
    """primordial_soup.md "Tentacle": cubes are taken only when the amoeba is relocated, and only
    if there are cubes to take."""
    rules, state = table()
    put(state, 0, 1, 0)
    put(state, 0, 2, 13)
    give_gene(state, 0, "tentacle")
    set_cubes(state, 13, [0, 0, 0, 0])
    state = play(rules, turn(rules, state), "move", MoveChoice.ACTIVE_MOVE, dice=[2])  # 0: north edge
    assert pending(state) == ("feed", 0, 1)
    state = play(rules, state, "eat", MEAL_INDEX[(1, 1, 1)])
    state = play(rules, state, "move", MoveChoice.ACTIVE_MOVE, dice=[3])  # 13 -> 14, nothing to take
    assert pending(state) == ("feed", 0, 2)
    assert space_of(state, 0, 2) == 14


# Order of play -----------------------------------------------------------------------------


def test_phase_1_amoebas_in_number_order_players_ascending():
    """primordial_soup.md "Phase 1: Move and feed" and "Order of play": ascending order (the
    last-placed player first); each player finishes all their amoebas in numerical order before
    the next."""
    rules, state = table()
    for p, score in enumerate([3, 1, 4, 2]):  # ascending: 1, 3, 0, 2
        state.players[p].score = score
    for p, number, space in [(1, 5, 0), (1, 2, 1), (3, 1, 5), (0, 7, 10), (0, 3, 14),
                             (2, 4, 18)]:
        put(state, p, number, space)
    for space in range(19):  # no food anywhere: every amoeba starves without a choice
        set_cubes(state, space, [0, 0, 0, 0])
    state.environment_card = card(rules, "none")
    state = run(rules, state, {"kind": "phase1"})
    order = []
    while state.stack:
        kind, player, number = pending(state)
        assert kind == "move"
        order.append((player, number))
        state = play(rules, state, "move", MoveChoice.DRIFT)
    assert order == [(1, 2), (1, 5), (3, 1), (0, 3), (0, 7), (2, 4)]
    assert all(d == 1 for ps in state.players for sp, d in
               zip(ps.amoeba_space, ps.amoeba_damage, strict=True) if sp >= 0)
