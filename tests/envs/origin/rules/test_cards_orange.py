"""Rule tests for the orange permanent cards P1-P14 (origin.md "Cards", "Orange permanent cards"
and "Playing cards" as shipped in ``data/cards.yaml``): when they may be played, that they stay
in play, and each effect in the rule it changes.

Positions are built by hand (``builders.table``): the start of ``player_0``'s turn with empty
hands and only the neutral pawn (h1/w1/black) on the Origin territory AF0. Map excerpt
(origin.md "The map")::

    AF1 - AF2 - AF4 - AF6 - AF7        AF1 =S1= EU1 - EU2     AF7 =S9= AN2
      \\    \\   |    /    /            AF3 =S11= SA4          AF4 =S3= EU6
       AF3 - AF0 (Origin) - AF5        AF2 =S2= EU5
"""

from __future__ import annotations

import pytest

from primeval.envs.origin.actions import BrownRewardChoice, RewardChoice
from primeval.envs.origin.gamedata import ORANGE_EFFECTS
from primeval.envs.origin.rules import scoring
from primeval.envs.origin.rules.moves import move_range
from primeval.envs.origin.rules.pawns import compatible
from primeval.envs.origin.state import EMPTY, Deck
from tests.envs.origin import builders
from tests.envs.origin.builders import (
    ScriptedRng,
    act,
    cid,
    give_card,
    options,
    pawn_type,
    run,
    table,
    tid,
)

WHITE, BROWN, BLACK = 0, 1, 2
ORANGE_IDS = [f"P{i}" for i in range(1, 15)]


def put(rules, state, player: int, territory: str, height: int = 1, width: int = 1,
        colour: int | None = None) -> int:
    """``builders.put``; without a colour, the first colour still in the reserve."""
    if colour is None:
        colour = next(c for c in range(3) if state.reserve[pawn_type(rules, height, width, c)])
    return builders.put(rules, state, player, territory, height, width, colour)


def playable(rules, state) -> set[str]:
    return {rules.data.cards[i].id for i in options(rules, state, "play_card")}


def in_play(rules, state, player: int, *card_ids: str) -> None:
    """Orange cards already face up in front of a player."""
    for c in card_ids:
        give_card(rules, state, player, c)
        state.hands[player].remove(cid(rules, c))
        state.permanents[player].append(cid(rules, c))


def decision(state) -> str:
    return state.stack[-1]["kind"]


def ids(rules, territories) -> set[str]:
    return {rules.data.world.territories[t].id for t in territories}


def slot_of(rules, colour: str, k: int = 0) -> int:
    return [i for i, c in enumerate(rules.data.components.slot_colours) if c == colour][k]


def migrate_targets(rules, state, src: str) -> set[str]:
    state = act(rules, state, "migrate_from", tid(rules, src))
    return ids(rules, options(rules, state, "migrate_to"))


def swap_targets(rules, state, src: str) -> set[str]:
    if tid(rules, src) not in options(rules, state, "swap_from"):
        return set()
    state = act(rules, state, "swap_from", tid(rules, src))
    return ids(rules, options(rules, state, "swap_onto"))


def within(rules, state, src: str, steps: int, free_straits: bool = False) -> set[str]:
    world = rules.data.world
    dist = world.distance_free_straits if free_straits else world.distance
    s = tid(rules, src)
    return ids(rules, [t for t in range(world.size)
                       if state.owner[t] == EMPTY and dist[s, t] <= steps])


def reward(rules, state, territory: str, player: int = 0):
    """Resolve the reward step of ``territory`` for ``player`` (up to the next decision)."""
    return run(rules, state, {"kind": "reward", "player": player,
                              "territory": tid(rules, territory)})


# Playing orange cards (origin.md "Cards" and "Playing cards")
# -----------------------------------------------------------


def test_every_orange_effect_kind_is_known_and_shipped():
    """origin.md "Orange permanent cards": the 14 orange cards use the orange effect kinds."""
    rules, _ = table()
    deck = rules.data.deck("orange")
    assert [c.id for c in deck] == ORANGE_IDS
    assert {c.kind for c in deck} == set(ORANGE_EFFECTS)
    assert [c.level for c in deck] == [1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5]


