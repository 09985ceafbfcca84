"""Rule tests: rewards, innovation tiles and tokens (origin.md "Rewards board and innovation
tiles", "Tokens" and "Rewards").

A reward is resolved by pushing the ``reward`` frame that an action pushes (player_0 entered
the territory). Territory colours used: AF1 yellow, AF4 orange, AF3 purple, AF2 brown, AF6
and EU7 green. Rewards-board slots (origin.md "Rewards board and innovation tiles")::

    slot   0 1 2 | 3 4 5 | 6 7 8 | 9 10 11 12 13 14
           yellow| orange| purple| brown

Unless a test says otherwise the tile reserve is empty, so a taken tile leaves its slot empty.
"""

from __future__ import annotations

import pytest

from primeval.envs.origin.actions import BrownRewardChoice, RewardChoice
from primeval.envs.origin.rules import tiles
from tests.envs.origin.builders import (
    ScriptedRng,
    act,
    give_card,
    options,
    put,
    run,
    table,
    tid,
)

DECK = {"yellow": 0, "orange": 1, "purple": 2}
TERRITORY = {"yellow": "AF1", "orange": "AF4", "purple": "AF3", "brown": "AF2"}


def slots_of(rules, colour: str) -> list[int]:
    return [i for i, c in enumerate(rules.data.components.slot_colours) if c == colour]


def reward_table(**config):
    """player_0's turn with no tile on the rewards board and an empty tile reserve."""
    rules, state = table(**config)
    state.slots = [0] * len(state.slots)
    state.tile_reserve = [0] * 5
    return rules, state


def set_slots(rules, state, colour: str, levels: list[int]) -> list[int]:
    slots = slots_of(rules, colour)
    for slot, level in zip(slots, levels, strict=False):
        state.slots[slot] = level
    return slots


def enter(rules, state, territory: str, player: int = 0, rng=None):
    """Resolve the reward of a territory entered by ``player``, up to the next decision."""
    return run(rules, state, {"kind": "reward", "player": player,
                              "territory": tid(rules, territory)}, rng=rng)


def take_any_tile(rules, state, rng=None, **frame):
    return run(rules, state, {"kind": "take_tile", "player": 0,
                              "colours": ("yellow", "orange", "purple", "brown"), "count": 1,
                              **frame}, rng=rng)


# Yellow, orange and purple ------------------------------------------------------------------------


@pytest.mark.parametrize("colour", ["yellow", "orange", "purple"])
def test_card_colour_option_a_takes_a_tile_of_that_colour_and_the_top_card(colour):
    """origin.md "Yellow, orange and purple rewards" (a): one face-up tile from that colour's
    column and the top card of that colour's deck; the other columns are not offered."""
    rules, state = reward_table()
    for c in ("yellow", "orange", "purple", "brown"):
        set_slots(rules, state, c, [1])
    state = enter(rules, state, TERRITORY[colour])
    assert state.pending == {"kind": "reward_option", "player": 0, "colour": colour}
    top = state.decks[DECK[colour]][0]
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    assert options(rules, state, "take_tile") == {slots_of(rules, colour)[0]}
    state = act(rules, state, "take_tile", slots_of(rules, colour)[0])
    assert state.columns[0] == [[1]]
    assert state.hands[0] == [top]
    assert state.pending == {"kind": "turn", "player": 0}


@pytest.mark.parametrize("colour", ["yellow", "orange", "purple"])
def test_option_a_without_a_takeable_tile_still_draws_the_card(colour):
    """origin.md "Rewards" (proposed): with (a), if no tile can be placed the card is still drawn
    (a level-2 tile needs a column topped by a 1)."""
    rules, state = reward_table()
    set_slots(rules, state, colour, [2, 3])
    top = state.decks[DECK[colour]][0]
    state = enter(rules, state, TERRITORY[colour])
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    assert state.columns[0] == []
    assert state.hands[0] == [top]


@pytest.mark.parametrize("colour", ["yellow", "orange"])
def test_option_b_draws_three_and_returns_any_two_of_that_colour(colour):
    """origin.md "Yellow, orange and purple rewards" (b): draw the top 3 of that colour, then
    return any 2 cards of that colour from the hand (an old one too) to the bottom of the deck:
    net +1."""
    rules, state = reward_table()
    old = give_card(rules, state, 0, "Y1" if colour == "yellow" else "P1")
    deck = state.decks[DECK[colour]]
    top3 = deck[:3]
    size = len(deck)
    state = enter(rules, state, TERRITORY[colour])
    state = act(rules, state, "reward_option", RewardChoice.DRAW_CARDS)
    assert state.pending["kind"] == "return_card" and state.pending["count"] == 2
    assert options(rules, state, "return_card") == {old, *top3}
    state = act(rules, state, "return_card", old)
    state = act(rules, state, "return_card", top3[1])
    assert sorted(state.hands[0]) == sorted([top3[0], top3[2]])
    assert state.decks[DECK[colour]][-2:] == [old, top3[1]]
    assert len(state.decks[DECK[colour]]) == size - 1
    assert state.pending == {"kind": "turn", "player": 0}


