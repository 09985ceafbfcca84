"""Rule tests: setup (origin.md "Pawns and villages", "Rewards board and innovation tiles",
"Tokens" and "Setup").

Setup runs in ``OriginRules.initial_state`` and the ``deal_objectives`` /
``keep_objective`` / ``shuffle_objectives`` frames. The first decisions are the
objective keeps, one per player in turn order from the start player; then the start player
takes the first turn.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.state import EMPTY, NEUTRAL, Deck
from tests.envs.origin.builders import ScriptedRng, act, count_cards, count_tiles, options, tid


class ReversingRng(ScriptedRng):
    """Scripted picks; every shuffle reverses the order instead of keeping it."""

    def shuffle_position(self, event):
        return event.outcomes[-1]


def fresh(num_players: int = 3, seed: int = 0, **config):
    rules = OriginRules(num_players=num_players, **config)
    rng = np.random.default_rng(seed)
    return rules, rules.initial_state(rng), rng


def finish_setup(rules, state, rng):
    """Every player keeps the first of their dealt objectives."""
    while state.phase == "setup":
        state = rules.apply(state, rules.legal_actions(state)[0], rng)
    return state


def traits_on(rules, state, territory: int) -> tuple[int, int, int]:
    return rules.data.components.pawn_types[state.pawn[territory]]


# Pawns and villages -----------------------------------------------------------------------------


@pytest.mark.parametrize(("num_players", "total"), [(2, 27), (3, 27), (4, 36)])
def test_pawn_count_depends_on_the_player_count(num_players, total):
    """origin.md "Pawns and villages" and "Setup" step 1: 36 pawns with 4 players (the medium
    set doubled), 27 all different with 2 or 3 players; one of them is the neutral pawn on the
    board."""
    rules, state, _ = fresh(num_players)
    on_board = sum(p != -1 for p in state.pawn)
    assert on_board == 1
    assert sum(state.reserve) + on_board == total
    copies = Counter()
    for p, n in enumerate(state.reserve):
        copies[rules.data.components.pawn_types[p]] += n
    copies[traits_on(rules, state, rules.data.world.origin)] += 1
    for (h, _w, _c), n in copies.items():
        assert n == (2 if h == 2 and num_players == 4 else 1)
    assert len(copies) == 27


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_neutral_short_thin_pawn_stands_on_the_origin_territory_without_village(num_players):
    """origin.md "Setup" step 2 and "Pawns and villages": one 1/1 pawn, any colour, on the
    Origin territory; it is neutral (no owner, no village) and is the only pawn on the board."""
    rules, state, _ = fresh(num_players)
    origin = rules.data.world.origin
    assert rules.data.world.territories[origin].id == "AF0"
    h, w, _ = traits_on(rules, state, origin)
    assert (h, w) == (1, 1)
    assert state.owner[origin] == NEUTRAL
    assert all(o == EMPTY for t, o in enumerate(state.owner) if t != origin)
    assert state.villages == [9] * num_players


@pytest.mark.parametrize("colour", [0, 1, 2])
def test_neutral_pawn_colour_is_drawn_at_random(colour):
    """origin.md "Pawns and villages" (adopted: random choice among the three 1/1 pawns): the
    drawn colour is the one on the board, and that pawn is no longer in the reserve."""
    rules = OriginRules(num_players=3, random_start_player=False)
    state = rules.initial_state(ScriptedRng([colour]))
    origin = rules.data.world.origin
    assert traits_on(rules, state, origin) == (1, 1, colour)
    assert state.reserve[state.pawn[origin]] == 0
    others = [rules.data.components.pawn_types.index((1, 1, c)) for c in range(3) if c != colour]
    assert all(state.reserve[p] == 1 for p in others)


def test_neutral_colour_varies_with_the_seed():
    """origin.md "Pawns and villages": any of the three colours may be the neutral pawn."""
    colours = set()
    for seed in range(30):
        rules, state, _ = fresh(3, seed)
        colours.add(traits_on(rules, state, rules.data.world.origin)[2])
    assert colours == {0, 1, 2}


# Objectives --------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_three_objectives_dealt_one_kept_rest_back_in_the_deck(num_players):
    """origin.md "Setup" step 5: each player is dealt 3 purple cards and keeps 1; the others return
    to the purple deck; nobody holds any other card."""
    rules, state, rng = fresh(num_players, random_start_player=False)
    dealt = {}
    while state.phase == "setup":
        assert rules.decision_name(state) == "keep_objective"
        player = rules.current_player(state)
        offered = options(rules, state, "keep_objective")
        assert len(offered) == 3
        assert all(rules.data.cards[c].colour == "purple" for c in offered)
        dealt[player] = offered
        state = rules.apply(state, rules.layout.encode("keep_objective", min(offered)), rng)
    assert sorted(dealt) == list(range(num_players))
    all_dealt = set().union(*dealt.values())
    assert len(all_dealt) == 3 * num_players  # no card dealt twice
    for p in range(num_players):
        assert state.hands[p] == [min(dealt[p])]
    assert len(state.decks[Deck.PURPLE]) == 20 - num_players
    assert all_dealt - {min(d) for d in dealt.values()} <= set(state.decks[Deck.PURPLE])
    assert [len(d) for d in state.decks[:2]] == [14, 14]
    assert count_cards(state) == 48


def test_objectives_kept_in_turn_order_from_the_start_player():
    """origin.md "Setup" steps 5 and 8: the objective choices go round from the start player."""
    rules = OriginRules(num_players=3, random_start_player=True)
    rng = ScriptedRng([0, 2])  # neutral colour 0, start player 2
    state = rules.initial_state(rng)
    order = []
    while state.phase == "setup":
        order.append(rules.current_player(state))
        state = rules.apply(state, rules.legal_actions(state)[0], rng)
    assert order == [2, 0, 1]


def test_returned_objectives_are_shuffled_back_into_the_deck():
    """origin.md "Setup" step 5: after the keeps the purple deck is reshuffled (with a reversing
    shuffle, the returned cards come out on top instead of staying at the bottom)."""
    rules = OriginRules(num_players=3, random_start_player=False)
    rng = ReversingRng([0])
    state = rules.initial_state(rng)
    returned = set()
    while state.phase == "setup":
        offered = options(rules, state, "keep_objective")
        keep = min(offered)
        returned |= offered - {keep}
        state = act(rules, state, "keep_objective", keep, rng=rng)
    assert set(state.decks[Deck.PURPLE][: len(returned)]) == returned


def test_only_a_dealt_objective_may_be_kept():
    """origin.md "Setup" step 5: the kept card is one of the three dealt to that player."""
    rules, state, _ = fresh(3)
    offered = options(rules, state, "keep_objective")
    assert set(rules.layout.decode(a)[0] for a in rules.legal_actions(state)) == {
        "keep_objective"}
    other = next(c for c in state.decks[Deck.PURPLE] if c not in offered)
    with pytest.raises(IllegalActionError):
        rules.apply(state, rules.layout.encode("keep_objective", other), ScriptedRng())


# Rewards board, tokens -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_fifteen_face_up_tiles_three_three_three_six_and_fifteen_in_reserve(seed):
    """origin.md "Rewards board and innovation tiles" and "Setup" step 6: 30 tiles; 15 face up
    (3 yellow, 3 orange, 3 purple, 6 brown) and 15 face down in the reserve; the level counts
    are the configured ones."""
    rules, state, _ = fresh(3, seed)
    comps = rules.data.components
    assert Counter(comps.slot_colours) == {"yellow": 3, "orange": 3, "purple": 3, "brown": 6}
    assert len(state.slots) == 15 and all(1 <= s <= 5 for s in state.slots)
    assert sum(state.tile_reserve) == 15
    levels = Counter(state.slots)
    for level in range(1, 6):
        levels[level] += state.tile_reserve[level - 1]
    assert dict(levels) == comps.innovation_tiles
    assert count_tiles(state) == 30


def test_face_up_tiles_are_random():
    """origin.md "Setup" step 6: the 15 face-up tiles are drawn at random."""
    layouts = {tuple(fresh(3, seed)[1].slots) for seed in range(10)}
    assert len(layouts) > 1


@pytest.mark.parametrize("seed", range(5))
def test_one_hunting_token_per_green_territory_one_strait_token_per_strait(seed):
    """origin.md "Hunting tokens" and "Setup" step 7: the 6 hunting tokens lie one per green
    territory, the 11 strait tokens one per strait, none owned yet."""
    rules, state, _ = fresh(3, seed)
    world, comps = rules.data.world, rules.data.components
    greens = [t for t, terr in enumerate(world.territories) if terr.colour == "green"]
    assert len(greens) == 6
    assert sorted(state.hunt_value[t] for t in greens) == sorted(comps.hunting_tokens)
    assert all(v == 0 for t, v in enumerate(state.hunt_value) if t not in greens)
    assert all(o == -1 for o in state.hunt_owner)
    assert len(state.strait_value) == len(world.straits) == 11
    assert sorted(state.strait_value) == sorted(comps.strait_tokens)
    assert all(o == -1 for o in state.strait_owner)


def test_token_placement_is_random():
    """origin.md "Setup" step 7: strait and hunting tokens are placed at random."""
    hunts, straits = set(), set()
    for seed in range(10):
        _, state, _ = fresh(3, seed)
        hunts.add(tuple(state.hunt_value))
        straits.add(tuple(state.strait_value))
    assert len(hunts) > 1 and len(straits) > 1


# Start player --------------------------------------------------------------------------------


def test_start_player_is_random_by_default():
    """origin.md "Setup" step 8 (RL default): a random start player, who takes the first turn."""
    starts = set()
    for seed in range(20):
        rules, state, rng = fresh(3, seed)
        state = finish_setup(rules, state, rng)
        assert state.phase == "play" and state.turn == 1
        assert rules.decision_name(state) == "turn"
        assert rules.current_player(state) == state.start_player == state.current
        starts.add(state.start_player)
    assert starts == {0, 1, 2}


@pytest.mark.parametrize("start", [0, 1, 2, 3])
def test_scripted_start_player_takes_the_first_turn(start):
    """origin.md "Setup" step 8: the drawn start player takes the first turn."""
    rules = OriginRules(num_players=4, random_start_player=True)
    rng = ScriptedRng([0, start])
    state = rules.initial_state(rng)
    assert rules.current_player(state) == start
    state = finish_setup(rules, state, rng)
    assert rules.current_player(state) == start


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_without_random_start_player_0_always_starts(num_players):
    """origin.md "Setup" step 8 and config ``random_start_player=False``: player_0 starts."""
    for seed in range(8):
        rules, state, rng = fresh(num_players, seed, random_start_player=False)
        state = finish_setup(rules, state, rng)
        assert state.start_player == 0
        assert rules.current_player(state) == 0


def test_first_turn_can_only_evolve_next_to_the_neutral_pawn():
    """origin.md "The map" and "Evolve": at the start only the 5 neighbours of the Origin
    territory can be settled, by Evolve; there is nothing to migrate or swap."""
    rules, state, rng = fresh(3, 1, random_start_player=False)
    state = finish_setup(rules, state, rng)
    segments = {rules.layout.decode(a)[0] for a in rules.legal_actions(state)}
    assert segments <= {"evolve_at", "play_card"}
    assert options(rules, state, "evolve_at") == {
        tid(rules, t) for t in ("AF2", "AF3", "AF4", "AF5", "AF6")}
