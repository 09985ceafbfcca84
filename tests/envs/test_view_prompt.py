"""What the views give a console (``primeval play``): ``pass`` named by what it does, the
board without the pending decision (``board_text``), and Origin's header naming who decides
(during the setup it named the start player's turn)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from primeval.envs.games import make_raw_env

GAMES = ("primordial_soup", "origin")


def random_states(game: str, players: int, seed: int, steps: int):
    """The states of a seeded random game (every one waits for a decision)."""
    env = make_raw_env(game, players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        state = env.game_state
        if env.rules.is_terminal(state):
            return
        yield env, state
        env.step(int(rng.choice(np.flatnonzero(env.rules.legal_mask(state)))))


@pytest.mark.parametrize("game", GAMES)
def test_pass_is_named_by_what_it_does(game):
    seen = set()
    for seed in range(3):
        for env, state in random_states(game, 3, seed, 400):
            rules = env.rules
            pass_id = rules.layout.encode("pass")
            if not rules.legal_mask(state)[pass_id]:
                continue
            name = env.view.action_name(state, pass_id, None)
            kind = rules.decision_name(state)
            assert re.fullmatch(r"pass = \S.*", name), (kind, name)
            seen.add((kind, name))
    kinds = {kind for kind, _name in seen}
    assert len(seen) == len(kinds)  # one meaning per decision kind
    if game == "origin":
        assert ("turn", "pass = end the turn") in seen
    else:
        assert ("buy", "pass = done buying genes") in seen


@pytest.mark.parametrize("game", GAMES)
def test_board_text_is_the_text_without_the_pending_decision(game):
    for env, state in random_states(game, 3, 1, 120):
        seat = env.rules.current_player(state)
        full = env.view.to_text(state, seat)
        board = env.view.board_text(state, seat)
        assert "Pending:" in full and "Pending:" not in board
        # The full text is the board with the Pending line(s) put back after the header.
        pending = re.search(r"^Pending: .*?(?=\n(?!  )|\Z)", full, flags=re.M | re.S).group(0)
        assert full.replace(pending + "\n", "", 1) == board


def test_origin_header_names_who_decides_during_the_setup():
    env = make_raw_env("origin", 3)
    for seed in range(10):
        env.reset(seed=seed)
        if env.game_state.start_player != 0:
            break
    state = env.game_state
    start = state.start_player
    assert start != 0
    order = [(start + k) % 3 for k in range(3)]
    for who in order:  # each player keeps an objective, from the start player on
        state = env.game_state
        assert env.rules.current_player(state) == who
        header = env.view.to_text(state, who).splitlines()[0]
        assert header == (
            f"Origin: setup (start player player_{start}), player_{who} to decide (3 players)"
        )
        assert "'s turn" not in header
        marks = re.search(
            rf"^player_{who} \(([^)]*)\):", env.view.to_text(state, who), flags=re.M
        ).group(1)
        assert "to decide" in marks and "to play" not in marks
        env.step(int(np.flatnonzero(env.action_mask(f"player_{who}"))[0]))
    state = env.game_state
    assert state.phase == "play"
    header = env.view.to_text(state).splitlines()[0]
    assert header == f"Origin: turn {state.turn}, phase play, player_{start}'s turn (3 players)"
