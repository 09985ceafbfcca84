"""Rule tests: the end of the game, final scoring, and invariants of whole random games
(origin.md "End of the game" and "Final scoring").

End triggers (origin.md "End of the game"): a yellow/orange/purple deck empty; all 30 tiles
taken (board and reserve empty); the pawn reserve empty; every player has placed all villages.
The trigger is latched; after the triggering turn every player plays one final turn, clockwise
from the triggering player's left (or from the triggering player with
``final_round_starts_with_trigger=True``).
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.origin.actions import RewardChoice
from primeval.envs.origin.rules import OriginRules, scoring
from primeval.envs.origin.rules.turn import end_condition
from tests.envs.origin.builders import (
    act,
    give_card,
    options,
    pawn_type,
    put,
    run,
    table,
    tid,
)
from tests.envs.origin.invariants import play_random_game


def play_turn(rules, state, rng):
    """Finish the current turn: end it when allowed, otherwise the first legal non-card
    choice at each decision (deterministic)."""
    turn = state.turn
    while not rules.is_terminal(state) and state.turn == turn:
        legal = rules.legal_actions(state)
        names = [rules.layout.decode(a)[0] for a in legal]
        if rules.decision_name(state) == "turn" and "pass" in names:
            action = rules.pass_action
        else:
            action = next(a for a, n in zip(legal, names, strict=True) if n != "play_card")
        state = rules.apply(state, action, rng)
    return state


def to_turn_of(state, player: int):
    state.stack = [{"kind": "turn", "player": player}]
    state.current = player
    return state


def finishing_table(num_players: int = 3, **config):
    """Everyone has a pawn with room to migrate; the reserve holds one last pawn (1,1,
    white) that can evolve next to the neutral pawn (1,1,black) on AF2."""
    rules, state = table(num_players, **config)
    for p, t in enumerate(("SA2", "EU2", "NA2", "OC4")[:num_players]):
        put(rules, state, p, t, 2, 1, p % 3)
    state.reserve = [0] * len(state.reserve)
    state.reserve[pawn_type(rules, 1, 1, 0)] = 1
    return rules, state


def trigger_by_last_pawn(rules, state, player: int, rng):
    """``player`` evolves the last reserve pawn onto AF2 and finishes the turn."""
    state = to_turn_of(state, player)
    state = act(rules, state, "evolve_at", tid(rules, "AF2"))
    state = act(rules, state, "evolve_pawn", pawn_type(rules, 1, 1, 0))
    assert state.end_triggered
    return play_turn(rules, state, rng)


def final_round_order(rules, state, rng) -> list[int]:
    order = []
    while not rules.is_terminal(state):
        assert state.phase == "final_round"
        order.append(state.current)
        state = play_turn(rules, state, rng)
    return order


# The four triggers -----------------------------------------------------------------------------


def test_no_trigger_at_the_start():
    """origin.md "End of the game": none of the end conditions holds after setup."""
    rules, state = table()
    assert end_condition(rules, state) is None
    assert not state.end_triggered


def test_an_empty_card_deck_triggers_the_end():
    """origin.md "End of the game" (1): drawing the last card of a deck triggers the end at once."""
    rules, state = table()
    state.slots = [0] * len(state.slots)
    del state.decks[0][1:]
    state = run(rules, state, {"kind": "reward", "player": 0, "territory": tid(rules, "AF1")})
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    assert state.decks[0] == [] and state.end_triggered
    assert state.phase == "play"  # the triggering turn goes on


def test_taking_the_last_of_the_30_tiles_triggers_the_end():
    """origin.md "End of the game" (2), adopted reading: the rewards board and the reserve are
    both empty."""
    rules, state = table()
    state.slots = [0] * len(state.slots)
    state.slots[0] = 1
    state.tile_reserve = [0] * 5
    state = run(rules, state, {"kind": "take_tile", "player": 0, "colours": ("yellow",),
                               "count": 1})
    assert not state.end_triggered
    state = act(rules, state, "take_tile", 0)
    assert state.end_triggered


def test_an_empty_board_with_tiles_in_reserve_is_no_trigger():
    """origin.md "End of the game" (2): taken tiles are refilled from the reserve; only all 30
    taken ends."""
    rules, state = table()
    state.slots = [0] * len(state.slots)
    state.tile_reserve = [1, 0, 0, 0, 0]
    assert end_condition(rules, state) is None


def test_evolving_the_last_reserve_pawn_triggers_the_end():
    """origin.md "End of the game" (3): the pawn reserve is empty."""
    rules, state = finishing_table()
    state = act(rules, state, "evolve_at", tid(rules, "AF2"))
    state = act(rules, state, "evolve_pawn", pawn_type(rules, 1, 1, 0))
    assert sum(state.reserve) == 0 and state.end_triggered


@pytest.mark.parametrize(("villages", "triggers"), [([1, 0, 0], True), ([1, 9, 9], False),
                                                    ([1, 0, 3], False)])
def test_the_end_needs_every_player_to_have_placed_all_villages(villages, triggers):
    """origin.md "End of the game" (4): every player, not just one, has placed all villages."""
    rules, state = table()
    state.villages = list(villages)
    state = act(rules, state, "evolve_at", tid(rules, "AF2"))
    state = act(rules, state, "evolve_pawn", min(options(rules, state, "evolve_pawn")))
    assert state.villages[0] == 0
    assert state.end_triggered is triggers


def test_the_trigger_stays_latched_when_returned_cards_refill_the_deck():
    """origin.md "End of the game": the end is triggered as soon as a deck is empty; returning
    cards to it (draw 3, return 2) does not undo it; the final round follows."""
    rules, state = table()
    state.turn_state["action_taken"] = True  # as after the action that entered AF1
    del state.decks[0][3:]
    state = run(rules, state, {"kind": "reward", "player": 0, "territory": tid(rules, "AF1")})
    state = act(rules, state, "reward_option", RewardChoice.DRAW_CARDS)
    assert state.decks[0] == [] and state.end_triggered
    for _ in range(2):
        state = act(rules, state, "return_card", min(options(rules, state, "return_card")))
    assert len(state.decks[0]) == 2 and end_condition(rules, state) is None
    assert state.end_triggered
    if state.pending == {"kind": "turn", "player": 0}:  # a playable card keeps the turn open
        state = act(rules, state, "pass")
    assert state.phase == "final_round" and state.current == 1


def test_an_objective_returned_to_an_empty_purple_deck_keeps_the_trigger():
    """origin.md "End of the game" and "Rewards": drawing the last objective triggers the end
    even though the hand limit returns one to the deck at once."""
    rules, state = table()
    state.slots = [0] * len(state.slots)
    give_card(rules, state, 0, "O1")
    give_card(rules, state, 0, "O2")
    del state.decks[2][1:]
    state = run(rules, state, {"kind": "reward", "player": 0, "territory": tid(rules, "AF3")})
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)
    state = act(rules, state, "return_card", min(options(rules, state, "return_card")))
    assert len(state.decks[2]) == 1 and state.end_triggered


# The final round ---------------------------------------------------------------------------


@pytest.mark.parametrize(("num_players", "trigger", "order"), [
    (2, 0, [1, 0]), (2, 1, [0, 1]), (3, 0, [1, 2, 0]), (3, 2, [0, 1, 2]),
    (4, 1, [2, 3, 0, 1]),
])
def test_final_round_every_player_once_from_the_left_of_the_trigger(num_players, trigger,
                                                                     order):
    """origin.md "Final round" (adopted): the triggering turn is finished; then every player, the
    triggering one included, plays exactly one final turn clockwise from the player to the
    triggering player's left; then the game is over."""
    rng = np.random.default_rng(0)
    rules, state = finishing_table(num_players)
    state = trigger_by_last_pawn(rules, state, trigger, rng)
    assert final_round_order(rules, state, rng) == order


