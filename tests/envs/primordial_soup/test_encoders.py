"""Observation encoders of Primordial Soup: spaces, perspective, decision context, padding."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from primeval.envs.core.encoders import ObservationEncoder, make_encoder
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.data import GENE_INDEX, GENES
from primeval.envs.primordial_soup.encoders import (
    BP_SCALE,
    CUBE_SCALE,
    DECISION_KINDS,
    ENCODERS,
    GLOBAL_PIECES,
    MAX_AMOEBAS,
    SPATIAL_PIECES,
    FlatEncoder,
    GraphEncoder,
    PlanesEncoder,
)
from primeval.envs.primordial_soup.state import GameState, PlayerState

PLAYER_KEYS = ("player", "attacker_player", "mover_player")

#: One example frame of every decision kind, for a game of ``n`` players (player 1 decides).
EXAMPLE_FRAMES: tuple[dict, ...] = (
    {"kind": "start_space", "player": 1},
    {"kind": "place_start", "player": 1, "damage": 1},
    {"kind": "move", "player": 1, "amoeba": 1},
    {"kind": "direction", "player": 1, "amoeba": 1, "mode": "turn", "step": 2,
     "allowed": (0, 2, 3)},
    {"kind": "move_again", "player": 1, "amoeba": 1, "mode": "escape"},
    {"kind": "tentacle", "player": 1, "amoeba": 1, "space": 8, "dest": 9},
    {"kind": "cling", "player": 1, "amoeba": 1, "mover_player": 0, "mover_amoeba": 0,
     "space": 8, "dest": 9},
    {"kind": "feed", "player": 1, "amoeba": 1, "struggle_used": True},
    {"kind": "parasite_host", "player": 1, "amoeba": 1, "meal": (1, 1, 0), "optional": True},
    {"kind": "defend", "player": 1, "amoeba": 1, "attacker_player": 2, "space": 8,
     "attack_kind": "struggle", "escape_used": True, "defense_used": False},
    {"kind": "retry", "player": 1, "amoeba": -1, "attack_kind": "aggression", "space": 8},
    {"kind": "defect", "player": 1, "remaining": 7},
    {"kind": "buy", "player": 1},
    {"kind": "divide", "player": 1, "free_used": True},
    {"kind": "aggression", "player": 1},
)


def make_rules(num_players: int) -> SimpleNamespace:
    """A stand-in for the rules object: what encoders need (``config``, ``num_players``)."""
    config = PrimordialSoupConfig(num_players=num_players)
    return SimpleNamespace(config=config, num_players=num_players)


def make_state(num_players: int = 4, stack: list[dict] | None = None) -> GameState:
    """A mid-game phase-1 state with distinct values per player, built by hand."""
    config = PrimordialSoupConfig(num_players=num_players)
    spaces = config.board.num_spaces
    players = []
    for p in range(num_players):
        players.append(
            PlayerState(
                bp=3 + 5 * p,
                score=6 + 4 * p,
                genes={},
                amoeba_space=[-1] * MAX_AMOEBAS,
                amoeba_damage=[0] * MAX_AMOEBAS,
                amoeba_done=[False] * MAX_AMOEBAS,
            )
        )
    players[0].genes = {"speed": 1, "tentacle": 3}
    players[1].genes = {"struggle": 2, "ray_protection": 3, "defense": 1}
    players[2].genes = {"movement_1": 2}
    players[0].amoeba_space[0], players[0].amoeba_space[3] = 3, 8
    players[0].amoeba_done[0] = True
    players[1].amoeba_space[1], players[1].amoeba_damage[1] = 8, 1
    players[1].amoeba_space[6] = 12
    players[2].amoeba_space[2], players[2].amoeba_damage[2] = 17, 2
    players[2].aggression_used = True
    if num_players == 4:
        players[3].amoeba_space[4] = 0
        players[3].genes = {"longevity": 2}
    cubes = [[(s + 2 * c) % 5 for c in range(num_players)] for s in range(spaces)]
    cubes[8] = [7, 0, 3, 1][:num_players]
    supply = [config.cubes_per_colour - sum(row[c] for row in cubes) for c in range(num_players)]
    gene_supply = [g.copies(num_players) for g in GENES]
    for ps in players:
        for key in ps.genes:
            gene_supply[GENE_INDEX[key]] -= 1
    return GameState(
        num_players=num_players,
        round=3,
        phase="movement_and_feeding",
        players=players,
        cubes=cubes,
        supply=supply,
        gene_supply=gene_supply,
        environment_card=4,
        environment_deck=[0, 2, 5, 7, 9, 10, 1],
        stack=list(stack) if stack is not None else [
            {"kind": "amoeba_turns", "player": 1},
            {"kind": "feed", "player": 1, "amoeba": 1, "struggle_used": False},
        ],
        dice=(3, 6),
    )


def relocation_states(num_players: int) -> list[GameState]:
    """A relocation in progress (the mover took cubes with Tentacle) with a cling decision,
    then the clinging amoeba's own Tentacle decision, on top."""
    carry = (0, 2, 1, 0)[:num_players]
    reloc = {"kind": "relocate", "player": 0, "amoeba": 0, "src": 8, "dest": 9,
             "mode": "turn", "stage": "execute", "carry": carry, "followers": ((1, 1),)}
    cling = dict(EXAMPLE_FRAMES[6])
    take = {"kind": "tentacle", "player": 1, "amoeba": 1, "space": 8, "dest": 9,
            "mover_player": 0, "mover_amoeba": 0}
    return [make_state(num_players, stack=[dict(reloc), cling]),
            make_state(num_players, stack=[dict(reloc), take])]


