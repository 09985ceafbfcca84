"""Rule tests for the objective (purple) cards O1-O20 (origin.md "Cards", "Objective cards" and
"Playing cards" as shipped in ``data/cards.yaml``): every condition true and false, and how
objectives are played.

"Your pawns" are the pawns on your villages: the neutral pawn on the Origin territory AF0
(h1/w1/black) and other players' pawns never count. Positions are built by hand
(``builders.table``). Map excerpt (origin.md "The map")::

    AF1 - AF2 - AF4 - AF6 - AF7       EU1 - EU2 - EU3      AF1 =S1= EU1
      \\    \\   |    /    /                  \\   /         AF3 =S11= SA4
       AF3 - AF0 (Origin) - AF5                EU4 - EU5 - EU6
             (AF3 - AF5, AF5 - AF7)
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primeval.envs.origin.gamedata import OBJECTIVE_CONDITIONS
from primeval.envs.origin.rules import scoring
from primeval.envs.origin.rules.objectives import CONDITIONS, holds
from primeval.envs.origin.state import Deck
from tests.envs.origin import builders
from tests.envs.origin.builders import act, cid, give_card, options, pawn_type, table

WHITE, BROWN, BLACK = 0, 1, 2

#: origin.md "Objective cards": points of O1-O15 (confirmed), O16 (proposed 5) and O17-O20
#: (proposed).
SPEC_POINTS = {
    "O1": 3, "O2": 4, "O3": 4, "O4": 4, "O5": 3, "O6": 5, "O7": 5, "O8": 6, "O9": 6,
    "O10": 6, "O11": 5, "O12": 5, "O13": 5, "O14": 4, "O15": 4, "O16": 5, "O17": 4,
    "O18": 4, "O19": 5, "O20": 4,
}


def put(rules, state, player: int, territory: str, height: int | None = None,
        width: int | None = None, colour: int | None = None) -> int:
    """``builders.put`` with any pawn still in the reserve for the traits left open."""
    for h in (height,) if height else (1, 2, 3):
        for w in (width,) if width else (1, 2, 3):
            for c in (colour,) if colour is not None else (0, 1, 2):
                if state.reserve[pawn_type(rules, h, w, c)]:
                    return builders.put(rules, state, player, territory, h, w, c)
    raise AssertionError("no such pawn left")


def on(rules, state, player: int, *territories: str) -> None:
    for t in territories:
        put(rules, state, player, t)


def check(rules, state, card: str, player: int = 0) -> bool:
    return holds(rules, state, player, cid(rules, card))


def playable(rules, state) -> set[str]:
    return {rules.data.cards[i].id for i in options(rules, state, "play_card")}


# The cards ------------------------------------------------------------------------------------


def test_the_twenty_objectives_and_their_points():
    """origin.md "Objective cards": 20 objectives with the listed points (O16-O20 proposed)."""
    rules, _ = table()
    deck = rules.data.deck("purple")
    assert {c.id: c.points for c in deck} == SPEC_POINTS


def test_every_condition_kind_is_implemented_once():
    """origin.md "Objective cards": each condition kind implemented once, all of them used."""
    rules, _ = table()
    assert set(CONDITIONS) == set(OBJECTIVE_CONDITIONS)
    assert {c.kind for c in rules.data.deck("purple")} == set(OBJECTIVE_CONDITIONS)


# O1-O4: pawns on a territory colour ----------------------------------------------------------


@pytest.mark.parametrize(("card", "needed", "short"), [
    ("O1", ("AF6", "EU7"), ("AF6", "AF5")),                  # 2 on green
    ("O2", ("AF2", "EU3", "NA2"), ("AF2", "EU3", "AF5")),    # 3 on brown
    ("O3", ("AF4", "EU1", "NA1"), ("AF4", "EU1", "AF5")),    # 3 on orange
    ("O4", ("AF1", "AF5", "EU2"), ("AF1", "AF5", "AF4")),    # 3 on yellow
])
def test_o1_to_o4_pawns_on_a_colour(card, needed, short):
    """O1-O4 (origin.md "Objective cards"): 2 pawns on green, 3 on brown / orange / yellow
    territories."""
    rules, state = table()
    on(rules, state, 0, *needed)
    assert check(rules, state, card)
    rules, state = table()
    on(rules, state, 0, *short)
    assert not check(rules, state, card)


@pytest.mark.parametrize(("card", "territories"), [
    ("O1", ("AF6", "EU7")), ("O2", ("AF2", "EU3", "NA2")), ("O3", ("AF4", "EU1", "NA1")),
    ("O4", ("AF1", "AF5", "EU2")),
])
def test_o1_to_o4_other_players_pawns_do_not_count(card, territories):
    """O1-O4 (origin.md "Objective cards"): only your own pawns count; one of the pawns is
    another player's."""
    rules, state = table()
    on(rules, state, 0, *territories[1:])
    on(rules, state, 1, territories[0])
    assert not check(rules, state, card)
    assert not check(rules, state, card, player=1)


