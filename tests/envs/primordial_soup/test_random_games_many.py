"""1000 more seeded random Primordial Soup games, so that ``make test`` plays 2000 in all
(issue 7): ``test_random_games.py`` plays 300 + 200 per player count, this file 500 more per
player count, on seeds those do not use.

Every game checks ``rules.check_state`` (cubes, gene cards, BP, amoebas, damage bounds, phase,
stack) after every step for one game in five and after every tenth step otherwise (a broken
conservation law stays broken, so it is still caught), and always at the end; the acting
player always has a legal action and every game reaches its end.
"""

from __future__ import annotations

import pytest

from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from tests.helpers import play_checked_game

GAMES_PER_PLAYER_COUNT = 500
FIRST_SEED = 100_000


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [3, 4])
def test_500_more_random_games_keep_the_rules_invariants(num_players):
    rules = PrimordialSoupRules(num_players=num_players)
    for seed in range(FIRST_SEED, FIRST_SEED + GAMES_PER_PLAYER_COUNT):
        state, _ = play_checked_game(
            rules, seed, check=rules.check_state,  # raises ValueError naming the invariant
            check_input_kept=False, check_every=1 if seed % 5 == 0 else 10)
        assert rules.is_terminal(state)
        assert state.round <= rules.config.max_rounds