def example_states(num_players: int) -> list[GameState]:
    """The mid-game state with every example decision frame on top, plus edge cases."""
    states = [make_state(num_players, stack=[dict(f)]) for f in EXAMPLE_FRAMES]
    states += relocation_states(num_players)
    states.append(make_state(num_players, stack=[]))
    states.append(make_state(num_players, stack=[{"kind": "phase2"}]))
    setup = make_state(num_players, stack=[{"kind": "start_space", "player": 0}])
    setup.phase, setup.round, setup.dice, setup.environment_card = "setup", 0, (), -1
    states.append(setup)
    rich = make_state(num_players)
    rich.players[0].bp = 250  # beyond anything reachable: must be clipped into the space
    rich.players[1].score = 60
    rich.cubes[5] = [55] * num_players
    over = make_state(num_players, stack=[{"kind": "game_over_marker"}])
    over.phase, over.round = "game_over", 10
    return [*states, rich, over]


def rotate(state: GameState, seat: int) -> GameState:
    """The same position with seats renumbered so that ``seat`` becomes seat 0."""
    n = state.num_players
    order = [(seat + k) % n for k in range(n)]
    out = state.copy()
    out.players = [state.players[p].copy() for p in order]
    out.cubes = [[row[c] for c in order] for row in state.cubes]
    out.supply = [state.supply[c] for c in order]
    out.stack = [{k: _rotated(k, v, seat, order) for k, v in f.items()} for f in state.stack]
    return out


def _rotated(key: str, value, seat: int, order: list[int]):
    """A frame field with seats renumbered: seat fields, colour vectors (``carry``) and the
    ``followers`` of a relocation."""
    n = len(order)
    if key in PLAYER_KEYS and value >= 0:
        return (value - seat) % n
    if key == "carry" and value:
        return tuple(value[c] for c in order)
    if key == "followers":
        return tuple(((q - seat) % n, b) for q, b in value)
    return value


ENCODER_CLASSES = [FlatEncoder, PlanesEncoder, GraphEncoder]