# O5-O10: pawns on a continent ------------------------------------------------------------------


@pytest.mark.parametrize(("card", "territories"), [
    ("O5", ("AF1", "AF5", "AF7")),
    ("O6", ("EU1", "EU6", "EU12")),
    ("O7", ("OC1", "OC3", "OC5")),
    ("O8", ("SA1", "SA4", "SA6")),
    ("O9", ("NA1", "NA4", "NA7")),
    ("O10", ("AN1", "AN2", "AN3")),
])
def test_o5_to_o10_three_pawns_on_a_continent(card, territories):
    """O5-O10 (origin.md "Objective cards"): 3 pawns in Africa / Eurasia / Oceania / South
    America / North America / Antarctica (anywhere on it, not necessarily adjacent)."""
    rules, state = table()
    on(rules, state, 0, *territories)
    assert check(rules, state, card)
    for other in {"O5", "O6", "O7", "O8", "O9", "O10"} - {card}:
        assert not check(rules, state, other)
    rules, state = table()
    on(rules, state, 0, *territories[:2])
    on(rules, state, 1, territories[2])
    on(rules, state, 0, "EU7" if card != "O6" else "AF6")
    assert not check(rules, state, card)


def test_o5_the_neutral_pawn_never_counts():
    """O5 (origin.md "Objective cards" notes): the neutral Origin pawn in Africa is nobody's
    pawn."""
    rules, state = table()
    on(rules, state, 0, "AF2", "AF3")
    assert state.owner[builders.tid(rules, "AF0")] == -2
    assert not check(rules, state, "O5")
    on(rules, state, 0, "AF4")
    assert check(rules, state, "O5")


# O11 / O12: connected groups -------------------------------------------------------------------


def test_o11_four_connected_pawns_on_one_continent():
    """O11 (origin.md "Objective cards"): 4 pawns on adjacent territories of the same continent
    (one connected group): EU2-EU3, EU2-EU4, EU3-EU4, EU4-EU5."""
    rules, state = table()
    on(rules, state, 0, "EU2", "EU3", "EU4", "EU5")
    assert check(rules, state, "O11")


def test_o11_four_pawns_on_one_continent_not_connected():
    """O11 (origin.md "Objective cards"): four separate pawns of Eurasia are no group."""
    rules, state = table()
    on(rules, state, 0, "EU1", "EU3", "EU6", "EU12")
    assert check(rules, state, "O6")
    assert not check(rules, state, "O11")


def test_o11_another_players_pawn_does_not_link_a_group():
    """O11 (origin.md "Objective cards"): EU2-EU3 and EU5-EU6 are joined only through player_1's
    EU4."""
    rules, state = table()
    on(rules, state, 0, "EU2", "EU3", "EU5", "EU6")
    on(rules, state, 1, "EU4")
    assert not check(rules, state, "O11")
    assert not check(rules, state, "O11", player=1)


def test_o11_the_neutral_pawn_does_not_link_a_group():
    """O11 (origin.md "Objective cards" notes): AF2-AF4 and AF3-AF5 meet only at the Origin
    territory; the neutral pawn never counts. AF1 (next to AF2 and AF3) joins them."""
    rules, state = table()
    on(rules, state, 0, "AF2", "AF4", "AF3", "AF5")
    assert not check(rules, state, "O11")
    on(rules, state, 0, "AF1")
    assert check(rules, state, "O11")


def test_o11_o12_a_group_across_a_strait():
    """O11 / O12 (origin.md "Objective cards"): AF2-AF1-AF3 and EU1 across Gibraltar are one
    group of 4 spanning 2 continents: O12 holds, O11 (same continent) does not."""
    rules, state = table()
    on(rules, state, 0, "AF2", "AF1", "AF3", "EU1")
    assert check(rules, state, "O12")
    assert not check(rules, state, "O11")


