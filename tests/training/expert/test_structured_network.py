"""The structured policy-value network (``network.policy: structured``): the structured
policy's body (message passing over Origin's territories, one logit per territory action
from that territory's embedding) with a value per seat, saved as data like the MLP, guiding
the search, and trained by expert iteration end to end."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from primeval.envs.games import make_raw_env
from primeval.training.agents import make_agent
from primeval.training.agents.checkpoint import env_spec
from primeval.training.config import ConfigError
from primeval.training.expert.config import load_expert_config
from primeval.training.expert.network import (
    STRUCTURED_KIND,
    NetworkError,
    PolicyValueNetwork,
    load_network,
)
from primeval.training.expert.train import train_expert

ARCH = {"entity_hidden": 8, "rounds": 2, "head_hidden": 4}


def _net(seed: int = 0) -> PolicyValueNetwork:
    return PolicyValueNetwork(env_spec("origin", 3, "graph"), [16], seed=seed, structured=ARCH)


def _position(seed: int = 3):
    env = make_raw_env("origin", 3, obs_encoder="graph")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(25):  # a few random decisions in, past the setup
        mask = env.action_mask(env.agent_selection).astype(bool)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return env


def test_outputs_are_masked_priors_and_a_value_per_seat():
    env = _position()
    net = _net()
    state, seat = env.game_state, env.possible_agents.index(env.agent_selection)
    probs, values = net.evaluate_states(env.rules, [state], [seat])
    mask = env.rules.legal_mask(state).astype(bool)
    assert probs.shape == (1, env.rules.layout.n) and values.shape == (1, 3)
    assert np.isclose(probs[0].sum(), 1.0, atol=1e-5)
    assert (probs[0][~mask] == 0).all() and (probs[0][mask] > 0).all()
    assert (np.abs(values) <= 1).all()


def test_a_territory_actions_logit_follows_its_territory():
    """The weights are shared across territories: two actions of one kind at two territories
    whose rows and neighbourhoods are the same get the same logit, and changing one
    territory's row changes the logits of the actions that name it."""
    net = _net(seed=1)
    structure = net.structure
    kinds = structure["kinds"]
    kind_of = np.asarray(structure["action_kind"])
    entities = np.asarray(structure["action_entities"]).reshape(-1, 2)
    evolve = kinds.index("evolve_at")
    actions = np.flatnonzero(kind_of == evolve)
    start, stop = structure["nodes"]
    t, f = structure["entities"], structure["entity_features"]
    obs = np.zeros((1, net.obs_size), dtype=np.float32)  # no edges, every row the same
    module = net.module
    with torch.inference_mode():
        logits, _ = module(torch.as_tensor(obs))
    first = logits[0, actions].numpy()
    assert np.allclose(first, first[0], atol=1e-6)
    rows = obs[0, start:stop].reshape(t, f)
    target = int(entities[actions[0], 0])
    rows[target] = 1.0  # one territory's features change
    obs[0, start:stop] = rows.reshape(-1)
    module.body.kind_out.data.normal_(0, 1.0, generator=torch.Generator().manual_seed(0))
    with torch.inference_mode():
        before, _ = module(torch.as_tensor(np.zeros_like(obs)))
        after, _ = module(torch.as_tensor(obs))
    changed = np.flatnonzero(~np.isclose(before[0, actions].numpy(), after[0, actions].numpy(),
                                         atol=1e-7))
    named = actions[changed]
    assert target in {int(entities[a, 0]) for a in named}
    # the other territories' evolve logits move together (through the shared context only)
    others = [a for a in actions if int(entities[a, 0]) != target]
    delta = after[0, others].numpy() - before[0, others].numpy()
    assert np.allclose(delta, delta[0], atol=1e-5)