@pytest.mark.parametrize("cls", ENCODER_CLASSES)
@pytest.mark.parametrize("num_players", [3, 4])
def test_observations_lie_in_space(cls, num_players):
    """Every hand-built state (each decision kind, setup, game over, extreme counts) encodes to
    a float32 array inside ``space()`` for every seat."""
    encoder = cls(make_rules(num_players))
    space = encoder.space()
    assert space.dtype == np.float32
    assert np.all(space.low == 0)
    for state in example_states(num_players):
        for seat in range(num_players):
            obs = encoder.encode(state, seat)
            assert obs.dtype == np.float32
            assert obs.shape == space.shape
            assert space.contains(obs), (state.stack, seat)


@pytest.mark.parametrize("cls", ENCODER_CLASSES)
def test_registry_and_protocol(cls):
    """``ENCODERS`` maps each name to its class, which fits the core encoder protocol and is
    built by ``make_encoder`` from its name."""
    rules = make_rules(4)
    encoder = make_encoder(ENCODERS, cls.name, rules)
    assert isinstance(encoder, cls)
    assert isinstance(encoder, ObservationEncoder)
    assert ENCODERS[cls.name] is cls
    assert set(ENCODERS) == {"flat", "planes", "graph"}


@pytest.mark.parametrize("cls", ENCODER_CLASSES)
@pytest.mark.parametrize("num_players", [3, 4])
def test_perspective_equals_rotated_state(cls, num_players):
    """Seat k's view of a state equals seat 0's view of the state with seats renumbered so
    that k is seat 0 (players, cube colours and frame players all relative)."""
    encoder = cls(make_rules(num_players))
    for state in example_states(num_players):
        for seat in range(num_players):
            a = encoder.encode(state, seat)
            b = encoder.encode(rotate(state, seat), 0)
            np.testing.assert_array_equal(a, b, err_msg=f"seat {seat}, stack {state.stack}")


@pytest.mark.parametrize("num_players", [3, 4])
def test_own_values_in_me_slot(num_players):
    """Each seat sees its own BP, score, genes and cube colour in relative slot 0 and the
    next seat's in slot 1."""
    encoder = FlatEncoder(make_rules(num_players))
    state = make_state(num_players)
    for seat in range(num_players):
        obs = encoder.encode(state, seat)
        bp = encoder.view(obs, "bp")
        assert bp[0] == pytest.approx(state.players[seat].bp / BP_SCALE)
        nxt = (seat + 1) % num_players
        assert bp[1] == pytest.approx(state.players[nxt].bp / BP_SCALE)
        genes = encoder.view(obs, "genes")
        held = {GENES[i].key for i in np.flatnonzero(genes[0])}
        assert held == set(state.players[seat].genes)
        cubes = encoder.view(obs, "cubes")
        assert cubes[0, 8] == pytest.approx(state.cubes[8][seat] / CUBE_SCALE)
        # Own amoebas: amoeba_at channel (0, i) marks their spaces.
        at = encoder.view(obs, "amoeba_at").reshape(4, MAX_AMOEBAS, -1)
        for i, space in enumerate(state.players[seat].amoeba_space):
            assert at[0, i].sum() == (space >= 0)
            if space >= 0:
                assert at[0, i, space] == 1


def test_genes_new_marks_this_rounds_purchases():
    """``genes_new`` flags genes acquired in the current round only (advanced genes cannot
    replace them yet)."""
    encoder = FlatEncoder(make_rules(4))
    state = make_state(4)  # round 3: player 0 got tentacle in round 3, speed in round 1
    new = encoder.view(encoder.encode(state, 0), "genes_new")
    assert new[0, GENE_INDEX["tentacle"]] == 1
    assert new[0, GENE_INDEX["speed"]] == 0
    assert new[1, GENE_INDEX["ray_protection"]] == 1


