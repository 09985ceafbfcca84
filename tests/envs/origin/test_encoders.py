"""Observation encoders of Origin: spaces, perspective, named pieces, decision context."""

from __future__ import annotations

import numpy as np
import pytest

import primeval.envs.origin.rules  # noqa: F401  (registers every decision kind)
from primeval.envs.core.encoders import ObservationEncoder, make_encoder
from primeval.envs.origin.encoders import (
    CARD_PIECE_COLOURS,
    DECISION_KINDS,
    ENCODERS,
    GLOBAL_PIECES,
    MAX_PLAYERS,
    NODE_PIECES,
    POINT_SOURCES,
    FlatEncoder,
    GraphEncoder,
)
from primeval.envs.origin.gamedata import TERRITORY_COLOURS
from primeval.envs.origin.rules import OriginRules, scoring
from primeval.envs.origin.rules.registry import REGISTRY
from primeval.envs.origin.state import EMPTY, NEUTRAL
from tests.envs.origin.builders import cid, give_card, put, table, tid


def example_frames(rules: OriginRules, state) -> list[dict]:
    """One frame of every decision kind, decided by player 1 (victim: player 2)."""
    dealt = tuple(state.decks[2][:3])
    yellow = state.decks[0][0]
    return [
        {"kind": "keep_objective", "player": 1, "dealt": dealt, "keep": 1},
        {"kind": "turn", "player": 1},
        {"kind": "evolve_pawn", "player": 1, "territory": 3},
        {"kind": "migrate_to", "player": 1, "territory": 4},
        {"kind": "swap_onto", "player": 1, "territory": 5},
        {"kind": "reward_option", "player": 1, "colour": "brown"},
        {"kind": "take_tile", "player": 1, "colours": ("yellow", "brown"), "count": 2},
        {"kind": "return_card", "player": 1, "colour": "purple", "count": 1},
        {"kind": "choose_deck", "player": 1, "count": 1, "reason": "hunt_draw"},
        {"kind": "raft_pawn", "player": 1},
        {"kind": "raft_destination", "player": 1, "territory": 6},
        {"kind": "steal_card", "player": 1},
        {"kind": "steal_tile", "player": 1},
        {"kind": "steal_tile_column", "player": 1, "victim": 2},
        {"kind": "claim_strait", "player": 1},
        {"kind": "barter_player", "player": 1},
        {"kind": "barter_take", "player": 1, "victim": 2},
        {"kind": "barter_give", "player": 1, "victim": 2, "taken": yellow},
        {"kind": "great_hunt", "player": 1, "distance": 2},
        {"kind": "exchange_first", "player": 1},
        {"kind": "exchange_second", "player": 1, "territory": 7},
    ]


def random_states(num_players: int, seed: int, every: int = 1, limit: int = 100_000):
    """States along a seeded random game (every ``every``-th, the final one included)."""
    rules = OriginRules(num_players=num_players)
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    step = 0
    while True:
        if step % every == 0 or rules.is_terminal(state):
            yield rules, state
        if rules.is_terminal(state) or step >= limit:
            return
        state = rules.apply(state, int(rng.choice(rules.legal_actions(state))), rng)
        step += 1


def encoders(rules):
    return FlatEncoder(rules), GraphEncoder(rules)


# Registry, names, pieces -------------------------------------------------------------------------


def test_decision_kinds_match_the_registry():
    """DECISION_KINDS lists exactly the decision kinds the rules register, once each."""
    assert len(set(DECISION_KINDS)) == len(DECISION_KINDS)
    assert set(DECISION_KINDS) == set(REGISTRY.decisions)
    assert not set(DECISION_KINDS) & set(REGISTRY.steps)


def test_example_frames_cover_every_decision_kind():
    rules, state = table(3)
    assert {f["kind"] for f in example_frames(rules, state)} == set(DECISION_KINDS)


def test_point_sources_match_scoring():
    """The ``points`` piece follows scoring.points' sources, in order."""
    rules, state = table(3)
    assert tuple(scoring.points(rules, state, 0)) == POINT_SOURCES


def test_registry_by_name_and_protocol():
    rules = OriginRules(num_players=3)
    assert set(ENCODERS) == {"flat", "graph", "flat_objectives"}
    for name in ENCODERS:
        enc = make_encoder(ENCODERS, name, rules)
        assert isinstance(enc, ObservationEncoder)
        assert enc.name == name
        space = enc.space()
        assert space.dtype == np.float32 and len(space.shape) == 1
        assert np.all(space.low == 0.0) and np.all(space.high == 1.0)


