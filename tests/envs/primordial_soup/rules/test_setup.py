"""Rule tests: setup (primordial_soup.md "The scoring ladder" and "Setup"), the board
(primordial_soup.md "The board") and the engine contract.

Board layout A (primordial_soup.md "Board layout"), the default; ids are row-major, ``##`` is
the island::

            x=0  x=1  x=2  x=3  x=4
    y=0 N    ..    0   ..   ..   ..
    y=1      1     2    3    4    5
    y=2      6     7   ##    8    9
    y=3     10    11   12   13   14
    y=4 S   15    16   17   18   ..
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.primordial_soup.data import GENE_INDEX, GENES
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from tests.envs.primordial_soup.builders import (
    ScriptedDice,
    assert_conserved,
    play,
    put,
    run,
    segment_options,
    table,
)

#: Environment card drawn by the scripted setup rolls (index into the default deck).
SETUP_CARD = 5


def new_game(num_players: int, rolls: list[int], **config):
    """Rules and the initial state with scripted rolls: the environment card first, then the
    start-order dice (2 per player, re-rolls after)."""
    rules = PrimordialSoupRules(num_players=num_players, **config)
    rng = ScriptedDice([SETUP_CARD, *rolls])
    state = rules.initial_state(rng)
    assert rng.values == [], f"dice not rolled: {rng.values}"
    return rules, state


def choose_start_spaces(rules, state, spaces: list[int]):
    """Each chooser in turn takes the given ladder space; returns the state and who chose."""
    choosers = []
    for space in spaces:
        choosers.append(rules.current_player(state))
        state = play(rules, state, "start_space", space - 1)
    return state, choosers


# Start spaces ------------------------------------------------------------------------------


def test_start_order_highest_roll_chooses_first():
    """primordial_soup.md "Start positions": everyone rolls 2 dice; the highest roller picks a
    ladder start space first, then the 2nd highest, and so on."""
    # p0 rolls 2, p1 12, p2 7, p3 5  ->  p1, p2, p3, p0
    rules, state = new_game(4, [1, 1, 6, 6, 3, 4, 2, 3])
    assert rules.decision_name(state) == "start_space"
    state, choosers = choose_start_spaces(rules, state, [3, 1, 4, 2])
    assert choosers == [1, 2, 3, 0]
    assert [ps.score for ps in state.players] == [2, 3, 1, 4]


def test_start_order_tie_is_rerolled_by_the_tied_players_only():
    """primordial_soup.md "Start positions": ties re-roll. Only the tied players roll again."""
    # first roll: p0 7, p1 12, p2 7, p3 3; re-roll of p0 and p2: p0 3, p2 10
    rules, state = new_game(4, [3, 4, 6, 6, 2, 5, 1, 2, 1, 2, 5, 5])
    _, choosers = choose_start_spaces(rules, state, [1, 2, 3, 4])
    assert choosers == [1, 2, 0, 3]


def test_start_order_tie_in_the_reroll_is_rerolled_again():
    """primordial_soup.md "Start positions": ties re-roll, as often as needed (three-way tie, then a
    two-way tie among the re-rollers)."""
    # first roll: 8, 8, 8, 12; re-roll of p0..p2: 5, 5, 9; re-roll of p0, p1: 2, 6
    rules, state = new_game(
        4, [4, 4, 2, 6, 3, 5, 6, 6] + [2, 3, 1, 4, 3, 6] + [1, 1, 3, 3])
    _, choosers = choose_start_spaces(rules, state, [1, 2, 3, 4])
    assert choosers == [3, 2, 1, 0]


def test_start_order_two_separate_ties():
    """primordial_soup.md "Start positions": two separate ties (7-7 and 9-9) are each re-rolled; the
    re-rolls only order the players within their tie."""
    # first roll: p0 7, p1 7, p2 9, p3 9; each tie re-rolls 12 against 2 (first player wins)
    rules, state = new_game(4, [3, 4, 2, 5, 4, 5, 3, 6] + [6, 6, 1, 1] * 2)
    _, choosers = choose_start_spaces(rules, state, [1, 2, 3, 4])
    assert choosers == [2, 3, 0, 1]


@pytest.mark.parametrize("num_players", [3, 4])
def test_start_spaces_are_a_free_choice_among_free_spaces(num_players):
    """primordial_soup.md "Start positions": markers go on ladder spaces 1..4 (1..3 with 3 players);
    each chooser picks any space still free."""
    rolls = [6, 6, 5, 5, 4, 4, 3, 3][: 2 * num_players]
    rules, state = new_game(num_players, rolls)
    assert segment_options(rules, state, "start_space") == set(range(num_players))
    state = play(rules, state, "start_space", 1)  # ladder space 2
    assert segment_options(rules, state, "start_space") == set(range(num_players)) - {1}
    assert state.players[0].score == 2


# Start amoebas -----------------------------------------------------------------------------


def place_all_start_amoebas(rules, state, spaces: list[int]):
    """Place start amoebas on the given spaces in decision order (each player's lowest free
    number); returns the state and the (player, damage of the placed amoeba) sequence."""
    placed = []
    for space in spaces:
        assert rules.decision_name(state) == "place_start"
        player = rules.current_player(state)
        number = state.players[player].amoeba_space.index(-1)
        state = play(rules, state, "place_amoeba", number, space)
        placed.append((player, state.players[player].amoeba_damage[number]))
    return state, placed


def test_start_amoebas_4p_first_ascending_with_1_dp_then_descending_with_0():
    """primordial_soup.md "Setup" steps 6-7 (4p): in ascending ladder order (space 1 first) each
    player places a first amoeba with 1 DP; then in descending order a second one with 0 DP."""
    rules, state = new_game(4, [6, 6, 5, 5, 4, 4, 3, 3])
    # ladder: p0 on 3, p1 on 1, p2 on 4, p3 on 2  ->  ascending p1 p3 p0 p2
    state, _ = choose_start_spaces(rules, state, [3, 1, 4, 2])
    state, placed = place_all_start_amoebas(rules, state, [0, 5, 15, 14, 7, 8, 11, 13])
    assert placed == [(1, 1), (3, 1), (0, 1), (2, 1), (2, 0), (0, 0), (3, 0), (1, 0)]


def test_start_amoebas_3p_first_one_has_no_damage():
    """primordial_soup.md "Setup" step 6 (3p): the first start amoeba gets no DP in a 3-player
    game."""
    rules, state = new_game(3, [6, 6, 5, 5, 4, 4])
    state, _ = choose_start_spaces(rules, state, [1, 2, 3])
    state, placed = place_all_start_amoebas(rules, state, [0, 5, 15, 14, 7, 8])
    assert placed == [(0, 0), (1, 0), (2, 0), (2, 0), (1, 0), (0, 0)]


def test_start_amoeba_any_number_on_a_space_with_no_amoeba():
    """primordial_soup.md "Setup" steps 6-8: a start amoeba, any number 1..7, goes on a space
    with no amoeba at all (own or foreign); after setup no space holds more than one amoeba."""
    rules, state = new_game(4, [6, 6, 5, 5, 4, 4, 3, 3])
    state, _ = choose_start_spaces(rules, state, [1, 2, 3, 4])
    first = rules.current_player(state)
    assert segment_options(rules, state, "place_amoeba") == {
        (number, space) for number in range(7) for space in range(19)}
    state = play(rules, state, "place_amoeba", 6, 7)  # amoeba #7 on space 7
    assert state.players[first].amoeba_space[6] == 7
    options = segment_options(rules, state, "place_amoeba")
    assert {space for _, space in options} == set(range(19)) - {7}
    assert {number for number, _ in options} == set(range(7))
    state, _ = place_all_start_amoebas(rules, state, [0, 1, 2, 3, 4, 5, 6])
    spaces = [sp for ps in state.players for sp in ps.amoeba_space if sp >= 0]
    assert len(spaces) == 8 and len(set(spaces)) == 8


def test_start_amoeba_not_on_a_space_where_an_own_amoeba_stands():
    """primordial_soup.md "Setup" step 7: the second start amoeba also needs a space with no
    amoeba, so it cannot join the player's own first amoeba."""
    rules, state = new_game(3, [6, 6, 5, 5, 4, 4])
    state, _ = choose_start_spaces(rules, state, [1, 2, 3])
    state, _ = place_all_start_amoebas(rules, state, [0, 5, 15])
    # the last of the ascending placements (player on ladder space 3) places again first
    player = rules.current_player(state)
    own = state.players[player].amoeba_space
    assert 15 in own
    assert {space for _, space in segment_options(rules, state, "place_amoeba")} == \
        set(range(19)) - {0, 5, 15}


