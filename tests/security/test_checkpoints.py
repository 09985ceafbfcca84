"""A crafted checkpoint never runs code: every loader of ``ppo:PATH`` (evaluate, league,
play, the Gymnasium ``opponent=``, ``--resume``'s latest.zip, league snapshots) refuses a
zip that needs unpickling, naming ``--trust-checkpoint``, and the payload's marker file is
never written. Trusted, the same file does run it (so the payload is real)."""

from __future__ import annotations

import io
import json

import pytest

from primeval.training import cli
from primeval.training.agents import make_agent
from primeval.training.agents.checkpoint import (
    CheckpointError,
    UntrustedCheckpointError,
    load_model,
)
from primeval.training.agents.policy import PolicyAgent
from primeval.training.ppo.config import load_config, save_config
from tests.helpers import files_in
from tests.security.conftest import read_entry, rewrite_zip, with_payload

HINT = "--trust-checkpoint (Python: trust_checkpoint=True)"


@pytest.fixture
def crafted(tmp_path, model_zip):
    """A checkpoint whose pickled policy_class writes ``marker`` when unpickled (and no
    primeval.json), and the marker's path."""
    marker = tmp_path / "marker"
    return with_payload(model_zip, tmp_path / "crafted.zip", marker), marker


def test_the_payload_is_real_when_trusted(crafted):
    """The test can fail: trusting the file unpickles it and the marker is written."""
    path, marker = crafted
    with pytest.raises(CheckpointError):  # the "class" is None once exec ran: no model
        load_model(path, trust_checkpoint=True)
    assert marker.read_text() == "the payload ran"


def test_a_crafted_checkpoint_is_refused_by_the_python_loaders(crafted):
    path, marker = crafted
    for load in (lambda: load_model(path), lambda: PolicyAgent(path),
                 lambda: make_agent(f"ppo:{path}", "primordial_soup")):
        with pytest.raises(UntrustedCheckpointError, match=r"cannot be loaded safely.*no "
                           r"primeval\.json") as info:
            load()
        assert HINT in str(info.value)
    assert not marker.exists()


def test_a_crafted_opponent_of_the_gymnasium_env_is_refused(crafted):
    from primeval.training.gym_env import make

    path, marker = crafted
    with pytest.raises(UntrustedCheckpointError, match="--trust-checkpoint"):
        make("primordial_soup", 3, opponent=f"ppo:{path}")
    assert not marker.exists()


@pytest.mark.parametrize("command", ["evaluate", "league", "play"])
def test_a_crafted_checkpoint_is_refused_by_the_commands(tmp_path, crafted, command, capsys,
                                                         monkeypatch):
    path, marker = crafted
    argv = {"evaluate": ["evaluate", "--game", "primordial_soup", "--players", "3", "--agents", f"ppo:{path}", "random",
                         "random", "--games", "1", "--quiet"],
            "league": ["league", str(path), "random", "random", "--game", "primordial_soup",
                       "--players", "3", "--games", "1", "--quiet"],
            "play": ["play", "--game", "primordial_soup", "--players", "3", "--opponents", f"ppo:{path}", "--seed", "0"]}
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 50))
    before = files_in(tmp_path)
    assert cli.main(argv[command]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"primeval {command}: error: checkpoint {path} cannot be loaded "
                          "safely")
    assert HINT in err
    assert not marker.exists()
    assert files_in(tmp_path) == before


def test_a_described_checkpoint_never_unpickles_its_pickled_entries(tmp_path, model_zip):
    """With the package's primeval.json, the pickled policy_class is replaced, not read: the
    model loads and the payload never runs."""
    marker = tmp_path / "marker"
    path = with_payload(model_zip, tmp_path / "c.zip", marker, keep_entry=True)
    agent = PolicyAgent(path)
    assert type(agent.model.policy).__name__ == "MaskableActorCriticPolicy"
    assert not marker.exists()


@pytest.mark.parametrize("key", ["rogue", "learning_rate"])
def test_a_pickled_entry_the_package_cannot_rebuild_is_refused(tmp_path, model_zip, key):
    marker = tmp_path / "marker"
    path = with_payload(model_zip, tmp_path / "c.zip", marker, key=key, keep_entry=True)
    with pytest.raises(UntrustedCheckpointError, match=f"{key} are pickled"):
        PolicyAgent(path)
    assert not marker.exists()