@pytest.mark.parametrize(("num_players", "trigger", "order"), [
    (2, 1, [1, 0]), (3, 0, [0, 1, 2]), (4, 2, [2, 3, 0, 1]),
])
def test_final_round_variant_starts_with_the_triggering_player(num_players, trigger, order):
    """origin.md "Final round", config ``final_round_starts_with_trigger=True``: the triggering
    player plays the first final turn right after the triggering turn."""
    rng = np.random.default_rng(0)
    rules, state = finishing_table(num_players, final_round_starts_with_trigger=True)
    state = trigger_by_last_pawn(rules, state, trigger, rng)
    assert final_round_order(rules, state, rng) == order


def test_the_game_is_over_after_the_final_round():
    """origin.md "Final round" and "Final scoring": after the last final turn the game is scored
    and over; nobody is to act."""
    rng = np.random.default_rng(0)
    rules, state = finishing_table()
    state = trigger_by_last_pawn(rules, state, 0, rng)
    for _ in range(3):
        state = play_turn(rules, state, rng)
    assert rules.is_terminal(state) and state.phase == "game_over"
    assert rules.current_player(state) == -1
    assert not rules.legal_mask(state).any()


def objective_table(phase: str):
    """player_0 holds O17 (2 hunting tokens) and O18 (2 strait tokens), both fulfilled."""
    rules, state = table()
    state.phase = phase
    if phase == "final_round":
        state.end_triggered, state.final_turns_left = True, 3
    for t in ("AF6", "EU7"):
        state.hunt_owner[tid(rules, t)] = 0
    state.strait_owner[0] = state.strait_owner[1] = 0
    o17, o18 = give_card(rules, state, 0, "O17"), give_card(rules, state, 0, "O18")
    return rules, state, o17, o18


def test_several_objectives_in_the_final_round_and_no_new_draw():
    """origin.md "Playing cards" and "Final round": in the final round several objectives may be
    completed in one turn, and completing one draws no new objective."""
    rules, state, o17, o18 = objective_table("final_round")
    deck = list(state.decks[2])
    assert options(rules, state, "play_card") == {o17, o18}
    state = act(rules, state, "play_card", o17)
    assert options(rules, state, "play_card") == {o18}
    state = act(rules, state, "play_card", o18)
    assert state.objectives_done[0] == [o17, o18]
    assert state.objective_points[0] == 8
    assert state.hands[0] == [] and state.decks[2] == deck