def test_after_setup_round_1_starts_with_the_last_placed_players_first_move():
    """primordial_soup.md "Setup" and "Phase 1: Move and feed": after the start amoebas round 1
    begins; phase 1 is ascending, so the player on ladder space 1 moves first, with its
    lowest-numbered amoeba."""
    rules, state = new_game(4, [6, 6, 5, 5, 4, 4, 3, 3])
    state, _ = choose_start_spaces(rules, state, [2, 4, 1, 3])  # p2 is on space 1
    state, _ = place_all_start_amoebas(rules, state, [0, 5, 15, 14, 7, 8, 11, 13])
    assert state.round == 1 and state.phase == "movement_and_feeding"
    assert rules.decision_name(state) == "move"
    assert rules.current_player(state) == 2
    assert state.stack[-1]["amoeba"] == 0


# Table -------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [3, 4])
def test_setup_cubes_two_of_each_colour_in_play_per_space(num_players):
    """primordial_soup.md "Setup" step 2: 2 cubes of each colour in play on each of the 19
    spaces; 55 per colour in all, so 17 of each stay in the supply. Colours not in play are
    removed."""
    rules, state = new_game(num_players, [6, 6, 5, 5, 4, 4, 3, 3][: 2 * num_players])
    assert len(state.cubes) == 19
    assert all(space == [2] * num_players for space in state.cubes)
    assert state.supply == [17] * num_players
    assert_conserved(rules, state)


