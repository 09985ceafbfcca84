"""Origin positions by name (issue 15, "Positions by name"): a dict of territory, card and
pawn names gives a consistent rules state at a player's turn menu, and a state gives the dict
back."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import yaml

from primeval.envs.core.position import PositionError
from primeval.envs.origin.position import build_position, position_to_dict
from primeval.envs.origin.rules import OriginRules
from tests.envs.origin.builders import cid, tid
from tests.helpers import play_out

RULES = {n: OriginRules(num_players=n) for n in (2, 3, 4)}

#: Positions written as position_to_dict writes them.
SPECS = {
    # Player 1's turn menu, the action not yet taken; everything else by default.
    "menu": (3, {
        "phase": "play",
        "decision": {"kind": "turn", "player": 1, "action_taken": False},
        "turn": 8,
        "neutral": "white",
        "players": [
            {"pawns": {"AF1": [1, 1, "brown"], "EU1": [2, 1, "brown"]}, "hand": ["Y3", "O5"],
             "columns": [2]},
            {"pawns": {"AF4": [1, 1, "black"], "AF6": [1, 2, "black"]},
             "hand": ["O7", "Y1"], "permanents": ["P1"], "columns": [1]},
            {"pawns": {"AF2": [1, 3, "white"]}, "hand": ["O2"]},
        ],
    }),
    # The action taken and a yellow card in force (Forced March, in the discard too).
    "after_action": (4, {
        "phase": "play",
        "decision": {"kind": "turn", "player": 2, "action_taken": True, "played": ["yellow"],
                     "turn_cards": ["Y3"]},
        "turn": 3,
        "neutral": "brown",
        "players": [
            {"pawns": {"AF5": [1, 1, "white"]}, "hand": ["O5"]},
            {"pawns": {"AF7": [1, 2, "brown"]}, "hand": ["O6"]},
            {"pawns": {"AF1": [1, 1, "black"], "AF3": [2, 1, "black"]}, "hand": ["Y4", "P1"],
             "columns": [1]},
            {"pawns": {"AF2": [1, 3, "black"]}},
        ],
        "discard": ["Y3"],
    }),
    # The final round, with something of everything that is not the default.
    "final_round": (2, {
        "phase": "final_round",
        "decision": {"kind": "turn", "player": 0, "action_taken": False},
        "turn": 10,
        "start_player": 1,
        "final_turns_left": 2,
        "neutral": "black",
        "players": [
            {"pawns": {"NA7": [1, 1, "white"], "SA1": [2, 1, "white"],
                       "SA2": [2, 2, "white"]},
             "hand": ["Y5"], "permanents": ["P12"], "objectives_done": ["O1"],
             "objective_points": 4, "columns": [3, 1]},
            {"pawns": {"NA5": [1, 2, "brown"]}, "hand": ["O9", "P2"], "permanents": ["P4"],
             "columns": [1]},
        ],
        "decks": {"orange": [f"P{i}" for i in (14, 13, 11, 10, 9, 8, 7, 6, 5, 3, 1)]},
        "slots": {"yellow": [1, 2, 3], "orange": [1, 1, 1], "purple": [2, 2, 4],
                  "brown": [5, 1, 1, 3, 3, 2]},
        "lost_tiles": [4],
        "hunting_tokens": {"AF6": 4, "EU7": 3, "NA5": 2, "SA2": 4, "OC4": 3, "AN4": 2},
        "hunting_holders": {"AF6": 1, "NA5": 0},
        "strait_tokens": {"S1": 3, "S2": 3, "S3": 3, "S4": 2, "S5": 2, "S6": 2, "S7": 2,
                          "S8": 2, "S9": 1, "S10": 1, "S11": 1},
        "strait_holders": {"S4": 1},
    }),
}


def built(name: str):
    players, spec = SPECS[name]
    return RULES[players], build_position(RULES[players], copy.deepcopy(spec))


@pytest.mark.parametrize("name", sorted(SPECS))
def test_dict_to_state_to_dict_is_the_same_dict(name):
    """The dict form round-trips, and through YAML and JSON too."""
    players, spec = SPECS[name]
    rules = RULES[players]
    state = build_position(rules, spec)
    assert position_to_dict(rules, state) == spec
    for text in (yaml.safe_dump(spec), json.dumps(spec)):
        assert build_position(rules, yaml.safe_load(text)).to_dict() == state.to_dict()


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_built_position_waits_at_the_turn_menu_and_plays_to_the_end(name):
    rules, state = built(name)
    rules.check_state(state)
    player = SPECS[name][1]["decision"]["player"]
    assert (rules.decision_name(state), rules.current_player(state)) == ("turn", player)
    for seed in range(3):
        final, steps = play_out(rules, state, seed)
        assert rules.is_terminal(final) and steps > 0


def test_the_defaults_are_what_the_rules_would_have():
    """origin.md "Setup": villages and the pawn reserve follow from the map, every card not
    elsewhere is in its deck, 30 tiles in all, the tokens on the board or with the pawn that
    entered; the strait with both ends one player's is theirs."""
    rules, state = built("menu")
    comps = rules.data.components
    assert state.villages == [comps.villages_per_player - k for k in (2, 2, 1)]
    assert sum(state.reserve) + sum(o != -1 for o in state.owner) == len(comps.pawn_types)
    assert sorted(c for pile in (*state.decks, *state.hands, *state.permanents)
                  for c in pile) == list(range(len(rules.data.cards)))
    assert cid(rules, "Y3") in state.hands[0] and state.decks[0][0] == cid(rules, "Y2")
    tiles = (sum(1 for s in state.slots if s) + sum(state.tile_reserve)
             + sum(len(col) for cols in state.columns for col in cols))
    assert tiles == comps.num_tiles and state.columns[0] == [[1, 2]]
    assert state.hunt_owner[tid(rules, "AF6")] == 1
    assert state.strait_owner[rules.data.world.strait_ids.index("S1")] == 0  # AF1 and EU1
    assert state.turn_state == {} and state.stack == [{"kind": "turn", "player": 1}]
    assert not state.end_triggered