def test_option_b_returns_only_cards_of_the_rewarded_colour():
    """origin.md "Yellow, orange and purple rewards" (b): the 2 returned cards are of the
    reward's colour; other cards in hand cannot be returned."""
    rules, state = reward_table()
    orange = give_card(rules, state, 0, "P1")
    state = enter(rules, state, "AF1")
    state = act(rules, state, "reward_option", RewardChoice.DRAW_CARDS)
    assert orange not in options(rules, state, "return_card")


@pytest.mark.parametrize(("left", "returns"), [(2, 1), (1, 0), (0, 0)])
def test_option_b_on_a_short_deck_nets_at_most_one_card(left, returns):
    """origin.md "Yellow, orange and purple rewards" (proposed): draw what there is and return
    so that the gain is at most +1; an exhausted deck gives nothing."""
    rules, state = reward_table()
    del state.decks[0][left:]
    state = enter(rules, state, "AF1")
    state = act(rules, state, "reward_option", RewardChoice.DRAW_CARDS)
    if returns:
        assert state.pending == {"kind": "return_card", "player": 0, "colour": "yellow",
                                 "count": returns}
        state = act(rules, state, "return_card", min(options(rules, state, "return_card")))
    assert state.pending == {"kind": "turn", "player": 0}
    assert len(state.hands[0]) == min(left, 1)


def test_option_a_on_an_exhausted_deck_gives_only_the_tile():
    """origin.md "Rewards": exhausted decks simply give nothing."""
    rules, state = reward_table()
    state.decks[1] = []
    set_slots(rules, state, "orange", [1])
    state = enter(rules, state, "AF4")
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    state = act(rules, state, "take_tile", slots_of(rules, "orange")[0])
    assert state.columns[0] == [[1]] and state.hands[0] == []


def test_option_a_with_nothing_left_gives_nothing():
    """origin.md "Rewards": no takeable tile and an empty deck: the reward is nothing."""
    rules, state = reward_table()
    state.decks[0] = []
    state = enter(rules, state, "AF1")
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    assert state.pending == {"kind": "turn", "player": 0}
    assert state.hands[0] == [] and state.columns[0] == []


# The objective hand limit ---------------------------------------------------------------------


def test_objective_hand_limit_two_returns_the_extra_to_the_bottom_of_the_purple_deck():
    """origin.md "Objective hand limit" and "Objective cards": after a purple draw hold at most
    2 objectives; the player chooses the extra one, which goes to the bottom of the purple
    deck."""
    rules, state = reward_table()
    o1, o2 = give_card(rules, state, 0, "O1"), give_card(rules, state, 0, "O2")
    top = state.decks[2][0]
    state = enter(rules, state, "AF3")
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    assert state.pending == {"kind": "return_card", "player": 0, "colour": "purple",
                             "count": 1}
    assert options(rules, state, "return_card") == {o1, o2, top}
    state = act(rules, state, "return_card", o1)
    assert sorted(state.hands[0]) == sorted([o2, top])
    assert state.decks[2][-1] == o1


def test_objective_limit_applies_after_purple_option_b():
    """origin.md "Objective hand limit": option (b) on purple (draw 3, return 2) and then the
    hand limit: with 2 objectives in hand the player ends with 2."""
    rules, state = reward_table()
    give_card(rules, state, 0, "O1")
    give_card(rules, state, 0, "O2")
    state = enter(rules, state, "AF3")
    state = act(rules, state, "reward_option", RewardChoice.DRAW_CARDS)
    returned = 0
    while state.pending["kind"] == "return_card":
        state = act(rules, state, "return_card", min(options(rules, state, "return_card")))
        returned += 1
    assert returned == 3
    assert len(state.hands[0]) == 2
    assert len(state.decks[2]) + len(state.hands[0]) == 20


def test_non_purple_cards_have_no_hand_limit():
    """origin.md "Playing cards" (proposed): no hand limit for yellow or orange cards."""
    rules, state = reward_table()
    for i in range(1, 6):
        give_card(rules, state, 0, f"Y{i}")
    state = enter(rules, state, "AF1")
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    assert len(state.hands[0]) == 6
    assert state.pending == {"kind": "turn", "player": 0}


# Brown --------------------------------------------------------------------------------------