@pytest.mark.parametrize(("include_static", "size"), [(False, 1486), (True, 2452)])
def test_flat_pieces_are_named_contiguous_and_match_the_module_tables(include_static, size):
    """The flat vector is the global pieces, then the territory pieces as (T, channels):
    those that change during a game, or all of them with ``include_static``."""
    rules = OriginRules(num_players=3)
    flat = FlatEncoder(rules, include_static=include_static)
    t = rules.data.world.size
    expected = [(name, tuple(np.atleast_1d(shape))) for name, shape, _ in GLOBAL_PIECES]
    expected += [(name, (t, ch)) for name, ch, _ in NODE_PIECES
                 if include_static or name not in ("colour", "continent", "strait_end")]
    assert [(p.name, p.shape) for p in flat.features.pieces] == expected
    assert list(flat.pieces) == [name for name, _ in expected]
    stop = 0
    for name, sl in flat.pieces.items():
        assert sl.start == stop, name
        stop = sl.stop
    assert stop == flat.size == flat.space().shape[0] == size
    obs = flat.encode(rules.initial_state(np.random.default_rng(0)), 0)
    assert flat.view(obs, "hand").shape == (48,)
    assert flat.view(obs, "permanents").shape == (MAX_PLAYERS, 14)  # the orange cards
    assert flat.view(obs, "owner").shape == (t, MAX_PLAYERS + 2)
    with pytest.raises(ValueError, match="unknown feature"):
        flat.view(obs, "nonsense")


def test_graph_layout_split_and_adjacency():
    """[nodes T x F | adjacency T x T | globals G]; the adjacency is the map's (land and
    strait edges), symmetric and constant."""
    rules = OriginRules(num_players=3)
    graph = GraphEncoder(rules)
    world = rules.data.world
    t = world.size
    f = sum(ch for _, ch, _ in NODE_PIECES)
    assert (graph.num_territories, graph.num_node_features) == (t, f) == (42, 42)
    assert graph.num_global_features == 688
    assert graph.size == t * f + t * t + graph.num_global_features == graph.space().shape[0]
    state = rules.initial_state(np.random.default_rng(0))
    obs = graph.encode(state, 0)
    nodes, adjacency, globals_ = graph.split(obs)
    assert nodes.shape == (t, f) and adjacency.shape == (t, t)
    assert globals_.shape == (graph.num_global_features,)
    assert np.array_equal(adjacency, adjacency.T)
    for i, neighbours in enumerate(world.neighbours):
        assert set(np.flatnonzero(adjacency[i])) == set(neighbours)
    for a, b in world.straits:
        assert adjacency[a, b] == 1.0
    start = 0
    for name, ch, _ in NODE_PIECES:
        assert graph.node_columns[name] == slice(start, start + ch)
        start += ch
    with pytest.raises(ValueError, match="shape"):
        graph.split(obs[:-1])


# Spaces along random games -----------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_observations_stay_inside_the_spaces_along_random_games(num_players):
    """Every observation of every seat, both encoders, lies in its Box (float32), and the
    flat and graph encoders carry the same values for every piece."""
    seen = set()
    for seed in range(2):
        rules = None
        for rules_, state in random_states(num_players, seed):
            if rules is not rules_:
                rules = rules_
                flat, graph = encoders(rules)
            seen.add(rules.decision_name(state))
            for seat in range(num_players):
                f_obs, g_obs = flat.encode(state, seat), graph.encode(state, seat)
                for enc, obs in ((flat, f_obs), (graph, g_obs)):
                    assert obs.dtype == np.float32
                    assert enc.space().contains(obs), (enc.name, rules.decision_name(state))
                for name in flat.pieces:
                    assert np.array_equal(flat.view(f_obs, name), graph.view(g_obs, name)), name
    assert {"keep_objective", "turn", "evolve_pawn", "reward_option", ""} <= seen


def test_encode_does_not_mutate_the_state_and_returns_fresh_arrays():
    rules, state = next(random_states(3, 0))
    before = state.to_dict()
    for enc in encoders(rules):
        a = enc.encode(state, 0)
        b = enc.encode(state, 1)
        assert not np.shares_memory(a, b)
        a_again = enc.encode(state, 0)
        assert np.array_equal(a, a_again)
    assert state.to_dict() == before