@pytest.mark.parametrize("card", ORANGE_IDS)
def test_an_orange_card_needs_a_tile_of_its_level(card):
    """origin.md "Cards": an orange card can be played only if you own an innovation tile of the
    level printed on it."""
    rules, state = table()
    level = rules.data.cards[cid(rules, card)].level
    give_card(rules, state, 0, card)
    state.columns[0] = [list(range(1, level))] if level > 1 else []
    assert card not in playable(rules, state)
    state.columns[0] = [list(range(1, level + 1))]
    assert card in playable(rules, state)
    state.columns[0] = [list(range(1, 6))]  # a higher column holds that level too
    assert card in playable(rules, state)


def test_an_orange_card_stays_in_play_for_the_rest_of_the_game():
    """origin.md "Cards" and "Playing cards": an orange card goes face up in front of you and
    works from then on."""
    rules, state = table()
    p1 = give_card(rules, state, 0, "P1")
    state.columns[0] = [[1]]
    state = act(rules, state, "play_card", p1)
    assert state.permanents[0] == [p1]
    assert p1 not in state.hands[0] and p1 not in state.discard
    assert all(p1 not in d for d in state.decks)
    state.stack = []
    run(rules, state, {"kind": "begin_turn", "player": 0})  # a later turn
    assert state.permanents[0] == [p1]
    a = put(rules, state, 0, "AF7")
    assert move_range(rules, state, 0, a) == 2


def test_an_orange_card_works_on_after_its_tile_is_lost():
    """origin.md "Cards": it works until the end of the game, even if you later lose the tile
    (here to a Raid, Y7)."""
    rules, state = table()
    in_play(rules, state, 0, "P1")
    state.columns[0] = [[1]]
    give_card(rules, state, 1, "Y7")
    state.stack = []
    run(rules, state, {"kind": "begin_turn", "player": 1})
    state = act(rules, state, "play_card", cid(rules, "Y7"))
    state = act(rules, state, "choose_player", 1)  # player_0 is +2 from player_1
    state = act(rules, state, "choose_column", 0)
    assert state.columns[0] == []
    assert state.permanents[0] == [cid(rules, "P1")]
    a = put(rules, state, 0, "AF7")
    assert move_range(rules, state, 0, a) == 2


def test_only_one_orange_card_per_turn():
    """origin.md "Playing cards": at most one card of each colour per turn."""
    rules, state = table()
    give_card(rules, state, 0, "P1")
    give_card(rules, state, 0, "P2")
    state.columns[0] = [[1]]
    assert playable(rules, state) == {"P1", "P2"}
    state = act(rules, state, "play_card", cid(rules, "P1"))
    assert playable(rules, state) == set()


def test_an_orange_effect_helps_only_its_owner():
    """origin.md "Orange permanent cards": the effects read "your": another player's rules are
    unchanged."""
    rules, state = table()
    in_play(rules, state, 1, "P1", "P5", "P14")
    a = put(rules, state, 0, "AF1")
    assert move_range(rules, state, 0, a) == 1
    assert migrate_targets(rules, state, "AF1") == {"AF2", "AF3", "EU1"}


# P1 Trackers / P5 Canoes / P14 Leadership: range and straits ---------------------------------


def test_p1_trackers_range_plus_one_for_migrate():
    """P1 (origin.md "Trackers"): your Migrate range is +1 (a height-1 pawn goes 2 steps)."""
    rules, state = table()
    put(rules, state, 0, "AF7")
    assert migrate_targets(rules, state, "AF7") == within(rules, state, "AF7", 1)
    in_play(rules, state, 0, "P1")
    assert migrate_targets(rules, state, "AF7") == within(rules, state, "AF7", 2)
    assert "AN1" in within(rules, state, "AF7", 2)