def test_brown_option_a_takes_two_brown_tiles_the_first_enabling_the_second():
    """origin.md "Brown rewards" (a) (proposed): two brown tiles one after the other, so taking
    the 1 makes the 2 takeable; no card is drawn."""
    rules, state = reward_table()
    brown = set_slots(rules, state, "brown", [2, 1])
    set_slots(rules, state, "yellow", [1])
    state = enter(rules, state, "AF2")
    assert state.pending == {"kind": "reward_option", "player": 0, "colour": "brown"}
    state = act(rules, state, "reward_option", BrownRewardChoice.TWO_BROWN_TILES)
    assert options(rules, state, "take_tile") == {brown[1]}
    state = act(rules, state, "take_tile", brown[1])
    assert options(rules, state, "take_tile") == {brown[0]}
    state = act(rules, state, "take_tile", brown[0])
    assert state.columns[0] == [[1, 2]]
    assert state.hands[0] == []
    assert state.pending == {"kind": "turn", "player": 0}


def test_brown_option_a_with_one_takeable_tile_takes_one():
    """origin.md "Rewards": tiles that cannot be placed are not taken; the reward takes what it
    can."""
    rules, state = reward_table()
    brown = set_slots(rules, state, "brown", [1, 3])
    state = enter(rules, state, "AF2")
    state = act(rules, state, "reward_option", BrownRewardChoice.TWO_BROWN_TILES)
    state = act(rules, state, "take_tile", brown[0])
    assert state.columns[0] == [[1]]
    assert state.slots[brown[1]] == 3
    assert state.pending == {"kind": "turn", "player": 0}


def test_brown_option_b_takes_one_tile_of_another_colour():
    """origin.md "Brown rewards" (b): one tile from any other (yellow, orange, purple) column."""
    rules, state = reward_table()
    set_slots(rules, state, "brown", [1])
    y = set_slots(rules, state, "yellow", [1])[0]
    o = set_slots(rules, state, "orange", [1])[0]
    p = set_slots(rules, state, "purple", [1])[0]
    state = enter(rules, state, "AF2")
    state = act(rules, state, "reward_option", BrownRewardChoice.ONE_OTHER_TILE)
    assert options(rules, state, "take_tile") == {y, o, p}
    state = act(rules, state, "take_tile", o)
    assert state.columns[0] == [[1]]
    assert state.pending == {"kind": "turn", "player": 0}


# Green ---------------------------------------------------------------------------------------


def test_green_gives_the_hunting_token_to_the_first_to_enter_and_nothing_after():
    """origin.md "Hunting tokens" and "Green rewards": the first tribe entering takes the
    hunting token; afterwards the territory gives nothing (no decision, no card, no tile)."""
    rules, state = reward_table()
    af6 = tid(rules, "AF6")
    value = state.hunt_value[af6]
    state = enter(rules, state, "AF6", player=1)
    assert state.hunt_owner[af6] == 1 and state.hunt_value[af6] == value
    state = enter(rules, state, "AF6", player=0)
    assert state.hunt_owner[af6] == 1
    assert state.pending == {"kind": "turn", "player": 0}
    assert state.hands[0] == [] and state.columns[0] == []


def test_hunting_tokens_are_never_lost():
    """origin.md "Hunting tokens": leaving the green territory does not give the token back."""
    rules, state = table()
    af6 = put(rules, state, 0, "AF6", 1, 1, 0)
    state = enter(rules, state, "AF6")
    assert state.hunt_owner[af6] == 0
    state = act(rules, state, "migrate_from", af6)
    state = act(rules, state, "migrate_to", tid(rules, "AF7"))
    assert state.owner[af6] == -1
    assert state.hunt_owner[af6] == 0


# Innovation tiles -------------------------------------------------------------------------------