# Blocks kept between observations -------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_kept_blocks_give_what_a_new_encoder_gives(num_players):
    """An encoder keeps the player, board and strait blocks of its last observations and
    reuses them while their inputs are unchanged. Along random games, observed by the
    player to act, another seat, and now and then an earlier state out of order, every
    observation equals a new encoder's."""
    pick = np.random.default_rng(num_players)
    rules, seen = None, []
    for rules_, state in random_states(num_players, seed=10 + num_players, every=2):
        if rules is None:
            rules = rules_
            kept = encoders(rules)
        seen.append(state)
        looks = [(state, rules.current_player(state) if state.stack else 0),
                 (state, int(pick.integers(num_players)))]
        if len(seen) % 5 == 0:
            looks.append((seen[int(pick.integers(len(seen)))], int(pick.integers(num_players))))
        for looked, seat in looks:
            for enc, new in zip(kept, encoders(rules), strict=True):
                assert np.array_equal(enc.encode(looked, seat), new.encode(looked, seat)), (
                    enc.name, len(seen), seat)
    assert len(seen) > 50


def test_kept_blocks_follow_a_state_changed_in_place():
    """A block is kept by comparing the state with a copy of what it was made from, so
    changing the very lists it was made from in place is seen."""
    rules, state = table(3)
    a, b = tid(rules, "AF1"), tid(rules, "AF2")
    green = next(i for i, t in enumerate(rules.data.world.territories) if t.colour == "green")
    changes = [
        lambda s: put(rules, s, 1, "AF1"),
        lambda s: s.hands[1].append(s.decks[0].pop(0)),
        lambda s: s.hands[0].append(s.decks[2].pop(0)),
        lambda s: s.permanents[2].append(s.decks[1].pop(0)),
        lambda s: s.objectives_done[1].append(s.hands[0].pop()),
        lambda s: s.columns[1].append([1]),
        lambda s: s.columns[1][0].append(2),
        lambda s: s.villages.__setitem__(2, s.villages[2] - 1),
        lambda s: s.objective_points.__setitem__(1, 4),
        lambda s: s.strait_owner.__setitem__(0, 2),
        lambda s: s.hunt_owner.__setitem__(green, 1),
        lambda s: (s.pawn.__setitem__(b, s.pawn[a]), s.owner.__setitem__(b, 1),
                   s.pawn.__setitem__(a, -1), s.owner.__setitem__(a, EMPTY)),
    ]
    kept = encoders(rules)
    for i, change in enumerate(changes):
        before = [[enc.encode(state, seat) for seat in range(3)] for enc in kept]
        change(state)
        for enc, new, old in zip(kept, encoders(rules), before, strict=True):
            now = [new.encode(state, seat) for seat in range(3)]
            changed = [not np.array_equal(x, y) for x, y in zip(now, old, strict=True)]
            assert any(changed), (enc.name, i)
            for seat in range(3):
                assert np.array_equal(enc.encode(state, seat), now[seat]), (enc.name, i, seat)


def test_single_colour_card_pieces_hold_that_colour_in_card_order():
    """``permanents`` holds the orange cards, ``objectives_done`` and ``frame_dealt`` the
    purple ones, ``turn_cards`` and ``discard`` the yellow ones, each in card index order;
    hands hold every card. ``cards_of`` names the card of each entry."""
    rules = OriginRules(num_players=3)
    cards = rules.data.cards
    for enc in encoders(rules):
        obs = enc.encode(rules.initial_state(np.random.default_rng(0)), 0)
        for piece, colour in CARD_PIECE_COLOURS.items():
            entries = enc.cards_of(piece)
            assert entries == [i for i, c in enumerate(cards) if c.colour == colour], piece
            assert enc.view(obs, piece).shape[-1] == len(entries)
        for piece in ("hand", "frame_taken", "victim_hand"):
            assert enc.cards_of(piece) == list(range(len(cards)))
        with pytest.raises(ValueError, match="not a card piece"):
            enc.cards_of("owner")


