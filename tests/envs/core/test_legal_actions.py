"""Legal actions by name on the shared adapter (issue 26 item 8): ``legal_actions()``,
``action_name(a)``, ``action_to_string(a)`` and ``describe()``, for every game of the
catalogue."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.errors import IllegalActionError, InvalidActionTypeError
from primeval.envs.games import GAMES, get_game


@pytest.mark.parametrize("game", list(GAMES))
def test_legal_actions_are_the_masks_ids_named_as_the_actor_reads_them(game):
    env = get_game(game).raw_env()
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        legal = env.legal_actions()
        ids = np.flatnonzero(env.action_mask(agent)).tolist()
        assert [a for a, _ in legal] == ids
        assert [name for _, name in legal] == [
            env.view.action_name(env.game_state, a, seat) for a in ids
        ]
        assert all(env.action_name(a) == name == env.action_to_string(a) for a, name in legal)
        words = env.describe()
        assert words.startswith(
            f"{agent} to act in phase {env.rules.phase_name(env.game_state)!r}: "
        )
        assert words.endswith(f"; {len(ids)} legal action{'s' if len(ids) != 1 else ''}")
        assert env.view.describe_decision(env.game_state, seat) in words
        env.step(int(legal[rng.integers(len(legal))][0]))


@pytest.mark.parametrize("game", list(GAMES))
def test_an_illegal_id_has_a_name_and_a_bad_one_is_refused(game):
    env = get_game(game).raw_env()
    env.reset(seed=0)
    n = env.action_space(env.agent_selection).n
    illegal = int(np.flatnonzero(env.action_mask(env.agent_selection) == 0)[0])
    assert env.action_name(illegal) == env.view.action_name(
        env.game_state, illegal, env.possible_agents.index(env.agent_selection)
    )
    assert env.action_name(np.int64(illegal)) == env.action_name(illegal)
    with pytest.raises(IllegalActionError, match=rf"action id {n} out of range \[0, {n}\)"):
        env.action_name(n)
    with pytest.raises(InvalidActionTypeError, match="action must be an int"):
        env.action_name("pass")


def test_before_reset_the_methods_say_to_reset():
    env = get_game("primordial_soup").raw_env()
    for method in (env.legal_actions, env.describe, lambda: env.action_name(0)):
        with pytest.raises(RuntimeError, match="call reset"):
            method()


@pytest.mark.parametrize("game", list(GAMES))
def test_at_the_end_no_action_is_legal_and_describe_gives_the_scores(game):
    from primeval.envs.testing.random_play import advance

    env = get_game(game).raw_env(max_steps=None)
    env.reset(seed=1)
    advance(env, 100_000, 1)
    assert env.rules.is_terminal(env.game_state)
    assert env.legal_actions() == []
    words = env.describe()
    assert words.startswith(f"game over after {env.num_steps} steps")
    scores = env.rules.scores(env.game_state)
    assert words.endswith(", ".join(f"player_{i} {s:g}" for i, s in enumerate(scores)))


def test_through_env_and_its_wrappers_the_core_answers():
    from primeval.envs import origin_v0

    env = origin_v0.env()
    env.reset(seed=0)
    core = env.unwrapped
    assert core.legal_actions()[0][1].startswith("keep_objective(")
    assert "keeps a dealt objective" in core.describe()


def test_after_truncation_no_action_is_legal():
    env = get_game("primordial_soup").raw_env(max_steps=3)
    env.reset(seed=0)
    for _ in range(3):
        env.step(env.legal_actions()[0][0])
    assert env.legal_actions() == []
    assert env.describe() == "the game was truncated after 3 steps (max_steps 3); no one is to act"


def test_a_game_added_by_its_descriptor_alone_has_them(third_game):
    env = third_game.raw_env()
    env.reset(seed=0)
    legal = env.legal_actions()
    assert [a for a, _ in legal] == np.flatnonzero(env.action_mask(env.agent_selection)).tolist()
    assert all(name == env.action_name(a) for a, name in legal)
    assert env.describe().startswith(f"{env.agent_selection} to act in phase ")
