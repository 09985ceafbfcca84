"""``select``: the run's model.zip is the final policy or one of its K newest snapshots,
whichever won most selection games against the heuristic bots; ``primeval select RUN``
chooses the same for a finished run."""

from __future__ import annotations

import json
import zipfile

import pytest

from primeval.training import cli
from primeval.training.ppo import select as select_module
from primeval.training.ppo.config import ConfigError, load_config
from primeval.training.ppo.select import candidates
from primeval.training.ppo.train import train

SMOKE = {"total_steps": 3072, "n_envs": 2, "ppo.n_steps": 512, "ppo.batch_size": 256,
         "ppo.n_epochs": 1, "checkpoint_every": 1024, "eval.every": 1024, "eval.games": 2,
         "eval.final_games": 4, "network.net_arch": [16], "torch_threads": 1,
         "league.rating_games": 0, "select.snapshots": 2, "select.games": 8}


def _weights(path) -> bytes:
    with zipfile.ZipFile(path) as archive:
        return archive.read("policy.pth")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    config = load_config("configs/primordial_soup/default.yaml", **SMOKE)
    folder = tmp_path_factory.mktemp("select") / "run"
    final = train(config, folder, progress=False)
    return folder, final


@pytest.mark.slow
def test_the_end_of_a_run_chooses_among_the_final_policy_and_its_newest_snapshots(run):
    folder, final = run
    selection = json.loads((folder / "selection.json").read_text())
    assert final["selection"] == selection
    # snapshots at the evaluations (1,024 and 2,048 steps), then the final policy (3,072)
    assert [c["step"] for c in selection["candidates"]] == [1024, 2048, 3072]
    best = max(selection["candidates"], key=lambda c: (c["win_rate"], c["step"]))
    assert selection["chosen"] == best["step"] and selection["file"] == best["file"]
    shipped = (folder / "checkpoints" / "latest.zip" if selection["file"] is None
               else folder / selection["file"])
    assert _weights(folder / "model.zip") == _weights(shipped)
    assert "model.zip is the " in (folder / "summary.md").read_text()


@pytest.mark.slow
def test_a_finished_run_is_chosen_for_the_same_by_the_command(run, capsys):
    """The command (final policy read from checkpoints/latest.zip) plays the games the end
    of training played (the final policy in memory): the same rates, the same choice."""
    folder, final = run
    before = json.loads((folder / "selection.json").read_text())
    (folder / "selection.json").unlink()
    (folder / "eval.json").write_text(json.dumps({
        k: v for k, v in final.items() if not k.startswith(("vs_", "win_rate", "mean_rank",
                                                             "heuristic_vs"))}))
    assert cli.main(["select", str(folder), "--quiet", "--evaluate"]) == 0
    assert json.loads((folder / "selection.json").read_text()) == before
    assert "model.zip is the " in capsys.readouterr().out
    # --evaluate plays the final evaluation's games with the chosen policy, as train did
    again = json.loads((folder / "eval.json").read_text())
    for key in ("vs_random", "vs_heuristic", "heuristic_vs_random", "win_rate_vs_heuristic"):
        assert again[key] == json.loads(json.dumps(final[key])), key
    assert "model.zip is the " in (folder / "summary.md").read_text()


@pytest.mark.slow
def test_a_chosen_snapshot_is_shipped_and_the_checkpoint_stays_the_end(
        tmp_path, monkeypatch):
    """When a snapshot wins, its weights become model.zip (and what the final evaluation
    plays); checkpoints/latest.zip stays the final policy for --resume."""
    real = select_module.select_policy

    def snapshot_wins(config, run_dir, final, final_step, **kwargs):
        result = real(config, run_dir, final, final_step, **kwargs)
        first = result["candidates"][0]
        return {**result, "chosen": first["step"], "file": first["file"]}

    monkeypatch.setattr(select_module, "select_policy", snapshot_wins)
    config = load_config("configs/primordial_soup/default.yaml",
                         **{**SMOKE, "select.games": 4})
    folder = tmp_path / "run"
    final = train(config, folder, progress=False)
    assert final["selection"]["file"] == "snapshots/step_1024.zip"
    assert _weights(folder / "model.zip") == _weights(folder / "snapshots" / "step_1024.zip")
    assert _weights(folder / "checkpoints" / "latest.zip") != _weights(folder / "model.zip")
    assert final["total_steps"] == 3072


