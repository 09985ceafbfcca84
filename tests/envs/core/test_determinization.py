"""sample_determinization (origin.md "Hidden information"): the hidden parts dealt anew, and
nothing the observer sees changed."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.games import GAMES
from tests.helpers import mid_game


def _positions(game):
    """Positions of seeded random games at several depths, setup included."""
    for seed, steps in [(0, 0), (1, 5), (2, 40), (3, 120), (4, 200), (5, 260)]:
        env = mid_game(game, seed=seed, steps=steps)
        if env.game_state is not None and not env.rules.is_terminal(env.game_state):
            yield env


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_observer_sees_the_same_in_every_determinization(game):
    encoders = GAMES[game].encoders
    checked = 0
    for env in _positions(game):
        rules, state = env.rules, env.game_state
        n = rules.num_players
        views = {name: GAMES[game].raw_env(num_players=n, obs_encoder=name).obs_encoder
                 for name in encoders}
        rng = np.random.default_rng(0)
        for observer in range(n):
            for _ in range(3):
                sample = rules.sample_determinization(state, observer, rng)
                rules.check_state(sample)
                for name, encoder in views.items():
                    np.testing.assert_array_equal(
                        encoder.encode(sample, observer), encoder.encode(state, observer),
                        err_msg=f"{game} {name} observer {observer}")
                if observer == rules.current_player(state):  # what they may do, too
                    np.testing.assert_array_equal(rules.legal_mask(sample),
                                                  rules.legal_mask(state))
                checked += 1
    assert checked >= 20


def test_origin_determinizations_re_deal_what_is_hidden():
    env = mid_game("origin", seed=3, steps=120)
    rules, state = env.rules, env.game_state
    observer = rules.current_player(state)
    rng = np.random.default_rng(1)
    others = [p for p in range(rules.num_players) if p != observer]
    changed_hands = changed_decks = changed_tiles = 0
    for _ in range(30):
        sample = rules.sample_determinization(state, observer, rng)
        assert sample.hands[observer] == state.hands[observer]
        changed_hands += any(sorted(sample.hands[p]) != sorted(state.hands[p]) for p in others)
        changed_decks += sample.decks != state.decks
        changed_tiles += sample.tile_reserve != state.tile_reserve
    assert state.to_dict() == env.game_state.to_dict()
    assert changed_hands > 0 and changed_decks > 0
    # No tile has left the game, so the face-down tiles are the ones not in sight: the
    # observer can work them out, and every determinization keeps them.
    assert state.lost_tiles == 0 and changed_tiles == 0


def test_with_a_lost_tile_the_face_down_levels_are_re_drawn():
    env = mid_game("origin", seed=3, steps=120)
    rules, state = env.rules, env.game_state.copy()
    level = next(i for i, c in enumerate(state.tile_reserve) if c) + 1
    state.tile_reserve[level - 1] -= 1  # that tile left the game (a raid it could not fit)
    state.lost_tiles += 1
    rules.check_state(state)
    rng = np.random.default_rng(0)
    reserves = {tuple(rules.sample_determinization(state, 0, rng).tile_reserve)
                for _ in range(40)}
    assert len(reserves) > 1
    assert all(sum(r) == sum(state.tile_reserve) for r in reserves)


def test_a_determinization_plays_on_to_the_end():
    env = mid_game("origin", seed=4, steps=90)
    rules = env.rules
    state = rules.sample_determinization(env.game_state, 0, np.random.default_rng(2))
    rng = np.random.default_rng(3)
    steps = 0
    while not rules.is_terminal(state):
        legal = np.flatnonzero(rules.legal_mask(state))
        state = rules.apply(state, int(legal[rng.integers(legal.size)]), rng)
        steps += 1
    assert steps > 0


def test_primordial_soup_has_nothing_hidden():
    env = mid_game("primordial_soup", seed=2, steps=60)
    sample = env.rules.sample_determinization(env.game_state, 1, np.random.default_rng(0))
    assert sample is not env.game_state
    assert sample.to_dict() == env.game_state.to_dict()


def test_a_barter_partner_s_hand_stays_known():
    """During barter_take the actor looks at the partner's hand: it is not re-dealt."""
    from primeval.envs.origin.rules.hidden import known_hands

    env = mid_game("origin", seed=0, steps=10)
    state = env.game_state.copy()
    state.stack.append({"kind": "barter_take", "player": 0, "victim": 2})
    assert known_hands(state, 0) == {0, 2}
    assert known_hands(state, 1) == {1}
    rng = np.random.default_rng(0)
    samples = [env.rules.sample_determinization(state, 0, rng) for _ in range(20)]
    assert all(s.hands[2] == state.hands[2] for s in samples)
    assert any(sorted(s.hands[1]) != sorted(state.hands[1]) for s in samples)


def _deal_positions():
    """Origin positions of every kind a determinization meets: the setup's objectives dealt
    (a frame's ``dealt`` hidden from the others), play at several depths, and a barter."""
    yield from (env.game_state for env in _positions("origin"))
    for seed, steps in ((6, 1), (7, 2), (8, 3)):  # keeping objectives: dealt cards pending
        yield mid_game("origin", seed=seed, steps=steps).game_state
    barter = mid_game("origin", seed=0, steps=10).game_state.copy()
    barter.stack.append({"kind": "barter_take", "player": 0, "victim": 2})
    yield barter


def test_the_determinizer_deals_what_sample_determinization_deals():
    """Origin's ``rules.determinizer(state, observer)(rng)`` (its own plan; the shared
    default is the call itself): the copy ``sample_determinization(state, observer, rng)``
    gives, the generator drawn alike, for every observer, draw after draw; the state itself
    untouched."""
    dealt = 0
    for k, state in enumerate(_deal_positions()):
        rules = GAMES["origin"].raw_env(num_players=state.num_players).rules
        before = state.to_dict()
        dealt += any(frame.get("dealt") for frame in state.stack)
        for observer in range(state.num_players):
            deal = rules.determinizer(state, observer)
            fast, ref = np.random.default_rng([k, observer]), np.random.default_rng([k, observer])
            for _ in range(4):
                a, b = deal(fast), rules.sample_determinization(state, observer, ref)
                assert a.to_dict() == b.to_dict() and a == b
                assert a is not state and a.stack is not state.stack
                assert fast.bit_generator.state == ref.bit_generator.state
        assert state.to_dict() == before
    assert dealt > 0