def test_p1_trackers_range_plus_one_for_swap():
    """P1 (origin.md "Trackers"): ... and for Swap."""
    rules, state = table()
    put(rules, state, 0, "AF7", width=2)
    put(rules, state, 1, "AN1")  # AF7 =S9= AN2 - AN1: 2 steps
    assert swap_targets(rules, state, "AF7") == set()
    in_play(rules, state, 0, "P1")
    assert swap_targets(rules, state, "AF7") == {"AN1"}


def test_p1_adds_to_a_forced_march():
    """P1 with Y3 (origin.md "Forced March" and "Trackers"): range bonuses add up (+1 and +2)."""
    rules, state = table()
    a = put(rules, state, 0, "AF7", height=2)
    in_play(rules, state, 0, "P1")
    give_card(rules, state, 0, "Y3")
    state = act(rules, state, "play_card", cid(rules, "Y3"))
    assert move_range(rules, state, 0, a) == 5


def test_p5_canoes_strait_crossings_cost_nothing_for_migrate_and_swap():
    """P5 (origin.md "Canoes"): strait crossings cost 0 steps for your Migrate/Swap, on every
    turn."""
    rules, state = table()
    put(rules, state, 0, "AF1", width=2)
    put(rules, state, 1, "EU2")  # AF1 =S1= EU1 - EU2
    assert migrate_targets(rules, state, "AF1") == {"AF2", "AF3", "EU1"}
    assert swap_targets(rules, state, "AF1") == set()
    in_play(rules, state, 0, "P5")
    reach = migrate_targets(rules, state, "AF1")
    assert reach == within(rules, state, "AF1", 1, free_straits=True)
    assert {"EU1", "SA4"} <= reach  # SA4 via AF3 =S11= SA4
    assert swap_targets(rules, state, "AF1") == {"EU2"}


def test_p14_leadership_counts_pawns_one_taller_for_range():
    """P14 (origin.md "Leadership"): your pawns count as 1 taller for range."""
    rules, state = table()
    a = put(rules, state, 0, "AF7")
    in_play(rules, state, 0, "P14")
    assert move_range(rules, state, 0, a) == 2
    assert migrate_targets(rules, state, "AF7") == within(rules, state, "AF7", 2)


def test_p14_leadership_counts_pawns_one_wider_for_swap():
    """P14 (origin.md "Leadership"): ... and 1 wider for Swap: a width-2 pawn swaps onto a
    width-2 pawn, not onto a width-3 one."""
    rules, state = table()
    put(rules, state, 0, "AF5", width=2)
    put(rules, state, 1, "AF7", width=2)
    put(rules, state, 2, "AF3", width=3)
    assert swap_targets(rules, state, "AF5") == set()
    in_play(rules, state, 0, "P14")
    assert swap_targets(rules, state, "AF5") == {"AF7"}


def test_p14_leadership_does_not_change_the_pawns_for_objectives():
    """P14 (origin.md "Leadership"): "for range" and "for Swap" only; O15 (3 pawns of height 3)
    still counts the printed height."""
    rules, state = table()
    from primeval.envs.origin.rules.objectives import holds

    for t in ("AF5", "AF7", "AF3"):
        put(rules, state, 0, t, height=2)
    in_play(rules, state, 0, "P14")
    assert not holds(rules, state, 0, cid(rules, "O15"))


# P2 Oral Tradition / P3 Gatherers: the hand ----------------------------------------------------


def test_p2_oral_tradition_holds_three_objectives():
    """P2 (origin.md "Objective hand limit" and "Oral Tradition"): your objective hand limit is
    3 instead of 2."""
    rules, state = table()
    give_card(rules, state, 0, "O1")
    give_card(rules, state, 0, "O2")
    draw = {"kind": "draw", "player": 0, "deck": Deck.PURPLE, "count": 1}
    without = run(rules, state.copy(), draw)
    assert decision(without) == "return_card" and without.stack[-1]["count"] == 1
    in_play(rules, state, 0, "P2")
    state = run(rules, state, draw)
    assert decision(state) == "turn"
    assert len(state.hands[0]) == 3
    state = run(rules, state, draw)
    assert decision(state) == "return_card" and state.stack[-1]["count"] == 1