def test_save_and_load_round_trip(tmp_path):
    net = _net(seed=4)
    path = net.save(tmp_path / "net.json")
    data = json.loads(path.read_text())
    assert data["kind"] == STRUCTURED_KIND and data["arch"]["structured"] == ARCH
    assert "adjacency" not in json.dumps(data)  # the structure is the encoder's, not the file's
    again = load_network(path, expect={"game": "origin", "players": 3})
    assert again.structured == ARCH
    env = _position()
    state, seat = env.game_state, env.possible_agents.index(env.agent_selection)
    for a, b in zip(net.evaluate_states(env.rules, [state], [seat]),
                    again.evaluate_states(env.rules, [state], [seat]), strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("change, words", [
    (lambda d: d["arch"].pop("structured"), "needs"),
    (lambda d: d.update(kind="primeval.policy_value_mlp"), "has no"),
    (lambda d: d["arch"]["structured"].update(rounds=-1), "arch structured"),
    (lambda d: d["arch"]["structured"].update(extra=1), "arch structured"),
    (lambda d: d["arch"].update(structured=[8, 2, 4]), "arch structured"),
    (lambda d: d["env_spec"].update(encoder="flat"), "structure()"),
])
def test_a_damaged_structured_network_is_refused_by_name(tmp_path, change, words):
    path = _net().save(tmp_path / "net.json")
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(NetworkError, match=None) as info:
        load_network(path)
    assert words in str(info.value) and str(path) in str(info.value)


def test_weights_of_another_structured_arch_are_refused(tmp_path):
    path = _net().save(tmp_path / "net.json")
    data = json.loads(path.read_text())
    data["arch"]["structured"]["entity_hidden"] = 9
    path.write_text(json.dumps(data))
    with pytest.raises(NetworkError, match="do not fit|has shape"):
        load_network(path)


def test_the_flat_encoder_cannot_carry_a_structured_network():
    with pytest.raises(NetworkError, match="structure"):
        PolicyValueNetwork(env_spec("origin", 3, "flat"), [16], structured=ARCH)
    with pytest.raises(ConfigError, match="network.policy=structured"):
        load_expert_config("origin/expert", **{"network.policy": "structured"})
    with pytest.raises(ConfigError, match="network.policy"):
        load_expert_config("origin/expert", **{"network.policy": "gnn"})


def test_the_structured_network_guides_the_search(tmp_path):
    path = _net(seed=2).save(tmp_path / "net.json")
    agent = make_agent(f"mcts:sims=4,batch=2,net={path}", "origin", seed=0)
    env = _position()
    name = env.agent_selection
    mask = env.action_mask(name).astype(bool)
    action = agent.act(None, mask, state=env.game_state, seat=env.possible_agents.index(name))
    assert mask[action]
    raw = make_agent(f"net:{path}", "origin", seed=0)
    assert mask[raw.act(None, mask, state=env.game_state,
                        seat=env.possible_agents.index(name))]


@pytest.mark.slow
def test_expert_iteration_trains_a_structured_network_end_to_end(tmp_path):
    overrides = {
        "encoder": "graph", "network.policy": "structured", "network.hidden": [16],
        "network.entity_hidden": 8, "network.rounds": 1, "network.head_hidden": 4,
        "iterations": 1, "workers": 0, "games_per_iteration": 1,
        "learn.batch_size": 8, "learn.steps": 2, "eval.every": 0, "eval.final_games": 1,
        "eval.sims": 2, "search.sims": 2, "search.batch": 2, "env": {"max_steps": 60},
    }
    config = load_expert_config("origin/expert", **overrides)
    run = tmp_path / "run"
    final = train_expert(config, run, progress=False)
    assert final["iterations"] == 1 and final["games"] == 1
    learnt = load_network(run / "network.json")
    assert learnt.structured == {"entity_hidden": 8, "rounds": 1, "head_hidden": 4}
    assert learnt.spec["encoder"] == "graph"


def test_held_out_losses_in_chunks_equal_one_pass():
    """``held_out_losses`` runs the network over the held-out positions a chunk at a time (a
    structured network's intermediates for a whole set at once take a gigabyte); its figures
    are the same as one pass's."""
    from primeval.training.expert.learner import held_out_losses

    env = _position(seed=5)
    rng = np.random.default_rng(0)
    obs, masks = [], []
    for _ in range(11):
        if not env.agents:
            break
        observed = env.observe(env.agent_selection)
        obs.append(observed["observation"])
        masks.append(observed["action_mask"].astype(bool))
        env.step(int(rng.choice(np.flatnonzero(masks[-1]))))
    n = len(obs)
    visits = rng.random((n, len(masks[0]))).astype(np.float32) * np.asarray(masks)
    visits /= visits.sum(axis=1, keepdims=True)
    data = {"obs": np.asarray(obs, dtype=np.float32), "masks": np.asarray(masks),
            "visits": visits, "values": rng.uniform(-1, 1, (n, 3)).astype(np.float32)}
    net = _net(seed=2)
    whole = held_out_losses(net, data, chunk=n)
    for chunk in (1, 3, 4):
        parts = held_out_losses(net, data, chunk=chunk)
        assert parts.keys() == whole.keys()
        for key, value in whole.items():
            assert parts[key] == pytest.approx(value, rel=1e-5, abs=1e-6), (chunk, key)
    assert 0.0 <= whole["policy_agreement"] <= 1.0 and whole["policy_loss"] > 0
