"""The policy-value network (training/expert/network.py): its outputs, its value rotation,
saving and loading as data, and the refusal of broken, hostile or mismatched files."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
import torch

from primeval.training.agents import make_agent
from primeval.training.agents.checkpoint import env_spec
from primeval.training.expert.network import (
    NetworkError,
    PolicyValueNetwork,
    load_network,
    rotate_to_absolute,
    weights_path,
)
from primeval.training.expert.play import NetworkAgent
from tests.helpers import mid_game


@pytest.fixture(scope="module")
def soup3():
    return PolicyValueNetwork(env_spec("primordial_soup", 3), hidden=(32,), seed=1)


def test_outputs_are_masked_priors_and_a_value_per_seat(soup3):
    env = mid_game("primordial_soup", seed=1, steps=20)
    rules, state = env.rules, env.game_state
    seat = rules.current_player(state)
    priors, values = soup3.evaluate_states(rules, [state], [seat])
    mask = rules.legal_mask(state).astype(bool)
    assert priors.shape == (1, rules.layout.n) and values.shape == (1, 3)
    assert priors[0][~mask].sum() == 0 and priors[0][mask].sum() == pytest.approx(1, abs=1e-5)
    assert np.all(np.abs(values) <= 1)


def test_values_are_rotated_back_to_absolute_seats():
    ego = np.array([[0.5, 0.1, -0.6], [0.5, 0.1, -0.6]])
    absolute = rotate_to_absolute(ego, [0, 2])
    np.testing.assert_allclose(absolute[0], [0.5, 0.1, -0.6])
    np.testing.assert_allclose(absolute[1], [0.1, -0.6, 0.5])  # seat 2 first, then 0, 1


def test_the_same_seed_gives_the_same_weights():
    a = PolicyValueNetwork(env_spec("origin", 3), hidden=(16,), seed=4)
    b = PolicyValueNetwork(env_spec("origin", 3), hidden=(16,), seed=4)
    for (ka, va), (kb, vb) in zip(
        a.module.state_dict().items(), b.module.state_dict().items(), strict=True
    ):
        assert ka == kb and torch.equal(va, vb)


def test_save_and_load_round_trip(tmp_path, soup3):
    path = soup3.save(tmp_path / "net.json")
    assert weights_path(path).is_file()
    loaded = load_network(path, expect={"game": "primordial_soup", "players": 3})
    obs = np.random.default_rng(0).random((2, soup3.obs_size), dtype=np.float32)
    masks = np.ones((2, soup3.num_actions), dtype=bool)
    for x, y in zip(soup3.forward(obs, masks), loaded.forward(obs, masks), strict=True):
        np.testing.assert_allclose(x, y, rtol=1e-6)


def test_a_folder_names_its_network_json(tmp_path, soup3):
    soup3.save(tmp_path / "network.json")
    assert load_network(tmp_path).spec == soup3.spec


def test_another_env_is_refused_by_name(tmp_path, soup3):
    path = soup3.save(tmp_path / "net.json")
    with pytest.raises(NetworkError, match="players 3, not 4"):
        load_network(path, expect={"game": "primordial_soup", "players": 4})
    with pytest.raises(NetworkError, match="game 'primordial_soup', not 'origin'"):
        load_network(path, expect={"game": "origin"})


def _edit(path, **changes):
    data = json.loads(path.read_text())
    for key, value in changes.items():
        node = data
        *parents, last = key.split(".")
        for part in parents:
            node = node[part]
        node[last] = value
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"format": 9}, "format '9', not 1"),
        ({"kind": "evil"}, "kind 'evil'"),
        ({"env_spec.game": "chess"}, "game 'chess' is not a game"),
        ({"env_spec.players": 9}, "players '9' is not one of"),
        ({"env_spec.encoder": "pixels"}, "encoder 'pixels'"),
        ({"env_spec.env": {"map_file": "/etc/passwd"}}, "names data file(s) ['map_file']"),
        ({"arch.hidden": [10**9]}, "arch hidden must be"),
        ({"arch.hidden": [64]}, "trunk.0.weight has shape (32, 1182)"),
        ({"arch.num_actions": 5}, "its num_actions is 5"),
    ],
)
def test_a_bad_json_is_refused_by_name(tmp_path, soup3, changes, words):
    path = soup3.save(tmp_path / "net.json")
    _edit(path, **changes)
    with pytest.raises(NetworkError) as info:
        load_network(path)
    assert words in str(info.value)


def test_broken_files_are_refused(tmp_path, soup3):
    path = soup3.save(tmp_path / "net.json")
    weights_path(path).write_bytes(b"not a torch file")
    with pytest.raises(NetworkError, match="cannot be read as plain tensors"):
        load_network(path)
    weights_path(path).unlink()
    with pytest.raises(NetworkError, match="weights net.pt are missing"):
        load_network(path)
    path.write_text("{not json")
    with pytest.raises(NetworkError, match="is not JSON"):
        load_network(path)
    with pytest.raises(NetworkError, match="does not exist"):
        load_network(tmp_path / "nothing.json")


class _Boom:
    def __reduce__(self):
        return (_crafted_ran, ())


RAN = []


def _crafted_ran():
    RAN.append(True)
    return {}


def test_crafted_weights_never_run_code(tmp_path, soup3):
    """A weights file holding a pickle that calls a function when unpickled is refused:
    torch.load(weights_only=True) rebuilds tensors only."""
    path = soup3.save(tmp_path / "net.json")
    state = dict(soup3.module.state_dict())
    state["trunk.0.weight"] = _Boom()
    with open(weights_path(path), "wb") as f:
        pickle.dump(state, f)
    torch.save({"x": _Boom()}, tmp_path / "other.pt")
    with pytest.raises(NetworkError, match="cannot be read as plain tensors"):
        load_network(path)
    weights_path(path).write_bytes((tmp_path / "other.pt").read_bytes())
    with pytest.raises(NetworkError, match="cannot be read as plain tensors"):
        load_network(path)
    assert RAN == []


def test_wrong_shapes_and_non_finite_weights_are_refused(tmp_path, soup3):
    path = soup3.save(tmp_path / "net.json")
    state = soup3.module.state_dict()
    bad = dict(state)
    bad["policy.bias"] = torch.zeros(3)
    torch.save(bad, weights_path(path))
    with pytest.raises(NetworkError, match="weight policy.bias has shape"):
        load_network(path)
    bad = {k: v.clone() for k, v in state.items()}
    bad["value.bias"][0] = float("nan")
    torch.save(bad, weights_path(path))
    with pytest.raises(NetworkError, match="value.bias is not finite"):
        load_network(path)


def test_the_raw_policy_plays_as_net_spec(tmp_path, soup3):
    from primeval.training.evaluate import tournament

    soup3.save(tmp_path / "net.json")
    agent = make_agent(f"net:{tmp_path / 'net.json'}", "primordial_soup")
    assert isinstance(agent, NetworkAgent)
    results = tournament(
        "primordial_soup", 3, [f"net:{tmp_path / 'net.json'}", "random", "random"], games=1, seed=0
    )
    assert results[0].games == 1
    with pytest.raises(ValueError, match="network plays 3 players, this game has 4"):
        tournament("primordial_soup", 4, [f"net:{tmp_path / 'net.json'}"] + ["random"] * 3, games=1)
