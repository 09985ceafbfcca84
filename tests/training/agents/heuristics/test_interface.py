"""What both heuristic agents share: seeded determinism and refusing to act without a state."""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.games import GAMES
from primeval.training.agents.heuristics import heuristic_class

#: Every game of the catalogue with a heuristic: its class, env module, default players.
AGENTS = [(heuristic_class(name), game.module(), game.default_players)
          for name, game in GAMES.items() if game.heuristic]
IDS = [name for name, game in GAMES.items() if game.heuristic]


def _transcript(agent_class, module, players: int, agent_seed: int, games: int = 2
                ) -> list[int]:
    """The actions one seeded agent takes in every seat of ``games`` seeded games."""
    env = module.raw_env(num_players=players)
    heuristic = agent_class(env.rules, seed=agent_seed)
    actions = []
    for game in range(games):
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, _r, termination, truncation, _i = env.last()
            if termination or truncation:
                env.step(None)
                continue
            action = heuristic.act(obs["observation"], obs["action_mask"],
                                   state=env.game_state, seat=env.possible_agents.index(agent))
            actions.append(action)
            env.step(action)
    return actions


@pytest.mark.parametrize(("agent_class", "module", "players"), AGENTS, ids=IDS)
def test_deterministic_given_a_seed(agent_class, module, players):
    """Same seed, same games: the same actions; ``seed()`` restarts the generator."""
    assert (_transcript(agent_class, module, players, 5)
            == _transcript(agent_class, module, players, 5))
    agent = agent_class(seed=1)
    first = [int(agent.rng.integers(1000)) for _ in range(3)]
    agent.seed(1)
    assert [int(agent.rng.integers(1000)) for _ in range(3)] == first


@pytest.mark.parametrize(("agent_class", "module", "players"), AGENTS, ids=IDS)
def test_raises_without_a_state(agent_class, module, players):
    agent = agent_class()
    mask = np.ones(module.raw_env(num_players=players).rules.layout.n, dtype=np.int8)
    with pytest.raises(ValueError, match="state"):
        agent.act(None, mask, state=None, seat=0)
    with pytest.raises(ValueError, match="state"):
        agent.act(None, mask)
