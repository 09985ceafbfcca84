"""PettingZoo's ``state()`` and ``state_space`` in both games: PettingZoo's state_test, the
layout (the flat pieces seen from no seat), public information only by default, and every
seat's private pieces with ``state_private=True``."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import state_test

from primeval.envs.games import GAMES

PLAYERS = {name: list(game.player_counts) for name, game in GAMES.items()}
CASES = [(name, n) for name, counts in PLAYERS.items() for n in counts]


def random_states(env, seed: int, steps: int, every: int = 1):
    """The env (reset with ``seed``) before every ``every``-th of ``steps`` random legal
    steps."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for k in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return
        if k % every == 0:
            yield env
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


@pytest.mark.parametrize("private", [False, True])
@pytest.mark.parametrize(("name", "players"), CASES)
def test_pettingzoo_state_test(name, players, private):
    """PettingZoo's state_test passes without a warning. Its last part wants a parallel
    env, of which it calls only ``reset``, ``state_space`` and ``state``: the games are
    turn-based (no parallel API), so it is given another AEC env."""
    game = GAMES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state_test(game.env(players, state_private=private),
                   game.env(players, state_private=private), num_cycles=30)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_state_is_seat_zeros_flat_observation_without_to_act(name, players):
    """The public state is the flat observation of player_0 (whose relative seats are the
    absolute ones) without ``to_act``, the private pieces left out; it lies in
    ``state_space``, a float32 Box of the flat encoder's bounds."""
    env = GAMES[name].raw_env(players)
    encoder = env.state_encoder
    flat = encoder.flat
    assert isinstance(env.state_space, spaces.Box) and env.state_space.dtype == np.float32
    dropped = {"to_act"} | ({"hand", "frame_dealt", "frame_taken", "victim_hand"}
                            if name == "origin" else set())
    assert set(flat.pieces) - set(encoder.pieces) == dropped
    for _ in random_states(env, 1, 300, every=7):
        state = env.state()
        assert state.dtype == np.float32 and env.state_space.contains(state)
        seen = flat.encode(env.game_state, 0)
        for piece in encoder.pieces:
            np.testing.assert_array_equal(encoder.view(state, piece), flat.view(seen, piece))


def test_state_private_pieces_are_each_seats_own():
    """With ``state_private=True`` row ``p`` of each private piece is what ``player_p``
    sees in it (``hand[p]`` is its hand), rows of absent seats are zeros, and the public
    pieces are as without it."""
    env = GAMES["origin"].raw_env(3, state_private=True)
    public = GAMES["origin"].raw_env(3)
    encoder = env.state_encoder
    flat = encoder.flat
    checked = 0
    for _ in random_states(env, 4, 400, every=3):
        state = env.state()
        public.set_game_state(env.game_state)
        np.testing.assert_array_equal(state[: public.state_space.shape[0]], public.state())
        for p in range(4):
            seen = flat.encode(env.game_state, p) if p < 3 else flat.features.zeros()
            for piece in ("hand", "frame_dealt", "frame_taken", "victim_hand"):
                np.testing.assert_array_equal(encoder.view(state, piece)[p],
                                              flat.view(seen, piece))
        checked += 1
        hands = encoder.view(state, "hand")
        assert [set(np.flatnonzero(hands[p])) for p in range(3)] == [
            set(h) for h in env.game_state.hands]
    assert checked > 50


@pytest.mark.parametrize("players", [2, 4])
def test_public_state_hides_every_hand(players):
    """Re-dealing what any one seat cannot see (the other hands, the decks:
    ``sample_determinization``) leaves the public state unchanged, and changes the private
    one where hands changed: ``state()`` holds no hidden card by default."""
    public = GAMES["origin"].raw_env(players)
    private = GAMES["origin"].raw_env(players, state_private=True)
    rules = public.rules
    rng = np.random.default_rng(0)
    changed = 0
    for env in random_states(public, 6, 300, every=25):
        state = env.game_state
        expected = env.state()
        private.set_game_state(state)
        before = private.state()
        for observer in range(players):
            other = rules.sample_determinization(state, observer, rng)
            public_twin = GAMES["origin"].raw_env(players)
            public_twin.set_game_state(other)
            np.testing.assert_array_equal(public_twin.state(), expected)
            private.set_game_state(other)
            if other.hands != state.hands:
                assert not np.array_equal(private.state(), before)
                changed += 1
    assert changed > 0


@pytest.mark.parametrize("name", list(GAMES))
def test_state_before_reset_and_copies(name):
    """``state()`` before reset raises; ``state_space`` is there at once; envs keep their
    state encoder through deepcopy and pickle, and the copies' states are the env's."""
    env = GAMES[name].env()
    assert env.state_space.shape == env.unwrapped.state_space.shape
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.state()
    env.reset(seed=3)
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env)), env.unwrapped.clone()):
        np.testing.assert_array_equal(twin.state(), env.state())


def test_soup_state_private_changes_nothing():
    """Everything in Primordial Soup is public: ``state_private=True`` gives the same state."""
    a = GAMES["primordial_soup"].raw_env(3, state_private=True)
    b = GAMES["primordial_soup"].raw_env(3)
    for _ in zip(random_states(a, 2, 60), random_states(b, 2, 60), strict=True):
        np.testing.assert_array_equal(a.state(), b.state())
