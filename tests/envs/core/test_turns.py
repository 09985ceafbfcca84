"""``turns``: the one loop over a game's decisions that evaluation, imitation and expert
iteration share (envs/core/agents.py)."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.core.agents import RandomAgent, agent_action, turns
from primeval.envs.games import make_raw_env


@pytest.mark.parametrize("game, players", [("primordial_soup", 4), ("origin", 3)])
def test_turns_yields_the_acting_seat_and_plays_the_game_out(game, players):
    env = make_raw_env(game, players)
    env.reset(seed=11)
    agents = [RandomAgent(seed=seat) for seat in range(players)]
    seen = 0
    for seat, name in turns(env):
        # the turn is the env's: the acting agent, alive, with a legal action to take
        assert name == env.agent_selection
        assert seat == env.possible_agents.index(name)
        _obs, _r, termination, truncation, _i = env.last(observe=False)
        assert not (termination or truncation)
        assert np.asarray(env.action_mask(name)).any()
        env.step(agent_action(agents[seat], env, name))
        seen += 1
    # the loop ends when every seat is done, the finished seats' dead steps taken
    assert env.agents == []
    assert seen > players


def test_turns_plays_the_same_game_as_the_plain_loop():
    def plain(env, agents):
        actions = []
        for name in env.agent_iter():
            _o, _r, termination, truncation, _i = env.last(observe=False)
            if termination or truncation:
                env.step(None)
                continue
            seat = env.possible_agents.index(name)
            actions.append((seat, agent_action(agents[seat], env, name)))
            env.step(actions[-1][1])
        return actions

    def looped(env, agents):
        actions = []
        for seat, name in turns(env):
            actions.append((seat, agent_action(agents[seat], env, name)))
            env.step(actions[-1][1])
        return actions

    runs = []
    for loop in (plain, looped):
        env = make_raw_env("primordial_soup", 3)
        env.reset(seed=5)
        runs.append((loop(env, [RandomAgent(seed=s) for s in range(3)]),
                     [float(x) for x in env.rules.scores(env.game_state)]))
    assert runs[0] == runs[1]