@pytest.mark.parametrize("gatherers", [False, True])
def test_p3_gatherers_returns_only_one_card_after_drawing_three(gatherers):
    """P3 (origin.md "Gatherers" and "Yellow, orange and purple rewards" (b)): with "draw 3,
    return 2" you return only 1 (net +2)."""
    rules, state = table()
    if gatherers:
        in_play(rules, state, 0, "P3")
    state = reward(rules, state, "AF5")  # yellow
    assert decision(state) == "reward_option"
    top3 = state.decks[Deck.YELLOW][:3]
    state = act(rules, state, "reward_option", RewardChoice.DRAW_CARDS)
    assert decision(state) == "return_card"
    assert state.stack[-1]["count"] == (1 if gatherers else 2)
    assert options(rules, state, "return_card") == set(top3)
    state = act(rules, state, "return_card", top3[0])
    if not gatherers:
        state = act(rules, state, "return_card", top3[1])
    assert len(state.hands[0]) == (2 if gatherers else 1)
    assert decision(state) == "turn"


# P4 Hunters / P7 Herding / Y12: hunting grounds ------------------------------------------------


def test_p4_hunters_draws_a_card_of_any_deck_with_a_hunting_token():
    """P4 (origin.md "Hunters" and "Hunting tokens"): you also draw the top card of any deck
    when you take a hunting token."""
    rules, state = table()
    af6 = tid(rules, "AF6")
    plain = reward(rules, state.copy(), "AF6")
    assert plain.hunt_owner[af6] == 0 and decision(plain) == "turn"
    in_play(rules, state, 0, "P4")
    state = reward(rules, state, "AF6")
    assert state.hunt_owner[af6] == 0
    assert decision(state) == "choose_deck"
    top = state.decks[Deck.ORANGE][0]
    state = act(rules, state, "choose_deck", Deck.ORANGE)
    assert state.hands[0] == [top]


def test_p4_hunters_also_draws_with_a_great_hunt():
    """P4 with Y12 (origin.md "Great Hunt" and "Hunters"): a token taken by Great Hunt is taken
    too."""
    rules, state = table()
    put(rules, state, 0, "AF5")
    in_play(rules, state, 0, "P4")
    give_card(rules, state, 0, "Y12")
    state = act(rules, state, "play_card", cid(rules, "Y12"))
    state = act(rules, state, "choose_territory", tid(rules, "AF6"))
    assert decision(state) == "choose_deck"


def test_p4_hunters_draws_nothing_on_an_emptied_green_territory():
    """P4 (origin.md "Hunters"): no token taken, no card."""
    rules, state = table()
    in_play(rules, state, 0, "P4")
    state.hunt_owner[tid(rules, "AF6")] = 1
    state = reward(rules, state, "AF6")
    assert decision(state) == "turn" and state.hands[0] == []


def test_p7_herding_draws_on_entering_a_green_territory_whose_token_is_gone():
    """P7 (origin.md "Herding"): entering a green territory whose token is already gone, draw
    the top card of any deck (without P7: nothing, origin.md "Tokens")."""
    rules, state = table()
    put(rules, state, 0, "AF7")
    state.hunt_owner[tid(rules, "AF6")] = 1
    plain = act(rules, state, "migrate_from", tid(rules, "AF7"))
    plain = act(rules, plain, "migrate_to", tid(rules, "AF6"))
    assert plain.hands[0] == [] and plain.current == 1  # nothing: the turn ended
    in_play(rules, state, 0, "P7")
    state = act(rules, state, "migrate_from", tid(rules, "AF7"))
    state = act(rules, state, "migrate_to", tid(rules, "AF6"))
    assert decision(state) == "choose_deck"
    top = state.decks[Deck.PURPLE][0]
    state = act(rules, state, "choose_deck", Deck.PURPLE)
    assert state.hands[0] == [top]


