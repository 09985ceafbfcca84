"""Rule tests for playing cards (origin.md "Cards" and "Playing cards") and every yellow action
card Y1-Y14 (origin.md "Yellow action cards" as shipped in ``data/cards.yaml``).

Positions are built by hand (``builders.table``): the start of ``player_0``'s turn with empty
hands and only the neutral pawn (h1/w1/black) on the Origin territory AF0. Map excerpt
(origin.md "The map", the shipped reconstruction)::

    AF1 - AF2 - AF4 - AF6 - AF7        AF1 =S1= EU1 - EU2     AF7 =S9= AN2
      \\    \\   |    /    /            AF3 =S11= SA4          AF4 =S3= EU6
       AF3 - AF0 (Origin) - AF5        AF2 =S2= EU5
             (AF3 - AF5, AF5 - AF7)
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.origin.actions import RewardChoice
from primeval.envs.origin.gamedata import YELLOW_EFFECTS
from primeval.envs.origin.rules.cards import YELLOW
from primeval.envs.origin.rules.pawns import compatible
from primeval.envs.origin.state import EMPTY, Deck
from tests.envs.origin import builders
from tests.envs.origin.builders import (
    ScriptedRng,
    act,
    cid,
    count_cards,
    count_tiles,
    give_card,
    options,
    pawn_type,
    run,
    table,
    tid,
)

WHITE, BROWN, BLACK = 0, 1, 2


def put(rules, state, player: int, territory: str, height: int = 1, width: int = 1,
        colour: int | None = None) -> int:
    """``builders.put``; without a colour, the first colour still in the reserve (the 27
    pawns of a 3-player game are all different)."""
    if colour is None:
        colour = next(c for c in range(3) if state.reserve[pawn_type(rules, height, width, c)])
    return builders.put(rules, state, player, territory, height, width, colour)


def playable(rules, state) -> set[str]:
    """Ids of the cards the deciding player may play now."""
    return {rules.data.cards[i].id for i in options(rules, state, "play_card")}


def play(rules, state, card_id: str, rng=None):
    return act(rules, state, "play_card", cid(rules, card_id), rng=rng)


def decision(state) -> str:
    return state.stack[-1]["kind"]


def ids(rules, territories) -> set[str]:
    return {rules.data.world.territories[t].id for t in territories}


def pass_allowed(rules, state) -> bool:
    return rules.layout.encode("pass") in rules.legal_actions(state)


def migrate(rules, state, src: str, dst: str, rng=None):
    state = act(rules, state, "migrate_from", tid(rules, src))
    return act(rules, state, "migrate_to", tid(rules, dst), rng=rng)


def token_gone(rules, state, territory: str, holder: int = 1) -> None:
    """The hunting token of a green territory was taken earlier (by ``holder``)."""
    state.hunt_owner[tid(rules, territory)] = holder


def no_tiles(state) -> None:
    """Empty every face-up slot (the reserve stays, so the game does not end)."""
    state.slots = [0] * len(state.slots)


def quiet_action(rules, state):
    """player_0's pawn on AF7 migrates to AF6 whose token is gone: no reward decision."""
    put(rules, state, 0, "AF7")
    token_gone(rules, state, "AF6")
    return migrate(rules, state, "AF7", "AF6")


def slot_of(rules, colour: str, k: int = 0) -> int:
    return [i for i, c in enumerate(rules.data.components.slot_colours) if c == colour][k]


# Card-play limits (origin.md "Cards" and "Playing cards")
# -------------------------------------------------------------


def test_every_yellow_effect_kind_is_implemented_once():
    """origin.md "Cards": card effects are data-driven, each kind implemented once."""
    rules, _ = table()
    assert set(YELLOW) == set(YELLOW_EFFECTS)
    kinds = [c.kind for c in rules.data.deck("yellow")]
    assert len(kinds) == 14 and set(kinds) <= set(YELLOW)


def test_a_card_may_be_played_before_the_action():
    """origin.md "Playing cards": cards are played at any time of one's own turn, before the
    action too."""
    rules, state = table()
    give_card(rules, state, 0, "Y10")
    assert not state.turn_state.get("action_taken")
    assert "Y10" in playable(rules, state)
    assert options(rules, state, "evolve_at")  # the action is still open alongside


def test_a_card_may_be_played_after_the_action():
    """origin.md "Playing cards": ... or after the action, until the turn is ended with ``pass``."""
    rules, state = table()
    give_card(rules, state, 0, "Y10")
    state = quiet_action(rules, state)
    assert decision(state) == "turn" and state.turn_state["action_taken"]
    assert "Y10" in playable(rules, state)
    assert pass_allowed(rules, state)
    state = play(rules, state, "Y10")
    assert decision(state) == "choose_deck"


