"""Primordial Soup positions by name (issue 15, "Positions by name"): a dict of names gives a
consistent rules state at a phase's decision, and a state gives the dict back."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import yaml

from primeval.envs.core.position import PositionError
from primeval.envs.primordial_soup.position import DECISIONS, build_position, position_to_dict
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from tests.helpers import play_out

RULES = {n: PrimordialSoupRules(num_players=n) for n in (3, 4)}

#: One position per decision kind, written as position_to_dict writes it.
SPECS = {
    "move": (3, {
        "round": 2, "phase": "movement_and_feeding",
        "decision": {"kind": "move", "player": 0, "amoeba": 3},
        "environment_card": 4,
        "players": [
            {"bp": 5, "score": 5, "genes": {"tentacle": 1}, "amoebas": {1: 3, 3: 12}},
            {"bp": 2, "score": 7, "amoebas": {2: {"space": 12, "damage": 1}}},
            {"bp": 4, "score": 6, "amoebas": {1: 16, 5: 9}},
        ],
        "cubes": {12: {"R": 0, "G": 4, "B": 1}},
    }),
    "feed": (3, {
        "round": 2, "phase": "movement_and_feeding",
        "decision": {"kind": "feed", "player": 2, "amoeba": 1},
        "environment_card": 4,
        "players": [
            {"bp": 5, "score": 5, "amoebas": {1: 3, 3: 12}},
            {"bp": 2, "score": 7, "amoebas": {2: 12}},
            {"bp": 4, "score": 6, "amoebas": {1: 16, 5: 9}},
        ],
    }),
    "defect": (4, {
        "round": 5, "phase": "environment",
        "decision": {"kind": "defect", "player": 3},
        "environment_card": 2,  # drift W, ozone 6
        "environment_deck": [1, 3, 5, 6, 9],
        "players": [
            {"bp": 3, "score": 14, "genes": {"speed": 2}, "amoebas": {1: 0, 2: 1}},
            {"bp": 6, "score": 17, "genes": {"ray_protection": 3}, "amoebas": {4: 5}},
            {"bp": 1, "score": 12, "amoebas": {1: 17, 2: 18}},
            {"bp": 8, "score": 15, "genes": {"tentacle": 1, "holding": 4},
             "amoebas": {1: 7, 2: 8, 6: {"space": 13, "damage": 1}}},
        ],
    }),
    "buy": (4, {
        "round": 3, "phase": "new_genes",
        "decision": {"kind": "buy", "player": 2},
        "environment_card": 7,
        "players": [
            {"bp": 6, "score": 9, "genes": {"tentacle": 1, "escape": 3},
             "amoebas": {1: 7, 3: {"space": 12, "damage": 1}}},
            {"bp": 2, "score": 11, "amoebas": {2: 0}},
            {"bp": 9, "score": 8, "genes": {"speed": 2, "struggle": 1}, "amoebas": {1: 12}},
            {"bp": 4, "score": 10, "amoebas": {1: 13, 2: 14}},
        ],
        "dice": [2, 6],
    }),
    "divide": (3, {
        "round": 1, "phase": "cell_division",
        "decision": {"kind": "divide", "player": 1},
        "environment_card": 1,
        "players": [
            {"bp": 11, "score": 3, "amoebas": {1: 0, 2: 9}, "done": [1]},
            {"bp": 12, "score": 2, "amoebas": {4: 6, 7: 10}},
            {"bp": 1, "score": 1, "amoebas": {3: 17, 6: 18}},
        ],
    }),
    "aggression": (4, {
        "round": 4, "phase": "deaths",
        "decision": {"kind": "aggression", "player": 1},
        "environment_card": 3,
        "players": [
            {"bp": 2, "score": 20, "amoebas": {2: 7}},
            {"bp": 3, "score": 18, "genes": {"aggression": 3}, "amoebas": {1: 7, 2: 11}},
            {"bp": 0, "score": 16, "amoebas": {5: 11}},
            {"bp": 7, "score": 19, "genes": {"defense": 2}, "amoebas": {1: 3}},
        ],
    }),
}


def built(kind: str):
    players, spec = SPECS[kind]
    return RULES[players], build_position(RULES[players], copy.deepcopy(spec))


@pytest.mark.parametrize("kind", sorted(SPECS))
def test_dict_to_state_to_dict_is_the_same_dict(kind):
    """The dict form round-trips, and through YAML and JSON (whose keys are strings) too."""
    players, spec = SPECS[kind]
    rules = RULES[players]
    state = build_position(rules, spec)
    assert position_to_dict(rules, state) == spec
    for text in (yaml.safe_dump(spec), json.dumps(spec)):
        again = build_position(rules, yaml.safe_load(text))
        assert again.to_dict() == state.to_dict()


@pytest.mark.parametrize("kind", sorted(SPECS))
def test_a_built_position_waits_for_its_decision_and_plays_to_the_end(kind):
    """check_state holds, the named player decides the named decision, and random legal play
    from there reaches the end of the game with every invariant holding after every step."""
    rules, state = built(kind)
    rules.check_state(state)
    assert rules.decision_name(state) == kind
    assert state.phase == DECISIONS[kind]
    assert rules.current_player(state) == SPECS[kind][1]["decision"]["player"]
    for seed in range(3):
        final, steps = play_out(rules, state, seed)
        assert rules.is_terminal(final) and steps > 0


def test_phase_3_player_2_to_buy_then_the_rest_of_the_round_follows():
    """primordial_soup.md "Phase 3: New genes": descending order, so after player 2 (last on
    the ladder) passes, phase 4 begins with the leader's income."""
    rules, state = built("buy")
    assert state.descending() == [1, 3, 0, 2]
    after = rules.apply(state, rules.pass_action, np.random.default_rng(0))
    assert (after.phase, rules.decision_name(after), rules.current_player(after)) == \
        ("cell_division", "divide", 1)
    assert after.players[1].bp == 2 + rules.config.income_bp


