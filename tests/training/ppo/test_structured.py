"""The structured policy (training/ppo/structured.py): its logits against a plain per-action
reference, masking, checks of its structure, safe save and load, and a tiny run."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch as th  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

from primeval.envs.games import make_raw_env  # noqa: E402
from primeval.training.agents import make_heuristic  # noqa: E402
from primeval.training.agents.checkpoint import (  # noqa: E402
    ENTRY,
    CheckpointError,
    env_spec,
    load_model,
    save_model,
)
from primeval.training.agents.policy import PolicyAgent  # noqa: E402
from primeval.training.ppo.config import ConfigError, load_config  # noqa: E402
from primeval.training.ppo.model import env_structure, new_model  # noqa: E402
from primeval.training.ppo.structured import (  # noqa: E402
    StructuredActorCriticPolicy,
    check_structure,
)
from primeval.training.ppo.train import train  # noqa: E402
from primeval.wrappers.single_agent import SingleAgentEnv  # noqa: E402

KWARGS = {
    "net_arch": [32],
    "hidden": 16,
    "rounds": 2,
    "head_hidden": 8,
    "activation_fn": th.nn.ReLU,
}


def graph_env(seed: int = 0, game: str = "origin") -> SingleAgentEnv:
    """The learner's env over the ``graph`` observation of ``game`` (3-player Origin, or
    4-player Primordial Soup), the heuristic bots in the other seats."""
    aec = make_raw_env(game, 3 if game == "origin" else 4, obs_encoder="graph")
    env = SingleAgentEnv(aec, opponents=make_heuristic(game, seed=1))
    env.reset(seed=seed)
    return env


GAMES = ["origin", "primordial_soup"]


def structured_model(env: SingleAgentEnv, seed: int = 0) -> MaskablePPO:
    structure = env.game.obs_encoder.structure()
    return MaskablePPO(
        StructuredActorCriticPolicy,
        env,
        n_steps=64,
        batch_size=64,
        seed=seed,
        device="cpu",
        policy_kwargs={**KWARGS, "structure": structure},
    )


def observations(env: SingleAgentEnv, count: int, seed: int = 0):
    """``count`` (observation, mask) pairs of the learner along a random game."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    out = []
    while len(out) < count:
        mask = env.action_masks()
        out.append((obs.copy(), mask.copy()))
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            obs, _ = env.reset()
    return out


def reference_logits(net, obs: np.ndarray) -> np.ndarray:
    """The logits of one observation, action by action, written plainly from the module's
    weights (the network computes them for all actions at once)."""
    s = net_structure = net.structure_  # set by the test
    act = th.relu
    x = th.as_tensor(obs, dtype=th.float32)
    t, f = s["entities"], s["entity_features"]
    rows = x[slice(*s["nodes"])].reshape(t, f)
    adjacency = x[slice(*s["adjacency"])].reshape(t, t)
    g = net.global_net(x[slice(*s["global_features"])])
    h = [act(net.node_in(rows[i]) + net.global_in(g)) for i in range(t)]
    for self_w, neighbour_w in zip(net.self_w, net.neighbour_w, strict=True):
        new = []
        for i in range(t):
            neighbours = [h[j] for j in range(t) if adjacency[i, j] > 0]
            mean = th.stack(neighbours).mean(0) if neighbours else th.zeros_like(h[i])
            new.append(h[i] + act(self_w(h[i]) + neighbour_w(mean)))
        h = new
    stacked = th.stack(h)
    c = act(net.context(th.cat([g, stacked.mean(0), stacked.amax(0)])))
    m = net.head_hidden
    others = net.global_head(c)
    logits, o = [], 0
    for kind, (a, b) in zip(
        net_structure["action_kind"], net_structure["action_entities"], strict=True
    ):
        if kind < 0:
            logits.append(others[o])
            o += 1
            continue
        w_entity = net.kind_entity.weight[kind * m : (kind + 1) * m]
        b_entity = net.kind_entity.bias[kind * m : (kind + 1) * m]
        w_context = net.kind_context.weight[kind * m : (kind + 1) * m]
        embedding = (h[a] + h[b]) / 2
        hidden = act(w_entity @ embedding + b_entity + w_context @ c)
        logits.append(hidden @ net.kind_out[kind] + net.kind_bias[kind])
    return th.stack(logits).detach().numpy()