def test_at_most_one_card_of_each_colour_per_turn():
    """origin.md "Playing cards": at most one card of each colour per turn (so at most 3 cards
    per turn)."""
    rules, state = table()
    for card in ("Y10", "Y3", "P1", "O1"):
        give_card(rules, state, 0, card)
    state.columns[0] = [[1]]
    put(rules, state, 0, "AF6")
    put(rules, state, 0, "EU7")  # O1: 2 pawns on green territories
    assert playable(rules, state) == {"Y10", "Y3", "P1", "O1"}
    state = play(rules, state, "Y10")
    state = act(rules, state, "choose_deck", Deck.YELLOW)  # two more yellow cards drawn
    assert len(state.hands[0]) == 5
    assert playable(rules, state) == {"P1", "O1"}
    state = play(rules, state, "P1")
    assert playable(rules, state) == {"O1"}
    state = play(rules, state, "O1")
    assert playable(rules, state) == set()


def test_cards_are_played_only_on_ones_own_turn():
    """origin.md "Playing cards": cards only on one's own turn; another player's card is not in
    the mask and playing it raises."""
    rules, state = table()
    give_card(rules, state, 1, "Y10")
    assert playable(rules, state) == set()
    with pytest.raises(IllegalActionError):
        play(rules, state, "Y10")
    give_card(rules, state, 0, "Y3")
    state.stack = []
    run(rules, state, {"kind": "begin_turn", "player": 1})
    assert state.stack[-1]["player"] == 1
    assert playable(rules, state) == {"Y10"}  # not player_0's Y3


def test_the_colour_limit_is_per_turn():
    """origin.md "Playing cards": the one-per-colour limit starts afresh with every turn."""
    rules, state = table()
    give_card(rules, state, 0, "Y10")
    give_card(rules, state, 1, "Y3")
    state = play(rules, state, "Y10")
    state = act(rules, state, "choose_deck", Deck.ORANGE)
    state = quiet_action(rules, state)  # nothing left to do: the turn ends by itself
    assert state.stack[-1] == {"kind": "turn", "player": 1}
    assert "Y3" in playable(rules, state)


def test_a_yellow_card_is_discarded_out_of_the_game():
    """origin.md "Cards" and "Playing cards": a yellow card is resolved and discarded; discards
    are out of the game (never back into a deck)."""
    rules, state = table()
    y10 = give_card(rules, state, 0, "Y10")
    state = play(rules, state, "Y10")
    state = act(rules, state, "choose_deck", Deck.YELLOW)
    assert state.discard == [y10]
    assert all(y10 not in pile for pile in (*state.decks, *state.hands))
    assert count_cards(state) == 48


def test_a_yellow_card_does_not_use_the_action():
    """origin.md "Playing cards" and "A turn": a card is not the turn's action; the one action
    is still to be taken."""
    rules, state = table()
    put(rules, state, 0, "AF5")
    put(rules, state, 0, "EU4")
    give_card(rules, state, 0, "Y13")
    state = play(rules, state, "Y13")
    state = act(rules, state, "choose_territory", tid(rules, "AF5"))
    state = act(rules, state, "choose_territory", tid(rules, "EU4"))
    assert decision(state) == "turn"
    assert not state.turn_state.get("action_taken")
    assert not pass_allowed(rules, state)
    assert options(rules, state, "migrate_from")


# Y1 Migration Wave / Y2 Baby Boom: an extra action ----------------------------------------------


def test_y1_migration_wave_gives_one_extra_migrate_with_its_reward():
    """Y1 (origin.md "Migration Wave"): take one extra Migrate action this turn, its reward too."""
    rules, state = table()
    put(rules, state, 0, "AF7")
    token_gone(rules, state, "AF6")
    no_tiles(state)
    give_card(rules, state, 0, "Y1")
    state = play(rules, state, "Y1")
    state = migrate(rules, state, "AF7", "AF6")  # the turn's action
    assert decision(state) == "turn"
    assert options(rules, state, "migrate_from") == {tid(rules, "AF6")}
    assert options(rules, state, "evolve_at") == set()  # only the extra Migrate is open
    assert options(rules, state, "swap_from") == set()
    assert pass_allowed(rules, state)  # the extra action is optional
    top_orange = state.decks[Deck.ORANGE][0]
    state = migrate(rules, state, "AF6", "AF4")  # the extra Migrate onto an orange territory
    assert decision(state) == "reward_option"
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)  # no tile to take: the card only
    assert top_orange in state.hands[0]
    assert state.owner[tid(rules, "AF4")] == 0
    assert state.current == 1  # nothing left to do: the turn ended