def test_a_card_of_the_wrong_colour_in_a_pile_is_refused_by_check_state():
    """The single-colour card pieces rely on it: a loaded state with, say, a purple card
    among the cards in play is damaged."""
    rules, state = next(random_states(3, 0))
    rules.check_state(state)
    purple_deck = state.decks[2]
    assert rules.data.cards[purple_deck[0]].colour == "purple"
    state.permanents[0].append(purple_deck.pop(0))
    with pytest.raises(ValueError, match="player 0's cards in play: only orange cards"):
        rules.check_state(state)


def test_seat_out_of_range_raises():
    rules, state = table(3)
    with pytest.raises(ValueError, match="out of range"):
        FlatEncoder(rules).encode(state, 3)


# Perspective -------------------------------------------------------------------------------------


def _position(num_players: int = 4):
    """Pawns, tiles, tokens and cards that differ per player."""
    rules, state = table(num_players)
    put(rules, state, 0, "AF1", 1, 2, 0)
    put(rules, state, 1, "AF2", 2, 1, 1)
    put(rules, state, 1, "AF4", 1, 2, 2)
    if num_players > 2:
        put(rules, state, 2, "AF3", 1, 3, 2)
    state.columns[1] = [[1, 2, 3], [1]]
    state.columns[0] = [[1]]
    state.strait_owner[0] = 1
    green = tid(rules, "AF6")
    state.hunt_owner[green] = 0
    give_card(rules, state, 0, "Y3")
    give_card(rules, state, 1, "O5")
    give_card(rules, state, 1, "Y6")
    p1 = cid(rules, "P1")
    state.decks[1].remove(p1)
    state.permanents[1].append(p1)
    state.villages[1] = 4
    state.current = 1
    state.stack = [{"kind": "turn", "player": 1}]
    return rules, state


@pytest.mark.parametrize("encoder_cls", [FlatEncoder, GraphEncoder])
def test_ego_centric_players_me_first_then_turn_order(encoder_cls):
    rules, state = _position(4)
    enc = encoder_cls(rules)
    t_af1, t_af2, t_af0 = tid(rules, "AF1"), tid(rules, "AF2"), tid(rules, "AF0")
    for seat in range(4):
        obs = enc.encode(state, seat)
        rel1 = (1 - seat) % 4
        owner = enc.view(obs, "owner")
        assert owner[t_af1, (0 - seat) % 4] == 1.0
        assert owner[t_af2, rel1] == 1.0
        assert owner[t_af0, MAX_PLAYERS + 1] == 1.0  # neutral
        assert owner[tid(rules, "EU1"), MAX_PLAYERS] == 1.0  # empty
        assert np.all(owner.sum(axis=1) == 1.0)
        assert enc.view(obs, "current")[rel1] == 1.0
        assert enc.view(obs, "actor")[rel1] == 1.0
        assert enc.view(obs, "to_act")[0] == (seat == 1)
        assert enc.view(obs, "villages")[rel1] == pytest.approx(4 / 9)
        assert enc.view(obs, "strait_owner")[0, rel1] == 1.0
        assert enc.view(obs, "hunting_count")[(0 - seat) % 4] > 0
        assert enc.view(obs, "column_tops")[rel1, 2] > 0  # a column topped by level 3
        p1 = enc.cards_of("permanents").index(cid(rules, "P1"))
        assert enc.view(obs, "permanents")[rel1].tolist() == [float(k == p1) for k in range(14)]
        assert enc.view(obs, "hand_size")[rel1].tolist() == pytest.approx(
            [1 / 14, 0.0, 1 / 20])
        points = enc.view(obs, "points")
        for k in range(4):
            p = (seat + k) % 4
            tiles = scoring.points(rules, state, p)["tiles"]
            assert (points[k, POINT_SOURCES.index("tiles")] > 0) == (tiles > 0)
        assert enc.view(obs, "seat_present").tolist() == [1.0] * 4


def test_pawn_and_territory_features():
    rules, state = _position(3)
    enc = FlatEncoder(rules)
    obs = enc.encode(state, 0)
    af2 = tid(rules, "AF2")  # h2/w1/brown, brown territory
    assert enc.view(obs, "pawn_height")[af2].tolist() == [0, 1, 0]
    assert enc.view(obs, "pawn_width")[af2].tolist() == [1, 0, 0]
    assert enc.view(obs, "pawn_colour")[af2].tolist() == [0, 1, 0]
    assert enc.view(obs, "pawn_height")[tid(rules, "EU1")].sum() == 0.0
    af6, eu7 = tid(rules, "AF6"), tid(rules, "EU7")  # AF6's token was taken
    assert enc.view(obs, "hunt_present")[af6, 0] == 0.0
    assert enc.view(obs, "hunt_present")[eu7, 0] == 1.0
    assert enc.view(obs, "hunt_value")[eu7, 0] == pytest.approx(state.hunt_value[eu7] / 4)
    a, b = rules.data.world.straits[0]
    assert enc.view(obs, "strait_open")[a, 0] == 0.0  # strait 0's token is held
    assert enc.view(obs, "strait_on_board")[0] == 0.0
    assert enc.view(obs, "strait_on_board")[1] == 1.0
    assert state.owner[tid(rules, "AF0")] == NEUTRAL and state.owner[a] != EMPTY


