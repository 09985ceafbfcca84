"""The Origin view: the table text (``view_text.to_text``), the pending decision and the
action names (``OriginView``), and what each seat may see of them."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.view import OriginView
from primeval.envs.origin.view_text import MAX_WIDTH, card_label, objective_text, to_text
from tests.envs.origin.builders import cid, give_card, put, table, tid
from tests.envs.origin.test_encoders import example_frames, random_states


def _position():
    rules, state = table(3)
    put(rules, state, 0, "AF1", 1, 2, 0)
    put(rules, state, 1, "AF2", 2, 1, 1)
    state.columns[1] = [[1, 2, 3], [1]]
    state.strait_owner[0] = 1
    state.hunt_owner[tid(rules, "AF6")] = 0
    give_card(rules, state, 0, "Y3")
    give_card(rules, state, 0, "O5")
    give_card(rules, state, 1, "Y6")
    p1 = cid(rules, "P1")
    state.decks[1].remove(p1)
    state.permanents[1].append(p1)
    o1 = cid(rules, "O1")
    state.decks[2].remove(o1)
    state.objectives_done[2].append(o1)
    state.objective_points[2] = 3
    state.turn = 7
    return rules, state


def test_key_elements_appear():
    rules, state = _position()
    text = to_text(state, rules)
    world = rules.data.world
    assert "turn 7" in text and "phase play" in text and "player_0's turn" in text
    assert "End not triggered" in text
    assert "Pending: player_0 takes an action" in text
    for name in world.continent_names:
        assert f"{name} (" in text
    for terr in world.territories:
        assert f"{terr.id} {terr.name}" in text
    for sid in world.strait_ids:
        assert f"{sid} " in text
    lines = text.splitlines()
    af1 = next(line for line in lines if "AF1 Maghreb" in line)
    assert "yellow" in af1 and "h1/w2/white" in af1 and "player_0" in af1
    af0 = next(line for line in lines if "AF0 " in line)
    assert "neutral" in af0
    assert "(hunt token taken by player_0)" in next(line for line in lines if "AF6 " in line)
    eu7 = next(line for line in lines if "EU7 " in line)
    assert f"hunt {state.hunt_value[tid(rules, 'EU7')]}" in eu7
    assert f"[{state.strait_value[0]}: player_1]" in text
    assert "Rewards board" in text and "brown " in text
    assert f"tile reserve: {sum(state.tile_reserve)} face down" in text
    assert (f"Decks: yellow {len(state.decks[0])}, orange {len(state.decks[1])}, "
            f"purple {len(state.decks[2])}") in text
    assert "villages left 8" in text
    assert "tile columns: [1,2,3] [1]" in text
    assert "P1 Trackers (level 1)" in text
    assert "objectives completed (3 pts): O1 (3 pts: 2 pawns on green)" in text
    assert "objectives 0, cards 2, hunting" in text  # player_0's points by source
    assert "Hand of player_0 (to decide): Y3 Forced March [yellow]" in text
    assert "O5 (3 pts: 3 pawns on AF) [purple]" in text
    assert "Y6" not in text.split("Hand of player_0")[1]  # only the deciding player's hand


def test_every_decision_kind_renders():
    rules, state = _position()
    for frame in example_frames(rules, state):
        state.stack = [dict(frame)]
        text = to_text(state, rules)
        assert max(len(line) for line in text.splitlines()) <= MAX_WIDTH
        text = " ".join(text.split())  # long pending lines wrap
        assert rules.describe_decision(state) in text, frame["kind"]
        assert "Hand of player_1 (to decide)" in text
        if frame["kind"] == "keep_objective":
            assert all(card_label(rules, c) in text for c in frame["dealt"])
        if frame["kind"] == "barter_take":
            assert "player_2's hand:" in text
        if "territory" in frame:
            terr = rules.data.world.territories[frame["territory"]]
            assert f"{terr.id} {terr.name})" in text


def test_end_trigger_final_round_and_game_over():
    rules, state = _position()
    state.end_triggered = True
    text = to_text(state, rules)
    assert "End triggered" in text and "final round starts after this turn" in text
    state.phase, state.final_turns_left = "final_round", 2
    assert "final round, 2 final turn(s) left" in to_text(state, rules)
    *_, (rules, final) = random_states(2, 3, every=10_000)
    text = to_text(final, rules)
    assert "phase game_over" in text and "Game over: player_" in text
    assert "Pending: game over" in text


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_lines_fit_along_random_games(num_players):
    for rules, state in random_states(num_players, 7, every=5):
        text = to_text(state, rules)
        assert max(len(line) for line in text.splitlines()) <= MAX_WIDTH
        assert f"({num_players} players)" in text


def test_view_hook():
    """``OriginView.to_text`` is this module's table (the debugging one with ``viewer=None``,
    and for the deciding player)."""
    rules = OriginRules(num_players=2)
    state = rules.initial_state(np.random.default_rng(0))
    view = OriginView(rules)
    decider = rules.current_player(state)
    assert view.to_text(state) == to_text(state, rules) == view.to_text(state, decider)


def test_every_objective_condition_has_words():
    rules = OriginRules(num_players=3)
    for card in rules.data.cards:
        if card.colour == "purple":
            assert "=" not in objective_text(rules, card.index), card.id