def test_y1_played_after_the_action_still_gives_the_extra_migrate():
    """Y1 (origin.md "Migration Wave" and "Playing cards" before or after the action): played
    after the action, the extra Migrate is open at once."""
    rules, state = table()
    give_card(rules, state, 0, "Y1")
    state = quiet_action(rules, state)
    assert options(rules, state, "migrate_from") == set()
    state = play(rules, state, "Y1")
    assert options(rules, state, "migrate_from") == {tid(rules, "AF6")}


def test_y2_baby_boom_gives_one_extra_evolve_with_its_reward():
    """Y2 (origin.md "Baby Boom"): take one extra Evolve action this turn, its reward too."""
    rules, state = table()
    no_tiles(state)
    give_card(rules, state, 0, "Y2")
    state = play(rules, state, "Y2")
    af6 = tid(rules, "AF6")
    state = act(rules, state, "evolve_at", af6)
    state = act(rules, state, "evolve_pawn", pawn_type(rules, 1, 1, WHITE))
    assert state.hunt_owner[af6] == 0  # the reward of the first Evolve
    assert decision(state) == "turn"
    assert options(rules, state, "evolve_at")
    assert options(rules, state, "migrate_from") == set()  # only the extra Evolve is open
    assert pass_allowed(rules, state)
    state = act(rules, state, "evolve_at", tid(rules, "AF4"))
    state = act(rules, state, "evolve_pawn", pawn_type(rules, 1, 1, BROWN))
    assert decision(state) == "reward_option"  # the extra Evolve's reward
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    assert state.villages[0] == 7
    assert state.current == 1


def test_without_an_extra_action_card_one_action_ends_the_actions():
    """origin.md "A turn": exactly one action per turn; after it no action segment is offered."""
    rules, state = table()
    give_card(rules, state, 0, "Y10")
    state = quiet_action(rules, state)
    for segment in ("evolve_at", "migrate_from", "swap_from"):
        assert options(rules, state, segment) == set()


# Y3 Forced March / Y5 Sea Voyage: this turn's range -----------------------------------------------


def test_y3_forced_march_adds_two_to_migrate_range_this_turn():
    """Y3 (origin.md "Forced March"): this turn your Migrate range is +2 (a height-1 pawn goes 3
    steps)."""
    rules, state = table()
    af7 = put(rules, state, 0, "AF7")
    give_card(rules, state, 0, "Y3")
    dist = rules.data.world.distance
    state = act(rules, state, "migrate_from", af7)
    assert options(rules, state, "migrate_to") == {
        t for t in range(42) if state.owner[t] == EMPTY and dist[af7, t] <= 1}
    state.stack.pop()
    state = play(rules, state, "Y3")
    state = act(rules, state, "migrate_from", af7)
    reach = options(rules, state, "migrate_to")
    assert reach == {t for t in range(42) if state.owner[t] == EMPTY and dist[af7, t] <= 3}
    assert tid(rules, "SA6") in reach and tid(rules, "SA5") not in reach


def test_y3_forced_march_adds_two_to_swap_range():
    """Y3 (origin.md "Forced March"): the +2 also holds for Swap (onto a thinner pawn 3 steps
    away)."""
    rules, state = table()
    put(rules, state, 0, "AF7", width=2)
    put(rules, state, 1, "SA4")  # 3 steps: AF7 - AF5 - AF3 =S11= SA4
    give_card(rules, state, 0, "Y3")
    assert options(rules, state, "swap_from") == set()
    state = play(rules, state, "Y3")
    assert options(rules, state, "swap_from") == {tid(rules, "AF7")}
    state = act(rules, state, "swap_from", tid(rules, "AF7"))
    assert options(rules, state, "swap_onto") == {tid(rules, "SA4")}


def test_y3_forced_march_lasts_only_for_the_turn():
    """Y3 (origin.md "Forced March"): "this turn" -- on the next turn the range is the height
    again."""
    rules, state = table()
    af7 = put(rules, state, 0, "AF7")
    give_card(rules, state, 0, "Y3")
    state = play(rules, state, "Y3")
    state.stack = []
    run(rules, state, {"kind": "begin_turn", "player": 0})
    state = act(rules, state, "migrate_from", af7)
    assert ids(rules, options(rules, state, "migrate_to")) == {"AF5", "AF6", "AN2"}


def test_y3_does_not_help_other_players():
    """Y3 (origin.md "Forced March"): "your" range only; another player's range stays their
    height."""
    rules, state = table()
    give_card(rules, state, 0, "Y3")
    state = play(rules, state, "Y3")
    b = put(rules, state, 1, "AF7")
    from primeval.envs.origin.rules.moves import move_range

    assert move_range(rules, state, 1, b) == 1
    assert move_range(rules, state, 0, b) == 3