def test_the_turn_menu_before_the_action_offers_the_actions_and_cards_not_pass():
    """origin.md "A turn": an action must be taken before the turn may end."""
    rules, state = built("menu")
    names = {rules.layout.describe(a) for a in rules.legal_actions(state)}
    assert "pass" not in names
    assert "evolve_at(AF0)" not in names and "migrate_from(AF6)" in names
    assert "play_card(Y1)" in names


def test_an_end_condition_latches_the_trigger_by_default():
    """origin.md "End of the game": an empty deck triggers the end (every yellow card not in
    a hand is in the discard, so the yellow deck is empty); writing the trigger off is
    refused."""
    spec = copy.deepcopy(SPECS["menu"][1])
    spec["discard"] = [c.id for c in RULES[3].data.deck("yellow") if c.id not in ("Y1", "Y3")]
    state = build_position(RULES[3], spec)
    assert state.decks[0] == [] and state.end_triggered and state.phase == "play"
    assert position_to_dict(RULES[3], state) == spec
    with pytest.raises(PositionError, match="end condition holds but the end is not trig"):
        build_position(RULES[3], {**spec, "end_triggered": False})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_states_reached_in_play_are_rebuilt_exactly(players):
    """At turn menus of seeded games, position_to_dict gives a spec that builds the very
    same state (position_to_dict checks it; here it is checked again)."""
    rules = RULES[players]
    seen = 0
    for seed in range(2):
        rng, choices = np.random.default_rng(seed), np.random.default_rng(seed + 1)
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            if len(state.stack) == 1 and seen < 150:
                seen += 1
                spec = json.loads(json.dumps(position_to_dict(rules, state)))
                assert build_position(rules, spec).to_dict() == state.to_dict()
            state = rules.apply(state, int(choices.choice(rules.legal_actions(state))), rng)
    assert seen > 20


