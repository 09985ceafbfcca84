"""``suggest(env, spec)``: what an agent would play in the env's position, without changing
the env (issue 26 item 8)."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest

import primeval  # noqa: F401  (registers the ids)
from primeval.envs.games import GAMES, get_game
from primeval.envs.testing.random_play import advance
from primeval.training.agents import Suggestion, agent_action, make_agent, suggest
from primeval.training.agents.checkpoint import CheckpointError


def _snapshot(env) -> tuple[str, dict]:
    core = env.unwrapped
    return json.dumps(core.get_state(), sort_keys=True), core._rng.bit_generator.state


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("spec", ["random", "heuristic", "mcts:sims=8"])
def test_the_suggestion_is_the_agents_move_and_changes_nothing(game, spec):
    env = get_game(game).env()
    env.reset(seed=5)
    advance(env.unwrapped, 30, 5)
    before = _snapshot(env)
    action, name = suggested = suggest(env, spec, seed=7)
    assert isinstance(suggested, Suggestion)
    assert _snapshot(env) == before  # state, generator and step count as they were
    core = env.unwrapped
    assert core.action_mask(core.agent_selection)[action]
    assert name == core.action_name(action)
    # the same agent, asked the usual way, plays the same
    assert action == agent_action(make_agent(spec, game, seed=7), core, core.agent_selection)
    assert suggest(env, spec, seed=7) == suggested  # seeded: the same again
    env.step(action)  # and the env plays on


def test_an_agent_object_and_the_gymnasium_env_are_taken():
    env = gymnasium.make("primeval/Origin-v0", opponent="random")
    env.reset(seed=2)
    core = env.unwrapped.aec
    agent = make_agent("heuristic", "origin", seed=1)
    action, name = suggest(env, agent)
    assert action == agent_action(
        make_agent("heuristic", "origin", seed=1), core, core.agent_selection
    )
    assert name == core.action_name(action)


def test_a_checkpoint_of_another_env_is_refused(untrained_checkpoint):
    path = untrained_checkpoint()  # 3-player Primordial Soup
    soup = get_game("primordial_soup").raw_env(3)
    soup.reset(seed=0)
    action, _ = suggest(soup, f"ppo:{path}")
    assert soup.action_mask(soup.agent_selection)[action]
    four = get_game("primordial_soup").raw_env(4)
    four.reset(seed=0)
    with pytest.raises(CheckpointError, match="players 3, not 4"):
        suggest(four, f"ppo:{path}")


def test_no_suggestion_when_no_one_is_to_act():
    env = get_game("primordial_soup").raw_env(max_steps=None)
    with pytest.raises(ValueError, match="call reset"):
        suggest(env, "random")
    env.reset(seed=0)
    advance(env, 100_000, 0)
    with pytest.raises(ValueError, match="no one is to act .*game over"):
        suggest(env, "heuristic")
    with pytest.raises(TypeError, match="suggest needs a primeval env"):
        suggest(object(), "random")


def test_a_bad_spec_is_named():
    env = get_game("origin").raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent 'heuristc'"):
        suggest(env, "heuristc")
    assert np.any(env.action_mask(env.agent_selection))