def test_candidates_are_the_newest_snapshots_at_least_a_rollout_before_the_end(tmp_path):
    config = load_config("configs/primordial_soup/default.yaml", **SMOKE)  # rollout 1,024
    (tmp_path / "snapshots").mkdir()
    for step in (0, 1024, 2048, 3000, 4000):
        (tmp_path / "snapshots" / f"step_{step}.zip").write_bytes(b"")
    (tmp_path / "snapshots" / "step_x.zip").write_bytes(b"")
    assert [s for s, _p in candidates(config, tmp_path, 4000)] == [1024, 2048]
    assert [s for s, _p in candidates(config, tmp_path, 3072)] == [1024, 2048]
    one = load_config("configs/primordial_soup/default.yaml",
                      **{**SMOKE, "select.snapshots": 1})
    assert [s for s, _p in candidates(one, tmp_path, 4000)] == [2048]
    none = load_config("configs/primordial_soup/default.yaml",
                       **{**SMOKE, "select.snapshots": 0})
    assert candidates(none, tmp_path, 4000) == []


def test_with_no_snapshot_to_compare_no_selection_game_is_played(tmp_path, monkeypatch):
    """A run shorter than its first evaluation has only its final policy: it is chosen
    without the ``select.games`` games that could only measure it."""
    from primeval.training.ppo.select import select_policy, summary_line

    def no_games(*args, **kwargs):
        raise AssertionError("a selection game was played")

    monkeypatch.setattr("primeval.training.evaluate.play_tournament", no_games)
    config = load_config("configs/primordial_soup/default.yaml", **SMOKE)
    selection = select_policy(config, tmp_path, "unused.zip", 4096)
    assert selection == {"games": 0, "opponents": "heuristic", "seeds": "selection",
                         "candidates": [], "chosen": 4096, "file": None}
    assert summary_line(selection) == (
        "model.zip is the final policy: no snapshot before it to compare it with")


@pytest.mark.parametrize(("key", "value", "message"), [
    ("select.snapshots", -1, "select.snapshots=-1: must be an int >= 0"),
    ("select.games", 0, "games=0: must be > 0"),
])
def test_bad_select_settings_name_the_key(key, value, message):
    with pytest.raises(ConfigError, match=message):
        load_config("configs/primordial_soup/default.yaml", **{key: value})


def test_the_command_refuses_a_folder_that_is_no_finished_run(tmp_path, capsys):
    assert cli.main(["select", str(tmp_path)]) == 2
    assert "no config.yaml" in capsys.readouterr().err
    config = load_config("configs/primordial_soup/default.yaml", **SMOKE)
    from primeval.training.ppo.config import save_config

    save_config(config, tmp_path / "config.yaml")
    assert cli.main(["select", str(tmp_path)]) == 2
    assert "no checkpoints/latest.zip" in capsys.readouterr().err


# -- select.average: the mean of the last policies as one more candidate ----------------------


def test_mean_weights_is_the_element_wise_mean_and_refuses_other_networks():
    import torch

    from primeval.training.ppo.select import mean_weights

    a = {"w": torch.tensor([1.0, 2.0]), "h": torch.tensor([1.0], dtype=torch.float16),
         "n": torch.tensor([3])}
    b = {"w": torch.tensor([3.0, 6.0]), "h": torch.tensor([2.0], dtype=torch.float16),
         "n": torch.tensor([3])}
    mean = mean_weights([a, b])
    assert torch.equal(mean["w"], torch.tensor([2.0, 4.0]))
    assert mean["h"].dtype == torch.float16 and float(mean["h"]) == 1.5
    assert torch.equal(mean["n"], torch.tensor([3]))
    with pytest.raises(ValueError, match="at least two"):
        mean_weights([a])
    with pytest.raises(ValueError, match="state dict 1 is not the same network"):
        mean_weights([a, {**b, "w": torch.zeros(3)}])
    with pytest.raises(ValueError, match="state dict 1 is not the same network"):
        mean_weights([a, {"w": b["w"], "h": b["h"]}])
    with pytest.raises(ValueError, match="n is not a float tensor and differs"):
        mean_weights([a, {**b, "n": torch.tensor([4])}])


@pytest.mark.parametrize(("value", "message"), [
    (1, r"select.average=1: must be 0 \(none\) or an int >= 2"),
    (-2, r"select.average=-2: must be 0 \(none\) or an int >= 2"),
    (True, r"select.average: expected int, got True"),
    (2.5, r"select.average: expected int, got 2.5"),
])
def test_a_bad_select_average_names_the_key(value, message):
    with pytest.raises(ConfigError, match=message):
        load_config("configs/primordial_soup/default.yaml", **{"select.average": value})


def _copy(run, tmp_path):
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(run[0], folder)
    return folder