@pytest.mark.parametrize("num_players", [3, 4])
def test_setup_each_player_has_4_bp_and_no_genes(num_players):
    """primordial_soup.md "Setup" step 1: each player takes one colour, its 7 amoebas and 4 BP."""
    _, state = new_game(num_players, [6, 6, 5, 5, 4, 4, 3, 3][: 2 * num_players])
    for ps in state.players:
        assert ps.bp == 4
        assert ps.genes == {}
        assert len(ps.amoeba_space) == 7
        assert all(space == -1 for space in ps.amoeba_space)


@pytest.mark.parametrize(("num_players", "cards"), [(3, 20), (4, 30)])
def test_gene_supply_3p_uses_the_20_cards_marked_3_and_4p_all_30(num_players, cards):
    """primordial_soup.md "Genes" and "Setup" step 3: 30 gene cards with 4 players (25 basic + 5
    advanced), only the 20 cards marked "3" with 3 players (16 + 4); Frugality and Parasitism
    have none."""
    _, state = new_game(num_players, [6, 6, 5, 5, 4, 4, 3, 3][: 2 * num_players])
    assert sum(state.gene_supply) == cards
    advanced = sum(n for g, n in zip(GENES, state.gene_supply, strict=True) if g.advanced)
    assert advanced == (4 if num_players == 3 else 5)
    if num_players == 3:
        assert state.gene_supply[GENE_INDEX["frugality"]] == 0
        assert state.gene_supply[GENE_INDEX["parasitism"]] == 0


def test_environment_card_is_turned_at_setup():
    """primordial_soup.md "Setup" step 4: shuffle the environment cards and place one face up;
    it sets the drift for round 1 and is no longer in the deck."""
    rules, state = new_game(4, [6, 6, 5, 5, 4, 4, 3, 3])
    deck = rules.config.environment_deck
    assert 0 <= state.environment_card < len(deck)
    assert len(state.environment_deck) == len(deck) - 1
    assert state.environment_card not in state.environment_deck
    # the scripted draw picks position SETUP_CARD of the untouched deck
    assert state.environment_card == SETUP_CARD


# Board -------------------------------------------------------------------------------------