def test_y5_sea_voyage_makes_strait_crossings_free_this_turn():
    """Y5 (origin.md "Sea Voyage"): this turn strait crossings cost 0 steps for your moves
    (Migrate)."""
    rules, state = table()
    af1 = put(rules, state, 0, "AF1")
    give_card(rules, state, 0, "Y5")
    state = act(rules, state, "migrate_from", af1)
    assert ids(rules, options(rules, state, "migrate_to")) == {"AF2", "AF3", "EU1"}
    state.stack.pop()
    state = play(rules, state, "Y5")
    state = act(rules, state, "migrate_from", af1)
    reach = ids(rules, options(rules, state, "migrate_to"))
    # EU1 across Gibraltar for free, then EU2; SA4 across the South Atlantic from AF3.
    assert {"EU1", "EU2", "SA4"} <= reach
    free = rules.data.world.distance_free_straits
    assert reach == ids(rules, [t for t in range(42)
                                if state.owner[t] == EMPTY and free[af1, t] <= 1])


def test_y5_sea_voyage_applies_to_swap():
    """Y5 (origin.md "Sea Voyage"): free strait crossings count for Swap too."""
    rules, state = table()
    put(rules, state, 0, "AF1", width=2)
    put(rules, state, 1, "EU2")  # AF1 =S1= EU1 - EU2: 2 steps, 1 with free straits
    give_card(rules, state, 0, "Y5")
    assert options(rules, state, "swap_from") == set()
    state = play(rules, state, "Y5")
    state = act(rules, state, "swap_from", tid(rules, "AF1"))
    assert ids(rules, options(rules, state, "swap_onto")) == {"EU2"}


# Y4 Raft ----------------------------------------------------------------------------------------


def test_y4_raft_moves_any_own_pawn_across_a_strait_and_rewards_it():
    """Y4 (origin.md "Raft"): move one of your pawns (with its village) to an empty strait neighbour
    of a territory holding one of your pawns, and take its reward. Holding both ends of
    Gibraltar afterwards takes its strait token (origin.md "Tokens")."""
    rules, state = table()
    af1 = put(rules, state, 0, "AF1")
    af5 = put(rules, state, 0, "AF5", height=2)
    no_tiles(state)
    give_card(rules, state, 0, "Y4")
    state = play(rules, state, "Y4")
    assert decision(state) == "raft_pawn"
    assert options(rules, state, "choose_territory") == {af1, af5}
    state = act(rules, state, "choose_territory", af5)
    assert ids(rules, options(rules, state, "choose_territory")) == {"EU1"}
    eu1 = tid(rules, "EU1")
    state = act(rules, state, "choose_territory", eu1)
    assert state.owner[eu1] == 0 and state.pawn[eu1] == pawn_type(rules, 2, 1, WHITE)
    assert state.owner[af5] == EMPTY and state.pawn[af5] == -1
    assert state.villages[0] == 7  # the village moved with the pawn
    assert decision(state) == "reward_option" and state.stack[-1]["colour"] == "orange"
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    gibraltar = rules.data.world.strait_ids.index("S1")
    assert state.strait_owner[gibraltar] == 0
    assert not state.turn_state.get("action_taken")  # the card is not the action


def test_y4_raft_lands_only_on_empty_strait_ends():
    """Y4 (origin.md "Raft"): the landing territory must be empty and across a strait."""
    rules, state = table()
    put(rules, state, 0, "AF7")  # ends: AN2 (S9)
    put(rules, state, 0, "AF3")  # ends: SA4 (S11)
    put(rules, state, 1, "SA4", width=2)
    give_card(rules, state, 0, "Y4")
    state = play(rules, state, "Y4")
    state = act(rules, state, "choose_territory", tid(rules, "AF3"))
    assert ids(rules, options(rules, state, "choose_territory")) == {"AN2"}


@pytest.mark.parametrize("case", ["no_strait_end", "far_end_taken", "no_pawn"])
def test_y4_raft_is_not_playable_without_a_landing(case):
    """Y4 (origin.md "Raft", no dead ends): playable only if some empty territory lies across a
    strait from one of your pawns."""
    rules, state = table()
    if case == "no_strait_end":
        put(rules, state, 0, "AF5")
    elif case == "far_end_taken":
        put(rules, state, 0, "AF1")
        put(rules, state, 1, "EU1")
    give_card(rules, state, 0, "Y4")
    assert "Y4" not in playable(rules, state)


# Y6 Theft ---------------------------------------------------------------------------------------


def test_y6_theft_takes_a_random_card_of_a_chosen_player():
    """Y6 (origin.md "Theft"): take a random card from another player's hand (only players holding
    cards can be chosen)."""
    rules, state = table()
    give_card(rules, state, 0, "Y6")
    p1_cards = [give_card(rules, state, 1, c) for c in ("Y1", "P3", "O5")]
    state = play(rules, state, "Y6")
    assert decision(state) == "steal_card"
    assert options(rules, state, "choose_player") == {0}  # player_1 (+1); player_2 has none
    state = act(rules, state, "choose_player", 0, rng=ScriptedRng([1]))
    assert state.hands[0] == [p1_cards[1]]
    assert state.hands[1] == [p1_cards[0], p1_cards[2]]
    assert decision(state) == "turn"