def test_p7_herding_gives_nothing_extra_where_the_token_is_still_there():
    """P7 (origin.md "Herding"): a green territory with its token gives the token (origin.md
    "Tokens") only."""
    rules, state = table()
    in_play(rules, state, 0, "P7")
    state = reward(rules, state, "AF6")
    assert state.hunt_owner[tid(rules, "AF6")] == 0
    assert decision(state) == "turn" and state.hands[0] == []


def test_p7_herding_gives_nothing_on_a_swap_onto_a_green_territory():
    """P7 with origin.md "Hunting tokens": swapping onto a green territory gives nothing,
    Herding included (the card speaks of entering; a Swap's green territory gives no reward at
    all)."""
    rules, state = table()
    put(rules, state, 0, "AF7", width=2)
    put(rules, state, 1, "AF6")
    state.hunt_owner[tid(rules, "AF6")] = 1
    in_play(rules, state, 0, "P7")
    state = act(rules, state, "swap_from", tid(rules, "AF7"))
    state = act(rules, state, "swap_onto", tid(rules, "AF6"))
    assert state.owner[tid(rules, "AF6")] == 0
    assert state.hands[0] == [] and state.current == 1


# P6 Crafting: brown rewards -------------------------------------------------------------------


@pytest.mark.parametrize("crafting", [False, True])
def test_p6_crafting_brown_reward_takes_two_tiles_from_any_columns(crafting):
    """P6 (origin.md "Crafting" and "Brown rewards" (a)): the 2 tiles may come from any columns,
    not only the brown one."""
    rules, state = table()
    state.slots = [0] * len(state.slots)
    y, b = slot_of(rules, "yellow"), slot_of(rules, "brown")
    state.slots[y], state.slots[b] = 1, 1
    if crafting:
        in_play(rules, state, 0, "P6")
    state = reward(rules, state, "AF2")  # brown
    state = act(rules, state, "reward_option", BrownRewardChoice.TWO_BROWN_TILES)
    assert decision(state) == "take_tile" and state.stack[-1]["count"] == 2
    assert options(rules, state, "take_tile") == ({y, b} if crafting else {b})
    if crafting:
        state = act(rules, state, "take_tile", y, rng=ScriptedRng([0]))
        assert decision(state) == "take_tile"
        assert b in options(rules, state, "take_tile")


def test_p6_crafting_leaves_the_other_brown_option_alone():
    """P6 (origin.md "Crafting"): brown (b) is still 1 tile from another (non-brown) column."""
    rules, state = table()
    state.slots = [0] * len(state.slots)
    y, b = slot_of(rules, "yellow"), slot_of(rules, "brown")
    state.slots[y], state.slots[b] = 1, 1
    in_play(rules, state, 0, "P6")
    state = reward(rules, state, "AF2")
    state = act(rules, state, "reward_option", BrownRewardChoice.ONE_OTHER_TILE)
    assert options(rules, state, "take_tile") == {y}


# P8 Adaptation / P10 Pioneers: Evolve --------------------------------------------------------


def evolve_pawns(rules, state, territory: str) -> set[tuple[int, int, int]]:
    state = act(rules, state, "evolve_at", tid(rules, territory))
    types = rules.data.components.pawn_types
    return {types[p] for p in options(rules, state, "evolve_pawn")}


def test_p8_adaptation_allows_two_trait_changes_on_every_turn():
    """P8 (origin.md "Adaptation" and "Evolve"): your Evolve may change two traits, each legal
    on its own."""
    rules, state = table()
    ref = (1, 1, BLACK)
    in_reserve = {rules.data.components.pawn_types[p] for p, n in enumerate(state.reserve) if n}
    assert evolve_pawns(rules, state, "AF6") == {p for p in in_reserve
                                                  if compatible(p, ref, 1)}
    in_play(rules, state, 0, "P8")
    two = evolve_pawns(rules, state, "AF6")
    assert two == {p for p in in_reserve if compatible(p, ref, 2)}
    assert (2, 2, BLACK) in two and (2, 2, WHITE) not in two and (1, 3, BLACK) not in two