def test_decision_context_changes_encoding():
    """Different decision frames on the same position give different observations, and the
    pieces name the kind, the actor, the amoeba and the frame's fields."""
    encoder = FlatEncoder(make_rules(4))
    obs = [encoder.encode(s, 0) for s in example_states(4)[: len(EXAMPLE_FRAMES)]]
    for i in range(len(obs)):
        for j in range(i + 1, len(obs)):
            assert not np.array_equal(obs[i], obs[j]), (EXAMPLE_FRAMES[i], EXAMPLE_FRAMES[j])

    defend = make_state(4, stack=[dict(EXAMPLE_FRAMES[9])])
    for seat in range(4):
        o = encoder.encode(defend, seat)
        v = lambda name, o=o: encoder.view(o, name)  # noqa: E731
        assert v("decision")[DECISION_KINDS.index("defend")] == 1
        assert v("to_act")[0] == (seat == 1)
        assert v("actor")[(1 - seat) % 4] == 1
        assert v("other_player")[(2 - seat) % 4] == 1
        assert v("acting_amoeba")[1] == 1
        assert v("attack_kind").tolist() == [1, 0]
        assert v("frame_flags").tolist() == [0, 0, 1, 0, 0]
        assert v("frame_space")[0, 8] == 1
        assert v("acting_space")[0, 8] == 1  # player 1's amoeba #2 stands on space 8

    direction = encoder.encode(make_state(4, stack=[dict(EXAMPLE_FRAMES[3])]), 1)
    assert encoder.view(direction, "allowed_directions").tolist() == [1, 0, 1, 1, 0]
    assert encoder.view(direction, "move_step").tolist() == [0, 1]
    assert encoder.view(direction, "move_mode").tolist() == [1, 0]


def test_relocation_decisions_carry_the_cubes_taken_along():
    """A cling decision and a clinging amoeba's Tentacle decision (Holding with Tentacle) show
    the cubes the move already takes along, by colour relative to the observer, and the
    mover; other decisions show none."""
    encoder = FlatEncoder(make_rules(4))
    for state in relocation_states(4):
        for seat in range(4):
            o = encoder.encode(state, seat)
            carried = [0.0] * 4
            carried[(1 - seat) % 4], carried[(2 - seat) % 4] = 0.2, 0.1
            assert np.allclose(encoder.view(o, "carried_cubes"), carried)
            assert encoder.view(o, "other_player")[(0 - seat) % 4] == 1
            assert encoder.view(o, "other_amoeba")[0] == 1
    plain = encoder.encode(make_state(4, stack=[dict(EXAMPLE_FRAMES[5])]), 0)
    assert not encoder.view(plain, "carried_cubes").any()


def test_no_decision_encodes_none():
    """An empty stack or an automatic step on top encodes decision kind "none" and nobody
    to act."""
    encoder = FlatEncoder(make_rules(4))
    for stack in ([], [{"kind": "feed", "player": 0, "amoeba": 0}, {"kind": "phase2"}]):
        obs = encoder.encode(make_state(4, stack=stack), 0)
        decision = encoder.view(obs, "decision")
        assert decision[-1] == 1 and decision.sum() == 1
        assert encoder.view(obs, "to_act")[0] == 0
        assert encoder.view(obs, "actor").sum() == 0


def test_three_player_padding_is_zero():
    """With 3 players, the fourth seat's and colour's features are zero in both encoders."""
    rules = make_rules(3)
    flat, planes = FlatEncoder(rules), PlanesEncoder(rules)
    state = make_state(3, stack=[dict(EXAMPLE_FRAMES[9])])
    for seat in range(3):
        obs = flat.encode(state, seat)
        for name in ("seat_present", "bp", "score", "amoebas_on_board", "cube_supply",
                     "genes", "amoeba_damage", "cubes", "amoebas", "damage", "actor",
                     "other_player"):
            assert not flat.view(obs, name)[3].any(), name
        assert flat.view(obs, "seat_present").tolist() == [1, 1, 1, 0]
        assert not flat.view(obs, "amoeba_at")[3 * MAX_AMOEBAS :].any()
        p = planes.encode(state, seat)
        for name in ("cubes[3]", "amoebas[3]", "damage[3]", "bp[3]", "genes[3,0]"):
            assert not planes.channel(p, name).any(), name