def test_y6_theft_of_an_objective_respects_the_hand_limit():
    """Y6 (origin.md "Theft") with origin.md "Objective hand limit": a stolen objective above
    the limit of 2 is returned to the bottom of the purple deck."""
    rules, state = table()
    give_card(rules, state, 0, "Y6")
    mine = [give_card(rules, state, 0, c) for c in ("O1", "O2")]
    stolen = give_card(rules, state, 2, "O3")
    state = play(rules, state, "Y6")
    assert options(rules, state, "choose_player") == {1}  # player_2 is +2
    state = act(rules, state, "choose_player", 1, rng=ScriptedRng([0]))
    assert decision(state) == "return_card"
    assert options(rules, state, "return_card") == {*mine, stolen}
    state = act(rules, state, "return_card", mine[0])
    assert sorted(state.hands[0]) == sorted([mine[1], stolen])
    assert state.decks[Deck.PURPLE][-1] == mine[0]


def test_y6_theft_is_not_playable_when_no_other_hand_holds_cards():
    """Y6 (origin.md "Theft", no dead ends): nothing to steal, not playable."""
    rules, state = table()
    give_card(rules, state, 0, "Y6")
    give_card(rules, state, 0, "Y7")
    assert "Y6" not in playable(rules, state)


# Y7 Raid ----------------------------------------------------------------------------------------


def test_y7_raid_takes_the_top_tile_of_a_chosen_column_into_own_columns():
    """Y7 (origin.md "Raid"): take the top tile of one of another player's columns and put it into
    your columns if legal (a level 3 on your column topped by 2)."""
    rules, state = table()
    give_card(rules, state, 0, "Y7")
    state.columns[0] = [[1, 2]]
    state.columns[2] = [[1], [1, 2, 3]]
    state = play(rules, state, "Y7")
    assert options(rules, state, "choose_player") == {1}  # only player_2 has tiles
    state = act(rules, state, "choose_player", 1)
    assert decision(state) == "steal_tile_column"
    assert options(rules, state, "choose_column") == {0, 1}
    state = act(rules, state, "choose_column", 1)
    assert state.columns[0] == [[1, 2, 3]]
    assert state.columns[2] == [[1], [1, 2]]
    assert state.lost_tiles == 0


def test_y7_raid_a_tile_that_does_not_fit_leaves_the_game():
    """Y7 (origin.md "Raid"): a raided tile that cannot go into your columns is discarded; an
    emptied column disappears."""
    rules, state = table()
    give_card(rules, state, 0, "Y7")
    state.columns[1] = [[1, 2]]
    tiles = count_tiles(state)
    state = play(rules, state, "Y7")
    state = act(rules, state, "choose_player", 0)
    state = act(rules, state, "choose_column", 0)
    assert state.columns[0] == [] and state.columns[1] == [[1]]
    assert state.lost_tiles == 1
    assert count_tiles(state) == tiles


def test_y7_raid_a_level_one_tile_starts_a_new_column_and_empties_the_victims():
    """Y7 (origin.md "Raid" and "Tile columns"): a level-1 tile always fits (a new column)."""
    rules, state = table()
    give_card(rules, state, 0, "Y7")
    state.columns[0] = [[1, 2]]
    state.columns[1] = [[1]]
    state = play(rules, state, "Y7")
    state = act(rules, state, "choose_player", 0)
    state = act(rules, state, "choose_column", 0)
    assert state.columns[0] == [[1, 2], [1]]
    assert state.columns[1] == []


def test_y7_raid_is_not_playable_when_nobody_else_has_tiles():
    """Y7 (origin.md "Raid", no dead ends)."""
    rules, state = table()
    give_card(rules, state, 0, "Y7")
    state.columns[0] = [[1]]
    assert "Y7" not in playable(rules, state)


# Y8 Claim the Strait ----------------------------------------------------------------------------


def test_y8_claims_a_strait_token_held_by_another_player_at_an_end_you_hold():
    """Y8 (origin.md "Claim the Strait" and "Strait tokens"): take a strait token from another
    player if you hold at least one end of that strait."""
    rules, state = table()
    straits = rules.data.world.strait_ids
    s1, s2, s5 = straits.index("S1"), straits.index("S2"), straits.index("S5")
    state.strait_owner[s1] = 1  # Gibraltar AF1-EU1: player_0 holds AF1
    state.strait_owner[s2] = 2  # Suez AF2-EU5: player_0 holds neither end
    state.strait_owner[s5] = 0  # already player_0's
    put(rules, state, 0, "AF1")
    put(rules, state, 0, "NA4")  # North Atlantic end
    give_card(rules, state, 0, "Y8")
    state = play(rules, state, "Y8")
    assert decision(state) == "claim_strait"
    assert options(rules, state, "choose_strait") == {s1}
    state = act(rules, state, "choose_strait", s1)
    assert state.strait_owner[s1] == 0