def test_the_setup_has_a_position_form_too():
    """The first decision, keeping a dealt objective (every decision has one: see
    test_position_decisions.py)."""
    rules = RULES[3]
    state = rules.initial_state(np.random.default_rng(0))
    spec = position_to_dict(rules, state)
    assert (spec["phase"], spec["decision"]["kind"]) == ("setup", "keep_objective")
    assert build_position(rules, spec) == state


def menu_with(change) -> dict:
    spec = copy.deepcopy(SPECS["menu"][1])
    change(spec)
    return spec


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s["players"][0]["pawns"].update(AF9=[1, 1, "white"]),
     r"players\[0\]\.pawns: unknown territory 'AF9'"),
    (lambda s: s["players"][2]["hand"].append("Y99"),
     r"players\[2\]\.hand: unknown card 'Y99'"),
    (lambda s: s["decision"].update(player=5),
     r"decision\.player: seat 5 is not in this 3-player game"),
    (lambda s: s["players"][2]["pawns"].update(EU3=[4, 1, "white"]),
     r"players\[2\]\.pawns\.EU3: \[4, 1, 'white'\] is not a pawn"),
    (lambda s: s["players"][2]["pawns"].update(EU3="h1/w1/green"),
     r"unknown pawn colour 'green'"),
    (lambda s: s.update(strait_holders={"S12": 0}), r"unknown strait 'S12'"),
    (lambda s: s.update(hunting_holders={"AF1": 0}), r"AF1 is not a green territory"),
    (lambda s: s["players"][1]["permanents"].append("Y4"),
     r"players\[1\]\.permanents: Y4 \(Raft\) is a yellow card; only orange cards go in "
     r"player 1.s cards in play"),
    (lambda s: s["players"][2]["hand"].append("Y3"),
     r"players\[2\]\.hand: the yellow card Y3 \(Forced March\) is in player 0's hand"),
    (lambda s: s["players"][2]["pawns"].update(AF0=[1, 1, "brown"]),
     r"player 2's pawn h1/w1/brown cannot stand on AF0, the Origin territory"),
    (lambda s: s["players"][2]["pawns"].update(AF4=[1, 1, "brown"]),
     r"player 1's pawn h1/w1/black stands on AF4 already, so player 2's h1/w1/brown cannot"),
    (lambda s: s["decision"].update(kind="reward"), r"unknown decision kind 'reward'"),
    (lambda s: s.update(hand=[]), r"unknown key\(s\) \['hand'\]"),
])
def test_a_bad_name_is_refused_naming_it(change, message):
    with pytest.raises(PositionError, match=message):
        build_position(RULES[3], menu_with(change))


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.update(turn=9), "turn 9 is player 2's"),
    (lambda s: s["players"][2].update(pawns={t: [3, 3, "white"] for t in ("EU2", "EU3")}),
     r"players\[2\]\.pawns\.EU3: pawn h3/w3/white is on the map 2 times: player 2's on EU2; "
     r"player 2's on EU3\. The game has 1"),
    (lambda s: s["players"][2].update(columns=[1] * 9), r"11 tiles of level 1 \(player 0's columns 1, player 1's columns 1, player 2's "
     r"columns 9\), but the game has 10"),
    (lambda s: s.update(slots={"yellow": [0, 1, 1]}), "an empty slot while the reserve holds"),
    (lambda s: s["players"][2].update(hand=["O2", "O3", "O4"]), "player 2 holds 3 objectives \\(O2, O3, O4\\), but a player holds at most 2"),
    (lambda s: s["decision"].update(turn_cards=["Y4"], played=["yellow"]),
     "Y4 was played this turn by player 1, so it is in the discard too"),
    (lambda s: s.update(final_turns_left=2), "only in phase final_round"),
    (lambda s: s["players"][1].update(hand=[]) or s["decision"].update(action_taken=True),
     "only 'pass'"),
    (lambda s: s.update(hunting_holders={"AF6": None}),
     "a pawn stands there but its hunting token was not taken"),
])
def test_an_inconsistent_position_is_refused_saying_why(change, message):
    with pytest.raises(PositionError, match=message):
        build_position(RULES[3], menu_with(change))


