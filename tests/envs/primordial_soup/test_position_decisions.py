"""Positions at every decision the Primordial Soup rules pause at (issue 26, "positions from
every decision kind"): in seeded random games with 3 and 4 players, every state of every
decision kind (the setup's, each phase's, and every interrupt: Speed, a direction, Tentacle,
Holding, Parasitism, a defence, Persistence's retry) is written with ``position_to_dict``,
sent through JSON and built back into the identical state."""

from __future__ import annotations

import collections
import json

import numpy as np
import pytest

from primeval.envs.core.position import PositionError
from primeval.envs.primordial_soup.position import (
    ALL_DECISIONS,
    build_position,
    position_to_dict,
)
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.rules.movement import die_outcomes

RULES = {n: PrimordialSoupRules(num_players=n) for n in (3, 4)}

#: A crowded round 3 where the attack, defence and movement genes are held: random play
#: from here reaches the interrupts that random play from the start seldom does.
GENES = [
    {"aggression": 1, "persistence": 2, "tentacle": 1, "movement_1": 2},
    {"defense": 1, "escape": 2, "holding": 1},
    {"struggle": 1, "speed": 2, "movement_2": 1},
    {"struggle": 2, "spores": 1, "longevity": 2},
]
SPACES = [[4, 5, 7], [5, 7, 8], [4, 8, 11], [7, 11, 12]]


def crowded(n: int) -> dict:
    return {
        "round": 3,
        "decision": {"kind": "move", "player": 0, "amoeba": 1},
        "players": [
            {
                "bp": 20,
                "score": 1 + p,
                "genes": GENES[p],
                "amoebas": {i + 1: sp for i, sp in enumerate(SPACES[p])},
            }
            for p in range(n)
        ],
    }


def attacked(n: int) -> dict:
    """Phase 5 of the crowded round: player 0's Aggression on player 1's amoeba #2, which
    may Escape or fight with Defense; a failed attack gives player 0 Persistence's retry."""
    spec = crowded(n)
    spec["decision"] = {"kind": "defend"}  # who and what follow from the attack under it
    spec["waiting"] = [
        {
            "kind": "attack",
            "attack_kind": "aggression",
            "player": 0,
            "target_player": 1,
            "target_amoeba": 2,
        }
    ]
    return spec


def round_trips(rules, state) -> dict:
    """``position_to_dict`` of ``state``, through JSON, builds the identical state."""
    spec = position_to_dict(rules, state)
    again = json.loads(json.dumps(spec))
    assert build_position(rules, again) == state, rules.decision_name(state)
    return spec


def play_every_state(rules, state, seed: int, seen: collections.Counter) -> None:
    rng, choices = np.random.default_rng(seed), np.random.default_rng([seed, 1])
    while not rules.is_terminal(state):
        seen[rules.decision_name(state)] += 1
        round_trips(rules, state)
        state = rules.apply(state, int(choices.choice(rules.legal_actions(state))), rng)


@pytest.mark.parametrize("players", [3, 4])
def test_every_decision_of_seeded_games_round_trips_through_json(players):
    rules = RULES[players]
    seen: collections.Counter = collections.Counter()
    play_every_state(rules, rules.initial_state(np.random.default_rng(players)), players, seen)
    for seed in range(2):
        play_every_state(rules, build_position(rules, crowded(players)), seed, seen)
        play_every_state(rules, build_position(rules, attacked(players)), seed, seen)
    # Every decision kind was met (Parasitism needs its gene, held only in 4-player games,
    # and is the one left to the next test).
    assert set(ALL_DECISIONS) - set(seen) <= {"parasite_host"}, seen


def test_the_rule_variants_frames_round_trip_too():
    """With ``relocated_amoeba_feeds`` an amoeba carried by Holding or Escape feeds out of
    its turn (a feed frame over another amoeba's turn); with ``holding_follows_own`` one's
    own amoebas cling too."""
    rules = PrimordialSoupRules(
        num_players=4,
        relocated_amoeba_feeds=True,
        holding_follows_own=True,
        escape_after_lost_defense=False,
    )
    seen: collections.Counter = collections.Counter()
    play_every_state(rules, build_position(rules, crowded(4)), 0, seen)
    play_every_state(rules, build_position(rules, attacked(4)), 0, seen)
    assert seen["cling"] and seen["defend"], seen


def test_a_parasitism_choice_round_trips():
    """Parasitism (4 players): a meal one cube short, paid by a neighbour's BP."""
    rules = RULES[4]
    seen: collections.Counter = collections.Counter()
    spec = crowded(4)
    spec["players"][3]["genes"] = {"parasitism": 1, "struggle": 1}
    spec["cubes"] = {s: {"R": 1, "G": 1, "B": 1, "Y": 1} for s in range(19)}
    for seed in range(2):
        play_every_state(rules, build_position(rules, spec), seed, seen)
    assert seen["parasite_host"], seen