@pytest.mark.parametrize("case", ["token_on_board", "no_end_held", "own_token"])
def test_y8_is_not_playable_without_a_claimable_token(case):
    """Y8 (origin.md "Claim the Strait", no dead ends): a token still on the board, one whose
    ends you do not hold, or your own token cannot be claimed."""
    rules, state = table()
    s1 = rules.data.world.strait_ids.index("S1")
    put(rules, state, 0, "AF1")
    if case == "no_end_held":
        state.strait_owner[rules.data.world.strait_ids.index("S2")] = 1
    elif case == "own_token":
        state.strait_owner[s1] = 0
    give_card(rules, state, 0, "Y8")
    assert "Y8" not in playable(rules, state)


# Y9 Inspiration ---------------------------------------------------------------------------------


def test_y9_inspiration_takes_a_tile_from_any_column_under_stacking_rules():
    """Y9 (origin.md "Inspiration" and "Tile columns"): take 1 tile from any column of the
    rewards board; only tiles that fit your columns are offered; the slot is refilled from the
    reserve."""
    rules, state = table()
    no_tiles(state)
    y, o, p, b = (slot_of(rules, c) for c in ("yellow", "orange", "purple", "brown"))
    state.slots[y], state.slots[o], state.slots[p], state.slots[b] = 2, 1, 4, 3
    state.columns[0] = [[1]]
    give_card(rules, state, 0, "Y9")
    state = play(rules, state, "Y9")
    assert decision(state) == "take_tile"
    assert options(rules, state, "take_tile") == {y, o}
    reserve = list(state.tile_reserve)
    state = act(rules, state, "take_tile", y, rng=ScriptedRng([0]))
    assert state.columns[0] == [[1, 2]]
    first = next(i for i, n in enumerate(reserve) if n)
    assert state.slots[y] == first + 1
    assert decision(state) == "turn"  # one tile only


def test_y9_inspiration_is_not_playable_when_no_tile_fits():
    """Y9 (origin.md "Inspiration", no dead ends): no face-up tile can be placed, not playable."""
    rules, state = table()
    state.slots = [2 if s else 0 for s in state.slots]
    give_card(rules, state, 0, "Y9")
    assert "Y9" not in playable(rules, state)
    state.columns[0] = [[1]]
    assert "Y9" in playable(rules, state)


# Y10 Foresight ----------------------------------------------------------------------------------


def test_y10_foresight_draws_the_top_two_cards_of_the_chosen_deck():
    """Y10 (origin.md "Foresight"): draw the top 2 cards of one deck (any non-empty deck)."""
    rules, state = table()
    give_card(rules, state, 0, "Y10")
    state.decks[Deck.YELLOW] = []  # an empty deck cannot be chosen
    top = state.decks[Deck.ORANGE][:2]
    state = play(rules, state, "Y10")
    assert options(rules, state, "choose_deck") == {Deck.ORANGE, Deck.PURPLE}
    state = act(rules, state, "choose_deck", Deck.ORANGE)
    assert state.hands[0] == top
    assert len(state.decks[Deck.ORANGE]) == 12


def test_y10_foresight_objectives_above_the_limit_are_returned():
    """Y10 (origin.md "Foresight") with origin.md "Objective hand limit": drawing objectives
    checks the hand limit of 2."""
    rules, state = table()
    give_card(rules, state, 0, "Y10")
    give_card(rules, state, 0, "O1")
    state = play(rules, state, "Y10")
    state = act(rules, state, "choose_deck", Deck.PURPLE)
    assert decision(state) == "return_card" and state.stack[-1]["count"] == 1
    state = act(rules, state, "return_card", cid(rules, "O1"))
    assert len(state.hands[0]) == 2


def test_y10_foresight_is_not_playable_when_every_deck_is_empty():
    """Y10 (origin.md "Foresight", no dead ends): nothing to draw, not playable."""
    rules, state = table()
    give_card(rules, state, 0, "Y10")
    state.decks = [[], [], []]
    assert "Y10" not in playable(rules, state)