def test_flat_pieces_addressable():
    """Every global and spatial piece has a named, contiguous slice; the slices tile the
    vector and views have the piece's shape."""
    encoder = FlatEncoder(make_rules(4))
    names = [p[0] for p in GLOBAL_PIECES] + [p[0] for p in SPATIAL_PIECES]
    assert list(encoder.pieces) == names
    stop = 0
    for name, sl in encoder.pieces.items():
        assert sl.start == stop, name
        stop = sl.stop
    assert stop == encoder.space().shape[0]
    obs = encoder.encode(make_state(4), 0)
    assert encoder.view(obs, "genes").shape == (4, len(GENES))
    assert encoder.view(obs, "cubes").shape == (4, 19)
    np.testing.assert_array_equal(obs[encoder.pieces["bp"]], encoder.view(obs, "bp"))


def test_planes_layout_matches_board():
    """Planes are C x H x W over the board grid: the valid plane marks the soup spaces, the
    island plane the island, and spatial planes put each space's value at its (x, y) cell;
    global features are constant planes."""
    rules = make_rules(4)
    planes, flat = PlanesEncoder(rules), FlatEncoder(rules)
    board = rules.config.board
    assert planes.space().shape == (len(planes.channels), board.height, board.width)
    assert len(set(planes.channels)) == len(planes.channels)
    state = make_state(4, stack=[dict(EXAMPLE_FRAMES[5])])
    p = planes.encode(state, 2)
    f = flat.encode(state, 2)
    valid = planes.channel(p, "valid")[0]
    assert valid.sum() == board.num_spaces
    ix, iy = board.island
    assert planes.channel(p, "island")[0, iy, ix] == 1 and valid[iy, ix] == 0
    cubes_f = flat.view(f, "cubes")
    cubes_p = planes.channel(p, "cubes")
    for s, (x, y) in enumerate(board.cells):
        assert cubes_p[:, y, x].tolist() == cubes_f[:, s].tolist()
    sx, sy = board.cells[8]
    dx, dy = board.cells[9]
    assert planes.channel(p, "frame_space")[0, sy, sx] == 1
    assert planes.channel(p, "frame_dest")[0, dy, dx] == 1
    assert planes.channel(p, "frame_dest").sum() == 1
    bp = planes.channel(p, "bp")
    assert bp.shape == (4, board.height, board.width)
    np.testing.assert_array_equal(bp[:, 0, 0], flat.view(f, "bp"))
    assert np.all(bp == bp[:, :1, :1])


def test_graph_layout_matches_board_and_flat():
    """The graph is one row per soup space (its cell, then that space's column of every
    spatial piece), the board's orthogonal neighbours as a symmetric adjacency, and the
    global pieces: the "flat" values, each once, in another order."""
    rules = make_rules(4)
    graph, flat = GraphEncoder(rules), FlatEncoder(rules)
    board = rules.config.board
    t = board.num_spaces
    state = make_state(4, stack=[dict(EXAMPLE_FRAMES[5])])
    g, f = graph.encode(state, 2), flat.encode(state, 2)
    assert g.shape == graph.space().shape == (graph.size,)
    nodes, adjacency, globals_ = graph.split(g)
    assert nodes.shape == (t, graph.num_node_features)
    # every flat value appears once: the node rows (less the positions) and the globals
    spatial = np.concatenate([flat.view(f, name) for name, _, _ in SPATIAL_PIECES])
    np.testing.assert_array_equal(nodes[:, 2:], spatial.T)
    np.testing.assert_array_equal(globals_, f[: graph.num_global_features])
    for s, (x, y) in enumerate(board.cells):
        assert nodes[s, 0] == pytest.approx(x / (board.width - 1))
        assert nodes[s, 1] == pytest.approx(y / (board.height - 1))
        assert set(np.flatnonzero(adjacency[s]).tolist()) == set(board.adjacent(s))
    np.testing.assert_array_equal(adjacency, adjacency.T)
    assert not adjacency.diagonal().any()
    assert graph.view(g, "frame_space")[:, 0].tolist() == [float(s == 8) for s in range(t)]
    np.testing.assert_array_equal(graph.view(g, "cubes"), flat.view(f, "cubes").T)
    np.testing.assert_array_equal(graph.view(g, "bp"), flat.view(f, "bp"))
    with pytest.raises(ValueError, match="shape"):
        graph.split(g[:-1])


