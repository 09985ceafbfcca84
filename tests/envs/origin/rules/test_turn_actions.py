"""Rule tests: a turn and its three actions (origin.md "A turn", "Evolve", "Migrate" and "Swap").

The part of the (reconstructed) map used here; ``~`` marks a strait (origin.md "The map")::

    EU1 ~ AF1 --- AF2 ~ EU5          AF0 = Origin (neutral 1/1 pawn), neighbours
           |  \\   |  \\              AF2 (brown), AF3 (purple), AF4 (orange),
    SA4 ~ AF3 --- AF0 --- AF4 ~ EU6  AF5 (yellow), AF6 (green)
           |    /    \\   |
          AF5        AF6
             \\       /
               AF7 ~ AN2

Pawns are (height, width, colour); ``table()`` starts player_0's turn with only the neutral
pawn on the board.
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.origin.actions import RewardChoice
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.rules.engine import OriginRules
from primeval.envs.origin.rules.moves import (
    evolve_options,
    evolve_targets,
    migrate_options,
    migrate_sources,
    swap_options,
    swap_sources,
)
from primeval.envs.origin.state import EMPTY, NEUTRAL, Deck
from tests.envs.origin.builders import (
    act,
    cid,
    give_card,
    options,
    pawn_type,
    put,
    run,
    table,
    tid,
)


def ids(rules, territories) -> set[str]:
    return {rules.data.world.territories[t].id for t in territories}


def types(rules, indices) -> set[tuple[int, int, int]]:
    return {rules.data.components.pawn_types[p] for p in indices}


def evolve_pawns(rules, state, territory: str) -> set[tuple[int, int, int]]:
    """Pawn types player_0 may evolve onto a territory."""
    state = act(rules, state, "evolve_at", tid(rules, territory))
    return types(rules, options(rules, state, "evolve_pawn"))


def segments(rules, state) -> set[str]:
    return {rules.layout.decode(a)[0] for a in rules.legal_actions(state)}


def full_reserve(state) -> None:
    """One pawn of every type in the reserve (isolates compatibility from availability)."""
    state.reserve = [1] * len(state.reserve)


# Evolve ----------------------------------------------------------------------------------------


def test_evolve_targets_the_empty_neighbours_of_the_neutral_pawn():
    """origin.md "Evolve": a new pawn goes on an empty territory adjacent to an occupied one; the
    neutral Origin pawn counts as occupied."""
    rules, state = table()
    assert ids(rules, options(rules, state, "evolve_at")) == {"AF2", "AF3", "AF4", "AF5", "AF6"}


def test_evolve_targets_neighbours_of_any_occupied_territory_by_land_or_strait():
    """origin.md "Evolve" and "Straits": adjacency to any player's pawn counts, across straits
    too (EU1 is AF1's strait neighbour, AF2 EU5's); occupied territories and territories two
    steps away (AF7) are not targets."""
    rules, state = table()
    put(rules, state, 1, "AF1", 1, 1, 0)
    put(rules, state, 2, "EU5", 1, 1, 1)
    assert ids(rules, options(rules, state, "evolve_at")) == {
        "AF2", "AF3", "AF4", "AF5", "AF6", "EU1", "EU4", "EU6", "EU7", "EU9"}


def test_evolve_needs_a_village_in_supply():
    """origin.md "Evolve": without a village in supply there is no Evolve."""
    rules, state = table()
    put(rules, state, 0, "EU2", 1, 1, 0)
    state.villages[0] = 0
    assert options(rules, state, "evolve_at") == set()
    assert "migrate_from" in segments(rules, state)


def test_evolve_needs_a_pawn_in_the_reserve():
    """origin.md "Evolve": with an empty reserve there is no Evolve."""
    rules, state = table()
    put(rules, state, 0, "EU2", 1, 1, 0)
    state.reserve = [0] * len(state.reserve)
    assert options(rules, state, "evolve_at") == set()


def test_evolve_offers_only_pawns_still_in_the_reserve():
    """origin.md "Evolve": the new pawn comes from the reserve; a compatible type no longer there is
    not offered."""
    rules, state = table()
    neutral = rules.data.components.pawn_types[state.pawn[tid(rules, "AF0")]]
    h, w, c = neutral
    state.reserve = [0] * len(state.reserve)
    state.reserve[pawn_type(rules, h + 1, w, c)] = 1
    state.reserve[pawn_type(rules, 3, 3, c)] = 1  # in the reserve but not compatible
    assert evolve_pawns(rules, state, "AF2") == {(h + 1, w, c)}


@pytest.mark.parametrize(("ref", "allowed"), [
    ((1, 1, 0), {(1, 1, 0), (1, 1, 1), (1, 1, 2), (2, 1, 0), (1, 2, 0)}),
    ((2, 2, 0), {(2, 2, 0), (2, 2, 1), (2, 2, 2), (3, 2, 0), (2, 3, 0)}),
    ((2, 3, 1), {(2, 3, 0), (2, 3, 1), (2, 3, 2), (3, 3, 1)}),
    ((3, 3, 2), {(3, 3, 0), (3, 3, 1), (3, 3, 2)}),
])
def test_evolve_compatibility_one_trait_changes_colour_or_one_taller_or_one_wider(ref, allowed):
    """origin.md "Evolve": two traits equal and the third another colour, exactly +1 height or
    exactly +1 width; never shorter or thinner, never +2, never two traits at once; an
    identical pawn is allowed. EU6's only occupied neighbour is EU5::

        EU5 (ref) --- EU6 (target)
    """
    rules, state = table()
    put(rules, state, 1, "EU5", *ref)
    full_reserve(state)
    assert evolve_pawns(rules, state, "EU6") == allowed


@pytest.mark.parametrize(("num_players", "identical"), [(3, False), (4, True)])
def test_identical_pawn_only_exists_as_the_second_medium_copy(num_players, identical):
    """origin.md "Evolve" and "Pawns and villages": a fully identical pawn is legal but only the
    4-player second medium set supplies one."""
    rules, state = table(num_players)
    put(rules, state, 1, "EU5", 2, 2, 0)
    assert ((2, 2, 0) in evolve_pawns(rules, state, "EU6")) is identical


def test_one_valid_reference_among_several_is_enough():
    """origin.md "Evolve" (SEED): EU4 touches a 1/1 pawn (EU3) and a 3/3 pawn (EU5); a pawn that
    fits either one of them may evolve there::

        EU3 (1,1,white) --- EU4 (target) --- EU5 (3,3,black)
    """
    rules, state = table()
    put(rules, state, 1, "EU3", 1, 1, 0)
    put(rules, state, 2, "EU5", 3, 3, 2)
    full_reserve(state)
    assert evolve_pawns(rules, state, "EU4") == {
        (1, 1, 0), (1, 1, 1), (1, 1, 2), (2, 1, 0), (1, 2, 0),
        (3, 3, 0), (3, 3, 1), (3, 3, 2)}


def test_evolve_places_pawn_and_village_then_takes_the_new_territory_reward():
    """origin.md "Evolve" and "A turn": the reserve pawn and one village go onto the territory;
    then the reward of its colour (AF4 is orange)."""
    rules, state = table()
    neutral = rules.data.components.pawn_types[state.pawn[tid(rules, "AF0")]]
    new = pawn_type(rules, 2, 1, neutral[2])
    before = state.reserve[new]
    state = act(rules, state, "evolve_at", tid(rules, "AF4"))
    state = act(rules, state, "evolve_pawn", new)
    af4 = tid(rules, "AF4")
    assert state.pawn[af4] == new and state.owner[af4] == 0
    assert state.reserve[new] == before - 1
    assert state.villages == [8, 9, 9]
    assert state.pending == {"kind": "reward_option", "player": 0, "colour": "orange"}


def test_evolve_onto_a_green_territory_takes_its_hunting_token():
    """origin.md "Evolve" and "Hunting tokens": evolving onto a green territory takes its
    hunting token."""
    rules, state = table()
    af6 = tid(rules, "AF6")
    state = act(rules, state, "evolve_at", af6)
    state = act(rules, state, "evolve_pawn", min(options(rules, state, "evolve_pawn")))
    assert state.hunt_owner[af6] == 0


# Migrate -----------------------------------------------------------------------------------------


def test_migrate_only_moves_your_own_pawns():
    """origin.md "Migrate": Migrate moves one of your pawns; neither another player's nor the
    neutral pawn."""
    rules, state = table()
    put(rules, state, 0, "AF1", 1, 1, 0)
    put(rules, state, 1, "EU2", 1, 1, 1)
    assert ids(rules, options(rules, state, "migrate_from")) == {"AF1"}


@pytest.mark.parametrize(("height", "dests"), [
    (1, {"AF1", "SA4"}),
    (2, {"AF1", "SA4", "AF2", "AF4", "AF6", "AF7", "EU1", "SA2", "SA5"}),
])
def test_migrate_range_is_the_height_through_occupied_territories_and_straits(height, dests):
    """origin.md "Migrate": an empty territory at most ``height`` steps away; the path may pass
    through occupied territories (AF4 and AF6 via the Origin, AF7 via player_1's AF5) and across
    straits (SA4); occupied territories (AF0, AF5) are never destinations::

        EU1 ~ AF1 --- AF2         SA2
               |  \\               |
              AF3 --- AF0 --- AF4   SA4 ~ AF3 (mover)
               |         \\         |
              AF5 (p1)    AF6      SA5
               |
              AF7
    """
    rules, state = table()
    src = put(rules, state, 0, "AF3", height, 1, 0)
    put(rules, state, 1, "AF5", 1, 1, 1)
    state = act(rules, state, "migrate_from", src)
    assert ids(rules, options(rules, state, "migrate_to")) == dests


def test_migrate_range_three_matches_shortest_paths():
    """origin.md "Migrate" (proposed: shortest-path distance >= 1): a tall pawn reaches every empty
    territory within 3 steps."""
    rules, state = table()
    src = put(rules, state, 0, "EU5", 3, 1, 0)
    dist = rules.data.world.distance
    expected = {t for t in range(rules.data.world.size)
                if state.owner[t] == EMPTY and dist[src, t] <= 3}
    state = act(rules, state, "migrate_from", src)
    assert options(rules, state, "migrate_to") == expected


def test_the_neutral_pawn_never_moves_and_its_territory_is_never_free():
    """origin.md "Migrate": the neutral pawn belongs to no one: it cannot migrate and the Origin is
    never a destination."""
    rules, state = table()
    src = put(rules, state, 0, "AF2", 3, 1, 0)
    af0 = tid(rules, "AF0")
    assert af0 not in options(rules, state, "migrate_from")
    state = act(rules, state, "migrate_from", src)
    assert af0 not in options(rules, state, "migrate_to")
    assert state.owner[af0] == NEUTRAL


def test_migrate_moves_pawn_and_village_and_takes_the_destination_reward():
    """origin.md "Migrate": pawn and village move together (no village used); the reward is the
    destination's colour (EU1 is orange)."""
    rules, state = table()
    src = put(rules, state, 0, "AF1", 1, 2, 0)
    pawn = state.pawn[src]
    state = act(rules, state, "migrate_from", src)
    state = act(rules, state, "migrate_to", tid(rules, "EU1"))
    eu1 = tid(rules, "EU1")
    assert (state.pawn[eu1], state.owner[eu1]) == (pawn, 0)
    assert (state.pawn[src], state.owner[src]) == (-1, EMPTY)
    assert state.villages[0] == 8
    assert state.pending == {"kind": "reward_option", "player": 0, "colour": "orange"}


# Swap ----------------------------------------------------------------------------------------


def swap_table(mover_height: int = 1):
    """player_0's (h, 2) pawn on AF2; around it::

        AF1 own (1,1)      AF4 p1 (1,1) thinner     EU5 p2 (1,2) equal width
        AF0 neutral (1,1)  AF6 p1 (2,1) thinner, two steps away (via AF0 or AF4)
    """
    rules, state = table()
    src = put(rules, state, 0, "AF2", mover_height, 2, 0)
    put(rules, state, 0, "AF1", 1, 1, 0)
    put(rules, state, 1, "AF4", 1, 1, 1)
    put(rules, state, 2, "EU5", 1, 2, 1)
    put(rules, state, 1, "AF6", 2, 1, 1)
    return rules, state, src


@pytest.mark.parametrize(("height", "targets"), [(1, {"AF4"}), (2, {"AF4", "AF6"})])
def test_swap_onto_another_players_strictly_thinner_pawn_within_range(height, targets):
    """origin.md "Swap": only another player's strictly thinner pawn within ``height`` steps; not
    an equal-width pawn (EU5), not your own (AF1), never the neutral pawn (AF0)."""
    rules, state, src = swap_table(height)
    assert ids(rules, options(rules, state, "swap_from")) == {"AF2"}
    state = act(rules, state, "swap_from", src)
    assert ids(rules, options(rules, state, "swap_onto")) == targets


def test_swap_moves_the_other_pawn_to_the_source_and_only_the_mover_is_rewarded():
    """origin.md "Swap": the thinner pawn and its village go to the territory the mover left; only
    the mover takes the reward of the new territory (AF4 is orange)."""
    rules, state, src = swap_table()
    af4 = tid(rules, "AF4")
    mine, theirs = state.pawn[src], state.pawn[af4]
    villages = list(state.villages)
    state = act(rules, state, "swap_from", src)
    state = act(rules, state, "swap_onto", af4)
    assert (state.pawn[af4], state.owner[af4]) == (mine, 0)
    assert (state.pawn[src], state.owner[src]) == (theirs, 1)
    assert state.villages == villages
    assert state.pending == {"kind": "reward_option", "player": 0, "colour": "orange"}
    state = act(rules, state, "reward_option", RewardChoice.DRAW_CARDS)  # draw 3, return 2
    while state.pending["kind"] == "return_card":
        assert state.pending["player"] == 0
        state = act(rules, state, "return_card", min(options(rules, state, "return_card")))
    assert state.hands[1] == [] and state.columns[1] == []
    assert len(state.hands[0]) == 1
    assert rules.current_player(state) == 1  # player_0's turn ended, nothing for player_1


def test_swap_into_a_green_territory_gives_nothing():
    """origin.md "Swap" and "Hunting tokens": the hunting token of a green territory already
    held by a pawn is gone; swapping there gives no reward."""
    rules, state = table()
    src = put(rules, state, 0, "AF4", 1, 2, 0)
    af6 = put(rules, state, 1, "AF6", 1, 1, 1)
    state.hunt_owner[af6] = 1
    card = give_card(rules, state, 0, "Y10")  # keeps player_0's turn open after the action
    state = act(rules, state, "swap_from", src)
    state = act(rules, state, "swap_onto", af6)
    assert state.pending == {"kind": "turn", "player": 0}
    assert state.hunt_owner[af6] == 1
    assert state.hands[0] == [card] and state.columns[0] == []


def test_swap_checks_both_players_for_straits():
    """origin.md "Swap" and "Tokens": after a swap both players are checked; the passive player
    may take a strait token too. S2 joins AF2-EU5, S3 joins AF4-EU6::

        before: AF2 p0 (1,2) ~ EU5 p1     AF4 p1 (1,1) ~ EU6 p0
        after:  AF2 p1       ~ EU5 p1     AF4 p0       ~ EU6 p0
    """
    rules, state = table()
    src = put(rules, state, 0, "AF2", 1, 2, 0)
    put(rules, state, 1, "EU5", 1, 1, 0)
    af4 = put(rules, state, 1, "AF4", 1, 1, 1)
    put(rules, state, 0, "EU6", 2, 1, 0)
    state.slots = [0] * len(state.slots)
    strait = {sid: s for s, sid in enumerate(rules.data.world.strait_ids)}
    state = act(rules, state, "swap_from", src)
    state = act(rules, state, "swap_onto", af4)
    state = act(rules, state, "reward_option", RewardChoice.TILE_AND_CARD)  # no tile to take; the top orange card
    assert state.strait_owner[strait["S2"]] == 1
    assert state.strait_owner[strait["S3"]] == 0


# The turn ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("blocked", ["no villages", "empty reserve"])
def test_a_player_with_no_legal_action_passes(blocked):
    """origin.md "A turn" (proposed): with no legal action (no pawn on the board and no Evolve) the
    player passes."""
    rules, state = table()
    if blocked == "no villages":
        state.villages[0] = 0
    else:
        state.reserve = [0] * len(state.reserve)
    assert segments(rules, state) == {"pass"}


def test_a_player_without_action_may_still_play_cards():
    """origin.md "A turn" (proposed) and "Playing cards": passing the action still allows cards;
    the pass is not forced before or after the card."""
    rules, state = table()
    state.villages[0] = 0
    card = give_card(rules, state, 0, "Y10")  # Foresight: draw 2 cards of one deck
    assert segments(rules, state) == {"play_card", "pass"}
    state = act(rules, state, "play_card", card)
    state = act(rules, state, "choose_deck", Deck.YELLOW)
    assert len(state.hands[0]) == 2
    assert state.pending == {"kind": "turn", "player": 1}  # then the turn passed by itself


def test_a_turn_with_nothing_to_do_passes_automatically():
    """origin.md "A turn" (proposed): a player with neither an action nor a playable card passes
    without being asked; the next player's turn starts."""
    rules, state = table()
    state.villages[0] = 0
    state.stack = []
    state = run(rules, state, {"kind": "begin_turn", "player": 0})
    assert state.pending == {"kind": "turn", "player": 1}
    assert state.current == 1 and state.turn == 3  # player_0's turn 2, player_1's turn 3
    assert state.territories_of(0) == []


def test_the_action_is_compulsory_when_one_is_possible():
    """origin.md "A turn": the turn is exactly one action; it cannot be skipped while one exists."""
    rules, state = table()
    assert "pass" not in segments(rules, state)


def test_exactly_one_action_per_turn():
    """origin.md "A turn": after the action (and its reward) no second action is offered, though one
    would be possible; only cards and ending the turn remain."""
    rules, state = table()
    give_card(rules, state, 0, "Y10")
    state = act(rules, state, "evolve_at", tid(rules, "AF6"))  # green: no reward decision
    state = act(rules, state, "evolve_pawn", min(options(rules, state, "evolve_pawn")))
    assert state.pending == {"kind": "turn", "player": 0}
    assert segments(rules, state) == {"play_card", "pass"}
    assert state.turn_state["action_taken"]


def test_the_turn_ends_by_itself_after_the_action_when_nothing_else_can_be_done():
    """origin.md "A turn": with no card to play, the turn ends after the one action."""
    rules, state = table()
    state = act(rules, state, "evolve_at", tid(rules, "AF6"))
    state = act(rules, state, "evolve_pawn", min(options(rules, state, "evolve_pawn")))
    assert state.pending == {"kind": "turn", "player": 1}
    assert len(state.territories_of(0)) == 1


def test_first_choices_match_the_full_options():
    """The turn menu's first choices (found early-exit, from precomputed reach tables) are the
    keys of the full options, also with each card that changes ranges or swaps in play:
    Forced March (+2 range), Sea Voyage and Canoes (free straits), Warriors (equal widths
    swap) and Leadership (+1 height and width), alone or together."""
    checked = 0
    for players in (2, 3, 4):
        rules = OriginRules(OriginConfig(num_players=players))
        effects = [[], [cid(rules, "P14")], [cid(rules, "P5"), cid(rules, "P9")],
                   [cid(rules, "P14"), cid(rules, "P1"), cid(rules, "P5"), cid(rules, "P9")]]
        rng = np.random.default_rng(players)
        for game in range(3):
            state = rules.initial_state(rng)
            mask = rules.legal_mask(state)
            while not rules.is_terminal(state):
                for p in range(players):
                    trial = state.copy()
                    in_play = effects[(game + p + checked) % len(effects)]
                    trial.permanents[p] = [*trial.permanents[p],
                                           *(c for c in in_play if c not in trial.permanents[p])]
                    if p == trial.current and checked % 3 == 0:
                        trial.turn_state["turn_cards"] = (cid(rules, "Y3"), cid(rules, "Y5"))
                    assert evolve_targets(rules, trial, p) == list(evolve_options(rules, trial, p))
                    assert migrate_sources(rules, trial, p) == list(
                        migrate_options(rules, trial, p))
                    assert swap_sources(rules, trial, p) == list(swap_options(rules, trial, p))
                    checked += 1
                legal = np.flatnonzero(mask)
                state, mask = rules.transition(state, int(legal[rng.integers(legal.size)]), rng,
                                               mask)
    assert checked > 1000
