"""The one random-play loop plays, with each chooser, the games each tool played with its own
loop before: a copy of every old loop is kept here and compared over a few seeds.

The golden transcripts (test_golden.py, byte-identical files) cover ``uniform`` through the
AEC loop for one seed per game and player count; these cover the rest: the benchmark's
``uniform_float``, the memory benchmark's and the tests' ``advance``, ``primeval render``,
the fuzzer's chooser and the rules-level loop of ``tests/helpers.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.games import get_game
from primeval.envs.testing import bench
from primeval.envs.testing.fuzz import fuzz
from primeval.envs.testing.random_play import (
    CHOOSERS,
    advance,
    random_rules_steps,
    random_steps,
    uniform,
    uniform_float,
)
from primeval.training import cli

CASES = [("primordial_soup", 3), ("origin", 2), ("origin", 4)]
SEEDS = (0, 1, 2)


def actions_of(env, rng, choose) -> list[int | None]:
    return [turn.action for turn in random_steps(env, rng, choose)]


def test_uniform_draws_as_rng_choice_and_uniform_float_as_the_benchmark_did():
    """``uniform`` is ``rng.choice(np.flatnonzero(mask))`` and ``legal[rng.integers(n)]``
    (the same stream); ``uniform_float`` is ``legal[int(rng.random() * n)]``."""
    masks = np.random.default_rng(9).random((200, 57)) < 0.2
    masks[:, 3] = True
    for seed in SEEDS:
        new, choice, integers = (np.random.default_rng(seed) for _ in range(3))
        fast_new, fast_old = np.random.default_rng(seed), np.random.default_rng(seed)
        for mask in masks:
            legal = np.flatnonzero(mask)
            expected = int(choice.choice(legal))
            assert int(legal[integers.integers(legal.size)]) == expected
            assert uniform(mask, new) == expected
            assert uniform_float(mask, fast_new) == int(
                legal[int(fast_old.random() * legal.size)])
    assert {"uniform": uniform, "uniform_float": uniform_float} == CHOOSERS
    with pytest.raises(ValueError, match="no legal action"):
        uniform(np.zeros(4, dtype=np.int8), np.random.default_rng(0))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_benchmark_loop_plays_its_old_games(game, players):
    """bench.play_random before: ``last()``, ``legal = mask.nonzero()[0]``,
    ``legal[int(rng.random() * legal.size)]``, one generator over games reset with
    ``seed + games``."""
    def old_games(env, seed, games):
        rng = np.random.default_rng(seed)
        played = []
        for g in range(games):
            env.reset(seed=seed + g)
            for _agent in env.agent_iter():
                obs, _reward, termination, truncation, _info = env.last()
                if termination or truncation:
                    action = None
                else:
                    legal = obs["action_mask"].nonzero()[0]
                    action = int(legal[int(rng.random() * legal.size)])
                played.append(action)
                env.step(action)
        return played

    env = get_game(game).env(players)
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        new = []
        for g in range(2):
            env.reset(seed=seed + g)
            new += actions_of(env, rng, uniform_float)
        assert new == old_games(env, seed, 2)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_advance_plays_as_the_old_step_loops(game, players):
    """tests/helpers.advance and bench._play_some before: ``steps`` agent steps of
    ``rng.choice(np.flatnonzero(mask))`` (``None`` for finished agents), the first stopping
    when every agent has left, the second starting a new game then."""
    def old_play_some(env, steps, rng):
        for _ in range(steps):
            obs, _reward, termination, truncation, _info = env.last()
            env.step(None if termination or truncation
                     else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if not env.agents:
                env.reset()

    for seed in SEEDS:
        old, new = get_game(game).raw_env(players), get_game(game).raw_env(players)
        old.reset(seed=seed)
        new.reset(seed=seed)
        old_rng, new_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        old_play_some(old, 900, old_rng)  # longer than a game: a reset in between
        bench._play_some(new, 900, new_rng)
        assert new.game_state.to_dict() == old.game_state.to_dict()
        assert new.num_steps == old.num_steps and new.agents == old.agents
        assert new_rng.random() == old_rng.random()
        # advance to the end of a game: it stops once every agent has left
        for env in (old, new):
            env.reset(seed=seed)
        taken = advance(new, 10**6, seed)
        rng = np.random.default_rng(seed)
        old_taken = 0
        while old.agents:
            agent = old.agent_selection
            if old.terminations[agent] or old.truncations[agent]:
                old.step(None)
            else:
                old.step(int(rng.choice(np.flatnonzero(old.observe(agent)["action_mask"]))))
            old_taken += 1
        assert taken == old_taken and not new.agents
        assert new.game_state.to_dict() == old.game_state.to_dict()


@pytest.mark.parametrize(("game", "players"), CASES)
@pytest.mark.parametrize("steps", [0, 37, 10**5])
def test_render_command_plays_its_old_steps(game, players, steps, tmp_path, capsys):
    """``primeval render`` before: ``rng.choice`` over the rules' mask, ``--steps`` times or
    until the game is over."""
    pytest.importorskip("matplotlib")
    seed = 3
    env = get_game(game).raw_env(players, max_steps=None)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    played = 0
    while played < steps and not env.rules.is_terminal(env.game_state):
        env.step(int(rng.choice(np.flatnonzero(env.rules.legal_mask(env.game_state)))))
        played += 1
    phase = env.rules.phase_name(env.game_state)
    out = tmp_path / "board.png"
    assert cli.main(["render", "--game", game, "--players", str(players), "--seed", str(seed),
                     "--steps", str(steps), "--out", str(out)]) == 0
    assert f"seed {seed}, {played} random steps, phase {phase}" in capsys.readouterr().out


def test_fuzz_plays_its_old_games():
    """fuzz before: per game ``default_rng(seed + 7_777_777)``; at each decision a float
    against the illegal rate, then either an illegal ``rng.choice`` (refused; the decision
    is drawn again) or a legal ``legal[rng.integers(n)]``."""
    def old_fuzz(game, players, games, seed, illegal_rate):
        env = get_game(game).raw_env(players, max_steps=None)
        steps = illegal = 0
        for g in range(games):
            rng = np.random.default_rng(seed + g + 7_777_777)
            env.reset(seed=seed + g)
            while env.agents:
                agent = env.agent_selection
                if env.terminations[agent] or env.truncations[agent]:
                    env.step(None)
                    continue
                mask = env.observe(agent)["action_mask"]
                if rng.random() < illegal_rate and not mask.all():
                    with pytest.raises(IllegalActionError):
                        env.step(int(rng.choice(np.flatnonzero(mask == 0))))
                    illegal += 1
                    continue
                legal = np.flatnonzero(mask)
                env.step(int(legal[rng.integers(legal.size)]))
                steps += 1
        return steps, illegal

    for game, players in CASES:
        for rate in (0.0, 0.3):
            report = fuzz(game, players, games=2, seed=5, illegal_rate=rate)
            assert (report.steps, report.illegal_tried) == old_fuzz(game, players, 2, 5, rate)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_rules_level_loop_plays_the_old_checked_games(game, players):
    """tests/helpers.play_checked_game before: set up and applied with ``default_rng(seed)``,
    ``rng.choice`` of ``rules.legal_mask`` with ``default_rng(seed + 10_000)``."""
    rules = get_game(game).raw_env(players).rules
    for seed in SEEDS:
        rng, choice_rng = np.random.default_rng(seed), np.random.default_rng(seed + 10_000)
        state = rules.initial_state(rng)
        old = []
        while not rules.is_terminal(state):
            action = int(choice_rng.choice(np.flatnonzero(rules.legal_mask(state))))
            state = rules.apply(state, action, rng)
            old.append(action)
        rng = np.random.default_rng(seed)
        start = rules.initial_state(rng)
        steps = list(random_rules_steps(rules, start, rng, np.random.default_rng(seed + 10_000)))
        assert [action for _, action, _ in steps] == old
        assert steps[0][0] is start and steps[-1][2].to_dict() == state.to_dict()
        assert all(a[2] is b[0] for a, b in zip(steps, steps[1:], strict=False))


def test_random_steps_yields_each_step_once_taken():
    """A step is yielded after ``env.step``: stopping the loop never leaves a drawn action
    unplayed, and each turn carries what ``last()`` showed before it."""
    env = get_game("origin").raw_env(2)
    env.reset(seed=0)
    turns = random_steps(env, 0)
    first = next(turns)
    assert env.num_steps == 1 and first.agent in env.possible_agents and first.action is not None
    assert first.observation["action_mask"][first.action] == 1
    assert not first.termination and "phase" in first.info
    assert advance(env, 5, 1) == 5 and env.num_steps == 6
    assert advance(env, -1) == 0