def test_graph_structure_names_each_placements_space():
    """``structure()`` says where the graph's parts lie and that ``place_amoeba`` (amoeba
    ``i + 1``, space ``j``) names space ``j`` under the kind of amoeba ``i + 1``; no other
    action names a space. (The structured policy's own check of it runs where torch is:
    tests/training/ppo/test_structured.py.)"""
    from primeval.envs.primordial_soup.actions import LAYOUT

    graph = GraphEncoder(make_rules(3))
    s = graph.structure()
    assert json.loads(json.dumps(s)) == s  # plain data, saved with a policy's weights
    assert len(s["action_kind"]) == len(s["action_entities"]) == LAYOUT.n
    assert (s["entities"], s["entity_features"], s["globals"]) == (
        graph.num_spaces, graph.num_node_features, graph.num_global_features)
    assert s["nodes"] == [0, graph.num_spaces * graph.num_node_features]
    assert s["adjacency"] == [graph.num_spaces * graph.num_node_features,
                              graph.num_spaces * (graph.num_node_features + graph.num_spaces)]
    assert s["global_features"][1] == graph.size
    for action in range(LAYOUT.n):
        segment, index = LAYOUT.decode(action)
        kind, named = s["action_kind"][action], s["action_entities"][action]
        if segment == "place_amoeba":
            assert s["kinds"][kind] == f"place_amoeba_{index[0] + 1}"
            assert named == [index[1], index[1]]
        else:
            assert (kind, named) == (-1, [-1, -1]), segment


@pytest.mark.parametrize("cls", ENCODER_CLASSES)
def test_encode_returns_fresh_array(cls):
    """Observations are not overwritten by later ``encode`` calls."""
    encoder = cls(make_rules(4))
    first = encoder.encode(make_state(4), 0)
    kept = first.copy()
    encoder.encode(make_state(4, stack=[]), 3)
    np.testing.assert_array_equal(first, kept)


def test_decision_kinds_match_rules_registry():
    """``DECISION_KINDS`` lists exactly the decision kinds the rules register."""
    from primeval.envs.primordial_soup.rules import PrimordialSoupRules  # registers frames
    from primeval.envs.primordial_soup.rules.registry import DECISIONS, STEPS

    del PrimordialSoupRules
    assert set(DECISIONS) == set(DECISION_KINDS)
    assert not set(STEPS) & set(DECISION_KINDS)


@pytest.mark.parametrize("num_players", [3, 4])
def test_random_game_observations_stay_in_space(num_players):
    """Along seeded random games, every seat's observation from both encoders lies in the
    space, the decision piece names the pending decision, and only the acting seat has
    ``to_act`` set."""
    from primeval.envs.primordial_soup.rules import PrimordialSoupRules

    rules = PrimordialSoupRules(num_players=num_players)
    encoders = [FlatEncoder(rules), PlanesEncoder(rules)]
    flat = encoders[0]
    for seed in range(2):
        rng = np.random.default_rng(seed)
        state = rules.initial_state(rng)
        steps = 0
        while not rules.is_terminal(state):
            actor = rules.current_player(state)
            kind = state.stack[-1]["kind"]
            for encoder in encoders:
                space = encoder.space()
                for seat in range(num_players):
                    obs = encoder.encode(state, seat)
                    assert space.contains(obs), (seed, steps, kind, seat, encoder.name)
                    if encoder is flat:
                        assert flat.view(obs, "decision")[DECISION_KINDS.index(kind)] == 1
                        assert flat.view(obs, "to_act")[0] == (seat == actor)
            legal = rules.legal_actions(state)
            state = rules.apply(state, int(rng.choice(legal)), rng)
            steps += 1
            assert steps < 5000, "random game did not end"
        for encoder in encoders:
            assert encoder.space().contains(encoder.encode(state, 0))
        assert flat.view(flat.encode(state, 0), "decision")[-1] == 1