def test_outside_the_final_round_one_objective_per_turn_and_a_new_one_drawn():
    """origin.md "Playing cards": before the final round only one objective per turn, and a new
    one is drawn after it."""
    rules, state, o17, o18 = objective_table("play")
    top = state.decks[2][0]
    state = act(rules, state, "play_card", o17)
    assert sorted(state.hands[0]) == sorted([o18, top])
    assert o18 not in options(rules, state, "play_card")


# Final scoring ---------------------------------------------------------------------------------


def test_final_scoring_by_source():
    """origin.md "Final scoring": objective points; 1 per card in hand (any colour); printed
    token values; tiles of levels 1-4 score 1 each and level 5 scores 5."""
    rules, state = table()
    state.objective_points[0] = 7
    for card in ("Y1", "P1", "O1"):
        give_card(rules, state, 0, card)
    af6 = tid(rules, "AF6")
    state.hunt_owner[af6] = 0
    state.strait_owner[3] = 0
    state.columns[0] = [[1, 2, 3, 4, 5], [1, 2]]
    assert scoring.points(rules, state, 0) == {
        "objectives": 7, "cards_in_hand": 3, "hunting_tokens": state.hunt_value[af6],
        "strait_tokens": state.strait_value[3], "tiles": 4 + 5 + 2, "column_bonus": 0}
    total = 7 + 3 + state.hunt_value[af6] + state.strait_value[3] + 11
    assert scoring.total(rules, state, 0) == total
    assert rules.scores(state)[0] == pytest.approx(total + 3 / 100)
    assert rules.scores(state)[1:] == [0.0, 0.0]


def tied_table(**config):
    """player_0: 5 objective points + 2 cards; player_1 and player_2: 3 objective points,
    a column of 3 tiles and 1 card: everyone at 7 points."""
    rules, state = table(**config)
    state.objective_points[0] = 5
    give_card(rules, state, 0, "Y1")
    give_card(rules, state, 0, "Y2")
    for p, card in ((1, "Y3"), (2, "Y4")):
        state.objective_points[p] = 3
        state.columns[p] = [[1, 2, 3]]
        give_card(rules, state, p, card)
    return rules, state


def test_tie_break_most_cards_in_hand():
    """origin.md "Tie-break": on equal points the player with the most cards in hand wins; still
    tied: a shared win (equal scores)."""
    rules, state = tied_table()
    assert [scoring.total(rules, state, p) for p in range(3)] == [7, 7, 7]
    scores = rules.scores(state)
    assert scores[0] > scores[1] == scores[2]


def test_tie_break_can_be_left_out_of_the_scores():
    """origin.md "Tie-break" with config ``score_tiebreak=False``: ``scores`` are the plain
    points."""
    rules, state = tied_table(score_tiebreak=False)
    assert rules.scores(state) == [7.0, 7.0, 7.0]


# Random games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("starts_with_trigger", [False, True])
def test_random_games_keep_the_invariants(num_players, starts_with_trigger):
    """origin.md "Pawns and villages", "Rewards board and innovation tiles", "Tokens" and "End
    of the game": along seeded random games 48 cards, 30 tiles and 36/27 pawns are conserved,
    villages on the board plus in supply are 9 per player, tokens are conserved, every pawn but
    the neutral one stands on its owner's village, occupied green territories have lost their
    hunting token, completed straits their token, objective points and owned hunting tokens
    never decrease, the end is latched at once and followed by exactly one final turn per
    player, the acting player always has a legal action, and ``apply`` never mutates its
    input."""
    rules = OriginRules(num_players=num_players,
                        final_round_starts_with_trigger=starts_with_trigger)
    for seed in range(12):
        state, _ = play_random_game(rules, seed, check_input_kept=seed < 4)
        assert rules.is_terminal(state)


def test_all_points_counts_each_seats_tokens():
    """``scoring.all_points`` (one pass over the tokens, used by ``points``, the scores and
    the encoders): each seat's token sources are the values of the tokens it holds, counted
    here token by token, and token values handed in by a caller give the same points, at
    every state of a few random games."""
    checked = 0
    for players in (2, 3, 4):
        rules = OriginRules(num_players=players)
        rng = np.random.default_rng(players)
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            points = scoring.all_points(rules, state)
            hunting = [sum(v for v, o in zip(state.hunt_value, state.hunt_owner, strict=True)
                           if o == p) for p in range(players)]
            straits = [sum(v for v, o in zip(state.strait_value, state.strait_owner,
                                             strict=True) if o == p) for p in range(players)]
            assert [x["hunting_tokens"] for x in points] == hunting
            assert [x["strait_tokens"] for x in points] == straits
            assert scoring.all_points(rules, state, hunting=hunting, straits=straits) == points
            legal = np.flatnonzero(rules.legal_mask(state))
            state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
            checked += 1
        held = [scoring.points(rules, state, p)["hunting_tokens"] for p in range(players)]
        assert sum(held) > 0  # the games did move tokens into hands
    assert checked > 300