@pytest.mark.parametrize("card", ["Y1", "Y2", "Y3", "Y5", "Y14"])
def test_turn_long_yellow_cards_are_playable_at_any_time_of_the_turn(card):
    """Y1/Y2/Y3/Y5/Y14 (origin.md "Yellow action cards" and "Playing cards" any time of one's
    turn): they need no target, so they are playable before and after the action (after it,
    Y3/Y5/Y14 only matter with an extra action)."""
    rules, state = table()
    give_card(rules, state, 0, card)
    assert card in playable(rules, state)
    state = quiet_action(rules, state)
    assert card in playable(rules, state)


# Y11 Barter -------------------------------------------------------------------------------------


def test_y11_barter_sees_the_hand_and_exchanges_one_card_for_one():
    """Y11 (origin.md "Barter"): look at another player's hand and exchange one of your cards
    for one of theirs (any card of theirs may be taken; you give any one of yours)."""
    rules, state = table()
    give_card(rules, state, 0, "Y11")
    y10 = give_card(rules, state, 0, "Y10")
    p1, o1 = give_card(rules, state, 1, "P1"), give_card(rules, state, 1, "O1")
    state = play(rules, state, "Y11")
    assert decision(state) == "barter_player"
    assert options(rules, state, "choose_player") == {0}
    state = act(rules, state, "choose_player", 0)
    assert options(rules, state, "take_card") == {p1, o1}
    state = act(rules, state, "take_card", o1)
    assert options(rules, state, "give_card") == {y10}
    state = act(rules, state, "give_card", y10)
    assert state.hands[0] == [o1]
    assert sorted(state.hands[1]) == sorted([p1, y10])
    assert count_cards(state) == 48


def test_y11_barter_respects_the_objective_limit_of_the_receiver():
    """Y11 (origin.md "Barter") with origin.md "Objective hand limit": a player who receives a
    third objective returns one."""
    rules, state = table()
    give_card(rules, state, 0, "Y11")
    give_card(rules, state, 0, "O1")
    give_card(rules, state, 1, "O2")
    give_card(rules, state, 1, "O3")
    give_card(rules, state, 1, "Y1")
    state = play(rules, state, "Y11")
    state = act(rules, state, "choose_player", 0)
    state = act(rules, state, "take_card", cid(rules, "Y1"))
    state = act(rules, state, "give_card", cid(rules, "O1"))
    assert decision(state) == "return_card" and state.stack[-1]["player"] == 1
    state = act(rules, state, "return_card", cid(rules, "O2"))
    assert len(state.hands[1]) == 2 and decision(state) == "turn"


@pytest.mark.parametrize("case", ["only_card", "others_empty"])
def test_y11_barter_needs_a_card_to_give_and_a_hand_to_take_from(case):
    """Y11 (origin.md "Barter", no dead ends): Barter itself leaves the hand, so another card must
    remain; another player must hold a card."""
    rules, state = table()
    give_card(rules, state, 0, "Y11")
    if case == "others_empty":
        give_card(rules, state, 0, "Y1")
    else:
        give_card(rules, state, 2, "Y1")
    assert "Y11" not in playable(rules, state)


# Y12 Great Hunt ---------------------------------------------------------------------------------


def test_y12_great_hunt_takes_a_token_within_two_steps():
    """Y12 (origin.md "Great Hunt" and "Hunting tokens"): take a hunting token still on a green
    territory within 2 steps of one of your pawns."""
    rules, state = table()
    put(rules, state, 0, "AF5")  # AF6 is 2 steps away, AN4/SA2 are 3
    give_card(rules, state, 0, "Y12")
    state = play(rules, state, "Y12")
    assert decision(state) == "great_hunt"
    af6 = tid(rules, "AF6")
    assert options(rules, state, "choose_territory") == {af6}
    state = act(rules, state, "choose_territory", af6)
    assert state.hunt_owner[af6] == 0
    assert state.owner[af6] == EMPTY  # no pawn moves


def test_y12_great_hunt_is_not_playable_when_no_token_is_in_reach():
    """Y12 (origin.md "Great Hunt", no dead ends): tokens taken or out of reach, not playable."""
    rules, state = table()
    put(rules, state, 0, "AF5")
    give_card(rules, state, 0, "Y12")
    token_gone(rules, state, "AF6")
    assert "Y12" not in playable(rules, state)
    state.hunt_owner[tid(rules, "AF6")] = -1
    assert "Y12" in playable(rules, state)


# Y13 Resettlement -------------------------------------------------------------------------------


