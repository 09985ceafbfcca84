"""How far an objective's condition holds (``objectives.progress``) and the points in prospect
(``OriginRules.points_in_prospect``), which reward shaping reads (the rules never do): 1
exactly when the condition holds, a fraction of the condition's count short of it."""

from __future__ import annotations

from collections import Counter

import pytest

from primeval.envs.origin.rules.objectives import holds, progress
from tests.envs.origin.builders import cid, table
from tests.envs.origin.rules.test_objectives import WHITE, put
from tests.envs.origin.test_encoders import random_states


def test_progress_is_one_exactly_when_the_condition_holds():
    """Along random games of 2 to 4 players, for every objective card and player: progress
    lies in [0, 1] and is 1 exactly when the card's condition holds."""
    seen = Counter()
    for players, seed in ((2, 0), (3, 1), (4, 2), (3, 3)):
        for rules, state in random_states(players, seed, every=7):
            purple = [c for c, card in enumerate(rules.data.cards) if card.colour == "purple"]
            for player in range(players):
                for card in purple:
                    value = progress(rules, state, player, card)
                    assert 0.0 <= value <= 1.0
                    assert (value == 1.0) == holds(rules, state, player, card), (
                        rules.data.cards[card].id, player)
                    seen[value == 1.0, value > 0] += 1
    assert seen[True, True] > 50 and seen[False, True] > 500  # both kinds met often


def test_progress_counts_what_the_condition_asks_for():
    """O5 (3 pawns in Africa) with 2 of them: 2/3; O19 (a column reaching level 4) with a
    column topped at 2: 1/2; O16 (2 pawns of each colour) with one white pawn: 1/6; another
    player's pawns count for them alone."""
    rules, state = table()
    put(rules, state, 0, "AF1", colour=WHITE)
    put(rules, state, 0, "AF2", colour=WHITE)
    put(rules, state, 1, "AF4", colour=WHITE)
    assert progress(rules, state, 0, cid(rules, "O5")) == pytest.approx(2 / 3)
    assert progress(rules, state, 1, cid(rules, "O5")) == pytest.approx(1 / 3)
    assert progress(rules, state, 1, cid(rules, "O16")) == pytest.approx(1 / 6)
    state.columns[0] = [[1, 2]]
    assert progress(rules, state, 0, cid(rules, "O19")) == pytest.approx(1 / 2)


def test_points_in_prospect_weigh_the_objectives_in_hand():
    """Each objective in hand adds its points times its progress; other cards add nothing."""
    rules, state = table()
    put(rules, state, 0, "AF1")
    put(rules, state, 0, "AF2")
    assert rules.points_in_prospect(state) == [0.0, 0.0, 0.0]
    state.hands[0] += [cid(rules, "O5"), cid(rules, "O6"), cid(rules, "Y3")]
    # 2 of 3 pawns in Africa (O5, 3 points), none in Eurasia (O6, 5 points)
    assert rules.points_in_prospect(state) == pytest.approx([3 * 2 / 3, 0.0, 0.0])