def test_static_map_pieces_are_left_out_of_flat_and_kept_elsewhere():
    """The map's colour, continent and strait ends are in the graph encoder's node columns and
    in ``FlatEncoder(include_static=True)``, the same in every observation; the default flat
    vector leaves them out and holds the same values for every other piece."""
    rules, state = _position(3)
    flat, graph = FlatEncoder(rules), GraphEncoder(rules)
    full = FlatEncoder(rules, include_static=True)
    world = rules.data.world
    af2 = tid(rules, "AF2")  # a brown territory
    a, b = world.straits[0]
    later = next(s for i, (_, s) in enumerate(random_states(3, 1)) if i == 40)
    for enc in (graph, full):
        for st in (state, later):
            obs = enc.encode(st, 0)
            assert enc.view(obs, "colour")[af2, TERRITORY_COLOURS.index("brown")] == 1.0
            assert enc.view(obs, "strait_end")[a, 0] == enc.view(obs, "strait_end")[b, 0] == 1.0
            continents = enc.view(obs, "continent")
            assert continents[af2, world.continents.index(world.territories[af2].continent)] == 1
            assert np.all(continents.sum(axis=1) == 1.0)
    for name in ("colour", "continent", "strait_end"):
        assert name not in flat.pieces
        with pytest.raises(ValueError, match="unknown feature"):
            flat.view(flat.encode(state, 0), name)
    f_obs, full_obs = flat.encode(later, 1), full.encode(later, 1)
    for name in flat.pieces:
        assert np.array_equal(flat.view(f_obs, name), full.view(full_obs, name)), name


@pytest.mark.parametrize("num_players", [2, 3])
def test_small_games_pad_with_zeros(num_players):
    rules, state = _position(num_players)
    for enc in encoders(rules):
        obs = enc.encode(state, 0)
        present = enc.view(obs, "seat_present")
        assert present.tolist() == [1.0] * num_players + [0.0] * (4 - num_players)
        for name in ("villages", "hand_size", "points", "permanents", "objectives_done",
                     "column_tops", "points_total"):
            assert not enc.view(obs, name)[num_players:].any(), name
        assert not enc.view(obs, "owner")[:, num_players:MAX_PLAYERS].any()


def test_public_board_features():
    rules, state = _position(3)
    enc = FlatEncoder(rules)
    obs = enc.encode(state, 2)
    slots = enc.view(obs, "slot_level")
    for i, level in enumerate(state.slots):
        assert slots[i].tolist() == [float(j == level) for j in range(6)]
    assert enc.view(obs, "tile_reserve")[0] == pytest.approx(sum(state.tile_reserve) / 15)
    assert enc.view(obs, "deck_size").tolist() == pytest.approx(
        [len(state.decks[0]) / 14, len(state.decks[1]) / 14, len(state.decks[2]) / 20])
    assert enc.view(obs, "phase")[1] == 1.0  # play
    reserve = enc.view(obs, "pawn_reserve")
    assert reserve.tolist() == pytest.approx([r / 2 for r in state.reserve])


def test_turn_state_features():
    rules, state = _position(3)
    y3 = cid(rules, "Y3")
    state.turn_state = {"action_taken": True, "played": ("yellow",),
                        "extra_actions": ("migrate",), "turn_cards": (y3,)}
    state.end_triggered, state.phase, state.final_turns_left = True, "final_round", 2
    enc = FlatEncoder(rules)
    obs = enc.encode(state, 0)
    assert enc.view(obs, "action_taken")[0] == 1.0
    assert enc.view(obs, "played_colours").tolist() == [1.0, 0.0, 0.0]
    assert enc.view(obs, "extra_actions").tolist() == [0.0, 1.0, 0.0]
    assert enc.view(obs, "turn_cards")[enc.cards_of("turn_cards").index(y3)] == 1.0
    assert enc.view(obs, "turn_cards").sum() == 1.0
    assert enc.view(obs, "end_triggered")[0] == 1.0
    assert enc.view(obs, "final_turns_left")[0] == pytest.approx(0.5)
    assert enc.view(obs, "phase")[2] == 1.0