def test_without_columns_only_a_level_1_tile_can_be_taken():
    """origin.md "Tile columns": a level-1 tile may always be taken; higher levels need a column."""
    rules, state = reward_table()
    state.slots = [1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    state = take_any_tile(rules, state)
    assert options(rules, state, "take_tile") == {0}


def test_a_level_n_tile_goes_on_a_column_topped_by_n_minus_1():
    """origin.md "Tile columns": levels takeable are 1 and top+1 of each column; the tile goes
    on that column."""
    rules, state = reward_table()
    state.columns[0] = [[1, 2], [1, 2, 3, 4]]
    state.slots = [1, 2, 3, 4, 5, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    state = take_any_tile(rules, state)
    assert options(rules, state, "take_tile") == {0, 2, 4, 5}
    state = act(rules, state, "take_tile", 2)
    assert state.columns[0] == [[1, 2, 3], [1, 2, 3, 4]]


def test_a_level_1_tile_always_starts_a_new_column():
    """origin.md "Tile columns": a level 1 starts a new column (columns are unlimited), even
    beside a lone 1."""
    rules, state = reward_table()
    state.columns[0] = [[1], [1, 2]]
    state.slots[0] = 1
    state = take_any_tile(rules, state)
    state = act(rules, state, "take_tile", 0)
    assert state.columns[0] == [[1], [1, 2], [1]]


def test_can_place_and_place_tile_follow_the_stacking_rule():
    """origin.md "Tile columns": ``can_place`` allows 1 and top+1 only; ``place_tile`` refuses
    the rest."""
    rules, state = reward_table()
    state.columns[0] = [[1, 2, 3]]
    assert [tiles.can_place(state, 0, lv) for lv in range(1, 6)] == [
        True, False, False, True, False]
    with pytest.raises(RuntimeError):
        tiles.place_tile(state, 0, 3)


def test_a_taken_tile_is_refilled_from_the_reserve():
    """origin.md "Rewards board and innovation tiles": a taken tile is replaced at once by a
    random face-down tile."""
    rules, state = reward_table()
    state.slots[0] = 1
    state.tile_reserve = [0, 1, 0, 0, 2]
    state = take_any_tile(rules, state)
    state = act(rules, state, "take_tile", 0, rng=ScriptedRng([4]))  # level 5 (index 4)
    assert state.slots[0] == 5
    assert state.tile_reserve == [0, 1, 0, 0, 1]


def test_with_an_empty_reserve_the_slot_stays_empty():
    """origin.md "Rewards board and innovation tiles": when the reserve is empty the slot stays
    empty."""
    rules, state = reward_table()
    state.slots[0] = 1
    state = take_any_tile(rules, state)
    state = act(rules, state, "take_tile", 0)
    assert state.slots[0] == 0


# Strait tokens ---------------------------------------------------------------------------------


def strait(rules, sid: str) -> int:
    return rules.data.world.strait_ids.index(sid)


def test_strait_token_to_the_first_to_hold_both_ends_after_the_reward():
    """origin.md "Strait tokens" and "A turn": evolving onto the second end of a strait (S1
    joins AF1 and EU1) takes its token, after the reward of the territory."""
    rules, state = reward_table()
    put(rules, state, 0, "AF1", 1, 1, 0)
    s1 = strait(rules, "S1")
    state = act(rules, state, "evolve_at", tid(rules, "EU1"))
    state = act(rules, state, "evolve_pawn", min(options(rules, state, "evolve_pawn")))
    assert state.pending["kind"] == "reward_option"
    assert state.strait_owner[s1] == -1
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    assert state.strait_owner[s1] == 0


def test_strait_ends_held_by_different_players_give_nothing():
    """origin.md "Tokens": both ends must hold the same player's villages."""
    rules, state = reward_table()
    put(rules, state, 0, "AF1", 1, 1, 0)
    put(rules, state, 1, "EU1", 1, 1, 1)
    state = run(rules, state, {"kind": "strait_check", "player": 0})
    assert state.strait_owner[strait(rules, "S1")] == -1


def test_strait_token_is_kept_after_losing_the_strait_and_not_taken_by_a_later_holder():
    """origin.md "Tokens": losing control later does not take the token away; a player who later
    holds both ends gets nothing."""
    rules, state = reward_table()
    a = put(rules, state, 0, "AF1", 1, 1, 0)
    b = put(rules, state, 0, "EU1", 1, 1, 1)
    s1 = strait(rules, "S1")
    state = run(rules, state, {"kind": "strait_check", "player": 0})
    assert state.strait_owner[s1] == 0
    state.owner[a] = state.owner[b] = 1
    state = run(rules, state, {"kind": "strait_check", "player": 1})
    assert state.strait_owner[s1] == 0


def test_several_strait_tokens_in_one_check():
    """origin.md "Strait tokens": every strait completed at once is taken at once (S11 joins AF3
    and SA4, S2 joins AF2 and EU5)."""
    rules, state = reward_table()
    for i, t in enumerate(("AF3", "SA4", "AF2", "EU5")):
        put(rules, state, 0, t, 2, 1 + i // 3, i % 3)
    state = run(rules, state, {"kind": "strait_check", "player": 0})
    owned = {rules.data.world.strait_ids[s] for s, o in enumerate(state.strait_owner) if o == 0}
    assert owned == {"S2", "S11"}


def test_swap_onto_green_territory_never_takes_the_hunting_token():
    """origin.md "Hunting tokens": swapping into a green territory gives nothing, even when a
    pawn stands there with the token still on it (Resettlement moves pawns without rewards)."""
    from tests.envs.origin.builders import put, table, tid

    rules, state = table(num_players=3)
    savanna = put(rules, state, 1, "AF6", height=1, width=1)
    put(rules, state, 0, "AF7", height=1, width=2)
    assert state.hunt_owner[savanna] == -1 and state.hunt_value[savanna] > 0
    state = act(rules, state, "swap_from", tid(rules, "AF7"))
    state = act(rules, state, "swap_onto", savanna)
    assert state.owner[savanna] == 0
    assert state.hunt_owner[savanna] == -1
