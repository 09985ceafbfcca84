"""Every checkpoint the package writes carries its env; a checkpoint used on another env is
refused naming the difference, and the commands infer the game and player count from the
agents when not given (saying when the game was only assumed)."""

from __future__ import annotations

import json

import pytest

from primeval.training import cli
from primeval.training.agents.checkpoint import CheckpointError, infer_env, read_env_spec
from primeval.training.agents.policy import PolicyAgent
from tests.helpers import files_in
from tests.security.conftest import read_entry, rewrite_zip


def respecced(model_zip, folder, **changes):
    entry = read_entry(model_zip)
    entry["env_spec"] = {**entry["env_spec"], **changes}
    return rewrite_zip(model_zip, folder / "other.zip",
                       {"primeval.json": json.dumps(entry).encode()})


def test_the_checkpoint_carries_its_env(model_zip):
    assert read_env_spec(model_zip) == {"game": "primordial_soup", "version": 1,
                                        "players": 3, "encoder": "flat", "env": {}}


def test_evaluate_infers_the_game_and_players_from_the_agents(tmp_path, model_zip, capsys):
    """Without --game and --players (which would assume 4-player Primordial Soup)."""
    code = cli.main(["evaluate", "--agents", f"ppo:{model_zip}", "random", "random",
                     "--games", "1", "--quiet", "--json", str(tmp_path / "out.json")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.out.startswith("primordial_soup, 3 players, 1 games")
    assert "assumed" not in captured.err
    assert json.loads((tmp_path / "out.json").read_text())["players"] == 3


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "4"], "was trained on players 3, but the given players is 4"),
    (["--game", "origin"], "was trained on game 'primordial_soup', but the given game is "
                           "'origin'"),
])
def test_evaluate_names_a_mismatch_with_the_given_env(tmp_path, model_zip, argv, message,
                                                      capsys):
    before = files_in(tmp_path)
    code = cli.main(["evaluate", *argv, "--agents", f"ppo:{model_zip}", "random", "random",
                     "random", "--games", "1", "--quiet", "--json", str(tmp_path / "o.json")])
    assert code == 2
    assert f"ppo:{model_zip} {message}" in capsys.readouterr().err
    assert files_in(tmp_path) == before


def test_league_names_two_checkpoints_of_different_envs(tmp_path, model_zip, capsys):
    other = respecced(model_zip, tmp_path, players=4)
    code = cli.main(["league", str(model_zip), str(other), "random", "--games", "1",
                     "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    assert f"ppo:{other} was trained on players 4, but ppo:{model_zip}'s players is 3" in err


def test_a_checkpoint_whose_spec_names_another_encoder_than_its_model_reads(tmp_path,
                                                                           model_zip, capsys):
    """Agents of different encoders share a league (each encodes the states itself), so a
    spec that names an encoder the model does not read is refused by name, not played."""
    other = respecced(model_zip, tmp_path, encoder="planes")
    code = cli.main(["league", str(model_zip), str(other), "random", "--games", "1",
                     "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    assert f"checkpoint {other}: its env spec's encoder 'planes' gives observations" in err


def test_another_version_of_the_game_is_named(tmp_path, model_zip):
    other = respecced(model_zip, tmp_path, version=0)
    with pytest.raises(CheckpointError, match="trained on version 0 of primordial_soup, this "
                                              "is version 1"):
        infer_env([f"ppo:{other}"], None, None, "origin")


def test_the_python_tournament_checks_the_saved_env(model_zip):
    from primeval.training.evaluate import tournament

    with pytest.raises(CheckpointError, match="trained on another env: players 3, not 4"):
        tournament("primordial_soup", 4, [f"ppo:{model_zip}", "random", "random", "random"],
                   1)


def test_a_policy_agent_names_its_env(model_zip):
    agent = PolicyAgent(model_zip)
    agent.check_env_spec({"game": "primordial_soup", "players": 3})
    with pytest.raises(CheckpointError, match="players 3, not 4"):
        agent.check_env_spec({"players": 4})


def test_the_assumed_game_is_said(capsys):
    """Nothing names the game: the note says which was assumed, in the error too."""
    assert cli.main(["evaluate", "--agents", "random", "random", "--games", "1",
                     "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("primeval evaluate: error: 4 players need 4 agents")
    assert err.endswith("; game primordial_soup assumed (no --game given and no agent's "
                        "checkpoint names its game)\n")
    assert err.count("\n") == 1


def test_an_rllib_run_folder_names_its_env(tmp_path, model_zip):
    """``primeval train --backend rllib`` writes checkpoint/primeval.json; read as JSON
    only (no ray needed), it is checked against the other agents."""
    spec = read_env_spec(model_zip) | {"players": 4}
    (tmp_path / "checkpoint").mkdir()
    (tmp_path / "checkpoint" / "primeval.json").write_text(json.dumps({"env_spec": spec}))
    env, note = infer_env([f"rllib:{tmp_path}"], None, None, "origin")
    assert (env["game"], env["players"], note) == ("primordial_soup", 4, None)
    with pytest.raises(CheckpointError, match=f"rllib:{tmp_path} was trained on players 4, "
                                              f"but ppo:{model_zip}'s players is 3"):
        infer_env([f"ppo:{model_zip}", f"rllib:{tmp_path}"], None, None, "origin")


@pytest.mark.parametrize("options", [{"map_file": "/etc/passwd"},
                                     {"cards_file": "../../secret.yaml"}])
def test_a_checkpoint_cannot_name_data_files_to_open(tmp_path, model_zip, options, capsys):
    """The env options a checkpoint's spec carries become env keywords; a data-file entry
    among them is refused before any env is built (files from others never choose what the
    package opens), in Python and on the command line."""
    crafted = respecced(model_zip, tmp_path, env=options)
    with pytest.raises(CheckpointError, match="names data file"):
        infer_env([f"ppo:{crafted}"], None, None, "primordial_soup")
    code = cli.main(["evaluate", "--agents", f"ppo:{crafted}", "random", "random",
                     "--games", "1"])
    assert code != 0
    assert "cannot choose files to open" in capsys.readouterr().err


def test_env_options_that_are_not_a_mapping_are_refused(tmp_path, model_zip):
    crafted = respecced(model_zip, tmp_path, env=["map_file", "/etc/passwd"])
    with pytest.raises(CheckpointError, match="not a mapping"):
        infer_env([f"ppo:{crafted}"], None, None, "primordial_soup")
