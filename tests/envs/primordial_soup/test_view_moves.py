"""The move decision's words list only the legal ways to move (issue 26 item 12)."""

from __future__ import annotations

import pytest

from primeval.envs.primordial_soup.position import build_position
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.view import PrimordialSoupView
from primeval.envs.primordial_soup.view_text import describe_decision


@pytest.mark.parametrize(
    ("player", "words"),
    [
        ({"bp": 0}, "(drift)"),
        ({"bp": 5}, "(drift or active move)"),
        ({"bp": 0, "genes": ["holding"]}, "(drift or hold)"),
        ({"bp": 5, "genes": ["holding"]}, "(drift, active move or hold)"),
    ],
)
def test_the_move_words_name_the_legal_moves(player, words):
    rules = PrimordialSoupRules(num_players=3)
    state = build_position(
        rules,
        {
            "decision": {"kind": "move", "player": 0, "amoeba": 1},
            "round": 2,
            "players": [{**player, "amoebas": {1: 7}}, {}, {}],
        },
    )
    view = PrimordialSoupView(rules)
    expected = f"player_0 chooses how amoeba #1 on space 7 moves {words}"
    assert view.describe_decision(state) == expected
    assert f"Pending: {expected}" in view.to_text(state)
    legal = [view.action_name(state, int(a)) for a in rules.legal_actions(state)]
    assert len(legal) == words.count(",") + words.count(" or ") + 1


def test_without_the_rules_the_words_name_all_three():
    rules = PrimordialSoupRules(num_players=3)
    state = build_position(
        rules,
        {
            "decision": {"kind": "move", "player": 0, "amoeba": 1},
            "players": [{"amoebas": {1: 7}}, {}, {}],
        },
    )
    assert describe_decision(state).endswith("moves (drift, active move or hold)")