@pytest.mark.slow
def test_the_mean_of_the_last_policies_is_offered_and_shipped_when_it_wins(
        run, tmp_path, monkeypatch, capsys):
    """``select.average=3``: average.zip holds the mean of the two snapshots' and the final
    policy's weights; it is one more candidate on the same games; chosen, it is model.zip."""
    import torch

    from primeval.training.agents.checkpoint import load_model

    folder = _copy(run, tmp_path)
    real = select_module.select_policy

    def mean_wins(config, run_dir, final, final_step, **kwargs):
        result = real(config, run_dir, final, final_step, **kwargs)
        mean = [c for c in result["candidates"] if "mean_of" in c]
        return {**result, "chosen": mean[0]["step"], "file": mean[0]["file"]}

    assert cli.main(["select", str(folder), "--quiet", "--set", "select.average=3"]) == 0
    selection = json.loads((folder / "selection.json").read_text())
    assert [c["step"] for c in selection["candidates"]] == [1024, 2048, 3072, 3072]
    mean = selection["candidates"][-1]
    assert mean["file"] == "average.zip" and mean["mean_of"] == [1024, 2048, 3072]
    # the same games as the others: the final policy's rate is the one the run's end measured
    before = json.loads((run[0] / "selection.json").read_text())
    assert selection["candidates"][:3] == before["candidates"]
    states = [load_model(p).policy.state_dict() for p in (
        folder / "snapshots" / "step_1024.zip", folder / "snapshots" / "step_2048.zip",
        folder / "checkpoints" / "latest.zip")]
    averaged = load_model(folder / "average.zip")
    assert averaged.num_timesteps == 3072
    for key, tensor in averaged.policy.state_dict().items():
        expected = torch.stack([s[key].float() for s in states]).mean(dim=0)
        assert torch.allclose(tensor, expected), key
    assert not torch.equal(averaged.policy.state_dict()["action_net.weight"],
                           states[-1]["action_net.weight"])

    monkeypatch.setattr(select_module, "select_policy", mean_wins)
    assert cli.main(["select", str(folder), "--quiet", "--set", "select.average=3"]) == 0
    selection = json.loads((folder / "selection.json").read_text())
    assert selection["file"] == "average.zip"
    assert _weights(folder / "model.zip") == _weights(folder / "average.zip")
    assert select_module.summary_line(selection).startswith(
        "model.zip is the mean of the last 3 policies (1,024 to 3,072), the best against")
    assert _weights(folder / "checkpoints" / "latest.zip") != _weights(folder / "model.zip")


@pytest.mark.slow
def test_a_damaged_snapshot_stops_the_mean_and_changes_nothing(run, tmp_path, capsys):
    folder = _copy(run, tmp_path)
    model_before = (folder / "model.zip").read_bytes()
    selection_before = (folder / "selection.json").read_text()
    (folder / "snapshots" / "step_2048.zip").write_bytes(b"not a zip")
    assert cli.main(["select", str(folder), "--quiet", "--set", "select.average=2"]) == 2
    assert "step_2048.zip" in capsys.readouterr().err
    assert (folder / "model.zip").read_bytes() == model_before
    assert (folder / "selection.json").read_text() == selection_before
    assert not (folder / "average.zip").exists()


def test_the_command_asks_for_snapshots_or_a_mean(tmp_path, capsys):
    config = load_config("configs/primordial_soup/default.yaml",
                         **{**SMOKE, "select.snapshots": 0})
    from primeval.training.ppo.config import save_config

    save_config(config, tmp_path / "config.yaml")
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "latest.zip").write_bytes(b"")
    (tmp_path / "checkpoints" / "progress.json").write_text('{"num_timesteps": 3072}')
    assert cli.main(["select", str(tmp_path)]) == 2
    assert "select.snapshots and select.average are 0" in capsys.readouterr().err


@pytest.mark.slow
def test_the_mean_from_a_model_in_memory_is_the_mean_from_its_checkpoint(run, tmp_path):
    """At the end of training the final policy is a model in memory, in ``primeval select``
    the checkpoint: the same mean either way."""
    from primeval.training.agents.checkpoint import load_model
    from primeval.training.ppo.select import mean_policy

    folder = _copy(run, tmp_path)
    config = load_config(folder / "config.yaml", **{"select.average": 2})
    latest = folder / "checkpoints" / "latest.zip"
    steps, out = mean_policy(config, folder, latest, 3072)
    assert steps == [2048, 3072] and out == folder / "average.zip"
    from_file = _weights(out)
    steps, out = mean_policy(config, folder, load_model(latest), 3072)
    assert steps == [2048, 3072] and _weights(out) == from_file
    assert mean_policy(load_config(folder / "config.yaml"), folder, latest, 3072) is None