#: primordial_soup.md "Board layout", adjacency table of layout A: id: (N, E, S, W); None = edge
#: or island.
LAYOUT_A_TABLE = {
    0: (None, None, 2, None),
    1: (None, 2, 6, None),
    2: (0, 3, 7, 1),
    3: (None, 4, None, 2),
    4: (None, 5, 8, 3),
    5: (None, None, 9, 4),
    6: (1, 7, 10, None),
    7: (2, None, 11, 6),
    8: (4, 9, 13, None),
    9: (5, None, 14, 8),
    10: (6, 11, 15, None),
    11: (7, 12, 16, 10),
    12: (None, 13, 17, 11),
    13: (8, 14, 18, 12),
    14: (9, None, None, 13),
    15: (10, 16, None, None),
    16: (11, 17, None, 15),
    17: (12, 18, None, 16),
    18: (13, None, None, 17),
}


@pytest.mark.parametrize("space", sorted(LAYOUT_A_TABLE))
def test_layout_a_adjacency_matches_the_spec_table(space):
    """primordial_soup.md "Board layout" (layout A adjacency table): neighbours N, E, S, W of
    every space; an edge or the island blocks (no neighbour)."""
    board = PrimordialSoupRules().board
    west, north, east, south, stay = board.neighbours[space]
    got = tuple(None if n < 0 else n for n in (north, east, south, west))
    assert got == LAYOUT_A_TABLE[space]
    assert stay == space


def test_layout_a_has_19_spaces_around_the_island():
    """primordial_soup.md "The board": 19 spaces; the island (compass) in the soup is out of
    bounds. The four spaces around it have no neighbour towards it::

        .  .  3  .  .
        .  7  ## 8  .
        .  .  12 .  .
    """
    board = PrimordialSoupRules().board
    assert board.num_spaces == 19
    assert board.island == (2, 2)
    assert (2, 2) not in board.cells
    west, north, east, south = 0, 1, 2, 3
    assert board.neighbours[3][south] == -1
    assert board.neighbours[7][east] == -1
    assert board.neighbours[8][west] == -1
    assert board.neighbours[12][north] == -1
    # movement is orthogonal only: 2 and 8 are not adjacent (not even diagonally via 3/7)
    assert board.adjacent(7) == (6, 2, 11)


# Engine contract ---------------------------------------------------------------------------


def test_illegal_action_raises_naming_action_phase_and_legal_choices():
    """Rules layer: ``apply`` raises ``IllegalActionError`` naming the action,
    its meaning, the phase and the legal choices; the state is left unchanged."""
    rules, state = table()
    put(state, 0, 1, 7)
    state.environment_card = 1  # West
    run(rules, state, {"kind": "amoeba_turns", "player": 0})
    before = state.to_dict()
    bad = rules.layout.encode("buy_gene", GENE_INDEX["speed"])
    with pytest.raises(IllegalActionError) as info:
        rules.apply(state, bad, ScriptedDice([]))
    message = str(info.value)
    assert f"illegal action {bad}" in message
    assert "buy_gene(Speed)" in message
    assert "movement_and_feeding" in message
    assert "amoeba #1 moves" in message
    for choice in ("drift", "active_move"):
        assert f"={choice}" in message
    assert state.to_dict() == before


@pytest.mark.parametrize("action", [-1, 10**6])
def test_out_of_range_action_raises_and_leaves_state(action):
    """Rules layer: an action id outside the layout is illegal too; the message
    says so and lists the legal choices."""
    rules, state = new_game(4, [6, 6, 5, 5, 4, 4, 3, 3])
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="out of range") as info:
        rules.apply(state, action, ScriptedDice([]))
    assert "start_space(1)" in str(info.value) and "'setup'" in str(info.value)
    assert state.to_dict() == before


@pytest.mark.parametrize("num_players", [3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_play_never_mutates_input_and_conserves_cubes(num_players, seed):
    """primordial_soup.md "Setup": over random play, ``apply`` never mutates its
    input, 55 cubes of each colour stay in the game, and BP never go negative."""
    rules = PrimordialSoupRules(num_players=num_players)
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    for _ in range(400):
        if rules.is_terminal(state):
            break
        legal_ids = rules.legal_actions(state)
        assert legal_ids, "a non-terminal state must offer an action"
        before = state.to_dict()
        state_next = rules.apply(state, int(rng.choice(legal_ids)), rng)
        assert state.to_dict() == before
        assert_conserved(rules, state_next)
        state = state_next