def test_o12_four_connected_pawns_on_one_continent_are_not_enough():
    """O12 (origin.md "Objective cards"): the group must span at least 2 continents."""
    rules, state = table()
    on(rules, state, 0, "EU2", "EU3", "EU4", "EU5")
    assert not check(rules, state, "O12")


def test_o12_pawns_on_two_continents_not_connected():
    """O12 (origin.md "Objective cards"): 2 + 2 pawns in Africa and Eurasia with no link between
    them."""
    rules, state = table()
    on(rules, state, 0, "AF5", "AF7", "EU9", "EU10")
    assert not check(rules, state, "O12")


def test_o12_three_connected_across_a_strait_plus_a_stray_pawn():
    """O12 (origin.md "Objective cards"): the 4 pawns must all be in the group."""
    rules, state = table()
    on(rules, state, 0, "AF1", "EU1", "EU2", "AF7")
    assert not check(rules, state, "O12")
    on(rules, state, 0, "AF2")
    assert check(rules, state, "O12")


def test_o12_another_players_pawn_does_not_bridge_a_strait():
    """O12 (origin.md "Objective cards"): AF2, AF1 + EU2, EU3 are linked only through player_1's
    EU1."""
    rules, state = table()
    on(rules, state, 0, "AF2", "AF1", "EU2", "EU3")
    on(rules, state, 1, "EU1")
    assert not check(rules, state, "O12")


# O13: continents -------------------------------------------------------------------------------


def test_o13_pawns_on_four_continents():
    """O13 (origin.md "Objective cards"): at least 1 pawn on each of 4 different continents."""
    rules, state = table()
    on(rules, state, 0, "AF5", "EU2", "NA3")
    assert not check(rules, state, "O13")
    on(rules, state, 0, "SA3")
    assert check(rules, state, "O13")


def test_o13_the_neutral_pawn_and_other_players_do_not_add_a_continent():
    """O13 (origin.md "Objective cards" notes): Africa holds only the neutral pawn and
    player_1's pawn."""
    rules, state = table()
    on(rules, state, 0, "EU2", "NA3", "SA3", "SA5")
    on(rules, state, 1, "AF5")
    assert not check(rules, state, "O13")


# O14-O16: pawn traits --------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "trait"), [("O14", "width"), ("O15", "height")])
def test_o14_o15_three_pawns_of_width_or_height_three(card, trait):
    """O14 / O15 (origin.md "Objective cards"): 3 pawns of width 3 / height 3 (any other traits)."""
    rules, state = table()
    for t, other in (("AF5", 1), ("EU2", 2), ("NA3", 3)):
        kw = {trait: 3, "height" if trait == "width" else "width": other}
        put(rules, state, 0, t, **kw)
    assert check(rules, state, card)
    rules, state = table()
    put(rules, state, 0, "AF5", **{trait: 3})
    put(rules, state, 0, "EU2", **{trait: 3})
    put(rules, state, 0, "NA3", **{trait: 2})
    put(rules, state, 1, "SA3", **{trait: 3})
    assert not check(rules, state, card)


def test_o16_two_pawns_of_each_colour():
    """O16 (origin.md "Objective cards"): at least 2 white, 2 brown and 2 black pawns."""
    rules, state = table()
    for t, colour in (("AF5", WHITE), ("AF7", WHITE), ("EU2", BROWN), ("EU3", BROWN),
                      ("NA3", BLACK)):
        put(rules, state, 0, t, colour=colour)
    assert not check(rules, state, "O16")  # the neutral pawn is black but not yours
    put(rules, state, 1, "NA5", colour=BLACK)
    assert not check(rules, state, "O16")
    put(rules, state, 0, "SA3", colour=BLACK)
    assert check(rules, state, "O16")


# O17-O20: tokens, tiles, permanents ------------------------------------------------------------


def test_o17_two_hunting_tokens():
    """O17 (origin.md "Objective cards", proposed): own 2 hunting tokens."""
    rules, state = table()
    greens = [t for t, v in enumerate(state.hunt_value) if v]
    state.hunt_owner[greens[0]] = 0
    state.hunt_owner[greens[1]] = 1
    assert not check(rules, state, "O17")
    state.hunt_owner[greens[2]] = 0
    assert check(rules, state, "O17")


def test_o18_two_strait_tokens():
    """O18 (origin.md "Objective cards", proposed): own 2 strait tokens."""
    rules, state = table()
    state.strait_owner[0] = 0
    state.strait_owner[1] = 2
    assert not check(rules, state, "O18")
    state.strait_owner[5] = 0
    assert check(rules, state, "O18")