def test_y13_resettlement_exchanges_two_own_pawns_without_rewards():
    """Y13 (origin.md "Resettlement"): exchange the positions of two of your own pawns (villages
    move with them); no rewards."""
    rules, state = table()
    a = put(rules, state, 0, "AF5", 1, 1, WHITE)
    b = put(rules, state, 0, "EU4", 2, 2, BROWN)
    put(rules, state, 1, "AF7")
    give_card(rules, state, 0, "Y13")
    hands, columns = [list(h) for h in state.hands], [list(c) for c in state.columns]
    state = play(rules, state, "Y13")
    assert options(rules, state, "choose_territory") == {a, b}
    state = act(rules, state, "choose_territory", a)
    assert options(rules, state, "choose_territory") == {b}
    state = act(rules, state, "choose_territory", b)
    assert state.pawn[a] == pawn_type(rules, 2, 2, BROWN)
    assert state.pawn[b] == pawn_type(rules, 1, 1, WHITE)
    assert state.owner[a] == state.owner[b] == 0 and state.villages[0] == 7
    assert decision(state) == "turn"
    assert state.hands[0] == [] and state.hands[1:] == hands[1:] and state.columns == columns


def test_y13_resettlement_needs_two_own_pawns():
    """Y13 (origin.md "Resettlement", no dead ends): with fewer than two pawns it is not
    playable."""
    rules, state = table()
    put(rules, state, 0, "AF5")
    put(rules, state, 1, "AF7")
    give_card(rules, state, 0, "Y13")
    assert "Y13" not in playable(rules, state)


# Y14 Mutation -----------------------------------------------------------------------------------


def evolve_pawns(rules, state, territory: str) -> set[tuple[int, int, int]]:
    state = act(rules, state, "evolve_at", tid(rules, territory))
    types = rules.data.components.pawn_types
    return {types[p] for p in options(rules, state, "evolve_pawn")}


def test_y14_mutation_allows_two_trait_changes_this_turn():
    """Y14 (origin.md "Mutation" and "Evolve"): this turn your Evolve may change two traits,
    each change legal on its own (colour any, height +1, width +1; never +2 or smaller)."""
    rules, state = table()
    ref = (1, 1, BLACK)  # the neutral pawn on AF0
    assert rules.data.components.pawn_types[state.pawn[tid(rules, "AF0")]] == ref
    give_card(rules, state, 0, "Y14")
    in_reserve = {rules.data.components.pawn_types[p] for p, n in enumerate(state.reserve) if n}
    one = evolve_pawns(rules, state, "AF6")
    assert one == {p for p in in_reserve if compatible(p, ref, 1)}
    state = play(rules, state, "Y14")
    two = evolve_pawns(rules, state, "AF6")
    assert two == {p for p in in_reserve if compatible(p, ref, 2)}
    assert {(2, 2, BLACK), (2, 1, WHITE), (1, 2, BROWN)} <= two
    assert (2, 2, WHITE) not in two and (3, 1, BLACK) not in two


def test_y14_mutation_lasts_only_for_the_turn():
    """Y14 (origin.md "Mutation"): "this turn" -- the next turn allows one change again."""
    rules, state = table()
    give_card(rules, state, 0, "Y14")
    state = play(rules, state, "Y14")
    state.stack = []
    run(rules, state, {"kind": "begin_turn", "player": 0})
    assert (2, 2, BLACK) not in evolve_pawns(rules, state, "AF6")


# No dead ends: every playable card can complete -------------------------------------


def _resolve(rules, state, rng, player: int, budget: int = 60):
    """Random legal choices until player's turn menu is back (or someone else decides)."""
    for _ in range(budget):
        if rules.is_terminal(state) or decision(state) == "turn":
            return state
        legal = rules.legal_actions(state)
        assert legal, f"dead end at {state.stack[-1]}"
        state = rules.apply(state, int(rng.choice(legal)), rng)
    return state


@pytest.mark.parametrize("seed", range(4))
def test_every_playable_card_can_be_resolved_in_random_positions(seed):
    """origin.md "Playing cards": a card is offered only if its effect can complete -- in random
    positions, playing any playable card never reaches a decision without legal actions."""
    rules, state = table()
    rng = np.random.default_rng(seed)
    yellows = [c.id for c in rules.data.deck("yellow")]
    others = [c.id for c in rules.data.cards if c.colour == "orange"]
    for k, card in enumerate(rng.permutation(yellows)[:12]):  # 2 stay in the deck
        give_card(rules, state, k % 3, card)
    for k, card in enumerate(rng.permutation(others)[:6]):
        give_card(rules, state, k % 3, card)
    state.columns = [[[1, 2, 3]], [[1], [1, 2]], [[1, 2, 3, 4, 5]]]
    tried = 0
    for _ in range(250):
        if rules.is_terminal(state):
            break
        if decision(state) == "turn":
            player = state.stack[-1]["player"]
            for c in options(rules, state, "play_card"):
                after = rules.apply(state, rules.layout.encode("play_card", c), rng)
                _resolve(rules, after, rng, player)
                tried += 1
        legal = rules.legal_actions(state)
        assert legal
        state = rules.apply(state, int(rng.choice(legal)), rng)
    assert tried > 0