def test_p10_pioneers_evolves_two_steps_from_the_reference_pawn():
    """P10 (origin.md "Pioneers"): you may Evolve 2 steps away from the reference pawn (the path
    goes through any territories, straits included)."""
    rules, state = table()
    dist = rules.data.world.distance
    origin = tid(rules, "AF0")
    near = set(options(rules, state, "evolve_at"))
    assert ids(rules, near) == {"AF2", "AF3", "AF4", "AF5", "AF6"}
    in_play(rules, state, 0, "P10")
    far = set(options(rules, state, "evolve_at"))
    assert far == {t for t in range(42) if 1 <= dist[origin, t] <= 2}
    assert {"AF1", "AF7", "EU5", "EU6", "SA4"} <= ids(rules, far)
    state = act(rules, state, "evolve_at", tid(rules, "SA4"))
    types = rules.data.components.pawn_types
    assert {types[p] for p in options(rules, state, "evolve_pawn")} == {
        (1, 1, WHITE), (1, 1, BROWN), (2, 1, BLACK), (1, 2, BLACK)}


def test_p10_pioneers_does_not_reach_three_steps():
    """P10 (origin.md "Pioneers"): 2 steps, not 3."""
    rules, state = table()
    in_play(rules, state, 0, "P10")
    assert tid(rules, "AN2") not in options(rules, state, "evolve_at")  # AF0-AF6-AF7=AN2


# P9 Warriors: Swap ----------------------------------------------------------------------------


def test_p9_warriors_swaps_with_pawns_of_equal_width():
    """P9 (origin.md "Warriors" and "Swap"): you may Swap with pawns of equal width (never wider
    ones)."""
    rules, state = table()
    put(rules, state, 0, "AF5", width=2)
    put(rules, state, 1, "AF7", width=2)
    put(rules, state, 2, "AF3", width=3)
    assert swap_targets(rules, state, "AF5") == set()
    in_play(rules, state, 0, "P9")
    assert swap_targets(rules, state, "AF5") == {"AF7"}
    state = act(rules, state, "swap_from", tid(rules, "AF5"))
    state = act(rules, state, "swap_onto", tid(rules, "AF7"))
    assert state.owner[tid(rules, "AF7")] == 0 and state.owner[tid(rules, "AF5")] == 1


# P11 Trade Routes: strait tokens -------------------------------------------------------------


def test_p11_trade_routes_takes_a_tile_with_a_strait_token():
    """P11 (origin.md "Trade Routes" and "Strait tokens"): when you take a strait token, also
    take 1 tile from any column if legal."""
    rules, state = table()
    state.slots = [0] * len(state.slots)
    p = slot_of(rules, "purple")
    state.slots[p] = 1
    put(rules, state, 0, "AF1")
    put(rules, state, 0, "EU2")
    in_play(rules, state, 0, "P11")
    state = act(rules, state, "migrate_from", tid(rules, "EU2"))
    state = act(rules, state, "migrate_to", tid(rules, "EU1"))
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)  # orange: no orange tile, one card
    s1 = rules.data.world.strait_ids.index("S1")
    assert state.strait_owner[s1] == 0
    assert decision(state) == "take_tile" and options(rules, state, "take_tile") == {p}
    state = act(rules, state, "take_tile", p, rng=ScriptedRng([0]))
    assert state.columns[0] == [[1]]


def test_p11_trade_routes_for_the_passive_player_of_a_swap():
    """P11 (origin.md "Trade Routes" and "Swap"): the passive player of a Swap who completes a
    strait takes the token, and with Trade Routes a tile (their decision, in the active player's
    turn)."""
    rules, state = table()
    state.slots = [0] * len(state.slots)
    b = slot_of(rules, "brown")
    state.slots[b] = 1
    put(rules, state, 1, "AF1")
    put(rules, state, 0, "EU1", width=2)
    put(rules, state, 1, "EU2")
    in_play(rules, state, 1, "P11")
    state = act(rules, state, "swap_from", tid(rules, "EU1"))
    state = act(rules, state, "swap_onto", tid(rules, "EU2"))
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)  # player_0's yellow reward: a card
    s1 = rules.data.world.strait_ids.index("S1")
    assert state.strait_owner[s1] == 1
    assert decision(state) == "take_tile" and state.stack[-1]["player"] == 1
    state = act(rules, state, "take_tile", b, rng=ScriptedRng([0]))
    assert state.columns[1] == [[1]]


