"""Positions at every decision the Origin rules pause at (issue 26, "positions from every
decision kind"): in seeded random games with 2, 3 and 4 players, every state of every
decision kind (the setup's objectives, the turn menu, every action's and card's
sub-decision, every reward) is written with ``position_to_dict``, sent through JSON and
built back into the identical state."""

from __future__ import annotations

import collections
import json

import numpy as np
import pytest

from primeval.envs.core.position import PositionError
from primeval.envs.origin.position import ALL_DECISIONS, build_position, position_to_dict
from primeval.envs.origin.rules import OriginRules

RULES = {n: OriginRules(num_players=n) for n in (2, 3, 4)}


def test_every_decision_of_seeded_games_round_trips_through_json():
    seen: collections.Counter = collections.Counter()
    for n, rules in RULES.items():
        rng, choices = np.random.default_rng(n), np.random.default_rng([n, 1])
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            seen[rules.decision_name(state)] += 1
            spec = json.loads(json.dumps(position_to_dict(rules, state)))
            assert build_position(rules, spec) == state, rules.decision_name(state)
            state = rules.apply(state, int(choices.choice(rules.legal_actions(state))), rng)
    assert set(seen) == set(ALL_DECISIONS), set(ALL_DECISIONS) - set(seen)


#: Player 1 evolved onto the orange EU2 and chose the tile and the card; the top orange card
#: is drawn once the tile is taken (the draw waits under the tile).
REWARD = {
    "decision": {
        "kind": "take_tile",
        "player": 1,
        "colours": ["orange"],
        "count": 1,
        "action_taken": True,
    },
    "waiting": [{"kind": "draw", "player": 1, "deck": "orange", "count": 1}],
    "turn": 2,
    "players": [
        {"pawns": {"AF1": [1, 1, "brown"]}},
        {"pawns": {"AF2": [1, 2, "brown"], "EU2": [2, 1, "black"]}},
        {"pawns": {"AF4": [1, 1, "black"]}},
    ],
}


def test_a_sub_decision_is_written_with_the_frames_waiting_under_it():
    rules = RULES[3]
    state = build_position(rules, REWARD)
    assert state.stack == [
        {"kind": "turn", "player": 1},
        {"kind": "draw", "player": 1, "deck": 1, "count": 1},
        {"kind": "take_tile", "player": 1, "colours": ("orange",), "count": 1},
    ]
    assert rules.decision_name(state) == "take_tile" and rules.current_player(state) == 1
    assert position_to_dict(rules, state)["waiting"] == REWARD["waiting"]


def test_a_frame_of_another_player_names_whose_turn_it_is():
    """A theft's victim returns an objective in the thief's turn: ``current`` says whose
    turn it is (default: the deciding player)."""
    rules = RULES[3]
    spec = {
        "decision": {
            "kind": "return_card",
            "player": 2,
            "colour": "purple",
            "count": 1,
            "action_taken": True,
        },
        "current": 0,
        "turn": 1,
        "players": [{"pawns": {"AF1": [1, 1, "brown"]}}, {}, {"hand": ["O2", "O3", "O4"]}],
    }
    state = build_position(rules, spec)
    assert (state.current, rules.current_player(state)) == (0, 2)
    assert position_to_dict(rules, state)["current"] == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda s: s["waiting"][0].update(deck="green"),
            r"waiting\[0\]\.deck: unknown deck 'green'",
        ),
        (lambda s: s["decision"].update(colours=["grey"]), r"decision\.colours: unknown colour"),
        (
            lambda s: s["decision"].update(territory="EU2"),
            r"a 'take_tile' decision has no 'territory'",
        ),
        (
            lambda s: s["waiting"].insert(0, {"kind": "turn", "player": 1}),
            r"a turn frame in the middle of a turn",
        ),
        (lambda s: s.update(current=2), r"player 1 acts in player 2's turn|turn 2 is player 1's"),
        (lambda s: s["waiting"][0].pop("deck"), r"waiting\[0\]\.deck: missing"),
    ],
)
def test_a_bad_sub_decision_is_refused_naming_the_entry(change, message):
    spec = json.loads(json.dumps(REWARD))
    change(spec)
    with pytest.raises(PositionError, match=message):
        build_position(RULES[3], spec)


def test_the_setup_builds_with_the_dealt_objectives_in_the_frames():
    rules = RULES[2]
    spec = {
        "decision": {"kind": "keep_objective", "player": 1, "dealt": ["O1", "O2", "O3"], "keep": 1},
        "players": [{"hand": ["O4"]}, {}],
    }
    state = build_position(rules, spec)
    assert (state.phase, state.turn, rules.current_player(state)) == ("setup", 0, 1)
    ids = [c.id for c in rules.data.cards]
    assert not {"O1", "O2", "O3", "O4"} & {ids[c] for c in state.decks[2]}
    assert position_to_dict(rules, state)["decision"] == spec["decision"]
    with pytest.raises(
        PositionError,
        match=r"decision\.dealt: the purple card O4 is in player 0's hand \(players\[0\]\.hand\) "
        r"already; each card is in exactly one place, so it cannot be in the objectives dealt",
    ):
        build_position(
            rules, {**spec, "decision": {**spec["decision"], "dealt": ["O4", "O5", "O6"]}}
        )