def test_phase_1_the_rest_of_the_players_move_in_ascending_order():
    """primordial_soup.md "Phase 1: Move and feed": after player 0's amoeba #3 drifts and
    feeds, the next amoebas are player 2's, then player 1's (ascending)."""
    rules, state = built("move")
    assert state.players[0].amoeba_done[:3] == [True, False, True]
    players_seen = []
    rng = np.random.default_rng(0)
    while state.phase == "movement_and_feeding":
        player = rules.current_player(state)
        if not players_seen or players_seen[-1] != player:
            players_seen.append(player)
        state = rules.apply(state, rules.legal_actions(state)[0], rng)
    assert players_seen[:3] == [0, 2, 1]


@pytest.mark.parametrize("players", [3, 4])
def test_states_reached_in_play_are_rebuilt_exactly(players):
    """At every supported decision of seeded games, position_to_dict gives a spec that
    builds the very same state (position_to_dict checks it; here it is checked again)."""
    rules = RULES[players]
    seen = dict.fromkeys(DECISIONS, 0)
    for seed in range(3):
        rng, choices = np.random.default_rng(seed), np.random.default_rng(seed + 1)
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            kind = rules.decision_name(state)
            if kind in DECISIONS and seen[kind] < 40:
                seen[kind] += 1
                spec = json.loads(json.dumps(position_to_dict(rules, state)))
                assert build_position(rules, spec).to_dict() == state.to_dict()
            state = rules.apply(state, int(choices.choice(rules.legal_actions(state))), rng)
    assert all(seen[k] for k in ("move", "feed", "buy", "divide"))


def test_the_setup_has_a_position_form_too():
    """The first decision, a start space (every decision has one: see
    test_position_decisions.py)."""
    rules = RULES[3]
    state = rules.initial_state(np.random.default_rng(0))
    spec = position_to_dict(rules, state)
    assert (spec["round"], spec["phase"], spec["decision"]["kind"]) == (0, "setup",
                                                                        "start_space")
    assert build_position(rules, spec) == state


def spec_with(kind: str, change) -> tuple[PrimordialSoupRules, dict]:
    players, spec = SPECS[kind]
    spec = copy.deepcopy(spec)
    change(spec)
    return RULES[players], spec