def test_p11_no_tile_when_none_fits():
    """P11 (origin.md "Trade Routes"): "if legal" -- with no tile to place, nothing more happens."""
    rules, state = table()
    state.slots = [3 if s else 0 for s in state.slots]
    put(rules, state, 0, "AF1")
    put(rules, state, 0, "EU2")
    in_play(rules, state, 0, "P11")
    state = act(rules, state, "migrate_from", tid(rules, "EU2"))
    state = act(rules, state, "migrate_to", tid(rules, "EU1"))
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    assert state.strait_owner[rules.data.world.strait_ids.index("S1")] == 0
    assert state.columns[0] == []
    assert state.current == 1


# P12 Agriculture / P13 Writing: points ---------------------------------------------------------


def test_p12_agriculture_adds_one_point_per_objective_completed():
    """P12 (origin.md "Agriculture"): +1 point each time you complete an objective."""
    rules, state = table()
    for t in ("AF6", "EU7"):
        put(rules, state, 0, t)
    give_card(rules, state, 0, "O1")  # 3 points
    in_play(rules, state, 0, "P12")
    state = act(rules, state, "play_card", cid(rules, "O1"))
    assert state.objective_points[0] == 4
    assert scoring.points(rules, state, 0)["objectives"] == 4


def test_p12_agriculture_counts_only_objectives_completed_while_in_play():
    """P12 (origin.md "Agriculture"): "each time you complete" -- earlier objectives get nothing."""
    rules, state = table()
    state.objectives_done[0] = [cid(rules, "O5")]
    state.objective_points[0] = 3
    in_play(rules, state, 0, "P12")
    assert scoring.points(rules, state, 0)["objectives"] == 3


def test_p13_writing_one_point_per_column_reaching_level_three():
    """P13 (origin.md "Writing" and "Final scoring"): at game end +1 point for each of your
    columns that reaches level 3 or higher."""
    rules, state = table()
    state.columns[0] = [[1, 2, 3], [1, 2], [1, 2, 3, 4, 5], [1]]
    before = scoring.points(rules, state, 0)
    assert before["column_bonus"] == 0
    assert before["tiles"] == 3 + 2 + (4 + 5) + 1
    in_play(rules, state, 0, "P13")
    after = scoring.points(rules, state, 0)
    assert after["column_bonus"] == 2
    assert sum(after.values()) - sum(before.values()) == 2
    assert rules.scores(state)[0] == pytest.approx(sum(after.values()))


def test_p11_trade_routes_with_claim_the_strait():
    """P11 (origin.md "Trade Routes": "whenever you take a strait token") with Y8 (origin.md
    "Claim the Strait"): a token taken from another player by the card brings a tile too."""
    rules, state = table()
    state.slots = [0] * len(state.slots)
    p = slot_of(rules, "purple")
    state.slots[p] = 1
    s1 = rules.data.world.strait_ids.index("S1")
    state.strait_owner[s1] = 1  # Gibraltar AF1-EU1, player_1's token
    put(rules, state, 0, "AF1")
    in_play(rules, state, 0, "P11")
    give_card(rules, state, 0, "Y8")
    state = act(rules, state, "play_card", cid(rules, "Y8"))
    assert decision(state) == "claim_strait"
    state = act(rules, state, "choose_strait", s1)
    assert state.strait_owner[s1] == 0
    assert decision(state) == "take_tile" and options(rules, state, "take_tile") == {p}
    state = act(rules, state, "take_tile", p, rng=ScriptedRng([0]))
    assert state.columns[0] == [[1]]