def test_o19_a_column_reaching_level_four():
    """O19 (origin.md "Objective cards", proposed): own an innovation column that reaches level
    4."""
    rules, state = table()
    state.columns[0] = [[1, 2, 3], [1, 2, 3], [1]]
    state.columns[1] = [[1, 2, 3, 4]]
    assert not check(rules, state, "O19")
    state.columns[0][0].append(4)
    assert check(rules, state, "O19")
    state.columns[0][0].append(5)
    assert check(rules, state, "O19")


def test_o20_three_permanent_cards_in_play():
    """O20 (origin.md "Objective cards", proposed): have 3 permanent (orange) cards in play;
    cards in hand do not count."""
    rules, state = table()
    for c in ("P1", "P2"):
        state.permanents[0].append(cid(rules, c))
    give_card(rules, state, 0, "P3")
    state.permanents[1].append(cid(rules, "P4"))
    assert not check(rules, state, "O20")
    state.permanents[0].append(cid(rules, "P5"))
    assert check(rules, state, "O20")


# Board conditions against a brute-force reading -------------------------------------------------


@cache
def _base():
    return table()


def _connected(world, territories) -> bool:
    group, frontier = {territories[0]}, [territories[0]]
    while frontier:
        t = frontier.pop()
        for u in world.neighbours[t]:
            if u in territories and u not in group:
                group.add(u)
                frontier.append(u)
    return len(group) == len(territories)


def _expected(world, mine: list[int]) -> dict[str, bool]:
    """origin.md "Objective cards" read literally, by counting and by trying every set of 4
    pawns."""
    colour = [world.territories[t].colour for t in mine]
    cont = [world.territories[t].continent for t in mine]
    fours = [q for q in combinations(mine, 4) if _connected(world, q)]
    conts = [{world.territories[t].continent for t in q} for q in fours]
    return {
        "O1": colour.count("green") >= 2, "O2": colour.count("brown") >= 3,
        "O3": colour.count("orange") >= 3, "O4": colour.count("yellow") >= 3,
        "O5": cont.count("AF") >= 3, "O6": cont.count("EU") >= 3, "O7": cont.count("OC") >= 3,
        "O8": cont.count("SA") >= 3, "O9": cont.count("NA") >= 3, "O10": cont.count("AN") >= 3,
        "O11": any(len(c) == 1 for c in conts), "O12": any(len(c) >= 2 for c in conts),
        "O13": len(set(cont)) >= 4,
    }


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_board_objectives_match_a_brute_force_reading(data):
    """O1-O13 (origin.md "Objective cards"): on random boards (up to 9 own pawns, other players'
    pawns and the neutral pawn around), every board condition agrees with a literal count / a
    search over all sets of 4 own pawns for a connected group."""
    rules, base = _base()
    world = rules.data.world
    free = [t for t in range(world.size) if t != world.origin]
    mine: list[int] = []
    for _ in range(data.draw(st.integers(0, 9))):
        # Mostly grow next to an own pawn, so that connected groups are common.
        near = sorted({u for t in mine for u in world.neighbours[t]
                       if u != world.origin and u not in mine})
        pool = near if near and data.draw(st.integers(0, 3)) else [
            t for t in free if t not in mine]
        mine.append(data.draw(st.sampled_from(pool)))
    others = data.draw(st.lists(st.sampled_from([t for t in free if t not in mine]),
                                unique=True, max_size=9))
    state = base.copy()
    for t in mine:
        state.owner[t], state.pawn[t] = 0, 0
    for t in others:
        state.owner[t], state.pawn[t] = data.draw(st.sampled_from([1, 2])), 1
    expected = _expected(world, sorted(mine))
    for card, value in expected.items():
        assert check(rules, state, card) == value, card


# Playing objectives (origin.md "Cards" and "Playing cards")
# ---------------------------------------------------------------


def test_an_objective_is_playable_only_while_its_condition_holds():
    """origin.md "Cards" and "Playing cards": a purple card may be played when its condition
    holds at that moment."""
    rules, state = table()
    give_card(rules, state, 0, "O1")
    put(rules, state, 0, "AF6")
    assert "O1" not in playable(rules, state)
    put(rules, state, 0, "EU7")
    assert "O1" in playable(rules, state)
    state.owner[builders.tid(rules, "EU7")] = 1  # the pawn is lost to a swap, say
    assert "O1" not in playable(rules, state)