# Decision context --------------------------------------------------------------------------------


@pytest.mark.parametrize("encoder_cls", [FlatEncoder, GraphEncoder])
def test_every_decision_kind_is_encoded_with_its_public_fields(encoder_cls):
    """The kind, the actor and the public fields reach every observer; private fields
    (dealt, taken, the victim's hand) only the deciding one."""
    rules, state = _position(3)
    enc = encoder_cls(rules)
    for frame in example_frames(rules, state):
        state.stack = [dict(frame)]
        for seat in range(3):
            obs = enc.encode(state, seat)
            decision = enc.view(obs, "decision")
            assert decision[DECISION_KINDS.index(frame["kind"])] == 1.0 and decision.sum() == 1
            assert enc.view(obs, "to_act")[0] == (seat == 1)
            assert enc.view(obs, "actor")[(1 - seat) % 3] == 1.0
            if "territory" in frame:
                assert enc.view(obs, "frame_territory")[frame["territory"], 0] == 1.0
            if "victim" in frame:
                assert enc.view(obs, "frame_victim")[(2 - seat) % 3] == 1.0
            if "count" in frame:
                assert enc.view(obs, "frame_count")[0] == pytest.approx(frame["count"] / 4)
            if "colour" in frame:
                assert enc.view(obs, "frame_colour").sum() == 1.0
            if "colours" in frame:
                assert enc.view(obs, "frame_tile_colours").tolist() == [1.0, 0.0, 0.0, 1.0]
            if "reason" in frame:
                assert enc.view(obs, "frame_reason").tolist() == [0.0, 1.0, 0.0]
            if "distance" in frame:
                assert enc.view(obs, "frame_distance")[0] == 1.0
            if frame["kind"] == "keep_objective":
                assert enc.view(obs, "frame_keep")[0] == 1.0
                assert enc.view(obs, "frame_dealt_count")[0] == 1.0
            dealt = enc.view(obs, "frame_dealt")
            taken = enc.view(obs, "frame_taken")
            victim_hand = enc.view(obs, "victim_hand")
            if seat != 1:
                assert not dealt.any() and not taken.any() and not victim_hand.any()
            elif frame["kind"] == "keep_objective":
                cards = enc.cards_of("frame_dealt")
                assert {cards[k] for k in np.flatnonzero(dealt)} == set(frame["dealt"])
            elif frame["kind"] == "barter_give":
                assert np.flatnonzero(taken).tolist() == [frame["taken"]]
            elif frame["kind"] == "barter_take":
                assert set(np.flatnonzero(victim_hand)) == set(state.hands[2])
            else:
                assert not dealt.any() and not taken.any() and not victim_hand.any()


def test_no_pending_decision_and_game_over():
    *_, (rules, state) = random_states(2, 0, every=10_000)
    assert rules.is_terminal(state)
    enc = FlatEncoder(rules)
    obs = enc.encode(state, 0)
    assert enc.view(obs, "decision")[-1] == 1.0
    assert enc.view(obs, "phase")[3] == 1.0
    assert enc.view(obs, "to_act")[0] == 0.0
    assert not enc.view(obs, "actor").any()


def test_unknown_registered_decision_kind_fails_loudly(monkeypatch):
    """A decision kind added to the rules but not to DECISION_KINDS is an error, not a
    silently unencoded decision."""
    rules, state = table(3)
    monkeypatch.setitem(REGISTRY.decisions, "brand_new_kind", REGISTRY.decisions["turn"])
    state.stack = [{"kind": "brand_new_kind", "player": 0}]
    with pytest.raises(ValueError, match="DECISION_KINDS"):
        FlatEncoder(rules).encode(state, 0)


def test_own_hand_is_encoded():
    rules, state = _position(3)
    enc = FlatEncoder(rules)
    for seat in range(3):
        obs = enc.encode(state, seat)
        assert set(np.flatnonzero(enc.view(obs, "hand"))) == set(state.hands[seat])