def test_an_interrupt_is_written_with_the_frames_waiting_under_it():
    """A cling decision: the amoeba's feeding and the relocation under way wait under it,
    named by amoeba number, space and seat; the spec written by hand builds the state."""
    rules = RULES[3]
    spec = {
        "round": 2,
        "decision": {"kind": "cling", "player": 1, "amoeba": 1},
        "waiting": [
            {"kind": "feed", "player": 0, "amoeba": 1},
            {"kind": "relocate", "player": 0, "amoeba": 1, "dest": 11},
        ],
        "environment_card": 4,
        "players": [
            {"score": 1, "genes": {"speed": 1}, "amoebas": {1: 7}},
            {"score": 2, "genes": {"holding": 1}, "amoebas": {1: 7}},
            {"score": 3, "amoebas": {1: 12}},
        ],
    }
    state = build_position(rules, spec)
    assert state.stack[-3:] == [
        {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False},
        {
            "kind": "relocate",
            "player": 0,
            "amoeba": 0,
            "src": 7,
            "dest": 11,
            "mode": "turn",
            "stage": "execute",
            "carry": (),
            "followers": (),
        },
        {
            "kind": "cling",
            "player": 1,
            "amoeba": 0,
            "mover_player": 0,
            "mover_amoeba": 0,
            "space": 7,
            "dest": 11,
        },
    ]
    assert rules.decision_name(state) == "cling" and rules.current_player(state) == 1
    written = position_to_dict(rules, state)
    assert written["decision"] == spec["decision"] and written["waiting"] == spec["waiting"]


def test_a_direction_of_the_amoebas_own_move_needs_no_waiting_frames():
    """The die showed 6 (a free choice): the amoeba's feeding waits under the direction,
    and with Speed the offer of a second move over it, as the rules leave them."""
    rules = RULES[3]
    spec = {
        "round": 2,
        "decision": {"kind": "direction", "player": 0, "amoeba": 1},
        "dice": [6],
        "environment_card": 4,
        "players": [
            {"score": 1, "genes": {"speed": 1}, "amoebas": {1: 7}},
            {"score": 2, "amoebas": {1: 3}},
            {"score": 3, "amoebas": {1: 12}},
        ],
    }
    state = build_position(rules, spec)
    assert state.stack[-3:] == [
        {"kind": "feed", "player": 0, "amoeba": 0, "struggle_used": False},
        {"kind": "move_again", "player": 0, "amoeba": 0, "mode": "turn"},
        {
            "kind": "direction",
            "player": 0,
            "amoeba": 0,
            "mode": "turn",
            "step": 1,
            "allowed": die_outcomes(rules, 6),
        },
    ]
    assert position_to_dict(rules, state)["decision"] == spec["decision"]
    assert "waiting" not in position_to_dict(rules, state)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda s: s.pop("waiting"),
            r"decision\.mover_player: missing, and no relocate waits under this frame to take the "
            r"mover from",
        ),
        (lambda s: s["waiting"][1].update(dest=19), r"waiting\[1\]\.dest: space 19 is not on"),
        (lambda s: s["waiting"][1].update(carry={"Y": 1}), r"waiting\[1\]\.carry: unknown colour"),
        (
            lambda s: s["waiting"][0].update(kind="fed"),
            r"waiting\[0\]\.kind: unknown frame kind "
            r"'fed'; did you mean 'feed'",
        ),
        (lambda s: s["decision"].update(colour="R"), r"a 'cling' decision has no 'colour'"),
        (lambda s: s["players"][1].update(genes={}), "player 1 has no holding gene"),
    ],
)
def test_a_bad_interrupt_is_refused_naming_the_entry(change, message):
    spec = {
        "round": 2,
        "decision": {"kind": "cling", "player": 1, "amoeba": 1},
        "waiting": [
            {"kind": "feed", "player": 0, "amoeba": 1},
            {"kind": "relocate", "player": 0, "amoeba": 1, "dest": 11},
        ],
        "environment_card": 4,
        "players": [
            {"score": 1, "amoebas": {1: 7}},
            {"score": 2, "genes": {"holding": 1}, "amoebas": {1: 7}},
            {"score": 3, "amoebas": {1: 12}},
        ],
    }
    change(spec)
    with pytest.raises(PositionError, match=message):
        build_position(RULES[3], spec)


def test_the_setup_decisions_build_from_a_short_spec():
    """Round 0: the start spaces (the others still to choose wait, lowest seat next), then
    the start amoebas (which are left follows from the ones on the board)."""
    rules = RULES[4]
    state = build_position(
        rules,
        {"decision": {"kind": "start_space", "player": 2}, "players": [{}, {"score": 3}, {}, {}]},
    )
    assert (state.phase, state.round, rules.current_player(state)) == ("setup", 0, 2)
    assert [f.get("player") for f in state.stack] == [None, 3, 0, 2]
    # Ladder spaces 4, 2, 3, 1: ascending, player 3 places the first start amoeba.
    scores = {"players": [{"score": 4}, {"score": 2}, {"score": 3}, {"score": 1}]}
    state = build_position(rules, {"decision": {"kind": "place_start", "player": 3}, **scores})
    assert rules.current_player(state) == 3
    assert state.stack[-1] == {
        "kind": "place_start",
        "player": 3,
        "damage": rules.config.start_damage,
    }
    with pytest.raises(PositionError, match="so player 3 places a start amoeba with damage 1"):
        build_position(rules, {"decision": {"kind": "place_start", "player": 0}, **scores})


def test_a_setup_decision_in_a_later_round_is_refused_naming_the_setup():
    with pytest.raises(
        PositionError, match="'start_space' decision is taken in the setup, round 0"
    ):
        build_position(RULES[3], {"round": 2, "decision": {"kind": "start_space", "player": 0}})


def test_a_finished_game_has_no_position_form():
    rules = RULES[3]
    state = build_position(rules, crowded(3))
    rng = np.random.default_rng(0)
    while not rules.is_terminal(state):
        state = rules.apply(state, rules.legal_actions(state)[-1], rng)
    with pytest.raises(PositionError, match="no decision waits"):
        position_to_dict(rules, state)