def test_an_objective_is_scored_at_once_and_a_new_one_drawn():
    """origin.md "Cards" and "Playing cards": play it face up, score its points at once, then
    draw 1 objective."""
    rules, state = table()
    o1 = give_card(rules, state, 0, "O1")
    on(rules, state, 0, "AF6", "EU7")
    top = state.decks[Deck.PURPLE][0]
    state = act(rules, state, "play_card", o1)
    assert state.objectives_done[0] == [o1]
    assert state.objective_points[0] == 3
    assert state.hands[0] == [top]
    assert scoring.points(rules, state, 0)["objectives"] == 3
    assert "O1" not in playable(rules, state)


def test_a_completed_objective_is_never_lost():
    """origin.md "Cards": a scored objective can never be lost, even when the condition fails
    later."""
    rules, state = table()
    o1 = give_card(rules, state, 0, "O1")
    on(rules, state, 0, "AF6", "EU7")
    state = act(rules, state, "play_card", o1)
    state.owner[builders.tid(rules, "EU7")] = 1
    assert state.objectives_done[0] == [o1] and state.objective_points[0] == 3


def test_only_one_objective_per_turn_outside_the_final_round():
    """origin.md "Playing cards": only one purple per turn, except in the final round."""
    rules, state = table()
    o1, o5 = give_card(rules, state, 0, "O1"), give_card(rules, state, 0, "O5")
    on(rules, state, 0, "AF6", "EU7", "AF5", "AF7", "AF1")
    assert playable(rules, state) == {"O1", "O5"}
    state = act(rules, state, "play_card", o1)
    assert state.objectives_done[0] == [o1]
    assert "O5" not in playable(rules, state)
    assert o5 in state.hands[0]


def test_several_objectives_in_the_final_round_without_new_draws():
    """origin.md "Playing cards" and "Final round": in the final round several objectives may be
    completed, and completing one draws no new one."""
    rules, state = table()
    state.phase, state.end_triggered, state.final_turns_left = "final_round", True, 3
    o1, o5 = give_card(rules, state, 0, "O1"), give_card(rules, state, 0, "O5")
    on(rules, state, 0, "AF6", "EU7", "AF5", "AF7", "AF1")
    deck = list(state.decks[Deck.PURPLE])
    state = act(rules, state, "play_card", o1)
    assert "O5" in playable(rules, state)
    state = act(rules, state, "play_card", o5)
    assert state.objectives_done[0] == [o1, o5]
    assert state.objective_points[0] == 3 + 3
    assert state.hands[0] == [] and state.decks[Deck.PURPLE] == deck


def test_the_final_round_lifts_the_limit_for_purple_only():
    """origin.md "Playing cards": the final-round exception is for objectives; yellow stays one
    per turn."""
    rules, state = table()
    state.phase, state.end_triggered, state.final_turns_left = "final_round", True, 3
    y10 = give_card(rules, state, 0, "Y10")
    give_card(rules, state, 0, "Y3")
    state = act(rules, state, "play_card", y10)
    state = act(rules, state, "choose_deck", Deck.ORANGE)
    assert "Y3" not in playable(rules, state)


def test_objective_bonus_applies_to_each_objective_in_the_final_round():
    """P12 objective_bonus (origin.md "Agriculture") with origin.md "Playing cards": +1 for each
    objective completed."""
    rules, state = table()
    state.phase, state.end_triggered, state.final_turns_left = "final_round", True, 3
    state.permanents[0].append(cid(rules, "P12"))
    o1, o5 = give_card(rules, state, 0, "O1"), give_card(rules, state, 0, "O5")
    on(rules, state, 0, "AF6", "EU7", "AF5", "AF7", "AF1")
    state = act(rules, state, "play_card", o1)
    state = act(rules, state, "play_card", o5)
    assert state.objective_points[0] == (3 + 1) + (3 + 1)


def test_an_objective_drawn_above_the_limit_is_returned():
    """origin.md "Objective hand limit": after the new objective is drawn, hold at most 2 (the
    played one is gone, so a hand of 2 objectives stays at 2 without returning)."""
    rules, state = table()
    o1 = give_card(rules, state, 0, "O1")
    give_card(rules, state, 0, "O2")
    on(rules, state, 0, "AF6", "EU7")
    state = act(rules, state, "play_card", o1)
    assert len(state.hands[0]) == 2
    assert state.stack[-1]["kind"] == "turn"