@pytest.mark.parametrize("game", GAMES)
def test_logits_equal_a_plain_per_action_reference(game):
    env = graph_env(game=game)
    model = structured_model(env)
    net = model.policy.mlp_extractor
    net.structure_ = env.game.obs_encoder.structure()
    th.manual_seed(3)
    with th.no_grad():  # not the near-zero heads of a fresh policy: every term must count
        net.kind_out.normal_()
        net.kind_bias.normal_()
        net.global_head.weight.normal_()
    for obs, _mask in observations(env, 3):
        with th.no_grad():
            batch = th.as_tensor(obs[None])
            fast = model.policy.mlp_extractor.forward_actor(batch)[0].numpy()
            both = model.policy.mlp_extractor(batch)[0][0].numpy()
        expected = reference_logits(net, obs)
        np.testing.assert_allclose(fast, expected, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(both, fast, rtol=1e-6, atol=1e-6)
        assert np.unique(np.round(expected, 4)).size > 100  # the actions' scores differ


def test_masked_actions_have_probability_zero_and_are_never_chosen():
    env = graph_env()
    model = structured_model(env)
    pairs = observations(env, 20, seed=1)
    obs = th.as_tensor(np.stack([o for o, _ in pairs]))
    masks = np.stack([m for _, m in pairs])
    with th.no_grad():
        dist = model.policy.get_distribution(obs, action_masks=masks)
        probs = dist.distribution.probs.numpy()
        actions, values, log_prob = model.policy(obs, action_masks=masks)
    assert np.all(probs[~masks] == 0) and np.allclose(probs.sum(1), 1)
    assert masks[np.arange(len(pairs)), actions.numpy()].all()
    assert values.shape == (len(pairs), 1) and np.isfinite(log_prob.numpy()).all()


def test_a_fresh_policy_is_near_uniform_over_the_legal_actions():
    env = graph_env()
    model = structured_model(env)
    obs, mask = observations(env, 1, seed=2)[0]
    with th.no_grad():
        probs = (
            model.policy.get_distribution(th.as_tensor(obs[None]), action_masks=mask[None])
            .distribution.probs[0]
            .numpy()
        )
    legal = probs[mask]
    assert np.allclose(legal, 1 / mask.sum(), rtol=0.05)


def test_the_structure_is_checked_and_errors_name_what_is_wrong():
    env = graph_env()
    s = env.game.obs_encoder.structure()
    size, n = int(env.observation_space.shape[0]), int(env.action_space.n)
    assert check_structure(s, size, n) is s
    cases = [
        ({k: v for k, v in s.items() if k != "kinds"}, "lacks kinds"),
        ({**s, "action_kind": s["action_kind"][:-1]}, "one entry per action"),
        ({**s, "entities": 0}, "positive int"),
        ({**s, "nodes": [0, 5]}, "spans 5 values"),
        ({**s, "adjacency": [s["adjacency"][0], size + 1]}, "not within the observation"),
        (
            {
                **s,
                "action_entities": [[99, 99]] + s["action_entities"][1:],
                "action_kind": [0] + s["action_kind"][1:],
            },
            "entities are 0..41",
        ),
        (
            {
                **s,
                "action_entities": [[3, 3]] + s["action_entities"][1:],
                "action_kind": [-1] + s["action_kind"][1:],
            },
            "names no entity",
        ),
    ]
    for bad, message in cases:
        with pytest.raises(ValueError, match=message):
            check_structure(bad, size, n)
    with pytest.raises(ValueError, match="structure must be a dict"):
        check_structure("origin", size, n)
    with pytest.raises(ValueError, match="needs structure="):
        MaskablePPO(StructuredActorCriticPolicy, env, device="cpu", policy_kwargs={"net_arch": [8]})
    with pytest.raises(ValueError, match="rounds=-1"):
        MaskablePPO(
            StructuredActorCriticPolicy,
            env,
            device="cpu",
            policy_kwargs={"structure": s, "rounds": -1},
        )


def test_a_checkpoint_round_trip_loads_safely_and_plays_the_same_actions(tmp_path):
    env = graph_env()
    model = structured_model(env)
    model.learn(64)  # one update: weights away from their initialisation
    path = save_model(model, tmp_path / "model.zip", env_spec("origin", 3, "graph"))
    with zipfile.ZipFile(path) as archive:
        entry = json.loads(archive.read(ENTRY))
    assert entry["policy_class"].endswith("StructuredActorCriticPolicy")
    assert entry["policy_kwargs"]["structure"] == env.game.obs_encoder.structure()
    loaded = load_model(path)  # no unpickling
    assert type(loaded.policy) is StructuredActorCriticPolicy
    pairs = observations(env, 40, seed=3)
    obs = np.stack([o for o, _ in pairs])
    masks = np.stack([m for _, m in pairs])
    for deterministic in (True, False):
        th.manual_seed(0)
        before, _ = model.predict(obs, action_masks=masks, deterministic=deterministic)
        th.manual_seed(0)
        after, _ = loaded.predict(obs, action_masks=masks, deterministic=deterministic)
        assert before.tolist() == after.tolist()
    agent = PolicyAgent(path)
    assert [agent.act(o, m) for o, m in pairs] == model.predict(
        obs, action_masks=masks, deterministic=True
    )[0].tolist()


def test_a_checkpoint_with_a_broken_structure_is_refused(tmp_path):
    env = graph_env()
    path = save_model(structured_model(env), tmp_path / "model.zip", env_spec("origin", 3, "graph"))
    with zipfile.ZipFile(path) as archive:
        items = {name: archive.read(name) for name in archive.namelist()}
    entry = json.loads(items[ENTRY])
    entry["policy_kwargs"]["structure"]["action_kind"] = [0]
    items[ENTRY] = json.dumps(entry).encode()
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(broken, "w") as archive:
        for name, data in items.items():
            archive.writestr(name, data)
    with pytest.raises(CheckpointError, match="one entry per action"):
        load_model(broken)


def test_structured_needs_an_encoder_that_describes_its_structure():
    config = load_config("configs/origin/structured.yaml", encoder="flat")
    with pytest.raises(ConfigError, match="encoder 'flat' does not"):
        env_structure(config)
    with pytest.raises(ConfigError, match="network.policy='mlp'"):
        load_config("configs/origin/structured.yaml", **{"network.policy": "mlp"})
    with pytest.raises(ConfigError, match="rounds=-1"):
        load_config("configs/origin/structured.yaml", **{"network.rounds": -1})


def test_new_model_builds_the_structured_policy_from_the_config():
    config = load_config("configs/origin/structured.yaml", n_envs=1)
    model = new_model(config, graph_env())
    policy = model.policy
    assert type(policy) is StructuredActorCriticPolicy
    assert (policy.hidden, policy.rounds, policy.head_hidden) == (64, 3, 32)
    assert policy.structure == env_structure(config)
    assert len(policy.mlp_extractor.self_w) == 3


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_tiny_structured_run_trains_and_its_checkpoint_evaluates(tmp_path, capsys, game):
    from primeval.training import cli

    config = load_config(
        f"configs/{game}/structured.yaml",
        **{
            "total_steps": 512,
            "n_envs": 2,
            "ppo.n_steps": 256,
            "ppo.batch_size": 256,
            "ppo.n_epochs": 1,
            "checkpoint_every": 512,
            "eval.every": 512,
            "eval.games": 2,
            "eval.final_games": 2,
            "select.games": 2,
            "network.net_arch": [32],
            "network.hidden": 16,
            "network.rounds": 1,
            "network.head_hidden": 8,
        },
    )
    run = tmp_path / "run"
    before = new_model(config, graph_env(game=game)).policy.state_dict()
    final = train(config, run, progress=False)
    assert final["total_steps"] >= 512
    model = load_model(run / "model.zip")
    assert type(model.policy) is StructuredActorCriticPolicy
    after = model.policy.state_dict()
    assert any(not th.equal(before[k], after[k]) for k in before)  # it learnt something
    code = cli.main(
        [
            "evaluate",
            "--agents",
            f"ppo:{run / 'model.zip'}",
            *["heuristic"] * (config.players - 1),
            "--games",
            "3",
            "--seed",
            "5",
            "--quiet",
        ]
    )
    assert code == 0
    assert "ppo" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("game", ["origin", "primordial_soup"])
def test_the_imitation_probe_reports_held_out_accuracy_by_kind_of_decision(game):
    from primeval.training.ppo.structured_probe import imitation_probe

    report = imitation_probe(games=2, seed=11, epochs=1, game=game)
    assert (report["game"], report["players"]) == (game, 3 if game == "origin" else 4)
    assert report["train_decisions"] > 0 and report["test_decisions"] > 0
    assert 0 < report["test_place_decisions"] < report["test_decisions"]
    for name in ("structured", "mlp"):
        for key in ("train_accuracy", "test_accuracy_place", "test_accuracy_other"):
            assert 0.0 <= report[name][key] <= 1.0


def test_the_probe_command_refuses_bad_arguments(capsys):
    from primeval.training.ppo.structured_probe import main

    for argv in (["--games", "1"], ["--epochs", "0"], ["--games", "many"], ["--game", "chess"]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
    assert "--games" in capsys.readouterr().err