@pytest.mark.parametrize(("kind", "change", "message"), [
    ("buy", lambda s: s["players"][0]["genes"].update(tentacl=1),
     r"players\[0\]\.genes: unknown gene 'tentacl'; did you mean 'tentacle'"),
    ("buy", lambda s: s["players"][1]["amoebas"].update({8: 3}),
     r"players\[1\]\.amoebas: amoeba 8 does not exist \(amoebas are numbered 1\.\.7: each "
     r"player has 7 amoebas of its colour\)"),
    ("buy", lambda s: s["decision"].update(player=5),
     r"decision\.player: seat 5 is not in this 4-player game \(seats 0\.\.3\)"),
    ("buy", lambda s: s["players"][1]["amoebas"].update({3: 19}),
     r"space 19 is not on the board \(spaces 0\.\.18"),
    ("buy", lambda s: s["decision"].update(kind="purchase"),
     r"decision\.kind: unknown decision kind 'purchase'"),
    ("buy", lambda s: s.update(cube={}), r"unknown key\(s\) \['cube'\]"),
    ("move", lambda s: s["cubes"].update({3: {"Y": 1}}),
     r"cubes\.3: unknown colour 'Y'"),
    ("move", lambda s: s["decision"].update(amoeba=2),
     r"player 0's amoeba #2 is not on the board"),
    ("buy", lambda s: s.update(phase=4), r"phase: 4, but a 'buy' decision is taken in phase 3"),
])
def test_a_bad_name_is_refused_naming_it(kind, change, message):
    rules, spec = spec_with(kind, change)
    with pytest.raises(PositionError, match=message):
        build_position(rules, spec)


@pytest.mark.parametrize(("kind", "change", "message"), [
    # Player 2 holds no Aggression: its only choice would be to pass.
    ("aggression", lambda s: s["decision"].update(player=2), "only 'pass'"),
    ("buy", lambda s: s.update(cubes={0: {"R": 50}}), r"cubes: 86 R cubes \(player 0's colour\) on the board, but the game has 55 of each "
     r"colour .*; most on spaces 0 \(50\)"),
    ("buy", lambda s: s["players"][1].update(genes={"escape": 1, "spores": 1},
                                             amoebas={2: 0, 3: 1}) or
     s["players"][3].update(genes={"escape": 2}), r"Escape is held by players \[0, 1, 3\]"),
    ("buy", lambda s: s["players"][2]["genes"].update(aggression=1),
     "Aggression replaced Struggle for Survival"),
    ("buy", lambda s: s.update(environment_deck=[1, 2, 3]),
     "so 7 are left"),
    ("buy", lambda s: s["players"][3].update(score=42), "is in the finish zone"),
    ("buy", lambda s: s["decision"].update(player=1),  # player 0's Escape is of round 3
     "player 0 has not bought genes in round 3 yet"),
    ("aggression", lambda s: s["players"][2]["amoebas"].update({5: {"space": 11, "damage": 2}}),
     "kills it in phase 5's natural deaths"),
    ("aggression", lambda s: s["players"][2].update(aggression_used=True),
     "has not had its Aggression turn"),
    ("feed", lambda s: s["players"][0].update(done=[3]),
     "so its amoeba #1 on the board is done"),
    ("defect", lambda s: s["decision"].update(player=2), "owes no gene defect"),
    ("buy", lambda s: s["players"][0]["genes"].update(Tentacle=1),
     r"players\[0\]\.genes: player 0's Tentacle is written twice"),
    ("buy", lambda s: s["players"][2]["genes"].update(persistence=1),
     r"players\[2\]\.genes: player 2 holds Persistence and Speed, but Persistence replaced "
     "Speed when it was bought"),
    ("buy", lambda s: s["players"][0].update(score=11),
     r"player 0's and player 1's markers are both on ladder space 11, but two score "
     "markers never share a space"),
])
def test_an_inconsistent_position_is_refused_saying_why(kind, change, message):
    rules, spec = spec_with(kind, change)
    with pytest.raises(PositionError, match=message):
        build_position(rules, spec)


def test_the_defaults_fill_a_minimal_spec():
    """Only the decision: every player with the start BP on ladder space seat + 1, the setup
    cubes everywhere, the supplies full, the deck as round 1 leaves it."""
    rules = RULES[4]
    state = build_position(rules, {"decision": {"kind": "buy", "player": "player_3"}})
    assert [ps.score for ps in state.players] == [1, 2, 3, 4]
    assert [ps.bp for ps in state.players] == [rules.config.start_bp] * 4
    assert state.supply == [55 - 2 * 19] * 4
    assert len(state.environment_deck) == len(rules.config.environment_deck) - 2
    assert rules.current_player(state) == 3
    assert position_to_dict(rules, state)["decision"] == {"kind": "buy", "player": 3}


def test_the_module_docstring_example_builds():
    import textwrap

    from primeval.envs.primordial_soup import position

    example = position.__doc__.split("::\n\n", 1)[1].split("\n\nKeys", 1)[0]
    state = build_position(RULES[4], yaml.safe_load(textwrap.dedent(example)))
    assert (state.phase, RULES[4].current_player(state)) == ("new_genes", 2)