@pytest.mark.parametrize(("field", "value", "message"), [
    ("policy_class", "os.system", "the policy class 'os.system' is not one the package"),
    ("policy_kwargs", {"activation_fn": {":class:": "builtins.exec"}},
     "names the class 'builtins.exec', which is not allowed"),
    ("observation_space", {"type": "Pickle"}, "unknown space type 'Pickle'"),
    ("format", 99, "primeval.json has format '99', not 1"),
])
def test_a_crafted_primeval_json_is_refused(tmp_path, model_zip, field, value, message):
    entry = read_entry(model_zip)
    entry[field] = value
    path = rewrite_zip(model_zip, tmp_path / "c.zip",
                       {"primeval.json": json.dumps(entry).encode()})
    with pytest.raises(UntrustedCheckpointError, match=message):
        PolicyAgent(path)


@pytest.mark.parametrize("key", ["env", "__class__"])
def test_data_naming_what_a_model_is_built_from_is_refused(tmp_path, model_zip, key):
    import zipfile

    with zipfile.ZipFile(model_zip) as archive:
        data = json.loads(archive.read("data"))
    data[key] = "x"
    path = rewrite_zip(model_zip, tmp_path / "c.zip", {"data": json.dumps(data).encode()})
    with pytest.raises(CheckpointError, match=f"its data names {key}"):
        PolicyAgent(path)


def test_weights_are_read_with_weights_only(tmp_path, model_zip):
    """A policy.pth that is a pickle of code (not tensors) is refused by torch's
    weights_only loader, and the payload never runs."""
    import pickle

    from tests.security.conftest import Payload

    marker = tmp_path / "marker"
    path = rewrite_zip(model_zip, tmp_path / "c.zip",
                       {"policy.pth": pickle.dumps(Payload(marker))})
    with pytest.raises(CheckpointError, match="cannot be loaded as a MaskablePPO model"):
        PolicyAgent(path)
    assert not marker.exists()


def run_folder(tmp_path, checkpoint: bytes):
    run = tmp_path / "run"
    for sub in ("checkpoints", "snapshots", "tb"):
        (run / sub).mkdir(parents=True)
    config = load_config("configs/primordial_soup/default.yaml", players=3, n_envs=1,
                         total_steps=4096, torch_threads=1,
                         **{"ppo.n_steps": 64, "ppo.batch_size": 64, "network.net_arch": [8]})
    save_config(config, run / "config.yaml")
    (run / "checkpoints" / "latest.zip").write_bytes(checkpoint)
    (run / "checkpoints" / "progress.json").write_text('{"num_timesteps": 2048}')
    return run


def test_a_crafted_latest_zip_is_refused_by_resume(tmp_path, crafted, capsys):
    path, marker = crafted
    run = run_folder(tmp_path, path.read_bytes())
    before = files_in(run)
    assert cli.main(["train", "--resume", str(run), "--quiet"]) == 2
    err = capsys.readouterr().err
    latest = run / "checkpoints" / "latest.zip"
    assert f"--resume {run}: checkpoint {latest} cannot be loaded safely" in err
    assert HINT in err
    assert not marker.exists()
    assert files_in(run) == before


def test_a_crafted_league_snapshot_is_refused(tmp_path, crafted):
    from primeval.training.ppo.league import League

    path, marker = crafted
    league = League(load_config(None, players=3), tmp_path)
    league.add_snapshot(5, path)
    with pytest.raises(UntrustedCheckpointError, match="--trust-checkpoint"):
        league.policy("step_5")
    with pytest.raises(UntrustedCheckpointError, match="--trust-checkpoint"):
        league.rating_agent("step_5", seed=0)
    assert not marker.exists()


def test_an_rllib_checkpoint_is_refused_unless_trusted(tmp_path):
    """RLlib's from_checkpoint always unpickles: refused before it is called."""
    pytest.importorskip("ray")
    from primeval.training.rllib.agent import RLlibAgent

    module = tmp_path / "module"
    module.mkdir()
    (module / "class_and_ctor_args.pkl").write_bytes(b"not read")
    with pytest.raises(UntrustedCheckpointError, match="RLModule.from_checkpoint unpickles"):
        RLlibAgent(module)