def test_the_module_docstring_example_builds():
    import textwrap

    from primeval.envs.origin import position

    example = position.__doc__.split("::\n\n", 1)[1].split("\n\nKeys", 1)[0]
    state = build_position(RULES[3], yaml.safe_load(textwrap.dedent(example)))
    assert (state.turn, RULES[3].current_player(state)) == (8, 1)


@pytest.mark.parametrize(("players", "message"), [
    # issue 26 item 6: the other h1/w1/white pawn is the neutral one on the Origin.
    ([{}, {}, {"pawns": {"EU3": "h1/w1/white"}}],
     r"^players\[2\]\.pawns\.EU3: pawn h1/w1/white is on the map 2 times: the neutral pawn "
     r"on AF0, the Origin territory, which belongs to no one and whose colour `neutral` sets "
     r"\(default white\); player 2's on EU3\. The game has 1: one pawn of each height, "
     r"width and colour, in one reserve shared by every player"),
    # issue 26 item 6: two h1/w1/brown pawns of player 0 say whose and where.
    ([{"pawns": {"AF1": [1, 1, "brown"], "EU1": [1, 1, "brown"]}}, {}, {}],
     r"^players\[0\]\.pawns\.EU1: pawn h1/w1/brown is on the map 2 times: player 0's on AF1; "
     r"player 0's on EU1\. The game has 1: one pawn of each"),
    ([{"pawns": {"AF1": [1, 1, "brown"]}}, {"pawns": {"AF1": [1, 2, "black"]}}, {}],
     r"^players\[1\]\.pawns\.AF1: player 0's pawn h1/w1/brown stands on AF1 already, so "
     r"player 1's h1/w2/black cannot; one pawn per territory"),
    ([{"pawns": {"AF0": [2, 2, "black"]}}, {}, {}],
     r"^players\[0\]\.pawns\.AF0: player 0's pawn h2/w2/black cannot stand on AF0, the Origin "
     r"territory: only the neutral pawn stands there"),
    ([{"hand": ["Y3"]}, {"hand": ["Y3"]}, {}],
     r"^players\[1\]\.hand: the yellow card Y3 \(Forced March\) is in player 0's hand "
     r"\(players\[0\]\.hand\) already; each card is in exactly one place"),
    ([{"pawns": {t: [h, w, c] for t, (h, w, c) in zip(
        ["AF1", "AF2", "AF3", "AF4", "AF5", "AF6", "EU1", "EU2", "EU3", "EU4"],
        [(h, w, c) for h in (1, 2, 3) for w in (1, 2, 3) for c in ("brown", "black")],
        strict=False)}}, {}, {}],
     r"^players\[0\]\.pawns: player 0 has 10 pawns on the map, but a pawn always stands on "
     r"one of its owner's villages and a player has 9"),
])
def test_a_refusal_names_the_player_the_piece_and_the_rule(players, message):
    """issue 26 item 6: who holds the piece, where, and the rule that refuses one more."""
    with pytest.raises(PositionError, match=message):
        build_position(RULES[3], {"decision": {"kind": "turn", "player": 0}, "players": players})


def test_a_second_medium_pawn_is_allowed_only_with_the_second_medium_set():
    """origin.md "Components": 4 players play with a second set of the medium pawns."""
    players = [{"pawns": {"AF1": [2, 1, "brown"]}}, {"pawns": {"AF2": [2, 1, "brown"]}}]
    for n, others in ((4, [{}, {}]), (3, [{}])):
        spec = {"decision": {"kind": "turn", "player": 0}, "players": players + others}
        if n == 4:
            assert build_position(RULES[4], spec).reserve is not None
        else:
            with pytest.raises(PositionError, match=r"The game has 1: .*a second medium "
                                                    r"set only with 4 players"):
                build_position(RULES[3], spec)
