"""Hypothesis property tests over seeds and action choices, for both games (issue 7).

A game is driven by a seed and a sequence of choices; each choice is drawn by Hypothesis as
an index into the list of legal actions of that moment, so every drawn sequence is a legal
game and Hypothesis can shrink a failure to a short one. The properties:

* playing through ``env()`` never raises, a live agent always has at least one legal action
  (and nobody else has any), the rules state passes ``rules.check_state`` after every step,
  and the game ends with every agent gone and zero-sum rewards;
* an illegal or malformed action raises ``IllegalActionError`` and leaves ``get_state()``
  (rules state, generator, bookkeeping) exactly as it was;
* ``get_state``/``set_state`` through JSON in the middle of a game, into a fresh env, gives
  the same future;
* ``clone()`` is independent of the original in both directions;
* the same seed and the same choices give identical observations, masks and rewards.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.core.rewards import rank_rewards
from primeval.envs.games import GAMES

# Each example plays up to a whole game (a few hundred decisions), so few examples per run;
# Hypothesis draws new ones on every run.
PROPERTY = settings(max_examples=15, deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def choose(data, mask: np.ndarray, label: str = "choice") -> int:
    """A legal action id, drawn as an index into the legal actions of ``mask``."""
    legal = np.flatnonzero(mask)
    assert legal.size >= 1, "the agent to act has no legal action"
    return int(legal[data.draw(st.integers(0, legal.size - 1), label=label)])


def draw_game(data, game: str) -> tuple[Any, int, int]:
    """``(game, player count, seed)``, the count and the seed drawn."""
    entry = GAMES[game]
    counts = entry.player_counts
    players = data.draw(st.sampled_from(counts), label="players")
    return entry, players, data.draw(SEEDS, label="seed")


def new_game(data, game: str):
    """A raw env of a drawn player count, reset with a drawn seed."""
    entry, players, seed = draw_game(data, game)
    env = entry.raw_env(num_players=players)
    env.reset(seed=seed)
    return env


def play(env, data, steps: int, record: list[int | None] | None = None) -> None:
    """Up to ``steps`` drawn decisions (finished agents step ``None``); every action passed
    to ``step`` is appended to ``record``."""
    for _ in range(steps):
        if not env.agents:
            return
        mask = env.observe(env.agent_selection)["action_mask"]
        action = choose(data, mask) if to_act(env) else None
        env.step(action)
        if record is not None:
            record.append(action)


def to_act(env) -> bool:
    """Whether some live agent must choose an action now."""
    agent = env.agent_selection
    return bool(env.agents) and not (env.terminations[agent] or env.truncations[agent])


@pytest.mark.parametrize("game", sorted(GAMES))
@PROPERTY
@given(data=st.data())
def test_any_game_through_env_keeps_every_invariant(game, data):
    entry, players, seed = draw_game(data, game)
    env = entry.env(num_players=players)
    env.reset(seed=seed)
    rules = env.unwrapped.rules
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=20_000):
        obs, reward, termination, truncation, _info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 1, f"{agent} has no legal action"
        other = env.possible_agents[(env.possible_agents.index(agent) + 1) % players]
        assert not env.observe(other)["action_mask"].any(), f"{other} may act out of turn"
        env.step(choose(data, mask))
        rules.check_state(env.unwrapped.game_state)  # raises ValueError naming the problem
    assert not env.agents, "the game did not end"
    assert rules.is_terminal(env.unwrapped.game_state), "the game was truncated"
    final = rank_rewards(rules.scores(env.unwrapped.game_state))
    assert [totals[a] for a in env.possible_agents] == pytest.approx(final)
    assert sum(totals.values()) == pytest.approx(0.0)


def bad_actions(n: int, mask: np.ndarray):
    """Anything that is not a legal action id now: masked-out ids, ids out of range, and
    values of the wrong type (floats, bools, None, strings, numpy non-integers, arrays)."""
    legal = int(np.flatnonzero(mask)[0])
    masked_out = np.flatnonzero(mask == 0)
    options = [
        st.one_of(st.integers(max_value=-1), st.integers(min_value=n)),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([None, True, False, str(legal), float(legal), np.float32(legal),
                         np.float64(legal), np.bool_(True), np.array([legal]),
                         np.array(float(legal)), np.array([[legal]]), [legal], (legal,)]),
        st.text(max_size=5),
    ]
    if masked_out.size:
        options.append(st.sampled_from(masked_out.tolist()))
    return st.one_of(*options)


@pytest.mark.parametrize("game", sorted(GAMES))
@PROPERTY
@given(data=st.data())
def test_illegal_actions_raise_and_change_nothing(game, data):
    env = new_game(data, game)
    for _ in range(5):
        play(env, data, data.draw(st.integers(0, 80), label="steps before"))
        if not to_act(env):
            return
        n = env.action_space(env.agent_selection).n
        mask = env.observe(env.agent_selection)["action_mask"]
        bad = data.draw(bad_actions(n, mask), label="bad action")
        before = env.get_state()
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert env.get_state() == before


@pytest.mark.parametrize("game", sorted(GAMES))
@PROPERTY
@given(data=st.data())
def test_saved_state_round_trip_gives_the_same_future(game, data):
    env = new_game(data, game)
    play(env, data, data.draw(st.integers(0, 250), label="steps before saving"))
    saved = json.loads(json.dumps(env.get_state()))
    entry = GAMES[game]
    fresh = entry.raw_env(num_players=len(env.possible_agents))
    fresh.reset(seed=data.draw(SEEDS, label="seed of the fresh env"))
    fresh.set_state(saved)
    assert fresh.get_state() == saved
    while env.agents:
        agent = env.agent_selection
        assert fresh.agent_selection == agent
        mine, theirs = env.observe(agent), fresh.observe(agent)
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])
        action = None if not to_act(env) else choose(data, mine["action_mask"])
        env.step(action)
        fresh.step(action)
        assert fresh.rewards == env.rewards
    assert not fresh.agents
    assert fresh.get_state() == env.get_state()


@pytest.mark.parametrize("game", sorted(GAMES))
@PROPERTY
@given(data=st.data())
def test_clone_is_independent_of_the_original(game, data):
    env = new_game(data, game)
    play(env, data, data.draw(st.integers(0, 200), label="steps before cloning"))
    twin = env.clone()
    frozen = twin.get_state()
    actions: list[int | None] = []
    play(env, data, data.draw(st.integers(1, 60), label="steps of the original"), actions)
    assert twin.get_state() == frozen, "stepping the original changed the clone"
    for action in actions:  # the clone, given the same actions, follows the same game
        twin.step(action)
    assert twin.get_state() == env.get_state()
    if to_act(twin):
        original = env.get_state()
        twin.step(choose(data, twin.observe(twin.agent_selection)["action_mask"]))
        assert env.get_state() == original, "stepping the clone changed the original"


@pytest.mark.parametrize("game", sorted(GAMES))
@PROPERTY
@given(data=st.data())
def test_same_seed_and_choices_give_identical_observations(game, data):
    entry, players, seed = draw_game(data, game)
    a, b = entry.raw_env(num_players=players), entry.raw_env(num_players=players)
    a.reset(seed=seed)
    b.reset(seed=seed)
    steps = 0
    while a.agents:
        assert b.agent_selection == a.agent_selection
        agent = a.agent_selection
        # Every agent's view (hidden hands included), not only the acting one's.
        for viewer in a.agents if steps % 20 == 0 else [agent]:
            va, vb = a.observe(viewer), b.observe(viewer)
            assert np.array_equal(va["observation"], vb["observation"]), viewer
            assert np.array_equal(va["action_mask"], vb["action_mask"]), viewer
        action = choose(data, a.observe(agent)["action_mask"]) if to_act(a) else None
        a.step(action)
        b.step(action)
        assert (b.rewards, b.infos) == (a.rewards, a.infos)
        steps += 1
    assert not b.agents
    assert b.get_state() == a.get_state()
