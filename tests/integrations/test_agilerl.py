"""AgileRL's masked DQN plays and learns on both games, the way AgileRL's Connect Four
tutorial trains on a turn-based PettingZoo game: one agent acts for every seat, with the
action mask of the AEC observation, and learns from each seat's own transitions (its
observation, action, reward and observation at its next turn).

AgileRL 2.58 needs ``pettingzoo<1.27``, so it is not in the main venv: ``make test-compat``
runs this in ``.venv-compat`` (PettingZoo 1.26.1, Gymnasium 1.2.2, torch 2.13.0 CPU);
elsewhere it is skipped. docs/integrations.md's AgileRL section has the same loop.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("agilerl")
torch = pytest.importorskip("torch")

from agilerl.algorithms.dqn import DQN  # noqa: E402
from agilerl.components.replay_buffer import ReplayBuffer  # noqa: E402
from tensordict import TensorDict  # noqa: E402

import primeval  # noqa: E402

STEPS = 120  # agent steps: a handful of learning updates, then stop (a smoke run)


@pytest.mark.parametrize(("env_id", "players"), [("primeval/origin-v0", 2),
                                                  ("primeval/primordial_soup-v1", 3)])
def test_masked_dqn_plays_every_seat_and_learns(env_id, players):
    torch.manual_seed(0)
    env = primeval.make(env_id, num_players=players, max_steps=STEPS)
    agent_0 = env.possible_agents[0]
    obs_space = env.observation_space(agent_0)["observation"]
    dqn = DQN(obs_space, env.action_space(agent_0), batch_size=16, learn_step=4,
              net_config={"head_config": {"hidden_size": [32]}})
    memory = ReplayBuffer(max_size=1_000)
    pending = {}  # agent -> (observation, action) awaiting that agent's next observation
    losses, illegal, learned_from = [], 0, set()

    env.reset(seed=0)
    for step, agent in enumerate(env.agent_iter()):
        obs, reward, termination, truncation, _ = env.last()
        done = termination or truncation
        if agent in pending:
            before, action = pending.pop(agent)
            memory.add(TensorDict({
                "obs": before[None], "action": np.array([[action]]),
                "reward": np.array([[reward]], dtype=np.float32),
                "next_obs": obs["observation"][None],
                "done": np.array([[float(done)]], dtype=np.float32),
            }, batch_size=[1]))
            learned_from.add(agent)
        if done:
            env.step(None)
            continue
        mask = obs["action_mask"]
        action = int(dqn.get_action(obs["observation"][None], epsilon=0.2,
                                    action_mask=mask[None])[0])
        illegal += not mask[action]
        pending[agent] = (obs["observation"], action)
        env.step(action)
        if step % dqn.learn_step == 0 and len(memory) >= dqn.batch_size:
            losses.append(dqn.learn(memory.sample(dqn.batch_size)))

    assert illegal == 0 and not env.agents  # legal moves only, to the end (or max_steps)
    assert learned_from == set(env.possible_agents)  # every seat's own transitions
    assert losses and all(np.isfinite(losses))


def test_the_docs_example_runs():
    """docs/integrations.md's AgileRL example, as written (tests/test_docs.py skips it where
    AgileRL is missing, which is every venv but this one)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "integrations.md").read_text()
    [code] = [b for b in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
              if "from agilerl" in b]
    exec(compile(code, "docs/integrations.md", "exec"), {"__name__": "__docs__"})
